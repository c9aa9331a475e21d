"""Rule progress over official step records: lines at boundaries, and the what-if of a take
equal to the official scorer's penalty difference on hand-built logs."""

from __future__ import annotations

import copy

import pytest

from memory.rule_progress import (
    DAY_KINDS,
    STEP_KINDS,
    HypoTake,
    RuleProgress,
    Status,
    rules_from_entries,
)
from sim.geo import Point
from sim.official.cargo_index import index_cargo
from sim.official.steps import StepLog
from sim.official.versions import settings_for
from sim.scoring.scorer import read_preferences, score_preferences
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_scoring_run import DG, HOME, NORTH, SAMPLES

DAYS = 3


def pref(name: str, params: dict, amount: float = 100.0, cap: float | None = None) -> dict:
    return {"content": f"rule {name}", "start_time": "2026-03-01 00:00:00",
            "end_time": "2026-03-31 23:59:59", "penalty_amount": amount, "penalty_cap": cap,
            "structured": {"kind": name, "params": params}}


def progress(entries: list[dict], builder: LogBuilder, cargo: list[dict],
             version: str = "S4", days: int = DAYS) -> RuleProgress:
    rp = RuleProgress(rules_from_entries(entries, n_days=days, version=version, parser=None),
                      n_days=days, version=version, initial=Point(*HOME))
    for c in cargo:
        rp.add_cargo(c)
    for rec in builder.records:
        rp.on_step(rec)
    return rp


def scorer_total(entries: list[dict], records: list[dict], cargo: list[dict],
                 days: int = DAYS) -> float:
    s = settings_for("S4")
    prefs = read_preferences(entries, s, None, DAYS)
    log = StepLog.from_records(records, index_cargo(cargo))
    return score_preferences(prefs, log, s, days, Point(*HOME))[1]


CARGO = [cargo_row("c1", HOME, DG, category="煤炭矿产", end_city="广东省东莞市", cost_time=150),
         cargo_row("c2", DG, NORTH, cost_time=120),
         cargo_row("c3", NORTH, HOME, cost_time=60, window=(0, 30)),
         cargo_row("c4", HOME, NORTH, cost_time=600, category="水果", window=(1300, 1500)),
         cargo_row("c5", NORTH, DG, cost_time=200, category="水果")]

