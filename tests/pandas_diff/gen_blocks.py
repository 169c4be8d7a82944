# gen_blocks.py SEED FILE: a CSV of about one or two 262144-byte chunks
# (pandas decodes the file 262144 bytes at a time and tokenizes it 262144
# characters at a time) with invalid or cut UTF-8, multi-byte characters,
# field-count errors and blank-led lines placed around those ends, over
# ASCII or non-ASCII rows, to compare which error pandas raises first and
# where, and how a blank-led line across a buffer end is re-read.
import random, sys
random.seed(int(sys.argv[1]))
B = 262144
bits = [b'\xe3', b'\xe3\x81', b'\xed\xa0', b'\xed\xbf\x80', b'\xf0\x90\x80', b'\xff', b'\xe0\x80', b'\xc3\xa9',
        '\u65e5'.encode(), '\U0001F600'.encode(), b'1,2,3', b'  ', b'\r', b'"',
        b'\n  z\n', b'\n \n  w\n']
ncol = random.randint(1, 3)
data = bytearray(b','.join(b'c%d' % i for i in range(ncol)) + b'\n')
target = random.choice([B, 2 * B]) + random.randint(-12, 12)
cell = random.choice([b'1', b'1', '\u00e9'.encode(), '\u65e5\u672c'.encode()])
row = b','.join(cell for _ in range(ncol)) + b'\n'
while len(data) < target - 40:
    data += row
# non-ASCII rows put the 262144th character past byte 262144: mark it too
chars = len(data.decode('utf-8', 'replace'))
char_end = len(data.decode('utf-8', 'replace')[:B].encode()) if chars > B else None
events = random.randint(1, 3)
for _ in range(events):
    where = random.choice([B, 2 * B, len(data)] + ([char_end] * 2 if char_end else [])) + random.randint(-6, 6)
    where = max(len(b'c0\n'), min(where, len(data)))
    data[where:where] = random.choice(bits)
if random.random() < 0.5:
    data += random.choice(bits)
open(sys.argv[2], 'wb').write(bytes(data))
