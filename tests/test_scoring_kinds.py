"""Each competition preference kind's exact test (docs/competition.md §7.6) at its boundaries.

Logs come from tests/competition_logs.py (official action arithmetic), so the steps, minutes and
positions are those a real run would log; expectations are derived from the spec's wording.
"""

from __future__ import annotations

import pytest

from sim.geo import Point
from sim.official.cargo_index import index_cargo
from sim.official.steps import StepLog
from sim.official.versions import settings_for
from sim.official.windows import Window
from sim.preferences.kinds import RuleContext, build_rule
from tests.competition_logs import LogBuilder, cargo_row, hav

HOME = (22.54, 114.05)
NORTH = (22.63, 114.05)  # about 10 km north: an 11-minute drive at 60 km/h
FAR = (22.90, 114.05)  # about 40 km north
DG = (23.02, 113.75)  # Dongguan


def run(kind: str, params: dict, b: LogBuilder, *, version: str = "S4", days: int = 31,
        window: tuple[str | None, str | None] = (None, None)) -> dict:
    rule = build_rule(kind, params)
    log = StepLog.from_records(b.records, index_cargo(b.cargo.values()))
    ctx = RuleContext(settings_for(version), days, kind, Window.from_bounds(*window, n_days=days),
                      Point(*HOME))
    return rule.violations(log, ctx)


def penalty(kind: str, params: dict, b: LogBuilder, amount: float, cap: float | None,
            **kw) -> float:
    version = kw.get("version", "S4")
    rule = build_rule(kind, params)
    counters = run(kind, params, b, **kw)
    ctx = RuleContext(settings_for(version), kw.get("days", 31), kind)
    return rule.penalty(counters, amount, cap, ctx)


def builder(cargo: list[dict] | None = None, start: tuple[float, float] = HOME) -> LogBuilder:
    return LogBuilder("d1", *start, cargo or [])


# --------------------------------------------------------------------------- K1
def test_k1_rest_crossing_midnight_is_split_per_day():
    # Night rest [610, 1740) would satisfy day 1 whole, but clipped at midnight day 1 keeps 300.
    b = builder().wait(600).reposition(*NORTH).wait_until(1740).reposition(*HOME).wait(400) \
        .reposition(*NORTH)
    c = run("daily_continuous_rest", {"min_minutes": 480}, b, days=2)
    assert c["violating_days"] == [1]


def test_k1_threshold_met_exactly_passes_and_one_less_fails():
    ok = builder().wait(480).reposition(*NORTH)
    short = builder().wait(479).reposition(*NORTH)
    assert run("daily_continuous_rest", {"min_minutes": 480}, ok, days=1)["violations"] == 0
    assert run("daily_continuous_rest", {"min_minutes": 480}, short, days=1)["violations"] == 1


def test_k1_days_after_log_end_violate_and_weekdays_skip_sunday():
    b = builder().wait(600)
    assert run("daily_continuous_rest", {"min_minutes": 480}, b, days=3)["violating_days"] \
        == [1, 2]
    b2 = builder().reposition(*NORTH)  # no rest at all; day 0 is a Sunday
    p = {"min_minutes": 60, "days": "weekdays"}
    assert run("daily_continuous_rest", p, b2, days=2)["violating_days"] == [1]


def test_k1_scan_minutes_of_a_zero_wait_break_the_rest():
    joined = builder().wait(300).wait(300, scan=3)  # the scan is inside a resting wait
    broken = builder().wait(300).wait(0, scan=3).wait(300)
    p = {"min_minutes": 500}
    assert run("daily_continuous_rest", p, joined, days=1)["violations"] == 0
    assert run("daily_continuous_rest", p, broken, days=1)["violations"] == 1


