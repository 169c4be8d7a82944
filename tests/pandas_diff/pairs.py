"""compare_pandas_table against focused_match on every ordered pair of small
tables, and on pairs at the tolerance boundaries.

  /usr/bin/python3 tests/pandas_diff/pairs.py WORK FAMILY [SEED COUNT]
      [--part K/N] [--mirror SPIDER2_REPO] [--ext PATH]
  /usr/bin/python3 tests/pandas_diff/pairs.py WORK --golden SQL EXPECTED

FAMILY: `one` (one column, one row, 50 tricky cells: 2,500 pairs x
ignore_order x 3 flavours), `two` (one column, two rows: 256 tables,
65,536 pairs: sorting ties and order), `wide` (two columns, one row, 121
tables, with condition_cols [], [0], [1]: numpy's common type for the
frame), `tol` (COUNT random one-cell pairs of seed SEED at the 1e-2
absolute and 1e-9 relative tolerance a few ulps either side, ints against
floats near 2^53, 2^63, 2^64, random bit patterns; snow and dbt). Each
pair is judged by the official compare_pandas_table of each flavour
(taken from the Spider2 repository as verdict_diff.py takes it; `--mirror`
or $SPIDER2_REPO) and by focused_match; pairs pandas cannot read are
skipped. Prints the first differences and `# FAMILY: N comparisons, M
differ`. WORK holds the files (kept). `--part K/N` judges only the K-th
of every N gold tables (`two` and `wide` take minutes: run them in
parts).

`--golden` writes instead tests/sql/pdiff_tol.sql and its .expected: 40
`tol` pairs of seed 5 judged by focused_match on CSV BLOBs, the expected
verdicts the official snow and dbt compare_pandas_table's.
"""
import argparse
import itertools
import json
import math
import os
import random
import sqlite3
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_diff as vd  # noqa: E402

ONE = ['0', '0.01', '-0.01', '0.02', '0.010000000000000002', '0.0099999999',
       '-0.0', '', 'nan', 'True', 'true', 'False', '1', '1.0', '0.99', '1.01',
       'x', 'X', 'None', '9007199254740993', '9007199254740992',
       '18446744073709551615', '18446744073709551616', '-9223372036854775808',
       'inf', '-inf', '1e16', '10000000000000001', '10000000', '10000000.01',
       '10000000.02', '1e308', '-1e308', '0.1', '0.3', '0.30000000000000004',
       '2', '10', '9', '-1', '1e-05', '0.00001', '"1"', ' 1', '1 ', 'é', 'e',
       'a b', '1.7976931348623157e308', '-1.7976931348623157e308']
TWO = ['0', '0.01', '', 'True', '1', '1.0', 'x', '10', '9', '-1', '1e16',
       'inf', '-0.0', '2', '18446744073709551615', 'None']
WIDE = ['1', '1.0', 'True', '', 'x', '18446744073709551615',
        '9007199254740993', '-9223372036854775808', '0.01', '-0.0', 'inf']


def ulps(x, k):
    for _ in range(abs(k)):
        x = math.nextafter(x, math.inf if k > 0 else -math.inf)
    return x


def tol_pair(r):
    """Two cell texts near a tolerance boundary."""
    k = r.random()
    if k < 0.4:  # absolute 1e-2
        a = (r.choice([0.0, 1.0, -1.0, 0.005, 0.01, 100.0, 12345.67, 1e6,
                       9999999.99]) if r.random() < 0.5
             else r.uniform(-1e6, 1e6))
        b = ulps(a + r.choice([0.01, -0.01]), r.randint(-3, 3))
        return repr(a), repr(b)
    if k < 0.7:  # relative 1e-9 of math.isclose
        a = r.choice([1e7, 1e8, 1e9, 1e12, 1e15, 1e16, 2.0**53, 1e18, 9.2e18,
                      1.8e19, 1e20, 1e300]) * r.choice([1, -1, 1.234567])
        b = ulps(a * (1 + r.choice([1e-9, -1e-9])), r.randint(-3, 3))
        if r.random() < 0.3:
            b = ulps(a, r.randint(-5, 5))
        return repr(a), repr(b)
    if k < 0.85:  # an int against a float or another int
        i = r.choice([2**53, 2**53 + 1, 2**63 - 1, -2**63, 2**64 - 1, 10**7,
                      10**16 + 1, 12345678912345678]) + r.randint(-2, 2)
        f = float(i) + r.choice([0.0, 0.01, -0.01, 1.0, 2048.0, 0.5])
        return str(i), (repr(f) if r.random() < 0.7
                        else '%d' % (i + r.randint(-20000, 20000)))
    a = struct.unpack('<d', struct.pack('<Q', r.getrandbits(64)))[0]
    if not math.isfinite(a):
        a = 1.0
    return repr(a), repr(ulps(a, r.randint(-2, 2)) +
                          r.choice([0.0, 0.01, -0.01]))


def write(work, name, text):
    p = os.path.join(work, name + '.csv')
    with open(p, 'w', encoding='utf-8', newline='') as f:
        f.write(text)
    return p


