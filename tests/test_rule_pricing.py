"""Pricing rules into decisions: what a rest avoids over every rule at once, what a drive
adds, what one more break costs under a cap, and what the driver's time is worth by hour.

Each figure is checked against the scorer's own arithmetic on hand-built logs, so a rest that
only starts a night's window, or covers part of an off day, is seen to secure nothing."""

from __future__ import annotations

import pytest

from memory.rule_progress import HypoTake, RuleProgress, rules_from_entries
from memory.time_price import FLAT, HourRates, TimePrice
from sim.geo import Point
from tests.competition_logs import LogBuilder
from tests.test_rule_progress import CARGO, pref
from tests.test_scoring_run import DG, HOME, NORTH

DAYS = 3
AT = Point(*HOME)


def progress(entries: list[dict], builder: LogBuilder, version: str = "S4") -> RuleProgress:
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version=version, parser=None),
                      n_days=DAYS, version=version, initial=AT)
    for c in CARGO:
        rp.add_cargo(c)
    for rec in builder.records:
        rp.on_step(rec)
    return rp


NIGHT = pref("rest_window_full_coverage", {"start": "22:00", "end": "06:00",
                                           "weekend_start": None}, amount=180)
QUIET = pref("quiet_window", {"start": "23:00", "end": "03:00", "count": "per_day"},
             amount=160)
REST = pref("daily_continuous_rest", {"min_minutes": 300, "days": "all"}, amount=100)


def test_a_rest_is_priced_whole_a_wait_that_only_starts_the_window_saves_nothing():
    b = LogBuilder("d1", *HOME, CARGO).wait(21 * 60)  # 21:00 on day 0
    rp = progress([NIGHT], b)
    assert rp.wait_saving(b.t, AT, 9 * 60) == pytest.approx(180)  # to 06:00: kept
    assert rp.wait_saving(b.t, AT, 60) == 0  # to 22:00, then working: broken anyway
    assert rp.wait_saving(b.t, AT, 8 * 60) == 0  # to 05:00: one hour short


def test_one_night_rest_keeps_several_rules_at_once():
    b = LogBuilder("d1", *HOME, CARGO).wait(21 * 60 + 59).take("c1")  # busy past midnight
    rp = progress([NIGHT, QUIET, REST], b)
    assert b.t < 22 * 60 + 1440  # free before the next night's window
    wait = (22 * 60 + 1440) - b.t + 8 * 60  # through the next night's window
    saved = rp.wait_saving(b.t, Point(b.lat, b.lng), wait)
    # tomorrow night's window (180) and quiet hours (160), and the daily rest of both days
    # the rest touches (day 1 from the drop on, day 2 from midnight): the worked future
    # rests on neither
    assert saved == pytest.approx(180 + 160 + 100 + 100)


def test_an_off_day_is_worth_its_share_and_only_when_rested_whole():
    off = pref("min_full_off_days", {"min_days": 2}, amount=1000)
    b = LogBuilder("d1", *HOME, CARGO).take("c1")  # day 0 worked: both other days must be off
    rp = progress([off], b)
    left = 1440 - b.t % 1440
    assert rp.wait_saving(b.t, Point(b.lat, b.lng), 60) == 0
    # resting the rest of day 0 keeps nothing (day 0 is worked already) ...
    assert rp.wait_saving(b.t, Point(b.lat, b.lng), left) == 0
    b.wait(left)  # ... but a whole day 1 off is half of what keeps the fine away
    rp = progress([off], b)
    assert rp.wait_saving(b.t, Point(b.lat, b.lng), 1440) == pytest.approx(500)


def test_a_drive_out_of_a_box_costs_the_drive_and_the_step_after_it():
    box = pref("stay_inside_bbox", {"lat_min": 22.5, "lat_max": 22.6, "lng_min": 114.0,
                                    "lng_max": 114.1}, amount=50)
    b = LogBuilder("d1", *HOME, CARGO).wait(10)
    rp = progress([box], b)
    assert rp.reposition_extra(b.t, AT, *NORTH) == pytest.approx(100)
    assert rp.reposition_extra(b.t, AT, 22.55, 114.06) == 0


def test_a_capped_rule_whose_cap_is_paid_costs_nothing_more():
    box = pref("stay_inside_bbox", {"lat_min": 22.5, "lat_max": 22.6, "lng_min": 114.0,
                                    "lng_max": 114.1}, amount=300, cap=600)
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait(5)
    (s,) = progress([box], b, "S2").states(b.t)
    assert s.penalty == 600  # two steps outside: the cap
    assert progress([box], b, "S2").marginal_fine(s) == 0
    (s,) = progress([box], b, "S4").states(b.t)  # S4 applies no cap: a drive back saves
    assert progress([box], b, "S4").marginal_fine(s) == 300  # the next step's fine, not three


