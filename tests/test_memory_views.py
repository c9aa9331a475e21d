"""Views from real runs: each agent sees only its part, `full` grows, `bounded` stays bounded,
and memory cuts the failures the write-up lists, measured from events.parquet."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from agents.app.runner import build_run, run_scenario
from memory.views import PreferenceView, SearchView
from sim.analysis.metrics import quality
from sim.geo import Point
from sim.official.timebase import DAY
from sim.scenario import Scenario
from sim.world.actions import Observation
from tests.conftest import Run, do_run


@pytest.fixture(scope="module")
def three_days(smoke: Scenario) -> Scenario:
    return smoke.with_overrides(scenario={"days": 3.0}, drivers={"count": 6})


def _steps(out: Path) -> pd.DataFrame:
    return pq.read_table(out / "steps.parquet").to_pandas()


@pytest.fixture(scope="module")
def mode_runs(tmp_path_factory: pytest.TempPathFactory, three_days: Scenario) -> dict:
    out = {}
    for mode in ("full", "bounded"):
        d = tmp_path_factory.mktemp(mode)
        run_scenario(three_days.with_overrides(memory={"mode": mode}), d)
        out[mode] = _steps(d)
    return out


def test_full_grows_bounded_stays_bounded(mode_runs: dict) -> None:
    full, rules = mode_runs["full"], mode_runs["bounded"]
    f_day = full.groupby("day").prompt_tokens.mean()
    r_day = rules.groupby("day").prompt_tokens.mean()
    f_lines = full.groupby("day").view_fact_lines.mean()
    assert f_lines.is_monotonic_increasing
    assert f_lines.iloc[-1] > 3 * f_lines.iloc[0]
    assert f_day.iloc[-1] > 2.0 * f_day.iloc[0]
    assert (rules.view_fact_lines == 0).all()
    assert r_day.iloc[-1] < 1.5 * r_day.iloc[0]
    assert r_day.max() < 6000  # bounded in absolute terms too
    assert f_day.iloc[-1] > 2.0 * r_day.iloc[-1]


def test_views_hold_only_what_their_agent_needs(tmp_path: Path, smoke: Scenario) -> None:
    world, services = build_run(smoke, tmp_path)
    world.run()
    mem = max(services.memories.values(), key=lambda m: len(m.cargo.records))
    assert mem.cargo.records
    assert mem.market.grids
    obs = Observation(mem.spec.driver_id, DAY - 1.0, DAY, Point(mem.spec.lat, mem.spec.lng),
                      mem.spec.cost_per_km, 0.0, 0, 0.0, 0.0, 10)
    views = mem.step(obs).views
    search, pref = views["search"], views["preference"]
    assert isinstance(search, SearchView)
    assert isinstance(pref, PreferenceView)
    text = search.render()
    assert not any(cid in text for cid in mem.cargo.records)  # no cargo list for search
    assert "value" in text
    assert "budget left" in text
    ptext = pref.render()
    assert not any(cell in ptext for cell in mem.market.grids)  # no market stats
    assert "value" not in ptext
    assert "budget" not in ptext
    for v in views.values():  # counting by parts equals counting the prompt text
        assert v.tokens(mem.counter) == mem.counter(v.render())


def test_memory_cuts_stale_and_failed_takes(tmp_path: Path, smoke: Scenario) -> None:
    # busy enough that cargo leaves while drivers act on what they saw
    sc = smoke.with_overrides(scenario={"days": 3.0, "seed": 5}, drivers={"count": 60},
                              cargo={"rate_per_hour": 150.0, "competitor_share": 0.5})
    off = do_run(sc.with_overrides(memory={"mode": "off"}), tmp_path / "off")
    on = do_run(sc.with_overrides(memory={"mode": "bounded"}), tmp_path / "on")
    q = {name: quality(r.events, r.drivers, 3.0, sc.geo.memory_h3_res, sc.memory.low_yield_net)
         for name, r in (("off", off), ("on", on))}
    print("stale_or_failed_takes off/on:", q["off"]["stale_or_failed_takes"],
          q["on"]["stale_or_failed_takes"], "repeated low-yield searches off/on:",
          q["off"]["repeated_low_yield_searches"], q["on"]["repeated_low_yield_searches"])
    assert q["off"]["stale_or_failed_takes"] >= 5
    assert q["on"]["stale_or_failed_takes"] < q["off"]["stale_or_failed_takes"] / 2
    assert q["on"]["repeated_low_yield_searches"] < q["off"]["repeated_low_yield_searches"] / 2
    assert q["on"]["repeat_failed_takes"] == 0
    assert isinstance(on, Run)
