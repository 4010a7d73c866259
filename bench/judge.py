"""A case's samples against its goal: the statistics and the verdict of one table row.

The interval judged is that of the ratio of medians for a ratio goal, else that of A's median.
A figure that is not judged (judged = false in goals.toml) is printed with its interval but
never counted as a meet or a miss.
"""
from bench import stats


def judge(result, goal):
    """Everything the table and the JSON show of a case that produced its samples."""
    case = result.case
    a = result.samples[case.a]
    row = {"a_median": stats.median(a), "min": stats.minimum(a), "iqr": stats.iqr(a), "n": len(a)}
    if case.b:
        b = result.samples[case.b]
        row.update(b_median=stats.median(b), n_b=len(b), estimate=row["a_median"] / stats.median(b),
                   interval=stats.ratio_interval(a, b))
    else:
        row.update(b_median=None, estimate=row["a_median"], interval=stats.median_interval(a))
    if not goal.judged:
        row["verdict"] = "printed"
        if goal.bound_by:
            row["verdict"] += f" (bound by {goal.bound_by})"
    else:
        row["verdict"] = stats.verdict(row["interval"], goal.goal, goal.compare)
    return row


def check_shape(case, goal):
    """A case's series must fit its goal: a ratio needs B, a value goal must not have one."""
    if goal.is_ratio != bool(case.b):
        kind = "a ratio goal needs series B" if goal.is_ratio else "a value goal takes series A alone"
        raise ValueError(f"case {case.name}: {kind} (goal {goal.key}, {goal.compare})")
