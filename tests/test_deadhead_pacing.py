"""A monthly deadhead budget (K9) with no cap is paced to last the month.

Failure class "a deadhead budget spent by mid-month": K9 fines only the km past the budget, so
the first km look free. Two blind drivers under S4 (100 and 150 a km past 1,200 and 1,500 km)
spent their budgets by the 14th and then waited out most of the remaining days, since every
pickup past the budget cost more than the order paid. While the km used per day so far outrun
the km left per day to come, the memory prices a km of the budget (`MemoryAgent.pace_budgets`)
and a take's or a move's km within the budget pay it (`RuleProgress.empty_km_charge`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.memory_agent import MemoryAgent, rule_filter
from memory.rule_progress import EmptyKmFine, RuleProgress, rules_from_entries, take_of
from memory.time_price import TimePrice
from sim.geo import Geography, Point
from sim.official.versions import settings_for
from sim.scenario import DriverSpec, load_scenario
from sim.world.actions import Observation, Outcome
from sim.world.events import EventBus
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_order_slots_and_stops import Cand, Cargo, Opt
from tests.test_rule_progress import pref
from tests.test_scoring_run import DG, HOME, NORTH

ROOT = Path(__file__).resolve().parents[1]
DAYS = 31
CARGO = [cargo_row("near", NORTH, DG, cost_time=300),
         cargo_row("far", DG, NORTH, cost_time=300)]


def paced(max_km: float, *, version: str = "S4", cap: float | None = None,
          income: float = 3_000.0, amount: float = 100.0, offset: int = 0,
          window_from: str = "2026-03-01 00:00:00", share_work: bool = True
          ) -> tuple[RuleProgress, LogBuilder]:
    """A driver with a K9 budget of `max_km` who drove to Dongguan and back (about 120 empty
    km) in its first day and a half of work, with `income` earned, then asked its memory for
    a step (`refresh`, which prices the budget). `offset`: minutes from the rules' epoch to
    the world's start, as a world that starts later than the scorer's month gives; the log is
    on the rules' clock, so the driver's day and a half begin there."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        scenario={"days": DAYS})
    entries = [{**pref("max_total_deadhead_km", {"max_km": max_km}, amount=amount, cap=cap),
                "start_time": window_from}]
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version=version, parser=None),
                      n_days=DAYS, version=version, initial=Point(*HOME),
                      share_work=share_work)
    for c in CARGO:
        rp.add_cargo(c)
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(rp, clock_offset=offset)
    b = LogBuilder("d1", *HOME, CARGO).wait_until(offset).reposition(*DG)
    b.wait_until(offset + 36 * 60).reposition(*HOME)
    for rec in b.records:
        rp.on_step(rec)
    agent.driver.start, agent.driver.income = 0.0, income  # the world's clock
    agent.refresh(Observation("d1", float(b.t - offset), DAYS * 1440.0, Point(b.lat, b.lng),
                              1.5, 0.0, 0, 0.0, 0.0, 10, last_outcome=Outcome()))
    return rp, b


def expected(used: float, max_km: float, t: float, since: float, earned: float,
             version: str = "S4") -> float:
    """The pacing price: net per km times 1 - pace/burn, counted from `since` to the last
    day the version scores."""
    burn = used / ((t - since) / 1440)
    pace = (max_km - used) / (settings_for(version).horizon_days(DAYS) - t / 1440)
    return earned / used * (1 - pace / burn)


def used_km(b: LogBuilder) -> float:
    return sum(r["result"]["distance_km"] for r in b.records if "distance_km" in r["result"])


def test_a_budget_spent_faster_than_it_lasts_prices_its_km():
    rp, b = paced(200.0)
    want = expected(used_km(b), 200.0, b.t, 0.0, 3_000.0)
    assert rp.km_price == {rp.rules[0].index: pytest.approx(want, rel=1e-3)}
    # a take's pickup km within the budget pay it, under the budget's rule
    near = take_of(rp, "near", b.t, Point(b.lat, b.lng))
    assert near is not None
    km = rp.hypothetical(near).pickup_deadhead_km
    assert km > 5
    assert rp.extra_penalty_by_rule(near) == {rp.rules[0].index: pytest.approx(want * km,
                                                                                rel=1e-3)}
    # so does a move, and the views' price of empty km says so
    move = rp.reposition_extra(b.t, Point(b.lat, b.lng), *NORTH)
    assert move == pytest.approx(want * Point(*HOME).km_to(*NORTH), rel=1e-3)
    (fine,) = rp.empty_km_fines(rp.states(b.t, Point(b.lat, b.lng)))
    assert fine.paced == pytest.approx(want)
    assert "paced to last the month" in fine.line()


