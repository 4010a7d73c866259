#!/usr/bin/python3
"""Makes the realistic photo test set (issue 14) and PIL's own reference cards for it.

    make-photo-set.py OUTDIR [--card 640x400] [--background 101010]

Writes the pictures real users have (5K baseline and progressive JPEGs, CMYK, greyscale, 4:4:4,
4:2:2, restart markers, EXIF orientations 1-8 on JPEG and orientation in PNG eXIf and WebP EXIF,
a 4096x4096 WebP, lossless WebP with alpha, an animated WebP, 8- and 16-bit 5K PNGs, an
interlaced PNG, a palette PNG with tRNS, a 3000x4000 portrait), then for each one the card
PIL makes from it: its own decode, ImageOps.exif_transpose, CMYK turned to RGB as browsers do,
alpha over the background, and a resize to the card for fit cover and contain. References are
binary PPMs (trivial to read, independent of the decoders under test). OUTDIR/manifest lists
"name file"; the references are OUTDIR/name.cover.ppm and OUTDIR/name.contain.ppm.

Content is smooth gradients plus a few hard-edged shapes placed off-centre, so a wrong
orientation, channel order or colour conversion moves a lot of pixels, while filter
differences between two resamplers stay small. Nothing random: the same script makes the same
files, which lets the tests cache them by the script's hash.
"""
import argparse
import math
import os
import shutil
import struct
import subprocess
import sys
import zlib

from PIL import Image, ImageChops, ImageDraw, ImageOps

# ImageOps.exif_transpose's operation for each orientation, and the one that undoes it.
TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
             4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
             6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}
UNDO = {**TRANSPOSE, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def scene(width, height):
    """An upright RGB picture: red rises left to right, green top to bottom, blue from the
    centre out; an orange block top left, a dark bar along the bottom, a blue disc right."""
    red = Image.linear_gradient("L").rotate(90).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    green = Image.linear_gradient("L")
    blue = Image.radial_gradient("L")
    image = Image.merge("RGB", [c.resize((width, height), Image.Resampling.BILINEAR) for c in (red, green, blue)])
    draw = ImageDraw.Draw(image)
    u = min(width, height)
    draw.rectangle([width * 0.08, height * 0.10, width * 0.30, height * 0.28], fill=(240, 140, 20))
    draw.rectangle([width * 0.05, height * 0.86, width * 0.70, height * 0.92], fill=(30, 30, 40))
    cx, cy, r = width * 0.78, height * 0.45, u * 0.12
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(20, 60, 220))
    return image


