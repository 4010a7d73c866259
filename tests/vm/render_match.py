"""Finds which `carouseld render` frame a captured picture equals, for the VM checks that
match captures against render (transition_frames.py: screendumps of a crossfade or a panned slide; writeback_frames.py:
frames read back through vkms's writeback connector)."""
import glob
import os
import re

from PIL import Image, ImageChops, ImageStat

THUMB_WIDTH = 160


def thumbnail(image):
    """About 160 pixels wide, each pixel the mean of a block (reduce: a quarter of resize's
    cost, and hundreds of references are made into thumbnails per check)."""
    return image.reduce(max(1, image.width // THUMB_WIDTH))


def mad(a, b):
    """Mean absolute difference over every channel."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def load_refs(ref_dir):
    """render's frame-SSSS.mmm.png in REF_DIR as (time, image, thumbnail), by time."""
    refs = []
    for path in sorted(glob.glob(os.path.join(ref_dir, "frame-*.png"))):
        t = float(re.search(r"frame-([0-9.]+)\.png$", path).group(1))
        image = Image.open(path).convert("RGB")
        refs.append((t, image, thumbnail(image)))
    return refs


def closest(image, refs, near=4):
    """(time, MAD) of the reference `image` equals best: the `near` closest on thumbnails,
    measured at full size."""
    thumb = thumbnail(image)
    candidates = sorted(refs, key=lambda r: mad(thumb, r[2]))[:near]
    return min(((r[0], mad(image, r[1])) for r in candidates), key=lambda m: m[1])
