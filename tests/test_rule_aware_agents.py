"""The baseline, the preference view/agent and a whole competition run with competition rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.app.compete_adapter import cargo_view
from agents.roles.baseline import GreedyPolicy
from agents.roles.preference_agent import PreferenceAgent
from memory.rule_progress import RuleProgress, Status, rules_from_entries
from memory.views import PreferenceView
from sim.geo import Geography, Point
from sim.scenario import load_scenario
from sim.world.actions import Observation, TakeOrder, Wait
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_rule_progress import pref

ROOT = Path(__file__).resolve().parents[1]
HOME = (22.54, 114.05)
NORTH = (22.63, 114.05)


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong(detour_factor=1.0)


def rules_of(entries: list[dict], builder: LogBuilder, cargo: list[dict]) -> RuleProgress:
    rp = RuleProgress(rules_from_entries(entries, n_days=3, parser=None), n_days=3,
                      initial=Point(*HOME))
    for c in cargo:
        rp.add_cargo(c)
    for rec in builder.records:
        rp.on_step(rec)
    return rp


def obs(now: int, pos: tuple[float, float], cargo: list[dict]) -> Observation:
    views = tuple(v for c in cargo if (v := cargo_view({"cargo": c}, now)) is not None)
    return Observation("d1", float(now), 3 * 1440.0, Point(*pos), 1.0, 0.0, 0, 0.0, 0.0, 10,
                       last_search=views, last_search_time=float(now))


def test_baseline_avoids_a_forbidden_category_take(geo):
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml")
    cargo = [cargo_row("bad", HOME, (23.02, 113.75), category="化工塑料", price=4_000),
             cargo_row("ok", HOME, (22.75, 114.25), category="蔬菜", price=3_000)]
    entries = [pref("forbidden_cargo_category", {"categories": ["化工塑料"]}, amount=5000)]
    rp = rules_of(entries, LogBuilder("d1", *HOME, cargo).wait(60), cargo)
    o = obs(60, HOME, cargo)
    unaware = GreedyPolicy(geo, sc).decide(o)
    aware = GreedyPolicy(geo, sc, rules=rp).decide(o)
    assert unaware.action == TakeOrder("bad")  # the better net, without the rule
    assert aware.action == TakeOrder("ok")
    # a fine smaller than the gain in net keeps the better take (net minus extra penalty)
    cheap = rules_of([pref("forbidden_cargo_category", {"categories": ["化工塑料"]}, amount=1)],
                     LogBuilder("d1", *HOME, cargo).wait(60), cargo)
    assert GreedyPolicy(geo, sc, rules=cheap).decide(o).action == TakeOrder("bad")


def test_baseline_rests_when_the_daily_rest_is_due(geo):
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml")
    cargo = [cargo_row("long", NORTH, HOME, cost_time=850),
             cargo_row("next", HOME, NORTH, price=3_000)]
    b = LogBuilder("d1", *HOME, cargo).wait(60).reposition(*NORTH).take("long")
    rest = {"min_minutes": 480, "days": "all"}
    rp = rules_of([pref("daily_continuous_rest", rest, amount=5000)], b, cargo)
    o = obs(b.t, HOME, cargo[1:])
    assert GreedyPolicy(geo, sc).decide(o).action == TakeOrder("next")
    d = GreedyPolicy(geo, sc, rules=rp).decide(o)
    assert d.action == Wait(480.0)
    assert d.reason == "daily rest due"
    # a fine smaller than the order's net: the order is worth more than keeping the rule
    cheap = rules_of([pref("daily_continuous_rest", rest, amount=100)], b, cargo)
    assert GreedyPolicy(geo, sc, rules=cheap).decide(o).action == TakeOrder("next")


def test_preference_view_lists_rules_and_the_digest_keeps_the_due_ones():
    cargo = [cargo_row("long", NORTH, HOME, cost_time=850)]
    b = LogBuilder("d1", *HOME, cargo).wait(60).reposition(*NORTH).take("long")
    entries = [pref("daily_continuous_rest", {"min_minutes": 480, "days": "all"}),
               pref("max_orders_per_day", {"max_orders": 3})]
    rp = rules_of(entries, b, cargo)
    states = rp.states(b.t)
    view = PreferenceView(mode="bounded", now=b.t,
                          rule_lines=tuple(s.status_line() for s in states),
                          due_lines=tuple(s.status_line() for s in states
                                          if s.status is Status.DUE),
                          todo_action=rp.todo(b.t))
    text = view.render()
    assert "#1 daily_continuous_rest [due] rest today 1h00 of 8h00" in text
    assert "#2 max_orders_per_day [ok] orders today 1 of 3" in text
    assert "do now: wait 480 min (daily rest due, saves 100)" in text
    digest = view.extractive_digest()
    assert digest[0] == "do now: wait 480 min (daily rest due, saves 100)"
    assert any("[due]" in x for x in digest)
    assert not any("max_orders" in x for x in digest)
    out = PreferenceAgent.deterministic(view)
    assert out["wait_minutes"] == 480
    assert out["reason"] == "daily rest due"


def _score(run: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "agents.app.cli", "score", str(run), "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def test_rule_memory_earns_more_after_penalties_in_a_competition_run(tmp_path):
    # rules are priced, not obeyed: the rule-aware run may pay some fines knowingly, but its
    # net after penalties, by the official scorer, beats the greedy that ignores them
    net = {}
    for mode in ("off", "bounded"):
        subprocess.run([sys.executable, "-m", "agents.app.cli", "run",
                        "scenarios/competition-rules.toml", "--memory", mode, "--out",
                        str(tmp_path / mode)], capture_output=True, text=True, cwd=ROOT,
                       check=True)
        net[mode] = _score(tmp_path / mode)["summary"]["total_net_income_all_drivers"]
    assert net["bounded"] > net["off"]
