"""A view's tokens summed line by line, each line's count kept (`TokenCounter.total`), equal
the count of its whole printed text, on every view a real run counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.app.runner import run_scenario
from memory.tokens import TokenCounter
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_line_sums_equal_whole_text_counts(tmp_path):
    sc = load_scenario(ROOT / "scenarios/month-rules.toml").with_overrides(
        scenario={"days": 3}, drivers={"count": 3}, memory={"mode": "rules"})
    seen = {"views": 0, "lines_kept": 0}
    total = TokenCounter.total

    def checked(self, lines):
        n = total(self, lines)
        assert n == self("".join(lines)), lines
        seen["views"] += 1
        seen["lines_kept"] = max(seen["lines_kept"], len(self._lines))
        return n

    mp = pytest.MonkeyPatch()
    mp.setattr(TokenCounter, "total", checked)
    try:
        run_scenario(sc, tmp_path)
    finally:
        mp.undo()
    assert seen["views"] > 60
    assert seen["lines_kept"] > 50  # the line path ran (not only the whole-text fallback)


def test_a_line_starting_with_white_space_is_counted_with_its_neighbour():
    c = TokenCounter()
    lines = ["## rules\n", "\n", "  indented\n", "plain line\n"]
    assert c.total(lines) == c("".join(lines))
