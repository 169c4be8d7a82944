# gen_blocks.py SEED FILE: a CSV of about one or two 262144-byte blocks
# (pandas' read size) with invalid or cut UTF-8, multi-byte characters,
# field-count errors and blank-led lines placed around the block ends, to
# compare which error pandas raises first and where.
import random, sys
random.seed(int(sys.argv[1]))
B = 262144
bits = [b'\xe3', b'\xe3\x81', b'\xf0\x90\x80', b'\xff', b'\xe0\x80', b'\xc3\xa9',
        '\u65e5'.encode(), '\U0001F600'.encode(), b'1,2,3', b'  ', b'\r', b'"']
ncol = random.randint(1, 3)
data = bytearray(b','.join(b'c%d' % i for i in range(ncol)) + b'\n')
target = random.choice([B, 2 * B]) + random.randint(-12, 12)
row = b','.join(b'1' for _ in range(ncol)) + b'\n'
while len(data) < target - 40:
    data += row
events = random.randint(1, 3)
for _ in range(events):
    where = random.choice([B, 2 * B, len(data)]) + random.randint(-6, 6)
    where = max(len(b'c0\n'), min(where, len(data)))
    data[where:where] = random.choice(bits)
if random.random() < 0.5:
    data += random.choice(bits)
open(sys.argv[2], 'wb').write(bytes(data))
