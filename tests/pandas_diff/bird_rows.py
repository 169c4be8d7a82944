"""rows_verdict('bird') against BIRD's own rule, set(pred) == set(gold), on
random small results.

  /usr/bin/python3 tests/pandas_diff/bird_rows.py [SEED] [COUNT] [--ext=PATH]

BIRD's evaluation scores a prediction 1 when the sets of fetched row tuples
are equal (Python equality: 1 == 1.0 == True, -0.0 == 0.0, ints and floats
compared exactly at 2^53 and 2^63, bytes never equal to str). Each of COUNT
random pairs of results (default 20,000; 0 to 3 rows of 1 or 2 values) is
given to rows_verdict as JSON (a BLOB as {"blob": hex}, inf as {"real":
"inf"}). No pandas needed. Prints the first differences and
`# N cases, M differ`.
"""
import json
import math
import os
import random
import sqlite3
import sys

VALUES = [0, 1, -1, 0.0, -0.0, 1.0, 2**53, 2**53 + 1, float(2**53), 2**63 - 1,
          -2**63, float(2**63), 9223372036854775807.0, 0.1,
          0.30000000000000004, 0.3, math.inf, -math.inf, None, '', '1', 'a',
          'A', b'1', b'', 1e16, 10**16, 1e300, 5e-324, 2**62, float(2**62)]


def encode(v):
    if isinstance(v, bytes):
        return {'blob': v.hex()}
    if isinstance(v, float) and math.isinf(v):
        return {'real': 'inf' if v > 0 else '-inf'}
    return v


def dump(rows):
    return json.dumps([[encode(x) for x in row] for row in rows])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in sys.argv[1:] if not a.startswith('--ext')]
    ext = os.path.join(here, '../../build/spidereval')
    for a in sys.argv[1:]:
        if a.startswith('--ext='):
            ext = a[6:]
    seed = int(args[0]) if args else 5
    count = int(args[1]) if len(args) > 1 else 20000
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(ext)
    r = random.Random(seed)
    nd = 0
    for _ in range(count):
        w = r.choice([1, 1, 2])
        g = [tuple(r.choice(VALUES) for _ in range(w))
             for _ in range(r.randint(0, 3))]
        if r.random() < 0.5:
            p = [tuple(r.choice(VALUES) for _ in range(w))
                 for _ in range(r.randint(0, 3))]
        else:
            p = [tuple(r.choice([x, r.choice(VALUES)]) for x in row)
                 for row in g]
        if r.random() < 0.2 and g:
            p = g[::-1] + [g[0]]
        want = int(set(p) == set(g))
        got = json.loads(db.execute('select rows_verdict(?, ?, ?)',
                                    (dump(p), dump(g), 'bird')).fetchone()[0])
        if want != got['score']:
            nd += 1
            if nd <= 10:
                print('DIFF pred=%r gold=%r python=%s spidereval=%s'
                      % (p, g, want, got['score']))
    print('# %d cases, %d differ' % (count, nd))


if __name__ == '__main__':
    main()
