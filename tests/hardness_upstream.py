#!/usr/bin/python3
"""hardness_upstream.py: a developer check (not part of make test) of
spider_hardness against upstream's own Python: test-suite-sql-eval's
process_sql.get_sql + evaluation.Evaluator.eval_hardness.

  /usr/bin/python3 tests/hardness_upstream.py UPSTREAM_DIR [--write-expected]

UPSTREAM_DIR holds test-suite-sql-eval's evaluation.py and process_sql.py
(git show HEAD:evaluation.py of a clone). Needs nltk (Debian python3-nltk);
nltk's punkt model is not needed: word_tokenize runs with
preserve_line=True, the one difference documented in docs/peer_metrics.md.
Run from the repository root after make (build/spidereval.so and
build/samples/peers.sqlite).

It compares the level (or the exception) on:
  - tests/fixtures/spider_hardness.tsv (the Check test's cases; with
    --write-expected, rewrites their expected column from upstream);
  - the gold SQL of tests/fixtures/peers/dev_gold.sql, samples/peers/dev.json
    on build/samples/peers.sqlite;
  - the gold and predicted SQL of every case of ../shared/peers/cases.jsonl
    on its database (db_sql), built in a temporary folder.
and prints the agreement per source; exit status 1 on any difference.
"""
import json
import os
import sqlite3
import sys
import tempfile
import types

if len(sys.argv) < 2:
    sys.exit(__doc__)
sys.path.insert(0, sys.argv[1])
import nltk  # noqa: E402
import process_sql  # noqa: E402

process_sql.word_tokenize = lambda s: nltk.word_tokenize(s, preserve_line=True)
sys.modules['exec_eval'] = types.SimpleNamespace(eval_exec_match=None)
import evaluation  # noqa: E402

EVALUATOR = evaluation.Evaluator()


def upstream(schema, sql):
    try:
        return EVALUATOR.eval_hardness(process_sql.get_sql(schema, sql))
    except Exception as e:  # what evaluation.py would stop with
        msg = str(e)
        return type(e).__name__ + (': ' + msg if msg else '')


conn = sqlite3.connect(':memory:')
conn.enable_load_extension(True)
conn.load_extension('build/spidereval')


def ours(sql, db):
    try:
        return conn.execute('SELECT spider_hardness(?, ?)', (sql, db)).fetchone()[0]
    except sqlite3.Error as e:
        msg = str(e)
        mark = 'evaluation.py stops with '
        return msg[msg.index(mark) + len(mark):] if mark in msg else 'OURS: ' + msg


failed = 0


def report(name, pairs):
    global failed
    same = sum(1 for _, a, b in pairs if a == b)
    levels = {}
    for _, a, _b in pairs:
        k = a if a in ('easy', 'medium', 'hard', 'extra') else 'raises'
        levels[k] = levels.get(k, 0) + 1
    print('%s: %d of %d agree (upstream: %s)' % (
        name, same, len(pairs), ', '.join('%s %d' % kv for kv in sorted(levels.items()))))
    for sql, a, b in pairs:
        if a != b:
            failed += 1
            print('  DIFF upstream=%r ours=%r: %s' % (a, b, sql))


# 1. the Check test's cases, on the schema of build/samples/peers.sqlite
peers_db = 'build/samples/peers.sqlite'
peers_schema = process_sql.Schema(process_sql.get_schema(peers_db))
tsv = 'tests/fixtures/spider_hardness.tsv'
lines = open(tsv, encoding='utf-8').read().split('\n')
pairs, out = [], []
for line in lines:
    if not line or line.startswith('#'):
        out.append(line)
        continue
    expected, sql = line.split('\t', 1)
    up = upstream(peers_schema, sql)
    pairs.append((sql, up, ours(sql, peers_db)))
    out.append(up + '\t' + sql)
    if up != expected and '--write-expected' not in sys.argv:
        print('  %s: expected %r but upstream gives %r: %s' % (tsv, expected, up, sql))
        failed += 1
if '--write-expected' in sys.argv:
    open(tsv, 'w', encoding='utf-8').write('\n'.join(out))
