"""Hard verdict cases for verdict_diff.py: a prediction CSV, one gold CSV
or _a/_b/... variants, condition_cols and ignore_order.

gen_case(seed) -> dict(pred=bytes, golds=[(letter, bytes)], base=bool,
                       cc=<JSON value or MISSING>, io=<JSON value or MISSING>)
letter '' is the plain <id>.csv. The gold is a random typed table; the
prediction is the same table written another way and perturbed (numbers
moved around the 1e-2 tolerance, NA spellings, row and column shuffles,
dropped or extra columns, ints past 2^53 and at the int64/uint64 edges,
bool-like text, type mixes that change numpy's common type), or a table of
raw tricky tokens. Python 3 standard library only.
"""
import math
import random
import struct

MISSING = object()

NA_TOKENS = ['', 'NaN', 'nan', 'NA', 'N/A', 'n/a', 'NULL', 'null', '#N/A',
             '<NA>', '-NaN', '-nan', '1.#IND', '#NA', '-1.#QNAN']
NOT_NA = ['None', 'none', 'Nan', 'NAN', 'Null', '-', '.', 'nil']
BOOL_T = ['True', 'TRUE', 'true']
BOOL_F = ['False', 'FALSE', 'false']
BOOL_NOT = ['tRuE', 'T', 'F', 'yes', 'no', 'True ', ' False', '"True"']
RAW = ['1', '-1', '+2', ' 3 ', '007', '1.5', '.5', '5.', '1e5', '1E-3', '1e',
       'inf', '-inf', 'Infinity', '-Infinity', '+inf', 'INF', 'nan', 'x',
       'a b', ' lead', 'trail ', '"q"', '"a,b"', '"a""b"', '""', '0', '0.0',
       '-0', '-0.0', '+0.0', '9223372036854775807', '9223372036854775808',
       '-9223372036854775808', '-9223372036854775809',
       '18446744073709551615', '18446744073709551616',
       '-18446744073709551615', '123456789012345678901',
       '1.7976931348623157e308', '1.8e308', '4.9e-324', '1e-400', '2e-324',
       '0.1', '0.30000000000000004', '18.960578365843677',
       '3230.7999999999997', '-11.320754716981133', '1,000', '0x1F',
       '1_000', 'é', '日本', '1.0', '2.50', '100', '1e16', '1e15',
       '9007199254740993', '9007199254740992', '9007199254740993.0',
       '0.0001', '0.00001', '12345678901234567890.5',
       '123456789012345678901.0', '0.000000000000000001234', '1.#IND',
       '0.01', '0.005', '0.015', '-0.01', '1e-2', '0.009999999999999',
       '0.010000000000001', '2020-01-01', '2020-01-01 00:00:00', '1/2/2020',
       '12:30', 'True', 'False', 'true', 'FALSE', '1.', '-.5', '+.5e1',
       '1e+308', '1e-308', '1d5', '1.5e', '--1', '1-', ' ', '  7', '8  ',
       '\t9', '1 2', '1e05', '00.5', '1E+02', '0e0', '-0e0']
TOL_DELTAS = [0.0, 0.01, -0.01, 0.0099999999, -0.0099999999, 0.0100000001,
              -0.0100000001, 0.005, -0.005, 0.02, 1e-12, 0.00999999999999999,
              0.010000000000000009, 0.009999999999999998]


def rnd_float(r):
    k = r.random()
    if k < 0.25:
        return round(r.uniform(-100, 100), r.choice([0, 1, 2, 3, 6, 15]))
    if k < 0.4:
        return r.choice([0.0, -0.0, 0.01, -0.01, 0.005, 0.015, 0.1, 0.3,
                         1e7, 1e9, 1e16, 1e22, 2.0 ** 53, 2.0 ** 63,
                         2.0 ** 64, 1e-5, 5e-324, 1.7976931348623157e308,
                         math.inf, -math.inf])
    if k < 0.55:
        return r.uniform(-1, 1) * 10 ** r.randint(-8, 20)
    if k < 0.7:  # a random double bit pattern, finite
        while True:
            v = struct.unpack('<d', struct.pack('<Q', r.getrandbits(64)))[0]
            if math.isfinite(v):
                return v
    if k < 0.85:
        return r.randint(-10 ** 6, 10 ** 6) / 100.0
    return r.randint(-10 ** 9, 10 ** 9) + r.choice([0.5, 0.25, 0.001, 0.0])


