"""`freightsim preferences parse|eval` in a subprocess, on real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agents.app.cli", "preferences", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_parse_competition_array_with_strings_and_objects(tmp_path: Path) -> None:
    drivers = [
        {"driver_id": "D001", "current_lat": 23.1, "current_lng": 113.3, "preferences": [
            "每天至少连续休息8小时，不满足扣钱200元，封顶3000元",
            {"content": "Never take cargo of category vegetables", "penalty_amount": 100,
             "penalty_cap": None, "start_time": "2026-03-01 00:00:00",
             "end_time": "2026-03-31 23:59:59"},
            {"content": ""}]},
        {"driver_id": "D002",
         "preferences": [{"text": "同一天接单不得超过3单，每多一单扣钱100元。"}]},
    ]
    f = tmp_path / "drivers.json"
    f.write_text(json.dumps(drivers, ensure_ascii=False), encoding="utf-8")
    r = _cli("parse", str(f))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["driver_id"], x["index"], x["kind"], x["parsed_by"]) for x in rows] == [
        ("D001", 1, "daily_continuous_rest", "parser"),
        ("D001", 2, "forbidden_cargo_category", "parser"),
        ("D002", 1, "max_orders_per_day", "parser")]
    assert rows[0]["params"] == {"min_minutes": 480, "days": "all"}
    assert rows[1]["text"] == "Never take cargo of category vegetables"


def test_parse_jsonl_with_an_unreadable_preference_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "drivers.jsonl"
    f.write_text("\n".join(json.dumps(d, ensure_ascii=False) for d in [
        {"driver_id": "A", "preferences": [{"content": "晚上11点至次日6点必须停车熄火睡觉"}]},
        {"driver_id": "B", "preferences": ["今天天气不错"]}]) + "\n", encoding="utf-8")
    r = _cli("parse", str(f))
    assert r.returncode == 1
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows[1] == {"driver_id": "B", "index": 1, "text": "今天天气不错", "kind": "unparsed",
                       "params": None, "penalty_amount": None, "penalty_cap": None,
                       "parsed_by": "none"}


def test_bad_file_exits_2_with_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text('{"driver_id": "A", "preferences": []}\n{"driver_id": \n', encoding="utf-8")
    r = _cli("parse", str(f))
    assert r.returncode == 2
    assert f"{f}:2:" in r.stderr
    g = tmp_path / "bad2.json"
    g.write_text('[{"driver_id": "A", "preferences": [42]}]', encoding="utf-8")
    r2 = _cli("parse", str(g))
    assert r2.returncode == 2
    assert str(g) in r2.stderr
    assert _cli("parse", str(tmp_path / "missing.json")).returncode == 2
    # a JSON array is read by the one drivers-file reader: the bad driver's own line
    h = tmp_path / "bad3.json"
    h.write_text('[{"driver_id": "A", "preferences": ["每天休息8小时"]},\n'
                 ' {"driver_id": "B", "preferences": "rest"}]', encoding="utf-8")
    r3 = _cli("parse", str(h))
    assert r3.returncode == 2
    assert f"{h}:2: driver B: preferences must be an array" in r3.stderr


def test_eval_prints_per_kind_accuracy_for_each_split() -> None:
    r = _cli("eval", "--split", "all")
    assert r.returncode == 0, r.stderr
    assert "split train:" in r.stdout
    assert "split dev-d:" in r.stdout
    assert "daily_continuous_rest" in r.stdout
    assert "home_stay_event" in r.stdout


def test_parse_with_a_model_server_reads_what_rules_cannot(tmp_path: Path) -> None:
    from agents.testing.fakes import ScriptedServer

    reply = {"kind": "min_full_off_days", "params": {"min_days": 4}, "penalty_amount": None,
             "penalty_cap": None}
    rest = {"kind": "daily_continuous_rest", "params": {"min_minutes": 420, "days": "all"},
            "penalty_amount": None, "penalty_cap": None}

    def responder(body: dict) -> tuple[int, str]:
        text = body["messages"][-1]["content"]
        return 200, json.dumps(rest if "休息" in text else reply)

    f = tmp_path / "drivers.json"
    f.write_text(json.dumps([{"driver_id": "D1", "preferences": [
        "每天至少连续休息8小时", "老婆说每个月要陪她四天，车别动"]}], ensure_ascii=False),
        encoding="utf-8")
    with ScriptedServer(responder) as srv:
        r = _cli("parse", str(f), "--base-url", srv.base_url, "--model", "scripted")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["parsed_by"] for x in rows] == ["parser", "model"]
    assert rows[0]["params"]["min_minutes"] == 480  # the rules reading wins a disagreement
    assert rows[1]["kind"] == "min_full_off_days"
    assert "disagreement (params) on D1#1" in r.stderr
