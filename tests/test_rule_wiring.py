"""Competition rules reach the agents in the generator world
(agents/app/runner.wire_preference_progress).

The run is scenarios/month-rules.toml cut to 5 drivers x 3 days, each driver carrying one drawn
forbidden_cargo_category rule (K5). Memory off is the greedy baseline, blind to the rules; the
`bounded` memory mode must now see them, fed from the world's own step records and cargo.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.app.runner import build_run, run_scenario
from sim.scenario import Scenario, load_scenario
from sim.world.step_log import chained, to_minute

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
K5 = "forbidden_cargo_category"


def short(mode: str, fixed: tuple = ()) -> Scenario:
    base = load_scenario(SCENARIOS / "month-rules.toml")
    return base.with_overrides(scenario={"days": 3.0},
                               drivers={"count": 5, "preferences_per_driver": 1,
                                        "preference_kinds": (K5,), "fixed": fixed},
                               memory={"mode": mode})


def heavy_fines(amount: float) -> tuple:
    """The drawn drivers and their K5 rules, fixed, with a fine no haul is worth paying."""
    world, _ = build_run(short("off"))
    return tuple(dataclasses.replace(s, rules=tuple(
        dataclasses.replace(r, penalty_amount=amount, penalty_cap=None) for r in s.rules))
        for s in world.specs)


def forbidden_orders(out: Path) -> tuple[int, float]:
    rows = pq.read_table(out / "preferences.parquet").to_pylist()
    assert rows
    assert all(r["kind"] == K5 and r["scored"] for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    return sum(json.loads(r["counters"])["violations"] for r in rows), summary["penalty"]


@pytest.fixture(scope="module")
def heavy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, float]]:
    fixed = heavy_fines(2000.0)
    out = {}
    for mode in ("off", "bounded"):
        d = tmp_path_factory.mktemp(mode)
        run_scenario(short(mode, fixed), d)
        out[mode] = forbidden_orders(d)
    return out


def test_rule_aware_agents_avoid_forbidden_categories(heavy) -> None:
    off_n, off_pen = heavy["off"]
    rules_n, rules_pen = heavy["bounded"]
    assert off_n > 0, "the baseline must take forbidden loads, or the test shows nothing"
    assert off_pen == off_n * 2000.0
    assert rules_n < off_n
    assert rules_pen < off_pen
    assert rules_n == 0  # with a 2000 yuan fine no take is worth it to a rule-aware agent


def test_rule_progress_fed_every_record_and_log_unchanged() -> None:
    """Every closed record reaches the driver's RuleProgress, in order, before the next
    decision; closing a step before the decision leaves the official log chained."""
    world, services = build_run(short("bounded"))
    assert services is not None
    seen: dict[str, list[bool]] = {}
    rec = world.step_recorder
    assert rec is not None
    for d in world.drivers:
        rp = services.memories[d.spec.driver_id].rules
        assert rp is not None
        assert [r.kind for r in rp.rules] == [K5]
        mem = services.memories[d.spec.driver_id]

        def step(obs, *args, inner=mem.step, rp=rp, did=d.spec.driver_id):
            # the step the driver just finished is known when its memory builds the views
            seen.setdefault(did, []).append(rp.end == to_minute(obs.now))
            return inner(obs, *args)

        mem.step = step
    world.run()
    for d in world.drivers:
        did = d.spec.driver_id
        rp = services.memories[did].rules
        records = rec.records(did)
        assert chained(records)
        assert len(rp.steps) == len(records)
        assert [s.step_end for s in rp.steps] == [
            r["result"]["simulation_progress_minutes"] for r in records]
        taken = {r["result"]["cargo_id"] for r in records
                 if r["action"]["action"] == "take_order" and r["result"]["accepted"]}
        assert taken <= set(rp.cargo)  # every take was seen with its scorer facts
        assert seen[did]
        assert all(seen[did])


def test_off_mode_unaware() -> None:
    world, services = build_run(short("off"))
    assert services is None
    assert world.step_recorder is not None
    assert world.step_recorder.listeners == []
