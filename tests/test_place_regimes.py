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
from memory.rule_progress import RuleProgress, rules_from_entries, take_of
from sim.geo import Point, haversine_km
from tests.competition_logs import LogBuilder
from tests.test_rule_progress import CARGO, pref
from tests.test_scoring_run import DG, HOME, NORTH

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


CPK = 1.0  # the driver's cost per km


def feed(rp: RuleProgress, b: LogBuilder, regimes: PlaceRegimes) -> None:
    """The steps `b` logged since `rp` last saw it, then one observation."""
    for rec in b.records[len(rp.steps):]:
        rp.on_step(rec)
    regimes.observe(rp, CPK)


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
    b.wait(M + 60)  # kept: a day and an hour inside, nothing earned
    feed(rp, b, regimes)
    assert idx not in rp.released  # nothing broken yet
    # broken: a drive out, an order from there (1,000 less its km) and a day's wait outside;
    # booked at once, each step with its own net
    b.reposition(*NORTH).take("c5").wait(M)
    feed(rp, b, regimes)
    rec = regimes.records[idx]
    assert rec.kept.minutes == M + 60
    assert rec.kept.net == 0
    drive = haversine_km(*HOME, *NORTH)
    haul = haversine_km(*NORTH, *DG)
    assert rec.broken.net == pytest.approx(1000 - CPK * (round(drive, 2) + haul), abs=0.01)
    assert rec.broken.fines == 150  # three steps outside
    assert idx in rp.released
    assert rp.place_rules() == ()  # no fence on moves
    assert rp.due_states(b.t, Point(*DG)) == ()  # no "back inside" asked
    # the record turns: days of waiting outside take the release back
    b.wait(6 * M)
    feed(rp, b, regimes)
    assert idx not in rp.released
    assert [f.name for f in rp.place_rules()] == ["stay_inside_bbox"]
    assert [s.spec.index for s in rp.due_states(b.t, Point(*DG))] == [idx]


def test_a_broken_step_is_booked_the_fine_the_scorer_adds_no_more_past_a_cap():
    box = pref("stay_inside_bbox", BOX, amount=50, cap=100)
    b = LogBuilder("d1", *HOME, CARGO).wait(10).reposition(*NORTH)
    for _ in range(10):
        b.wait(200)
    for version, fines in (("S2", 100), ("S4", 550)):  # S4 applies no cap
        rp = progress([box], b, version)
        regimes = PlaceRegimes()
        regimes.observe(rp, CPK)
        assert regimes.records[1].broken.fines == fines
        assert rp.states(b.t, Point(*NORTH))[0].penalty == fines  # what the scorer charges


def test_a_release_reprices_what_ifs_made_before_it():
    box = pref("stay_inside_bbox", BOX, amount=50)
    b = LogBuilder("d1", *HOME, CARGO).wait(10)
    rp = progress([box], b)
    take = take_of(rp, "c1", b.t, AT)  # HOME to Dongguan: out of the box
    assert rp.extra_penalty_by_rule(take) == {1: pytest.approx(100)}  # two steps' fines
    rp.release(1)
    assert rp.extra_penalty_by_rule(take) == {1: pytest.approx(50)}  # a toll


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_the_toll_is_the_same_on_the_shared_and_the_reference_path(where):
    box = pref("stay_inside_bbox", BOX, amount=50)
    circle = pref("forbidden_circle", {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 2.0,
                                       "mode": "per_step"}, amount=70)
    b = LogBuilder("d1", *HOME, CARGO).wait(10)
    if where == "outside":
        b.reposition(*NORTH).wait(30)
    here = AT if where == "inside" else Point(*NORTH)
    out = []
    for share in (True, False):
        rp = RuleProgress(rules_from_entries([box, circle], n_days=3, version="S4", parser=None),
                          n_days=3, version="S4", initial=AT, share_work=share)
        for c in CARGO:
            rp.add_cargo(c)
        for rec in b.records:
            rp.on_step(rec)
        rp.release(1)
        rp.release(2)
        got = [rp.reposition_extra(b.t, here, *NORTH), rp.reposition_extra(b.t, here, *HOME)]
        got += [rp.extra_by_rule(take_of(rp, cid, b.t, here))
                for cid in ("c1", "c2", "c3", "c4", "c5")]
        got.append(rp.rest_fines_by_rule(b.t, here, 60))
        out.append(got)
    assert out[0] == out[1]
    assert any(out[0])  # the circle and the box charge something here


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
    once = pref("forbidden_circle", {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 2.0,
                                     "mode": "once"}, amount=70)  # one fine, not per step
    rp = progress([pref("daily_continuous_rest", {"min_minutes": 300, "days": "all"}), once],
                  b)
    regimes = PlaceRegimes()
    regimes.observe(rp, CPK)
    assert regimes.records == {}
    assert rp.released == set()


