"""sql_result_csv against the CSV the official spider2-lite code writes for a
SQL result, byte for byte.

  /usr/bin/python3 tests/pandas_diff/sqlcsv_diff.py SEED COUNT [--ext PATH]
  /usr/bin/python3 tests/pandas_diff/sqlcsv_diff.py --golden SQL EXPECTED

The official get_sqlite_result (lite) copies the database into memory and
writes `pd.read_sql_query(query, conn, chunksize=500)` chunk by chunk with
`to_csv(index=False)` (header with the first chunk only); `official_csv()`
restates that with pandas. Each of COUNT random SQLite tables (1 to 3
columns, 0 to 1,500 rows across the 500-row chunks; integers at the int64
edges, floats, inf, NULLs, text with , \" CR LF NUL BOM U+2028 U+0085,
BLOBs, odd column names; a column's kind may change from chunk to chunk)
is written to a temporary database, and the two CSVs are compared. Prints
the first differences and `# seed S: N cases, M differ`.

`--golden` writes tests/sql/pdiff_sqlcsv.sql and its .expected instead:
fixed queries over build/samples/shop.sqlite whose expected CSV bytes
(length, and hex of the last 200 bytes) are the official code's, measured
here with pandas.
"""
import argparse
import os
import random
import shutil
import sqlite3
import sys
import tempfile

import pandas as pd

VALS = [0, 1, -1, 2**63 - 1, -2**63, 2**53 + 1, 10**16, 0.0, -0.0, 0.1, 1.5,
        3.0, 1e16, 1e-05, 1e22, float('inf'), float('-inf'), 5e-324,
        123456789.123456789, 2.0**63, 1e15, 0.30000000000000004, None, None,
        '', ' ', 'NA', 'nan', 'None', 'a,b', 'a"b', '"', 'a\nb', 'a\rb', '\r',
        '\n', '\r\n', 'é', 'x\x00y', 'True', '1', ' 1 ', '1.0', '\t', "'",
        '\x1f', '\u2028', '\x85', '#', '\ufeff', 'inf', '-0', '"a"', 'a""',
        ',', b'', b'\x00', b'A', b'\xff', b'\n', b"'", b'"', b'\\', b'\xe9',
        b'a\rb']


def official_csv(db_path, query):
    """The bytes the official lite code writes for query (or 'ERR ...')."""
    out = tempfile.mktemp(suffix='.csv')
    try:
        conn = sqlite3.connect(db_path)
        mem = sqlite3.connect(':memory:')
        conn.backup(mem)
        for i, chunk in enumerate(pd.read_sql_query(query, mem,
                                                    chunksize=500)):
            chunk.to_csv(out, mode='a' if i > 0 else 'w', header=i == 0,
                         index=False)
        mem.close()
        conn.close()
        with open(out, 'rb') as f:
            return f.read()
    except Exception as e:
        return 'ERR %s: %s' % (type(e).__name__, e)
    finally:
        if os.path.exists(out):
            os.remove(out)


def spidereval_csv(ext_db, db_path, query):
    try:
        v = ext_db.execute('select sql_result_csv(?, ?)',
                           (db_path, query)).fetchone()[0]
        return v.encode('utf-8', 'surrogatepass') if isinstance(v, str) else v
    except sqlite3.Error as e:
        return 'ERR %s' % e


def random_case(r):
    ncol = r.choice([1, 1, 2, 3])
    nrow = r.choice([0, 1, 2, 3, 5, 499, 500, 501, 1001, 1500])
    kinds = [r.choice(['int', 'float', 'num', 'text', 'any', 'nullish',
                       'blob']) for _ in range(ncol)]

    def val(k):
        v = r.choice(VALS)
        if k == 'int':
            return v if isinstance(v, int) else (None if r.random() < 0.1
                                                 else 7)
        if k == 'float':
            return v if isinstance(v, float) else 2.5
        if k == 'num':
            return v if isinstance(v, (int, float)) or v is None else 4
        if k == 'text':
            return v if isinstance(v, str) or v is None else 'z'
        if k == 'nullish':
            return None if r.random() < 0.9 else v
        if k == 'blob':
            return v if isinstance(v, bytes) or v is None else b'q'
        return v
    rows = [tuple(val(kinds[c]) if r.random() < 0.97 else r.choice(VALS)
                  for c in range(ncol)) for _ in range(nrow)]
    names = [r.choice(['a', 'b', 'a', 'x,y', 'q"q', '', ' n', 'é'])
             for _ in range(ncol)]
    query = 'SELECT %s FROM t ORDER BY rowid' % ','.join(
        'c%d AS "%s"' % (i, names[i].replace('"', '""')) for i in range(ncol))
    return kinds, rows, query


