"""One wide CSV whose columns change kind between pandas' low_memory chunks:
every ordered pair (two chunks) or triple (three chunks) of the column
kinds below, one column each.

  /usr/bin/python3 tests/pandas_diff/gen_chunkpairs.py FILE [NCHUNKS] [WIDTH]

NCHUNKS is 2 (default) or 3, WIDTH the column count (default 4,096; the
combinations must fit: 17^2 = 289 pairs, 17^3 = 4,913 triples, so use
8,192 for three chunks). pandas' C parser reads low_memory chunks of
about 2^18 / WIDTH rows and infers each chunk's type on its own, so a
column that is int in one chunk and str in the next holds Python ints and
strs mixed; bool with NA, uint64, beyond-uint64 text, INT64_MIN with NA,
-0, inf and 1e400 text meet in every order. Compare the file with tt_dump
and pd_digest.py (README.md): one line each, identical. The rows per
chunk here is the largest power of two below 2^20 / WIDTH (pandas' own
chunk is smaller, so several pandas chunks lie inside each kind's run
and the kind changes at a pandas chunk boundary).
"""
import itertools
import sys

KINDS = {
    'int': lambda i: str(i % 7),
    'float': lambda i: '%d.5' % (i % 7),
    'bool': lambda i: 'True' if i % 2 else 'false',
    'boolna': lambda i: '' if i % 3 == 0 else 'TRUE',
    'str': lambda i: 'x%d' % (i % 3),
    'na': lambda i: 'NA',
    'intna': lambda i: '' if i % 5 == 0 else str(i),
    'u64': lambda i: '18446744073709551615' if i % 4 == 0 else '3',
    'u64na': lambda i: ('18446744073709551615' if i % 4 == 0
                        else '' if i % 4 == 1 else '2'),
    'huge': lambda i: '99999999999999999999999' if i % 4 == 0 else '5',
    'min': lambda i: ('-9223372036854775808' if i % 4 == 0
                      else '' if i % 4 == 1 else '4'),
    'negz': lambda i: '-0.0' if i % 2 else '-0',
    'inf': lambda i: '-inf' if i % 2 else '1',
    'numstr': lambda i: '1' if i % 2 else 'True',
    'big': lambda i: '9007199254740993',
    'minint': lambda i: '-9223372036854775808',
    'flthuge': lambda i: '1e400' if i % 3 == 0 else '1.5',
}


def main():
    path = sys.argv[1]
    nch = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    rows_per_kind = 1
    while rows_per_kind * 2 < (1 << 20) // width:
        rows_per_kind *= 2
    combos = list(itertools.product(list(KINDS), repeat=nch))
    if len(combos) > width:
        sys.exit('%d combinations do not fit in %d columns'
                 % (len(combos), width))
    nrows = rows_per_kind * nch - (rows_per_kind // 3 if nch == 3 else 0)
    with open(path, 'w') as f:
        f.write(','.join('c%d' % j for j in range(width)) + '\n')
        for i in range(nrows):
            k = min(i // rows_per_kind, nch - 1)
            row = [KINDS[c[k]](i) for c in combos]
            row += ['1'] * (width - len(combos))
            f.write(','.join(row) + '\n')
    print('%d columns of %d combined, %d rows per kind, %d rows'
          % (len(combos), width, rows_per_kind, nrows))


if __name__ == '__main__':
    main()
