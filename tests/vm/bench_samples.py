#!/usr/bin/python3
"""The figures of scripts/vm-tests' bochs boot as scripts/bench reads them: one `SERIES VALUE` a
line (or `SERIES timeout`), from OUT/planes/cpu.txt (planes-guest.sh), OUT/race/bench.txt
(race-guest.sh, race_frames.py) and the flip gaps under stress-ng; or, for the soak's boot,
OUT/virtio-cpu/cpu.txt (virtio-cpu-guest.sh).

Series (seconds unless said):
  cpu-planes, cpu-composed       the daemon's CPU per page change on vkms at 1920x1080, as the
                                 scheduler ran it (schedstat)
  cpu-planes-ticks, cpu-fbi      the same by ticks, and fbi's (its only measure) on vkms's fbdev
  bochs-flat, bochs-emphasis,    by ticks on bochs 1280x800: the flat look panned, the look with
  bochs-fbi                      emphasis composed, fbi
  virtio-flat, virtio-emphasis,  the same on virtio-gpu, from OUT/virtio-cpu/cpu.txt when OUT is
  virtio-fbi                     the soak's boot (.build/vm/soak)
  race-cold, race-warm,          exec -> the final first picture on screen (screendumps)
  race-fbi
  exec-main-cold, exec-main-warm exec -> main (the daemon's log)
  late-vkms, late-bochs          frames of one page change under stress-ng --cpu 2 that came
                                 late by the daemon's part (counts, one a page change)

usage: bench_samples.py OUT
"""
import os
import sys

from cpu_figures import per_page, read_runs

REFRESH = {"late-vkms": 0.0167, "late-bochs": 0.0133}


def cpu_lines(path):
    """cpu.txt's runs (cpu_figures.read_runs), each as its series and seconds per page."""
    for name, runs in read_runs(path).items():
        for fields in runs:
            if not fields or fields[0] == "timeout":
                yield ("cpu-" + name if name in ("planes", "composed", "fbi") else name), "timeout"
            elif name in ("planes", "composed"):
                yield "cpu-" + name, "%.4f" % per_page(fields)
                if name == "planes":
                    yield "cpu-planes-ticks", "%.4f" % per_page(fields, ticks=True)
            else:
                yield ("cpu-fbi" if name == "fbi" else name), "%.4f" % per_page(fields, ticks=True)


def late_counts(path, series):
    """Per page change ("round N" then its flips): frames late by the daemon's part."""
    refresh, count, seen = REFRESH[series], None, False
    for line in open(path):
        f = line.split()
        if f[:1] == ["round"]:
            if count is not None:
                yield series, str(count)
            if f[-1] == "timeout":
                yield series, "timeout"; count = None
            else:
                count = 0
            seen = True
            continue
        if count is None or not f:
            continue
        gap = float(f[0])
        # bochs's lines have a third column, the kernel's lateness waking the daemon after a
        # hold; the daemon's part (to its commit returning, the kernel's commit included) less it.
        own = float(f[1]) - float(f[2]) if len(f) >= 3 else float(f[1])
        allowed = refresh * (1.25 if len(f) >= 3 else 1)
        if gap > refresh * 1.25 and own > allowed:
            count += 1
    if count is not None:
        yield series, str(count)
    if not seen:
        yield series, "timeout"


def race_lines(path):
    """race_frames.py's lines as they are; exec -> main from ms to s (the goal's unit)."""
    for line in open(path):
        f = line.split()
        if len(f) != 2:
            continue
        if f[0].startswith("exec-main-"):
            yield f[0], "timeout" if f[1] == "none" else "%.3f" % (float(f[1]) / 1000)
        else:
            yield f[0], f[1]


def main():
    out = sys.argv[1]
    sources = [
        (os.path.join(out, "planes", "cpu.txt"), cpu_lines),
        (os.path.join(out, "race", "bench.txt"), race_lines),
        (os.path.join(out, "planes", "stress-gaps.txt"), lambda p: late_counts(p, "late-vkms")),
        (os.path.join(out, "planes", "bochs-stress-gaps.txt"), lambda p: late_counts(p, "late-bochs")),
    ] if os.path.basename(out) != "soak" else [
        (os.path.join(out, "virtio-cpu", "cpu.txt"), cpu_lines),   # the soak's boot (virtio-cpu-guest.sh)
    ]
    for path, read in sources:
        if not os.path.exists(path):
            print("# %s: missing" % path)   # its series are missing: the cases that need them fail
            continue
        for name, value in read(path):
            print(name, value)


if __name__ == "__main__":
    main()
