#!/usr/bin/python3
"""Matches screendumps taken through a page change (a crossfade, or a slide of the panned
strip) against `carouseld render` frames of it.
usage: transition_frames.py REF_DIR START END SHOT.ppm...
REF_DIR holds render's frame-SSSS.mmm.png, densely through the change (which runs from START to
END seconds of the render's time line) and a little either side. For each screendump the
closest reference is found (on thumbnails, then measured at full size: the mean absolute
difference over every channel). Passes when every screendump equals some reference (MAD under
6), at least 3 of them are the middle of the change (their reference strictly inside it, and
unlike both pictures at rest: MAD 6 or more from each), and the matched times never run
backwards. Prints each screendump's match."""
import os
import sys

from PIL import Image

from render_match import closest, load_refs, mad


def main():
    ref_dir, start, end, shots = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
    refs = load_refs(ref_dir)
    before = min(refs, key=lambda r: abs(r[0] - start + 0.05))[1]
    after = max(refs, key=lambda r: r[0])[1]
    matched, middle, problems, past = [], 0, [], 0
    for shot in shots:
        image = Image.open(shot).convert("RGB")
        # Once the change has been seen in its middle and then at rest on its end picture, the
        # screendumps after are past it: on a slow host they can reach the next change, which
        # these references do not hold. Counted, not matched.
        if past or (middle and mad(image, after) < 6):
            past += 1
            if past > 1:
                continue
        t, score = closest(image, refs, near=3)
        in_middle = start < t < end and mad(image, before) >= 6 and mad(image, after) >= 6
        middle += in_middle
        matched.append(t)
        print(f"  {os.path.basename(shot)}: render at {t:.3f} s, MAD {score:.2f}" + (" (mid-change)" if in_middle else ""))
        if score >= 6:
            problems.append(f"{os.path.basename(shot)} equals no frame of the change (closest MAD {score:.2f})")
    if middle < 3:
        problems.append(f"only {middle} screendumps in the middle of the change")
    if any(b < a for a, b in zip(matched, matched[1:])):
        problems.append("the matched times run backwards")
    if past > 1:
        print(f"  the last {past - 1} screendumps came after the change had come to rest: not matched")
    print(f"{len(shots) - max(past - 1, 0)} screendumps, {middle} mid-change, each equal to render at its time"
          + ("" if not problems else ": " + "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
