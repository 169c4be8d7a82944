"""Verdict-level differential test: the official Spider 2.0 comparison code
against spidereval's spider_verdict and focused_match.

  /usr/bin/python3 tests/pandas_diff/verdict_diff.py FIRST_SEED COUNT \
      [--ext build/spidereval] [--mirror DIR] [--work DIR] [--keep]
  (--mirror: a clone of xlang-ai/Spider2; default $SPIDER2_REPO)
  /usr/bin/python3 tests/pandas_diff/verdict_diff.py --check GOLD_DIR PRED_DIR

For each seed, gen_verdict.gen_case(seed) makes a prediction, its gold
variants, condition_cols and ignore_order. The official functions are
taken at run time from the Spider2 repository (never copied here):
spider2-snow and spider2-lite evaluate.py (compare_pandas_table,
compare_multi_pandas_table, evaluate_single_exec_result_instance,
resolve_gold_paths) and spider2-dbt eval_utils.py (its two compare
functions, judged through the snow instance code as ../shared/parity
does). Each case is judged by the three official rule sets and by
spider_verdict(pred, gold_dir, id, flavor); the first gold file alone is
also judged by compare_pandas_table and focused_match. Every
disagreement (score, or error versus score) is printed with its seed;
`--keep` keeps the files (in --work) to reproduce it.
"""
import argparse
import ast
import contextlib
import io
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_verdict  # noqa: E402

# spidereval reads as the generation of the pandas this runs under
# (1.5.x -> 1.5, 2.x -> 2, 3.x -> 3; docs/typed_table.md)
GEN = '1.5' if pd.__version__.startswith('1.') else pd.__version__.split('.')[0]

FILES = {
    'snow': 'spider2-snow/evaluation_suite/evaluate.py',
    'lite': 'spider2-lite/evaluation_suite/evaluate.py',
    'dbt': 'spider2-dbt/evaluation_suite/eval_utils.py',
}
WANT = {
    'snow': ['compare_multi_pandas_table', 'compare_pandas_table',
             'evaluate_single_exec_result_instance'],
    'lite': ['compare_multi_pandas_table', 'compare_pandas_table',
             'evaluate_single_exec_result_instance', 'resolve_gold_paths'],
    'dbt': ['compare_multi_pandas_table', 'compare_pandas_table'],
}


class CachedPandas:
    """pandas, with read_csv remembered per path (its frame or its
    exception) until clear(): the official functions of the three flavours
    read the same files, and never modify a frame."""

    def __init__(self):
        self.memo = {}

    def __getattr__(self, name):
        return getattr(pd, name)

    def read_csv(self, path, **kw):
        key = (str(path), tuple(sorted(kw.items())))
        if key not in self.memo:
            try:
                self.memo[key] = (pd.read_csv(path, **kw), None)
            except Exception as e:  # noqa: BLE001 (pandas raises many)
                self.memo[key] = (None, e)
        frame, err = self.memo[key]
        if err is not None:
            raise err
        return frame

    def clear(self):
        self.memo.clear()


PD = CachedPandas()


def load_official(mirror):
    """Namespaces holding the official functions, one per flavour."""
    out = {}
    srcs = {}
    for fl, path in FILES.items():
        srcs[fl] = subprocess.run(['git', '-C', mirror, 'show',
                                   'HEAD:' + path], check=True,
                                  capture_output=True, text=True).stdout
    for fl in FILES:
        ns = {'pd': PD, 'math': math, 'os': os, 're': re, 'Path': Path,
              'lru_cache': lru_cache, 'load_gold_csv': PD.read_csv}
        tree = ast.parse(srcs[fl])
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in WANT[fl]:
                node.decorator_list = []
                exec(compile(ast.Module([node], []), FILES[fl], 'exec'), ns)
        if fl == 'dbt':  # the dbt rules judged through snow's instance code
            snow = ast.parse(srcs['snow'])
            for node in snow.body:
                if isinstance(node, ast.FunctionDef) and \
                        node.name == 'evaluate_single_exec_result_instance':
                    exec(compile(ast.Module([node], []), FILES['snow'],
                                 'exec'), ns)
        for name in WANT[fl]:
            assert name in ns, (fl, name)
        out[fl] = ns
    return out


def category(err):
    if not err:
        return ''
    for c in ('Result Error', 'Python Script Error', 'Evaluation Error',
              'No matching gold file found'):
        if err.startswith(c):
            return c
    return err


def official_verdict(ns, iid, std, pred_dir, gold_dir):
    with contextlib.redirect_stdout(io.StringIO()):
        r = ns['evaluate_single_exec_result_instance'](iid, std, pred_dir,
                                                        gold_dir)
    return r['score'], category(r['error_info'])


def official_compare(ns, pred_path, gold_path, cc, io_):
    """compare_pandas_table on one gold: 0/1, or 'error' (read or raise)."""
    try:
        p = PD.read_csv(pred_path)
        g = PD.read_csv(gold_path)
    except Exception:
        return 'readerr'
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return int(ns['compare_pandas_table'](p, g, cc, io_))
    except Exception:
        return 'error'


