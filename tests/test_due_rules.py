"""Due rules are priced together, and a stop that can no longer be kept asks for nothing.

Two failure classes, both seen on one evaluation driver (T24, fine_weight 3): its quiet window
(21:30-06:30, 200 a night), listed first, was the only due rule the planner priced, so the
night's rest won over the drive to next morning's route stop (4,000) that the rest made
unreachable ("a due rule behind another"); the driver then reached the stop at 10:21 for a
09:00 deadline and waited there half an hour at a time until midnight ("a stop kept after its
time").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.roles.preference_agent import PreferenceAdvice
from memory.memory_agent import MemoryAgent
from memory.rule_progress import Status
from sim.geo import Geography, Point
from sim.scenario import DriverSpec, load_scenario
from sim.world.actions import Observation, Outcome
from sim.world.events import EventBus
from tests.competition_logs import LogBuilder
from tests.test_rule_progress import CARGO, pref, progress
from tests.test_scoring_run import DG, HOME, NORTH

ROOT = Path(__file__).resolve().parents[1]
DAYS = 3
FAR = (23.52, 116.48)  # Shantou, about 290 km (five hours) east of the first stop
ROUTE = {"date": "2026-03-02", "radius_km": 2.0, "stops": [
    {"lat": DG[0], "lng": DG[1], "arrive_by": "09:00", "min_dwell_minutes": 30},
    {"lat": NORTH[0], "lng": NORTH[1], "arrive_by": "17:00", "min_dwell_minutes": 0}]}
DWELL = {"date": "2026-03-02", "lat": DG[0], "lng": DG[1], "radius_km": 2.0,
         "min_dwell_minutes": 60, "arrive_by": "09:00"}


def state_of(entries: list[dict], b: LogBuilder):
    return progress(entries, b, CARGO).states(b.t, Point(b.lat, b.lng))[0]


def test_a_route_stop_still_in_reach_is_due():
    b = LogBuilder("d1", *HOME, CARGO).reposition(*FAR).wait_until(1440 + 120)  # day 2, 02:00
    s = state_of([pref("route_stops_on_day", ROUTE, amount=4000, cap=4000)], b)
    assert s.status is Status.DUE
    assert s.todo is not None
    assert s.todo.action == "go"


def test_a_route_stop_out_of_reach_by_its_time_is_missed():
    b = LogBuilder("d1", *HOME, CARGO).reposition(*FAR).wait_until(1440 + 390)  # 06:30
    s = state_of([pref("route_stops_on_day", ROUTE, amount=4000, cap=4000)], b)
    assert s.status is Status.VIOLATED
    assert s.todo is None


@pytest.mark.parametrize("rule", [
    pref("route_stops_on_day", ROUTE, amount=4000, cap=4000),
    pref("dwell_at_point_on_day", DWELL, amount=2000, cap=2000)], ids=["route", "dwell"])
def test_standing_at_a_stop_reached_late_asks_for_no_wait(rule):
    late = LogBuilder("d1", *HOME, CARGO).wait_until(1440 + 560).reposition(*DG)  # after 09:00
    assert late.t > 1440 + 540
    s = state_of([rule], late)
    assert s.status is Status.VIOLATED
    assert s.todo is None
    # reached in time, the same stop asks for its stay
    ok = LogBuilder("d1", *HOME, CARGO).wait_until(1440 + 420).reposition(*DG)
    s = state_of([rule], ok)
    assert s.status is Status.DUE
    assert s.todo is not None
    assert s.todo.action == "wait"


@pytest.mark.parametrize("rule", [
    pref("route_stops_on_day", ROUTE, amount=4000, cap=4000),
    pref("dwell_at_point_on_day", DWELL, amount=2000, cap=2000)], ids=["route", "dwell"])
def test_a_stop_falls_due_when_its_drive_must_start_not_the_evening_before(rule):
    """Failure class "a stop reached the evening before": a route stop fell due from noon the
    day before and a dwell 12 hours before its drive, so drivers drove there the evening
    before and waited the night (8-12 hours); takes that would lose the stop are charged
    its fine (`stops_lost`), so the drive falls due only STOP_LEAD minutes before it must
    start."""
    from sim.preferences.progress import DUE_SLACK, STOP_LEAD
    evening = LogBuilder("d1", *HOME, CARGO).wait_until(20 * 60)  # 20:00 the day before
    s = state_of([rule], evening)
    assert s.status is Status.OK
    assert s.todo is None
    go = progress([rule], evening, CARGO)._view(evening.t, Point(*HOME)).go_minutes(*DG)
    due_at = 1440 + 540 - go - DUE_SLACK - STOP_LEAD  # the 09:00 deadline, less the drive
    s = state_of([rule], LogBuilder("d1", *HOME, CARGO).wait_until(due_at - 30))
    assert s.status is Status.OK
    s = state_of([rule], LogBuilder("d1", *HOME, CARGO).wait_until(due_at + 1))
    assert s.status is Status.DUE
    assert s.todo is not None
    assert s.todo.action == "go"


def route_due_at(entries: list[dict], b: LogBuilder) -> int:
    """The minute the route's drive to its first stop (DG by 09:00) falls due from `b`'s
    position."""
    from sim.preferences.progress import DUE_SLACK, STOP_LEAD
    go = progress(entries, b, CARGO)._view(b.t, Point(b.lat, b.lng)).go_minutes(*DG)
    return 1440 + 540 - go - DUE_SLACK - STOP_LEAD


def refreshed_todo(entries: list[dict], b: LogBuilder):
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        scenario={"days": DAYS})
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(progress(entries, b, CARGO))
    obs = Observation("d1", float(b.t), DAYS * 1440.0, Point(b.lat, b.lng), 1.5, 0.0, 0,
                      0.0, 0.0, 10, last_outcome=Outcome())
    return agent.refresh(obs)


def test_the_due_rule_worth_most_is_the_one_followed():
    """At 21:35 the quiet window (first in rule order) asks for the night's rest; the route
    stop, five hours away by 09:00, is not due yet, so the rest is cut at the minute its
    drive falls due (a rest to 06:30 would lose it: failure class "a due rule behind
    another"). Then the rest forgoes the route's 4,000, the drive breaks the window's 200:
    the drive is the advice."""
    quiet = pref("quiet_window", {"start": "21:30", "end": "06:30", "count": "per_day"},
                 amount=200)
    route = pref("route_stops_on_day", ROUTE, amount=4000, cap=4000)
    b = LogBuilder("d1", *HOME, CARGO).reposition(*FAR).wait_until(21 * 60 + 35)
    due_at = route_due_at([quiet, route], b)
    assert b.t < due_at < 1440  # the evening before, inside the window
    alone = refreshed_todo([quiet], b).todo
    assert alone is not None
    assert alone.action == "wait"
    assert alone.minutes > due_at - b.t
    for entries in ([quiet, route], [route, quiet]):
        state = refreshed_todo(entries, b)
        assert state.todo is not None
        assert (state.todo.action, state.todo.minutes) == ("wait", due_at - b.t)
        assert all(r.minutes <= due_at - b.t for r in state.rests)
    later = LogBuilder("d1", *HOME, CARGO).reposition(*FAR).wait_until(due_at)
    for entries in ([quiet, route], [route, quiet]):
        rp = progress(entries, later, CARGO)
        assert len(rp.due_states(later.t, Point(later.lat, later.lng))) == 2
        todo = refreshed_todo(entries, later).todo
        assert todo is not None
        assert todo.action == "go", (entries, todo)
        assert todo.at_stake > todo.cost  # worth following: the route's 4,000 against 200


def test_a_stop_no_take_is_charged_for_is_held_whole_against_a_take():
    """Failure class "a dated stop given up for an order": a take's value carries the fines
    its what-if charges, and a rest's saving is held against it at its cost alone (failure
    class "a rest valued twice"). But no what-if charges a take for a dated stop's dwell, a
    stop of a sequence or a point to reach, so that advice keeps its whole value; held at its
    cost alone, T06 and T13 took an order at the stop and lost 3,000 each. A quiet window's
    rest, which a take is charged for, is held at its cost alone."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        scenario={"days": DAYS})
    quiet = pref("quiet_window", {"start": "21:30", "end": "06:30", "count": "per_day"},
                 amount=200)
    cases = (
        ([pref("dwell_at_point_on_day", DWELL, amount=2000, cap=2000)],
         LogBuilder("d1", *HOME, CARGO).wait_until(1440 + 420).reposition(*DG), "wait", True),
        ([pref("route_stops_on_day", ROUTE, amount=4000, cap=4000)],
         LogBuilder("d1", *HOME, CARGO).reposition(*FAR).wait_until(1440 + 120), "go", True),
        ([quiet], LogBuilder("d1", *HOME, CARGO).wait_until(21 * 60 + 35), "wait", False),
    )
    for entries, b, action, uncharged in cases:
        agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                            DriverSpec("d1", *HOME), sc, EventBus(), None)
        agent.attach_rules(progress(entries, b, CARGO))
        obs = Observation("d1", float(b.t), DAYS * 1440.0, Point(b.lat, b.lng), 1.5, 0.0, 0,
                          0.0, 0.0, 10, last_outcome=Outcome())
        todo = agent.refresh(obs).todo
        assert todo is not None
        assert (todo.action, todo.takes_uncharged) == (action, uncharged), entries[0]["content"]
        advice = PreferenceAdvice(todo.minutes, None, todo.reason, at_stake=todo.at_stake,
                                  cost=todo.cost, takes_uncharged=todo.takes_uncharged)
        assert advice.beside_takes == (advice.value if uncharged else -todo.cost)