def test_a_visit_day_is_worth_its_share_until_too_few_days_are_left():
    visit = pref("min_visit_days", {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 1.0,
                                    "min_days": 2}, amount=1000)
    b = LogBuilder("d1", *HOME, CARGO).wait(60)
    rp = progress([visit], b)
    (s,) = rp.states(b.t)
    assert rp.marginal_fine(s) == 500  # one of the two days
    far = pref("min_visit_days", {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 1.0,
                                  "min_days": 5}, amount=1000)
    rp = progress([far], b)
    (s,) = rp.states(b.t)
    assert rp.marginal_fine(s) == 0  # five days in a three-day run: nothing to save


def test_time_price_hour_by_hour():
    night = tuple(0.2 if h < 6 else 1.0 for h in range(24))
    tp = TimePrice(1.5, night)
    assert tp.cost(5 * 60 + 30, 60) == pytest.approx(1.5 * (30 * 0.2 + 30 * 1.0))
    assert tp.cost(1440 + 60, 120) == pytest.approx(1.5 * 120 * 0.2)  # the next night too
    assert TimePrice().cost(0, 600) == 0
    assert not TimePrice()
    assert "hours cheapest 00h x0.2" in " ".join(tp.lines())


def test_hour_rates_learn_the_shape_and_stay_bounded():
    h = HourRates()
    assert h.factors() == FLAT
    for day in range(3):
        h.add(day * 1440 + 3 * 60, 0.1)  # night searches find little
        h.add(day * 1440 + 10 * 60, 2.0)
    f = h.factors()
    assert f[3] == pytest.approx(max(HourRates.LO, 0.1 / 1.05))
    assert f[10] == pytest.approx(2.0 / 1.05)
    assert f[12] == 1.0  # never seen: average


def test_a_short_rest_does_not_save_a_daily_order_cap_it_only_delays():
    # three orders done today under "at most 3 a day": resting an hour and then working still
    # completes a 4th order today, so the hour saves nothing (the working future used to be
    # split in two orders at the rest's end, and every hour's rest "saved" the cap's fine)
    b = LogBuilder("d1", *HOME, CARGO).wait(10).take("c1").take("c2").wait(30)
    b.reposition(*HOME)  # back near c1's pickup for a third order
    rp = progress([pref("max_orders_per_day", {"max_orders": 2}, amount=200)], b)
    assert b.t < 1440 - 120
    assert rp.wait_saving(b.t, AT, 60) == 0
    # resting to midnight does keep the cap: no order completes today
    assert rp.wait_saving(b.t, AT, 1440 - b.t) == pytest.approx(200)


CURFEW = pref("home_by_curfew", {"lat": HOME[0], "lng": HOME[1], "radius_km": 1.0,
                                 "curfew": "23:00", "quiet_until": "07:00"}, amount=500)


def test_a_take_that_makes_the_curfew_unreachable_is_charged_its_night():
    """Failure class "a curfew excused by standing away": the what-if used to compare a take
    with resting where the driver stands, 50 km from home, which breaks tonight's curfew as
    well, so no take was ever charged for it and a driver worked through every night. Both
    futures now drive home before they rest: a take ending within reach of home by 23:00
    costs nothing, one that runs through the night costs the night's fine."""
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG).wait_until(13 * 60)
    rp = progress([CURFEW], b)
    now, pos = b.t, Point(b.lat, b.lng)
    short = rp.extra_by_rule(HypoTake(rp.cargo["c2"], now, pos), credit=False)
    overnight = rp.extra_by_rule(HypoTake(rp.cargo["c4"], now, pos), credit=False)
    assert sum(short.values()) == 0.0  # at NORTH by 15:00, home long before 23:00
    assert sum(overnight.values()) == pytest.approx(500.0)  # loads 21:40, runs ten hours