def test_a_budget_on_pace_is_free():
    rp, b = paced(20_000.0)
    assert rp.km_price == {}
    near = take_of(rp, "near", b.t, Point(b.lat, b.lng))
    assert near is not None
    assert rp.extra_penalty(near) == 0.0


def test_a_capped_budget_is_left_to_its_cap():
    """Under S2 a K9 fine stops at its cap: the most it can cost is known, and the rule is
    priced whole (`_book`), not paced."""
    rp, _ = paced(200.0, version="S2", cap=4_000.0)
    assert rp.km_price == {}
    rp, _ = paced(200.0, version="S4", cap=4_000.0)  # S4 applies no cap
    assert rp.km_price != {}


def test_the_price_never_passes_the_fine_nor_charges_km_past_the_budget():
    rp, b = paced(150.0, income=1e7)
    i = rp.rules[0].index
    assert rp.km_price == {i: 100.0}  # the fine a km
    far = take_of(rp, "far", b.t, Point(b.lat, b.lng))
    assert far is not None
    left = 150.0 - used_km(b)
    km = rp.hypothetical(far).pickup_deadhead_km
    assert km > left > 0
    # the km within the budget are paced, those past it fined by the kind's own test
    assert rp.extra_penalty(far) == pytest.approx(100.0 * left + 100.0 * (km - left), abs=1.0)
    # a move past the budget the same: its km within paced, the rest fined, none charged twice
    here = Point(b.lat, b.lng)
    move_km = here.km_to(*DG)
    assert move_km > left
    assert rp.reposition_extra(b.t, here, *DG) == pytest.approx(
        100.0 * left + 100.0 * (move_km - left), abs=1.0)
    assert EmptyKmFine(left, 100.0, 100.0).fine(km) == pytest.approx(100.0 * km)


def test_the_pacing_ranks_a_near_pickup_first():
    """Two takes of equal net: the one whose pickup spends less of the budget ranks first,
    and the other shows its charge as a fine."""
    rp, b = paced(200.0)
    now, pos = b.t, Point(b.lat, b.lng)
    pairs = [(Cand(Cargo("far")), Opt(3_000.0, now + 600)),
             (Cand(Cargo("near")), Opt(3_000.0, now + 600))]
    kept = rule_filter(rp, pairs, now, pos, min_net=0.0, price=TimePrice())
    assert [c.cargo.cargo_id for c, _ in kept] == ["near", "far"]
    assert kept[0][1].net > kept[1][1].net
    rp.pace_empty_km({})
    kept = rule_filter(rp, pairs, now, pos, min_net=0.0, price=TimePrice())
    assert [o.net for _, o in kept] == [3_000.0, 3_000.0]


def test_the_burn_counts_from_the_drivers_start_on_the_rules_clock():
    """A world that starts nine days into the scorer's month counts the burn from its own
    start: counted from the 1st, the same 120 km would look like 12 km a day and nothing
    would be paced. The kind counts a month's km whatever the rule's window (no version
    applies windows to K9), and so does the pacing."""
    late = 9 * 1440
    rp, b = paced(600.0, offset=late)
    want = expected(used_km(b), 600.0, b.t, late, 3_000.0)
    assert want > 0
    assert rp.km_price == {rp.rules[0].index: pytest.approx(want, rel=1e-3)}
    for version in ("S1", "S2", "S3", "S4"):
        rp, b = paced(600.0, version=version, window_from="2026-03-02 00:00:00")
        assert rp.km_price == {rp.rules[0].index: pytest.approx(
            expected(used_km(b), 600.0, b.t, 0.0, 3_000.0, version), rel=1e-3)}


def test_the_shared_path_paces_as_the_reference_does():
    """RuleProgress(share_work=False), which re-reads the log for every answer, prices the
    pacing exactly as the shared path does."""
    got = []
    for share in (True, False):
        rp, b = paced(200.0, share_work=share)
        pos = Point(b.lat, b.lng)
        take = take_of(rp, "near", b.t, pos)
        assert take is not None
        got.append((rp.km_price, rp.extra_penalty_by_rule(take),
                    rp.reposition_extra(b.t, pos, *NORTH), rp.budgets_left(b.t, pos)))
    assert got[0] == got[1]
    assert got[0][0]
