"""A move toward a market respects the driver's place rules. (Failure class "a market move out
of the box": H12, whose box is Dongguan at 2,000 a step outside, uncapped under S4, was sent
by the best grid's value and the densest county to points just outside its box and back, 44
times in a month at fine_weight 3: 88,000 of fines, a net of -47,304.)"""

from __future__ import annotations

import pytest

from agents.roles.cargo_analyst import Ranking
from agents.roles.main_decision import FAR_AFTER_MINUTES, MainDecisionAgent
from agents.roles.preference_agent import PreferenceAdvice
from agents.roles.search_agent import SearchAdvice
from memory.market_memory import GridFact
from memory.rule_progress import RuleProgress, rules_from_entries
from memory.views import MainDecisionView
from sim.geo import Geography, Point
from sim.preferences.kinds import build_rule
from tests.test_rule_progress import pref

HERE = Point(22.75, 113.78)  # inside the box, near its southern edge
OUTSIDE = GridFact("8541130", 22.68, 113.85, 2349.0, 3, 4.0, 1100.0, 0, True)  # south of it
BOX = {"lat_min": 22.71, "lat_max": 23.33, "lng_min": 113.42, "lng_max": 114.08}


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong(detour_factor=1.0)


def decide(geo: Geography, fences: tuple, minutes_without_order: int = 60) -> dict:
    view = MainDecisionView(mode="cargo-market-driver", now=33_600.0, position=HERE,
                            here_value=100.0, best_grid=OUTSIDE, last_action="search",
                            waits_without_order=2, minutes_without_order=minutes_without_order,
                            fences=fences)
    return MainDecisionAgent(None, geo, 30.0).deterministic(
        view, PreferenceAdvice(0.0, None, "nothing due"),
        SearchAdvice(True, HERE.lat, HERE.lng, 20.0, "here"), Ranking((), "nothing feasible"))


def test_the_best_grid_outside_the_box_is_not_a_move(geo):
    box = build_rule("stay_inside_bbox", BOX)
    assert decide(geo, ())["action"] == "reposition"  # without the rule: the grid
    for minutes in (60, FAR_AFTER_MINUTES):
        out = decide(geo, (box,), minutes)
        if out["action"] == "reposition":  # a move, if any, ends inside the box
            assert box.allows_place(Point(out["lat"], out["lng"]))


def test_a_circle_to_keep_out_of_fences_its_inside():
    circle = build_rule("forbidden_circle", {"lat": 22.68, "lng": 113.85, "radius_km": 5.0})
    assert not circle.allows_place(Point(22.68, 113.85))
    assert circle.allows_place(Point(22.75, 113.78))
    view = MainDecisionView(mode="cargo-market-driver", now=0.0, fences=(circle,))
    assert not view.allows(22.68, 113.85)
    assert view.allows(22.75, 113.78)
    assert any("22.68" in line for line in view.verbose_sections()[1][1])  # shown to a model


def test_place_rules_are_the_fences_until_waived():
    entries = [pref("stay_inside_bbox", BOX, amount=2000),
               pref("daily_continuous_rest", {"min_minutes": 480, "days": "all"})]
    rp = RuleProgress(rules_from_entries(entries, n_days=3, version="S4", parser=None),
                      n_days=3, version="S4", initial=HERE)
    fences = rp.place_rules()
    assert [f.name for f in fences] == ["stay_inside_bbox"]
    rp.waive(rp.rules[0].index)
    assert rp.place_rules() == ()
