"""scripts/bench's statistics and harness, without carouseld or a VM (fake commands with tiny
timeouts). Run from the repository's root: python3 -m unittest discover -s tests/bench"""
import io
import pathlib
import subprocess
import sys
import tempfile
import unittest

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))

from bench import goals, judge, stats  # noqa: E402
from bench.case import Case, Command, Context, NoFigure  # noqa: E402
from bench.cases import all_cases  # noqa: E402
from bench.runner import run_case  # noqa: E402
from bench.samples import parse_samples, samples_parser  # noqa: E402

CTX = Context(binary=pathlib.Path("/nonexistent"), repo=REPO, cache=pathlib.Path(tempfile.gettempdir()))


def last_number(output):
    """The kind of parser that once passed a timed-out run: the last number printed."""
    words = [w for w in output.stdout.split() if w.replace(".", "", 1).isdigit()]
    if not words:
        raise NoFigure("no number")
    return {"A": float(words[-1])}


def run(argv, parse=last_number, timeout=5.0, ok_status=(0,), runs=3, b=None, shared=None, name="fake"):
    case = Case(name=name, goal=name, where="host", a="A", b=b,
                commands=lambda ctx: [Command(argv, parse, timeout, ok_status=ok_status, shared=shared is not None)])
    return run_case(case, CTX, runs, shared=shared, log=io.StringIO())


class Stats(unittest.TestCase):
    def test_median_minimum_iqr(self):
        values = [5.0, 1.0, 4.0, 2.0, 3.0]
        self.assertEqual(stats.median(values), 3.0)
        self.assertEqual(stats.minimum(values), 1.0)
        self.assertEqual(stats.iqr(values), 2.0)  # quartiles 2 and 4, interpolated as numpy does
        self.assertEqual(stats.iqr([7.0]), 0.0)

    def test_constant_samples_give_a_point_interval(self):
        self.assertEqual(stats.ratio_interval([2.0] * 5, [1.0] * 5), (2.0, 2.0))
        self.assertEqual(stats.median_interval([3.5] * 5), (3.5, 3.5))

    def test_known_bootstrap_is_reproducible(self):
        a, b = [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 2.1, 1.9, 2.2, 2.0]
        low, high = stats.ratio_interval(a, b)
        self.assertEqual((low, high), stats.ratio_interval(a, b))  # fixed seed: same samples, same table
        self.assertLessEqual(low, stats.median(a) / stats.median(b))
        self.assertGreaterEqual(high, stats.median(a) / stats.median(b))
        # With 5 runs a resampled median is the lowest run 5.8 % of the time (3 draws of 5 or
        # more), so the 90 % interval reaches the extremes: 1/2.0 and 5/2.1 here.
        self.assertEqual(low, 0.5)
        self.assertAlmostEqual(high, 5 / 2.1)
        self.assertEqual(stats.median_interval(a), (1.0, 5.0))
        self.assertEqual(stats.median_interval(a * 4), (2.0, 4.0))  # 20 runs: narrower

    def test_a_zero_in_b_is_no_ratio(self):
        with self.assertRaises(ValueError):
            stats.ratio_interval([1.0], [0.0, 1.0])

    def test_verdicts(self):
        self.assertEqual(stats.verdict((0.8, 0.95), 1.0, "ratio_max"), "meets")
        self.assertEqual(stats.verdict((1.05, 1.2), 1.0, "ratio_max"), "misses")
        self.assertEqual(stats.verdict((0.9, 1.1), 1.0, "ratio_max"), "inconclusive")
        self.assertEqual(stats.verdict((0.0, 0.0), 0.0, "value_max"), "meets")  # no late frame
        self.assertEqual(stats.verdict((0.1, 0.4), 0.0, "value_min"), "meets")
        self.assertEqual(stats.verdict((-0.4, -0.1), 0.0, "value_min"), "misses")
        self.assertEqual(stats.verdict((-0.1, 0.2), 0.0, "value_min"), "inconclusive")