def family_files(work, fam):
    if fam == 'one':
        return [write(work, 'o%02d' % i, 'a\n%s\n' % t)
                for i, t in enumerate(ONE)]
    if fam == 'two':
        return [write(work, 't%03d' % i, 'a\n%s\n%s\n' % ab)
                for i, ab in enumerate(itertools.product(TWO, TWO))]
    return [write(work, 'w%03d' % i, 'a,b\n%s,%s\n' % ab)
            for i, ab in enumerate(itertools.product(WIDE, WIDE))]


def spidereval(db, p, g, cc, io_, fl):
    try:
        return db.execute('select focused_match(?, ?, ?, ?, ?)',
                          (p, g, json.dumps(cc), int(io_), fl)).fetchone()[0]
    except sqlite3.Error:
        return 'error'


def run_tol(work, seed, count, off, db):
    r = random.Random(seed)
    n = nd = 0
    for i in range(count):
        a, b = tol_pair(r)
        pa = write(work, 'a%d' % i, 'x\n%s\n' % a)
        pb = write(work, 'b%d' % i, 'x\n%s\n' % b)
        for fl in ('snow', 'dbt'):
            o = vd.official_compare(off[fl], pa, pb, [], False)
            s = spidereval(db, pa, pb, [], False, fl)
            n += 1
            if o != s:
                nd += 1
                if nd < 20:
                    print('DIFF %s pred=%s gold=%s official=%s spidereval=%s'
                          % (fl, a, b, o, s))
        os.remove(pa)
        os.remove(pb)
    print('# tol: %d comparisons, %d differ' % (n, nd))


def run_family(work, fam, off, db, part):
    files = family_files(work, fam)
    ccs = [[]] if fam != 'wide' else [[], [0], [1]]
    n = nd = 0
    for gi, g in enumerate(files):
        if gi % part[1] != part[0] - 1:
            continue
        for p in files:
            for cc in ccs:
                for io_ in (False, True):
                    for fl in ('snow', 'lite', 'dbt'):
                        o = vd.official_compare(off[fl], p, g, cc, io_)
                        if o == 'readerr':
                            continue
                        s = spidereval(db, p, g, cc, io_, fl)
                        n += 1
                        if o != s:
                            nd += 1
                            if nd <= 40:
                                print('DIFF %s pred=%r gold=%r cc=%s io=%s '
                                      'official=%s spidereval=%s'
                                      % (fl, open(p).read(), open(g).read(),
                                         cc, io_, o, s), flush=True)
    print('# %s: %d comparisons, %d differ' % (fam, n, nd))


def write_golden(work, sql_path, expected_path, off):
    r = random.Random(5)
    with open(sql_path, 'w') as f, open(expected_path, 'w') as e:
        f.write('-- Cells at the tolerance boundaries (tests/pandas_diff/'
                'pairs.py --golden, seed 5):\n'
                '-- 1e-2 absolute, 1e-9 relative, ints against floats, a '
                'few ulps either\n'
                '-- side; prediction and gold one-cell CSVs. The expected '
                'verdicts are the\n'
                '-- official snow and dbt compare_pandas_table\'s (measured '
                'with pandas 1.5.3).\n'
                '.load build/spidereval\n.mode list\n')
        for i in range(40):
            a, b = tol_pair(r)
            pa = write(work, 'ga', 'x\n%s\n' % a)
            pb = write(work, 'gb', 'x\n%s\n' % b)
            vd.PD.clear()  # same paths, new contents
            for fl in ('snow', 'dbt'):
                o = vd.official_compare(off[fl], pa, pb, [], False)
                f.write("SELECT %d, '%s', focused_match(CAST('x' || char(10) "
                        "|| '%s' || char(10) AS BLOB), CAST('x' || char(10) || "
                        "'%s' || char(10) AS BLOB), '[]', 0, '%s');\n"
                        % (i + 1, fl, a, b, fl))
                e.write('%d|%s|%s\n' % (i + 1, fl, o))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('work')
    ap.add_argument('family', nargs='?', choices=['one', 'two', 'wide', 'tol'])
    ap.add_argument('seed', type=int, nargs='?', default=1)
    ap.add_argument('count', type=int, nargs='?', default=6000)
    ap.add_argument('--golden', nargs=2, metavar=('SQL', 'EXPECTED'))
    ap.add_argument('--part', default='1/1', metavar='K/N',
                    help='only the K-th of every N gold tables (one, two, '
                    'wide)')
    ap.add_argument('--mirror', default=os.environ.get('SPIDER2_REPO'),
                    help='a clone of xlang-ai/Spider2 (default: '
                    '$SPIDER2_REPO)')
    ap.add_argument('--ext', default=os.path.join(here, '../../build/spidereval'))
    a = ap.parse_args()
    if not a.mirror:
        ap.error('--mirror or $SPIDER2_REPO is needed')
    if not a.golden and not a.family:
        ap.error('FAMILY or --golden needed')
    os.makedirs(a.work, exist_ok=True)
    off = vd.load_official(a.mirror)
    if a.golden:
        return write_golden(a.work, a.golden[0], a.golden[1], off)
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    if a.family == 'tol':
        run_tol(a.work, a.seed, a.count, off, db)
    else:
        run_family(a.work, a.family, off, db,
                   tuple(int(x) for x in a.part.split('/')))


if __name__ == '__main__':
    main()
