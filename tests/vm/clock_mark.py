#!/usr/bin/env python3
"""Marks the kernel's clock synchronised or not, as NTP would, without setting the time.
usage (root, in the guest): clock_mark.py synchronised|unsynchronised|show
adjtimex(ADJ_STATUS) with STA_UNSYNC cleared is what systemd-timesyncd or chrony do once they
trust their server; a small maximum error keeps the kernel from marking it unsynchronised again
(it adds 500 us a second and gives up at 16 s). `date -s` marks the clock unsynchronised."""
import ctypes
import struct
import sys

ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS = 0x0004, 0x0008, 0x0010
STA_UNSYNC = 0x0040
# struct timex on 64-bit Linux: modes (int, padded to 8), offset, freq, maxerror, esterror
# (longs), status (int) at byte 40; the whole struct is under 256 bytes.
MAXERROR_AT, ESTERROR_AT, STATUS_AT = 24, 32, 40


def adjtimex(buffer):
    result = ctypes.CDLL(None, use_errno=True).adjtimex(buffer)
    if result < 0:
        sys.exit(f"adjtimex: {ctypes.get_errno()}")
    return result


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "show"
    buffer = ctypes.create_string_buffer(256)
    if what in ("synchronised", "unsynchronised"):
        struct.pack_into("I", buffer, 0, ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR)
        struct.pack_into("q", buffer, MAXERROR_AT, 10_000)
        struct.pack_into("q", buffer, ESTERROR_AT, 1_000)
        struct.pack_into("i", buffer, STATUS_AT, 0 if what == "synchronised" else STA_UNSYNC)
        adjtimex(buffer)
    elif what != "show":
        sys.exit(__doc__)
    buffer = ctypes.create_string_buffer(256)
    adjtimex(buffer)
    status = struct.unpack_from("i", buffer, STATUS_AT)[0]
    print("unsynchronised" if status & STA_UNSYNC else "synchronised")


if __name__ == "__main__":
    main()
