"""The power cuts (issue 44): CUTS boots of the Debian 13 root with the package, each cut at a
random instant of a workload of daemon restarts, config copies and reloads
(scripts/vm-boot-tests --only cuts; CI cuts 5 times). One long run: about 45 s a cut under TCG,
so 100 cuts take over an hour (BENCH_CUTS sets fewer). Its figures: the share of the boots after
a cut that came up with the picture (every one must), and the torn entries found and dropped.
"""
import re

from bench.case import Case, Command, NoFigure

CUTS = r'''
set -u
cd "$1"
deb=$(ls -t dist/carouseld_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "bench power cuts: no package in dist/ (scripts/package)" >&2; exit 2; }
CUTS=${BENCH_CUTS:-100} scripts/vm-boot-tests --deb "$deb" --only cuts --timeout 600 > .build/bench-cuts.log 2>&1
echo "bench power cuts: vm-boot-tests exited $? ($deb); its log: .build/bench-cuts.log" >&2
cat .build/bench-cuts.log
'''
FIGURES = re.compile(r"power cuts: (?P<cuts>\d+) cuts, (?P<up>\d+) of \d+ boots after them came up with the picture, "
                     r"(?P<torn>\d+) torn or stale entries dropped")


def parse_cuts(output):
    match = FIGURES.search(output.stdout)
    if not match:
        raise NoFigure("no 'power cuts:' line (the cuts did not finish)")
    cuts = int(match["cuts"])
    if cuts == 0:
        raise NoFigure("no cut was made")
    return {"boots-up": int(match["up"]) / cuts, "torn-dropped": float(match["torn"])}


def cuts_case(name, series, summary):
    def commands(ctx):
        return [Command(["bash", "-c", CUTS, "bench-cuts", str(ctx.repo)], parse_cuts, 7200, ok_status=(0, 1), shared=True)]
    return Case(name=name, goal=name, where="vm", commands=commands, a=series, summary=summary, repeats_inside=True,
                long=True)


CASES = [
    cuts_case("vm-power-cuts-boots-up", "boots-up", "the share of boots after a power cut that came up with the picture"),
    cuts_case("vm-power-cuts-torn-dropped", "torn-dropped", "torn or stale cache entries, kept frames and copies dropped after the cuts"),
]