class Harness(unittest.TestCase):
    def test_a_timed_out_run_fails_and_is_never_read_as_zero(self):
        result = run(["sh", "-c", "echo 0; sleep 5"], timeout=0.3)
        self.assertTrue(result.failed)
        self.assertIn("timed out", result.error)
        self.assertEqual(result.samples, {})

    def test_a_run_that_exits_0_without_a_figure_fails(self):
        result = run(["true"])
        self.assertTrue(result.failed)
        self.assertIn("no figure", result.error)

    def test_a_run_that_exits_non_zero_fails_even_with_a_figure(self):
        result = run(["sh", "-c", "echo 1.5; exit 3"])
        self.assertTrue(result.failed)
        self.assertIn("exited 3", result.error)

    def test_an_accepted_status_is_a_figure_to_judge(self):
        result = run(["sh", "-c", "echo 60.0; exit 1"], ok_status=(0, 1))
        self.assertFalse(result.failed, result.error)
        self.assertEqual(result.samples["A"], [60.0] * 3)

    def test_a_missing_command_fails(self):
        self.assertTrue(run(["/nonexistent/carouseld"]).failed)

    def test_runs_interleave_a_and_b(self):
        log = pathlib.Path(tempfile.mkdtemp()) / "order"
        parse_a = lambda output: {"A": 1.0}  # noqa: E731
        parse_b = lambda output: {"B": 2.0}  # noqa: E731
        case = Case(name="pair", goal="pair", where="host", a="A", b="B", commands=lambda ctx: [
            Command(["sh", "-c", f"echo A >> {log}"], parse_a, 5), Command(["sh", "-c", f"echo B >> {log}"], parse_b, 5)])
        result = run_case(case, CTX, 3, log=io.StringIO())
        self.assertFalse(result.failed, result.error)
        self.assertEqual(log.read_text().split(), ["A", "B"] * 3)
        row = judge.judge(result, goals.Goal("pair", 1.0, "ratio_max", "s", "", "host", ""))
        self.assertEqual((row["estimate"], row["verdict"]), (0.5, "meets"))

    def test_a_repetition_without_b_fails(self):
        result = run(["echo", "1"], b="B")
        self.assertTrue(result.failed)
        self.assertIn("gave no B", result.error)

    def test_a_shared_command_runs_once_a_repetition(self):
        counter = pathlib.Path(tempfile.mkdtemp()) / "count"
        shared = {}
        for name in ("first", "second"):
            self.assertFalse(run(["sh", "-c", f"echo x >> {counter}; echo 2.5"], shared=shared, name=name).failed)
        self.assertEqual(len(counter.read_text().split()), 3)

    def test_load_is_recorded(self):
        # A run that lasts until /proc/stat's CPU total has moved: a shorter one (under a tick)
        # has no busy figure, which record() gives as None rather than a made-up 0.
        until_a_tick = "first = open('/proc/stat').readline()\nwhile open('/proc/stat').readline() == first: pass\nprint(1)"
        load = run([sys.executable, "-c", until_a_tick]).load
        self.assertTrue(0 <= load["busy"] <= 1 and load["loadavg_1min"] >= 0, load)

    def test_a_run_shorter_than_a_tick_has_no_busy_figure(self):
        from bench.hostload import Meter
        self.assertIsNone(Meter().record()["busy"])


class SamplesFile(unittest.TestCase):
    def test_parses_series(self):
        self.assertEqual(parse_samples("A 1.5\nB 2\n# note\nA 1.7\n", ["A", "B"]), {"A": [1.5, 1.7], "B": [2.0]})

    def test_timeout_missing_series_empty_and_junk_fail(self):
        for text in ("A 1\nB timeout\n", "A 1\n", "", "\n\n", "A 1\nB nan\n", "A 1 2\nB 1\n"):
            with self.subTest(text=text), self.assertRaises(NoFigure):
                parse_samples(text, ["A", "B"])

    def test_a_timeout_fails_only_the_cases_that_read_it(self):
        # One VM boot serves several cases: C's timeout is no figure for C, not for A and B.
        self.assertEqual(parse_samples("A 1\nB 2\nC timeout\n", ["A", "B"]), {"A": [1.0], "B": [2.0]})
        with self.assertRaises(NoFigure):
            parse_samples("A 1\nB 2\nC timeout\n", ["C"])

    def test_a_vm_run_through_the_runner(self):
        good = run(["sh", "-c", "printf 'A 3\\nB 2\\n' > {result}"], parse=samples_parser("A", "B"), b="B")
        self.assertFalse(good.failed, good.error)
        self.assertEqual(good.samples, {"A": [3.0] * 3, "B": [2.0] * 3})
        timed_out = run(["sh", "-c", "printf 'A 3\\nB timeout\\n' > {result}"], parse=samples_parser("A", "B"), b="B")
        self.assertIn("B timed out", timed_out.error)
        no_file = run(["true"], parse=samples_parser("A"))
        self.assertIn("no result file", no_file.error)


class Goals(unittest.TestCase):
    def test_every_case_has_a_goal_of_its_shape(self):
        table = goals.load()
        for case in all_cases():
            judge.check_shape(case, table[case.goal])
        self.assertEqual(table["vm-emphasis-vs-fbi"].bound_by, "emulator")
        self.assertFalse(table["vm-planes-vs-composed"].judged)

    def test_list_and_runs_minimum(self):
        listed = subprocess.run([sys.executable, REPO / "scripts/bench", "--list"], capture_output=True, text=True)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        for key in goals.load():
            self.assertIn(key, listed.stdout)
        too_few = subprocess.run([sys.executable, REPO / "scripts/bench", "--runs", "3"], capture_output=True, text=True)
        self.assertEqual(too_few.returncode, 2)


if __name__ == "__main__":
    unittest.main()
