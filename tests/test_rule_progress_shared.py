"""The shared what-if path of RuleProgress (kept contexts, tails, day figures, per-step counts)
gives every answer the unshared reference gives, on the calls a real run makes.

A short cut of a generator month whose drivers carry every kind is run in `bounded` mode with
every outside call on its RuleProgress objects recorded; the calls are then replayed on two
fresh objects per driver, one sharing work (the default) and one re-reading the log from
scratch each time, and every result is compared, exactly, with each other and with what the
run itself got.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.app.runner import run_scenario
from memory.rule_progress import RuleProgress
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
# what the agents and the runner call on a driver's rule progress
OUTSIDE = ("add_cargo", "add_record", "on_step", "states", "extra_by_rule", "extra_penalty",
           "wait_saving", "reposition_extra", "todo", "liability", "waive", "marginal_fine",
           "pace_empty_km")  # the memory's pacing price: replayed so both objects carry it
WHAT_IF = {"extra_by_rule", "extra_penalty", "wait_saving", "reposition_extra"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[list, list]:
    """(calls, results) of a 4-day, 3-driver cut of scenarios/month-rules.toml (every kind
    once per driver) in bounded mode."""
    sc = load_scenario(ROOT / "scenarios/month-rules.toml").with_overrides(
        scenario={"days": 4}, drivers={"count": 3}, memory={"mode": "bounded"})
    calls: list = []  # (driver no, method, args, kwargs)
    results: list = []
    ids: dict[int, int] = {}
    depth = [0]
    mp = pytest.MonkeyPatch()
    init = RuleProgress.__init__

    def record_init(self, rules, **kw):
        rules = tuple(rules)
        ids[id(self)] = len(ids)
        calls.append((ids[id(self)], "__init__", (rules,), kw))
        results.append(None)
        init(self, rules, **kw)

    def recording(name):
        f = getattr(RuleProgress, name)

        def g(self, *a, **kw):
            outside = depth[0] == 0
            depth[0] += 1
            try:
                r = f(self, *a, **kw)
            finally:
                depth[0] -= 1
            if outside:
                calls.append((ids[id(self)], name, a, kw))
                results.append(r)
            return r
        return g

    mp.setattr(RuleProgress, "__init__", record_init)
    for name in OUTSIDE:
        mp.setattr(RuleProgress, name, recording(name))
    try:
        run_scenario(sc, tmp_path_factory.mktemp("run"))
    finally:
        mp.undo()
    return calls, results


def test_shared_work_answers_every_call_as_the_unshared_reference(recorded):
    calls, results = recorded
    shared: dict[int, RuleProgress] = {}
    plain: dict[int, RuleProgress] = {}
    compared = nonzero = 0
    for (i, name, a, kw), got in zip(calls, results, strict=True):
        if name == "__init__":
            shared[i] = RuleProgress(*a, **kw)
            plain[i] = RuleProgress(*a, **kw, share_work=False)
            continue
        s = getattr(shared[i], name)(*a, **kw)
        p = getattr(plain[i], name)(*a, **kw)
        assert s == p, (i, name, a)
        assert s == got, (i, name, a)
        if name in WHAT_IF:
            compared += 1
            nonzero += bool(s)
    # the run priced enough what-ifs, and enough of them carried a fine, to mean something
    assert compared > 1000
    assert nonzero > 100
    assert len(shared) == 3
