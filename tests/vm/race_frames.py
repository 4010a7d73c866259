#!/usr/bin/python3
"""The first-picture race's screendumps (tests/vm/race-guest.sh), read in the guest.

For each run NAME (cold1..3, fbi1..3, warm1..3): NAME-001.ppm... taken at the host times in
NAME.times (JSON, s from dump 1), exec at NAME.exec (s after dump 1). A run's time is that of
its first dump equal, byte for byte, to its last one and followed only by equal ones (its final
picture, there to stay), from exec. Dumps are 0.1 s apart, so a time is known to 0.1 s. The first dump that differs from dump 1 (the screen before
exec) must equal the render at t = 0 in every carouseld run (tests/vm/imgcmp.py's tolerance).
Prints each run and the best of each kind beside fbi's, and a PASS/FAIL line: the first picture
of every carouseld run is the render at t = 0. The times (issue 34's cold 0.75x and warm 0.5x
fbi's) are written to OUT/bench.txt, one line a run ("race-cold 1.23"), and judged by
scripts/bench, which repeats the race: one round decides nothing about speed.

usage: race_frames.py OUT REF.png [ROUNDS]
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RACE_SECONDS = 4.5   # race-guest.sh: 45 dumps 0.1 s apart


def run(out, name):
    times = json.load(open(os.path.join(out, name + ".times")))
    exec_at = float(open(os.path.join(out, name + ".exec")).read())
    # Equal dumps are one file (vm-run links a dump equal to the one before): compared by inode.
    dumps = [os.stat(os.path.join(out, "%s-%03d.ppm" % (name, i + 1))).st_ino for i in range(len(times))]
    final = dumps[-1]
    first_final = len(dumps) - 1
    while first_final > 0 and dumps[first_final - 1] == final:
        first_final -= 1
    changed = next((i for i, d in enumerate(dumps) if d != dumps[0]), None)
    return {"time": times[first_final] - exec_at, "first_final": first_final + 1, "changed": changed,
            "still": first_final == 0, "exec": exec_at}


def matches(out, name, index, ref):
    dump = os.path.join(out, "%s-%03d.ppm" % (name, index + 1))
    p = subprocess.run([sys.executable, os.path.join(HERE, "imgcmp.py"), "compare", dump, ref],
                       capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


def main():
    out, ref = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    best, failures = {}, 0
    figures = open(os.path.join(out, "bench.txt"), "a")
    for kind in ("cold", "fbi", "warm"):
        for r in range(1, rounds + 1):
            name = "%s%d" % (kind, r)
            try:
                res = run(out, name)
            except (OSError, ValueError) as e:
                print("FAIL race %s: no screendumps to read (%s)" % (name, e))   # nothing to check fails
                failures += 1
                continue
            if res["still"] or res["changed"] is None:
                print("FAIL race %s: the screen never changed in %.1f s" % (name, RACE_SECONDS))
                failures += 1
                continue
            figures.write("race-%s %.3f\n" % (kind, res["time"]))
            line = "  %s: final picture from dump %d, %.2f s after exec (exec %.2f s after dump 1)" % (
                name, res["first_final"], res["time"], res["exec"])
            if kind != "fbi":
                ok, detail = matches(out, name, res["changed"], ref)
                print(line + "; its first changed dump (%d) %s render t = 0 (%s)" % (
                    res["changed"] + 1, "equals" if ok else "differs from", detail))
                if not ok:
                    print("FAIL race %s: the first picture on screen is the render at t = 0" % name)
                    failures += 1
            else:
                print(line)
            best[kind] = min(best.get(kind, 1e9), res["time"])
    if not all(k in best for k in ("cold", "fbi", "warm")) or best["fbi"] <= 0:
        print("FAIL race: a kind without a run to compare")
        return
    print("race: first picture from exec, best of %d: carouseld" % rounds + " cold %.2f s (%.2fx fbi), warm %.2f s (%.2fx fbi), fbi %.2f s" % (
        best["cold"], best["cold"] / best["fbi"], best["warm"], best["warm"] / best["fbi"], best["fbi"]))
    # Issue 34's bounds (cold 0.75x, warm 0.5x fbi) are scripts/bench's to judge, over its rounds.
    if failures == 0:
        print("PASS race: every carouseld run's first picture on screen is the render at t = 0")


if __name__ == "__main__":
    main()
