"""Cases over the realistic photo set of scripts/make-photo-set.py: decode-to-card time against
Debian's tools, and the peak memory of paging through the set (`carouseld bench --photos`).

The set is made once per version of the script, in ~/.cache/carouseld-bench/photo-set-<hash>
(about 9 s and 56 MB), as the Swift tests cache theirs: an unchanged script costs nothing."""
import hashlib
import os
import re
import shutil
import statistics
import subprocess

from bench.case import Case, Command, NoFigure

SCRIPT = "scripts/make-photo-set.py"


def photo_set(ctx):
    script = ctx.repo / SCRIPT
    digest = hashlib.sha256(script.read_bytes()).hexdigest()[:16]
    return ctx.cache / f"photo-set-{digest}"


def make_photo_set(ctx):
    directory = photo_set(ctx)
    if (directory / "manifest").exists():
        return
    ctx.cache.mkdir(parents=True, exist_ok=True)
    building = ctx.cache / f"building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    # The script's shebang is Debian's python3, which has PIL (python3-pil, scripts/setup).
    done = subprocess.run([ctx.repo / SCRIPT, building], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        raise RuntimeError(f"{SCRIPT} failed: {done.stderr.strip()[-300:]}")
    os.rename(building, directory)  # whole or not at all: a killed build leaves no half set


# A row of the --photos table: "file | format | size | progressive | decode to card ms |
# preview ms | peak added MB | best tool | tool ms | carouseld / tool | ...". The ratio column
# is rounded to 2 decimals, so it is recomputed from the two times (0.1 ms each).
HEADER = "file | format | size | progressive | decode to card ms |"


def parse_decode(output):
    if HEADER not in output.stdout:
        raise NoFigure("no --photos table")
    ratios, ours, theirs = [], 0.0, 0.0
    for line in output.stdout.splitlines():
        fields = line.split(" | ")
        if len(fields) < 10 or fields[0] == "file" or fields[7] == "-":
            continue
        card, tool = float(fields[4]), float(fields[8])
        if tool <= 0:
            raise NoFigure(f"{fields[0]}: {fields[7]} took {fields[8]} ms")
        ratios.append(card / tool)
        ours, theirs = ours + card, theirs + tool
    if not ratios:
        raise NoFigure("no picture was timed against a tool (djpeg, dwebp, vipsthumbnail installed?)")
    return {"ratio": statistics.median(ratios), "worst": max(ratios), "pictures": len(ratios),
            "carouseld_ms_sum": ours, "tools_ms_sum": theirs}


PAGING = {
    "cold": re.compile(r"^peak RSS paging through \d+ pictures, card cache empty \(decode, then write\): ([0-9.]+) MB", re.M),
    "warm": re.compile(r"^peak RSS paging again, served from the card cache: ([0-9.]+) MB", re.M),
    "floor": re.compile(r"^peak RSS with an empty playlist \(the floor\): ([0-9.]+) MB", re.M),
}


def parse_paging(output):
    figures = {}
    for name, pattern in PAGING.items():
        match = pattern.search(output.stdout)
        if not match:
            raise NoFigure(f"no '{name}' peak RSS line")
        figures[name] = float(match[1])
    return figures


def decode_commands(ctx):
    return [Command([ctx.binary, "bench", "--photos", photo_set(ctx)], parse_decode, 600)]


def paging_commands(ctx):
    # --paging-only: the three paging children alone, without the per-picture table (3-4 s).
    return [Command([ctx.binary, "bench", "--photos", photo_set(ctx), "--paging-only"], parse_paging, 300)]


CASES = [
    Case(name="decode", goal="decode", where="host", commands=decode_commands, a="ratio", prepare=make_photo_set,
         summary="median over the photo set of decode-to-card time / the best of djpeg, dwebp, vipsthumbnail"),
    Case(name="peak-memory", goal="peak-memory", where="host", commands=paging_commands, a="cold",
         prepare=make_photo_set, summary="peak RSS paging through the photo set, card cache empty"),
]
