#!/usr/bin/env python3
"""Which example picture (config/example/images/slideN.png) fills the centre card of a screendump.
usage: touch_screen_colour.py SCREEN.ppm  ->  prints e.g. "slide2"
Samples points left and right of the centre (clear of the white digit) and names the slide whose
base colour points the same way (cosine similarity: the pictures are shaded top to bottom)."""
import math
import sys

# scripts/make-example-images.py's base colours, slide1..slide5.
COLOURS = [(0xE0, 0x40, 0x30), (0x30, 0xA0, 0x50), (0x30, 0x60, 0xD0), (0xE0, 0xB0, 0x20), (0x90, 0x40, 0xC0)]


def read_ppm(path):
    data = open(path, "rb").read()
    magic, dims, maxval, pixels = data.split(b"\n", 3)
    assert magic == b"P6" and maxval == b"255", "expected a binary 8-bit PPM"
    w, h = map(int, dims.split())
    return w, h, pixels


def slide_at(w, pixels, x, y):
    i = (y * w + x) * 3
    p = pixels[i:i + 3]
    def cos(c):
        n = math.hypot(*p) * math.hypot(*c)
        return sum(a * b for a, b in zip(p, c)) / n if n else 0
    best = max(range(len(COLOURS)), key=lambda k: cos(COLOURS[k]))
    return f"slide{best + 1}" if cos(COLOURS[best]) > 0.97 else "other"


if __name__ == "__main__":
    w, h, px = read_ppm(sys.argv[1])
    names = {slide_at(w, px, x, h // 2) for x in (w // 2 - w // 4, w // 2 + w // 4)}
    print(names.pop() if len(names) == 1 else "mixed:" + ",".join(sorted(names)))
