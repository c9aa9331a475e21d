"""The month kinds' early-outs and the kept log that grows step by step agree with the plain
tests on a real run.

A short cut of a generator month whose drivers carry every kind runs in `rules` mode; every
time a kind says some steps cannot change its counters (`Kind.unchanged_by`), its own test is
run on the plain log with those steps and must give exactly the counters it kept, and every
kept whole log (grown from the last step's) must read the same takes, intervals and day
figures as a plain `StepLog` of the same steps.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from agents.app.runner import run_scenario
from memory.grown_log import KeptLog
from memory.rule_progress import RuleProgress
from sim.official.steps import StepLog
from sim.official.timebase import DAY
from sim.preferences.kinds import REGISTRY
from sim.preferences.kinds.base import Kind
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_early_outs_and_grown_logs_agree_with_the_plain_tests(tmp_path):
    sc = load_scenario(ROOT / "scenarios/month-rules.toml").with_overrides(
        scenario={"days": 3}, drivers={"count": 2}, memory={"mode": "bounded"})
    current: list[RuleProgress] = []
    fired: Counter = Counter()
    logs = [0]
    mp = pytest.MonkeyPatch()

    def within(name):
        f = getattr(RuleProgress, name)

        def g(self, *a, **kw):
            current.append(self)
            try:
                return f(self, *a, **kw)
            finally:
                current.pop()
        return g

    for name in ("extra_for_steps", "states", "delay_charges"):
        mp.setattr(RuleProgress, name, within(name))

    def checked(kind):
        f = kind.unchanged_by

        def g(self, base, steps, cargo):
            got = f(self, base, steps, cargo)
            if got and steps:
                rp = current[-1]
                spec = next(s for s in rp.rules if s.rule is self)
                # a what-if's steps follow the whole log; newly logged ones follow those
                # the kept counters were tested on
                done = next((i for i, s in enumerate(rp.steps) if s is steps[0]),
                            len(rp.steps))
                plain = StepLog((*rp.steps[:done], *steps), dict(cargo))
                assert self.violations(plain, rp.ctx(spec)) == base, (self.name, steps)
                fired[self.name] += 1
            return got
        return g

    full = RuleProgress._full

    def checked_full(self):
        log = full(self)
        if isinstance(log, KeptLog):
            plain = StepLog(log.steps, self.cargo)
            assert log.takes == plain.takes
            assert log.rest_intervals == plain.rest_intervals
            assert log.active_intervals == plain.active_intervals
            for d in range(log.end // DAY + 2):
                assert log.active_minutes(d) == plain.active_minutes(d)
                assert log.day_rest(d) == plain.day_rest(d)
            logs[0] += 1
        return log

    for kind in REGISTRY.values():
        if kind.unchanged_by is not Kind.unchanged_by:  # the kinds with an early-out
            mp.setattr(kind, "unchanged_by", checked(kind))
    mp.setattr(RuleProgress, "_full", checked_full)
    try:
        run_scenario(sc, tmp_path)
    finally:
        mp.undo()
    # the early-outs fired for the month kinds, often enough to mean something
    assert sum(fired.values()) > 200, fired
    assert len(fired) >= 5, fired
    assert logs[0] > 100