# --------------------------------------------------------------------------- K2
def test_k2_wrapping_night_window_on_the_first_day():
    p = {"start": "22:00", "end": "06:00"}
    full = builder().wait_until(1800).reposition(*NORTH)
    gap = builder().wait_until(1799).reposition(*NORTH)
    assert run("rest_window_full_coverage", p, full, days=1)["violations"] == 0
    assert run("rest_window_full_coverage", p, gap, days=1)["violations"] == 1


def test_k2_window_past_the_log_end_counts_as_uncovered():
    b = builder().wait(1440)  # the log stops at the horizon; W_0 runs to 06:00 next day
    assert run("rest_window_full_coverage", {"start": "22:00", "end": "06:00"}, b,
               days=1)["violations"] == 1


def test_k2_weekend_start_on_sunday():
    b = builder().wait(1360).reposition(*NORTH).wait_until(1800)  # active [1360, 1371)
    assert b.records[1]["result"]["simulation_progress_minutes"] <= 1380
    p = {"start": "22:00", "end": "06:00"}
    assert run("rest_window_full_coverage", p, b, days=1)["violations"] == 1
    p["weekend_start"] = "23:00"  # day 0 (2026-03-01) is a Sunday
    assert run("rest_window_full_coverage", p, b, days=1)["violations"] == 0


# --------------------------------------------------------------------------- K3
def test_k3_early_morning_of_day_zero_is_never_checked_but_after_last_day_is():
    p = {"start": "22:00", "end": "06:00"}
    early = builder().wait(120).reposition(*NORTH).wait_until(2880)
    late = builder().wait_until(2940).reposition(*NORTH)  # day 2, 01:00, after D = {0, 1}
    assert run("quiet_window", p, early, days=2)["violations"] == 0
    assert run("quiet_window", p, late, days=2)["violating_days"] == [1]


def test_k3_failed_take_inside_the_window_counts():
    cargo = [cargo_row("gone", HOME, NORTH, remove=100)]  # expired long before 23:20
    b = builder(cargo).wait(1400).take("gone")
    assert b.records[-1]["result"]["accepted"] is False
    assert run("quiet_window", {"start": "22:00", "end": "06:00"}, b, days=1)["violations"] == 1


def test_k3_touching_the_window_is_not_overlap_and_per_step_counts_steps():
    b = builder().wait(1309).reposition(*NORTH)  # [1309, 1320): ends exactly at 22:00
    assert b.records[-1]["result"]["simulation_progress_minutes"] == 1320
    assert run("quiet_window", {"start": "22:00", "end": "06:00"}, b, days=1)["violations"] == 0
    lunch = builder().wait(725).reposition(*NORTH).reposition(*HOME)  # two moves in 12-13
    per_step = {"start": "12:00", "end": "13:00", "count": "per_step"}
    assert run("quiet_window", per_step, lunch, days=1)["violating_steps"] == [2, 3]
    per_day = {**per_step, "count": "per_day"}
    assert run("quiet_window", per_day, lunch, days=1)["violations"] == 1


# --------------------------------------------------------------------------- K4
K4 = {"lat": HOME[0], "lng": HOME[1], "radius_km": 1.0, "curfew": "22:00",
      "quiet_until": "06:00"}


def test_k4_home_at_curfew_and_quiet_until_morning():
    ok = builder().wait_until(1320).wait_until(1800).reposition(*NORTH)
    moved = builder().wait_until(1320).wait(180).reposition(*NORTH)  # leaves at 01:00
    away = builder().reposition(*NORTH).wait_until(1800)
    assert run("home_by_curfew", K4, ok, days=1)["violations"] == 0
    assert run("home_by_curfew", K4, moved, days=1)["violations"] == 1
    assert run("home_by_curfew", K4, away, days=1)["violations"] == 1


def test_k4_position_before_first_step_when_nothing_ended_by_curfew():
    b = builder().wait(2000)  # the first step ends after T: P is its `before` (home)
    assert run("home_by_curfew", K4, b, days=1)["violations"] == 0
    far = builder(start=NORTH).wait(2000)
    assert run("home_by_curfew", K4, far, days=1)["violations"] == 1


