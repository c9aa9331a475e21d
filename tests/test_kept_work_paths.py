"""The work a run keeps instead of redoing gives what redoing it gives, on a real run.

One short cut of a generator month whose drivers carry every kind runs in `bounded` mode, and
on the way every kept answer is checked against the plain one:
- K9's deadhead sums continued from a kept log (`_scoped_sums`) against its test on the plain
  log of the same steps;
- prompt tokens counted line by line with a memo (`LineCounts`, and a view's lines summed
  without joining them) against the tokenizer's count of the whole text, for every view and
  input an agent is called with;
- a cargo's route kept while the driver stands still against the route worked out afresh;
- a cargo's scorer record kept for the run against one built afresh.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.app.runner import run_scenario
from agents.llm.calls import AgentCaller, LineCounts
from agents.llm.prompts import inputs_text
from memory.memory_agent import MemoryAgent
from memory.tokens import TokenCounter
from sim.official.steps import StepLog
from sim.preferences.kinds import REGISTRY
from sim.preferences.kinds.base import SUMS_CONTINUE
from sim.scenario import load_scenario
from sim.world.step_log import StepRecorder, cargo_record

ROOT = Path(__file__).resolve().parent.parent


def test_kept_work_agrees_with_plain_work(tmp_path):
    sc = load_scenario(ROOT / "scenarios/month-rules.toml").with_overrides(
        scenario={"days": 3}, drivers={"count": 2}, memory={"mode": "bounded"})
    mp = pytest.MonkeyPatch()
    fired = {"k9": 0, "tokens": 0, "routes": 0, "records": 0}

    k9 = REGISTRY["max_total_deadhead_km"]
    violations = k9.violations

    def k9_checked(self, log, ctx):
        got = violations(self, log, ctx)
        if log.grown_from() is not None:
            plain = StepLog(log.steps, log.cargo)
            total = plain.deadhead_km([s for s in plain.steps if ctx.step_in_scope(s)])
            assert got["deadhead_km"] == total
            assert type(got["deadhead_km"]) is type(total)
            fired["k9"] += 1
        return got

    plain_count = TokenCounter()
    call = AgentCaller.call

    def call_checked(self, prompt, view, inputs, ctx, deterministic, validate):
        memo = LineCounts(plain_count)
        text = view if isinstance(view, str) else view.render()
        for t in (text, inputs_text(inputs)):
            assert memo(t) == plain_count(t), t
            assert memo(t) == plain_count(t)  # again, from the memo
        if not isinstance(view, str):  # a view's lines summed, not joined
            assert view.tokens(memo) == view.tokens(plain_count) == plain_count(text)
        fired["tokens"] += 1
        return call(self, prompt, view, inputs, ctx, deterministic, validate)

    candidates = MemoryAgent.candidates

    def candidates_checked(self, obs, records=None):
        out = candidates(self, obs, records)
        for c in out:
            net, empty = c.cargo.route(self.geo, obs.position, obs.cost_per_km)
            assert (c.est_net, c.empty_km) == (round(net, 1), round(empty, 1))
            fired["routes"] += 1
        return out

    record_of = StepRecorder.record_of

    def record_checked(self, c):
        got = record_of(self, c)
        assert got == cargo_record(c, self.offset)
        fired["records"] += 1
        return got

    mp.setattr(k9, "violations", k9_checked)
    mp.setattr(AgentCaller, "call", call_checked)
    mp.setattr(MemoryAgent, "candidates", candidates_checked)
    mp.setattr(StepRecorder, "record_of", record_checked)
    try:
        run_scenario(sc, tmp_path / "run", progress=False)
    finally:
        mp.undo()
    assert fired["k9"] > 0 or not SUMS_CONTINUE
    for what in ("tokens", "routes", "records"):
        assert fired[what] > 0, fired
