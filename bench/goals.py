"""bench/goals.toml read into Goal records, checked once so that a typo fails at start, not
after ten minutes of runs."""
import dataclasses
import pathlib
import tomllib

PATH = pathlib.Path(__file__).with_name("goals.toml")
COMPARES = ("ratio_max", "value_max", "value_min")


@dataclasses.dataclass(frozen=True)
class Goal:
    key: str
    goal: float
    compare: str
    unit: str
    issue: str
    where: str
    note: str
    judged: bool = True
    bound_by: str = ""
    judged_by: str = ""

    @property
    def is_ratio(self):
        return self.compare == "ratio_max"

    def describe(self):
        """The goal as the table shows it, e.g. "A/B <= 1.5" or "<= 50 ms"."""
        sign = ">=" if self.compare == "value_min" else "<="
        if self.is_ratio:
            return f"A/B {sign} {self.goal:g}"
        return f"{sign} {self.goal:g} {self.unit}"


def load(path=PATH):
    with open(path, "rb") as f:
        tables = tomllib.load(f)
    goals = {}
    fields = {field.name for field in dataclasses.fields(Goal)} - {"key"}
    for key, table in tables.items():
        unknown = set(table) - fields
        if unknown:
            raise ValueError(f"{path}: [{key}] has unknown fields {sorted(unknown)}")
        try:
            goal = Goal(key=key, **table)
        except TypeError as error:  # a missing field
            raise ValueError(f"{path}: [{key}]: {error}") from None
        if goal.compare not in COMPARES:
            raise ValueError(f"{path}: [{key}] compare must be one of {COMPARES}")
        goals[key] = goal
    return goals