# the golden cases: (what, query); the queries need no table
GOLDEN = [
    ('int64 edges', "SELECT 9223372036854775807 AS a, -9223372036854775808 AS b, 0 AS c"),
    ('floats as Python repr', "SELECT 0.1 AS a, 1e16 AS b, 4.9406564584124654e-324 AS c, -0.0 AS d, 123456789.123456789 AS e"),
    ('inf and big floats', "SELECT 1e308 * 10 AS a, -1e308 * 10 AS b, 1e22 AS c, 9223372036854775808.0 AS d, 1e-05 AS e"),
    ('text needing quotes', "SELECT 'a,b' AS a, 'a\"b' AS b, 'a' || char(10) || 'b' AS c, '\"' AS d"),
    ('CR, CR LF, NUL in text', "SELECT 'x' || char(13) AS a, 'y' || char(13, 10) || 'z' AS b, 'p' || char(0) || 'q' AS c"),
    ('empty, space, NA words', "SELECT '' AS a, ' ' AS b, 'NA' AS c, 'nan' AS d, 'None' AS e"),
    ('BOM, U+2028, U+0085', "SELECT char(65279) || 'x' AS a, char(8232) AS b, char(133) AS c, 'é' AS d"),
    ('NULL column', "SELECT NULL AS a, 1 AS b UNION ALL SELECT NULL, 2"),
    ('ints and NULL: float64', "SELECT 1 AS a UNION ALL SELECT NULL UNION ALL SELECT 3"),
    ('ints and floats: float64', "SELECT 1 AS a UNION ALL SELECT 2.5 UNION ALL SELECT -0.0"),
    ('ints and text: object', "SELECT 1 AS a UNION ALL SELECT 'x' UNION ALL SELECT 2.0"),
    ('big ints and NULL', "SELECT 9007199254740993 AS a UNION ALL SELECT NULL"),
    ('blobs as bytes repr', "SELECT X'41' AS a, X'00FF' AS b, X'' AS c, CAST('a''b' AS BLOB) AS d"),
    ('odd column names', "SELECT 1 AS \"x,y\", 2 AS \"q\"\"q\", 3 AS \"\", 4 AS \" n\""),
    ('duplicate column names', "SELECT 1 AS a, 2 AS a, 3 AS b"),
    ('no rows', "SELECT 1 AS a, 'x' AS b WHERE 0"),
    ('booleans are ints', "SELECT 1 = 1 AS a, 1 = 2 AS b"),
    ('chunk 2 gets a NULL: 500.0',
     "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 501) "
     "SELECT CASE WHEN i = 501 THEN NULL ELSE i END AS a FROM c"),
    ('chunk 1 all NULL, chunk 2 text',
     "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 502) "
     "SELECT i AS n, CASE WHEN i >= 500 THEN 'x' || i END AS b FROM c"),
    ('chunk 2 all NULL after floats',
     "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) "
     "SELECT CASE WHEN i < 500 THEN i / 4.0 END AS f FROM c"),
    ('chunk 3 has text in an int column',
     "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 1001) "
     "SELECT CASE WHEN i = 1001 THEN 'end' ELSE i END AS a FROM c"),
    ('exactly 500 rows', "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) SELECT i * 1.5 AS a FROM c"),
]


def write_golden(sql_path, expected_path, here):
    db = os.path.join(here, '../../build/samples/shop.sqlite')
    if not os.path.exists(db):
        sys.exit('%s is missing: run make test (or make %s) first'
                 % (db, 'build/samples/shop.sqlite'))
    with open(sql_path, 'w') as f, open(expected_path, 'w') as e:
        f.write('-- sql_result_csv on fixed queries made by tests/pandas_diff/'
                'sqlcsv_diff.py --golden;\n'
                '-- the expected bytes (length, hex of the last 200) are what '
                'the official\n'
                '-- spider2-lite get_sqlite_result writes (read_sql_query with '
                'chunksize=500,\n'
                '-- to_csv per chunk), measured with pandas 1.5.3.\n'
                '.load build/spidereval\n.mode list\n')
        for i, (what, q) in enumerate(GOLDEN):
            want = official_csv(db, q)
            assert isinstance(want, bytes), (what, want)
            f.write('-- %d: %s\n' % (i + 1, what))
            f.write("SELECT %d, length(x), hex(substr(x, -200)) FROM (SELECT "
                    "CAST(sql_result_csv('build/samples/shop.sqlite', '%s') "
                    "AS BLOB) AS x);\n" % (i + 1, q.replace("'", "''")))
            e.write('%d|%d|%s\n' % (i + 1, len(want), want[-200:].hex().upper()))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('seed', type=int, nargs='?', default=1)
    ap.add_argument('count', type=int, nargs='?', default=200)
    ap.add_argument('--ext', default=os.path.join(here, '../../build/spidereval'))
    ap.add_argument('--golden', nargs=2, metavar=('SQL', 'EXPECTED'))
    a = ap.parse_args()
    if a.golden:
        return write_golden(a.golden[0], a.golden[1], here)
    r = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix='sqlcsv_diff')
    db = os.path.join(work, 't.sqlite')
    ext = sqlite3.connect(':memory:')
    ext.enable_load_extension(True)
    ext.load_extension(a.ext)
    ndiff = 0
    try:
        for case in range(a.count):
            kinds, rows, query = random_case(r)
            if os.path.exists(db):
                os.remove(db)
            con = sqlite3.connect(db)
            ncol = len(kinds)
            con.execute('CREATE TABLE t(%s)' % ','.join(
                'c%d' % i for i in range(ncol)))
            con.executemany('INSERT INTO t VALUES(%s)' % ','.join('?' * ncol),
                            rows)
            con.commit()
            con.close()
            off = official_csv(db, query)
            se = spidereval_csv(ext, db, query)
            if off == se:
                continue
            ndiff += 1
            if ndiff > 8:
                continue
            print('DIFF case %d seed %d kinds=%s rows=%d query=%r'
                  % (case, a.seed, kinds, len(rows), query))
            if isinstance(off, bytes) and isinstance(se, bytes):
                for j, (x, y) in enumerate(zip(off.split(b'\n'),
                                               se.split(b'\n'))):
                    if x != y:
                        print('  line %d official=%r spidereval=%r'
                              % (j, x[:200], y[:200]))
                        break
                else:
                    print('  lengths', len(off), len(se))
            else:
                print('  official=%r\n  spidereval=%r' % (off[:300], se[:300]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('# seed %d: %d cases, %d differ' % (a.seed, a.count, ndiff))


if __name__ == '__main__':
    main()
