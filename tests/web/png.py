"""Just enough of PNG to check the app's icons (stdlib only): size, and each pixel's RGBA for
8-bit truecolour, truecolour with alpha and palette images (what ``scripts/make_icons.sh``
writes), not interlaced."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 3: 1, 6: 4}


@dataclass(frozen=True)
class Png:
    width: int
    height: int
    rows: list[bytes]
    colour_type: int
    palette: list[tuple[int, int, int, int]]

    def rgba(self, x: int, y: int) -> tuple[int, int, int, int]:
        row = self.rows[y]
        if self.colour_type == 3:
            return self.palette[row[x]]
        n = _CHANNELS[self.colour_type]
        values = tuple(row[x * n : x * n + n])
        return (*values, 255) if n == 3 else values  # type: ignore[return-value]


def read_png(data: bytes) -> Png:
    """:raises ValueError: for anything but the kinds of PNG described above."""
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG")
    at, chunks = len(SIGNATURE), []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunks.append((kind, data[at + 8 : at + 8 + length]))
        at += 12 + length
    kind, header = chunks[0]
    if kind != b"IHDR":
        raise ValueError("no IHDR first")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}")
    palette: list[tuple[int, int, int, int]] = []
    alpha = b""
    for kind, body in chunks:
        if kind == b"PLTE":
            palette = [(body[i], body[i + 1], body[i + 2], 255) for i in range(0, len(body), 3)]
        elif kind == b"tRNS":
            alpha = body
    palette = [
        (r, g, b, alpha[i] if i < len(alpha) else a) for i, (r, g, b, a) in enumerate(palette)
    ]
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    step = _CHANNELS[colour]
    stride = width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind_ == 1:
                line[i] = (line[i] + left) & 255
            elif kind_ == 2:
                line[i] = (line[i] + up) & 255
            elif kind_ == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind_ == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        previous = line
    return Png(width, height, rows, colour, palette)
