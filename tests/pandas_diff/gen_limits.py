"""Adversarial CSVs aimed at the limits of pandas' C parser (issue 14).

    python3 gen_limits.py DIR N [SEED]

writes N files of each family into DIR (FAMILY-NNNN.csv). Unlike gen.py
(random nasty CSVs) each family sweeps the neighbourhood of one class of
behaviour that depends on C integer widths, buffer capacities or on how
pandas chunks its input:

exp     float exponents whose digits overflow pandas' C int: lengths and
        signs around 2^31 and 2^32 and their multiples, 17 and 18 digits,
        leading zeros, mantissas of every shape; one value per column.
short   rows shorter than the header (make_stream_space before the padding):
        header widths x row counts x the low_memory chunk size of the width,
        short rows at and around the chunk boundary.
bom     a UTF-8 BOM at, before and after the start of the second and third
        262144-character tokenizer buffer, with and without a line (or a
        blank line) ended before it, inside quotes, fields and after
        delimiters, in ASCII and non-ASCII text.
full    short strings of the tokenizer's special characters (bare CR,
        blank-led lines re-read from the call start) behind a header of
        random width, so that the stream fills exactly at every field
        position of the re-read loops; many of them run to the line limit
        of a chunk.
chunk   lines longer or shorter than the line before at, before and after
        the low_memory chunk boundary (pandas checks the field count only
        against the rows it still holds), with and without index columns.
mix     short strings over a wider alphabet (NUL, BOM, signs, exponent
        letters, non-ASCII), some after a name that ends near the first
        buffer boundary.

Run pd_digest.py and tt_dump over DIR and compare (see README.md).
"""
import os
import random
import sys

BUF = 262144  # characters in a tokenizer buffer


def chunk_rows(width):
    """pandas' low_memory chunk: the largest power of two below 2^20/width."""
    heuristic = 2**20 // width
    b = 1
    while b * 2 < heuristic:
        b *= 2
    return b


def exp_file(rng):
    mantissas = ["1", "9", "0", "-2", "+3", ".5", "5.", "1.5", "0.0001",
                 "12345678901234567890", "0000000000000000001", "-0"]
    bases = [2**31, 2**32, 2**31 - 1, 2**32 - 1, 2**33, 3 * 2**32,
             10**9, 10**10, 10**16, 10**17 - 1, 10**17]
    vals = []
    for _ in range(rng.randint(20, 120)):
        m = rng.choice(mantissas)
        mult = rng.randint(2, 2**20) if rng.random() < 0.2 else 1
        e = rng.choice(bases) * mult + rng.choice(
            [0, 1, -1, 308, -308, 309, -309, 616, -616, 617, 324, -324,
             rng.randint(-700, 700)])
        e = abs(e) % 10**18
        digits = str(e)
        if rng.random() < 0.2:
            digits = "0" * rng.randint(1, 4) + digits
        sign = rng.choice(["", "+", "-"])
        vals.append(m + rng.choice("eE") + sign + digits +
                    rng.choice(["", "", " ", "x"]))
    head = ",".join(f"c{i}" for i in range(len(vals)))
    return head + "\n" + ",".join(vals) + "\n"


def short_file(rng):
    width = rng.choice([2, 3, 5, 7, 8, 16, 31, 33, 64, 100, 200])
    b = chunk_rows(width)
    nrows = rng.choice([1, 2, 3, 4, 9, 33, b - 1, b, b + 1, b + 2])
    short_at = {rng.randint(0, nrows - 1) for _ in range(rng.randint(1, 4))}
    short_at |= {b - 1, b, b + 1} & set(range(nrows))
    header = ",".join(rng.choice(["", "a", "b", "ccc"]) for _ in range(width))
    if rng.random() < 0.3:
        header = "," * (width - 1)
    lines = [header]
    all_short = rng.random() < 0.4
    for r in range(nrows):
        k = width
        if all_short or r in short_at:
            k = rng.randint(1, width - 1)
        lines.append(",".join(str(rng.randint(0, 9)) for _ in range(k)))
    end = rng.choice(["\n", "\r\n", "\r"])
    return end.join(lines) + rng.choice([end, ""])


