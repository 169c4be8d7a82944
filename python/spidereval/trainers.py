"""The execution reward in the call shapes RL trainers use (docs/python.md):

- verl: compute_score(data_source, solution_str, ground_truth, extra_info,
  **kwargs) (custom_reward_function.name, its reward_kwargs and the reward
  loop's router kwargs arrive as keywords), compute_score_async (the
  reward loop awaits it), compute_score_batch (BatchRewardManager's
  data_sources, solution_strs, ground_truths, extra_infos);
- TRL: trl_reward / trl_reward_async and make_trl_reward(...) (GRPOTrainer
  reward_funcs: prompts, completions, dataset columns as keyword lists,
  log_extra / log_metric);
- OpenRLHF: reward_func(queries, prompts, labels, **kwargs);
- SkyRL-SQL: compute_score_single(completion, reference, db_file).

Where a sample's data is wrong (no such database, gold SQL that fails) the
model is not to blame: the call raises GoldError naming the sample, or,
with on_gold_error='log', scores it 0, counts it (gold_errors) and logs each
distinct problem once. A misconfigured dataset never trains on silent
zeros.
"""

import asyncio
import collections
import functools
import json
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from ._bundle import SpiderevalError
from .reward import BATCH, COMPONENTS, SqlReward

log = logging.getLogger("spidereval")

# options of SqlReward a call may set (verl's reward_kwargs, a TRL factory,
# a sample's extra_info)
REWARD_OPTIONS = ("rules", "timeout", "weights", "extract", "format_penalty",
                  "empty_match", "empty_ok")
# a sample's own keys (extra_info, ground_truth dict, TRL columns)
SAMPLE_KEYS = ("db_path", "db_file", "db_id", "db_root", "gold", "gold_sql",
               "sql", "ground_truth", "condition_cols", "ignore_order")
# keywords of the call itself
CALL_OPTIONS = ("on_gold_error", "details", "workers", "db_root")
# keywords trainers pass that carry nothing for this reward: verl's reward
# loop (router address and tokenizer of a reward model), TRL's
# (trainer_state, environments, completion_ids), verl's extra_info
# additions (num_turns, rollout_reward_scores, index, split...)
PASSED_BY_TRAINERS = ("reward_router_address", "reward_model_tokenizer",
                      "trainer_state", "environments", "completion_ids",
                      "log_extra", "log_metric", "num_turns",
                      "rollout_reward_scores", "tool_extra_fields")

gold_errors = collections.Counter()  # (db_path, message) -> samples, 'log'
_logged = set()
_warned_keys = set()
_lock = threading.Lock()


class GoldError(SpiderevalError):
    """A sample whose database or gold cannot be used: a configuration
    error of the dataset, not a wrong answer of the model."""


def _plain(v):
    """A value as parquet / numpy may hand it: arrays to lists, numpy
    scalars to Python."""
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return v.tolist()
    return v


def _present(d):
    """A dict's keys whose value is not None (parquet writes a column absent
    from a sample as None: absent)."""
    if d is None:
        return {}
    if not hasattr(d, "items"):
        raise SpiderevalError("spidereval: extra_info must be a dict, not %s"
                              % type(d).__name__)
    return {k: _plain(v) for k, v in d.items() if v is not None}


def _warn_unknown(keys, where):
    for k in keys:
        if k in REWARD_OPTIONS or k in SAMPLE_KEYS or k in CALL_OPTIONS \
                or k in PASSED_BY_TRAINERS or k in ("data_source", "index",
                                                    "split", "question"):
            continue
        with _lock:
            if (k, where) in _warned_keys:
                continue
            _warned_keys.add((k, where))
        log.warning("spidereval: %s: keyword %r is not a spidereval option "
                    "(ignored); the options are %s", where, k,
                    ", ".join(REWARD_OPTIONS + CALL_OPTIONS))


_rewards = {}


