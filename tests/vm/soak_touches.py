#!/usr/bin/env python3
"""Writes a random touch stream for the soak test into DIR: touchscreen.evemu (the device of
touch_recordings.py) and soak.events, SECONDS of seeded random drags, flings, taps and holds
for `evemu-play`, one gesture every 0.5-3 s.
usage: soak_touches.py DIR SECONDS [SEED]"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from touch_recordings import drag, write_evemu_device, write_evemu_events  # noqa: E402


def stream(seconds, seed):
    rng = random.Random(seed)
    frames, start = [], 0
    while start < seconds * 1_000_000:
        kind = rng.choice(["fling", "fling", "drag", "tap", "hold"])
        y = rng.uniform(20, 80)
        x0 = rng.uniform(10, 90)
        if kind == "tap":
            gesture = drag(x0, x0, y, 2, 30_000)
        elif kind == "hold":
            gesture = drag(x0, x0 + rng.uniform(-30, 30), y, rng.randint(10, 40), 20_000)
        else:
            x1 = min(99, max(1, x0 + rng.choice([-1, 1]) * rng.uniform(5, 70)))
            dt = 8_000 if kind == "fling" else 25_000
            gesture = drag(x0, x1, y, rng.randint(6, 30), dt)
        for frame in gesture:
            frames.append([(t + start,) + tuple(rest) for t, *rest in frame])
        start = frames[-1][0][0] + rng.randint(500_000, 3_000_000)
    return frames


if __name__ == "__main__":
    out, seconds = sys.argv[1], float(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    write_evemu_device(os.path.join(out, "touchscreen.evemu"))
    write_evemu_events(os.path.join(out, "soak.events"), stream(seconds, seed))
