"""condition_cols and ignore_order of every shape, on every gold layout, for
verdict_diff.py --check.

  /usr/bin/python3 tests/pandas_diff/cc_cases.py DIR [--part K/N]
  /usr/bin/python3 tests/pandas_diff/verdict_diff.py --check DIR/gold DIR/pred
  /usr/bin/python3 tests/pandas_diff/cc_cases.py --golden GOLD PRED SQL EXPECTED
      [--mirror SPIDER2_REPO]    (default: $SPIDER2_REPO, a Spider2 clone)

The first form writes a gold directory (exec_result/ and x_eval.jsonl) and
a prediction folder: each condition_cols value of CC (lists, nested lists,
null, scalars, booleans, floats pandas' iloc truncates, boolean masks,
strings, objects, out-of-range and negative positions) with the
ignore_order values of IO, on three gold layouts (one plain <id>.csv; _a
and _b of other column orders; _a/_b/_c of widths 1, 2 and 3) and four
predictions. verdict_diff.py --check then judges every instance with the
three official rule sets and with spider_verdict, printing `DIFF` on each
disagreement and `# N differences` at the end. `--part K/N` writes only
the K-th of every N instances (all of them are 2,868 instances, 8,604
verdicts: a few minutes).

`--golden` writes instead a small fixed selection (every CC value once, on
the layout and prediction whose official verdicts tell the most: flavours
that disagree, a pass, a Result Error rather than an exception) as the fixture folders
GOLD and PRED and the golden test SQL / EXPECTED, whose expected lines are
the official verdicts (score and error category, judged here by the
official code taken from the Spider2 repository as verdict_diff.py takes
it): tests/sql/pdiff_cc.sql.
"""
import argparse
import warnings
import json
import os
import shutil
import sys

CC = [[[0, 1]], [[0], [1]], [[]], [[None]], [None, 0], [0, None],
      [[0, 1], 0], {"a": 1}, {}, "0", "", True, False, 1.5, [1.5], [-1],
      [-3], [2**31], [2**62], [1e300], [[True]], [0, 0], [[0, 0]], [],
      [[], []], [[None], [0]], [[0], None], [None, None], [[1], [0], [5]],
      [True, False], [[True, False], [False, True]], 0, 1, -1, None,
      [[]] * 3, [[-1]], ["0"], [[0.0]], [[1, 1, 1]], [0, [1]], [[0], 1],
      [[0]], [[[0]]],
      # pandas' iloc truncates floats after checking their bounds
      [1.9], [-1.5], [-2.9], [1.5, 0], [True, 1.5], [2.0000001],
      # boolean masks by rows (first dimension = the gold's columns)
      [[True, True], [False, True]], [[True], [False]], [[[True]], [[False]]],
      [[True, False], [1, 0]]]
IO = [True, False, None, 0, 1, "", "false", [], {}, [0]]
GOLDS = {
    'base': [('', 'a,b\n1,x\n2,y\n')],
    'two': [('a', 'a,b\n1,x\n2,y\n'), ('b', 'b,a\ny,1\nx,2\n')],
    'three': [('a', 'a\n5\n'), ('b', 'a,b\n1,x\n2,y\n'),
              ('c', 'a,b,c\n1,x,z\n2,y,z\n')],
}
PREDS = ['a,b\n1,x\n2,y\n', 'b\ny\nx\n', 'b,a\nx,2\ny,1\n', 'a\n1\n2\n']


def write_case(gold, pred, iid, golds, ptext):
    for letter, text in golds:
        name = '%s%s.csv' % (iid, '_' + letter if letter else '')
        with open(os.path.join(gold, 'exec_result', name), 'w') as f:
            f.write(text)
    with open(os.path.join(pred, iid + '.csv'), 'w') as f:
        f.write(ptext)


def fresh(d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)


def write_all(d, part):
    gold, pred = os.path.join(d, 'gold'), os.path.join(d, 'pred')
    fresh(gold)
    fresh(pred)
    os.makedirs(os.path.join(gold, 'exec_result'))
    n = 0
    with open(os.path.join(gold, 'x_eval.jsonl'), 'w') as jl:
        for ci, cc in enumerate(CC):
            for ii, io_ in enumerate(IO):
                if ii > 2 and ci % 5:
                    continue
                for golds in GOLDS.values():
                    for p in PREDS:
                        iid = 'k%d' % n
                        n += 1
                        if (n - 1) % part[1] != part[0] - 1:
                            continue
                        write_case(gold, pred, iid, golds, p)
                        jl.write(json.dumps({'instance_id': iid,
                                             'condition_cols': cc,
                                             'ignore_order': io_}) + '\n')
    print('%d instances of %d in %s' % ((n + part[1] - part[0]) // part[1],
                                         n, d))


