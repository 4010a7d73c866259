#!/usr/bin/python3
"""Compare screen pictures (QEMU screendump PPMs, `carouseld render` PNGs) with Pillow.

  imgcmp.py compare A B [--tolerance T] [--max-bad F] [--rotate DEG]
      A and B must have the same size. A pixel is bad when any channel differs by more than T
      (default 12). Passes (exit 0) when at most the fraction F (default 0.002) of pixels is
      bad. --rotate turns B counter-clockwise first (as DRM_MODE_ROTATE_* turns the picture).
  imgcmp.py mad A B [--max M]
      The mean absolute difference over every channel of every pixel; passes below M (default 6).
  imgcmp.py colour FILE X Y
      The pixel's colour as rrggbb.
  imgcmp.py console FILE [--min F]
      Passes when the picture is a text console's: at least the fraction F (default 0.9) of its
      pixels black (every channel at most 16), the rest its text, and not all of it black.
"""
import argparse
import sys

from PIL import Image, ImageChops


def compare(args):
    a = Image.open(args.a).convert("RGB")
    b = Image.open(args.b).convert("RGB")
    if args.rotate:
        b = b.rotate(args.rotate, expand=True)
    if a.size != b.size:
        print(f"{args.a} is {a.size[0]}x{a.size[1]} but {args.b} is {b.size[0]}x{b.size[1]}")
        return 1
    # Largest channel difference per pixel, then count pixels above the tolerance.
    diff = ImageChops.difference(a, b)
    channels = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    bad = sum(peak.point(lambda v: 255 if v > args.tolerance else 0).histogram()[255:])
    total = a.size[0] * a.size[1]
    max_diff = max(hi for _, hi in diff.getextrema())
    print(f"{bad} of {total} pixels differ by more than {args.tolerance} (largest difference {max_diff})")
    return 0 if bad <= args.max_bad * total else 1


def mad(args):
    a = Image.open(args.a).convert("RGB")
    b = Image.open(args.b).convert("RGB")
    if a.size != b.size:
        print(f"{args.a} is {a.size[0]}x{a.size[1]} but {args.b} is {b.size[0]}x{b.size[1]}")
        return 1
    histogram = ImageChops.difference(a, b).histogram()  # 3 x 256 counts
    total = sum(histogram)
    value = sum((i % 256) * n for i, n in enumerate(histogram)) / total
    print(f"mean absolute difference {value:.2f} (limit {args.max})")
    return 0 if value < args.max else 1


def colour(args):
    r, g, b = Image.open(args.file).convert("RGB").getpixel((args.x, args.y))
    print(f"{r:02x}{g:02x}{b:02x}")
    return 0


def console(args):
    grey = Image.open(args.file).convert("RGB").split()
    peak = ImageChops.lighter(ImageChops.lighter(grey[0], grey[1]), grey[2])
    histogram = peak.histogram()
    total = sum(histogram)
    black = sum(histogram[:17])
    print(f"{black / total:.3f} of the pixels black ({total - black} lit; at least {args.min} black, some lit)")
    return 0 if black >= args.min * total and black < total else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("a"); c.add_argument("b")
    c.add_argument("--tolerance", type=int, default=12)
    c.add_argument("--max-bad", type=float, default=0.002)
    c.add_argument("--rotate", type=int, default=0)
    m = sub.add_parser("mad")
    m.add_argument("a"); m.add_argument("b")
    m.add_argument("--max", type=float, default=6)
    p = sub.add_parser("colour")
    p.add_argument("file"); p.add_argument("x", type=int); p.add_argument("y", type=int)
    k = sub.add_parser("console")
    k.add_argument("file"); k.add_argument("--min", type=float, default=0.9)
    args = parser.parse_args()
    return {"compare": compare, "mad": mad, "colour": colour, "console": console}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
