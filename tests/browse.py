#!/usr/bin/env python3
"""browse.py: one headless Chromium session for the browser tests.

    python3 tests/browse.py CHROMIUM OUTDIR NAME=URL [NAME=URL ...]

Starts Chromium once (DevTools over --remote-debugging-pipe: standard
library only, no websocket module, no port), opens each URL in a fresh tab
and, when its load event has fired and the page's scripts have run, writes
OUTDIR/NAME.html (the rendered DOM, document.documentElement.outerHTML, as
--dump-dom gives it) and OUTDIR/NAME.console (one line per console message
or uncaught exception; empty when there is none). Exit status 0, or 1 with
the reason on stderr (Chromium did not start, a page did not load in 30 s).
tests/run_frontdoor.sh and run_html_report.sh use it: one browser start
(about 10 s here) instead of one per page.
"""
import json
import os
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chrome):
        self.to_chrome_r, self.to_chrome_w = os.pipe()
        self.from_chrome_r, self.from_chrome_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="spidereval-browse-")

        def fds():
            os.dup2(self.to_chrome_r, 3)
            os.dup2(self.from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [chrome, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=fds, pass_fds=(3, 4))
        os.close(self.to_chrome_r)
        os.close(self.from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_chrome_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        i = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            m = self.read_message(deadline)
            if m.get("id") == i:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session, timeout=30):
        deadline = time.time() + timeout
        while True:
            for k, m in enumerate(self.events):
                if m.get("method") == method and m.get("sessionId") == session:
                    del self.events[k]
                    return m
            self.events.append(self.read_message(deadline))

    def page(self, url):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable", session=session)
        self.events = [m for m in self.events if m.get("sessionId") != session]
        self.call("Page.navigate", {"url": url}, session=session)
        self.wait_event("Page.loadEventFired", session)
        # scripts that run on load (the page opens the drill-down of the
        # address) have run; one more round trip lets queued tasks finish
        self.call("Runtime.evaluate", {"expression": "new Promise(r => setTimeout(r, 0))",
                                       "awaitPromise": True}, session=session)
        dom = self.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                             "returnByValue": True}, session=session)
        console = []
        for m in self.events:
            if m.get("sessionId") != session:
                continue
            p = m.get("params", {})
            if m.get("method") == "Runtime.consoleAPICalled":
                console.append("console.%s: %s" % (p.get("type"), " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
            elif m.get("method") == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                console.append(("exception: %s %s" % (d.get("text", ""),
                               d.get("exception", {}).get("description", ""))).replace("\n", " | "))
            elif m.get("method") == "Log.entryAdded":
                e = p.get("entry", {})
                console.append("log.%s: %s" % (e.get("level"), e.get("text")))
        self.events = [m for m in self.events if m.get("sessionId") != session]
        self.call("Target.closeTarget", {"targetId": target})
        return dom["result"]["value"], console

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile])


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: browse.py CHROMIUM OUTDIR NAME=URL [NAME=URL ...]\n")
        return 2
    chrome, out = argv[1], argv[2]
    pages = []
    for a in argv[3:]:
        name, sep, url = a.partition("=")
        if not sep or not name or "/" in name:
            sys.stderr.write("browse.py: bad argument '%s' (expected NAME=URL)\n" % a)
            return 2
        pages.append((name, url))
    b = Browser(chrome)
    try:
        b.call("Target.getTargets", timeout=60)  # the browser is up
        for name, url in pages:
            dom, console = b.page(url)
            with open(os.path.join(out, name + ".html"), "w", encoding="utf-8") as f:
                f.write(dom + "\n")
            with open(os.path.join(out, name + ".console"), "w", encoding="utf-8") as f:
                f.write("".join(c + "\n" for c in console))
    except (TimeoutError, EOFError, RuntimeError, OSError) as e:
        sys.stderr.write("browse.py: %s\n" % e)
        return 1
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