def write_golden(gold, pred, sql_path, expected_path, mirror):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import verdict_diff as vd
    off = vd.load_official(mirror)
    warnings.simplefilter('ignore')  # pandas' FutureWarnings on odd indexers
    fresh(gold)
    fresh(pred)
    os.makedirs(os.path.join(gold, 'exec_result'))
    std, ids = {}, []

    def judge(iid, item):
        std[iid] = item
        vd.PD.clear()
        return tuple(vd.official_verdict(off[fl], iid, std, pred,
                                         os.path.join(gold, 'exec_result'))
                     for fl in ('dbt', 'lite', 'snow'))

    # for each value, the layout and prediction whose official verdicts
    # tell the most: flavours that disagree, then a pass, then a
    # Result Error (rather than an exception)
    tmp = 0
    chosen = {}
    for ci, cc in enumerate(CC):
        best = None
        for layout, golds in GOLDS.items():
            for pi, p in enumerate(PREDS):
                iid = 't%d' % tmp
                tmp += 1
                write_case(gold, pred, iid, golds, p)
                item = {'instance_id': iid, 'condition_cols': cc,
                        'ignore_order': ci % 2 == 0}
                v = judge(iid, item)
                rank = (len(set(v)), any(x[0] == 1 for x in v),
                        any(x[1] == 'Result Error' for x in v))
                if best is None or rank > best[0]:
                    best = (rank, layout, pi)
        chosen[ci] = best[1:]
    fresh(gold)
    fresh(pred)
    os.makedirs(os.path.join(gold, 'exec_result'))
    std.clear()
    with open(os.path.join(gold, 'x_eval.jsonl'), 'w') as jl:
        for ci, cc in enumerate(CC):
            iid = 'c%02d' % ci
            layout, pi = chosen[ci]
            write_case(gold, pred, iid, GOLDS[layout], PREDS[pi])
            item = {'instance_id': iid, 'condition_cols': cc,
                    'ignore_order': ci % 2 == 0}
            std[iid] = item
            ids.append(iid)
            jl.write(json.dumps(item) + '\n')
    with open(sql_path, 'w') as f:
        f.write('-- condition_cols of every shape (tests/pandas_diff/cc_cases.py'
                ' --golden), one\n'
                '-- instance each over the fixture folders %s and %s;\n'
                '-- the expected score and error category of each flavour are '
                'the official\n'
                '-- code\'s (evaluate_single_exec_result_instance of snow and '
                'lite, dbt\'s\n'
                '-- compare functions through snow\'s), measured with pandas '
                '1.5.3.\n' % (gold, pred))
        f.write('.load build/spidereval\n.mode list\n'
                'SELECT i, f, v ->> \'score\', CASE\n'
                "  WHEN v ->> 'error_info' = '' THEN ''\n"
                "  WHEN v ->> 'error_info' LIKE 'Python Script Error%%' "
                "THEN 'Python Script Error'\n"
                "  WHEN v ->> 'error_info' LIKE 'Result Error%%' "
                "THEN 'Result Error'\n"
                "  ELSE v ->> 'error_info' END\n"
                "FROM (SELECT i, f, spider_verdict('%s/' || i || '.csv',\n"
                "                                  '%s', i, f) AS v\n"
                "      FROM (SELECT instance_id AS i FROM gold_instances('%s')),\n"
                "           (SELECT column1 AS f FROM (VALUES ('snow'), "
                "('lite'), ('dbt'))))\n"
                "ORDER BY i, f;\n" % (pred, gold, gold))
    with open(expected_path, 'w') as e:
        for iid in ids:
            vd.PD.clear()
            for fl in ('dbt', 'lite', 'snow'):
                score, cat = vd.official_verdict(
                    off[fl], iid, std, pred, os.path.join(gold, 'exec_result'))
                e.write('%s|%s|%s|%s\n' % (iid, fl, score, cat))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir', nargs='?')
    ap.add_argument('--part', default='1/1', metavar='K/N',
                    help='write only the K-th of every N instances (to '
                    'judge a share at a time)')
    ap.add_argument('--golden', nargs=4,
                    metavar=('GOLD', 'PRED', 'SQL', 'EXPECTED'))
    ap.add_argument('--mirror', default=os.environ.get('SPIDER2_REPO'),
                    help='a clone of xlang-ai/Spider2 (default: '
                    '$SPIDER2_REPO)')
    a = ap.parse_args()
    if a.golden and not a.mirror:
        ap.error('--golden needs --mirror or $SPIDER2_REPO')
    if a.golden:
        write_golden(*a.golden, a.mirror)
    elif a.dir:
        write_all(a.dir, tuple(int(x) for x in a.part.split('/')))
    else:
        ap.error('DIR or --golden needed')


if __name__ == '__main__':
    main()