# --------------------------------------------------------------------------- K5-K8
def test_k5_category_and_window_per_version():
    cargo = [cargo_row("c1", HOME, NORTH, category="煤炭矿产"),
             cargo_row("c2", NORTH, HOME, category="蔬菜")]
    b = builder(cargo).take("c1").take("c2")
    p = {"categories": ["煤炭矿产"]}
    assert run("forbidden_cargo_category", p, b)["violating_steps"] == [1]
    window = ("2026-03-05 00:00:00", "2026-03-10 23:59:59")  # the take is on day 0
    assert run("forbidden_cargo_category", p, b, version="S3", window=window)["violations"] == 0
    assert run("forbidden_cargo_category", p, b, version="S4", window=window)["violations"] == 1


def test_k5_take_on_the_unscored_31st_day_counts_only_in_s2():
    cargo = [cargo_row("c1", HOME, NORTH, category="煤炭矿产", remove=40 * 1440)]
    b = builder(cargo).wait(30 * 1440 + 60).take("c1")
    p = {"categories": ["煤炭矿产"]}
    assert run("forbidden_cargo_category", p, b, version="S1")["violations"] == 0
    assert run("forbidden_cargo_category", p, b, version="S2")["violations"] == 1


def test_k6_place_is_a_substring_of_start_or_end_city():
    cargo = [cargo_row("c1", HOME, DG, end_city="广东省东莞市")]
    b = builder(cargo).take("c1")
    assert run("forbidden_cargo_place", {"place": "东莞"}, b)["violations"] == 1
    assert run("forbidden_cargo_place", {"place": "惠州"}, b)["violations"] == 0


def test_k7_haul_equal_to_the_limit_passes():
    cargo = [cargo_row("c1", HOME, DG)]
    b = builder(cargo).take("c1")
    haul = hav(*HOME, *DG)
    assert run("max_haul_km", {"max_km": haul}, b)["violations"] == 0
    assert run("max_haul_km", {"max_km": haul - 0.001}, b)["violations"] == 1


def test_k8_pickup_distance_recomputed_not_the_logged_one():
    cargo = [cargo_row("c1", FAR, DG)]
    b = builder(cargo).take("c1")
    b.records[0]["result"]["pickup_deadhead_km"] = 0.0  # must not matter
    d = hav(*HOME, *FAR)
    assert run("max_pickup_deadhead_km", {"max_km": d - 0.01}, b)["violations"] == 1
    assert run("max_pickup_deadhead_km", {"max_km": d}, b)["violations"] == 0


# --------------------------------------------------------------------------- K9-K12
def test_k9_deadhead_sums_repositions_and_accepted_pickups_per_km():
    cargo = [cargo_row("c1", FAR, DG), cargo_row("late", HOME, NORTH, window=(0, 5))]
    b = builder(cargo).reposition(*NORTH).take("late").take("c1")  # 'late' fails at pickup
    assert b.records[1]["result"]["detail"] == "load_time_window_expired"
    logged = b.records[0]["result"]["distance_km"] + b.records[2]["result"]["pickup_deadhead_km"]
    c = run("max_total_deadhead_km", {"max_km": 20.0}, b)
    assert c["deadhead_km"] == pytest.approx(logged)
    assert c["over_km"] == pytest.approx(logged - 20.0)
    capped = penalty("max_total_deadhead_km", {"max_km": 20.0}, b, 2.0, 10.0, version="S3")
    assert capped == 10.0
    assert penalty("max_total_deadhead_km", {"max_km": 20.0}, b, 2.0, 10.0, version="S4") \
        == pytest.approx(2.0 * (logged - 20.0))


BOX = {"lat_min": 22.50, "lat_max": 22.70, "lng_min": 113.90, "lng_max": 114.20}