def exif_bytes(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def stored(upright, orientation):
    """The stored pixels whose EXIF `orientation` shows `upright`."""
    return upright if orientation == 1 else upright.transpose(UNDO[orientation])


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png_rgb(path, rows, width, height, depth, interlaced):
    """A truecolour PNG from raw rows (3 or 6 bytes a pixel); PIL writes neither 16-bit RGB
    nor Adam7, so these are written here."""
    bpp = 3 * depth // 8
    if interlaced:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        parts = []
        for x0, y0, dx, dy in passes:
            if x0 >= width or y0 >= height:
                continue
            count = (width - x0 + dx - 1) // dx
            for y in range(y0, height, dy):
                row, out = rows[y], bytearray(count * bpp)
                for k in range(bpp):
                    out[k::bpp] = row[x0 * bpp + k::dx * bpp][:count]
                parts.append(b"\0" + bytes(out))
        raw = b"".join(parts)
    else:
        raw = b"".join(b"\0" + r for r in rows)
    header = struct.pack(">IIBBBBB", width, height, depth, 2, 0, 0, 1 if interlaced else 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
                + png_chunk(b"IDAT", zlib.compress(raw, 1)) + png_chunk(b"IEND", b""))


def png16(path, image):
    """16-bit RGB: the 8-bit picture as high bytes, a fine horizontal ramp as low bytes."""
    width, height = image.size
    data = image.tobytes()
    low = bytes((x * 7 + c * 50) & 0xFF for x in range(width) for c in range(3))
    rows = []
    for y in range(height):
        out = bytearray(width * 6)
        out[0::2] = data[y * width * 3:(y + 1) * width * 3]
        out[1::2] = low
        rows.append(bytes(out))
    write_png_rgb(path, rows, width, height, 16, False)


def interlaced_png(path, image):
    width, height = image.size
    data = image.tobytes()
    rows = [data[y * width * 3:(y + 1) * width * 3] for y in range(height)]
    write_png_rgb(path, rows, width, height, 8, True)


def with_alpha(image):
    """Alpha falls from opaque at the top to clear at the bottom, with an opaque disc."""
    width, height = image.size
    alpha = Image.linear_gradient("L").transpose(Image.Transpose.FLIP_TOP_BOTTOM).resize((width, height))
    ImageDraw.Draw(alpha).ellipse([width * 0.1, height * 0.5, width * 0.35, height * 0.9], fill=255)
    rgba = image.convert("RGBA")
    rgba.putalpha(alpha)
    return rgba


def make_set(out):
    files = []

    def add(name, filename):
        files.append((name, filename))
        return os.path.join(out, filename)

    big = scene(5120, 2880)
    big.save(add("jpeg-baseline-5k", "baseline-5k.jpg"), quality=90)
    big.save(add("jpeg-progressive-5k", "progressive-5k.jpg"), quality=90, progressive=True)
    big.save(add("png-8bit-5k", "rgb8-5k.png"), compress_level=1)
    png16(add("png-16bit-5k", "rgb16-5k.png"), big)
    del big

    mid = scene(1800, 1000)
    for orientation in range(1, 9):
        stored(mid, orientation).save(add(f"jpeg-orientation-{orientation}", f"orientation-{orientation}.jpg"),
                                      quality=92, exif=exif_bytes(orientation))
    stored(mid, 6).save(add("png-exif-orientation-6", "orientation-6.png"), exif=exif_bytes(6))
    stored(mid, 8).save(add("webp-exif-orientation-8", "orientation-8.webp"), quality=90, exif=exif_bytes(8))
    stored(mid, 3).save(add("webp-exif-orientation-3", "orientation-3.webp"), quality=90, exif=exif_bytes(3))

    mid.save(add("jpeg-444", "subsampling-444.jpg"), quality=92, subsampling=0)
    mid.save(add("jpeg-422", "subsampling-422.jpg"), quality=92, subsampling=1)
    mid.convert("L").save(add("jpeg-grey", "grey.jpg"), quality=92)
    # CMYK from print workflows: ink from the inverted colours plus a black channel of its own.
    c, m, y = ImageOps.invert(mid).split()
    k = Image.linear_gradient("L").resize(mid.size).point(lambda v: v // 3)
    Image.merge("CMYK", (c, m, y, k)).save(add("jpeg-cmyk-adobe", "cmyk-adobe.jpg"), quality=92)
    restart_source = os.path.join(out, "restart-source.jpg")
    mid.save(restart_source, quality=92)
    with open(add("jpeg-restart-markers", "restart.jpg"), "wb") as f:
        subprocess.run(["jpegtran", "-restart", "1", "-copy", "none", restart_source], stdout=f, check=True)
    os.remove(restart_source)

    scene(3000, 4000).save(add("jpeg-portrait", "portrait-3000x4000.jpg"), quality=90)
    scene(4096, 4096).save(add("webp-lossy-4k", "lossy-4096.webp"), quality=80, method=0)
    with_alpha(scene(1200, 900)).save(add("webp-lossless-alpha", "lossless-alpha.webp"), lossless=True, method=0)
    first, second = scene(1200, 800), ImageOps.invert(scene(1200, 800))
    first.save(add("webp-animated", "animated.webp"), save_all=True, append_images=[second], duration=500, quality=85)
    interlaced_png(add("png-interlaced", "interlaced.png"), mid)
    palette = scene(1200, 800).quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    alphas = bytes(255 if i % 4 else 96 for i in range(64))
    palette.save(add("png-palette-trns", "palette-trns.png"), transparency=alphas)
    with_alpha(scene(1200, 800)).save(add("png-rgba", "rgba.png"))
    scene(1200, 800).convert("L").save(add("png-grey", "grey.png"))
    return files


def to_rgb(image, background):
    """PIL's picture as the screen should show it: CMYK as browsers convert it (Adobe files
    are read un-inverted by PIL), alpha over the background."""
    if image.mode == "CMYK":
        c, m, y, k = image.split()
        ink = ImageOps.invert(k)
        return Image.merge("RGB", [ImageChops.multiply(ImageOps.invert(ch), ink) for ch in (c, m, y)])
    if image.mode in ("RGBA", "LA", "PA", "P", "La", "RGBa") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        return Image.alpha_composite(Image.new("RGBA", rgba.size, background + (255,)), rgba).convert("RGB")
    return image.convert("RGB")


def reference(path, fit, card, background):
    image = Image.open(path)  # an animated file opens at its first frame
    image = to_rgb(ImageOps.exif_transpose(image), background)
    width, height = image.size
    cw, ch = card
    if fit == "cover":
        scale = max(cw / width, ch / height)
        bw, bh = cw / scale, ch / scale
        box = ((width - bw) / 2, (height - bh) / 2, (width + bw) / 2, (height + bh) / 2)
        return image.resize(card, Image.Resampling.BILINEAR, box=box)
    scale = min(cw / width, ch / height)
    x, y, w, h = (cw - width * scale) / 2, (ch - height * scale) / 2, width * scale, height * scale
    left, top = max(0, math.floor(x + 0.5)), max(0, math.floor(y + 0.5))
    right, bottom = min(cw, math.floor(x + w + 0.5)), min(ch, math.floor(y + h + 0.5))
    out = Image.new("RGB", card, background)
    out.paste(image.resize((right - left, bottom - top), Image.Resampling.BILINEAR), (left, top))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--card", default="640x400")
    parser.add_argument("--background", default="101010")
    args = parser.parse_args()
    card = tuple(int(v) for v in args.card.split("x"))
    background = tuple(int(args.background[i:i + 2], 16) for i in (0, 2, 4))
    # Built beside the target and renamed, so a half-made set is never taken for a finished one.
    temporary = args.out.rstrip("/") + f".partial-{os.getpid()}"
    shutil.rmtree(temporary, ignore_errors=True)
    os.makedirs(temporary)
    files = make_set(temporary)
    for name, filename in files:
        for fit in ("cover", "contain"):
            reference(os.path.join(temporary, filename), fit, card, background).save(
                os.path.join(temporary, f"{name}.{fit}.ppm"))
    with open(os.path.join(temporary, "manifest"), "w") as f:
        f.writelines(f"{name} {filename}\n" for name, filename in files)
    try:
        os.rename(temporary, args.out)
    except OSError:  # another run finished first: keep its set
        shutil.rmtree(temporary, ignore_errors=True)
        if not os.path.exists(os.path.join(args.out, "manifest")):
            raise


if __name__ == "__main__":
    sys.exit(main())