def test_a_restored_record_goes_on_as_if_never_stopped():
    box = pref("stay_inside_bbox", BOX, amount=50)
    b = LogBuilder("d1", *HOME, CARGO).wait(M + 60).reposition(*NORTH)
    whole, half = PlaceRegimes(), PlaceRegimes()
    half.observe(progress([box], b), CPK)  # stopped here
    b.take("c5").wait(M)
    straight = progress([box], b)
    whole.observe(straight, CPK)  # never stopped, fed at the end
    resumed = PlaceRegimes()
    resumed.set_state(half.get_state())
    rp = progress([box], b)
    resumed.apply(rp)
    resumed.observe(rp, CPK)
    assert resumed.records == whole.records
    assert rp.released == straight.released == {1}


def test_a_restore_releases_only_place_rules():
    rest = pref("daily_continuous_rest", {"min_minutes": 300, "days": "all"})
    rp = progress([rest, pref("stay_inside_bbox", BOX, amount=50)], LogBuilder("d1", *HOME,
                                                                              CARGO))
    regimes = PlaceRegimes()
    pays = RuleRecord(Regime(M, 0.0, 0.0), Regime(M, 2 * M, 0.0))
    regimes.set_state({"seen": 0, "records": {"1": [[M, 0, 0], [M, 2 * M, 0]],
                                              "2": [[M, 0, 0], [M, 2 * M, 0]]}})
    assert regimes.records[2] == pays
    regimes.apply(rp)
    assert rp.released == {2}  # the daily rest keeps asking for its rest


def test_the_steps_before_the_drivers_first_decision_are_not_booked():
    """Class "a toll that forgets the way back": the generator world's step records open
    with the day before its start, a wait the driver never chose. Booked as a kept day that
    earned nothing, it released each box on the driver's first excursions."""
    b = LogBuilder("d1", *HOME, CARGO).wait(M)  # the day before the world starts
    b.reposition(*NORTH).take("c5").wait(M)  # the driver's own steps: out of the box
    plain, warm = progress([pref("stay_inside_bbox", BOX, amount=50)], b), progress(
        [pref("stay_inside_bbox", BOX, amount=50)], b)
    booked_all, booked_own = PlaceRegimes(), PlaceRegimes()
    booked_all.observe(plain, CPK)
    booked_own.observe(warm, CPK, since=M)
    assert booked_all.records[1].kept.minutes == M
    assert plain.released == {1}  # a kept side of the unchosen day, at 0 a minute
    assert booked_own.records[1].kept == Regime()
    assert booked_own.records[1].broken == booked_all.records[1].broken
    assert warm.released == set()  # no record of keeping the box yet


def test_a_generator_run_books_only_the_drivers_own_minutes(tmp_path):
    """On a real generator-world run (the month scenario cut to 30 drivers and two days) the
    place rules' records hold no more minutes than the world ran."""
    from agents.app.runner import build_run
    from sim.scenario import load_scenario

    root = __import__("pathlib").Path(__file__).resolve().parents[1]
    sc = load_scenario(root / "scenarios" / "month.toml").with_overrides(
        scenario={"days": 2}, drivers={"count": 30}, memory={"mode": "bounded"})
    world, services = build_run(sc, tmp_path / "run")
    world.run()
    records = [r for m in services.memories.values() for r in m.regimes.records.values()]
    assert records  # some of the 30 drivers keep a box or a circle
    for r in records:
        assert 0 < r.kept.minutes + r.broken.minutes <= 2 * M