def test_k10_endpoint_only_geometry_and_inclusive_box():
    # Inside -> inside across the outside: the path is never tested.
    b = builder().reposition(22.55, 113.95).reposition(22.55, 114.19)
    assert run("stay_inside_bbox", BOX, b)["violations"] == 0
    edge = builder().reposition(22.70, 114.20)  # exactly on the corner
    assert run("stay_inside_bbox", BOX, edge)["violations"] == 0
    out = builder().reposition(*FAR).wait(10).reposition(*HOME)
    assert run("stay_inside_bbox", BOX, out)["violating_steps"] == [1, 2, 3]


def test_k11_endpoints_within_radius_and_once_mode():
    centre = NORTH
    through = builder().reposition(*FAR)  # passes over the centre, both ends far from it
    p = {"lat": centre[0], "lng": centre[1], "radius_km": 5.0}
    assert run("forbidden_circle", p, through)["violations"] == 0
    b = builder().reposition(22.62, 114.05).wait(5).wait(5)
    r = hav(22.62, 114.05, *centre)
    exact = {**p, "radius_km": r}  # "within r" includes r itself
    assert run("forbidden_circle", exact, b)["violations"] == 3
    once = {**exact, "mode": "once"}
    assert penalty("forbidden_circle", once, b, 100.0, None) == 100.0
    assert penalty("forbidden_circle", exact, b, 100.0, None) == 300.0


def test_k12_listed_day_place_for_accepted_box_for_failed_and_moves():
    dg_box = {"lat_min": 22.9, "lat_max": 23.2, "lng_min": 113.5, "lng_max": 114.0}
    cargo = [cargo_row("a", HOME, DG, end_city="广东省东莞市", remove=3 * 1440),
             cargo_row("f", (23.11, 113.75), HOME, window=(0, 10), remove=3 * 1440),
             cargo_row("z", DG, HOME, window=(0, 10), remove=3 * 1440)]
    p = {"dates": ["2026-03-02"], "place": "东莞", "bbox": dg_box}
    day0 = builder(cargo).take("a")
    assert run("date_region_avoid", p, day0)["violations"] == 0
    day1 = builder(cargo).wait(1500).take("a").wait(30).take("f")
    assert day1.records[3]["result"]["accepted"] is False  # failed at its pickup, in the box
    assert run("date_region_avoid", p, day1)["violating_steps"] == [2, 4]
    # A failed take of 0 minutes (truck already at the pickup) has an empty action interval,
    # which overlaps no day, so it is not considered.
    zero = builder(cargo).wait(1500).take("a").wait(30).take("z")
    assert zero.records[3]["action_exec_cost_minutes"] == 0
    assert run("date_region_avoid", p, zero)["violating_steps"] == [2]


# --------------------------------------------------------------------------- K13-K18
def test_k13_worked_by_completion_day_and_failed_takes_do_not_count():
    cargo = [cargo_row("a", HOME, NORTH, cost_time=200),
             cargo_row("x", HOME, NORTH, remove=10)]
    b = builder(cargo).wait(1380).take("a").wait(5 * 1440).take("x")  # a ends on day 1
    c = run("min_days_without_orders", {"min_days": 30}, b, days=31)
    assert c["unworked_days"] == 30
    assert c["failed"] is False
    assert run("min_days_without_orders", {"min_days": 31}, b, days=31)["failed"] is True


def test_k14_failed_take_breaks_an_off_day_and_midnight_split():
    cargo = [cargo_row("x", HOME, NORTH, remove=10),
             cargo_row("a", HOME, NORTH, cost_time=120, remove=10 * 1440)]
    b = builder(cargo).wait(1440 + 60).take("x").wait(1440).take("a")  # x on day 1
    c = run("min_full_off_days", {"min_days": 3}, b, days=4)
    assert c["off_days"] == 2  # day 0 and day 3: days 1 (failed take) and 2 are active
    assert c["failed"] is True
    cross = builder(cargo[1:]).wait(1400).take("a")  # [1400, 1520) spans days 0 and 1
    assert run("min_full_off_days", {"min_days": 1}, cross, days=2)["off_days"] == 0


