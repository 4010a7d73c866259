"""Runs a case: its repetitions in order (A1 B1 A2 B2 ...), each command under a timeout, and
collects its samples and the host's load over them.

Any run that times out, exits with a status its command does not accept, or leaves no figure
FAILS the whole case, and the case stops there: its other runs cannot stand in for it, and a
missing figure must never be counted as 0 (a timed-out run that printed a message once read as
0 s, the lowest run, and passed).
"""
import dataclasses
import math
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional

from bench import hostload
from bench.case import NoFigure, Output


class CaseFailed(Exception):
    pass


@dataclasses.dataclass
class Result:
    case: object
    samples: dict = dataclasses.field(default_factory=dict)   # series -> [values], in run order
    runs: list = dataclasses.field(default_factory=list)      # one record per run, for the JSON
    load: dict = dataclasses.field(default_factory=dict)
    error: Optional[str] = None

    @property
    def failed(self):
        return self.error is not None


def execute(command):
    """Runs one command in a scratch directory of its own; a timed-out run's whole process group
    is killed (carouseld bench starts children of its own) and comes back as timed_out."""
    with tempfile.TemporaryDirectory(prefix="carouseld-bench-run-") as scratch:
        result = pathlib.Path(scratch) / "result"
        argv = [str(arg).replace("{result}", str(result)) for arg in command.argv]
        start = time.monotonic()
        try:
            process = subprocess.Popen(argv, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, errors="replace", start_new_session=True)
        except OSError as error:
            raise CaseFailed(f"cannot run {argv[0]}: {error}") from None
        timed_out = False
        try:
            stdout, stderr = process.communicate(timeout=command.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
        text = result.read_text(errors="replace") if result.exists() else None
        return Output(argv=argv, status=process.returncode, stdout=stdout, stderr=stderr,
                      seconds=time.monotonic() - start, result=text, timed_out=timed_out)


def _tail(output):
    lines = (output.stderr.strip() or output.stdout.strip()).splitlines()[-3:]
    return (": " + " / ".join(lines)) if lines else ""


def figures(command, output):
    """The run's figures as {series: [values]}, or CaseFailed saying why there are none."""
    shown = " ".join(output.argv)
    if output.timed_out:
        raise CaseFailed(f"timed out after {command.timeout:g} s: {shown}")
    if output.status not in command.ok_status:
        raise CaseFailed(f"exited {output.status}: {shown}{_tail(output)}")
    try:
        parsed = command.parse(output)
    except NoFigure as error:
        raise CaseFailed(f"no figure ({error}): {shown}") from None
    except Exception as error:  # a parser's own defect is still no figure, never a number
        raise CaseFailed(f"parser failed ({type(error).__name__}: {error}): {shown}") from None
    if not parsed:
        raise CaseFailed(f"no figure: {shown}")
    series = {}
    for name, values in parsed.items():
        values = [float(v) for v in (values if isinstance(values, (list, tuple)) else [values])]
        if not values or not all(math.isfinite(v) for v in values):
            raise CaseFailed(f"no finite figure for {name}: {shown}")
        series[name] = values
    return series


def run_case(case, ctx, runs, shared=None, log=sys.stderr):
    """Result of `runs` repetitions of `case`. `shared` (a dict kept across cases) lets a
    Command marked shared be served from the same repetition's run of an earlier case."""
    result, meter = Result(case), hostload.Meter()
    if case.repeats_inside:
        runs = 1
    try:
        if case.prepare:
            case.prepare(ctx)
        for repetition in range(runs):
            before = {name: len(result.samples.get(name, [])) for name in (case.a, case.b) if name}
            for command in case.commands(ctx):
                key = (tuple(map(str, command.argv)), repetition)
                if command.shared and shared is not None and key in shared:
                    output, run_meter = shared[key]
                else:
                    run_meter = hostload.Meter()
                    output = run_meter.measure(lambda: execute(command))
                    if command.shared and shared is not None:
                        shared[key] = (output, run_meter)
                meter.add(run_meter)
                record = {"argv": output.argv, "status": output.status, "seconds": round(output.seconds, 3),
                          "timed_out": output.timed_out, "load": run_meter.record()}
                result.runs.append(record)
                record["figures"] = got = figures(command, output)
                for name, values in got.items():
                    result.samples.setdefault(name, []).extend(values)
                print(f"  {case.name} {repetition + 1}/{runs}: "
                      + ", ".join(f"{name} {values[-1]:.4g}" for name, values in got.items())
                      + f" ({output.seconds:.1f} s)", file=log, flush=True)
            missing = [name for name, count in before.items() if len(result.samples.get(name, [])) <= count]
            if missing:
                raise CaseFailed(f"repetition {repetition + 1} gave no {', '.join(missing)}")
    except CaseFailed as error:
        result.error = str(error)
        print(f"  {case.name} FAILED: {error}", file=log, flush=True)
    except Exception as error:  # a prepare or commands() that broke: the case failed, the rest runs on
        result.error = f"{type(error).__name__}: {error}"
        print(f"  {case.name} FAILED: {result.error}", file=log, flush=True)
    result.load = meter.record() if meter.wall else {}
    return result
