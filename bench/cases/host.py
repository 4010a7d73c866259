"""Cases that run natively on this host and read `carouseld bench`'s own lines: compose against
a memcpy, and the daemon's loop gap. Emphasis is judged here rather than in a VM because TCG
emulates pixman's SIMD at 27-35x the host's cost (docs/rendering.md)."""
import re

from bench.case import Case, Command, NoFigure

# --compose-only stops `carouseld bench` after its compose figures: the real-time paging, decode
# and peak-RSS sections after them (about 26 s a run) are other cases' or printed only. Both
# compose cases read the same run (shared).
COMPOSE_ARGV = ["bench", "--compose-only"]
COMPOSE_TIMEOUT = 300

# "compose, translate-only frames: p50 1.924 ms, p99 2.199 ms over 300 frames; a memcpy of one
# frame beside each: p50 1.455 ms, p99 4.443 ms". Anchored at the line's start: the wayland
# section prints a line of the same shape.
_COMPOSE = (r": p50 (?P<p50>[0-9.]+) ms, p99 (?P<p99>[0-9.]+) ms over (?P<frames>\d+) frames; "
            r"a memcpy of one frame beside each: p50 (?P<memcpy>[0-9.]+) ms")
FLAT = re.compile(r"^compose, translate-only frames" + _COMPOSE, re.M)
SCALED = re.compile(r"^compose, scaled centre \([^)]*\)" + _COMPOSE, re.M)


def compose_parser(pattern, what):
    def parse(output):
        match = pattern.search(output.stdout)
        if not match:
            raise NoFigure(f"no '{what}' compose line")
        if int(match["frames"]) < 10:
            raise NoFigure(f"{what}: only {match['frames']} frames timed")
        return {"compose": float(match["p50"]), "memcpy": float(match["memcpy"]),
                "compose_p99": float(match["p99"])}
    return parse


def compose_case(name, pattern, what):
    def commands(ctx):
        return [Command([ctx.binary] + COMPOSE_ARGV, compose_parser(pattern, what), COMPOSE_TIMEOUT, shared=True)]
    return Case(name=name, goal=name, where="host", commands=commands, a="compose", b="memcpy",
                summary=f"compose p50 of {what} 1920x1080 frames vs a memcpy of the frame beside each")


# "PASS loop gap on the host: longest loop gap while animating, the daemon's own, 32.0 ms over
# 5 s (3 config changes, 4 flings; ...); as the loop saw it 32.0 ms, the kernel waking it up to
# 4.4 ms after its deadline; at most 50 ms"
LOOP_GAP = re.compile(r"^(PASS|FAIL) loop gap on the host: .*?the daemon's own, (?P<gap>[0-9.]+) ms over [0-9.]+ s "
                      r"\((?P<changes>\d+) config changes, (?P<flings>\d+) flings.*?as the loop saw it "
                      r"(?P<seen>[0-9.]+) ms, the kernel waking it up to (?P<wake>[0-9.]+) ms", re.M)


def parse_loop_gap(output):
    match = LOOP_GAP.search(output.stdout)
    if not match:
        raise NoFigure("no 'loop gap on the host' line")
    if int(match["changes"]) == 0 or int(match["flings"]) == 0:  # the daemon was not exercised
        raise NoFigure(f"{match['changes']} config changes, {match['flings']} flings")
    return {"gap": float(match["gap"]), "gap_as_seen": float(match["seen"]), "late_wake": float(match["wake"])}


def loop_gap_commands(ctx):
    # 15 s a run: five runs give 75 s of churn and flings (a config change every 2 s, a fling
    # every 1.5 s), and the full bench stays within the 45 minutes.
    seconds = 10 if ctx.quick else 15
    media = ctx.repo / "config" / "example" / "images"
    argv = [ctx.binary, "bench", "--loop-gap", str(seconds), "--media", str(media)]
    # Exit 1 is the bench's own FAIL of the 50 ms bound: a figure to judge, not a failed run.
    return [Command(argv, parse_loop_gap, seconds + 120, ok_status=(0, 1))]


CASES = [
    compose_case("host-emphasis-compose", SCALED, "scaled-centre (emphasis)"),
    compose_case("host-flat-compose", FLAT, "translate-only (flat)"),
    Case(name="host-loop-gap", goal="host-loop-gap", where="host", commands=loop_gap_commands, a="gap",
         summary="the daemon's own longest loop gap while animating, headless, under churn and flings"),
]