def test_k15_extra_orders_by_start_day_are_never_capped():
    cargo = [cargo_row(f"c{i}", HOME, HOME, cost_time=30) for i in range(3)]
    b = builder(cargo).take("c0").take("c1").take("c2")
    c = run("max_orders_per_day", {"max_orders": 1}, b)
    assert c["extra"] == 2
    for v in ("S1", "S2", "S3", "S4"):
        assert penalty("max_orders_per_day", {"max_orders": 1}, b, 50.0, 60.0, version=v) \
            == 100.0


def test_k16_starting_exactly_at_the_deadline_is_late():
    cargo = [cargo_row("a", HOME, NORTH)]
    at = builder(cargo).wait(478).take("a", scan=2)  # action_start = 480 = 08:00
    before = builder(cargo).wait(477).take("a", scan=2)
    assert run("first_order_deadline", {"latest": "08:00"}, at)["violations"] == 1
    assert run("first_order_deadline", {"latest": "08:00"}, before)["violations"] == 0


def test_k17_visits_count_over_all_steps_even_past_the_scored_days():
    p = {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 1.0, "min_days": 2}
    b = builder().reposition(*NORTH).wait(60).reposition(*HOME).wait_until(30 * 1440 + 10) \
        .reposition(*NORTH)
    for v in ("S1", "S2", "S4"):
        c = run("min_visit_days", p, b, version=v)
        assert c["visit_days"] == [0, 30]
        assert c["failed"] is False


def test_k18_distinct_start_days_in_window():
    cargo = [cargo_row(f"c{i}", HOME, DG, end_city="广东省东莞市") for i in range(3)]
    b = builder(cargo).take("c0").reposition(*HOME).take("c1").wait_until(1500) \
        .reposition(*HOME).take("c2")
    assert run("min_region_order_days", {"place": "东莞", "min_days": 2}, b)["order_days"] \
        == [0, 1]
    assert run("min_region_order_days", {"place": "东莞", "min_days": 3}, b)["failed"] is True
    win = ("2026-03-02 00:00:00", "2026-03-31 23:59:59")
    assert run("min_region_order_days", {"place": "东莞", "min_days": 1}, b, version="S3",
               window=win)["order_days"] == [1]


# --------------------------------------------------------------------------- K19-K21
def test_k19_taken_inside_the_window_and_null_cap():
    cargo = [cargo_row("777", HOME, NORTH)]
    b = builder(cargo).wait(100).take("777")
    inside = ("2026-03-01 00:00:00", "2026-03-01 23:59:59")
    outside = ("2026-03-02 00:00:00", "2026-03-02 23:59:59")
    p = {"cargo_id": "777"}
    assert run("must_take_cargo", p, b, version="S2", window=inside)["failed"] is False
    assert run("must_take_cargo", p, b, version="S2", window=outside)["failed"] is True
    none = builder(cargo).wait(100)
    assert penalty("must_take_cargo", p, none, 500.0, None) == 500.0
    assert penalty("must_take_cargo", p, none, 500.0, 300.0) == 300.0


def test_k20_carried_over_quota():
    cargo = [cargo_row("v1", HOME, HOME, category="蔬菜", remove=90 * 1440),
             cargo_row("v2", HOME, HOME, category="蔬菜", remove=90 * 1440),
             cargo_row("f1", HOME, HOME, category="水果", remove=90 * 1440)]
    b = builder(cargo).take("v1").wait_until(31 * 1440 + 10).take("v2").take("f1")
    p = {"category": "水果", "month": "2026-04", "min_orders": 2,
         "carry_from": {"category": "蔬菜", "month": "2026-03", "min_orders": 3}}
    c = run("monthly_category_quota", p, b, days=61)
    # March: 1 of 3 vegetables -> owes 2; one vegetable in April pays 1 back -> carried 1.
    assert (c["count"], c["shortfall"], c["carried"], c["missing"]) == (1, 1, 1, 2)
    assert penalty("monthly_category_quota", p, b, 100.0, 50.0, days=61) == 200.0


