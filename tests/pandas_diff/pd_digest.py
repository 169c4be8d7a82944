"""How pandas reads each CSV, in tt_dump's format (see README.md).

/usr/bin/python3 pd_digest.py [-v] FILE...  (Debian's python3-pandas 1.5.3)
PYTHON pd_digest.py --md5 FILE...  (any pandas; a faster digest, compared
                                     only among pandas versions)

One line a file: FILE, OK, ncols, nrows, dtypes, digest (FNV-1a over the
column names and every cell's Python type and str()), or FILE, ERR, the
exception's name and message. Cells are read per column (Series.tolist()),
so the digest checks the reader, not the frame-to-values step.
"""
import hashlib
import signal
import sys

import pandas as pd

TIMEOUT = 300  # seconds a file may take (a few adversarial files are slow)


def on_alarm(signum, frame):
    raise TimeoutError("pandas took more than %d s" % TIMEOUT)

MASK = (1 << 64) - 1
START = 1469598103934665603


def fnv(h, data):
    for b in data:
        h = ((h ^ b) * 1099511628211) & MASK
    return h


def kind(x):
    if isinstance(x, bool):
        return "b"
    if isinstance(x, int):
        return "i"
    if isinstance(x, float):
        return "n" if x != x else "f"
    return "s"


def dtype_name(t):
    # pandas 3 names its default string dtype "str"; a column of str and
    # NaN is "object" before it
    s = str(t)
    return "object" if s in ("str", "string") else s


def main(argv):
    verbose = bool(argv) and argv[0] == "-v"
    md5 = bool(argv) and argv[0] == "--md5"
    signal.signal(signal.SIGALRM, on_alarm)
    for path in argv[1:] if verbose or md5 else argv:
        try:
            signal.alarm(TIMEOUT)
            df = pd.read_csv(path)
            signal.alarm(0)
        except Exception as e:  # the outcome compared is the exception
            signal.alarm(0)
            msg = " ".join(str(e).replace("\t", " ").split("\n")).rstrip(" ")
            print(f"{path}\tERR\t{type(e).__name__}\t{msg}", flush=True)
            continue
        h = START
        nrows = len(df)
        if md5:
            m = hashlib.md5()
            for c, name in enumerate(df.columns):
                m.update(str(name).encode("utf-8", "surrogatepass") + b"\0")
                for x in df.iloc[:, c].tolist():
                    m.update((kind(x) + str(x) + "\n").encode(
                        "utf-8", "surrogatepass"))
            dtypes = ",".join(dtype_name(t) for t in df.dtypes)
            print(f"{path}\tOK\t{len(df.columns)}\t{nrows}\t{dtypes}\t"
                  f"{m.hexdigest()[:16]}", flush=True)
            continue
        for c, name in enumerate(df.columns):
            ch = START
            for r, x in enumerate(df.iloc[:, c].tolist()):
                k, s = kind(x), str(x)
                ch = fnv(ch, (k + s + "\n").encode("utf-8", "surrogatepass"))
                if verbose:
                    print(f"{path}\tcell\t{c}\t{r}\t{k}\t{s}")
            h = fnv(h, str(name).encode("utf-8", "surrogatepass") + b"\0")
            h = fnv(h, f"{ch:016x}".encode())
        dtypes = ",".join(dtype_name(t) for t in df.dtypes)
        print(f"{path}\tOK\t{len(df.columns)}\t{nrows}\t{dtypes}\t{h:016x}",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