def bom_file(rng):
    bom = "\ufeff"
    wide = rng.random() < 0.5  # non-ASCII text: more bytes per buffer
    fill = "\u00e9" if wide else "y"
    k = rng.choice([1, 1, 2])
    shift = rng.choice([0, 0, 0, -1, 1, -2, 2])
    lead = rng.choice(["", "", "", "\n", "\r", " \n", "\ufeff", "a\n"])
    after = rng.choice([",", '"', "", "\n", "\r"])
    tail = rng.choice(['"x\n"\n9,9\n', "x,y\n9,9\n", '1\n"q",2\n',
                       '",\n"\n1,2\n', "\n9,9\n", ',"\ufeff"\n1,2,3\n'])
    # the BOM lands on character k * BUF + shift
    n_fill = k * BUF + shift - len(lead) - len(after)
    body = lead + fill * n_fill + after + bom + tail
    if rng.random() < 0.3:  # another BOM one buffer later
        body += "z" * (BUF - len(tail) + rng.choice([0, 1, -1])) + bom + "1,2\n"
    return body


def full_file(rng):
    alpha = [",", "\r", "\n", " ", "\t", "5", "7", "x", '"']
    weights = [5, 4, 2, 3, 3, 2, 1, 1, 1]
    head = ""
    if rng.random() < 0.7:
        width = rng.randint(1, 6)
        head = ",".join("h" * rng.randint(0, 12) for _ in range(width))
        head += rng.choice(["\n", "\r", "\r\n"])
    body = "".join(rng.choices(alpha, weights, k=rng.randint(3, 16)))
    return head + body


def chunk_file(rng):
    width = rng.choice([1, 2, 2, 3])
    index = rng.random() < 0.3  # the first data row has an extra field
    b = chunk_rows(width + index)
    row = ",".join(str(i) for i in range(width + index))
    at = b + rng.choice([-2, -1, 0, 1, 2])  # data row of the odd line
    extra = rng.choice([1, 1, 2, -1])
    odd = ",".join(str(i + 3) for i in range(max(1, width + index + extra)))
    after = rng.choice([row, odd, row.split(",")[0], odd + ",9"])
    header = ",".join(f"h{i}" for i in range(width))
    lines = [header] + [row] * at + [odd] + [after] * rng.randint(1, 3)
    if rng.random() < 0.3:  # a second odd line one chunk later
        lines += [row] * (b - rng.randint(1, 3)) + [odd + ",1"]
    return "\n".join(lines) + "\n"


def mix_file(rng):
    """Short strings over a wider alphabet (NUL, BOM, signs, exponents),
    sometimes pushed across the first buffer boundary by a long name."""
    alpha = [",", "\r", "\n", " ", "\t", "5", "e", "-", '"', "\0", "\ufeff",
             "x", "\u00e9"]
    weights = [6, 4, 3, 3, 2, 3, 1, 1, 2, 1, 1, 1, 1]
    head = ""
    if rng.random() < 0.3:
        head = "n" * (BUF - rng.randint(0, 6))
    body = "".join(rng.choices(alpha, weights, k=rng.randint(2, 24)))
    return head + body


FAMILIES = {"exp": exp_file, "short": short_file, "bom": bom_file,
            "full": full_file, "chunk": chunk_file, "mix": mix_file}


def main(argv):
    out, n = argv[0], int(argv[1])
    rng = random.Random(int(argv[2]) if len(argv) > 2 else 14)
    os.makedirs(out, exist_ok=True)
    for fam, make in FAMILIES.items():
        for i in range(n):
            with open(os.path.join(out, f"{fam}-{i:04d}.csv"), "w",
                      encoding="utf-8", newline="") as f:
                f.write(make(rng))


if __name__ == "__main__":
    main(sys.argv[1:])
