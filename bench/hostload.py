"""How busy the host was while a case ran, printed beside its figures: on a shared 2-core
machine a slow figure next to a busy host is a different finding from a slow figure on an idle
one. Busy is over all CPUs (/proc/stat), and "own" is the part our runs used themselves
(their CPU time over the wall time of every CPU), so busy minus own is everyone else's."""
import os
import resource
import time


def _cpu_ticks():
    """(total, idle) jiffies of all CPUs; iowait counts as idle (nothing was running)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal; guest time is already inside user.
    return sum(values[:8]), values[3] + values[4]


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


class Meter:
    """Accumulates the runs of a case: meter.measure(function) for each, then record()."""

    def __init__(self):
        self.total = self.idle = 0
        self.own = self.wall = 0.0
        self.loadavg = None

    def measure(self, function):
        total, idle, own, wall = _cpu_ticks() + (_children_cpu(), time.monotonic())
        try:
            return function()
        finally:
            end_total, end_idle = _cpu_ticks()
            self.total += end_total - total
            self.idle += end_idle - idle
            self.own += _children_cpu() - own
            self.wall += time.monotonic() - wall
            self.loadavg = _loadavg()

    def record(self):
        cpus = os.cpu_count() or 1
        return {
            "loadavg_1min": self.loadavg,
            "busy": 1 - self.idle / self.total if self.total else None,
            "own": min(1.0, self.own / (self.wall * cpus)) if self.wall else None,
        }

    def add(self, other):
        """Counts another meter's runs as this one's (a shared run read by a second case)."""
        self.total += other.total
        self.idle += other.idle
        self.own += other.own
        self.wall += other.wall
        self.loadavg = other.loadavg
