"""A driver stuck in a thin market (found on the month: eight days hopping between two towns 8 km
apart in the eastern hills, the nearest county and the best remembered grid pulling in turn):
after hours without an order it leaves for a big market, not the next town."""

from __future__ import annotations

import pytest

from agents.roles.cargo_analyst import Ranking
from agents.roles.main_decision import FAR_AFTER_MINUTES, MainDecisionAgent
from agents.roles.preference_agent import PreferenceAdvice
from agents.roles.search_agent import SearchAdvice
from memory.market_memory import GridFact
from memory.views import MainDecisionView
from sim.geo import Geography, Point, great_circle_km

HILLS = Point(23.90, 115.70)


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong(detour_factor=1.0)


def decide(geo: Geography, minutes_without_order: int):
    grid = GridFact("8541130", 23.8765, 115.7006, 2349.0, 3, 4.0, 1100.0, 0, True)
    view = MainDecisionView(mode="cargo-market-driver", now=33_600.0, position=HILLS,
                            here_value=100.0, best_grid=grid, last_action="search",
                            waits_without_order=2, minutes_without_order=minutes_without_order)
    agent = MainDecisionAgent(None, geo, 30.0)  # the deterministic answer needs no model
    return agent.deterministic(view, PreferenceAdvice(0.0, None, "nothing due"),
                       SearchAdvice(True, HILLS.lat, HILLS.lng, 20.0, "here"),
                       Ranking((), "nothing feasible"))


def test_stuck_for_minutes_the_driver_tries_the_nearby_grid(geo):
    out = decide(geo, 60)
    assert out["action"] == "reposition"
    assert great_circle_km(HILLS.lat, HILLS.lng, out["lat"], out["lng"]) < 15.0


def test_stuck_for_hours_the_driver_leaves_for_a_big_market(geo):
    out = decide(geo, FAR_AFTER_MINUTES)
    assert out["action"] == "reposition"
    assert great_circle_km(HILLS.lat, HILLS.lng, out["lat"], out["lng"]) > 40.0
