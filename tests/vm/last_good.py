#!/usr/bin/python3
"""Reads carouseld's last good config file ($STATE_DIRECTORY/last-good-config) on its own, as a
second reader of the format (Sources/CarouselConfig/LastGoodConfig.swift):

    carouseld last good config 1
    NAME SIZE\\n BYTES \\n        (one per file)
    fnv HEX                      FNV-1a over 64-bit little-endian words, then the tail bytes

usage: last_good.py unpack FILE DIR     writes the files into DIR; exit 1 naming the fault
"""
import os
import struct
import sys

MAGIC = b"carouseld last good config 1\n"


def fnv(data):
    h, prime, mask = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1
    words = len(data) // 8
    for (w,) in struct.iter_unpack("<Q", data[: words * 8]):
        h = ((h ^ w) * prime) & mask
    for b in data[words * 8:]:
        h = ((h ^ b) * prime) & mask
    return h


def unpack(data):
    if not data.endswith(b"\n") or b"\n" not in data[:-1]:
        raise ValueError("cut short (no checksum line)")
    cut = data[:-1].rindex(b"\n") + 1
    body, trailer = data[:cut], data[cut:-1].decode("ascii", "replace")
    if trailer != f"fnv {fnv(body):016x}":
        raise ValueError("checksum mismatch (torn or changed)")
    if not body.startswith(MAGIC):
        raise ValueError("not a last good config")
    at, files = len(MAGIC), []
    while at < len(body):
        end = body.index(b"\n", at)
        name, size = body[at:end].decode().rsplit(" ", 1)
        start = end + 1
        files.append((name, body[start:start + int(size)]))
        at = start + int(size) + 1
    return files


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "unpack":
        sys.exit(__doc__)
    try:
        files = unpack(open(sys.argv[2], "rb").read())
    except (OSError, ValueError) as e:
        print(f"{sys.argv[2]}: {e}")
        return 1
    for name, data in files:
        if name.startswith("/") or ".." in name.split("/"):
            print(f"{sys.argv[2]}: refused name {name}")
            return 1
        path = os.path.join(sys.argv[3], name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    print(" ".join(name for name, _ in files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