def _freeze(v):
    """A hashable key of an option's value (dicts and lists as OmegaConf's
    DictConfig / ListConfig from verl's config too)."""
    if hasattr(v, "items"):
        return tuple(sorted((str(k), _freeze(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)) or (hasattr(v, "__iter__") and
                                        not isinstance(v, (str, bytes))):
        return tuple(_freeze(x) for x in v)
    if callable(v):
        return ("callable", id(v))
    return v


def reward_for(**options):
    """The shared SqlReward of these options (its gold cache is shared by
    every call that uses the same options)."""
    opts = {k: options[k] for k in REWARD_OPTIONS if options.get(k) is not None}
    if "weights" in opts:
        opts["weights"] = {str(k): float(w) for k, w in opts["weights"].items()}
    if "timeout" in opts:
        opts["timeout"] = float(opts["timeout"])
    key = _freeze(opts)
    r = _rewards.get(key)
    if r is None:
        r = SqlReward(**opts)
        with _lock:
            r = _rewards.setdefault(key, r)
    return r


def _sample(ground_truth, extra_info, db_root=None):
    """gold, db path and the sample's own options from verl's ground_truth
    (gold SQL, or a dict) and extra_info (None values are absent)."""
    info = _present(extra_info)
    if isinstance(ground_truth, dict) or hasattr(ground_truth, "items"):
        info.update(_present(ground_truth))
        gold = info.get("gold", info.get("sql", info.get("gold_sql",
                                                           info.get("ground_truth"))))
    else:
        gold = _plain(ground_truth)
    db = info.get("db_path", info.get("db_file"))
    root = info.get("db_root", db_root)
    if db is None and "db_id" in info and root is not None:
        db = os.path.join(root, info["db_id"], info["db_id"] + ".sqlite")
    if db is None:
        raise GoldError(
            "spidereval: no database for this sample: give db_path (or "
            "db_file, or db_id and db_root) in extra_info or ground_truth")
    if gold is None:
        raise GoldError("spidereval: no gold for this sample: give the gold "
                        "SQL as ground_truth (or sql / gold in a dict)")
    return gold, db, info


def _describe(sample, db, gold, data_source=None):
    where = "sample %s" % sample if sample is not None else "a sample"
    if data_source is not None:
        where += " (data_source %r)" % (data_source,)
    g = gold if isinstance(gold, str) else type(gold).__name__
    if isinstance(g, str) and len(g) > 80:
        g = g[:77] + "..."
    return "%s, db_path %r, gold %r" % (where, os.fspath(db) if isinstance(
        db, os.PathLike) else db, g)


def _gold_problem(res, policy, sample, db, gold, data_source=None):
    """res when its data is fine; else raise (policy 'raise') or count and
    log once (policy 'log')."""
    if not res.error_info.startswith("Gold Error"):
        return res
    msg = res.error_info[len("Gold Error: "):]
    where = _describe(sample, db, gold, data_source)
    if policy == "raise":
        raise GoldError(
            "spidereval: %s: %s (the dataset's fault, not the model's: fix "
            "the sample, or pass on_gold_error='log' to count and log such "
            "samples and score them 0)" % (where, msg))
    with _lock:
        gold_errors[(str(db), msg)] += 1
        first = (str(db), msg) not in _logged
        _logged.add((str(db), msg))
    if first:
        log.error("spidereval: %s: %s (scored 0; later samples with this "
                  "problem are counted in spidereval.trainers.gold_errors, "
                  "not logged)", where, msg)
    return res


def _policy(p):
    if p not in ("raise", "log"):
        raise SpiderevalError("spidereval: on_gold_error must be 'raise' or "
                              "'log', not %r" % (p,))
    return p


def _one(data_source, solution_str, ground_truth, extra_info, kwargs,
         sample=None, where="compute_score"):
    _warn_unknown(kwargs, where)
    gold, db, info = _sample(ground_truth, extra_info, kwargs.get("db_root"))
    opts = {k: kwargs[k] for k in REWARD_OPTIONS if kwargs.get(k) is not None}
    # a sample may set its own rule set or timeout
    opts.update({k: info[k] for k in REWARD_OPTIONS if k in info})
    r = reward_for(**opts)
    if sample is None:
        sample = info.get("index")
    res = r(solution_str, db, gold, info.get("condition_cols"),
            info.get("ignore_order"))
    return _gold_problem(res, _policy(kwargs.get("on_gold_error", "raise")),
                         sample, db, gold, data_source)


def _details(res):
    """verl's dict result: 'score' and the components as floats (None, a
    component that does not apply, is -1.0: verl averages every key)."""
    d = {"score": res.score}
    d.update({k: (-1.0 if v is None else float(v))
              for k, v in res.components.items()})
    return d


# --------------------------------------------------------------------- verl

def compute_score(data_source, solution_str, ground_truth, extra_info=None,
                  **kwargs):
    """verl's reward function (custom_reward_function.name = compute_score,
    path = pkg://spidereval.reward or the installed reward.py).

    ground_truth: the gold SQL, or a dict with sql (or gold) and any sample
    key; extra_info: db_path (or db_file, or db_id with db_root), and
    optionally condition_cols, ignore_order, rules, timeout (None values
    are absent). kwargs: custom_reward_function.reward_kwargs (rules,
    timeout, weights, extract, format_penalty, empty_match, empty_ok,
    db_root, on_gold_error, details) and what the reward loop passes
    (reward_router_address, reward_model_tokenizer: ignored). Returns the
    score, or with details=True verl's dict: 'score' and the components."""
    res = _one(data_source, solution_str, ground_truth, extra_info, kwargs)
    return _details(res) if kwargs.get("details") else res.score


def compute_score_details(data_source, solution_str, ground_truth,
                          extra_info=None, **kwargs):
    """compute_score with details=True: {'score': ..., 'format_ok': ...,
    'executed': ..., 'match': ..., 'similarity': ..., 'cell_recall': ...,
    'cell_precision': ..., 'empty_match': ..., 'rows': ...}."""
    return _details(_one(data_source, solution_str, ground_truth, extra_info,
                         kwargs, where="compute_score_details"))


async def compute_score_async(data_source, solution_str, ground_truth,
                              extra_info=None, **kwargs):
    """compute_score as a coroutine (verl's reward loop awaits an async
    reward function): the query runs in a worker thread, the event loop
    goes on."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, functools.partial(
        compute_score, data_source, solution_str, ground_truth, extra_info,
        **kwargs))


_pools = {}


def _after_fork():
    """In a forked child the pools' threads do not exist (work given to
    them would wait for ever) and a lock may be held by a thread that did
    not come along: both start anew."""
    global _lock
    _lock = threading.Lock()
    _pools.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _pool(workers):
    workers = max(1, int(workers))
    p = _pools.get(workers)
    if p is None:
        with _lock:
            p = _pools.setdefault(workers, ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix="spidereval"))
    return p


def _run_batch(fn, n, workers):
    """fn(i) for i in range(n), on workers threads, in order; the first
    GoldError (in sample order) is raised after all have run."""
    if workers <= 1 or n <= 1:
        out = []
        for i in range(n):
            out.append(fn(i))
        return out
    return list(_pool(workers).map(fn, range(n)))


def _rewards_of(calls, workers):
    """r(*args) of each (r, args) of calls, in order; an item of calls that
    is an exception stays in place. Chunks of calls to one SqlReward run on
    `workers` threads, each chunk's queries in one round trip to a worker
    where the native module runs them (SqlReward._batch_args)."""
    n = len(calls)
    groups = collections.OrderedDict()
    for i, c in enumerate(calls):
        if not isinstance(c, BaseException):
            groups.setdefault(id(c[0]), []).append(i)
    w = max(1, int(workers))
    chunks = []
    for idx in groups.values():
        size = max(1, min(BATCH, -(-len(idx) // w)))
        chunks += [idx[k:k + size] for k in range(0, len(idx), size)]
    out = list(calls)

    def run(k):
        idx = chunks[k]
        r = calls[idx[0]][0]
        return r._batch_args([calls[i][1] for i in idx])
    for idx, res in zip(chunks, _run_batch(run, len(chunks), w)):
        for i, x in zip(idx, res):
            out[i] = x
    assert len(out) == n
    return out


def compute_score_batch(data_sources, solution_strs, ground_truths,
                        extra_infos=None, **kwargs):
    """verl's BatchRewardManager signature (reward_manager.name = batch):
    lists in, one score (or dict, with details=True) per sample out, run on
    `workers` threads (default 8). A GoldError names the sample's position
    in the batch."""
    n = len(solution_strs)
    extra_infos = [None] * n if extra_infos is None else list(extra_infos)
    data_sources = [None] * n if data_sources is None else list(data_sources)
    ground_truths = list(ground_truths)
    if not (len(data_sources) == len(ground_truths) == len(extra_infos) == n):
        raise SpiderevalError(
            "spidereval: compute_score_batch: %d solution_strs but %d "
            "data_sources, %d ground_truths, %d extra_infos"
            % (n, len(data_sources), len(ground_truths), len(extra_infos)))
    details = kwargs.get("details")
    _warn_unknown(kwargs, "compute_score_batch")
    policy = _policy(kwargs.get("on_gold_error", "raise"))
    calls, where = [], []
    for i in range(n):
        # each sample's database, gold and reward (_one's), then their
        # queries in batches (_rewards_of)
        try:
            gold, db, info = _sample(ground_truths[i], extra_infos[i],
                                     kwargs.get("db_root"))
            opts = {k: kwargs[k] for k in REWARD_OPTIONS
                    if kwargs.get(k) is not None}
            opts.update({k: info[k] for k in REWARD_OPTIONS if k in info})
            sample = i
            calls.append((reward_for(**opts), (solution_strs[i], db, gold,
                                               info.get("condition_cols"),
                                               info.get("ignore_order"))))
            where.append((sample, db, gold))
        except GoldError as e:
            calls.append(e)
            where.append(None)
    out = []
    for i, res in enumerate(_rewards_of(calls, kwargs.get("workers", 8))):
        if isinstance(res, BaseException):
            raise res
        sample, db, gold = where[i]
        res = _gold_problem(res, policy, sample, db, gold, data_sources[i])
        out.append(_details(res) if details else res.score)
    return out


# ---------------------------------------------------------------------- TRL

def _text(content):
    """A message's content: a str, or a list of blocks ({'type': 'text',
    'text': ...}, or str) whose texts are joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = []
        for b in content:
            if isinstance(b, str):
                parts.append(b)
            elif isinstance(b, dict) and b.get("type", "text") in (
                    "text", "output_text") and isinstance(b.get("text"), str):
                parts.append(b["text"])
        return "".join(parts)
    return str(content)


