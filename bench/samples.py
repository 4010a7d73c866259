"""The samples file a VM run writes: one `SERIES VALUE` a line, or `SERIES timeout` when that
measurement did not finish. A series may have several lines (one boot, several runs).

The parser is strict because the file crosses a VM boundary: an empty file (the guest never
got there), a series missing, or a `timeout` all FAIL the case instead of becoming numbers.
"""
import math

from bench.case import NoFigure


def parse_samples(text, required):
    """{series: [values]} from a samples file's text; raises NoFigure as above."""
    series = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2:
            raise NoFigure(f"samples line {number} is not 'SERIES VALUE': {line!r}")
        name, value = fields
        if value == "timeout":
            # Only a series this case reads fails it: one boot serves several cases.
            if name in required:
                raise NoFigure(f"{name} timed out (samples line {number})")
            continue
        try:
            figure = float(value)
        except ValueError:
            figure = math.nan
        if not math.isfinite(figure):  # "nan" and "inf" parse as floats but are no figures
            raise NoFigure(f"samples line {number}: {value!r} is not a number")
        series.setdefault(name, []).append(figure)
    if not series:
        raise NoFigure("the samples file is empty")
    missing = [name for name in required if name not in series]
    if missing:
        raise NoFigure(f"no samples of {', '.join(missing)}")
    return series


def samples_parser(*required):
    """A Command parser for a run that writes its samples to "{result}"."""
    return lambda output: parse_samples(output.result_text(), required)
