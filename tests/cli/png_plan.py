#!/usr/bin/env python3
"""png_plan.py SCREENSHOT.png: exit 0 when the screenshot of an sm2c HTML
report shows a memory plan: at least 4 distinct strongly coloured fills
(buffer rectangles, hsl(h, 62%, 52..68%)) covering 20000 pixels or more, and
the red peak marker (#d00).  A PNG decoder in the standard library (8-bit
RGB or RGBA, non-interlaced, as Chromium writes)."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and not interlace, "unsupported PNG form"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
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
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    colours, red = {}, 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if r > 200 and g < 30 and b < 30:
                red += 1
            elif max(r, g, b) - min(r, g, b) > 80:
                colours[(r, g, b)] = colours.get((r, g, b), 0) + 1
    fills = [c for c, k in colours.items() if k >= 500]
    covered = sum(colours[c] for c in fills)
    print("%d fills covering %d pixels, %d red marker pixels" % (len(fills), covered, red))
    return 0 if len(fills) >= 4 and covered >= 20000 and red >= 20 else 1


if __name__ == "__main__":
    sys.exit(main())
