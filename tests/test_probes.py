"""Fact-recall probes (memory/probes.py) and their gate in the bench (agents/app/bench.py).

Runs are real (scenarios/bench.toml, cut short); the probes observe every agent call, and a
view is altered only on its way to the probes, so the run itself does not move.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from agents.app.bench import recall_gate, run_bench
from agents.app.evaluate import ProbeRecorder
from agents.app.runner import build_run
from memory.probes import rule_check, with_value
from memory.view_builders import SearchViews
from memory.views import CargoAnalysisView
from sim.scenario import Scenario, load_scenario
from tests.conftest import SCENARIOS


@pytest.fixture(scope="module")
def bench() -> Scenario:
    return load_scenario(SCENARIOS / "bench.toml")


def test_value_must_sit_with_its_id() -> None:
    check = with_value("C123", "net", 512.4)
    assert check("C123 (23.1,113.2)->(23.5,113.9) price 900 window 1-2 net~512 empty 3km")
    assert check('{"cargo_id":"C123","empty_km":3,"net":513}')
    assert not check("C123 net~530")  # the wrong value
    assert not check("C123 listed\nC999 net~512")  # the value belongs to another line
    assert not check("C1234 net~512")  # another id that starts the same


def test_rule_status_read_from_its_status_line() -> None:
    check = rule_check(1, "max_orders_per_day", "at risk")
    assert check("#1 max_orders_per_day [at risk] orders today 3 of 3")
    assert check("- #1 max_orders_per_day [at risk] orders today 3 of 3")  # a digest bullet
    assert not check("#1 max_orders_per_day [ok] orders today 1 of 3")  # another status
    assert not check("#2 max_orders_per_day [at risk] orders today 3 of 3")  # another rule
    assert not check("#11 max_orders_per_day [at risk]")  # an index that starts the same


class Cutting(ProbeRecorder):
    """Probes views with one fact taken out: the best feasible cargo from the analyst's view."""

    def __call__(self, ctx, prompt, view, inputs) -> None:
        if isinstance(view, CargoAnalysisView) and view.feasible:
            best = max(view.feasible, key=lambda o: o.net).cargo.cargo_id
            view = dataclasses.replace(view, candidates=tuple(
                c for c in view.candidates if c.cargo.cargo_id != best))
        super().__call__(ctx, prompt, view, inputs)


def _recall(sc: Scenario, out: Path, recorder: type[ProbeRecorder]) -> dict:
    world, services = build_run(sc, out)
    rec = recorder(world, services, keep_texts=False)
    services.call_hooks.append(rec)
    world.run()
    return rec.summary()


def test_a_view_with_a_fact_removed_lowers_recall(bench: Scenario, tmp_path: Path) -> None:
    sc = bench.with_overrides(scenario={"days": 0.5})
    whole = _recall(sc, tmp_path / "a", ProbeRecorder)
    cut = _recall(sc, tmp_path / "b", Cutting)
    assert whole["probes"] == cut["probes"] > 0  # same run, same facts asked
    assert whole["by_kind"]["best_cargo"] > 0.9
    assert cut["by_kind"]["best_cargo"] < whole["by_kind"]["best_cargo"]
    assert cut["by_agent"]["cargo_analyst"] < whole["by_agent"]["cargo_analyst"]
    assert cut["by_agent"]["search"] == whole["by_agent"]["search"]  # untouched views
    assert cut["recall"] < whole["recall"]


def test_gate_catches_a_compressed_view_that_drops_the_avoid_list(
        bench: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # searches count as low-yield below 3000 yuan here, so grids to avoid come up in two days
    sc = bench.with_overrides(scenario={"days": 2}, memory={"low_yield_net": 3000})
    good = run_bench(sc, tmp_path / "good", ("bounded", "compressed"))
    assert good["quality"]["probes_by_kind"]["bounded"].get("avoid_grid", 0) >= 20
    assert good["quality"]["fact_recall_by_kind"]["compressed"]["avoid_grid"] == 1.0
    assert recall_gate(good) == []
    original = SearchViews.compressed

    def dropping(self, m, s, digest):  # the live avoid list and the digest's, both gone,
        # and the low-yield grids among the others too (their lines state the streak)
        v = original(self, m, s, digest)
        return dataclasses.replace(
            v, avoid=(), grids=tuple(g for g in v.grids if g.streak < 2),
            nearby=tuple(g for g in v.nearby if g.streak < 2 or g.cell == v.here.cell),
            digest=tuple(b for b in v.digest if not b.startswith("avoid")))

    monkeypatch.setattr(SearchViews, "compressed", dropping)
    bad = run_bench(sc, tmp_path / "bad", ("bounded", "compressed"))
    # the decisions do not read the text: same run, and the rules side did not move
    assert bad["modes"]["compressed"]["quality"]["orders"] == good["modes"]["compressed"][
        "quality"]["orders"]
    assert bad["quality"]["fact_recall"]["bounded"] == good["quality"]["fact_recall"]["bounded"]
    kinds = bad["quality"]["fact_recall_by_kind"]["compressed"]
    assert kinds["avoid_grid"] < good["quality"]["fact_recall_by_kind"]["compressed"]["avoid_grid"]
    assert "quality.fact_recall.search" in {r.figure for r in recall_gate(bad)}
