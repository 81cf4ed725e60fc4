#!/usr/bin/env python3
"""Counts the pixels of a PNG (8-bit RGB or RGBA, not interlaced) within 40 of an RGB colour.
Used by the map tests to see that the rendered picture shows the track.
   png-colour-count.py FILE.png RRGGBB"""
import struct, sys, zlib

path, colour = sys.argv[1], sys.argv[2]
target = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
offset, idat = 8, b""
while offset < len(data):
    length, kind = struct.unpack(">I4s", data[offset:offset + 8])
    body = data[offset + 8:offset + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and colour_type in (2, 6) and interlace == 0, "unsupported PNG"
    elif kind == b"IDAT":
        idat += body
    offset += 12 + length
channels = 3 if colour_type == 2 else 4
raw, stride = zlib.decompress(idat), width * channels
previous, count, position = bytearray(stride), 0, 0
for _ in range(height):
    kind, line = raw[position], bytearray(raw[position + 1:position + 1 + stride])
    position += 1 + stride
    for i in range(stride):
        left = line[i - channels] if i >= channels else 0
        up, corner = previous[i], previous[i - channels] if i >= channels else 0
        if kind == 1: line[i] = (line[i] + left) & 255
        elif kind == 2: line[i] = (line[i] + up) & 255
        elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
    for i in range(0, stride, channels):
        if all(abs(line[i + c] - target[c]) <= 40 for c in range(3)):
            count += 1
    previous = line
print(count)
