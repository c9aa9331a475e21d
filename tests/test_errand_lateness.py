"""Failure class "an errand priced at its once-fine" (K24, a family errand fined per minute
away from home plus once if the sequence fails).

A fresh set's driver (P24, calibrated market, S2) was 250 km from the station at 12:58 on
the errand's day: the pickup's drive was weighed at the once-fine (1,000) against about
1,300 of driving, so the driver searched and shuttled between two grids for nine hours and
went at 22:41, 626 minutes away at 3 a minute. What following the errand keeps is the
once-fine plus every minute away it saves, and a take that ends far from the pickup before
the errand costs the minutes it adds.
"""

from __future__ import annotations

import pytest

from memory.rule_progress import HypoTake, RuleProgress, rules_from_entries
from sim.geo import Point
from sim.official.timebase import drive_minutes
from tests.competition_logs import LogBuilder, cargo_row

HOME = (22.4886, 113.9037)  # Shenzhen, Nanshan
PICKUP = (22.5431, 114.0579)  # the station
FAR = (23.35, 116.68)  # Shantou, about 300 km off
NEAR_HOME = (22.4920, 113.9060)  # within the errand's 1 km of home
W0, W1 = 1440 + 16 * 60, 2 * 1440 + 7 * 60  # 03-02 16:00, 03-03 07:00
DWELL, RATE, ONCE = 15, 2.0, 2000.0


def errand(cap: float | None = None) -> dict:
    return {"content": "家里有急事：3月2号下午4点起先到车站接人，停留不少于15分钟，"
                       "再回家待到第二天早上7点。",
            "start_time": "2026-03-01 00:00:00", "end_time": "2026-03-31 23:59:59",
            "penalty_amount": ONCE, "penalty_cap": cap,
            "structured": {"kind": "home_stay_event", "params": {
                "w0": "2026-03-02 16:00:00", "w1": "2026-03-03 07:00:00",
                "w_end": "2026-03-03 07:00:00", "pickup_lat": PICKUP[0],
                "pickup_lng": PICKUP[1], "home_lat": HOME[0], "home_lng": HOME[1],
                "radius_km": 1.0, "min_pickup_dwell_minutes": DWELL,
                "rate_per_minute": RATE}}}


CARGO = [cargo_row("near", FAR, (23.30, 116.60), cost_time=120),
         cargo_row("home", FAR, HOME, cost_time=60),
         cargo_row("away", HOME, FAR, cost_time=8 * 60),  # ends past 14:00, 300 km off
         cargo_row("loop", HOME, NEAR_HOME, cost_time=180)]  # a local order ending at home


def progress(at: tuple[float, float], until: int, cap: float | None = None) -> RuleProgress:
    rp = RuleProgress(rules_from_entries([errand(cap)], n_days=3, version="S4", parser=None),
                      n_days=3, version="S4", initial=Point(*at))
    for c in CARGO:
        rp.add_cargo(c)
    for rec in LogBuilder("d1", *at, CARGO).wait_until(until).records:
        rp.on_step(rec)
    return rp


def home_by(rp: RuleProgress, now: int, at: tuple[float, float]) -> int:
    """The test's own arithmetic: drive to the pickup, dwell (not ending before the start),
    drive home."""
    def go(a: tuple[float, float], b: tuple[float, float]) -> int:
        return drive_minutes(Point(*a).km_to(*b), rp.speed)
    return max(now + go(at, PICKUP) + DWELL, W0 + 1) + go(PICKUP, HOME)


def errand_state(rp: RuleProgress, now: int, at: tuple[float, float]):
    (state,) = rp.states(now, Point(*at))
    return state


LEAD = drive_minutes(Point(*FAR).km_to(*PICKUP), 60.0)  # the drive from FAR, 60 km/h
DUE = W0 - 90 - LEAD  # the drive and 90 minutes of slack before the start


def test_the_drive_to_the_pickup_keeps_every_minute_away_it_saves():
    assert LEAD > 200  # the drive is hours: due well before the start, not 90 minutes
    assert errand_state(progress(FAR, DUE - 10), DUE - 10, FAR).todo is None
    now = DUE + 10
    rp = progress(FAR, now)
    state = errand_state(rp, now, FAR)
    assert state.todo is not None
    assert state.todo.action == "go"
    assert (state.todo.lat, state.todo.lng) == PICKUP
    # the once-fine plus the minutes of [w0, w1) it keeps at home: 2 a minute
    assert state.todo.at_stake == pytest.approx(ONCE + RATE * (W1 - home_by(rp, now, FAR)))
    assert state.todo.at_stake > 1.5 * ONCE  # the once-fine alone was all it kept


def test_a_cap_bounds_what_the_errand_keeps():
    rp = progress(FAR, DUE + 10, cap=2500.0)
    state = errand_state(rp, DUE + 10, FAR)
    assert state.todo is not None
    assert state.todo.at_stake == pytest.approx(2500.0 - RATE * (home_by(
        rp, DUE + 10, FAR) - W0))


def test_nothing_is_due_while_the_drive_still_fits_after_now():
    rp = progress(HOME, 1440 + 9 * 60)
    (state,) = rp.states(1440 + 9 * 60, Point(*HOME))
    assert state.todo is None  # 20 minutes from the station, seven hours early


