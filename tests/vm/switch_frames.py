#!/usr/bin/env python3
"""Reads the screendumps taken through a playlist switch and checks that no frame is blank or
background only, that the switch animated, and where it started and ended.
usage: switch_frames.py FROM TO SHOT.ppm...   (FROM, TO: slideN, the centre card before and after)
A frame is "blank" when fewer than 15 % of its pixels have an example slide's colour (the
centre card alone covers about half the screen). "Moving" frames are those whose centre is
neither FROM nor TO: the page animation between them. Exit status 0 when every check holds."""
import sys

from touch_screen_colour import COLOURS, read_ppm, slide_at


def slide_coloured_share(w, h, pixels):
    """The share of a coarse grid of pixels that are one of the slides' colours."""
    hits = total = 0
    for y in range(0, h, 16):
        for x in range(0, w, 16):
            total += 1
            if slide_at(w, pixels, x, y) != "other":
                hits += 1
    return hits / total


def main():
    start, end, shots = sys.argv[1], sys.argv[2], sys.argv[3:]
    kinds, blank = [], 0
    for shot in shots:
        w, h, px = read_ppm(shot)
        share = slide_coloured_share(w, h, px)
        names = {slide_at(w, px, x, h // 2) for x in (w // 2 - w // 4, w // 2 + w // 4)}
        kind = names.pop() if len(names) == 1 else "moving"
        if share < 0.15:
            kind, blank = "BLANK", blank + 1
        kinds.append(kind)
    print("frames: " + " ".join(kinds))
    first = kinds.index(end) if end in kinds else len(kinds)
    moving = sum(1 for k in kinds[:first] if k not in (start, end, "BLANK"))
    problems = []
    if blank:
        problems.append(f"{blank} blank or background-only frame(s)")
    if not kinds or kinds[0] != start:
        problems.append(f"the first frame is not {start}")
    if not kinds or kinds[-1] != end:
        problems.append(f"the last frame is not {end}")
    if moving == 0:
        problems.append("no frame between the two pictures: not animated")
    print(f"{len(kinds)} frames, {blank} blank, {moving} moving" + ("; " + "; ".join(problems) if problems else ""))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
