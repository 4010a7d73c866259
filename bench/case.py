"""What a benchmark case is, for the runner and for whoever adds one.

A Case is
  - name      what --only and the table use;
  - goal      its key in bench/goals.toml (the number, how it is compared, the issue);
  - where     "host", "vm" or "wayland": where its runs execute;
  - commands  commands(ctx) -> the Commands of ONE repetition. The runner calls it once per
              repetition and runs the commands in order, so [command_a, command_b] gives the
              interleaving A1 B1 A2 B2 ... that lets A and B share the host's conditions. A
              single command may report both series when one process measures both;
  - a, b      the names of the series compared (b None: A alone, against a value goal);
  - prepare   optional prepare(ctx), run once before the runs and not timed: inputs that are
              built or cached (a photo set), not measured.

Each Command carries its parser: parse(output) -> {series: number or [numbers]} from the run's
stdout or from its result file ("{result}" in argv is replaced by that file's path, a fresh one
each run). A parser raises NoFigure when a figure it needs is not there: a missing figure must
never be read as 0 (a timed-out run once printed a message that was read as 0 s and so passed).
Series other than a and b are kept in the JSON as extras.
"""
import dataclasses
import pathlib
from typing import Callable, Optional


class NoFigure(Exception):
    """A run finished but left no figure (or a figure saying it timed out): its case FAILS."""


@dataclasses.dataclass
class Context:
    binary: pathlib.Path
    repo: pathlib.Path
    cache: pathlib.Path      # inputs kept between invocations (~/.cache/carouseld-bench)
    quick: bool = False
    runs: int = 5            # --runs: a case that repeats inside one run (a VM boot) uses it


@dataclasses.dataclass
class Output:
    """One finished run, as a parser sees it."""
    argv: list
    status: int
    stdout: str
    stderr: str
    seconds: float
    # The "{result}" file's text, read as the run ended (its directory does not outlive the
    # run); None when the run wrote none.
    result: Optional[str] = None
    timed_out: bool = False

    def result_text(self):
        if self.result is None:
            raise NoFigure("the run wrote no result file")
        return self.result


@dataclasses.dataclass
class Command:
    argv: list
    parse: Callable[[Output], dict]
    timeout: float
    # Exit statuses of a run that still reported: `carouseld bench --loop-gap` exits 1 on a gap
    # over its bound, which is a miss to judge, not a failure to measure.
    ok_status: tuple = (0,)
    # Several cases may read their figures from one process (the compose lines of one
    # `carouseld bench`): the same argv in the same repetition then runs once.
    shared: bool = False


@dataclasses.dataclass
class Case:
    name: str
    goal: str
    where: str
    commands: Callable[[Context], list]
    a: str
    b: Optional[str] = None
    prepare: Optional[Callable[[Context], None]] = None
    summary: str = ""
    # True: one run of its commands repeats the measurements ctx.runs times inside (a VM boot
    # runs the rounds in the guest, A and B in turn), so the runner runs it once.
    repeats_inside: bool = False
    # True: over an hour (100 power cuts); run only when named with --only, never in the full run.
    long: bool = False
