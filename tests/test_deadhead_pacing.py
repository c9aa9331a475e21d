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
from sim.scenario import DriverSpec, load_scenario
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
          income: float = 3_000.0, amount: float = 100.0
          ) -> tuple[RuleProgress, LogBuilder]:
    """A driver with a K9 budget of `max_km` who drove to Dongguan and back (about 120 empty
    km) in its first day and a half, with `income` earned; its memory has priced the budget."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        scenario={"days": DAYS})
    entries = [pref("max_total_deadhead_km", {"max_km": max_km}, amount=amount, cap=cap)]
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version=version, parser=None),
                      n_days=DAYS, version=version, initial=Point(*HOME))
    for c in CARGO:
        rp.add_cargo(c)
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(rp)
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG).wait_until(36 * 60).reposition(*HOME)
    for rec in b.records:
        rp.on_step(rec)
    agent.driver.start, agent.driver.income = 0.0, income
    agent.pace_budgets(float(b.t), float(b.t))
    return rp, b


def used_km(b: LogBuilder) -> float:
    return sum(r["result"]["distance_km"] for r in b.records if "distance_km" in r["result"])


def test_a_budget_spent_faster_than_it_lasts_prices_its_km():
    rp, b = paced(200.0)
    used = used_km(b)
    burn = used / (b.t / 1440)
    pace = (200.0 - used) / (DAYS - b.t / 1440)
    want = 3_000.0 / used * (1 - pace / burn)
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
