"""The 10-minute soak (issue 11) with the virtio-gpu CPU runs in its boot, and the Wayland panned
strip, each a run of a test script whose figures scripts/bench reads.

The soak is one run of 600 s in a VM by design (the issue's ten minutes): its figures are one
sample each, judged as such; its loop gap is TCG's (composing alone takes 30-50 ms a frame
there) and is judged on the host instead (host-loop-gap). Wayland's panned against composed CPU
per page comes from tests/wayland/host-compositor.sh under headless weston, its pairs repeated
inside one run of the script.
"""
import re

from bench.case import Case, Command, NoFigure
from bench.samples import samples_parser

# One boot on virtio-gpu: --runs rounds of the CPU runs beside fbi (tests/vm/virtio-cpu-guest.sh),
# then the soak. The soak's figures come from the log on stdout, the CPU figures from the samples
# file.
SOAK = r'''
set -u
cd "$1"
deb=$(ls -t dist/carouseld_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
# The package's binary, as in the bochs boot (bench/cases/vm.py); without one vm-tests builds the
# release binary, which after scripts/package (other flags, the same .build/release) is a whole
# rebuild of about 100 s inside the case.
[ -z "$deb" ] || export CAROUSELD_PACKAGE_DEB=$PWD/$deb
echo "bench soak: package ${deb:-none (the release build runs)}" >&2
VM_ONLY=soak SOAK_SECONDS=600 CPU_ROUNDS=$2 scripts/vm-tests > .build/bench-soak.log 2>&1
echo "bench soak: vm-tests exited $?; its log: .build/bench-soak.log" >&2
/usr/bin/python3 tests/vm/bench_samples.py .build/vm/soak > "$3"
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


def soak_boot(parse):
    def commands(ctx):
        argv = ["bash", "-c", SOAK, "bench-soak", str(ctx.repo), str(ctx.runs), "{result}"]
        return [Command(argv, parse, 1800 + 120 * ctx.runs, ok_status=(0, 1), shared=True)]
    return commands


def soak_case(name, series, summary):
    return Case(name=name, goal=name, where="vm", commands=soak_boot(parse_soak), a=series, summary=summary,
                repeats_inside=True)


def virtio_case(name, a, summary):
    return Case(name=name, goal=name, where="vm", commands=soak_boot(samples_parser(a, "virtio-fbi")), a=a,
                b="virtio-fbi", summary=summary, repeats_inside=True)


WAYLAND = r'''
set -u
cd "$1"
CPU_ROUNDS=$3 tests/wayland/host-compositor.sh "$2" .build/bench-wayland > .build/bench-wayland.log 2>&1
echo "bench wayland: host-compositor.sh exited $?; its log: .build/bench-wayland.log" >&2
cp .build/bench-wayland/bench.txt "$4"
'''


def wayland_commands(ctx):
    # One run of the script, its CPU pairs repeated inside it (CPU_ROUNDS): the script's other
    # checks (about 45 s) run once, not once a pair.
    argv = ["bash", "-c", WAYLAND, "bench-wayland", str(ctx.repo), str(ctx.binary), str(ctx.runs), "{result}"]
    return [Command(argv, samples_parser("wayland-panned", "wayland-composed"), 600 + 60 * ctx.runs, ok_status=(0, 1))]


CASES = [
    soak_case("vm-soak-rss-growth", "rss-growth", "RSS growth over a 600 s soak of config churn, touches and SIGHUPs"),
    soak_case("vm-soak-watchdog-gap", "watchdog-gap", "the longest gap between watchdog pings over the soak"),
    soak_case("vm-soak-loop-gap", "loop-gap", "the longest loop gap while animating over the soak (TCG's)"),
    virtio_case("vm-virtio-flat-vs-fbi", "virtio-flat",
                "CPU per page change of the flat look, panned by SRC_X, on virtio-gpu against fbi, by ticks"),
    virtio_case("vm-virtio-emphasis-vs-fbi", "virtio-emphasis",
                "CPU per page change of the look with emphasis, composed, on virtio-gpu against fbi"),
    Case(name="wayland-panned-vs-composed", goal="wayland-panned-vs-composed", where="wayland", commands=wayland_commands,
         a="wayland-panned", b="wayland-composed", repeats_inside=True,
         summary="CPU per page change under headless weston: the flat look panned against composed"),
]