def test_k20_run_that_never_reaches_the_month_misses_in_full():
    b = builder().wait(100)
    p = {"category": "水果", "month": "2026-04", "min_orders": 4}
    assert run("monthly_category_quota", p, b, days=61)["missing"] == 4


def test_k21_cost_time_strictly_above_threshold_per_month():
    cargo = [cargo_row(f"c{i}", HOME, HOME, cost_time=t) for i, t in enumerate((600, 601, 700))]
    b = builder(cargo).take("c0").take("c1").take("c2")
    c = run("monthly_long_haul_cap", {"threshold_minutes": 600, "max_per_month": 1}, b)
    assert c["long_hauls"] == {"2026-03": 2}
    assert c["extra"] == 1


# --------------------------------------------------------------------------- K22-K23
K22 = {"date": "2026-03-02", "lat": NORTH[0], "lng": NORTH[1], "radius_km": 2.0,
       "arrive_by": "10:00", "min_dwell_minutes": 120}


def test_k22_arrival_at_the_deadline_is_in_time():
    ok = builder().reposition(*NORTH).wait_until(2040).wait(60).wait(60, scan=30)
    assert run("dwell_at_point_on_day", K22, ok) == {"arrival": 2040, "dwell_minutes": 120,
                                                     "failed": False}
    late = builder().reposition(*NORTH).wait_until(2041).wait(200)
    assert run("dwell_at_point_on_day", K22, late)["failed"] is True


def test_k22_non_wait_resets_the_run_and_last_wait_crosses_midnight():
    reset = builder().reposition(*NORTH).wait_until(1500).wait(60).reposition(*HOME) \
        .reposition(*NORTH).wait(60)
    c = run("dwell_at_point_on_day", K22, reset)
    assert c["dwell_minutes"] == 60
    assert c["failed"] is True
    p = {**K22, "arrive_by": None}
    night = builder().wait(2700).reposition(*NORTH).wait(200)  # arrives 22:31, waits past 24:00
    assert run("dwell_at_point_on_day", p, night)["dwell_minutes"] == 200


def test_k23_stops_in_order():
    a, b_ = NORTH, FAR
    p = {"date": "2026-03-02", "radius_km": 2.0, "stops": [
        {"lat": a[0], "lng": a[1], "arrive_by": "10:00", "min_dwell_minutes": 30},
        {"lat": b_[0], "lng": b_[1], "arrive_by": "12:00", "min_dwell_minutes": 0}]}
    good = builder().wait(1500).reposition(*a).wait(30).reposition(*b_)
    assert run("route_stops_on_day", p, good)["failed"] is False
    wrong = builder().wait(1500).reposition(*b_).reposition(*a).wait(30)
    c = run("route_stops_on_day", p, wrong)
    assert c["failed"] is True
    assert c["failed_stop"] == 2


# --------------------------------------------------------------------------- K24
K24 = {"w0": "2026-03-01 08:00:00", "w1": "2026-03-01 20:00:00",
       "w_end": "2026-03-02 08:00:00", "pickup_lat": NORTH[0], "pickup_lng": NORTH[1],
       "home_lat": HOME[0], "home_lng": HOME[1], "radius_km": 1.0,
       "min_pickup_dwell_minutes": 30, "rate_per_minute": 2.0}


def test_k24_pickup_then_home_then_stay():
    b = builder().wait(470).reposition(*NORTH).wait(30).reposition(*HOME).wait_until(2000)
    c = run("home_stay_event", K24, b)
    assert (c["pickup_done"], c["home_arrival"]) == (511, 522)
    assert c["absence_minutes"] == 1 + 30 + 11  # the part of the first move after w0
    assert c["failed"] is False
    assert penalty("home_stay_event", K24, b, 500.0, None) == 84.0
    assert penalty("home_stay_event", K24, b, 500.0, 50.0) == 50.0