PREFIXES = {
    "empty": lambda b: b,
    "morning": lambda b: b.wait(300, scan=2).take("c1", scan=10),
    "late": lambda b: b.wait(600).reposition(*NORTH).wait(700),
    "next day": lambda b: b.wait(1500).take("c2"),
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("prefix", sorted(PREFIXES))
def test_what_if_equals_the_scorers_penalty_difference(kind, prefix):
    entries = [pref(kind, SAMPLES[kind])]
    base = PREFIXES[prefix](LogBuilder("d1", *HOME, CARGO))
    rp = progress(entries, base, CARGO)
    for cid in ("c1", "c3", "c4", "c5"):
        if cid in base.attempted:
            continue
        b = copy.deepcopy(base)
        now, pos = b.t, Point(b.lat, b.lng)
        b.take(cid, scan=5)
        # a day kind's what-if covers the days through the one after the take ends (later
        # nights are not the take's doing), both futures followed by a rest to the end of
        # that horizon (a day a rest can still keep is not charged to the take): the scorer
        # over that horizon on both logs so extended
        # (a step kind's: both followed by a one-minute wait where they leave the driver);
        # a kind kept by resting at one place (K4: home) drives there before it rests
        days = min(DAYS, b.t // 1440 + 2) if kind in DAY_KINDS else DAYS
        with_take, without = b, copy.deepcopy(base)
        at = rp.rules[0].rule.rest_point()
        if kind in DAY_KINDS:
            until = (b.t // 1440 + 2) * 1440
            for log in (with_take, without):
                if at is not None and Point(log.lat, log.lng).km_to(at.lat, at.lng) > 1e-6:
                    log.reposition(at.lat, at.lng)
                if until > log.t:
                    log.wait(until - log.t)
        if kind in STEP_KINDS:
            for log in (with_take, without):
                log.wait(1)
        want = (scorer_total(entries, with_take.records, CARGO, days)
                - scorer_total(entries, without.records, CARGO, days))
        got = sum(rp.extra_by_rule(HypoTake(rp.cargo[cid], now, pos, scan=5),
                                   credit=False).values())
        assert got == pytest.approx(want, abs=1e-6), (kind, prefix, cid)


def test_rest_so_far_today_splits_at_midnight():
    e = [pref("daily_continuous_rest", {"min_minutes": 480, "days": "all"})]
    b = LogBuilder("d1", *HOME, CARGO).wait(1200).wait(400)  # 20:00 -> 02:40 next day
    rp = progress(e, b, CARGO)
    (s,) = rp.states(b.t)
    assert "rest today 2h40 of 8h00" in s.line
    # day 0 had 20h in one stretch: kept; today is still open, so nothing fined yet
    assert s.penalty == 0
    assert s.status is Status.OK
    cargo = [*CARGO, cargo_row("c6", NORTH, HOME, cost_time=1250)]
    b.cargo["c6"] = cargo[-1]
    b.reposition(*NORTH).take("c6")  # busy until after 23:00 of day 1: too late for 8 h
    assert b.t > 1440 + 23 * 60
    rp = progress(e, b, cargo)
    (s,) = rp.states(b.t)
    assert s.status is Status.AT_RISK
    assert "too late today" in s.line
    b.wait(60)  # day 1 closes without 8 h in one stretch: fined once
    (s,) = progress(e, b, cargo).states(b.t)
    assert s.status is Status.VIOLATED
    assert s.penalty == 100.0


def test_rest_due_late_in_the_day_asks_for_the_rest():
    e = [pref("daily_continuous_rest", {"min_minutes": 480, "days": "all"})]
    cargo = [*CARGO, cargo_row("c7", NORTH, HOME, cost_time=850)]
    b = LogBuilder("d1", *HOME, cargo).wait(60).reposition(*NORTH).take("c7")  # busy to ~15:30
    rp = progress(e, b, cargo)
    (s,) = rp.states(b.t)
    assert s.status is Status.DUE
    assert s.todo is not None
    assert s.todo.action == "wait"
    assert s.todo.minutes == 480


def test_deadhead_this_month_and_orders_today():
    e = [pref("max_total_deadhead_km", {"max_km": 20.0}),
         pref("max_orders_per_day", {"max_orders": 3})]
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).take("c5")
    rp = progress(e, b, CARGO)
    dead, orders = rp.states(b.t)
    km = round(b.records[0]["result"]["distance_km"])
    assert f"deadhead {km} of 20 km this month" in dead.line
    assert orders.line.startswith("orders today 1 of 3")
    rp2 = progress(e, b.wait(1440 * 2 - b.t), CARGO)
    assert rp2.states(b.t)[1].line.startswith("orders today 0 of 3")  # a new day


def test_quota_with_carry_counts_the_carried_orders():
    e = [pref("monthly_category_quota", {
        "category": "水果", "month": "2026-03", "min_orders": 2,
        "carry_from": {"category": "建材", "month": "2026-02", "min_orders": 1}})]
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).take("c5")
    rp = progress(e, b, CARGO)
    (s,) = rp.states(b.t)
    # February's missing 建材 order is still owed in March (no 建材 taken)
    assert "quota 水果 1 of 2 in 2026-03 (+1 carried)" in s.line
    assert s.status is Status.AT_RISK
    assert s.penalty == 200.0


def test_visit_days_line_and_due_visit():
    e = [pref("min_visit_days", {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 1.0,
                                 "min_days": 2})]
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait(600).reposition(*HOME)
    rp = progress(e, b, CARGO)
    (s,) = rp.states(b.t)
    assert s.line.startswith("visit days 1 of 2")
    b.wait(1500 - b.t)
    rp = progress(e, b, CARGO)
    (s,) = rp.states(b.t)  # day 1 of 3, one visit day missing: go now
    assert s.status is Status.DUE
    assert s.todo is not None
    assert s.todo.action == "go"


def test_points_are_the_places_rules_name():
    e = [pref("home_stay_event", SAMPLES["home_stay_event"]),
         pref("route_stops_on_day", SAMPLES["route_stops_on_day"]),
         pref("max_haul_km", {"max_km": 30.0})]
    rp = progress(e, LogBuilder("d1", *HOME, CARGO), CARGO)
    assert sorted(rp.points()) == sorted([NORTH, HOME, NORTH])


def test_outside_the_box_asks_to_go_back_inside():
    box = SAMPLES["stay_inside_bbox"]
    e = [pref("stay_inside_bbox", box)]
    b = LogBuilder("d1", *HOME, CARGO).reposition(*DG)  # Dongguan is north of the box
    (s,) = progress(e, b, CARGO).states(b.t)
    assert s.status is Status.DUE
    assert s.todo is not None
    assert box["lat_min"] < s.todo.lat < box["lat_max"]
    assert box["lng_min"] < s.todo.lng < box["lng_max"]
    assert s.penalty == 100.0  # the reposition ended outside
