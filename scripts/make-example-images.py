#!/usr/bin/env python3
"""Writes the example playlist's pictures: numbered colour gradients, made here so the
project ships no one else's photos. Standard library only (zlib PNG writer)."""
import os, struct, sys, zlib

W, H = 800, 600
DIGITS = {  # 5x7 bitmaps
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
}
COLOURS = [(0xE0, 0x40, 0x30), (0x30, 0xA0, 0x50), (0x30, 0x60, 0xD0), (0xE0, 0xB0, 0x20), (0x90, 0x40, 0xC0)]

def png(path, rows):
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def picture(n, colour):
    cell = 40
    gx, gy = (W - 5 * cell) // 2, (H - 7 * cell) // 2
    bitmap = DIGITS[str(n)]
    rows = []
    for y in range(H):
        shade = 0.55 + 0.45 * (1 - y / H)
        row = bytearray()
        for x in range(W):
            bx, by = (x - gx) // cell, (y - gy) // cell
            on = 0 <= bx < 5 and 0 <= by < 7 and x >= gx and y >= gy and bitmap[by][bx] == "1"
            row += b"\xff\xff\xff" if on else bytes(int(c * shade) for c in colour)
        rows.append(row)
    return rows

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "config", "example", "images")
os.makedirs(out, exist_ok=True)
for i, colour in enumerate(COLOURS, 1):
    png(os.path.join(out, f"slide{i}.png"), picture(i, colour))
