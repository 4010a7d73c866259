#!/usr/bin/python3
"""Matches frames read back by `carouseld ctl writeback` (vkms's writeback connector) against
`carouseld render` frames of the same config.
usage: writeback_frames.py REF_DIR WB_DIR [MIN_MOVING]
REF_DIR holds render's frame-SSSS.mmm.png densely through the page change; WB_DIR holds
frame-NNN-WxH.xrgb (raw XRGB8888 rows, as the display engine composed them) and frames.tsv.
For each frame the closest reference is found (on thumbnails, then measured at full size: the
mean absolute difference over every channel). Passes when every frame equals some reference
(MAD under 6: no blank, torn or half-drawn frame), at least MIN_MOVING (default 3) of them are
mid-change (unlike the first and the last reference), and the matched times never run
backwards. Prints each frame's match."""
import glob
import os
import re
import sys

from PIL import Image

from render_match import closest, load_refs, mad


def read_xrgb(path):
    width, height = map(int, re.search(r"-(\d+)x(\d+)\.xrgb$", path).groups())
    with open(path, "rb") as f:
        return Image.frombuffer("RGB", (width, height), f.read(), "raw", "BGRX", 0, 1)


def main():
    ref_dir, wb_dir = sys.argv[1], sys.argv[2]
    min_moving = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    refs = load_refs(ref_dir)
    first, last = refs[0][1], refs[-1][1]
    frames = sorted(glob.glob(os.path.join(wb_dir, "frame-*.xrgb")))
    matched, moving, problems = [], 0, []
    for path in frames:
        image = read_xrgb(path)
        t, score = closest(image, refs, near=4)
        is_moving = mad(image, first) >= 6 and mad(image, last) >= 6
        moving += is_moving
        matched.append(t)
        print(f"  {os.path.basename(path)}: render at {t:.3f} s, MAD {score:.2f}" + (" (moving)" if is_moving else ""))
        if score >= 6:
            problems.append(f"{os.path.basename(path)} equals no frame of render (closest MAD {score:.2f})")
    if not frames:
        problems.append("no frame was read back")
    if moving < min_moving:
        problems.append(f"only {moving} frames mid-change")
    if any(b < a for a, b in zip(matched, matched[1:])):
        problems.append("the matched times run backwards")
    print(f"{len(frames)} frames read back, {moving} mid-change, each equal to render at its time"
          + ("" if not problems else ": " + "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
