"""scripts/bench: every performance figure, repeated, with its spread and a verdict (issue 43).
See docs/performance.md."""
