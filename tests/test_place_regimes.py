"""A place rule kept only while keeping it pays (failure class "a box kept at more than its
fines": CK13, a box over the thin northern market at 200 a step, no cap, earned 40 an hour
inside and 67 an hour outside after the fines, yet kept the box and ended 7% of its gross
below the memory-off greedy on the east month).

The driver's own record decides: hours kept against hours broken, fines paid. A released rule
asks for nothing and fences no move, and is a toll on each step that breaks it, with no credit
for where a step leaves the driver."""

from __future__ import annotations

import pytest

from memory.place_regimes import MIN_MINUTES, PlaceRegimes, Regime, RuleRecord
from memory.rule_progress import RuleProgress, rules_from_entries
from sim.geo import Point
from tests.competition_logs import LogBuilder
from tests.test_rule_progress import CARGO, pref
from tests.test_scoring_run import HOME, NORTH

BOX = {"lat_min": 22.5, "lat_max": 22.6, "lng_min": 114.0, "lng_max": 114.1}  # HOME inside
AT = Point(*HOME)


def progress(entries: list[dict], b: LogBuilder, version: str = "S4") -> RuleProgress:
    rp = RuleProgress(rules_from_entries(entries, n_days=3, version=version, parser=None),
                      n_days=3, version=version, initial=AT)
    for c in CARGO:
        rp.add_cargo(c)
    for rec in b.records:
        rp.on_step(rec)
    return rp


def feed(rp: RuleProgress, b: LogBuilder, regimes: PlaceRegimes, income: float) -> None:
    """The steps `b` logged since `rp` last saw it, then one observation at `income`."""
    for rec in b.records[len(rp.steps):]:
        rp.on_step(rec)
    regimes.observe(rp, income)


def test_a_regime_rate_is_net_after_fines_per_minute():
    assert Regime(600.0, 900.0, 300.0).rate == pytest.approx(1.0)
    assert Regime().rate == 0.0


M = MIN_MINUTES  # a day


@pytest.mark.parametrize(("kept", "broken", "pays"), [
    (Regime(M, M, 0), Regime(M, 2 * M, 0.25 * M), True),  # 1.0/min against 1.75/min
    (Regime(M, M, 0), Regime(M, 1.4 * M, 0.25 * M), False),  # 1.15: within the margin
    (Regime(M - 20, M, 0), Regime(M, 3 * M, 0.25 * M), False),  # too short a record kept
    (Regime(M, M, 0), Regime(M - 20, 3 * M, 0.25 * M), False),  # too short a record broken
    (Regime(M, -100, 0), Regime(M, 0.2 * M, 0), True),  # a loss kept, a little broken
    (Regime(M, -100, 0), Regime(M, 0, 0), False),  # the least gain a minute: 0.1
])
def test_breaking_pays_only_on_a_long_enough_record_and_by_a_margin(kept, broken, pays):
    assert RuleRecord(kept, broken).pays_to_break() is pays


def test_a_box_is_released_once_its_broken_hours_out_earn_its_kept_ones_and_taken_back():
    b = LogBuilder("d1", *HOME, CARGO)
    rp = progress([pref("stay_inside_bbox", BOX, amount=50)], b)
    regimes = PlaceRegimes()
    idx = rp.rules[0].index
    b.wait(M + 60)  # kept: a day and an hour inside for 400 of net
    feed(rp, b, regimes, 400.0)
    assert idx not in rp.released  # nothing broken yet
    b.reposition(*NORTH).wait(M)  # broken: two steps outside (100 of fines) for 2,000
    feed(rp, b, regimes, 2400.0)
    rec = regimes.records[idx]
    assert rec.kept.minutes == M + 60
    assert rec.kept.net == 400
    assert rec.broken.fines == 100
    assert rec.broken.net == 2000
    assert idx in rp.released
    assert rp.place_rules() == ()  # no fence on moves
    assert rp.due_states(b.t, Point(*NORTH)) == ()  # no "back inside" asked
    # the record turns: a long loss outside takes the release back
    b.wait(4 * M)
    feed(rp, b, regimes, 0.0)
    assert idx not in rp.released
    assert [f.name for f in rp.place_rules()] == ["stay_inside_bbox"]
    assert [s.spec.index for s in rp.due_states(b.t, Point(*NORTH))] == [idx]


def test_a_released_box_is_a_toll_on_the_steps_that_break_it():
    box = pref("stay_inside_bbox", BOX, amount=50)
    b = LogBuilder("d1", *HOME, CARGO).wait(10)
    rp = progress([box], b)
    # kept: a drive out is charged its step and the step after it, a drive back in nothing
    assert rp.reposition_extra(b.t, AT, *NORTH) == pytest.approx(100)
    rp.release(rp.rules[0].index)
    assert rp.reposition_extra(b.t, AT, *NORTH) == pytest.approx(50)  # its own step
    assert rp.reposition_extra(b.t, AT, 22.55, 114.06) == 0  # inside to inside: free
    b.reposition(*NORTH)
    out = progress([box], b)
    north = Point(*NORTH)
    # outside, kept: the way back saves the next step's fine (its own fine cancels it)
    assert out.reposition_extra(b.t, north, *HOME) == pytest.approx(0)
    out.release(out.rules[0].index)
    assert out.reposition_extra(b.t, north, *HOME) == pytest.approx(50)  # a step out: toll


def test_a_rule_without_a_place_or_a_fine_per_step_has_no_record():
    b = LogBuilder("d1", *HOME, CARGO).wait(800).reposition(*NORTH).wait(800)
    rp = progress([pref("daily_continuous_rest", {"min_minutes": 300, "days": "all"})], b)
    regimes = PlaceRegimes()
    regimes.observe(rp, 1000.0)
    assert regimes.records == {}
    assert rp.released == set()


def test_the_record_survives_a_restart():
    b = LogBuilder("d1", *HOME, CARGO).wait(800).reposition(*NORTH).wait(800)
    rp = progress([pref("stay_inside_bbox", BOX, amount=50)], b)
    regimes = PlaceRegimes()
    regimes.observe(rp, 2000.0)
    again = PlaceRegimes()
    again.set_state(regimes.get_state())
    assert again.records == regimes.records
    assert again.get_state() == regimes.get_state()
