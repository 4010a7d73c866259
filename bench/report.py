"""What scripts/bench prints and writes: the table (a Markdown table, so that it reads in a
terminal and pastes into docs/performance.md as it is), the goal list, and the JSON of every
sample, statistic and verdict."""
import json

COLUMNS = ["case", "A median", "B median", "A/B (or A) [90%]", "min A", "IQR A", "n", "load, busy (own)",
           "goal", "verdict"]


def number(x):
    return "-" if x is None else f"{x:.4g}"


def _load(load):
    if not load or load.get("busy") is None:
        return "-"
    return f"{load['loadavg_1min']:.2f}, {load['busy']:.0%} ({load['own']:.0%})"


def row(entry):
    """One table row from an entry of rows(): a judged case, or a failed one."""
    goal, result, judged = entry["goal"], entry["result"], entry.get("stats")
    if judged is None:
        return [entry["name"], "-", "-", "-", "-", "-", "-", _load(result.load), goal.describe(), "FAILED"]
    unit = "" if goal.unit.startswith("x ") else f" {goal.unit}"
    low, high = judged["interval"]
    n = str(judged["n"]) if judged.get("n_b", judged["n"]) == judged["n"] else f"{judged['n']}/{judged['n_b']}"
    return [entry["name"], number(judged["a_median"]) + unit,
            "-" if judged["b_median"] is None else number(judged["b_median"]) + unit,
            f"{number(judged['estimate'])} [{number(low)}, {number(high)}]",
            number(judged["min"]), number(judged["iqr"]), n, _load(result.load), goal.describe(), judged["verdict"]]


def table(entries):
    lines = [COLUMNS, ["---"] * len(COLUMNS)] + [row(entry) for entry in entries]
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS))]
    return "\n".join("| " + " | ".join(cell.ljust(width) for cell, width in zip(line, widths)) + " |"
                     for line in lines)


def goal_list(goals, wired):
    out = []
    for key, goal in goals.items():
        state = "wired" if key in wired else "not wired yet"
        judged = "judged" if goal.judged else "printed" + (f", bound by {goal.bound_by}" if goal.bound_by else "")
        out.append(f"{key:36} {goal.where:8} {goal.describe():26} {goal.issue:18} {judged}; {state}")
        out.append(f"    {goal.note}" + (f" Judged instead by {goal.judged_by}." if goal.judged_by else ""))
    return "\n".join(out)


def write_json(path, header, entries, counts):
    cases = []
    for entry in entries:
        result, goal = entry["result"], entry["goal"]
        cases.append({"name": entry["name"], "where": goal.where, "goal": vars(goal), "error": result.error,
                      "samples": result.samples, "runs": result.runs, "load": result.load,
                      "stats": entry.get("stats"),
                      "verdict": "FAILED" if entry.get("stats") is None else entry["stats"]["verdict"]})
    with open(path, "w") as f:
        json.dump({**header, "cases": cases, "counts": counts}, f, indent=1, default=str)
        f.write("\n")
