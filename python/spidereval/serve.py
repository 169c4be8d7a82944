"""spidereval serve: the execution reward over HTTP (JSON in, the reward and
its components out), for trainers and environments that call a reward
service (NeMo Gym's /verify, OpenRLHF's remote reward, a Ray cluster's
actors sharing one host).

    python -m spidereval serve --port 8000 --workers 4 --db-root /data/dbs

    GET  /health   {"status": "ok", "in_flight": 0, "served": 12, ...}
    POST /reward   {"completion": "...", "db_path": "...", "gold_sql": "..."}
                   -> {"score": 1.0, "format_ok": 1, ..., "error_info": ""}
                   {"items": [{...}, ...]} -> {"results": [{...}, ...]}
    POST /verify   NeMo Gym's shape: the request (with "response", an
                   OpenAI Responses object, and the task's fields) echoed
                   with "reward" and the components
    POST /openrlhf OpenRLHF's remote reward: {"query", "prompts", "labels"}
                   -> {"rewards", "scores", "extra_logs"}

At most --workers rewards are computed at once; --queue more requests wait;
beyond that the server answers 503 at once (a trainer retries or slows
down). With --db-root, a request may only name databases inside it.
"""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import __version__
from ._bundle import SpiderevalError
from .reward import available_rules
from .trainers import (REWARD_OPTIONS, GoldError, _gold_problem, _present,
                       _rewards_of, _text, completion_text, openrlhf_rewards,
                       reward_for)

MAX_BODY = 64 << 20