report(tsv, pairs)

# 1b. random edits of those queries (seeded): inserted words and
# punctuation, deletions, shuffled words, to reach the tokenizer's and the
# parser's corners
import random  # noqa: E402
rng = random.Random(2026)
PIECES = [' ', '(', ')', ',', '.', "'", '"', '!', '=', '<', '>', ';', '*', ':', '`', '..',
          ' AS x ', ' as ', ' and ', ' or ', ' not ', 'select ', ' from emp ', ' join dept ',
          ' on ', '1', '1.5', ' union ', ' limit 1', ' order by name', ' group by dept',
          ' having count(*) > 1', ' where id = 1', 'T1.', '--', '?', ' cannot ', '\n', '\t',
          '.\n', ' - ', '+', '/', '1,2', ',a']
base = [sql for sql, _a, _b in pairs]
mutants = []
for _ in range(4000):
    s = rng.choice(base)
    for _k in range(rng.randint(1, 3)):
        op, p = rng.random(), rng.randint(0, len(s))
        if op < 0.5:
            s = s[:p] + rng.choice(PIECES) + s[p:]
        elif op < 0.8:
            s = s[:p] + s[p + rng.randint(1, 4):]
        else:
            words = s.split(' ')
            rng.shuffle(words)
            s = ' '.join(words)
    mutants.append((s, upstream(peers_schema, s), ours(s, peers_db)))
report('4,000 random edits of those', mutants)
# and edits that mostly keep the query readable by process_sql: clauses
# appended, spacing and letter case changed
TAILS = [' WHERE bonus > 1', ' WHERE name LIKE "%a%" OR id = 2', ' GROUP BY dept',
         ' GROUP BY dept HAVING count(*) > 1 AND sum(bonus) < 9', ' ORDER BY name DESC',
         ' ORDER BY salary + bonus, name', ' LIMIT 3', ';', ' ; ',
         ' UNION SELECT name FROM emp', ' EXCEPT SELECT title FROM dept WHERE code = "IT"',
         ' WHERE id IN (SELECT id FROM emp WHERE bonus NOT LIKE "1")', ' WHERE salary BETWEEN 1 AND 2']
kept = []
for _ in range(2000):
    s = rng.choice(base)
    for _k in range(rng.randint(1, 2)):
        s += rng.choice(TAILS)
    s = ''.join(ch.upper() if rng.random() < 0.2 else ch for ch in s)
    s = s.replace(' ', rng.choice([' ', '  ', ' \t']), rng.randint(0, 3))
    kept.append((s, upstream(peers_schema, s), ours(s, peers_db)))
report('2,000 queries with clauses appended', kept)

# 2. the Spider-like samples
golds = [l.split('\t')[0] for l in open('tests/fixtures/peers/dev_gold.sql') if l.strip()]
golds += [q['SQL'] for q in json.load(open('samples/peers/dev.json'))]
report('samples (dev_gold.sql, dev.json)',
       [(g, upstream(peers_schema, g), ours(g, peers_db)) for g in golds])

# 3. the query-level corpus
cases_path = os.path.join('..', 'shared', 'peers', 'cases.jsonl')
if os.path.exists(cases_path):
    gold_pairs, pred_pairs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n, line in enumerate(open(cases_path, encoding='utf-8')):
            case = json.loads(line)
            db = os.path.join(tmp, 'c%d.sqlite' % n)
            c = sqlite3.connect(db)
            c.executescript(case['db_sql'])
            c.close()
            schema = process_sql.Schema(process_sql.get_schema(db))
            for key, acc in (('gold_sql', gold_pairs), ('pred_sql', pred_pairs)):
                sql = case[key]
                if '\x00' in sql:
                    continue
                acc.append((case['id'] + ' ' + sql, upstream(schema, sql), ours(sql, db)))
            os.remove(db)
    report('cases.jsonl gold_sql', gold_pairs)
    report('cases.jsonl pred_sql', pred_pairs)