def rnd_int(r):
    k = r.random()
    if k < 0.5:
        return r.randint(-1000, 1000)
    if k < 0.7:
        return r.randint(-2 ** 40, 2 ** 40)
    edges = [2 ** 53, 2 ** 53 + 1, 2 ** 53 - 1, -2 ** 53 - 1, 2 ** 63 - 1,
             -2 ** 63, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63 - 1,
             10 ** 16 + 1, 10 ** 17 + 3, 2 ** 62, 2 ** 63 - 512, 2 ** 63 - 513]
    return r.choice(edges) + r.choice([0, 0, 0, 1, -1, 2])


def write_float(r, v):
    if math.isinf(v):
        return r.choice(['inf', 'Infinity', 'INF']) if v > 0 else \
            r.choice(['-inf', '-Infinity'])
    k = r.random()
    if k < 0.45:
        return repr(v)
    if k < 0.55:
        return '%.17g' % v
    if k < 0.65:
        return '%.15g' % v
    if k < 0.72:
        return '%.2f' % v if abs(v) < 1e30 else repr(v)
    if k < 0.8:
        return '%e' % v
    if k < 0.87:
        return repr(v) + '0'
    if k < 0.93:
        return '%.3f' % v if abs(v) < 1e30 else repr(v)
    return '%.20g' % v


def write_int(r, v):
    k = r.random()
    if k < 0.7:
        return str(v)
    if k < 0.78:
        return ('+' if v >= 0 else '-') + '00' + str(abs(v))
    if k < 0.86:
        return ' %d ' % v
    if k < 0.93:
        return '%d.0' % v
    return '%de0' % v


def write_value(r, kind, v):
    """The text of one value of a column of kind."""
    if v is None:
        return r.choice(NA_TOKENS)
    if kind == 'float':
        return write_float(r, v)
    if kind == 'int':
        return write_int(r, v)
    if kind == 'bool':
        if r.random() < 0.1:
            return '1' if v else '0'
        return r.choice(BOOL_T if v else BOOL_F)
    return v  # str kinds: the text itself


def quote(r, t):
    need = any(c in t for c in ',"\r\n') or t.startswith(' ') and False
    if need or (r.random() < 0.08):
        return '"' + t.replace('"', '""') + '"'
    return t


def rnd_str(r):
    k = r.random()
    if k < 0.3:
        return r.choice(['a', 'b', 'A', 'abc', 'x y', 'é', '日本', 'a,b',
                         'q"q', ' a', 'a ', 'a\nb', '1a', 'None', 'nan x'])
    if k < 0.45:
        return r.choice(NOT_NA + BOOL_NOT)
    if k < 0.6:
        return '%04d-%02d-%02d' % (r.randint(1990, 2030), r.randint(1, 12),
                                   r.randint(1, 28)) + \
            r.choice(['', ' 00:00:00', 'T12:00:00Z', ' 12:30:00.000'])
    if k < 0.75:
        return str(r.randint(0, 50))  # numeric text in a str column
    if k < 0.85:
        return r.choice(RAW)
    return ''.join(r.choice('abcXYZ019 ._-') for _ in range(r.randint(1, 6)))


def make_column(r, n):
    kind = r.choice(['int', 'int', 'float', 'float', 'float', 'bool', 'str',
                     'str', 'mixed', 'raw'])
    na = r.choice([0, 0, 0, 0.1, 0.4, 1.0])
    vals = []
    for _ in range(n):
        if r.random() < na:
            vals.append(None)
            continue
        if kind == 'int':
            vals.append(rnd_int(r))
        elif kind == 'float':
            vals.append(rnd_float(r))
        elif kind == 'bool':
            vals.append(r.random() < 0.5)
        elif kind == 'mixed':
            sub = r.choice(['int', 'float', 'str', 'bool'])
            vals.append(('m' + sub, {'int': rnd_int, 'float': rnd_float,
                                     'str': rnd_str,
                                     'bool': lambda r: r.random() < .5}[sub](r)))
        elif kind == 'raw':
            vals.append(r.choice(RAW))
        else:
            vals.append(rnd_str(r))
    if r.random() < 0.3 and n > 1:  # duplicated values make sort ties
        for i in range(1, n):
            if r.random() < 0.4:
                vals[i] = vals[r.randrange(i)]
    return kind, vals


