"""python -m spidereval serve ...: the reward over HTTP (spidereval.serve)."""

import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "serve":
        print("usage: python -m spidereval serve [--port N] [--workers N] "
              "[--db-root DIR] ... (python -m spidereval serve --help)",
              file=sys.stderr)
        return 2
    from .serve import main as serve
    return serve(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
