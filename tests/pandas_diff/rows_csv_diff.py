"""The Python package's rows_to_csv against pandas' own to_csv.

  /usr/bin/python3 tests/pandas_diff/rows_csv_diff.py [SEED] [COUNT]

python/spidereval/tables.py rows_to_csv(columns, rows) writes the CSV
`pandas.DataFrame(rows, columns=columns).to_csv(index=False)` writes,
without pandas (the reward and agent code use it for fetched rows). Each
of COUNT random tables (default 20,000; 1 to 3 columns, 1 to 4 rows, each
column drawn from a few of: None, NaN, booleans, ints at the int64 and
uint64 edges and beyond, -0.0, inf, big floats, text with , CR \" and
non-ASCII, ints past 2^64) is written both ways; an exception on either
side is compared by its type. Prints the first differences and
`# N tables, M differ`.
"""
import os
import random
import sys

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '../../python'))
from spidereval.tables import rows_to_csv  # noqa: E402

VALUES = [None, float('nan'), True, False, 0, 1, -1, 2**63 - 1, 2**63,
          2**64 - 1, 2**64, -2**63, -2**63 - 1, 0.0, -0.0, 1.5, 1e16,
          float('inf'), -float('inf'), 2.0**63, '', 'x', 'a,b', 'a\rb', 'NA',
          'True', '1', ' ', 'é', '"', 10**30, 5e-324]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    r = random.Random(seed)
    nd = 0
    for _ in range(count):
        w, h = r.randint(1, 3), r.randint(1, 4)
        pools = [r.sample(VALUES, r.randint(1, 4)) for _ in range(w)]
        rows = [tuple(r.choice(pools[c]) for c in range(w)) for _ in range(h)]
        cols = ['c%d' % i for i in range(w)]
        try:
            want = pd.DataFrame(rows, columns=cols).to_csv(index=False)
        except Exception as e:
            want = 'ERR ' + type(e).__name__
        try:
            got = rows_to_csv(cols, rows)
        except Exception as e:
            got = 'ERR ' + type(e).__name__
        if want != got:
            nd += 1
            if nd <= 10:
                print('DIFF rows=%r\n  pandas=%r\n  ours  =%r'
                      % (rows, want, got))
    print('# %d tables, %d differ' % (count, nd))


if __name__ == '__main__':
    main()