def test_a_rest_in_place_that_makes_the_curfew_unreachable_breaks_it_too():
    """Failure class "a rest in place excused": a take that makes tonight's curfew unreachable
    is charged its fine, so a rest that does the same must carry it too, or resting in
    Dongguan past 22:00 looked free beside every take and a driver 300 km from home rested
    every evening while paying the curfew anyway. A rest that still leaves the drive home in
    time, or one taken at home, breaks nothing."""
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG).wait_until(13 * 60)
    rp = progress([CURFEW], b)
    now, pos = b.t, Point(b.lat, b.lng)
    assert sum(rp.rest_fines_by_rule(now, pos, 10 * 60).values()) == pytest.approx(500.0)
    assert rp.rest_fines_by_rule(now, pos, 60) == {}  # home by 15:00 is still possible
    home = LogBuilder("d1", *HOME, CARGO).wait_until(13 * 60)
    rh = progress([CURFEW], home)
    assert rh.rest_fines_by_rule(home.t, Point(home.lat, home.lng), 10 * 60) == {}


def test_a_rest_that_breaks_the_curfew_here_offers_the_drive_home_first():
    """Failure class "a rest in place when home keeps more": at 19:00 in Dongguan, an hour from
    home, the curfew (23:00) asks for nothing yet, and a night's rest where the driver stands
    breaks it; the drive home is then offered with the curfew's fine at stake, before it
    falls due. At home, or for a rule the rest does not break, nothing is offered."""
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG).wait_until(19 * 60)
    rp = progress([CURFEW, pref("max_haul_km", {"max_km": 100.0})], b)
    now, pos = b.t, Point(b.lat, b.lng)
    curfew, haul = (s.spec.index for s in rp.states(now, pos))
    assert rp.due_states(now, pos) == ()
    broken = rp.rest_fines_by_rule(now, pos, 11 * 60)
    assert set(broken) == {curfew}
    (go,) = rp.rest_there(now, pos, broken)
    assert go.spec.index == curfew
    assert (go.todo.action, go.todo.lat, go.todo.lng) == ("go", HOME[0], HOME[1])
    assert go.todo.at_stake == pytest.approx(500.0)
    assert rp.rest_there(now, pos, {haul}) == ()
    home = LogBuilder("d1", *HOME, CARGO).wait_until(19 * 60)
    rh = progress([CURFEW], home)
    assert rh.rest_there(home.t, Point(home.lat, home.lng), {rh.rules[0].index}) == ()


def test_going_home_for_a_curfew_commits_to_the_night_there():
    """The price of a curfew's way home includes the night it commits to (to 07:00): the
    drive alone is cheap, and a driver sent home at every dusk for a 500 fine lost more than
    the fine each night. A rule that asks for no rest commits to nothing."""
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG).wait_until(21 * 60 + 45)
    rp = progress([CURFEW, pref("max_haul_km", {"max_km": 100.0})], b)
    curfew, haul = rp.states(b.t, Point(b.lat, b.lng))
    assert curfew.todo is not None
    assert curfew.todo.action == "go"
    arrive = b.t + 62  # the drive home from Dongguan
    assert rp.stay_after(curfew, arrive, AT) == 24 * 60 + 7 * 60 - arrive
    assert rp.stay_after(haul, arrive, AT) == 0


def test_a_deadhead_budget_without_a_cap_prices_empty_km_as_the_scorer_charges_them():
    """`empty_km_fines`: a monthly deadhead budget with no cap (none given, or any under S4)
    prices a move's empty km exactly as the kind's own test charges the reposition; a capped
    one is left to the rule's whole price (its cap), and so is a waived one."""
    capped = pref("max_total_deadhead_km", {"max_km": 10.0}, amount=100, cap=4000)
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait(10)
    here = Point(b.lat, b.lng)
    target = (HOME[0] - 0.2, HOME[1])
    km = here.km_to(*target)
    rp = progress([capped], b, version="S4")  # S4 applies no cap
    (e,) = rp.empty_km_fines(rp.states(b.t, here))
    used = AT.km_to(*NORTH)
    assert e.free_km == pytest.approx(max(0.0, 10.0 - used), abs=0.01)
    assert e.fine(km) == pytest.approx(rp.reposition_extra(b.t, here, *target), rel=1e-3)
    assert rp.reposition_extra(b.t, here, *target) > 0
    rp = progress([capped], b, version="S2")  # capped at 4,000: left out
    assert rp.empty_km_fines(rp.states(b.t, here)) == ()
    uncapped = pref("max_total_deadhead_km", {"max_km": 10.0}, amount=100)
    rp = progress([uncapped], b, version="S2")
    assert len(rp.empty_km_fines(rp.states(b.t, here))) == 1
    rp.waive(1)
    assert rp.empty_km_fines(rp.states(b.t, here)) == ()

