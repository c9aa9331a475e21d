"""`score_run` and `freightsim score` on written run directories (§6 output shape)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.preferences.kinds import REGISTRY, build_rule
from sim.scoring.scorer import ScoringInputError, score_run
from tests.competition_logs import LogBuilder, cargo_row, driver_row, write_run

HOME = (22.54, 114.05)
NORTH = (22.63, 114.05)
DG = (23.02, 113.75)
ROOT = Path(__file__).resolve().parents[1]

SAMPLES = {
    "daily_continuous_rest": {"min_minutes": 480, "days": "all"},
    "rest_window_full_coverage": {"start": "23:00", "end": "05:00", "weekend_start": None},
    "quiet_window": {"start": "12:00", "end": "13:00", "count": "per_step"},
    "home_by_curfew": {"lat": HOME[0], "lng": HOME[1], "radius_km": 1.0, "curfew": "22:00",
                       "quiet_until": "06:00"},
    "forbidden_cargo_category": {"categories": ["煤炭矿产", "化工塑料"]},
    "forbidden_cargo_place": {"place": "东莞"},
    "max_haul_km": {"max_km": 30.0},
    "max_pickup_deadhead_km": {"max_km": 5.0},
    "max_total_deadhead_km": {"max_km": 3.0},
    "stay_inside_bbox": {"lat_min": 22.4, "lat_max": 22.8, "lng_min": 113.8, "lng_max": 114.3},
    "forbidden_circle": {"lat": NORTH[0], "lng": NORTH[1], "radius_km": 2.0, "mode": "per_step"},
    "date_region_avoid": {"dates": ["2026-03-01"], "bbox": None, "place": "东莞"},
    "min_days_without_orders": {"min_days": 2},
    "min_full_off_days": {"min_days": 2},
    "max_orders_per_day": {"max_orders": 1},
    "first_order_deadline": {"latest": "06:00"},
    "min_visit_days": {"lat": 23.3, "lng": 113.3, "radius_km": 1.0, "min_days": 1},
    "min_region_order_days": {"place": "惠州", "min_days": 1},
    "must_take_cargo": {"cargo_id": "never"},
    "monthly_category_quota": {"category": "水果", "month": "2026-03", "min_orders": 2,
                               "carry_from": None},
    "monthly_long_haul_cap": {"threshold_minutes": 100, "max_per_month": 0},
    "dwell_at_point_on_day": {"date": "2026-03-02", "lat": HOME[0], "lng": HOME[1],
                              "radius_km": 2.0, "min_dwell_minutes": 60, "arrive_by": "09:00"},
    "route_stops_on_day": {"date": "2026-03-02", "radius_km": 2.0, "stops": [
        {"lat": NORTH[0], "lng": NORTH[1], "arrive_by": "10:00", "min_dwell_minutes": 0}]},
    "home_stay_event": {"w0": "2026-03-01 08:00:00", "w1": "2026-03-01 20:00:00",
                        "w_end": "2026-03-02 08:00:00", "pickup_lat": NORTH[0],
                        "pickup_lng": NORTH[1], "home_lat": HOME[0], "home_lng": HOME[1],
                        "radius_km": 1.0, "min_pickup_dwell_minutes": 30,
                        "rate_per_minute": 0.5},
}

CARGO = [cargo_row("c1", HOME, DG, category="煤炭矿产", end_city="广东省东莞市", cost_time=150,
                   price=150_000),
         cargo_row("c2", DG, NORTH, cost_time=120, price=80_000),
         cargo_row("c3", NORTH, HOME, cost_time=60, price=30_000, window=(0, 30))]


def all_kinds_prefs() -> list[dict]:
    return [{"content": f"rule {name}", "start_time": "2026-03-01 00:00:00",
             "end_time": "2026-03-31 23:59:59", "penalty_amount": 100.0 + i,
             "penalty_cap": None if i % 3 == 0 else 1000.0,
             "structured": {"kind": name, "params": params}}
            for i, (name, params) in enumerate(SAMPLES.items())]


def busy_log(did: str = "d1") -> LogBuilder:
    return LogBuilder(did, *HOME, CARGO).wait(300, scan=2).take("c1", scan=10).take("c2") \
        .take("c3").reposition(*HOME).wait(600)


def test_samples_cover_every_kind_and_round_trip():
    assert set(SAMPLES) == set(REGISTRY)
    for name, params in SAMPLES.items():
        rule = build_rule(name, params)
        assert rule.params.to_dict() == params
        assert rule.hint(rule.params)


def test_all_24_kinds_penalties_sum_to_the_driver_total(tmp_path):
    drivers = [driver_row("d1", *HOME, all_kinds_prefs(), cost_per_km=2.0)]
    write_run(tmp_path, CARGO, drivers, [busy_log()], days=2, version="S3")
    rep = score_run(tmp_path, parser=None)
    d = rep.driver("d1")
    assert not d.calculation_aborted
    assert len(d.rules) == 24
    assert [r.kind for r in d.rules] == list(SAMPLES)
    assert all(r.unscored is None for r in d.rules)
    assert d.income.preference_penalty == pytest.approx(sum(r.penalty for r in d.rules),
                                                        abs=0.011)
    assert d.income.preference_penalty > 0
    # c3 fails (window closed before the truck arrives): only c1 and c2 pay.
    assert d.income.gross_income == 2300.0
    assert d.income.net_income == round(round(2300.0 - d.income.cost, 2)
                                        - d.income.preference_penalty, 2)
    by = {r.kind: r for r in d.rules}
    assert by["forbidden_cargo_category"].counters["violations"] == 1
    assert by["forbidden_cargo_place"].counters["violations"] == 2  # c1 ends, c2 starts in 东莞
    assert by["must_take_cargo"].penalty == 100.0 + 18  # min(A, C)


def test_order_finishing_after_the_horizon_counts_for_rules_but_is_not_paid(tmp_path):
    cargo = [cargo_row("late", HOME, DG, category="煤炭矿产", cost_time=180, remove=40 * 1440,
                       price=90_000)]
    b = LogBuilder("d1", *HOME, cargo).wait(30 * 1440 - 60).take("late")  # ends day 30 02:00
    prefs = [{"content": "不拉煤", "penalty_amount": 100, "penalty_cap": None,
              "structured": {"kind": "forbidden_cargo_category",
                             "params": {"categories": ["煤炭矿产"]}}}]
    write_run(tmp_path, cargo, [driver_row("d1", *HOME, prefs)], [b], days=31, version="S2")
    s2 = score_run(tmp_path, parser=None).driver("d1")
    assert s2.income.gross_income == 0.0  # ends after H = 30 * 1440
    assert s2.income.preference_penalty == 100.0  # it started inside the scored days
    s3 = score_run(tmp_path, parser=None, version="S3").driver("d1")
    assert s3.income.gross_income == 900.0  # H = 31 * 1440


def test_bad_drivers_file_is_an_input_error(tmp_path):
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [], cost_per_km="cheap")], [busy_log()],
              days=2)
    with pytest.raises(ScoringInputError, match="cost_per_km"):
        score_run(tmp_path)


def test_one_aborted_driver_leaves_the_others(tmp_path):
    ok, bad = busy_log("d1"), busy_log("d2")
    bad.records[1]["action_exec_cost_minutes"] += 5
    drivers = [driver_row("d1", *HOME, []), driver_row("d2", *HOME, [])]
    write_run(tmp_path, CARGO, drivers, [ok, bad], days=2, version="S2")
    out = score_run(tmp_path, parser=None).to_official_json()
    d1, d2 = out["drivers"]
    assert d1["calculation_aborted"] is False
    assert d1["income"]["gross_income"] == 2300.0
    assert d2["calculation_aborted"] is True
    assert d2["validation_error"].startswith("ValueError: line 2:")
    assert d2["income"] == {"gross_income": 0.0, "distance_km": 0.0, "cost": 0.0,
                            "preference_penalty": 0.0, "net_income": 0.0}
    assert out["summary"]["failed_drivers"] == {"d2": d2["validation_error"]}
    assert out["summary"]["total_net_income_all_drivers"] == d1["income"]["net_income"]


def test_text_preferences_go_through_the_injected_parser(tmp_path):
    def parser(text: str):
        if "休息" in text:
            return {"kind": "daily_continuous_rest", "params": {"min_minutes": 600},
                    "penalty_amount": 50.0, "penalty_cap": None}
        return None

    prefs = ["每天至少连续休息10小时，每天不满足扣钱50元", "看心情接单"]
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, prefs)], [busy_log()], days=2,
              version="S1")
    rep = score_run(tmp_path, parser=parser)
    r1, r2 = rep.driver("d1").rules
    assert r1.kind == "daily_continuous_rest"
    # Day 0 ends with a 600-minute wait (exactly enough); day 1 has no rest: one day fined.
    assert r1.counters["violating_days"] == [1]
    assert r1.penalty == 50.0
    assert r2.unscored
    assert r2.penalty == 0.0
    assert any("unscored" in w for w in rep.warnings)
    s2 = score_run(tmp_path, parser=parser, version="S2")  # S2 drops string entries
    assert s2.driver("d1").rules == []
    @dataclasses.dataclass
    class Parsed:  # the shape sim.preferences.text returns
        kind: str
        params: dict
        penalty_amount: float | None = None
        penalty_cap: float | None = None

        def to_dict(self) -> dict:
            return dataclasses.asdict(self)

    obj = score_run(tmp_path, parser=lambda t: Parsed(**parser(t)) if parser(t) else None)
    assert obj.driver("d1").rules[0].penalty == 50.0
    none = score_run(tmp_path, parser=None)
    assert all(r.label == "unscored" for r in none.driver("d1").rules)


def test_empty_log_scores_zero_except_in_s4(tmp_path):
    prefs = [{"content": "夜里23点到5点必须休息", "penalty_amount": 10, "penalty_cap": None,
              "structured": {"kind": "rest_window_full_coverage",
                             "params": {"start": "23:00", "end": "05:00"}}}]
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, prefs)], [LogBuilder("d1", *HOME, [])],
              days=3, version="S3")
    assert score_run(tmp_path, parser=None).driver("d1").income.preference_penalty == 0
    s4 = score_run(tmp_path, parser=None, version="S4").driver("d1")
    assert s4.income.preference_penalty == 30.0  # every night of the 3 days is charged


def test_s2_zero_cap_is_uncapped_unless_the_rule_says_otherwise(tmp_path):
    def pref(flag: bool | None) -> dict:
        structured = {"kind": "forbidden_cargo_place", "params": {"place": "东莞"}}
        if flag is not None:
            structured["zero_cap_uncapped"] = flag
        return {"content": "不去东莞", "penalty_amount": 100, "penalty_cap": 0,
                "structured": structured}

    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [pref(None), pref(False)])],
              [busy_log()], days=2, version="S2")
    default, literal = score_run(tmp_path, parser=None).driver("d1").rules
    assert default.counters["violations"] == 2
    assert default.penalty == 200.0  # S2: a cap of 0 means uncapped
    assert literal.penalty == 0.0  # this rule's calculator takes 0 literally
    s3 = score_run(tmp_path, parser=None, version="S3").driver("d1").rules
    assert [r.penalty for r in s3] == [0.0, 0.0]  # S3: only null is uncapped


def test_several_files_per_driver(tmp_path):
    bad, good = busy_log(), busy_log()
    bad.records[0]["query_scan_cost_minutes"] = 7
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [])], [bad], days=2, version="S2",
              stamp="20260301_100000")
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [])], [good], days=2, version="S2",
              stamp="20260301_110000")
    s2 = score_run(tmp_path, parser=None).to_official_json()
    assert s2["result_files_count"] == 2
    (d,) = s2["drivers"]
    assert d["calculation_aborted"] is True  # the earlier file's error still counts
    assert d["income"]["gross_income"] == 2300.0  # the last file's figures win
    s3 = score_run(tmp_path, parser=None, version="S3").to_official_json()
    assert s3["drivers"][0]["calculation_aborted"] is False


def test_expected_rule_count(tmp_path):
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, all_kinds_prefs()[:2])], [busy_log()],
              days=2, version="S3")
    assert not score_run(tmp_path, parser=None, expected_rule_counts={"d1": 2}) \
        .driver("d1").calculation_aborted
    d = score_run(tmp_path, parser=None, expected_rule_counts={"d1": 3}).driver("d1")
    assert d.calculation_aborted
    assert "exactly 3" in d.validation_error
    assert not score_run(tmp_path, parser=None, version="S2",
                         expected_rule_counts={"d1": 1}).driver("d1").calculation_aborted


def test_input_errors(tmp_path):
    with pytest.raises(ScoringInputError, match="does not exist"):
        score_run(tmp_path / "nope")
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [])], [busy_log()], days=2)
    with (tmp_path / "cargo.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({**CARGO[0], "cargo_id": "bad", "cost_time_minutes": "1.5h"}) + "\n")
    with pytest.raises(ScoringInputError, match=r"cargo.jsonl:4: malformed"):
        score_run(tmp_path)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agents.app.cli", "score", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_json_shape_field_by_field(tmp_path):
    prefs = all_kinds_prefs()[:3]
    drivers = [driver_row("d2", *HOME, prefs), driver_row("d1", *HOME, prefs)]
    b1, b2 = busy_log("d1"), busy_log("d2")
    b2.records[0]["token_usage"] = {"prompt_tokens": 10, "completion_tokens": 4,
                                    "reasoning_tokens": 1, "total_tokens": 14}
    write_run(tmp_path, CARGO, drivers, [b2, b1], days=2, version="S3")
    res = cli(str(tmp_path), "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert list(out) == ["month", "simulate_time_seconds", "result_files_count", "drivers",
                         "summary", "cost_meaning", "cost_metric"]
    assert out["month"] == "2026-03"
    assert out["simulate_time_seconds"] == 1.25
    assert out["result_files_count"] == 2
    assert [d["driver_id"] for d in out["drivers"]] == ["d1", "d2"]
    for d in out["drivers"]:
        assert list(d) == ["driver_id", "income", "token_usage", "calculation_aborted",
                           "validation_error", "preference_check"]
        assert list(d["income"]) == ["gross_income", "distance_km", "cost",
                                     "preference_penalty", "net_income"]
        assert list(d["token_usage"]) == ["prompt_tokens", "completion_tokens",
                                          "reasoning_tokens", "total_tokens"]
        assert d["calculation_aborted"] is False
        assert d["validation_error"] is None
        rules = d["preference_check"]["rules"]
        assert [list(r) for r in rules] == [["rule", "counters", "penalty",
                                             "preference_text"]] * 3
        assert [r["preference_text"] for r in rules] == [p["content"] for p in prefs]
        assert d["income"]["preference_penalty"] == round(sum(r["penalty"] for r in rules), 2)
    assert out["drivers"][1]["token_usage"]["total_tokens"] == 14
    s = out["summary"]
    assert list(s) == ["total_net_income_all_drivers", "total_preference_penalty",
                       "total_token_usage", "failed_driver_count", "failed_drivers"]
    assert s["total_net_income_all_drivers"] == round(
        sum(d["income"]["net_income"] for d in out["drivers"]), 2)
    assert s["total_token_usage"]["total_tokens"] == 14
    assert (s["failed_driver_count"], s["failed_drivers"]) == (0, {})
    table = cli(str(tmp_path))
    assert table.returncode == 0
    assert "K1 daily_continuous_rest" in table.stdout
    assert f"{out['drivers'][0]['income']['net_income']:,.2f}" in table.stdout


def test_cli_bare_folder_with_overrides_and_exit_2(tmp_path):
    write_run(tmp_path, CARGO, [driver_row("d1", *HOME, [])], [busy_log()], days=2)
    comp = tmp_path / "competition"
    (comp / "freightsim_inputs.json").unlink()
    (comp / "run_summary_202603.json").unlink()
    res = cli(str(comp))
    assert res.returncode == 2
    assert "simulation_duration_days" in res.stderr
    res = cli(str(comp), "--days", "2")
    assert res.returncode == 2
    assert "--cargo" in res.stderr
    args = ("--days", "2", "--cargo", str(tmp_path / "cargo.jsonl"), "--drivers",
            str(tmp_path / "drivers.json"), "--version", "S2", "--json")
    res = cli(str(comp), *args)  # no run summary: nothing says the run finished (issue 23)
    assert res.returncode == 3
    assert "no run summary" in res.stderr
    res = cli(str(comp), *args, "--allow-partial")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["drivers"][0]["income"]["gross_income"] == 2300.0
    assert json.loads(res.stdout)["run_complete"] is False
    res = cli(str(tmp_path / "missing"))
    assert res.returncode == 2
    assert res.stderr.startswith("error:")
