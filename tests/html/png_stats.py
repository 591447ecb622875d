"""What a screenshot holds, with the standard library only: decodes a PNG (8-bit
grey / RGB / RGBA, not interlaced) and prints
    WIDTH HEIGHT NONWHITE_PERMILLE DISTINCT_COLOURS
so a shell test can tell a drawn page from a blank one.
  python3 tests/html/png_stats.py shot.png
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    channels = {0: 1, 2: 3, 6: 4, 4: 2}.get(ctype)
    if depth != 8 or channels is None or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    stride = w * channels
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, channels, rows


w, h, ch, rows = decode(sys.argv[1])
nonwhite, colours = 0, set()
for row in rows:
    for x in range(0, w * ch, ch * 2):  # every second pixel is enough
        px = row[x:x + min(ch, 3)]
        colours.add(px)
        if px != b"\xff" * len(px):
            nonwhite += 1
print(w, h, nonwhite * 1000 // max(1, (w * h) // 2), len(colours))
