#!/usr/bin/python3
"""The CPU runs of tests/vm/planes-guest.sh (OUT/planes/cpu.txt), read on the host.

Each line is one run: NAME then its figures (all, user, kernel seconds by ticks over 5 page
changes; the daemon's also as the scheduler ran it, and its frames with cards on planes and
composed), or NAME "timeout" when the run did not finish. CI judges behaviour here: every path
ran ROUNDS times and left a figure (a timed-out run is a failure, never 0 s), and the planes runs
put cards on planes. The figures are printed, not judged: scripts/bench repeats them and judges
them against bench/goals.toml.

usage: cpu_figures.py CPU.TXT ROUNDS NAME...
"""
import sys


def read_runs(path):
    """{name: [fields of each run]}; a run that timed out is the list ["timeout"]."""
    runs = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts:
                runs.setdefault(parts[0], []).append(parts[1:])
    return runs


def per_page(fields, ticks=False):
    """Seconds of CPU per page change as the scheduler ran the daemon, or by ticks (fbi's only
    measure, so every comparison with fbi is by ticks)."""
    value = fields[3] if len(fields) > 3 and not ticks else fields[0]
    return float(value) / 5


def main():
    path, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    try:
        runs = read_runs(path)
    except OSError as e:
        print("FAIL CPU runs: no figures (%s)" % e)
        return
    for name in names:
        done = [r for r in runs.get(name, []) if r and r[0] != "timeout"]
        timed_out = sum(1 for r in runs.get(name, []) if not r or r[0] == "timeout")
        ok = len(done) == rounds and timed_out == 0
        figures = ", ".join("%.3f" % per_page(r) for r in done)
        print("%s CPU run %s: %d of %d runs left a figure, %d timed out (s per page: %s)" % (
            "PASS" if ok else "FAIL", name, len(done), rounds, timed_out, figures or "none"))
    planes = [r for r in runs.get("planes", []) if len(r) > 5 and r[0] != "timeout"]
    if "planes" in names:
        shown = [int(r[4]) for r in planes]
        print("%s CPU run planes: cards were on planes in every run's frames (%s)" % (
            "PASS" if shown and all(n > 0 for n in shown) else "FAIL", ", ".join(map(str, shown)) or "none"))
    # Ratios of the lowest figures, printed for the reader; scripts/bench judges them.
    for a, b in (("planes", "composed"), ("planes", "fbi"), ("bochs-flat", "bochs-fbi"), ("bochs-emphasis", "bochs-fbi")):
        ticks = b.endswith("fbi")
        low = [min((per_page(r, ticks) for r in runs.get(n, []) if r and r[0] != "timeout"), default=0) for n in (a, b)]
        if low[0] > 0 and low[1] > 0:
            print("  %s / %s CPU per page: %.2fx (lowest of each%s; judged by scripts/bench, not here)" % (
                a, b, low[0] / low[1], ", by ticks" if ticks else ""))


if __name__ == "__main__":
    main()
