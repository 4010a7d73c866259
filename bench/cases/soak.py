"""The 10-minute soak (issue 11) and the Wayland panned strip, each a run of a test script whose
figures scripts/bench reads.

The soak is one run of 600 s in a VM by design (the issue's ten minutes): its figures are one
sample each, judged as such; its loop gap is TCG's (composing alone takes 30-50 ms a frame
there) and is judged on the host instead (host-loop-gap). Wayland's panned against composed CPU
per page comes from tests/wayland/host-compositor.sh under headless weston, one pair a run.
"""
import re

from bench.case import Case, Command, NoFigure
from bench.samples import samples_parser

SOAK = r'''
set -u
cd "$1"
VM_ONLY=soak SOAK_SECONDS=600 scripts/vm-tests > .build/bench-soak.log 2>&1
echo "bench soak: vm-tests exited $?; its log: .build/bench-soak.log" >&2
cat .build/bench-soak.log
'''
FIGURES = re.compile(r"soak figures: RSS (?P<rss0>\d+) -> (?P<rss1>\d+) kB .*?longest loop gap while animating "
                     r"(?P<gap>[0-9.]+) ms, watchdog every (?P<every>[0-9.]+) s with longest gap (?P<wgap>[0-9.]+) s")


def parse_soak(output):
    match = FIGURES.search(output.stdout)
    if not match:
        raise NoFigure("no 'soak figures' line (the soak did not finish)")
    return {"rss-growth": (int(match["rss1"]) - int(match["rss0"])) / 1024, "loop-gap": float(match["gap"]),
            "watchdog-gap": float(match["wgap"]), "watchdog-every": float(match["every"])}


def soak_case(name, series, summary):
    def commands(ctx):
        return [Command(["bash", "-c", SOAK, "bench-soak", str(ctx.repo)], parse_soak, 1800, ok_status=(0, 1), shared=True)]
    return Case(name=name, goal=name, where="vm", commands=commands, a=series, summary=summary, repeats_inside=True)


WAYLAND = r'''
set -u
cd "$1"
tests/wayland/host-compositor.sh "$2" .build/bench-wayland > .build/bench-wayland.log 2>&1
echo "bench wayland: host-compositor.sh exited $?; its log: .build/bench-wayland.log" >&2
cp .build/bench-wayland/bench.txt "$3"
'''


def wayland_commands(ctx):
    argv = ["bash", "-c", WAYLAND, "bench-wayland", str(ctx.repo), str(ctx.binary), "{result}"]
    return [Command(argv, samples_parser("wayland-panned", "wayland-composed"), 900, ok_status=(0, 1))]


CASES = [
    soak_case("vm-soak-rss-growth", "rss-growth", "RSS growth over a 600 s soak of config churn, touches and SIGHUPs"),
    soak_case("vm-soak-watchdog-gap", "watchdog-gap", "the longest gap between watchdog pings over the soak"),
    soak_case("vm-soak-loop-gap", "loop-gap", "the longest loop gap while animating over the soak (TCG's)"),
    Case(name="wayland-panned-vs-composed", goal="wayland-panned-vs-composed", where="wayland", commands=wayland_commands,
         a="wayland-panned", b="wayland-composed",
         summary="CPU per page change under headless weston: the flat look panned against composed"),
]
