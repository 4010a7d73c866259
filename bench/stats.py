"""The statistics behind a verdict: medians, spread, and bootstrap intervals.

Medians, not means: a shared host adds rare long stalls that a mean would spread over every
figure. The interval is a percentile bootstrap, because with 5 runs there is no distribution to
assume; its seed is fixed so that the same samples always print the same table (a JSON file of
samples can be re-judged and must agree with the table it came with).
"""
import random
import statistics

RESAMPLES = 2000
LEVEL = 0.90
SEED = 43  # issue 43; any constant will do, what matters is that it never changes between runs


def median(values):
    return statistics.median(values)


def minimum(values):
    return min(values)


def iqr(values):
    """Interquartile range, quartiles interpolated between the samples (numpy's default), so
    that 5 samples give the spread of the middle three rather than a jump to the extremes."""
    if len(values) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q3 - q1


def _percentile(sorted_values, q):
    """The q-quantile of already sorted values, interpolated as iqr's quartiles are."""
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def _interval(estimates):
    estimates.sort()
    tail = (1 - LEVEL) / 2
    return _percentile(estimates, tail), _percentile(estimates, 1 - tail)


def _resample(rng, values):
    return [values[rng.randrange(len(values))] for _ in values]


def median_interval(values, resamples=RESAMPLES, seed=SEED):
    """90% bootstrap interval of the median of one series."""
    if not values:
        raise ValueError("no samples")
    rng = random.Random(seed)
    return _interval([median(_resample(rng, values)) for _ in range(resamples)])


def ratio_interval(a, b, resamples=RESAMPLES, seed=SEED):
    """90% bootstrap interval of median(a) / median(b). A and B are resampled independently:
    the runs are interleaved to share the host's conditions, not paired measurements of one
    thing, so pairing them would claim a correlation nobody measured."""
    if not a or not b:
        raise ValueError("no samples")
    if min(b) <= 0:
        raise ValueError("B has a sample <= 0: a ratio to it means nothing")
    rng = random.Random(seed)
    return _interval([median(_resample(rng, a)) / median(_resample(rng, b)) for _ in range(resamples)])


def verdict(interval, goal, compare):
    """meets when the whole interval is on the goal's side, misses when the whole interval is
    past it, inconclusive when it straddles the goal (more runs, or a quieter host, decide)."""
    low, high = interval
    if compare in ("ratio_max", "value_max"):
        if high <= goal:
            return "meets"
        return "misses" if low > goal else "inconclusive"
    if compare == "value_min":
        if low >= goal:
            return "meets"
        return "misses" if high < goal else "inconclusive"
    raise ValueError(f"unknown comparison {compare!r}")
