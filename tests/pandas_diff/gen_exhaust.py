"""Every file up to MAXLEN bytes over a small alphabet (a complete sweep of
small inputs, not random).

  /usr/bin/python3 tests/pandas_diff/gen_exhaust.py DIR MAXLEN ALPHABET [PREFIX [SUFFIX]]

ALPHABET: s = structure (, \" LF CR space 1 a TAB); n = numbers
(1 . e - + space , LF); q = quoting (\" a , LF CR space 0); x = odd bytes
(1 , LF CR space T NUL 0xC3); u = UTF-8 lead and continuation bytes at
the edges of their ranges (80 8F 90 9F A0 BF C0 C1 C2 DF E0 ED EF F0 F4
F5 FF, x, LF: where CPython's decoder reports what, and when, e.g. the
truncated surrogate ED A0..BF). PREFIX and SUFFIX (Python escapes, e.g.
'a,b\\n') are written before and after each body. Files are named e000000.csv ... in order of
length; 8^5 + ... + 8 = 37,448 files for MAXLEN 5. Compare with tt_dump
and pd_digest.py (README.md): ParserErrors, EmptyDataErrors and the cells
of every file, identical.

  /usr/bin/python3 tests/pandas_diff/gen_exhaust.py --golden SQL EXPECTED

writes instead the golden test tests/sql/pdiff_exhaust.sql: 12 files of up
to 5 bytes drawn from each alphabet (seed 11; n after 'a\n', q after
'a,b\n'), written at test time under build/pdiff_exhaust/; the expected
lines are pandas' reading of each (measured here): the column names and
dtypes and every cell's Python type and str() in the frame's values, as
the comparison sees them (result_columns and result_cells), or the exception and its message (spider_verdict's
"Evaluation Error:" for the file as a prediction).
"""
import itertools
import os
import sys

ALPHABETS = {'s': b',"\n\r 1a\t', 'n': b'1.e-+ ,\n', 'q': b'"a,\n\r 0',
             'x': b'1,\n\r T\x00\xc3',
             'u': bytes([0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
                         0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff]) +
             b'x\n'}


GOLDEN_PREFIX = {'s': b'', 'n': b'a\n', 'q': b'a,b\n', 'x': b''}
GOLDEN_ALPHABETS = 'snqx'


def kind(x):
    if isinstance(x, bool):
        return 'bool'
    if isinstance(x, int):
        return 'int'
    if isinstance(x, float):
        return 'nan' if x != x else 'float'
    return 'str'


def write_golden(sql_path, expected_path):
    import random
    import tempfile
    import warnings
    import pandas as pd
    warnings.simplefilter('ignore')
    r = random.Random(11)
    files = []
    for name in GOLDEN_ALPHABETS:
        alphabet = ALPHABETS[name]
        for _ in range(12):
            body = bytes(r.choice(alphabet) for _ in range(r.randint(1, 5)))
            files.append(GOLDEN_PREFIX[name] + body)
    tmp = tempfile.mkdtemp()
    with open(sql_path, 'w') as f, open(expected_path, 'w') as e:
        f.write("-- pandas' reading of 48 small files (tests/pandas_diff/"
                "gen_exhaust.py --golden,\n"
                "-- seed 11): names and dtypes, then every cell's kind and "
                "text, or the\n"
                "-- exception; the expected lines were measured with pandas "
                "1.5.3.\n"
                ".load build/spidereval\n.mode list\n"
                ".shell rm -rf build/pdiff_exhaust\n")
        for k, data in enumerate(files):
            path = os.path.join(tmp, 'f.csv')
            with open(path, 'wb') as t:
                t.write(data)
            rel = 'build/pdiff_exhaust/e%02d.csv' % k
            f.write("SELECT writefile('%s', X'%s') >= 0;\n"
                    % (rel, data.hex().upper()))
            e.write('1\n')
            try:
                df = pd.read_csv(path)
            except Exception as ex:
                f.write("SELECT %d, spider_verdict(readfile('%s'), "
                        "'tests/fixtures/gold_cc', 'c23') ->> 'error_info';\n"
                        % (k, rel))
                # spidereval's error_info drops the message's final newline
                e.write('%d|Evaluation Error:%s: %s\n'
                        % (k, type(ex).__name__, str(ex).rstrip('\n')))
                continue
            f.write("SELECT %d, group_concat(name || ':' || dtype, ',') FROM "
                    "result_columns('%s');\n" % (k, rel))
            f.write("SELECT %d, group_concat(row || '.' || col || ':' || kind "
                    "|| ':' || text, ';') FROM (SELECT * FROM result_cells("
                    "'%s') ORDER BY row, col);\n" % (k, rel))
            cols = [str(c) + ':' + str(t) for c, t in zip(df.columns,
                                                          df.dtypes)]
            e.write('%d|%s\n' % (k, ','.join(cols)))
            cells = []
            # the cells as the comparison sees them (result_cells' kind):
            # the frame's values, where int64 beside float64 is a float
            values = df.transpose().values.tolist()
            for row in range(len(df)):
                for c in range(len(df.columns)):
                    x = values[c][row]
                    cells.append('%d.%d:%s:%s' % (row, c, kind(x), x))
            e.write('%d|%s\n' % (k, ';'.join(cells)))
        f.write('.shell rm -rf build/pdiff_exhaust\n')


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--golden':
        return write_golden(sys.argv[2], sys.argv[3])
    d, maxlen, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    def unescape(i):
        if len(sys.argv) <= i:
            return b''
        return sys.argv[i].encode().decode('unicode_escape').encode('latin-1')
    prefix, suffix = unescape(4), unescape(5)
    alphabet = ALPHABETS[name]
    os.makedirs(d, exist_ok=True)
    n = 0
    for length in range(1, maxlen + 1):
        for t in itertools.product(alphabet, repeat=length):
            with open(os.path.join(d, 'e%06d.csv' % n), 'wb') as f:
                f.write(prefix + bytes(t) + suffix)
            n += 1
    print(n)


if __name__ == '__main__':
    main()
