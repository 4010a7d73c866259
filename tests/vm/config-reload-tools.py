#!/usr/bin/env python3
"""Helpers for tests/vm/config-reload.sh (standard library only).

  config-reload-tools.py listen SOCKET LOG      act as systemd's notify socket: append each
                                                sd_notify datagram to LOG, one line per message
  config-reload-tools.py wait LOG PATTERN SECS  wait until a line of LOG contains PATTERN
  config-reload-tools.py colours FILE.ppm X,Y...   name the example slide colour at each point
"""
import os, socket, sys, time

# The example slides' base colours (scripts/make-example-images.py), darkened by a vertical shade.
SLIDES = {"slide1": (0xE0, 0x40, 0x30), "slide2": (0x30, 0xA0, 0x50), "slide3": (0x30, 0x60, 0xD0),
          "slide4": (0xE0, 0xB0, 0x20), "slide5": (0x90, 0x40, 0xC0)}


def listen(path, log):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    with open(log, "a", buffering=1) as f:
        while True:
            data = s.recv(4096).decode("utf-8", "replace")
            f.write("%.3f %s\n" % (time.monotonic(), data.replace("\n", " | ")))


def wait(log, pattern, seconds):
    end = time.time() + float(seconds)
    while time.time() < end:
        if os.path.exists(log) and any(pattern in line for line in open(log, errors="replace")):
            return 0
        time.sleep(0.1)
    print("timed out waiting for %r in %s" % (pattern, log), file=sys.stderr)
    return 1


def colours(ppm, points):
    data = open(ppm, "rb").read()
    magic, size, maxval, pixels = data.split(b"\n", 3)
    width, height = map(int, size.split())
    names = []
    for point in points:
        x, y = map(int, point.split(","))
        i = (y * width + x) * 3
        r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
        top = max(r, g, b, 1)
        # Compare shapes (colour / its brightest channel), so shading does not matter.
        best = min(SLIDES, key=lambda n: sum((c / top - s / max(SLIDES[n])) ** 2
                                             for c, s in zip((r, g, b), SLIDES[n])))
        err = sum((c / top - s / max(SLIDES[best])) ** 2 for c, s in zip((r, g, b), SLIDES[best]))
        names.append(best if top > 40 and err < 0.05 else "other(%02x%02x%02x)" % (r, g, b))
    print(" ".join(names))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "listen":
        listen(*args)
    elif cmd == "wait":
        sys.exit(wait(*args))
    elif cmd == "colours":
        colours(args[0], args[1:])
    else:
        sys.exit("unknown command " + cmd)
