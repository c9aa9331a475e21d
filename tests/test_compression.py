"""Compressed memory: fires when the threshold is crossed (not every step), keeps a month's
main-decision prompts flat while `full` grows, and rejects digests that invent things."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.calls import AgentCaller, CallContext
from agents.compressor_agent import CompressorAgent
from agents.runner import build_run, run_scenario
from agents.testing import ScriptedModel
from memory.tokens import TokenCounter
from sim.actions import Observation
from sim.geo import Point
from sim.recorder import read_events
from sim.scenario import Scenario


def test_compression_fires_exactly_at_threshold(tmp_path: Path, smoke: Scenario) -> None:
    sc = smoke.with_overrides(memory={"mode": "compressed", "compress_threshold": 150},
                              scenario={"days": 2.0})
    world, services = build_run(sc, tmp_path)
    world.run()
    steps = pq.read_table(tmp_path / "steps.parquet").to_pandas()
    total = 0
    for driver_id, mem in services.memories.items():
        facts = sum(len(log) for log in mem.logs.values())
        rounds = len(mem.stats.rounds)
        # one round per threshold crossing, never more, at most one crossing pending
        assert rounds <= facts // 150
        assert facts - sum(mem.marks.values()) < 150 + 60  # what a step can add at most
        assert mem.stats.calls == 4 * rounds  # one call per agent view per round
        mine = steps[steps.driver_id == driver_id]
        assert mine.compress_calls.sum() == mem.stats.calls
        total += rounds
    assert total > 0
    assert (steps.compress_calls > 0).mean() < 0.2  # not on every step
    assert set(steps.compress_calls.unique()) <= {0, 4}


def test_month_main_decision_tokens_bounded(tmp_path: Path, smoke: Scenario) -> None:
    base = smoke.with_overrides(scenario={"days": 31.0}, drivers={"count": 3})
    by_mode = {}
    for mode in ("compressed", "full"):
        run_scenario(base.with_overrides(memory={"mode": mode}), tmp_path / mode)
        s = pq.read_table(tmp_path / mode / "steps.parquet").to_pandas()
        by_mode[mode] = s.groupby("day").main_decision_prompt_tokens.mean()
    c, f = by_mode["compressed"], by_mode["full"]
    print(f"\nmain-decision tokens/step day 2 -> day 30: compressed {c.loc[1]:.0f} -> "
          f"{c.loc[29]:.0f}, full {f.loc[1]:.0f} -> {f.loc[29]:.0f}")
    assert c.loc[29] <= 1.3 * c.loc[1]
    assert f.loc[29] > 3 * f.loc[1]


@pytest.fixture
def memory_with_history(tmp_path: Path, smoke: Scenario):
    world, services = build_run(smoke.with_overrides(memory={"mode": "compressed"}), tmp_path)
    world.run()
    mem = max(services.memories.values(), key=lambda m: len(m.market.grids))
    obs = Observation(mem.spec.driver_id, 1439.0, 1440.0, Point(mem.spec.lat, mem.spec.lng),
                      mem.spec.cost_per_km, 0.0, 0, 0.0, 0.0, 10)
    return mem, obs


def test_digest_naming_unseen_grid_or_cargo_is_rejected(memory_with_history) -> None:
    mem, obs = memory_with_history
    views = mem._rules_views(obs)
    real_cell = next(iter(mem.market.grids))
    real_cargo = next(iter(mem.cargo.records))
    events: list = []
    replies = [
        json.dumps({"bullets": [f"search {real_cell}", "avoid 8541ffffffffff0 (low yield)"]}),
        json.dumps({"bullets": [f"take {real_cargo}", "take C9999999 now"]}),
        json.dumps({"bullets": [f"search {real_cell}", "go to (21.000,115.000)"]}),
        json.dumps({"bullets": [f"search {real_cell} first", f"take {real_cargo}"]}),
    ]
    caller = AgentCaller("llm", ScriptedModel(replies), TokenCounter(), lambda r: None)
    comp = CompressorAgent(caller, lambda: CallContext(mem.spec.driver_id, 1, 0.0, "compressed"),
                           lambda ctx, agent, bad: events.append(bad))
    from memory.digest import extractive

    for view, bad in ((views["search"], "8541ffffffffff0"), (views["cargo_analyst"], "C9999999"),
                      (views["search"], "(21.000,115.000)")):
        out = comp.compress(view, mem)
        assert out == extractive(view)  # rejected: the extractive digest stands in
        assert bad in events[-1]
    good = comp.compress(views["main_decision"], mem)
    assert good == [f"search {real_cell} first", f"take {real_cargo}"]
    assert len(events) == 3


def test_rejections_are_events(tmp_path: Path, smoke: Scenario) -> None:
    from agents.testing import ScriptedServer

    lie = json.dumps({"bullets": ["grid 85411ffffffffff is hot", "take C7777777"]})

    def reply(body: dict):
        name = body.get("response_format", {}).get("json_schema", {}).get("name", "")
        return (200, lie) if name == "compressor" else (500, "only compression here")

    with ScriptedServer(reply) as srv:
        sc = smoke.with_overrides(
            scenario={"days": 0.5}, drivers={"count": 1},
            memory={"mode": "compressed", "compress_threshold": 60},
            llm={"backend": "llm", "base_url": srv.base_url, "max_retries": 0,
                 "response_format": "json_schema"})
        run_scenario(sc, tmp_path)
    ev = read_events(tmp_path).to_pandas()
    rejected = ev[ev.kind == "compression_rejected"]
    assert len(rejected) > 0
    assert all("C7777777" in json.loads(d)["ungrounded"] for d in rejected.detail)