class Refused(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class RewardService:
    """The server's state: its options, the concurrency bound, counters."""

    def __init__(self, workers=4, queue=64, db_root=None,
                 on_gold_error="raise", **options):
        unknown = set(options) - set(REWARD_OPTIONS)
        if unknown:
            raise SpiderevalError("spidereval serve: unknown option(s) %s"
                                  % ", ".join(sorted(unknown)))
        if workers < 1 or queue < 0:
            raise SpiderevalError("spidereval serve: --workers must be at "
                                  "least 1 and --queue at least 0")
        self.options = {k: v for k, v in options.items() if v is not None}
        rules = self.options.get("rules", "spider2")
        if rules not in available_rules():
            raise SpiderevalError("unknown rule set %r (this build has %s)"
                                  % (rules, ", ".join(available_rules())))
        reward_for(**self.options)  # bad options fail at start
        self.workers = workers
        self.capacity = workers + queue
        self.db_root = os.path.realpath(db_root) if db_root else None
        self.on_gold_error = on_gold_error
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self.pending = 0     # admitted: running or waiting for a slot
        self.in_flight = 0   # running
        self.served = 0
        self.refused = 0

    def health(self):
        return {"status": "ok", "version": __version__,
                "workers": self.workers, "capacity": self.capacity,
                "in_flight": self.in_flight, "pending": self.pending,
                "served": self.served, "refused": self.refused,
                "rules": available_rules(), "options": {
                    k: v for k, v in self.options.items()
                    if not callable(v)}}

    def admit(self):
        with self._lock:
            if self.pending >= self.capacity:
                self.refused += 1
                raise Refused(503, "spidereval serve: busy (%d requests "
                              "running or waiting, the bound of --workers "
                              "plus --queue): retry later" % self.pending)
            self.pending += 1

    def run(self, fn, *args):
        """fn(*args) within the concurrency bound (admit() first)."""
        try:
            with self._slots:
                with self._lock:
                    self.in_flight += 1
                try:
                    return fn(*args)
                finally:
                    with self._lock:
                        self.in_flight -= 1
                        self.served += 1
        finally:
            with self._lock:
                self.pending -= 1

    def _db(self, item):
        db = item.get("db_path", item.get("db_file"))
        root = item.get("db_root", self.db_root)
        if db is None and item.get("db_id") is not None and root is not None:
            db = os.path.join(root, item["db_id"], item["db_id"] + ".sqlite")
        if not isinstance(db, str) or not db:
            raise Refused(400, "spidereval serve: no database: give db_path "
                          "(or db_file, or db_id with --db-root)")
        if self.db_root is not None:
            if not os.path.isabs(db):
                db = os.path.join(self.db_root, db)
            real = os.path.realpath(db)
            if os.path.commonpath([real, self.db_root]) != self.db_root:
                raise Refused(403, "spidereval serve: database %r is outside "
                              "--db-root %s" % (db, self.db_root))
        return db

    def score(self, item, index=None):
        """One reward: item has completion (a str or messages), db_path
        (or db_file, db_id), gold_sql (or gold, sql), optionally
        condition_cols, ignore_order and reward options."""
        p = self._parse(item, index)
        r, args = p[0]
        try:
            res = r(*args)
        except SpiderevalError as e:
            raise Refused(400, str(e))
        return self._answer(p, res)

    def _parse(self, item, index):
        """An item's (SqlReward, its call's arguments) and what _answer
        needs; Refused when the request is wrong."""
        if not isinstance(item, dict):
            raise Refused(400, "spidereval serve: an item must be a JSON "
                          "object, not %s" % type(item).__name__)
        item = _present(item)
        gold = item.get("gold_sql", item.get("gold", item.get("sql")))
        if not isinstance(gold, str):
            raise Refused(400, "spidereval serve: no gold: give gold_sql "
                          "(the gold SQL as a string)")
        if "completion" not in item:
            raise Refused(400, "spidereval serve: no completion")
        db = self._db(item)
        opts = dict(self.options)
        opts.update({k: item[k] for k in REWARD_OPTIONS if k in item})
        try:
            r = reward_for(**opts)
            args = (completion_text(item["completion"]), db, gold,
                    item.get("condition_cols"), item.get("ignore_order"))
        except SpiderevalError as e:
            raise Refused(400, str(e))
        policy = item.get("on_gold_error", self.on_gold_error)
        return (r, args), policy, index, db, gold

    @staticmethod
    def _answer(parsed, res):
        """The answer of a parsed item's reward (422 for a sample whose
        data cannot be used, with the policy 'raise')."""
        _, policy, index, db, gold = parsed
        try:
            res = _gold_problem(res, policy, index, db, gold)
        except GoldError as e:
            raise Refused(422, str(e))
        out = {"score": res.score}
        out.update(res.components)
        out["error_info"] = res.error_info
        return out

    def reward(self, body):
        if isinstance(body, dict) and "items" in body:
            items = body["items"]
            if not isinstance(items, list):
                raise Refused(400, "spidereval serve: items must be a list")
            # the items before the first wrong one are scored (a sample
            # among them whose data cannot be used is answered first, as
            # when they were scored one by one), their queries a chunk at
            # a time in one round trip to a worker (SqlReward._batch_args)
            parsed, wrong = [], None
            for i, it in enumerate(items):
                try:
                    parsed.append(self._parse(it, i))
                except Refused as e:
                    wrong = e
                    break
            try:
                results = _rewards_of([p[0] for p in parsed], 1)
            except SpiderevalError as e:
                raise Refused(400, str(e))
            out = [self._answer(p, res) for p, res in zip(parsed, results)]
            if wrong is not None:
                raise wrong
            return {"results": out}
        return self.score(body)

    def openrlhf(self, body):
        """OpenRLHF's remote reward (--remote_rm_url http://HOST:PORT/openrlhf):
        {"query": [...], "prompts": [...], "labels": [...]} -> {"rewards",
        "scores", "extra_logs"}; labels as for reward_func."""
        if not isinstance(body, dict) or not isinstance(body.get("query"), list):
            raise Refused(400, "spidereval serve: /openrlhf takes {\"query\": "
                          "[...], \"prompts\": [...], \"labels\": [...]}")
        labels = []
        for i, label in enumerate(body.get("labels") or []):
            if isinstance(label, str):
                try:
                    label = json.loads(label)
                except ValueError:
                    label = None
            if not isinstance(label, dict):
                raise Refused(400, "spidereval serve: label %d must be a JSON "
                              "object with sql and db_path" % i)
            label = _present(label)
            label["db_path"] = self._db(label)  # inside --db-root
            labels.append(label)
        opts = dict(self.options, on_gold_error=self.on_gold_error)
        try:
            return openrlhf_rewards(body["query"], body.get("prompts"),
                                    labels, **opts)
        except GoldError as e:
            raise Refused(422, str(e))
        except SpiderevalError as e:
            raise Refused(400, str(e))

    def verify(self, body):
        """NeMo Gym's /verify: the completion is the text of the response's
        last assistant message (output items of type 'message'); the task's
        fields (db_path, gold_sql...) are the body's own."""
        if not isinstance(body, dict):
            raise Refused(400, "spidereval serve: /verify takes a JSON object")
        response = body.get("response") or {}
        text = ""
        for out in response.get("output") or []:
            if isinstance(out, dict) and out.get("type", "message") == "message" \
                    and out.get("role", "assistant") == "assistant":
                text = _text(out.get("content"))
        item = dict(body)
        item.pop("response", None)
        item.pop("responses_create_params", None)
        item["completion"] = text
        result = self.score(item)
        answer = dict(body)
        answer["reward"] = result.pop("score")
        answer.update(result)
        if result["error_info"].startswith("Gold Error"):
            # NeMo Gym's field for a reward that does not reflect the policy
            answer["failure_reason"] = result["error_info"]
        return answer


class Handler(BaseHTTPRequestHandler):
    server_version = "spidereval/" + __version__
    protocol_version = "HTTP/1.1"

    def setup(self):
        # a connection idle this long (a stalled client) is closed
        self.timeout = self.server.idle_timeout
        super().setup()

    def log_message(self, fmt, *args):  # quiet: a trainer sends thousands
        if self.server.verbose:
            super().log_message(fmt, *args)

    def _send(self, status, obj):
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.split("?")[0] == "/health":
            self._send(200, self.server.service.health())
        else:
            self._send(404, {"error": "spidereval serve: no such endpoint %s "
                             "(GET /health, POST /reward, POST /verify)"
                             % self.path})

    def do_POST(self):
        svc = self.server.service
        route = {"/reward": svc.reward, "/verify": svc.verify,
                 "/openrlhf": svc.openrlhf}.get(
            self.path.split("?")[0])
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            n = -1
        try:
            if route is None:
                raise Refused(404, "spidereval serve: no such endpoint %s "
                              "(POST /reward, /verify, /openrlhf)" % self.path)
            if n < 0 or n > MAX_BODY:
                raise Refused(413, "spidereval serve: request body must "
                              "have a Content-Length of at most %d bytes"
                              % MAX_BODY)
            raw = self.rfile.read(n)
            try:
                body = json.loads(raw)
            except ValueError as e:
                raise Refused(400, "spidereval serve: the body is not JSON: "
                              "%s" % e)
            svc.admit()
            result = svc.run(route, body)
        except Refused as e:
            if n > 0 and route is None:
                self.rfile.read(min(n, MAX_BODY))
            self._send(e.status, {"error": str(e)})
            return
        except Exception as e:  # never a dropped connection
            self._send(500, {"error": "spidereval serve: %s: %s"
                             % (type(e).__name__, e)})
            return
        self._send(200, result)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def make_server(host="127.0.0.1", port=0, verbose=False, idle_timeout=120.0,
                **service_options):
    srv = Server((host, port), Handler)
    srv.service = RewardService(**service_options)
    srv.verbose = verbose
    srv.idle_timeout = idle_timeout
    return srv


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m spidereval serve",
        description="The execution reward over HTTP (docs/python.md).")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000,
                   help="0 picks a free port (printed)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2,
                   help="rewards computed at once (default: the cores)")
    p.add_argument("--queue", type=int, default=64,
                   help="requests that may wait; more are answered 503")
    p.add_argument("--db-root", help="only databases inside this folder")
    p.add_argument("--rules", default="spider2")
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--weights", type=json.loads,
                   help='JSON, e.g. \'{"executed": 0.1, "match": 0.9}\'')
    p.add_argument("--extract", default="official")
    p.add_argument("--format-penalty", type=float)
    p.add_argument("--empty-match", choices=["true", "false"])
    p.add_argument("--on-gold-error", choices=["raise", "log"],
                   default="raise",
                   help="raise: answer 422 naming the sample; log: score 0")
    p.add_argument("--idle-timeout", type=float, default=120.0,
                   help="seconds a connection may stay idle (default 120)")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv)
    try:
        srv = make_server(
            a.host, a.port, a.verbose, a.idle_timeout, workers=a.workers,
            queue=a.queue,
            db_root=a.db_root, on_gold_error=a.on_gold_error, rules=a.rules,
            timeout=a.timeout, weights=a.weights, extract=a.extract,
            format_penalty=a.format_penalty,
            empty_match=None if a.empty_match is None
            else a.empty_match == "true")
    except (SpiderevalError, OSError) as e:
        print("spidereval serve: %s" % e, file=sys.stderr)
        return 2
    host, port = srv.server_address[:2]
    print("spidereval serve: listening on http://%s:%d" % (host, port),
          flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
