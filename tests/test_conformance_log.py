"""Spec conformance, byte level (docs/competition.md §2.1, §5): float normalisation, dumps, names.

Each test states the rule it pins in the spec's own terms; references are built from the
Python builtins the spec names (round, json.dumps, datetime), never from our helpers.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from sim.competition.log import ActionLog, action_log_name, dumps, normalise_record, write_summary
from sim.official.timebase import end_time, to_minutes, wall_minutes, wall_time, wall_to_minutes
from tests.test_competition_rules import cargo, play

EPOCH = datetime(2026, 3, 1)


# ------------------------------------------------------------------ §5.3 float normalisation


@pytest.mark.parametrize("x", [0.125, 0.375, 2.675, 1.005, 0.285, -0.125, 1e-9, 12.0,
                               123456.785, 0.3449999999999999])
def test_round_half_even_on_the_binary_value(x: float) -> None:
    got = normalise_record({"v": x})["v"]
    assert got == round(x, 2)
    # the binary value decides, not the decimal literal: 2.675 is below the half
    exact = Decimal(x)
    if exact * 100 % 1 == Decimal("0.5"):  # a true tie: half-even
        q = (exact * 100).to_integral_value(rounding="ROUND_HALF_EVEN") / 100
        assert Decimal(got) == Decimal(float(q))


def test_ties_and_near_ties() -> None:
    assert normalise_record({"v": 0.125})["v"] == 0.12  # exact binary tie -> even
    assert normalise_record({"v": 0.375})["v"] == 0.38
    assert normalise_record({"v": 2.675})["v"] == 2.67  # 2.67499999... in binary


@pytest.mark.parametrize("key", ["lat", "lng", "latitude", "longitude", "current_lat",
                                 "current_lng"])
def test_coordinate_keys_keep_full_precision_later_release(key: str) -> None:
    x = 23.123456789
    rec = {"a": {key: x}, "b": {"deep": [{key: x}]}, key: x}
    out = normalise_record(rec, full_coords=True)
    assert out[key] == x
    assert out["a"][key] == x
    assert out["b"]["deep"][0][key] == x
    early = normalise_record(rec, full_coords=False)
    assert early[key] == 23.12
    assert early["a"][key] == 23.12


@pytest.mark.parametrize("key", ["Lat", "LAT", "lat ", "latitude_deg", "center_lat", "x"])
def test_other_keys_are_rounded(key: str) -> None:
    assert normalise_record({key: 23.123456}, full_coords=True)[key] == 23.12


def test_lists_under_coordinate_keys_are_rounded() -> None:
    out = normalise_record({"lat": [23.123456, 113.98765], "lng": [[1.23456]]}, full_coords=True)
    assert out == {"lat": [23.12, 113.99], "lng": [[1.23]]}


def test_tuples_are_not_walked_and_dump_as_lists() -> None:
    t = (1.23456, {"x": 2.34567})
    out = normalise_record({"p": t, "q": [t]})
    assert out["p"] is t
    assert out["q"][0] is t
    assert json.dumps(out) == '{"p": [1.23456, {"x": 2.34567}], "q": [[1.23456, {"x": 2.34567}]]}'


def test_bools_and_ints_untouched() -> None:
    out = normalise_record({"a": True, "b": False, "c": 7, "d": 10**20, "e": None, "f": "1.23456"})
    assert out == {"a": True, "b": False, "c": 7, "d": 10**20, "e": None, "f": "1.23456"}
    assert type(out["a"]) is bool
    assert type(out["c"]) is int


def test_rounded_whole_float_stays_float() -> None:
    out = normalise_record({"v": 7.996, "w": 12.0})
    assert json.dumps(out) == '{"v": 8.0, "w": 12.0}'


def test_dict_key_order_kept() -> None:
    rec = {"z": 1.111, "a": 2.222, "m": {"y": 3.333, "b": 4.444}}
    assert list(normalise_record(rec)) == ["z", "a", "m"]
    assert list(normalise_record(rec)["m"]) == ["y", "b"]


# ----------------------------------------------------------------- §5.1 dumps, file names


def test_dumps_default_separators_and_raw_utf8() -> None:
    rec = {"detail": "接单后已完成", "x": 1.5, "l": [1, 2], "n": None, "t": True}
    s = dumps(rec)
    assert s == json.dumps(rec, ensure_ascii=False)
    assert s == '{"detail": "接单后已完成", "x": 1.5, "l": [1, 2], "n": null, "t": true}'
    assert "\\u" not in s


def test_action_log_file_bytes(tmp_path: Path) -> None:
    log = ActionLog(tmp_path / action_log_name("D1", "20260301_101010"))
    log.append({"a": "货", "b": 1.0})
    log.append({"a": 2})
    log.flush()
    data = (tmp_path / "actions_202603_D1_20260301_101010.jsonl").read_bytes()
    assert data == '{"a": "货", "b": 1.0}\n{"a": 2}\n'.encode()
    assert not (tmp_path / "actions_202603_D1_20260301_101010.jsonl.tmp").exists()


def test_summary_indent_2_raw_utf8_no_trailing_newline(tmp_path: Path) -> None:
    summary = {"month": "2026-03", "driver_simulation_failures": {"D": "ValueError: 坏"}}
    write_summary(tmp_path / "s.json", summary)
    text = (tmp_path / "s.json").read_text(encoding="utf-8")
    assert text == json.dumps(summary, ensure_ascii=False, indent=2)
    assert not text.endswith("\n")
    assert "坏" in text


# --------------------------------------------------------------------- §2.1 time strings


@pytest.mark.parametrize("text", ["2026-03-01 00:00:59", "2026-03-01 00:01:00",
                                  "2026-02-28 23:59:59", "2026-02-28 23:59:00",
                                  "2026-02-28 23:58:01", "2026-05-31 23:59:59",
                                  "2025-12-31 12:00:30", " 2026-03-02 08:00:30 "])
def test_wall_minutes_floor_seconds_negative_before_epoch(text: str) -> None:
    secs = (datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S") - EPOCH).total_seconds()
    want = int(secs // 60)
    assert wall_minutes(text) == want
    assert wall_to_minutes(text) == want  # the scorer's own parser agrees
    assert to_minutes(datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S")) == want


@pytest.mark.parametrize("text", ["2026-03-01T00:00:00", "2026-03-01 00:00", "2026/03/01 00:00:00",
                                  "2026-02-30 00:00:00", "2026-03-01 24:00:00", "",
                                  "2026-03-01 00:00:00+08:00"])
def test_other_formats_rejected_by_both(text: str) -> None:
    assert wall_minutes(text) is None
    with pytest.raises(ValueError, match=r"\w"):
        wall_to_minutes(text)


@pytest.mark.parametrize("m", [0, 59, 60, 1439, 1440, 44639, 44640, 132479, -1, -1441])
def test_displayed_clocks(m: int) -> None:
    t = EPOCH + timedelta(minutes=m)
    assert wall_time(m) == t.strftime("%Y-%m-%d %H:%M:%S")
    assert end_time(m) == t.strftime("%Y-%m-%d %H:%M")
    assert len(end_time(m)) == 16


# -------------------------------------------------------------- §5.2 record as written


def _lines(env) -> list[str]:
    run = env.runs[0]
    return run.log.path.read_text(encoding="utf-8").splitlines(keepends=True)


def test_record_key_order_and_bytes_of_a_real_step(tmp_path: Path) -> None:
    steps = [lambda api, d: {"reason": "先等", "action": " WAIT ",
                             "params": {"duration_minutes": 7.5}, "score": 0.123456,
                             "flag": True}]
    env, _ = play(tmp_path, [cargo("c1")], steps)
    line = _lines(env)[0]
    rec = json.loads(line)
    assert list(rec) == ["step", "driver_id", "step_elapsed_minutes", "query_scan_cost_minutes",
                         "action_exec_cost_minutes", "position_before", "position_after",
                         "simulation_end_time", "action", "token_usage", "result"]
    assert list(rec["action"]) == ["reason", "action", "params", "score", "flag", "model_usage"]
    assert rec["action"]["action"] == " WAIT "  # logged verbatim
    assert rec["action"]["params"] == {"duration_minutes": 7.5}
    assert rec["action"]["score"] == 0.12
    assert rec["action"]["flag"] is True
    assert list(rec["token_usage"]) == ["prompt_tokens", "completion_tokens",
                                        "reasoning_tokens", "total_tokens"]
    assert rec["action"]["model_usage"] == rec["token_usage"]
    assert rec["result"] == {"simulation_progress_minutes": 7,
                             "simulation_wall_time": "2026-03-01 00:07:00"}
    assert rec["simulation_end_time"] == "2026-03-01 00:07"
    assert line == json.dumps(rec, ensure_ascii=False) + "\n"  # the exact bytes


def test_model_usage_overwritten_in_place(tmp_path: Path) -> None:
    steps = [lambda api, d: {"model_usage": {"total_tokens": 999}, "action": "wait",
                             "params": {"duration_minutes": 1}, "z": 1}]
    env, _ = play(tmp_path, [cargo("c1")], steps)
    rec = json.loads(_lines(env)[0])
    assert list(rec["action"]) == ["model_usage", "action", "params", "z"]
    assert rec["action"]["model_usage"] == {"prompt_tokens": 0, "completion_tokens": 0,
                                            "reasoning_tokens": 0, "total_tokens": 0}


def test_params_default_and_full_precision_coordinates(tmp_path: Path) -> None:
    lat, lng = 23.123456789012, 113.987654321098
    steps = [lambda api, d: {"action": "wait"},
             lambda api, d: {"action": "reposition",
                             "params": {"latitude": lat, "longitude": lng, "note": 1.23456}}]
    env, _ = play(tmp_path, [cargo("c1")], steps)
    lines = _lines(env)
    first = json.loads(lines[0])
    assert first["action"] == {"action": "wait", "model_usage": first["token_usage"]}
    rec = json.loads(lines[1])
    assert rec["action"]["params"] == {"latitude": lat, "longitude": lng, "note": 1.23}
    assert rec["position_after"] == {"lat": lat, "lng": lng}
    assert rec["result"]["current_lat"] == lat
    assert rec["result"]["current_lng"] == lng
    assert list(rec["result"]) == ["current_lat", "current_lng", "simulation_progress_minutes",
                                   "simulation_wall_time", "distance_km"]
    assert rec["result"]["distance_km"] == round(rec["result"]["distance_km"], 2)
    assert repr(lat) in lines[1]


def test_early_release_rounds_coordinates(tmp_path: Path) -> None:
    lat, lng = 23.123456789012, 113.987654321098
    steps = [lambda api, d: {"action": "reposition",
                             "params": {"latitude": lat, "longitude": lng}}]
    env, _ = play(tmp_path, [cargo("c1")], steps, full_coords=False)
    rec = json.loads(_lines(env)[0])
    assert rec["position_after"] == {"lat": 23.12, "lng": 113.99}
    assert rec["action"]["params"] == {"latitude": 23.12, "longitude": 113.99}
    # history carries the same normalisation as the file
    assert env.runs[0].history[0] == rec


def test_file_names_summary_keys_and_paths(tmp_path: Path) -> None:
    steps = {"A": [lambda api, d: {"action": "wait", "params": {"duration_minutes": 5}}],
             "B": [lambda api, d: {"action": "bogus"}]}
    from tests.test_competition_rules import driver
    _env, summary = play(tmp_path, [cargo("c1")], steps, drivers=[driver("A"), driver("B")])
    out = tmp_path / "out"
    names = sorted(p.name for p in out.iterdir() if p.is_file())
    assert names == ["actions_202603_A_20260301_000000.jsonl", "run_summary_202603.json"]
    assert list(summary) == [
        "month", "simulate_time_seconds", "simulation_duration_days", "completed_steps",
        "remaining_cargo_count", "driver_completed_steps", "driver_result_files",
        "simulation_max_steps_per_driver", "driver_max_total_tokens", "driver_token_usage",
        "driver_token_limit_stopped", "driver_end_reasons", "driver_simulation_failures",
        "driver_decision_latency"]
    text = (out / "run_summary_202603.json").read_text(encoding="utf-8")
    assert text == json.dumps(summary, ensure_ascii=False, indent=2)
    assert summary["driver_result_files"] == {
        "A": str((out / "actions_202603_A_20260301_000000.jsonl").resolve())}
    assert Path(summary["driver_result_files"]["A"]).is_absolute()
    assert summary["driver_end_reasons"]["B"] == "error"
    assert ": " in summary["driver_simulation_failures"]["B"]
    assert "B" not in summary["driver_token_usage"]
    assert summary["driver_completed_steps"] == {"A": summary["completed_steps"], "B": 0}
    lat = summary["driver_decision_latency"]["A"]
    assert list(lat) == ["count", "total_seconds", "avg_seconds"]


@pytest.mark.parametrize("text", ["2026-3-1 8:0:0", "2026-03- 1 00:00:00", "2026-03-01  00:00:00",
                                  "2026-03-01\t00:00:00", "２０２６-03-01 00:00:00",
                                  "2026-03-01 ００:00:00", "2026-03-01 00:00:60",
                                  "2026-03-01 0:00:00", "02026-03-01 00:00:00",
                                  "2024-02-29 00:00:00", "2026-03-01 00:00:00.5",
                                  "2026-03-01 1:2:3", "2026-13-01 00:00:00"])
def test_simulator_and_scorer_parse_exactly_what_strptime_parses(text: str) -> None:
    """§2.1 has one format; both sides read it with strptime, so odd spellings strptime takes
    (1-digit fields, a space-padded day, a whitespace run, non-ASCII year digits) must give the
    same minute in the simulator and the scorer, and what it rejects must fail in both."""
    try:
        want = int((datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S") - EPOCH)
                   .total_seconds() // 60)
    except ValueError:
        want = None
    assert wall_minutes(text) == want
    if want is None:
        with pytest.raises(ValueError, match=r"\w"):
            wall_to_minutes(text)
    else:
        assert wall_to_minutes(text) == want


def test_take_results_bytes(tmp_path: Path) -> None:
    """§4.4: the window-expired result carries an integer 0 haul; the accepted one ends with
    the income_eligible bool; the not-online one has no driver or cargo id."""
    from tests.test_competition_rules import take, wait

    rows = [cargo("x", at=(23.4, 113.3), window=["2026-03-01 00:00:00"] * 2),
            cargo("y", cost=5, price=12345)]
    env, _ = play(tmp_path, rows, [wait(0), take("y"), take("x"), take("z")])
    lines = _lines(env)
    assert lines[1].endswith(', "income_eligible": true}}\n')
    assert '"detail": "接单后已完成、推进时间并更新到卸货地"' in lines[1]
    assert lines[2].endswith(', "haul_distance_km": 0}}\n')
    assert '"detail": "load_time_window_expired"' in lines[2]
    assert lines[3].endswith('"result": {"action": "take_order", "accepted": false, '
                             '"detail": "cargo_id 已失效: z", "simulation_progress_minutes": '
                             + str(json.loads(lines[3])["result"]["simulation_progress_minutes"])
                             + ', "simulation_wall_time": "'
                             + json.loads(lines[3])["result"]["simulation_wall_time"] + '"}}\n')