def check_dir(a, off):
    gold_dir, pred_dir = a.check
    jl = [f for f in sorted(os.listdir(gold_dir)) if f.endswith('_eval.jsonl')]
    std = {}
    with open(os.path.join(gold_dir, jl[0])) as f:
        for line in f:
            if line.strip():
                item = json.loads(line)
                std[item['instance_id']] = item
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    bad = 0
    for iid in std:
        pred_path = os.path.join(pred_dir, iid + '.csv')
        if not os.path.exists(pred_path):
            continue
        PD.clear()
        for fl in ('snow', 'lite', 'dbt'):
            o = official_verdict(off[fl], iid, std, pred_dir,
                                 os.path.join(gold_dir, 'exec_result'))
            j = json.loads(db.execute('select spider_verdict(?, ?, ?, ?)',
                                      (pred_path, gold_dir, iid,
                                       fl + ' pandas=' + GEN)).fetchone()[0])
            s = (j['score'], category(j['error_info']))
            bad += o != s
            print('%s %s official=%s/%s spidereval=%s/%s%s' % (
                iid, fl, o[0], o[1], s[0], s[1], '' if o == s else '  DIFF'))
    print('# %d differences' % bad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('first', type=int, nargs='?')
    ap.add_argument('count', type=int, nargs='?')
    ap.add_argument('--check', nargs=2, metavar=('GOLD_DIR', 'PRED_DIR'),
                    help='judge an existing gold directory (exec_result/ and '
                    'one *_eval.jsonl) and prediction folder instead')
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--ext', default=os.path.join(here, '../../build/spidereval'))
    ap.add_argument('--mirror', default=os.environ.get('SPIDER2_REPO'),
                    help='a clone of xlang-ai/Spider2 (default: '
                    '$SPIDER2_REPO)')
    ap.add_argument('--work', default='/tmp/verdict_diff')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--quiet', action='store_true')
    ap.add_argument('--big', action='store_true',
                    help='gen_big_case: wide golds across low_memory chunks')
    a = ap.parse_args()
    if not a.mirror:
        ap.error('--mirror or $SPIDER2_REPO is needed')
    off = load_official(a.mirror)
    if a.check:
        return check_dir(a, off)
    work = os.path.join(a.work, 'run%d' % a.first)
    shutil.rmtree(work, ignore_errors=True)
    gold_dir = os.path.join(work, 'gold')
    exec_dir = os.path.join(gold_dir, 'exec_result')
    pred_dir = os.path.join(work, 'pred')
    os.makedirs(exec_dir)
    os.makedirs(pred_dir)
    std = {}
    cases = {}
    with open(os.path.join(gold_dir, 'x_eval.jsonl'), 'w') as jl:
        for seed in range(a.first, a.first + a.count):
            c = (gen_verdict.gen_big_case if a.big
                 else gen_verdict.gen_case)(seed)
            iid = 'c%d' % seed
            cases[iid] = (seed, c)
            Path(pred_dir, iid + '.csv').write_bytes(c['pred'])
            for letter, data in c['golds']:
                name = iid + ('_' + letter if letter else '') + '.csv'
                Path(exec_dir, name).write_bytes(data)
            item = {'instance_id': iid}
            if c['cc'] is not gen_verdict.MISSING:
                item['condition_cols'] = c['cc']
            if c['io'] is not gen_verdict.MISSING:
                item['ignore_order'] = c['io']
            std[iid] = item
            jl.write(json.dumps(item) + '\n')
    db = sqlite3.connect(':memory:')
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    stats = {'cases': 0, 'verdicts': 0, 'score_diff': 0, 'cat_diff': 0,
             'compare_diff': 0, 'pass': 0}
    for iid, (seed, c) in cases.items():
        stats['cases'] += 1
        PD.clear()
        if stats['cases'] % 1000 == 0:
            print('# progress: %s' % json.dumps(stats), flush=True)
        pred_path = os.path.join(pred_dir, iid + '.csv')
        for fl in ('snow', 'lite', 'dbt'):
            stats['verdicts'] += 1
            osc, ocat = official_verdict(off[fl], iid, std, pred_dir, exec_dir)
            try:
                j = json.loads(db.execute(
                    'select spider_verdict(?, ?, ?, ?)',
                    (pred_path, gold_dir, iid,
                     fl + ' pandas=' + GEN)).fetchone()[0])
                ssc, scat = j['score'], category(j['error_info'])
            except sqlite3.Error as e:
                ssc, scat = 'sqlerr', str(e)
            stats['pass'] += osc == 1
            if osc != ssc:
                stats['score_diff'] += 1
                print('VERDICT seed=%d %s official=%s/%s spidereval=%s/%s'
                      % (seed, fl, osc, ocat, ssc, scat), flush=True)
            elif ocat != scat:
                stats['cat_diff'] += 1
                if not a.quiet:
                    print('CATEGORY seed=%d %s official=%s spidereval=%s'
                          % (seed, fl, ocat, scat), flush=True)
            # compare_pandas_table alone on the first gold file
            letter, _ = c['golds'][0]
            gpath = os.path.join(exec_dir, iid + ('_' + letter if letter
                                                  else '') + '.csv')
            cc = c['cc']
            if cc is gen_verdict.MISSING:
                continue
            io_ = c['io'] if c['io'] is not gen_verdict.MISSING else False
            if not isinstance(io_, bool):
                continue
            o = official_compare(off[fl], pred_path, gpath, cc, io_)
            if o == 'readerr':
                continue
            try:
                s = db.execute('select focused_match(?, ?, ?, ?, ?)',
                               (pred_path, gpath, json.dumps(cc), int(io_),
                                fl)).fetchone()[0]
            except sqlite3.Error as e:
                s = 'error'
                emsg = str(e)
            if o != s:
                stats['compare_diff'] += 1
                print('COMPARE seed=%d %s cc=%s io=%s official=%s '
                      'spidereval=%s%s' % (seed, fl, json.dumps(cc), io_, o,
                                           s, ' (' + emsg + ')' if s == 'error'
                                           else ''), flush=True)
    print('# seeds %d..%d: %s' % (a.first, a.first + a.count - 1,
                                  json.dumps(stats)), flush=True)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
