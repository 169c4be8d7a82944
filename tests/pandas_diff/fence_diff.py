"""sql_from_fence against the official rule for the SQL of a submission.

  /usr/bin/python3 tests/pandas_diff/fence_diff.py [COUNT] [SEED] [--ext PATH]
      [--cases]

The official code (spider2-snow and spider2-lite extract_sql_query) reads
the .sql file in text mode (universal newlines: CR LF and a bare CR become
LF) and takes `re.search(r'```sql\\n(.*?)\\n```', text, re.DOTALL)`: the
group stripped when it matches, else the whole text. `official()` below
restates that rule; each of COUNT random texts built from fence pieces
(default 60,000) is given to sql_from_fence. Prints the first differences
and `# N texts, M differ`. No pandas needed.

`--golden SQL EXPECTED` writes instead the golden test
tests/sql/pdiff_fence.sql and its .expected: 40 texts of seed 7 (20 the
official regex matches, 20 it does not), each as a hex literal, and the
official answers (hex of the UTF-8) written down by `official()`.
"""
import argparse
import os
import random
import re
import sqlite3

PIECES = ['```sql\n', '```SQL\n', '```Sql\n', '```sql \n', '```sql\r\n',
          '```sql\r', '```sqlite\n', '``` sql\n', '```sql', '```\n', 'x',
          ' ', '\n', '\r', '\r\n', 'SELECT 1', '\n```', '```', '\r\n```',
          '\r```', ' ```', '\u00a0', '\x1c', '\u2028', '\u3000', '\t',
          '\x0b', ';', '\n```sql\n', "'```'"]


def official(text):
    """The text as the official code runs it (see the module comment)."""
    text = text.replace('\r\n', '\n').replace('\r', '\n')
    m = re.search(r'```sql\n(.*?)\n```', text, re.DOTALL)
    return m.group(1).strip() if m else text


def random_text(r):
    return ''.join(r.choice(PIECES) for _ in range(r.randint(1, 8)))


def write_golden(sql_path, expected_path):
    r = random.Random(7)
    seen, matched, unmatched = set(), [], []
    while len(matched) < 20 or len(unmatched) < 20:
        t = random_text(r)
        if t in seen:
            continue
        seen.add(t)
        norm = t.replace('\r\n', '\n').replace('\r', '\n')
        hit = re.search(r'```sql\n(.*?)\n```', norm, re.DOTALL) is not None
        group = matched if hit else unmatched
        if len(group) < 20:
            group.append(t)
    texts = matched + unmatched
    with open(sql_path, 'w') as f:
        f.write('-- sql_from_fence on 40 texts made by tests/pandas_diff/'
                'fence_diff.py --golden\n'
                '-- (seed 7: 20 the official regex matches, 20 it does not); '
                'the expected\n'
                '-- answers are the official rule\'s (CR LF and CR to LF, '
                'then\n'
                "-- re.search(r'```sql\\n(.*?)\\n```', text, re.DOTALL), "
                'the group stripped,\n'
                '-- else the whole text), as hex of the UTF-8.\n'
                '.load build/spidereval\n.mode list\n'
                'SELECT column1, hex(sql_from_fence(CAST(column2 AS TEXT)))\n'
                'FROM (VALUES\n')
        f.write(',\n'.join("  (%d, X'%s')" % (i + 1, t.encode().hex().upper())
                            for i, t in enumerate(texts)))
        f.write('\n);\n')
    with open(expected_path, 'w') as f:
        for i, t in enumerate(texts):
            f.write('%d|%s\n' % (i + 1, official(t).encode().hex().upper()))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('count', type=int, nargs='?', default=60000)
    ap.add_argument('seed', type=int, nargs='?', default=1)
    ap.add_argument('--ext', default=os.path.join(here, '../../build/spidereval'))
    ap.add_argument('--golden', nargs=2, metavar=('SQL', 'EXPECTED'))
    a = ap.parse_args()
    if a.golden:
        return write_golden(*a.golden)
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    r = random.Random(a.seed)
    ndiff = 0
    for i in range(a.count):
        t = random_text(r)
        want = official(t)
        got = db.execute('select sql_from_fence(?)', (t,)).fetchone()[0]
        if want != got:
            ndiff += 1
            if ndiff <= 15:
                print('DIFF %r official=%r spidereval=%r' % (t, want, got))
    print('# %d texts, %d differ' % (a.count, ndiff))


if __name__ == '__main__':
    main()
