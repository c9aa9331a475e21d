"""Hindsight optimum: brute force on small instances, never below a realised policy, boundaries.

The brute force and the policies below re-implement the take arithmetic from docs/competition.md §4
on their own (not through sim.analysis.hindsight), so a shared mistake would have to be made twice.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

import numpy as np
import pytest

from sim.analysis.hindsight import (
    Bound,
    Caps,
    HindsightCargo,
    HindsightLimits,
    HindsightResult,
    SearchBudget,
    bounded_hindsight_for_run,
    hindsight_for_run,
    hindsight_share,
    pay_horizon,
    relaxed_upper_bound,
    solve,
)

EPOCH = datetime(2026, 3, 1)
SPEED = 60.0


def wall(minute: int) -> str:
    return (EPOCH + timedelta(minutes=minute)).strftime("%Y-%m-%d %H:%M:%S")


def hav(a: tuple[float, float], b: tuple[float, float]) -> float:
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2)
    return 2 * 6371.0 * math.asin(math.sqrt(min(1.0, max(0.0, h))))


def minutes(d: float) -> int:
    return 1 if d <= 0 else max(1, math.ceil(d / SPEED * 60))


def record(cid: str, create: int, remove: int, start: tuple[float, float],
           end: tuple[float, float], cost_time: int, price_fen: float,
           window: tuple[int, int] | None = None, category: str = "蔬菜",
           start_city: str = "广东省深圳市", end_city: str = "广东省东莞市") -> dict:
    return {
        "cargo_id": cid, "create_time": wall(create), "remove_time": wall(remove),
        "start": {"lat": start[0], "lng": start[1], "city": start_city},
        "end": {"lat": end[0], "lng": end[1], "city": end_city},
        "load_time": None if window is None else [wall(window[0]), wall(window[1])],
        "cost_time_minutes": cost_time, "price": price_fen, "cargo_name": category,
    }


def driver(lat: float, lng: float, cpk: float = 1.5, prefs: list | None = None,
           did: str = "D1") -> dict:
    return {"driver_id": did, "current_lat": lat, "current_lng": lng, "cost_per_km": cpk,
            "preferences": prefs or []}


def solve_one(records: list[dict], drv: dict, days: int = 1, version: str = "S4",
              **caps) -> HindsightResult:
    return hindsight_for_run(records, [drv], days, version, SPEED, **caps)[drv["driver_id"]]


# ---------------------------------------------------------------------------------------------
# an independent take model (spec §4.4, §6) for brute force and the policies


class Take:
    """Outcome of a take of `rec` by a truck at `pos` whose action starts at `start`."""

    def __init__(self, rec: dict, pos: tuple[float, float], start: int):
        s = (rec["start"]["lat"], rec["start"]["lng"])
        c = int((datetime.fromisoformat(rec["create_time"]) - EPOCH).total_seconds() // 60)
        r = int((datetime.fromisoformat(rec["remove_time"]) - EPOCH).total_seconds() // 60)
        self.pickup_km = hav(pos, s)
        pick_min = 0 if self.pickup_km <= 1e-6 else minutes(self.pickup_km)
        self.ok = c <= start <= r
        arrival = start + pick_min
        ws = we = None
        if rec["load_time"] is not None:
            ws, we = (int((datetime.fromisoformat(x) - EPOCH).total_seconds() // 60)
                      for x in rec["load_time"])
            if arrival > we:
                self.ok = False
        self.end = max(arrival, ws if ws is not None else arrival) + rec["cost_time_minutes"]
        self.haul_km = hav(s, (rec["end"]["lat"], rec["end"]["lng"]))
        self.km = round(self.pickup_km, 2) + round(self.haul_km, 2)
        self.price = rec["price"] / 100


def penalty(rules: list[dict], rec: dict, take: Take, start: int) -> float:
    """Uncapped per-take rules K5/K7/K8 (windows not used in the random instances)."""
    total = 0.0
    for rule in rules:
        k, p = rule["kind"], rule["params"]
        hit = ((k == "forbidden_cargo_category" and rec["cargo_name"] in p["categories"])
               or (k == "max_haul_km" and take.haul_km > p["max_km"])
               or (k == "max_pickup_deadhead_km" and take.pickup_km > p["max_km"]))
        total += rule["penalty_amount"] if hit else 0.0
    return total


def brute_force(records: list[dict], start: tuple[float, float], cpk: float, h_pay: int,
                h_sim: int, rules: list[dict]) -> float:
    """Every sequence of distinct takes, each by direct take or reposition-then-take."""
    create = {r["cargo_id"]: int((datetime.fromisoformat(r["create_time"]) - EPOCH)
                                 .total_seconds() // 60) for r in records}

    def best(pos: tuple[float, float], t: int, used: frozenset) -> float:
        out = 0.0
        for rec in records:
            cid = rec["cargo_id"]
            if cid in used:
                continue
            s = (rec["start"]["lat"], rec["start"]["lng"])
            end = (rec["end"]["lat"], rec["end"]["lng"])
            plans = []
            a = max(t, create[cid])
            plans.append((a, pos, 0.0))  # direct take at the earliest online minute
            d = hav(pos, s)
            if d > 1e-6:  # reposition (costed by its 2-dp distance), then take at once
                plans.append((max(t + minutes(d), create[cid]), s, round(d, 2)))
            for a, at, rep_km in plans:
                if a >= h_sim:
                    continue
                take = Take(rec, at, a)
                if not take.ok or take.end > h_pay:
                    continue
                gain = (take.price - cpk * (take.km + rep_km)
                        - penalty(rules, rec, take, a))
                out = max(out, gain + best(end, take.end, used | {cid}))
        return out

    return best(start, 0, frozenset())


def random_instance(rng: np.random.Generator, n: int) -> tuple[list[dict], dict]:
    def point() -> tuple[float, float]:
        return (round(23.0 + rng.uniform(0, 0.4), 2), round(113.3 + rng.uniform(0, 0.4), 2))

    recs = []
    for i in range(n):
        c = int(rng.integers(0, 600))
        r = c + int(rng.integers(0, 240))
        win = None
        if rng.random() < 0.5:
            ws = c + int(rng.integers(-30, 120))
            win = (ws, ws + int(rng.integers(0, 120)))
        s = point()
        e = s if rng.random() < 0.1 else point()
        recs.append(record(f"C{i}", c, r, s, e, int(rng.integers(0, 240)),
                           float(rng.integers(2000, 40000)), win,
                           category=str(rng.choice(["蔬菜", "煤炭矿产"]))))
    p = point() if rng.random() < 0.8 else (recs[0]["start"]["lat"], recs[0]["start"]["lng"])
    return recs, driver(p[0], p[1], cpk=float(rng.uniform(0.5, 3.0)))


@pytest.mark.parametrize("seed", range(50))
def test_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    recs, drv = random_instance(rng, int(rng.integers(4, 8 if seed % 5 else 9)))
    rules = []
    if seed % 3 == 0:
        rules = [
            {"kind": "forbidden_cargo_category", "params": {"categories": ["煤炭矿产"]},
             "penalty_amount": float(rng.uniform(10, 200)), "penalty_cap": None},
            {"kind": "max_pickup_deadhead_km", "params": {"max_km": 15.0},
             "penalty_amount": float(rng.uniform(10, 200)), "penalty_cap": None},
            {"kind": "max_haul_km", "params": {"max_km": 20.0},
             "penalty_amount": float(rng.uniform(10, 200)), "penalty_cap": None},
        ]
    drv["preferences"] = rules
    # a short run so the horizon binds: N = 1 day, S4 pays up to 1440
    res = solve_one(recs, drv, days=1, version="S4")
    want = brute_force(recs, (drv["current_lat"], drv["current_lng"]), drv["cost_per_km"],
                       1440, 1440, rules)
    assert res.net == pytest.approx(want, abs=1e-6)
    assert res.exact
    assert res.relaxed_kinds == ()
    # the reported plan is consistent with the totals
    assert res.net == pytest.approx(res.gross - res.cost - res.penalty, abs=1e-9)
    assert len({o.cargo_id for o in res.orders}) == len(res.orders)
    # the plan executes under the independent take model, step by step
    by_id = {r["cargo_id"]: r for r in recs}
    pos, t = (drv["current_lat"], drv["current_lng"]), 0
    for o in res.orders:
        rec = by_id[o.cargo_id]
        assert o.action_start >= t
        if o.reach.value == "reposition":
            s = (rec["start"]["lat"], rec["start"]["lng"])
            assert o.reposition_start == t
            assert o.action_start >= t + minutes(hav(pos, s))
            pos = s
        take = Take(rec, pos, o.action_start)
        assert take.ok
        assert take.end == o.finish <= 1440
        pos, t = (rec["end"]["lat"], rec["end"]["lng"]), o.finish


# ---------------------------------------------------------------------------------------------
# policies that really run: the optimum is never below them


def run_policy(records: list[dict], drv: dict, days: int, version: str, reposition: bool) -> float:
    """A greedy driver under the §4 rules: best immediate net among online cargo, else wait.

    With `reposition`, it first drives empty to the chosen pickup, then takes it if still online.
    """
    h_pay, h_sim = pay_horizon(days, version), days * 1440
    cpk = drv["cost_per_km"]
    pos, t, net = (drv["current_lat"], drv["current_lng"]), 0, 0.0
    attempted: set[str] = set()
    while t < h_sim:
        best, best_gain = None, 0.0
        for rec in records:
            if rec["cargo_id"] in attempted:
                continue
            take = Take(rec, pos, t)
            if take.ok and take.end <= h_pay and take.price - cpk * take.km > best_gain:
                best, best_gain = rec, take.price - cpk * take.km
        if best is None:
            t += 10
            continue
        attempted.add(best["cargo_id"])
        s = (best["start"]["lat"], best["start"]["lng"])
        if reposition and hav(pos, s) > 1e-6:
            d = hav(pos, s)
            t += minutes(d)
            net -= cpk * round(d, 2)
            pos = s
        take = Take(best, pos, t)
        if not take.ok:  # expired during the reposition: the 1-minute failure, nothing paid
            t += 1
            continue
        if take.end <= h_pay:
            net += take.price
        net -= cpk * take.km
        t, pos = take.end, (best["end"]["lat"], best["end"]["lng"])
    return net


@pytest.mark.parametrize("seed", range(20))
def test_never_below_a_greedy_policy(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    recs, drv = random_instance(rng, 30)
    # spread cargo over two days; S2 pays only min(N, 30) days, so use S3 with N = 2
    for i, rec in enumerate(recs):
        if i % 2:
            for key in ("create_time", "remove_time"):
                rec[key] = wall(int((datetime.fromisoformat(rec[key]) - EPOCH)
                                    .total_seconds() // 60) + 1440)
            if rec["load_time"]:
                rec["load_time"] = [wall(int((datetime.fromisoformat(x) - EPOCH)
                                             .total_seconds() // 60) + 1440)
                                    for x in rec["load_time"]]
    res = solve_one(recs, drv, days=2, version="S3")
    for reposition in (False, True):
        realised = run_policy(recs, drv, 2, "S3", reposition)
        assert res.net >= realised - 1e-6
    assert res.net > 0  # the instances have profitable cargo, so the bound is informative
    # option C only adds ways to reach a take
    assert solve_one(recs, drv, days=2, version="S3", approach_commit=True).net >= res.net - 1e-6


# ---------------------------------------------------------------------------------------------
# boundaries


HERE = (23.10, 113.30)
THERE = (23.10, 113.60)  # about 30.7 km east


def test_take_ending_exactly_at_h_is_paid_one_minute_later_is_not() -> None:
    h = pay_horizon(1, "S4")
    paid = solve_one([record("A", 0, 100, HERE, THERE, h, 50000)], driver(*HERE))
    assert [o.cargo_id for o in paid.orders] == ["A"]
    assert paid.orders[0].finish == h
    assert paid.net == pytest.approx(500 - 1.5 * round(hav(HERE, THERE), 2))
    late = solve_one([record("A", 0, 100, HERE, THERE, h + 1, 50000)], driver(*HERE))
    assert late.orders == ()
    assert late.net == 0.0


def test_s2_pays_thirty_days_of_a_31_day_run() -> None:
    h = pay_horizon(31, "S2")
    assert h == 30 * 1440
    rec = record("A", h - 100, h - 50, HERE, HERE, 100, 10000)
    assert solve_one([rec], driver(*HERE), days=31, version="S2").net == pytest.approx(100.0)
    rec = record("A", h - 100, h - 50, HERE, HERE, 101, 10000)
    assert solve_one([rec], driver(*HERE), days=31, version="S2").net == 0.0
    assert solve_one([rec], driver(*HERE), days=31, version="S3").net == pytest.approx(100.0)


def test_arrival_exactly_at_window_end_is_accepted() -> None:
    m = minutes(hav(HERE, THERE))
    ok = solve_one([record("W", 0, 5, THERE, HERE, 10, 30000, (0, m))], driver(*HERE))
    assert [o.cargo_id for o in ok.orders] == ["W"]
    assert ok.orders[0].finish == m + 10
    late = solve_one([record("W", 0, 5, THERE, HERE, 10, 30000, (0, m - 1))], driver(*HERE))
    assert late.orders == ()


def test_direct_take_commits_while_online_even_if_it_expires_during_the_drive() -> None:
    m = minutes(hav(HERE, THERE))
    res = solve_one([record("X", 0, 5, THERE, HERE, 10, 30000)], driver(*HERE))
    assert res.orders[0].action_start == 0
    assert res.orders[0].reposition_start is None
    assert res.orders[0].finish == m + 10


def test_reposition_first_when_the_window_closes_before_a_late_direct_take() -> None:
    m = minutes(hav(HERE, THERE))
    # listed at m+5, window ends at m+20: a direct take from HERE arrives at 2m+5, too late
    res = solve_one([record("B", m + 5, m + 10, THERE, HERE, 10, 30000, (0, m + 20))],
                    driver(*HERE))
    assert len(res.orders) == 1
    assert res.orders[0].reposition_start == 0
    assert res.orders[0].action_start == m + 5
    assert res.orders[0].finish == m + 15


def test_a_cargo_is_taken_once_even_when_a_loop_would_repeat_it() -> None:
    loop = record("L", 0, 1000, HERE, HERE, 10, 10000)
    res = solve_one([loop], driver(*HERE))
    assert [o.cargo_id for o in res.orders] == ["L"]
    assert res.net == pytest.approx(100.0)


def test_pickup_deadhead_rule_prefers_reposition_and_category_rule_costs_each_take() -> None:
    m = minutes(hav(HERE, THERE))
    recs = [record("P", 0, 10 * m, THERE, HERE, 10, 30000, category="煤炭矿产")]
    k8 = {"kind": "max_pickup_deadhead_km", "params": {"max_km": 10.0},
          "penalty_amount": 200.0, "penalty_cap": None}
    res = solve_one(recs, driver(*HERE, prefs=[k8]))
    assert res.orders[0].reposition_start == 0
    assert res.penalty == 0.0
    k5 = {"kind": "forbidden_cargo_category", "params": {"categories": ["煤炭矿产"]},
          "penalty_amount": 50.0, "penalty_cap": None}
    free = solve_one(recs, driver(*HERE))
    fined = solve_one(recs, driver(*HERE, prefs=[k5]))
    assert fined.net == pytest.approx(free.net - 50.0)
    # outside the rule's validity window the category costs nothing
    k5w = {**k5, "start_time": wall(2000), "end_time": wall(3000)}
    assert solve_one(recs, driver(*HERE, prefs=[k5w])).net == pytest.approx(free.net)
    # a penalty larger than the gain removes the take
    big = {**k5, "penalty_amount": 1e6}
    assert solve_one(recs, driver(*HERE, prefs=[big])).orders == ()


def test_non_per_take_kinds_and_capped_rules_are_reported_as_relaxations() -> None:
    recs = [record("A", 0, 100, HERE, THERE, 60, 50000, category="煤炭矿产")]
    k1 = {"kind": "daily_continuous_rest", "params": {"min_minutes": 480, "days": "all"},
          "penalty_amount": 100.0, "penalty_cap": None}
    k5c = {"kind": "forbidden_cargo_category", "params": {"categories": ["煤炭矿产"]},
           "penalty_amount": 50.0, "penalty_cap": 300.0}
    k7c = {"kind": "max_haul_km", "params": {"max_km": 1.0}, "penalty_amount": 50.0,
           "penalty_cap": 300.0}
    free = solve_one(recs, driver(*HERE))
    res = solve_one(recs, driver(*HERE, prefs=[k1, k5c, k7c]), version="S3")
    # S3: K5 ignores its cap (exact), K7's finite cap is relaxed
    assert res.relaxed_kinds == ("daily_continuous_rest", "max_haul_km")
    assert res.net == pytest.approx(free.net - 50.0)
    # S4 never applies caps: both are exact
    res4 = solve_one(recs, driver(*HERE, prefs=[k5c, k7c]), version="S4")
    assert res4.relaxed_kinds == ()
    assert res4.net == pytest.approx(free.net - 100.0)
    # a text preference nobody parsed is an unparsed relaxation
    text = solve_one(recs, driver(*HERE, prefs=[{"content": "每天休息8小时"}]))
    assert text.relaxed_kinds == ("unparsed",)


def test_caps_are_flagged_and_bad_rows_are_skipped() -> None:
    recs = [record("A", 0, 100, HERE, THERE, 60, 50000),
            record("BAD", 0, 100, HERE, THERE, 60, 90000, window=(50, 10)),
            {**record("NEG", 0, 100, HERE, THERE, 60, 90000), "cost_time_minutes": "x"}]
    res = solve_one(recs, driver(*HERE), max_successors=3, max_idle_minutes=120)
    assert not res.exact
    assert [o.cargo_id for o in res.orders] == ["A"]


def test_share_and_several_drivers() -> None:
    recs = [record("A", 0, 100, HERE, THERE, 60, 50000)]
    out = hindsight_for_run(recs, [driver(*HERE, did="D1"), driver(*THERE, did="D2")], 1, "S4",
                            SPEED)
    assert set(out) == {"D1", "D2"}
    assert out["D1"].net > out["D2"].net > 0  # D2 must drive to the pickup first
    assert hindsight_share(out["D1"].net / 2, out["D1"]) == pytest.approx(0.5)
    assert math.isnan(hindsight_share(0.0, solve_one([], driver(*HERE))))


def test_an_earlier_richer_label_does_not_hide_a_chain_that_can_still_take_its_cargo() -> None:
    # After X alone the truck is back at HERE at minute 10 with 100 yuan; after Z it is there at
    # minute 20 with 95 but can still take X, while Z was only online at minute 0.
    recs = [record("X", 0, 1000, HERE, HERE, 10, 10000), record("Z", 0, 0, HERE, HERE, 20, 9500)]
    res = solve_one(recs, driver(*HERE))
    assert [o.cargo_id for o in res.orders] == ["Z", "X"]
    assert res.net == pytest.approx(195.0)


def test_text_preferences_go_through_the_given_parser_with_their_validity_window() -> None:
    recs = [record("A", 0, 100, HERE, THERE, 60, 50000, category="煤炭矿产")]
    text = {"content": "不接煤炭矿产", "penalty_amount": 80.0, "penalty_cap": None,
            "start_time": wall(0), "end_time": wall(1439)}

    def parse(p: dict) -> dict | None:
        if "煤炭" not in p["content"]:
            return None
        return {"kind": "forbidden_cargo_category", "params": {"categories": ["煤炭矿产"]},
                "penalty_amount": p["penalty_amount"], "penalty_cap": p["penalty_cap"]}

    free = solve_one(recs, driver(*HERE))
    out = hindsight_for_run(recs, [driver(*HERE, prefs=[text])], 1, "S4", SPEED,
                            parse_preference=parse)["D1"]
    assert out.relaxed_kinds == ()
    assert out.net == pytest.approx(free.net - 80.0)


def test_records_follow_the_scorer_on_duplicates_and_the_simulator_on_cost_time() -> None:
    first = record("A", 0, 100, HERE, THERE, 60, 10000)
    later = {**record("A", 0, 100, HERE, THERE, 60, 50000), "cost_time_minutes": "60"}
    res = solve_one([first, later], driver(*HERE))
    assert res.gross == pytest.approx(500.0)
    trunc = {**record("F", 0, 100, HERE, THERE, 0, 50000), "cost_time_minutes": 1440.9}
    assert [o.finish for o in solve_one([trunc], driver(*HERE)).orders] == [1440]


def test_approach_commit_covers_a_policy_that_repositions_part_way_then_takes() -> None:
    # listed at 10, delisted at 20, window ends at 35; the pickup is 31 minutes away
    rec = record("S", 10, 20, THERE, HERE, 30, 30000, (0, 35))
    drv = driver(*HERE)
    ab = solve_one([rec], drv)
    assert ab.orders == ()  # A arrives at 41 > 35; B commits at 31 > 20
    # a real policy: reposition about 10 km toward the pickup, then take it directly
    mid = (23.10, 113.40)
    t1 = minutes(hav(HERE, mid))
    take = Take(rec, mid, t1)
    assert take.ok
    realised = take.price - 1.5 * (round(hav(HERE, mid), 2) + take.km)
    assert realised > ab.net
    abc = solve_one([rec], drv, approach_commit=True)
    assert abc.approach_commit
    assert [o.reach.value for o in abc.orders] == ["approach"]
    assert abc.orders[0].action_start == 10
    assert abc.orders[0].finish == minutes(hav(HERE, THERE)) + 30
    assert abc.net >= realised - 1e-6


def test_the_vectorised_pruning_distance_gives_the_scalar_drive_minutes() -> None:
    """The search prices candidates with `haversine_from_np` (numpy's sin/cos), the replay and the
    environment with the scalar §2.1 haversine (libm): they may differ in the last ulp, which is
    harmless only if no drive minute, snap or rounded-km decision changes. 4M pairs measured
    0 minute disagreements and |Δ| ≤ 2.3e-13 km; this checks a 100k sample of Guangdong."""
    from sim.geo import haversine_from_np, haversine_km
    from sim.official.timebase import drive_minutes, drive_minutes_np

    rng = np.random.default_rng(7)
    lat, lng = rng.uniform(20.2, 25.5, 20_000), rng.uniform(109.6, 117.3, 20_000)
    p2, l2 = np.radians(lat), np.radians(lng)
    for a, b in rng.uniform((20.2, 109.6), (25.5, 117.3), (5, 2)):
        d = haversine_from_np(float(a), float(b), p2, l2, np.cos(p2))
        s = np.array([haversine_km(float(a), float(b), x, y)
                      for x, y in zip(lat, lng, strict=True)])
        assert np.abs(d - s).max() < 1e-9
        for speed in (60.0, 47.0):
            np.testing.assert_array_equal(
                drive_minutes_np(d, speed), [drive_minutes(x, speed) for x in s])
        np.testing.assert_array_equal(np.round(d, 2), np.round(s, 2))


# ---------------------------------------------------------------------------------------------
# bounded search: the bench's envelope (time, memory) and the labels of what it found


def two_day_instance(seed: int, n: int = 30) -> tuple[list[dict], dict]:
    rng = np.random.default_rng(2000 + seed)
    recs, drv = random_instance(rng, n)
    for i, rec in enumerate(recs):  # half of them on the second day
        if i % 2:
            for key in ("create_time", "remove_time"):
                rec[key] = wall(int((datetime.fromisoformat(rec[key]) - EPOCH)
                                    .total_seconds() // 60) + 1440)
            rec["load_time"] = None
    return recs, drv


@pytest.mark.parametrize("seed", range(15))
def test_relaxed_upper_bound_is_above_the_optimum_and_every_policy(seed: int) -> None:
    recs, drv = two_day_instance(seed)
    res = solve_one(recs, drv, days=2, version="S3", approach_commit=True)
    table = HindsightCargo.from_records(recs)
    ub = relaxed_upper_bound(table, days=2, version="S3", cost_per_km=drv["cost_per_km"])
    assert ub >= res.net - 1e-6
    for reposition in (False, True):
        assert ub >= run_policy(recs, drv, 2, "S3", reposition) - 1e-6


def test_upper_bound_fills_the_paid_horizon_by_net_per_minute() -> None:
    # two 600-minute takes fit a 1,440-minute day, the third only by its 240-minute fraction
    recs = [record(c, 0, 100, HERE, HERE, 600, fen) for c, fen in
            (("A", 60000), ("B", 50000), ("C", 30000))]
    ub = relaxed_upper_bound(HindsightCargo.from_records(recs), days=1, version="S4",
                             cost_per_km=1.0)
    assert ub == pytest.approx(600 + 500 + 300 * 240 / 600)


def test_a_search_out_of_time_or_memory_returns_the_plan_it_had_as_a_lower_bound() -> None:
    recs, drv = two_day_instance(3, 60)
    table = HindsightCargo.from_records(recs)
    kw = {"start_lat": drv["current_lat"], "start_lng": drv["current_lng"], "days": 2,
          "speed": SPEED, "cost_per_km": drv["cost_per_km"], "version": "S3"}
    full = solve(table, **kw)
    assert full.exact
    assert full.stopped is None
    assert full.bound is Bound.EXACT
    late = solve(table, **kw, budget=SearchBudget(deadline=0.0))  # long past
    assert late.stopped == "time"
    assert not late.exact
    assert late.bound is Bound.CAPPED
    assert late.net <= full.net
    small = solve(table, **kw, budget=SearchBudget(max_labels=40))
    assert small.stopped == "memory"
    assert small.stopped_at_minute is not None
    assert 0 <= small.net <= full.net
    # what a stopped search returns is a real plan: it replays to the same net
    assert small.net == pytest.approx(sum(o.gross - o.km * drv["cost_per_km"] - o.penalty
                                          for o in small.orders))


def test_bounded_run_is_exact_where_it_fits_and_capped_where_it_does_not() -> None:
    recs, drv = two_day_instance(5, 60)
    drivers = [{**drv, "driver_id": "D1"}, {**drv, "driver_id": "D2", "current_lat": 23.2}]
    exact = hindsight_for_run(recs, drivers, 2, "S3", SPEED, approach_commit=True)
    fits = bounded_hindsight_for_run(recs, drivers, 2, "S3", SPEED)
    for d in ("D1", "D2"):
        assert fits[d].bound is Bound.EXACT
        assert fits[d].exact_stop is None
        assert fits[d].result.net == pytest.approx(exact[d].net)
        assert fits[d].upper >= fits[d].result.net - 1e-6
    # a memory ceiling below what the process already holds: the exact search stops at once,
    # so does every rung after the first (which is never skipped); the first rung's plan stays
    tight = HindsightLimits(time_s=60, max_rss_bytes=None,
                            ladder=(Caps(60, 30.0, 2), Caps(120, 60.0, 4)))
    capped = bounded_hindsight_for_run(recs, drivers, 2, "S3", SPEED, limits=HindsightLimits(
        time_s=60, max_rss_bytes=1, ladder=tight.ladder))
    assert capped["D1"].exact_stop == "memory"
    assert capped["D2"].exact_stop.startswith("skipped")
    for d in ("D1", "D2"):
        assert capped[d].bound is Bound.CAPPED
        assert capped[d].result.net <= exact[d].net + 1e-6
    # without the ceiling the ladder climbs: the last rung's caps, no worse than the first's
    climbed = bounded_hindsight_for_run(recs, drivers, 2, "S3", SPEED, limits=HindsightLimits(
        time_s=60, max_rss_bytes=None, ladder=tight.ladder, exact_share=0.0))
    for d in ("D1", "D2"):
        res = climbed[d].result
        assert res.bound is Bound.CAPPED
        assert dict(res.caps)["max_successors"] == 4
        assert exact[d].net + 1e-6 >= res.net >= solve(
            HindsightCargo.from_records(recs), start_lat=drivers[0 if d == "D1" else 1][
                "current_lat"], start_lng=drv["current_lng"], days=2, speed=SPEED,
            cost_per_km=drv["cost_per_km"], version="S3", approach_commit=True,
            max_idle_minutes=60, max_pickup_km=30.0, max_successors=2).net - 1e-6