def cell_text(r, kind, v):
    if isinstance(v, tuple):
        kind, v = v[0][1:], v[1]
    if kind in ('raw', 'str') and v is not None:
        return v
    return write_value(r, kind, v)


def perturb(r, kind, v):
    """A value the prediction writes in place of v."""
    if v is None:
        k = r.random()
        if k < 0.5:
            return None
        return r.choice([0, 0.0, '0', 'None', 0.004, -0.01])
    if isinstance(v, tuple):
        return (v[0], perturb(r, v[0][1:], v[1]))
    if kind == 'float' and not math.isinf(v):
        d = r.choice(TOL_DELTAS)
        if r.random() < 0.2:
            d = abs(v) * r.choice([1e-9, 2e-9, 5e-10, 1.0000001e-9])
        return v + d if r.random() < 0.5 else v - d
    if kind == 'int':
        k = r.random()
        if k < 0.4:
            return float(v) if abs(v) < 2 ** 70 else v
        if k < 0.7:
            return v + r.choice([1, -1, 0])
        return v + r.choice([0.01, 0.005, -0.0099, 0.011])
    if kind == 'bool':
        return r.choice([1, 0, 1.0, v, not v])
    if kind in ('str', 'raw'):
        return r.choice([v, v.strip(), v.upper(), v + ' ', r.choice(RAW)])
    return v


def typed_text(r, kind, v):
    """Text for a perturbed value whose Python type may differ from kind."""
    if v is None:
        return r.choice(NA_TOKENS)
    if isinstance(v, tuple):
        return cell_text(r, None, v)
    if isinstance(v, bool):
        return write_value(r, 'bool', v)
    if isinstance(v, int):
        return write_int(r, v)
    if isinstance(v, float):
        return write_float(r, v)
    return v


def render(r, header, cols, nrows, sep=None, bom=None):
    sep = sep or r.choice(['\n'] * 6 + ['\r\n', '\r'])
    lines = [','.join(quote(r, h) for h in header)]
    for i in range(nrows):
        lines.append(','.join(quote(r, c[i]) for c in cols))
    s = sep.join(lines)
    if r.random() < 0.85:
        s += sep
    if bom or (bom is None and r.random() < 0.04):
        s = '\ufeff' + s
    return s.encode('utf-8')


def header_for(r, n):
    h = []
    for i in range(n):
        h.append(r.choice(['a', 'b', 'c', 'a', 'a.1', '', 'x y', 'col%d' % i,
                           'Unnamed: 0', 'n']))
    return h


def gen_table(r):
    nrows = r.choice([0, 1, 1, 2, 3, 3, 4, 5, 6, 8, 12, 30])
    ncols = r.choice([1, 1, 2, 2, 3, 3, 4, 5])
    return nrows, [make_column(r, nrows) for _ in range(ncols)]


def texts_of(r, cols, nrows):
    return [[cell_text(r, k, v) for v in vals] for k, vals in cols]


