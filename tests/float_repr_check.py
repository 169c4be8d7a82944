"""Compares spidereval's str() of floats with CPython's repr.

  float_repr_check.py random N SEED TOOL   N seeded random doubles of six
      kinds (any bit pattern; random magnitudes 1e-25..1e36; 0 to 16
      printed digits; powers of two and their neighbours; decimal
      fractions; ratios of small ints) through TOOL, each repr compared
  float_repr_check.py corpus < LINES      "HEX REPR KEY" lines of the
      tool's file mode: both must equal repr() of the double
Prints "float_repr: <what>: N compared, N differ" and the first
differences; exit status 1 when any differ.
"""
import random
import struct
import subprocess
import sys


def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def double(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def random_doubles(n, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        k = len(out) % 6
        if k == 0:
            x = double(rnd.getrandbits(64))
            if x != x:
                continue
        elif k == 1:
            x = rnd.random() * 10.0 ** rnd.randint(-25, 36)
        elif k == 2:
            x = float('%.*e' % (rnd.randint(0, 16),
                                rnd.random() * 10.0 ** rnd.randint(-8, 18)))
        elif k == 3:
            b = max(1, bits(2.0 ** rnd.randint(-1074, 1023)) + rnd.randint(-2, 2))
            x = double(b)
        elif k == 4:
            x = rnd.randint(0, 10 ** rnd.randint(1, 17)) / 10.0 ** rnd.randint(0, 17)
        else:
            x = rnd.randint(-10 ** 6, 10 ** 6) / rnd.randint(1, 1000)
        if rnd.random() < 0.5:
            x = -x
        out.append(x)
    return out


def report(what, n, bad):
    print('float_repr: %s: %d compared, %d differ' % (what, n, len(bad)))
    for line in bad[:10]:
        print('  ' + line)
    return 1 if bad else 0


def main():
    if sys.argv[1] == 'random':
        n, seed, tool = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        xs = random_doubles(n, seed)
        text = ''.join('%016x\n' % bits(x) for x in xs)
        res = subprocess.run([tool], input=text, capture_output=True,
                             text=True, check=True)
        lines = res.stdout.split('\n')[:-1]
        if len(lines) != len(xs):
            return report('random', len(xs), ['tool printed %d lines' % len(lines)])
        bad = []
        for x, line in zip(xs, lines):
            got = line.split(' ', 1)[1]
            if got != repr(x):
                bad.append('%s: got %s, want %s' % (line.split()[0], got, repr(x)))
        return report('%d random doubles (seed %d)' % (n, seed), len(xs), bad)
    n = 0
    bad = []
    for line in sys.stdin:
        hexbits, rep, key = line.split()
        want = repr(double(int(hexbits, 16)))
        n += 1
        if rep != want or key != want:
            bad.append('%s: repr %s, key %s, want %s' % (hexbits, rep, key, want))
    return report('distinct floats of the corpora', n, bad)


sys.exit(main())