def test_at_the_pickup_early_one_wait_runs_past_the_start():
    rp = progress(PICKUP, W0 - 60)
    state = errand_state(rp, W0 - 60, PICKUP)
    assert state.todo is not None
    assert (state.todo.action, state.todo.minutes) == ("wait", 61)


def test_a_take_that_ends_far_from_the_pickup_is_charged_the_minutes_it_adds():
    rp = progress(HOME, 1440 + 6 * 60)
    now, here = 1440 + 6 * 60, Point(*HOME)
    assert errand_state(rp, now, HOME).todo is None
    away = rp.extra_penalty_by_rule(HypoTake(rp.cargo["away"], now, here))
    # the take ends at FAR; the next decision's scan (as the driver's recent ones), then
    # the drive back to the pickup
    step = rp.hypothetical(HypoTake(rp.cargo["away"], now, here))
    scan = max(s.scan for s in rp.steps[-3:])
    late = home_by(rp, step.step_end + scan, FAR)
    assert away == {1: pytest.approx(RATE * (late - home_by(rp, now, HOME)))}
    assert away[1] > 0
    # a take that ends near home well before the start costs nothing
    rp2 = progress(FAR, 1440 + 6 * 60)
    back = rp2.extra_penalty_by_rule(HypoTake(rp2.cargo["home"], now, Point(*FAR)))
    assert back.get(1, 0.0) == 0.0


def test_a_due_errand_leaves_takes_to_its_own_action():
    # due: the drive is priced beside the takes at its whole stake, not charged to each take
    now = DUE + 10
    rp = progress(FAR, now)
    assert errand_state(rp, now, FAR).todo is not None
    got = rp.extra_penalty_by_rule(HypoTake(rp.cargo["near"], now, Point(*FAR)))
    assert got.get(1, 0.0) == 0.0


def test_an_errand_is_not_waived_by_a_month_projection():
    """An order pushed aside at the pickup on the 2nd of a 3-day run, projected over the
    days left, passed the cap and waived the errand there: the driver left and paid all of
    it (a blind driver: 225 → 1,340). An event happens once: its stops are weighed one by
    one, never waived by the projection a monthly rule is."""
    from types import SimpleNamespace

    from memory.memory_agent import MemoryAgent

    for cap in (2500.0, 4000.0):
        rp = progress(FAR, DUE + 10, cap=cap)
        states = rp.states(DUE + 10, Point(*FAR))
        me = SimpleNamespace(rules=rp, forgone={}, driver=SimpleNamespace(start=0.0),
                             sc=SimpleNamespace(minutes=3 * 1440), fine_weight=lambda: 1.0,
                             face_if_dear=lambda st, elapsed: None)
        MemoryAgent._book(me, {1: 500.0}, 5000.0, states, DUE + 10)
        assert me.forgone[1] == 5000.0  # booked ...
        assert 1 not in rp.waived  # ... but not waived
    # a capped rule of every day is: the same booking waives a box
    box = {"content": "stay in the box", "start_time": "2026-03-01 00:00:00",
           "end_time": "2026-03-31 23:59:59", "penalty_amount": 300.0, "penalty_cap": 2500.0,
           "structured": {"kind": "stay_inside_bbox", "params": {
               "lat_min": 22.0, "lat_max": 23.0, "lng_min": 113.0, "lng_max": 114.5}}}
    rp = RuleProgress(rules_from_entries([box], n_days=3, version="S2", parser=None),
                      n_days=3, version="S2", initial=Point(*HOME))
    states = rp.states(DUE + 10, Point(*HOME))
    me = SimpleNamespace(rules=rp, forgone={}, driver=SimpleNamespace(start=0.0),
                         sc=SimpleNamespace(minutes=3 * 1440), fine_weight=lambda: 1.0,
                         face_if_dear=lambda st, elapsed: None)
    MemoryAgent._book(me, {1: 500.0}, 5000.0, states, DUE + 10)
    assert 1 in rp.waived


def test_home_before_the_pickup_loses_the_sequence_and_only_minutes_are_left():
    """The official test takes the first homecoming after the start: a driver still at home
    at 16:30 has lost the sequence, and a drive to the pickup would only add minutes away
    (the review of this change found the pickup asked for, at 3,642)."""
    now = W0 + 30
    rp = progress(HOME, now)
    state = errand_state(rp, now, HOME)
    assert state.counters["home_arrival"] is not None
    assert state.todo is not None
    assert (state.todo.action, state.todo.minutes) == ("wait", W1 - now)  # stay, not go
    assert state.todo.at_stake == pytest.approx(RATE * (W1 - now))  # no once-fine left


def test_a_take_that_comes_home_before_the_pickup_pays_the_lost_sequence():
    now = W0 - 120  # 14:00 at home, the station 20 minutes off: nothing due yet
    rp = progress(HOME, now)
    assert errand_state(rp, now, HOME).todo is None
    take = HypoTake(rp.cargo["loop"], now, Point(*HOME))
    assert rp.hypothetical(take).step_end > W0  # back home after the start, no pickup
    got = rp.extra_penalty_by_rule(take)
    assert got[1] >= ONCE  # the once-fine it makes certain, with the minutes


def test_nothing_is_charged_once_no_minute_away_counts():
    now = W1 + 10
    rp = progress(FAR, now)
    take = HypoTake(rp.cargo["near"], now, Point(*FAR))
    assert rp.delay_charges(take, rp.hypothetical(take)) == {}