def pred_from(r, nrows, cols, io):
    """The prediction: the gold table perturbed and rewritten."""
    pcols = []
    for kind, vals in cols:
        if r.random() < 0.4:
            new = [perturb(r, kind, v) if r.random() < 0.5 else v
                   for v in vals]
        else:
            new = list(vals)
        pcols.append([typed_text(r, kind, v) if not isinstance(v, str) or
                      kind not in ('str', 'raw') else v for v in new])
    order = list(range(nrows))
    if r.random() < (0.7 if io else 0.15):
        r.shuffle(order)
    pcols = [[c[i] for i in order] for c in pcols]
    if r.random() < 0.25:  # shuffle one column on its own
        if pcols:
            j = r.randrange(len(pcols))
            c = pcols[j][:]
            r.shuffle(c)
            pcols[j] = c
    k = r.random()
    if k < 0.3 and pcols:
        r.shuffle(pcols)
    if r.random() < 0.2 and len(pcols) > 1:
        pcols.pop(r.randrange(len(pcols)))
    if r.random() < 0.3:
        kind, vals = make_column(r, nrows)
        pcols.insert(r.randrange(len(pcols) + 1), texts_of(r, [(kind, vals)],
                                                            nrows)[0])
    n = nrows
    if r.random() < 0.08 and n:  # drop or duplicate a row
        if r.random() < 0.5:
            pcols = [c[:-1] for c in pcols]
            n -= 1
        else:
            pcols = [c + c[-1:] for c in pcols]
            n += 1
    if not pcols:
        pcols = [['1'] * n]
    return render(r, header_for(r, len(pcols)), pcols, n)


def rnd_cc(r, ncols, nvar):
    k = r.random()
    if k < 0.3:
        return r.choice([[], [[]], [None], None, MISSING if r.random() < 0.1
                         else []])
    if k < 0.6:
        m = r.randint(1, max(1, ncols))
        return sorted(r.sample(range(ncols + 1), min(m, ncols + 1)))[:m] \
            if r.random() < 0.2 else sorted(r.sample(range(ncols), min(m, ncols)))
    if k < 0.7:
        return r.choice([0, 1, ncols - 1, ncols, -1])
    if k < 0.85:
        return [rnd_cc_flat(r, ncols) for _ in range(
            nvar + r.choice([0, 0, 0, -1, 1]))]
    return r.choice([[-1], [-ncols], [-ncols - 1], [0, 0], [1, 0],
                     [[0], 1], [[0], None], [[], [0]], [True], [0.0], [None, 0],
                     [[0, 1], [0, 1], [0, 1]], '0', [[None]], [[-1]]])


def rnd_cc_flat(r, ncols):
    k = r.random()
    if k < 0.3:
        return []
    if k < 0.4:
        return None
    m = r.randint(1, max(1, ncols))
    return sorted(r.sample(range(ncols), min(m, ncols)))


def raw_table(r):
    n = r.randint(0, 6)
    c = r.randint(1, 4)
    cols = [[r.choice(RAW + NA_TOKENS) for _ in range(n)] for _ in range(c)]
    return n, cols


def gen_case(seed):
    r = random.Random(seed)
    io = r.random() < 0.5
    nvar = r.choice([1, 1, 1, 2, 2, 3])
    nrows, cols = gen_table(r)
    golds = []
    if r.random() < 0.15:  # raw token tables on both sides
        n1, c1 = raw_table(r)
        pred_n, pred_c = (n1, c1) if r.random() < 0.3 else raw_table(r)
        gtxt = render(r, header_for(r, len(c1)), c1, n1)
        if r.random() < 0.5:
            pred_c = [[r.choice([x, x.strip(), r.choice(RAW)]) for x in c]
                      for c in pred_c]
        ptxt = render(r, header_for(r, len(pred_c)), pred_c, pred_n)
        golds.append(gtxt)
        ncols = len(c1)
    else:
        gtxt = render(r, header_for(r, len(cols)), texts_of(r, cols, nrows),
                      nrows)
        golds.append(gtxt)
        ptxt = pred_from(r, nrows, cols, io)
        ncols = len(cols)
    for _ in range(nvar - 1):  # other variants: a column more or less, or new
        k = r.random()
        if k < 0.4:
            c2 = cols + [make_column(r, nrows)]
            golds.append(render(r, header_for(r, len(c2)),
                                texts_of(r, c2, nrows), nrows))
        elif k < 0.7 and len(cols) > 1:
            c2 = cols[1:]
            golds.append(render(r, header_for(r, len(c2)),
                                texts_of(r, c2, nrows), nrows))
        else:
            n2, c2 = gen_table(r)
            golds.append(render(r, header_for(r, len(c2)),
                                texts_of(r, c2, n2), n2))
    k = r.random()
    if k < 0.03:
        ptxt = r.choice([b'', b'\n', b'a\n', b'\xef\xbb\xbf', b'a,b\n1\n2,3,4\n',
                         b'"a\n1\n', b'a\n\xff\n', b' \n', b',\n,\n'])
    elif k < 0.06:
        golds[0] = r.choice([b'a\n', b'a,b\n', b'a\n\n', b',\n1\n',
                             b'a,a\n1,2\n'])
    elif k < 0.09:  # an unreadable (or odd) gold variant, maybe a later one
        golds[r.randrange(len(golds))] = r.choice(
            [b'', b'\n\n', b'a\n\xff\n', b'a,b\n1\n2,3,4\n5,6,7,8\n',
             b'"a\n1\n', b'\xef\xbb\xbf', b'a\n1\n', ptxt])
    if nvar == 1:
        base = r.random() < 0.6
        letters = [''] if base else ['a']
        if base and r.random() < 0.1:  # a plain file shadows variants
            golds.append(golds[0] if r.random() < 0.5 else ptxt)
            letters.append('a')
    else:
        letters = [chr(97 + i) for i in range(nvar)]
        if r.random() < 0.05:  # a gap in the letters
            letters[-1] = 'z'
    cc = rnd_cc(r, ncols, nvar)
    iov = io
    if r.random() < 0.03:
        iov = r.choice([MISSING, None, 0, 1, 'yes'])
    return dict(pred=ptxt, golds=list(zip(letters, golds)), cc=cc, io=iov)


