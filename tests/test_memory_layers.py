"""The memory layers the ablation adds one by one (memory/modes.py Layer): each one changes
what the decisions read, on real competition runs of the shipped small market, and the lesson
an earlier run leaves prices the next run's time from its first step."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.app.compete import run_competition
from agents.app.runner import build_services
from memory.lessons import load_time_prior
from memory.modes import MODES, Layer
from memory.place_regimes import Regime, RuleRecord
from sim.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rules_sc() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "competition-rules.toml")


def _agent_memories(sc: Scenario, mode: str, tmp: Path) -> dict:
    """Run the scenario in `mode` and hand back each driver's MemoryAgent."""
    from agents.app import compete_adapter

    seen: dict = {}
    orig = compete_adapter.FreightsimAgent.__init__

    def keep(self, *a, **kw):
        orig(self, *a, **kw)
        seen.update({d: x.policy.memory for d, x in self.drivers.items()})

    compete_adapter.FreightsimAgent.__init__ = keep
    try:
        run_competition(sc.with_overrides(memory={"mode": mode}, scenario={"days": 1}),
                        tmp / mode)
    finally:
        compete_adapter.FreightsimAgent.__init__ = orig
    return seen


def test_layers_add_up_to_every_other_mode() -> None:
    assert MODES["cargo"].layers == {Layer.CARGO}
    assert MODES["cargo-market"].layers == {Layer.CARGO, Layer.MARKET}
    assert MODES["cargo-market-driver"].layers == {Layer.CARGO, Layer.MARKET, Layer.DRIVER}
    assert MODES["bounded"].layers == set(Layer)
    assert not MODES["cargo"].prices_time
    assert MODES["cargo-market"].prices_time


def test_each_layer_reaches_the_decisions(rules_sc: Scenario, tmp_path: Path) -> None:
    cargo = _agent_memories(rules_sc, "cargo", tmp_path)
    market = _agent_memories(rules_sc, "cargo-market", tmp_path)
    driver = _agent_memories(rules_sc, "cargo-market-driver", tmp_path)
    for d, m in cargo.items():
        # no market layer: nothing learnt about grids or hours, time not priced
        assert not m.market.grids
        assert m.last.state.time_price.rate == 0
        assert m.rules is None  # no driver layer: the rules are not seen
        assert market[d].market.grids  # the market layer learns the grids searched
        assert market[d].last.state.time_price.rate > 0
        assert market[d].rules is None
        assert driver[d].rules is not None  # the driver layer prices the rules
    # the rules change what the driver layer does (fines priced into takes and rests)
    assert any(x.last.state.rests or x.last.state.todo or any(
        c.fine for c in x.last.state.candidates) for x in driver.values())


def test_a_run_teaches_the_next_the_price_of_time(rules_sc: Scenario, tmp_path: Path) -> None:
    store = tmp_path / "lessons.sqlite"
    sc = rules_sc.with_overrides(memory={"mode": "bounded", "lessons": str(store)},
                                 scenario={"days": 1})
    assert load_time_prior(store) is None
    run_competition(sc, tmp_path / "first")
    prior = load_time_prior(store)
    assert prior is not None
    assert prior.rate > 0
    services = build_services(sc, None)
    assert services.time_prior == prior
    later = _agent_memories(sc, "bounded", tmp_path / "second")
    assert all(m.driver.prior_rate == prior.rate for m in later.values())
    # a mode without the lessons layer starts from the default guess
    blind = _agent_memories(sc, "cargo-market-driver", tmp_path / "third")
    assert all(m.driver.prior_rate != prior.rate for m in blind.values())


def test_rule_plans_survive_a_state_round_trip(rules_sc: Scenario, tmp_path: Path) -> None:
    import json

    a = _agent_memories(rules_sc, "cargo-market-driver", tmp_path / "a")
    b = _agent_memories(rules_sc, "cargo-market-driver", tmp_path / "b")
    d = next(k for k, m in a.items() if m.rules is not None and m.rules.rules)
    first = a[d].rules.rules[0].index
    a[d].forgone[first] = 123.5
    a[d].rules.waive(first)
    # a place rule's record kept and broken (memory/place_regimes.py): breaking it has paid
    c = "D004"  # its keep-out circle
    circle = next(r.index for r in a[c].rules.rules if r.kind == "forbidden_circle")
    a[c].regimes.records[circle] = RuleRecord(Regime(1500.0, 400.0, 0.0),
                                              Regime(1500.0, 2000.0, 100.0))
    a[c].regimes.apply(a[c].rules)
    state = json.loads(json.dumps(a[d].get_state()))  # must survive JSON
    b[d].set_state(state)
    assert b[d].forgone == {first: 123.5}
    assert first in b[d].rules.waived  # a waived rule stays broken knowingly after a restore
    b[c].set_state(json.loads(json.dumps(a[c].get_state())))
    assert b[c].regimes.records == a[c].regimes.records
    assert b[c].rules.released == a[c].rules.released == {circle}  # released after it too
    assert json.loads(json.dumps(b[d].get_state())) == state


def test_a_released_place_rule_says_so_in_the_preference_view(rules_sc: Scenario,
                                                             tmp_path: Path) -> None:
    """A model reads why a box no longer asks for a drive back (memory/place_regimes.py)."""
    from memory.view_builders import PreferenceViews

    m = _agent_memories(rules_sc, "cargo-market-driver", tmp_path / "a")["D004"]
    first = next(r.index for r in m.rules.rules if r.kind == "forbidden_circle")
    before = PreferenceViews().build(m, m.last.state).rule_lines
    assert not any("released" in line for line in before)
    m.rules.release(first)
    after = PreferenceViews().build(m, m.last.state).rule_lines
    assert [line for line in after if "released" in line] == [
        next(line for line in after if line.startswith(f"#{first} "))]


def test_the_rules_keep_a_queried_cargos_price_in_fen(rules_sc: Scenario, tmp_path: Path) -> None:
    """A query's copy gives the price in yuan (docs/competition.md); the rules' records keep
    the dataset's fen, which a place rule's record books a take's net from."""
    import json

    rows = (ROOT / "scenarios" / rules_sc.cargo.file).read_text(encoding="utf-8").splitlines()
    fen = {r["cargo_id"]: r["price"] for r in map(json.loads, rows) if r}
    mems = _agent_memories(rules_sc, "cargo-market-driver", tmp_path / "a")
    seen = {cid: rec.price_fen for m in mems.values() if m.rules is not None
            for cid, rec in m.rules.cargo.items() if cid in fen}
    assert seen
    assert seen == {cid: fen[cid] for cid in seen}