def test_k24_a_wait_at_home_ending_at_w0_is_an_arrival_before_pickup():
    b = builder().wait(480).reposition(*NORTH).wait(30).reposition(*HOME).wait_until(2000)
    c = run("home_stay_event", K24, b)
    assert c["home_arrival"] == 480
    assert c["sequence_ok"] is False
    assert penalty("home_stay_event", K24, b, 500.0, None) == 500.0 + 2.0 * (11 + 30 + 11)


def test_k24_leaving_early_and_a_broken_pickup_dwell():
    left = builder().wait(470).reposition(*NORTH).wait(30).reposition(*HOME).wait_until(1500) \
        .reposition(0.0 + HOME[0], HOME[1])  # a 0-km move still counts as leaving
    c = run("home_stay_event", K24, left)
    assert c["left_early"] is True
    assert c["failed"] is True
    broken = builder().wait(470).reposition(*NORTH).wait(20).reposition(*FAR) \
        .reposition(*NORTH).wait(20).reposition(*HOME).wait_until(2000)
    c = run("home_stay_event", K24, broken)
    assert c["pickup_done"] is None
    assert c["failed"] is True


# --------------------------------------------------------------------------- windows (§7.3)
def test_validity_window_is_inclusive_of_its_end_second_and_touching_is_outside():
    w = Window.from_bounds("2026-03-01 08:00:00", "2026-03-01 23:59:59")
    assert (w.start, w.end) == (480, 1440)  # end 23:59:59 gives the next midnight
    assert w.covers_day(0)
    assert not w.covers_day(1)
    assert Window.from_bounds(None, "oops") == Window(0, 31 * 1440)
    cargo = [cargo_row("a", HOME, HOME, category="煤炭矿产", cost_time=60),
             cargo_row("b", HOME, HOME, category="煤炭矿产", cost_time=60)]
    p = {"categories": ["煤炭矿产"]}
    window = ("2026-03-01 08:00:00", "2026-03-01 23:59:59")
    # [420, 480) and [1440, 1500) only touch the window [480, 1440)
    touching = builder(cargo).wait(420).take("a").wait_until(1440).take("b")
    assert run("forbidden_cargo_category", p, touching, version="S3", window=window)[
        "violations"] == 0
    inside = builder(cargo).wait(421).take("a")  # [421, 481) overlaps [480, 1440)
    assert run("forbidden_cargo_category", p, inside, version="S3", window=window)[
        "violations"] == 1


def test_k3_equal_start_and_end_is_a_whole_day_window():
    b = builder().wait(900).reposition(*NORTH)  # 15:00
    assert run("quiet_window", {"start": "08:00", "end": "08:00"}, b, days=1)["violations"] == 1


def test_k4_position_is_the_last_step_ended_by_curfew():
    b = builder().reposition(*NORTH).wait(60).reposition(*HOME).wait_until(1800)
    assert run("home_by_curfew", K4, b, days=1)["violations"] == 0


def test_k13_two_orders_on_one_start_day_work_two_completion_days():
    cargo = [cargo_row("a", HOME, HOME, cost_time=60), cargo_row("b", HOME, HOME, cost_time=200)]
    b = builder(cargo).wait(1000).take("a").wait(300).take("b")  # a ends day 0, b ends day 1
    assert run("min_days_without_orders", {"min_days": 1}, b, days=31)["unworked_days"] == 29


def test_k24_a_move_starting_at_the_home_arrival_minute_is_leaving_early():
    b = builder().wait(470).reposition(*NORTH).wait(30).reposition(*HOME).reposition(*NORTH)
    c = run("home_stay_event", K24, b)
    assert c["home_arrival"] == b.records[3]["result"]["simulation_progress_minutes"]
    assert c["left_early"] is True
