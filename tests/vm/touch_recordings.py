#!/usr/bin/env python3
"""Writes the touch input the VM touch test plays, into DIR:
  touchscreen.evemu   a 1280x800-unit multitouch touchscreen for `evemu-device` (INPUT_PROP_DIRECT)
  swipe-left.yml      a fast left swipe as a `libinput record` file, for `libinput replay`
                      (and for `carouseld replay`, to compare with the daemon)
  drag-hold.events    a drag left past half a page that stops and never lifts, for `evemu-play`
usage: touch_recordings.py DIR"""
import os
import sys

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH = 0, 0x14A
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x00, 0x01, 0x2F, 0x35, 0x36, 0x39
W, H, RES, SLOTS = 1280, 800, 10, 10
ABSINFO = {  # code: [min, max, fuzz, flat, resolution]
    ABS_X: [0, W - 1, 0, 0, RES], ABS_Y: [0, H - 1, 0, 0, RES], ABS_MT_SLOT: [0, SLOTS - 1, 0, 0, 0],
    ABS_MT_POSITION_X: [0, W - 1, 0, 0, RES], ABS_MT_POSITION_Y: [0, H - 1, 0, 0, RES],
    ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0],
}
NAME, ID = "carousel test touchscreen", [0x03, 0x1234, 0x5678, 0x0001]


def drag(x0, x1, y, steps, dt_us, lift=True):
    """Frames of one finger from x0 to x1 (percent of the width); a frame is [(usec, type, code, value)]."""
    ux = lambda pct: round(pct / 100 * (W - 1))
    frames, t, uy = [], 0, round(y / 100 * (H - 1))
    for i in range(steps + 1):
        x = ux(x0 + (x1 - x0) * i / steps)
        ev = [(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 1)] if i == 0 else []
        ev += [(EV_ABS, ABS_MT_POSITION_X, x)]
        ev += [(EV_ABS, ABS_MT_POSITION_Y, uy), (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_Y, uy)] if i == 0 else []
        ev += [(EV_ABS, ABS_X, x), (EV_SYN, SYN_REPORT, 0)]
        frames.append([(t,) + e for e in ev])
        t += dt_us
    t -= dt_us
    if lift:
        frames.append([(t, EV_ABS, ABS_MT_TRACKING_ID, -1), (t, EV_KEY, BTN_TOUCH, 0), (t, EV_SYN, SYN_REPORT, 0)])
    return frames


def write_yaml(path, frames):
    lines = ["version: 1", "ndevices: 1", "libinput:", "  version: 1.22.1", "system:", "  os: debian:12",
             "devices:", "- node: /dev/input/event9", "  evdev:", f"    name: {NAME}", f"    id: {ID}", "    codes:",
             f"      {EV_SYN}: [0]", f"      {EV_KEY}: [{BTN_TOUCH}]",
             f"      {EV_ABS}: [{', '.join(str(c) for c in sorted(ABSINFO))}]", "    absinfo:"]
    lines += [f"      {c}: {v}" for c, v in sorted(ABSINFO.items())]
    lines += ["    properties: [1]", "  udev:", "    properties:", "    - ID_INPUT=1", "    - ID_INPUT_TOUCHSCREEN=1",
              "  events:"]
    for frame in frames:
        lines.append("  - evdev:")
        lines += [f"    - [{t // 1000000}, {t % 1000000}, {ty}, {co}, {va}]" for t, ty, co, va in frame]
    open(path, "w").write("\n".join(lines) + "\n")


def write_evemu_device(path):
    def bits(codes, nbytes):
        b = bytearray(nbytes)
        for c in codes:
            b[c // 8] |= 1 << (c % 8)
        return b
    lines = ["# EVEMU 1.3", f"N: {NAME}", "I: " + " ".join(f"{i:04x}" for i in ID),
             "P: " + " ".join(f"{x:02x}" for x in bits([1], 8))]  # INPUT_PROP_DIRECT
    for ty, codes, n in [(EV_SYN, [EV_SYN, EV_KEY, EV_ABS], 8), (EV_KEY, [BTN_TOUCH], 96), (EV_ABS, list(ABSINFO), 8)]:
        b = bits(codes, n)
        lines += [f"B: {ty:02x} " + " ".join(f"{x:02x}" for x in b[o:o + 8]) for o in range(0, n, 8)]
    lines += [f"A: {c:02x} {v[0]} {v[1]} {v[2]} {v[3]} {v[4]}" for c, v in sorted(ABSINFO.items())]
    open(path, "w").write("\n".join(lines) + "\n")


def write_evemu_events(path, frames):
    lines = [f"E: {t // 1000000}.{t % 1000000:06d} {ty:04x} {co:04x} {va}" for fr in frames for t, ty, co, va in fr]
    open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    write_evemu_device(os.path.join(out, "touchscreen.evemu"))
    # 70 % of the width in 24 steps 12 ms apart: about 3100 px/s, a clear fling to the next page.
    write_yaml(os.path.join(out, "swipe-left.yml"), drag(85, 15, 50, 24, 12000))
    # 60 % of the width (past half a page), then held: a lift here would page, a cancel must not.
    write_evemu_events(os.path.join(out, "drag-hold.events"), drag(80, 20, 50, 30, 20000, lift=False))
