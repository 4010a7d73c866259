#!/usr/bin/python3
"""Matches frames read back by `carouseld ctl writeback` (vkms's writeback connector) against
`carouseld render` frames of the same config.
usage: writeback_frames.py REF_DIR WB_DIR [MIN_MOVING [torn-reported]]
REF_DIR holds render's frame-SSSS.mmm.png densely through the page change; WB_DIR holds
frame-NNN-WxH.xrgb (raw XRGB8888 rows, as the display engine composed them) and frames.tsv.
For each frame the closest reference is found (on thumbnails, then measured at full size: the
mean absolute difference over every channel). Passes when every frame equals some reference
(MAD under 6: no blank, torn or half-drawn frame), at least MIN_MOVING (default 3) of them are
mid-change (unlike the first and the last reference), and the mid-change frames' matched
times never run backwards (frames at rest equal many references alike). Prints each frame's match, and how far the mid-change frames' render times less
their flip times (frames.tsv) spread: under TCG, vkms composing each read-back frame on the CPU
makes flips late, so that is reported, not asserted (the flip gaps are measured without
writeback). With "torn-reported" (composed frames on vkms), a frame equal to no reference is
reported, not failed, as long as MIN_MOVING mid-change frames equal one: vkms's composer,
lagging behind the vblank under TCG, can still be reading the buffer the daemon has begun to
draw the next frame into, which scanout on a display engine has finished with by then."""
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
    torn_reported = len(sys.argv) > 4 and sys.argv[4] == "torn-reported"
    refs = load_refs(ref_dir)
    first, last = refs[0][1], refs[-1][1]
    frames = sorted(glob.glob(os.path.join(wb_dir, "frame-*.xrgb")))
    flips = {}
    with open(os.path.join(wb_dir, "frames.tsv")) as listing:
        for line in listing:
            name, flip = line.split()
            flips[name] = float(flip) if flip != "-" else None
    matched, moving_flags, moving, problems, offsets, reported = [], [], 0, [], [], []
    for path in frames:
        image = read_xrgb(path)
        t, score = closest(image, refs, near=4)
        is_moving = mad(image, first) >= 6 and mad(image, last) >= 6
        moving += is_moving and score < 6
        matched.append(t)
        moving_flags.append(is_moving)
        flip = flips.get(os.path.basename(path))
        if is_moving and flip is not None:
            offsets.append(t - flip)
        print(f"  {os.path.basename(path)}: render at {t:.3f} s, MAD {score:.2f}" + (" (moving)" if is_moving else ""))
        if score >= 6:
            unequal = f"{os.path.basename(path)} equals no frame of render (closest MAD {score:.2f})"
            if torn_reported:
                reported.append(unequal)
            else:
                problems.append(unequal)
    if not frames:
        problems.append("no frame was read back")
    if moving < min_moving:
        problems.append(f"only {moving} frames mid-change")
    moving_times = [t for t, m in zip(matched, moving_flags) if m]
    if any(b < a for a, b in zip(moving_times, moving_times[1:])):
        problems.append("the matched times run backwards")
    spread = max(offsets) - min(offsets) if offsets else 0
    print(f"{len(frames)} frames read back, {moving} mid-change equal to render"
          + (f", {len(reported)} equal to none (torn on vkms: " + "; ".join(reported) + ")" if reported
             else ", each equal to render at its time")
          + f" (render time less flip time spreads {spread * 1000:.1f} ms)"
          + ("" if not problems else ": " + "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
