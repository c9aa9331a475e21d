"""Two prices a take's what-if misses on its own, found on the blind drivers (docs/agents.md).

- "A daily cap filled with short orders": K15 fines only the orders past the cap, so the
  first orders of a day look free. A take that leaves room in its day for more orders than
  the cap has slots left is charged the fine of the order it crowds out
  (`RuleProgress.slot_charge`).
- "A stop missed by one scan": a dated stop (K22, K23) fails before and after a take that
  puts it out of reach, so the stop's own test charges nothing, and its action is due only
  when the time left is short. A take that ends where the drive arrives in time only
  without the next decision's scan minutes is charged the stop's fine
  (`RuleProgress.stops_lost`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memory.memory_agent import rule_filter
from memory.rule_progress import HypoTake, RuleProgress
from memory.time_price import TimePrice
from sim.geo import Point
from sim.official.timebase import drive_minutes
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_rule_progress import pref, progress
from tests.test_scoring_run import DG, HOME, NORTH

CAP = pref("max_orders_per_day", {"max_orders": 2}, amount=200)


def slots(rp: RuleProgress, cargo_id: str, b: LogBuilder) -> float:
    """The slot charge, summed over the rules, of taking `cargo_id` where the log `b` ends."""
    return sum(rp.slot_charge(HypoTake(rp.cargo[cargo_id], b.t, Point(b.lat, b.lng))).values())


SLOT_CARGO = [cargo_row("first", HOME, DG, cost_time=150),
              cargo_row("short", DG, NORTH, cost_time=120),
              cargo_row("long", DG, NORTH, cost_time=400, window=(1300, 1400)),
              cargo_row("third", NORTH, DG, cost_time=60)]


def test_a_short_take_that_leaves_its_day_open_pays_for_the_order_it_crowds_out():
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10).take("first")  # order 1 of 2 today
    rp = progress([CAP], b, SLOT_CARGO)
    now, pos = b.t, Point(b.lat, b.lng)
    short, long_ = (HypoTake(rp.cargo[c], now, pos) for c in ("short", "long"))
    # order 2 of 2: the kind's own test fines neither
    assert rp.extra_by_rule(short) == {}
    assert rp.extra_by_rule(long_) == {}
    # the short one ends mid-afternoon with most of the day left for a third, fined order
    assert sum(rp.slot_charge(short).values()) == pytest.approx(200.0)
    # the long one loads at 21:40 and runs past midnight: nothing left to crowd out
    assert sum(rp.slot_charge(long_).values()) == 0.0
    # what a take costs, rule by rule, carries the charge under the cap's rule
    assert rp.extra_penalty_by_rule(short) == {rp.rules[0].index: pytest.approx(200.0)}
    assert rp.extra_penalty(long_) == 0.0


def test_an_order_past_the_cap_is_fined_by_the_kind_and_not_charged_again():
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10).take("first").take("short")
    rp = progress([CAP], b, SLOT_CARGO)
    third = HypoTake(rp.cargo["third"], b.t, Point(b.lat, b.lng))
    assert rp.extra_penalty(third) == pytest.approx(200.0)
    assert sum(rp.slot_charge(third).values()) == 0.0


def test_a_paid_money_cap_leaves_nothing_to_crowd_out():
    """Under S2 a K15 fine stops at its money cap: once that is paid, an order past the
    count cap costs nothing more, and neither does crowding one out."""
    capped = pref("max_orders_per_day", {"max_orders": 1}, amount=200, cap=200)
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10).take("first")
    rp = progress([capped], b, SLOT_CARGO, version="S2")
    assert slots(rp, "short", b) == 0.0  # past the count cap
    b.take("short")  # the second order of day 0: 200, the whole money cap
    # on day 1 the cap is paid; a take there is the first of its day, and the order it
    # crowds out would cost nothing
    b.wait_until(1440 + 60)
    rp = progress([capped], b, SLOT_CARGO, version="S2")
    assert rp.states(b.t, Point(b.lat, b.lng))[0].penalty == pytest.approx(200.0)
    assert slots(rp, "third", b) == 0.0
    rp = progress([capped], b, SLOT_CARGO, version="S4")  # S4 applies no money cap
    assert slots(rp, "third", b) == pytest.approx(200.0)


def test_a_day_the_version_does_not_score_crowds_nothing_out():
    """S2 scores 30 days of a 31-day month: an order past the cap on the 31st is not fined,
    so a take there crowds out nothing; S4 scores the 31st and charges it."""
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait_until(30 * 1440 + 10).take("first")
    charged = {v: slots(progress([CAP], b, SLOT_CARGO, version=v, days=31), "short", b)
               for v in ("S2", "S4")}
    assert charged == {"S2": 0.0, "S4": pytest.approx(200.0)}
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait_until(29 * 1440 + 10).take("first")
    assert slots(progress([CAP], b, SLOT_CARGO, version="S2", days=31), "short", b) == \
        pytest.approx(200.0)  # the 30th: scored under S2 too


def test_no_cap_no_slot_charge_and_a_waived_cap_none_either():
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10).take("first")
    rp = progress([pref("max_haul_km", {"max_km": 500})], b, SLOT_CARGO)
    assert slots(rp, "short", b) == 0.0
    rp = progress([CAP], b, SLOT_CARGO)
    rp.waive(rp.rules[0].index)
    assert slots(rp, "short", b) == 0.0


@dataclass(frozen=True)
class Cargo:  # what rule_filter reads of a candidate's cargo
    cargo_id: str


@dataclass(frozen=True)
class Cand:
    cargo: Cargo


@dataclass(frozen=True)
class Opt:  # what it reads of an option, and replaces
    net: float
    finish: float


def test_the_feasibility_check_ranks_with_the_slot_charge():
    """rule_filter takes the charge off the take's net, as it does a fine (it is part of
    `extra_penalty_by_rule`, under the cap's rule): with time
    unpriced, the short take (more net) ranks first without it and second with it."""
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10).take("first")
    rp = progress([CAP], b, SLOT_CARGO)
    now, pos = b.t, Point(b.lat, b.lng)

    pairs = [(Cand(Cargo("short")), Opt(900.0, now + 120)),
             (Cand(Cargo("long")), Opt(800.0, now + 1500))]
    kept = rule_filter(rp, pairs, now, pos, min_net=0.0, price=TimePrice())
    assert [c.cargo.cargo_id for c, _ in kept] == ["long", "short"]
    assert {c.cargo.cargo_id: o.net for c, o in kept} == {"long": 800.0, "short": 700.0}


# a dated dwell at NORTH on day 1, by 10:00
BY = 1440 + 600
GO = drive_minutes(Point(*DG).km_to(*NORTH), 60.0)
DWELL = pref("dwell_at_point_on_day", {"date": "2026-03-02", "lat": NORTH[0], "lng": NORTH[1],
                                       "radius_km": 2.0, "min_dwell_minutes": 60,
                                       "arrive_by": "10:00"}, amount=1500)


def stop_cargo(slack: int) -> list[dict]:
    """A take from HOME to DG that loads at 1,800 and ends `slack` minutes before the last
    moment from which a drive reaches NORTH by 10:00 (negative: after it)."""
    end = BY - GO - slack
    return [cargo_row("late", HOME, DG, cost_time=end - 1800, window=(1800, 1900)),
            cargo_row("early", HOME, DG, cost_time=60)]


@pytest.mark.parametrize(("slack", "charged"), [(-5, 1500.0), (5, 1500.0), (30, 0.0)])
def test_a_take_that_ends_within_one_scan_of_losing_a_stop_is_charged_its_fine(slack, charged):
    cargo = stop_cargo(slack)
    b = LogBuilder("d1", *HOME, cargo).wait(600, scan=10).wait(400, scan=10)  # 16:40, day 0
    rp = progress([DWELL], b, cargo)
    now, pos = b.t, Point(b.lat, b.lng)
    # not due yet: its action starts when the time left is short, so only the take can see it
    state = rp.states(now, pos)[0]
    assert state.todo is None
    assert state.counters["failed"]
    late = HypoTake(rp.cargo["late"], now, pos)
    # with 5 minutes of slack the drive would arrive in time, but the decision after the take
    # scans 10 minutes first (the driver's recent steps did)
    assert sum(rp.stops_lost(late).values()) == pytest.approx(charged)
    assert rp.extra_penalty(late) == pytest.approx(charged)
    # a take that ends early leaves the stop in reach
    assert rp.stops_lost(HypoTake(rp.cargo["early"], now, pos)) == {}


def test_a_stop_already_due_is_left_to_its_action():
    """Once the stop's action is due its value is held against every take
    (`takes_uncharged`); charging the take too would count the fine twice."""
    cargo = stop_cargo(-5)  # a take that loses the stop whatever the scan
    # day 1 06:40: due (the drive to a 10:00 stop falls due STOP_LEAD + DUE_SLACK before)
    b = LogBuilder("d1", *HOME, cargo).wait(1830, scan=10)
    rp = progress([DWELL], b, cargo)
    now, pos = b.t, Point(b.lat, b.lng)
    assert rp.states(now, pos)[0].todo is not None
    assert rp.stops_lost(HypoTake(rp.cargo["late"], now, pos)) == {}