def chunk_rows(width):
    """pandas' low_memory chunk: the largest power of two below 2^20/width."""
    h = (1 << 20) // width
    b = 1
    while b * 2 < h:
        b *= 2
    return b


def chunk_column(r, n, chunk):
    """Texts of a column whose kind changes from one low_memory chunk to
    the next (int, float, bool, str, NA-only, ints with an NA)."""
    out = []
    for start in range(0, n, chunk):
        kind = r.choice(['int', 'int', 'float', 'bool', 'str', 'na', 'intna'])
        for i in range(start, min(n, start + chunk)):
            if kind == 'na' or (kind == 'intna' and i == start):
                out.append(r.choice(NA_TOKENS))
            elif kind in ('int', 'intna'):
                out.append(str(r.choice([i % 7, -2 ** 63 + 100, 2 ** 53 + 1])
                               if i % 50 == 0 else i % 7))
            elif kind == 'float':
                out.append(repr((i % 7) + r.choice([0.0, 0.5, 0.004])))
            elif kind == 'bool':
                out.append(r.choice(['True', 'false']))
            else:
                out.append(r.choice(['1', '1.0', 'x', 'True']) if i % 9 == 0
                           else str(i % 7))
    return out


def gen_big_case(seed):
    """A wide gold whose rows cross low_memory chunks, so that a column's
    cells come out as Python ints, floats, bools and strs mixed; the
    prediction holds the same texts in a table of another width (other
    chunks: other types) or the same width."""
    r = random.Random(seed)
    width = r.choice([64, 128, 256])
    ch = chunk_rows(width)
    n = ch * r.choice([1, 2]) + r.randint(1, ch // 2)
    nint = r.randint(1, 3)
    inter = [chunk_column(r, n, ch) for _ in range(nint)]
    filler = [str(i % 5) for i in range(n)]
    gcols = inter + [filler] * (width - nint)
    gold = render(r, ['c%d' % i for i in range(width)], gcols, n, sep='\n',
                  bom=False)
    pw = r.choice([nint, nint + 1, width, width // 2])
    pcols = [c[:] for c in inter] + [filler] * (pw - nint)
    if r.random() < 0.5:  # perturb one cell
        c = r.choice(pcols[:nint])
        c[r.randrange(n)] = r.choice(['0', 'NA', '1.0', 'x'])
    if r.random() < 0.5:
        order = list(range(n))
        r.shuffle(order)
        pcols = [[c[i] for i in order] for c in pcols]
    pred = render(r, ['p%d' % i for i in range(pw)], pcols, n, sep='\n',
                  bom=False)
    cc = list(range(nint))
    return dict(pred=pred, golds=[('', gold)], cc=cc, io=r.random() < 0.7)


if __name__ == '__main__':
    import sys
    c = gen_case(int(sys.argv[1]))
    print(repr(c))