def completion_text(completion):
    """A completion as a trainer passes it: a str, or a conversation (a list
    of messages): the last assistant message's content (text or blocks)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _text(completion.get("content"))
    if isinstance(completion, (list, tuple)):
        msgs = [m for m in completion if isinstance(m, dict)]
        said = [m for m in msgs if m.get("role", "assistant") == "assistant"]
        if said or msgs:
            return _text((said or msgs)[-1].get("content"))
        return ""
    if completion is None:
        return ""
    raise SpiderevalError("spidereval: a completion must be a str or a list "
                          "of messages, not %s" % type(completion).__name__)


def _column(kwargs, names, n):
    for name in names:
        v = kwargs.get(name)
        if v is not None:
            v = _plain(v)
            if not isinstance(v, (list, tuple)) or len(v) != n:
                raise SpiderevalError(
                    "spidereval: the dataset column %r must hold one value "
                    "per completion (%d)" % (name, n))
            return list(v)
    return [None] * n


class TrlReward:
    """A TRL reward function (GRPOTrainer(reward_funcs=[...])): made by
    make_trl_reward. Called with prompts, completions and the dataset's
    columns as keyword lists; returns one float per completion."""

    def __init__(self, name="spidereval_sql", workers=8, on_gold_error="raise",
                 log_components=True, db_root=None, **options):
        unknown = set(options) - set(REWARD_OPTIONS)
        if unknown:
            raise SpiderevalError(
                "spidereval: make_trl_reward: unknown option(s) %s (expected "
                "%s)" % (", ".join(sorted(unknown)),
                         ", ".join(REWARD_OPTIONS + ("workers", "name",
                                                     "on_gold_error",
                                                     "log_components",
                                                     "db_root"))))
        self.__name__ = name  # TRL names the reward in its logs by this
        self.workers = int(workers)
        self.on_gold_error = _policy(on_gold_error)
        self.log_components = bool(log_components)
        self.db_root = db_root
        self.reward = SqlReward(**options)

    def results(self, prompts=None, completions=None, **kwargs):
        """The RewardResults of a batch (what __call__ scores)."""
        completions = list(completions or [])
        n = len(completions)
        dbs = _column(kwargs, ("db_path", "db_file"), n)
        ids = _column(kwargs, ("db_id",), n)
        roots = _column(kwargs, ("db_root",), n)
        golds = _column(kwargs, ("gold_sql", "gold", "ground_truth", "sql"), n)
        ccs = _column(kwargs, ("condition_cols",), n)
        ios = _column(kwargs, ("ignore_order",), n)

        def one(i):
            db, gold = dbs[i], golds[i]
            root = roots[i] or self.db_root
            if db is None and ids[i] is not None and root is not None:
                db = os.path.join(root, ids[i], ids[i] + ".sqlite")
            if db is None:
                return GoldError(
                    "spidereval: sample %d: no database: give a db_path (or "
                    "db_file, or db_id with db_root) column" % i)
            if gold is None:
                return GoldError("spidereval: sample %d: no gold: give a "
                                 "gold_sql (or gold) column" % i)
            return (self.reward, (completion_text(completions[i]), db, gold,
                                  ccs[i], ios[i]))
        calls = [one(i) for i in range(n)]
        out = []
        # the queries of chunks of samples in one round trip to a worker
        # each, on the threads (_rewards_of)
        for i, res in enumerate(_rewards_of(calls, self.workers)):
            if isinstance(res, BaseException):
                raise res
            out.append(_gold_problem(res, self.on_gold_error, i,
                                     calls[i][1][1], calls[i][1][2]))
        return out

    def _log(self, out, kwargs):
        if not self.log_components:
            return
        log_metric, log_extra = kwargs.get("log_metric"), kwargs.get("log_extra")
        if log_metric is not None and out:
            for k in ("format_ok", "executed", "match"):
                log_metric("%s/%s" % (self.__name__, k),
                           sum(getattr(r, k) for r in out) / len(out))
        if log_extra is not None:
            log_extra("%s_error" % self.__name__, [r.error_info for r in out])

    def __call__(self, prompts=None, completions=None, **kwargs):
        out = self.results(prompts, completions, **kwargs)
        self._log(out, kwargs)
        return [r.score for r in out]

    def __getstate__(self):
        return dict(self.__dict__)


class AsyncTrlReward(TrlReward):
    """TrlReward as a coroutine (TRL gathers async reward functions and
    runs them alongside the others)."""

    async def __call__(self, prompts=None, completions=None, **kwargs):
        loop = asyncio.get_running_loop()
        out = await loop.run_in_executor(None, functools.partial(
            self.results, prompts, completions, **kwargs))
        self._log(out, kwargs)
        return [r.score for r in out]


def make_trl_reward(rules="spider2", timeout=30.0, workers=8, weights=None,
                    extract="official", format_penalty=None, empty_match=None,
                    empty_ok=False, on_gold_error="raise", log_components=True,
                    db_root=None, name="spidereval_sql", asynchronous=False):
    """A TRL reward function with these settings: completions scored on
    `workers` threads, each query within `timeout` seconds; the components
    (format_ok, executed, match) logged with log_metric and the reasons with
    log_extra where TRL offers them. asynchronous=True gives the async
    variant."""
    cls = AsyncTrlReward if asynchronous else TrlReward
    return cls(name=name, workers=workers, on_gold_error=on_gold_error,
               log_components=log_components, db_root=db_root, rules=rules,
               timeout=timeout, weights=weights, extract=extract,
               format_penalty=format_penalty, empty_match=empty_match,
               empty_ok=empty_ok)


trl_reward = make_trl_reward(name="trl_reward")
trl_reward_async = make_trl_reward(name="trl_reward_async", asynchronous=True)


def reward(prompt, completion, **kwargs):
    """A plain reward function, (prompt, completion, **kwargs) -> float:
    kwargs db_path (or db_file) and gold (or gold_sql), optionally rules,
    timeout, condition_cols, ignore_order and the other options."""
    gt = {k: kwargs[k] for k in SAMPLE_KEYS if k in kwargs}
    opts = {k: v for k, v in kwargs.items() if k not in SAMPLE_KEYS}
    return compute_score(None, completion_text(completion), gt, None,
                         **opts)


# ----------------------------------------------------------------- OpenRLHF

def _label(label):
    if isinstance(label, str):
        s = label.lstrip()
        if s.startswith("{"):
            try:
                return json.loads(label)
            except ValueError:
                pass
    return label


def openrlhf_rewards(queries, prompts, labels, **kwargs):
    """OpenRLHF's reward result as plain lists: {'rewards', 'scores',
    'extra_logs'} (what reward_func returns, and spidereval serve's
    POST /openrlhf answers)."""
    def listed(name, v):
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
            raise SpiderevalError("spidereval: reward_func: %s must be a list,"
                                  " not %s" % (name, type(v).__name__))
        return list(v)
    queries = listed("queries", queries)
    n = len(queries)
    prompts = listed("prompts", prompts) if prompts is not None else [""] * n
    labels = listed("labels", labels)
    if not (len(prompts) == len(labels) == n):
        raise SpiderevalError(
            "spidereval: reward_func: %d queries but %d prompts and %d labels"
            % (n, len(prompts), len(labels)))
    texts = [q[len(p):] if isinstance(p, str) and isinstance(q, str)
             and q.startswith(p) else q for q, p in zip(queries, prompts)]
    opts = {k: v for k, v in kwargs.items() if k in REWARD_OPTIONS
            or k in CALL_OPTIONS}
    outs = compute_score_batch([None] * n, texts,
                               [_label(x) for x in labels], None,
                               **dict(opts, details=True))
    return {"rewards": [o["score"] for o in outs],
            "scores": [o["match"] for o in outs],
            "extra_logs": {k: [o[k] for o in outs]
                           for k in ("format_ok", "executed", "match")}}


def reward_func(queries, prompts, labels, **kwargs):
    """OpenRLHF's custom reward (--remote_rm_url pointing at this file,
    --label_key naming a column): queries are prompt + response, labels
    a JSON object (or dict) with sql (or gold) and db_path (or db_file, db_id
    with db_root). Returns {'rewards', 'scores', 'extra_logs'} (torch
    tensors when torch is importable, as OpenRLHF expects; lists else).
    OpenRLHF logs an exception of reward_func at info level and goes on
    without a reward: a GoldError shows in its log, not as a stop."""
    out = openrlhf_rewards(queries, prompts, labels, **kwargs)
    try:
        import torch
    except ImportError:
        return out
    t = functools.partial(torch.tensor, dtype=torch.float32)
    return {"rewards": t(out["rewards"]), "scores": t(out["scores"]),
            "extra_logs": {k: t(v) for k, v in out["extra_logs"].items()}}


# ---------------------------------------------------------------- SkyRL-SQL

def compute_score_single(completion, reference, db_file, **kwargs):
    """SkyRL-SQL's reward shape (skyrl_gym's sql env): the SQL of the one
    <solution>...</solution> after SkyRL's format rule (extract='skyrl':
    a <think> block, <think> after each </observation>), -1.0 when the
    format fails (its format reward),
    else 1.0 when the result equals the gold's as a set of rows (BIRD's
    comparison, SkyRL's frozenset) and 0.0 otherwise. kwargs: the other
    options (rules='spider2' for the official comparison...)."""
    opts = {"extract": "skyrl", "format_penalty": -1.0}
    if "bird" in _available_rules():
        opts["rules"] = "bird"
    opts.update(kwargs)
    return compute_score(None, completion, {"sql": reference,
                                            "db_file": db_file}, None, **opts)


@functools.lru_cache(maxsize=1)
def _available_rules():
    from .reward import available_rules
    return tuple(available_rules())


__all__ = ["GoldError", "TrlReward", "AsyncTrlReward", "COMPONENTS",
           "completion_text", "compute_score", "compute_score_async",
           "compute_score_batch", "compute_score_details",
           "compute_score_single", "gold_errors", "make_trl_reward",
           "openrlhf_rewards", "reward",
           "reward_for", "reward_func", "trl_reward", "trl_reward_async"]
