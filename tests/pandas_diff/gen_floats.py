"""Single-column CSVs of random float literals, for the reader's float
parsing (pandas' xstrtod with float_precision=None, and the shortest repr
the cells print with).

  /usr/bin/python3 tests/pandas_diff/gen_floats.py DIR SEED NFILES ROWS

Each literal has 0 to 20 integer digits (with leading zeros), 0 to 60
fraction digits (runs of 0 and 9 among them), an optional sign, an
exponent up to +-400 (sometimes zero-padded, sometimes at the subnormal
and overflow edges) and, now and then, spaces around it. Compare with
tt_dump and pd_digest.py (README.md).
"""
import os
import random
import sys


def literal(r):
    sign = r.choice(['', '', '', '-', '+'])
    nint = r.choice([0, 0, 1, 1, 2, 3, 5, 8, 15, 16, 17, 18, 19, 20])
    nfrac = r.choice([0, 1, 2, 3, 5, 10, 15, 16, 17, 18, 20, 25, 40, 60])
    zeros = min(r.choice([0, 0, 0, 1, 3, 10, 20]), 20 - nint)
    ip = '0' * zeros + ''.join(r.choice('0123456789') for _ in range(nint))
    fp = ''.join(r.choice('0123456789' if r.random() < 0.8 else '09')
                 for _ in range(nfrac))
    if r.random() < 0.2:
        fp = '0' * r.randint(1, 30) + fp
    s = sign + ip
    if fp or r.random() < 0.3 or not ip:
        s += '.' + fp
    if s.strip('+-.') == '':
        s = sign + '0.5'
    if r.random() < 0.5:
        e = r.choice([r.randint(-30, 30), r.randint(-400, 280),
                      r.choice([-324, -323, -308, -307, -344, -343, 0, 270,
                                -292])])
        es = str(abs(e))
        if r.random() < 0.2:
            es = '0' * r.randint(1, 5) + es
        s += r.choice('eE') + ('-' if e < 0 else r.choice(['', '+'])) + es
    if r.random() < 0.05:
        s = ' ' + s
    if r.random() < 0.05:
        s = s + '  '
    return s


def main():
    d, seed, nfiles, rows = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                             int(sys.argv[4]))
    os.makedirs(d, exist_ok=True)
    r = random.Random(seed)
    for i in range(nfiles):
        with open(os.path.join(d, 'fl%05d.csv' % i), 'w') as f:
            f.write('a\n')
            for _ in range(rows):
                f.write(literal(r) + '\n')


if __name__ == '__main__':
    main()
