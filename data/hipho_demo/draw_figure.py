"""Draws the demo exam's one figure (an incline with a block) as a PNG, standard library only.

Run from the repository root: python data/hipho_demo/draw_figure.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

W, H = 240, 150
OUT = Path(__file__).resolve().parent / "image_question" / "PodiumDemo_2025_3_1.png"


def draw() -> list[bytearray]:
    img = [bytearray([255] * W) for _ in range(H)]

    def dot(x: float, y: float, shade: int = 0) -> None:
        xi, yi = int(round(x)), int(round(y))
        for dx in (0, 1):
            for dy in (0, 1):
                if 0 <= xi + dx < W and 0 <= yi + dy < H:
                    img[yi + dy][xi + dx] = shade

    def line(x0: float, y0: float, x1: float, y1: float, shade: int = 0) -> None:
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(n + 1):
            t = i / n
            dot(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, shade)

    # the incline: base, vertical side, slope at 30 degrees
    x0, y0, base = 20, 130, 190
    top = y0 - base * math.tan(math.radians(30))
    line(x0, y0, x0 + base, y0)
    line(x0 + base, y0, x0 + base, top)
    line(x0, y0, x0 + base, top)
    # the angle arc at the bottom-left corner
    for k in range(0, 31):
        a = math.radians(k)
        dot(x0 + 28 * math.cos(a), y0 - 28 * math.sin(a), 90)
    # the block: a square resting on the slope
    s, d = 26, 120  # side, distance along the slope from the corner
    ux, uy = math.cos(math.radians(30)), -math.sin(math.radians(30))  # along the slope
    nx, ny = -math.sin(math.radians(30)), -math.cos(math.radians(30))  # outward normal, screen coordinates
    p0 = (x0 + d * ux, y0 + d * uy)
    p1 = (p0[0] + s * ux, p0[1] + s * uy)
    p2 = (p1[0] + s * nx, p1[1] + s * ny)
    p3 = (p0[0] + s * nx, p0[1] + s * ny)
    for a, b in ((p0, p1), (p1, p2), (p2, p3), (p3, p0)):
        line(a[0], a[1], b[0], b[1], 40)
    # an arrow down the slope (direction of motion)
    cx, cy = p3[0] - 8 * ux, p3[1] - 8 * uy
    line(cx, cy, cx - 30 * ux, cy - 30 * uy, 0)
    tip = (cx - 30 * ux, cy - 30 * uy)
    for sgn in (1, -1):  # the head: two strokes back up the slope, 25 degrees either side
        a = math.radians(25 * sgn)
        bx = ux * math.cos(a) - uy * math.sin(a)
        by = ux * math.sin(a) + uy * math.cos(a)
        line(tip[0], tip[1], tip[0] + 9 * bx, tip[1] + 9 * by, 0)
    return img


def png(rows: list[bytearray]) -> bytes:
    raw = b"".join(b"\x00" + bytes(r) for r in rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", W, H, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(png(draw()))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
