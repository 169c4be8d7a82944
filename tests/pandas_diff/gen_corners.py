"""The corner families where pandas' readers differ between versions
(issue 34), as small CSV files, for the generations harness
(tests/pandas_diff/generations.sh).

  python3 tests/pandas_diff/gen_corners.py DIR FIRST_SEED COUNT [FAMILY...]

Writes DIR/<family>_<seed>.csv for each family (all when none is named)
and each seed. Families:
  na      NA spellings among numbers and text: every default NA token of
          pandas 1.5 and 2.x ('None' is one from 2.0), near misses
          ('none', 'NONE', ' None', '"None"', 'Null'), quoted and not;
  int64   integers at and around -2^63, 2^63 and 2^64 (signs, leading
          zeros, +), with and without an NA in the column (1.5 masks every
          value equal to -2^63 as a float; 2.x only the exact -2^63);
  big     integers beyond 64 bits, alone or with a fraction or exponent,
          beside '+007', small ints and text (3.0 reads them as Python
          ints or floats, 1.5 and 2.x as str);
  exp     exponents at 2^31, 2^32 and beyond, long runs of zeros in the
          exponent, signs (1.5 and 2.x wrap the exponent modulo 2^32);
  chunk   one column that is bool-like in one low_memory chunk and int or
          float in the next (the file is 2^18 / width rows, a few hundred
          KB), its order of kinds drawn per seed.
Deterministic in the seed. No pandas needed.
"""
import os
import random
import sys

NA_TOKENS = ['', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN',
             '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN',
             'n/a', 'nan', 'null', 'None']
NEAR_NA = ['none', 'NONE', ' None', 'None ', 'Null', 'NAN', 'Nan', 'nil',
           'NaT', 'N/a', '-NAN']
EDGES = ['-9223372036854775808', '-9223372036854775807',
         '-9223372036854775809', '-9223372036854775296',
         '-9223372036854775295', '-009223372036854775806',
         '-9223372036854775808.0', '9223372036854775807',
         '9223372036854775808', '+9223372036854775807',
         '18446744073709551615', '18446744073709551616', '-1', '0', '7',
         '00', '-0']
BIG = ['20000000000000000000', '99999999999999999999999',
       '-99999999999999999999', '123456789012345678901234567890',
       '20000000000000000000.5', '99999999999999999999999e3',
       '-36893488147419103232', '18446744073709551616',
       '+007', '007', '2e19', '1', '-3', 'x', '']
EXPS = ['6.33e4294967296', '1e4294967295', '1e2147483648', '1e2147483647',
        '1e-2147483649', '2.5e8589934593', '3.98e+' + '0' * 40,
        '1e' + '0' * 30 + '5', '7E-' + '0' * 25 + '1', '1e+4294967297',
        '-4e4294967296', '1e99999999999999999999', '1e-99999999999999999999',
        '5e308', '1e-400', '0e4294967296', '1.5', '12']


def quote(s, rnd):
    if s == '' or rnd.random() < 0.8:
        if any(ch in s for ch in ',"\n\r') or s != s.strip():
            return '"' + s.replace('"', '""') + '"'
        return s
    return '"' + s.replace('"', '""') + '"'


def table(rnd, pools, nrows, ncols):
    names = ['c%d' % i for i in range(ncols)]
    pools_c = [rnd.choice(pools) for _ in range(ncols)]
    lines = [','.join(names)]
    for _ in range(nrows):
        lines.append(','.join(quote(rnd.choice(p), rnd) for p in pools_c))
    if ncols == 1 and all(ln == '' for ln in lines[1:]):
        lines.append('1')
    return '\n'.join(lines) + ('\n' if rnd.random() < 0.8 else '')


def fam_na(rnd):
    nums = ['0', '1', '2.5', '-3', '1e3', 'True', 'abc']
    pools = [NA_TOKENS + nums, NA_TOKENS + nums[:4], NEAR_NA + nums,
             ['None', '0'], ['None', '1.5'], ['None', 'x'], ['None', 'True'],
             NA_TOKENS, NEAR_NA + NA_TOKENS]
    return table(rnd, pools, rnd.randint(1, 8), rnd.randint(1, 3))


def fam_int64(rnd):
    pools = [EDGES, EDGES + [''], EDGES[:7] + ['', 'NA'],
             ['-9223372036854775807', ''], ['-9223372036854775808', ''],
             ['-9223372036854775296', '', '5'], EDGES + ['1.5'],
             EDGES + ['None']]
    return table(rnd, pools, rnd.randint(1, 8), rnd.randint(1, 3))


def fam_big(rnd):
    pools = [BIG, BIG[:8] + ['1', ''], ['+007', '20000000000000000000'],
             ['+007', '1', '99999999999999999999999'], BIG + ['NA', '1.5'],
             ['20000000000000000000', '2e19'], BIG[4:6] + ['3']]
    return table(rnd, pools, rnd.randint(1, 8), rnd.randint(1, 3))


def fam_exp(rnd):
    pools = [EXPS, EXPS + ['', 'x'], EXPS[:12], EXPS + ['None']]
    return table(rnd, pools, rnd.randint(1, 8), rnd.randint(1, 3))


CHUNK_KINDS = {
    'bool': lambda i: 'True' if i % 2 else 'False',
    'boolna': lambda i: '' if i % 3 == 0 else 'true',
    'int': lambda i: str(i % 5),
    'intna': lambda i: '' if i % 4 == 0 else str(i % 9),
    'float': lambda i: '%d.25' % (i % 5),
    'str': lambda i: 'x%d' % (i % 3),
    'none': lambda i: 'None' if i % 2 else '1',
}


def fam_chunk(rnd):
    width = 64
    per_chunk = (1 << 18) // width  # rows a low_memory chunk holds at most
    kinds = [rnd.choice(sorted(CHUNK_KINDS)) for _ in range(rnd.randint(2, 3))]
    rows = per_chunk * len(kinds)
    lines = [','.join('c%d' % i for i in range(width))]
    filler = ['%d' % (i % 3) for i in range(width - 1)]
    for r in range(rows):
        k = kinds[min(r // per_chunk, len(kinds) - 1)]
        lines.append(CHUNK_KINDS[k](r) + ',' + ','.join(filler))
    return '\n'.join(lines) + '\n'


FAMILIES = {'na': fam_na, 'int64': fam_int64, 'big': fam_big,
            'exp': fam_exp, 'chunk': fam_chunk}


def main(argv):
    out, first, count = argv[0], int(argv[1]), int(argv[2])
    fams = argv[3:] or list(FAMILIES)
    os.makedirs(out, exist_ok=True)
    for fam in fams:
        for seed in range(first, first + count):
            rnd = random.Random('%s-%d' % (fam, seed))
            with open(os.path.join(out, '%s_%d.csv' % (fam, seed)), 'w',
                      newline='') as f:
                f.write(FAMILIES[fam](rnd))


if __name__ == '__main__':
    main(sys.argv[1:])