# 4. the whole printed output of `spidereval evaluate-peer --gold G --pred P
# --db D --etype exec` against evaluation.py's, on runs made of the corpus'
# query-level cases whose gold query parses and on which upstream does not
# raise (evaluation.py stops the run otherwise): one session, then the same
# pairs cut into sessions (blank lines) of 1 to 6 turns, and with the last
# predictions of some sessions left out (zip), as SParC / CoSQL files are.
def run_upstream(gold, pred, db, *extra):
    import subprocess
    code = ('import sys, runpy, nltk\n'
            'o = nltk.word_tokenize\n'
            'nltk.word_tokenize = lambda s, *a, **k: o(s, preserve_line=True)\n'
            'sys.path.insert(0, %r)\n'
            'sys.argv = ["evaluation.py"] + sys.argv[1:]\n'
            'runpy.run_path(%r, run_name="__main__")\n') % (
                sys.argv[1], os.path.join(sys.argv[1], 'evaluation.py'))
    return subprocess.run(['/usr/bin/python3', '-c', code, '--gold', gold, '--pred', pred,
                           '--db', db, '--etype', 'exec'] + list(extra),
                          capture_output=True, text=True).stdout


def run_ours(gold, pred, db, *extra):
    import subprocess
    return subprocess.run(['build/spidereval', 'evaluate-peer', '--gold', gold, '--pred', pred,
                           '--db', db, '--etype', 'exec'] + list(extra),
                          capture_output=True, text=True).stdout


if os.path.exists(cases_path) and os.path.exists(os.path.join(sys.argv[1], 'exec_eval.py')):
    import random
    rng = random.Random(15)
    with tempfile.TemporaryDirectory() as tmp:
        pairs = []
        for line in open(cases_path, encoding='utf-8'):
            case = json.loads(line)
            g, p = case['gold_sql'], case['pred_sql']
            if case.get('ts_ex_pipeline') is None or any(c in g + p for c in '\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85'):
                continue
            if not g.strip() or not p.strip() or g != g.strip():
                continue
            dbid = case['id']
            os.makedirs(os.path.join(tmp, 'db', dbid))
            db = os.path.join(tmp, 'db', dbid, dbid + '.sqlite')
            c = sqlite3.connect(db)
            c.executescript(case['db_sql'])
            c.close()
            if upstream(process_sql.Schema(process_sql.get_schema(db)), g) not in (
                    'easy', 'medium', 'hard', 'extra'):
                continue
            pairs.append((g, dbid, p))
        runs = {'one session': [[x for x in pairs]]}
        sessions, i = [], 0
        while i < len(pairs):
            k = rng.randint(1, 6)
            sessions.append(pairs[i:i + k])
            i += k
        runs['sessions'] = sessions
        runs['sessions, predictions cut'] = sessions
        results = []
        for name, sess in runs.items():
            gold = os.path.join(tmp, 'gold.sql')
            pred = os.path.join(tmp, 'pred.sql')
            with open(gold, 'w', encoding='utf-8') as fg, open(pred, 'w', encoding='utf-8') as fp:
                for n, s in enumerate(sess):
                    if n:
                        fg.write('\n')
                        fp.write('\n')
                    cut = len(s) - (1 if 'cut' in name and len(s) > 1 and n % 3 == 0 else 0)
                    for j, (g, dbid, p) in enumerate(s):
                        fg.write('%s\t%s\n' % (g, dbid))
                        if j < cut:
                            fp.write(p + '\n')
            for extra in ([], ['--keep_distinct']):
                a = run_upstream(gold, pred, os.path.join(tmp, 'db'), *extra)
                b = run_ours(gold, pred, os.path.join(tmp, 'db'), *extra)
                results.append(('%s%s (%d pairs)' % (name, ' ' + extra[0] if extra else '', len(pairs)),
                                a, b))
        for name, a, b in results:
            same = a == b and a != ''
            print('evaluate-peer vs evaluation.py, %s: %s' % (name, 'identical output' if same else 'DIFFERENT'))
            if not same:
                failed += 1
                print('--- upstream\n%s--- ours\n%s' % (a, b))
        print(results[0][1])
sys.exit(1 if failed else 0)
