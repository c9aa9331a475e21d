"""Pinned readings and ambiguous texts, on real files through the real CLI and scorer.

A pin file fixes the reading of a drivers-file text before any parser, so an official-format
drivers file never needs editing; a text the parser hesitates over is listed as ambiguous with
its readings by `validate`, and `[preferences] unparsed = "error"` stops on it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.preferences.pins import PinFileError, check_pins, load_pins
from sim.preferences.text.reading import ReadingStatus, read_preference
from sim.scoring.scorer import ScoringInputError, score_run
from tests.competition_logs import LogBuilder, driver_row, write_run
from tests.conftest import cli

HOME = (23.03, 113.14)
AMBIGUOUS = "晚上十二点到早上五点，车停着不接活也不空跑，只要不动就行。"  # K3 or K2
GARBLED = "老规矩，你懂的，按上回说的办，违反扣200元。"  # no kind reads it
QUIET = {"start": "00:00", "end": "05:00", "count": "per_day"}


def _pins(tmp: Path, *rows: dict | str) -> Path:
    p = tmp / "pins.jsonl"
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False))
                         + "\n" for r in rows), encoding="utf-8")
    return p


def test_the_ambiguous_text_has_both_readings() -> None:
    r = read_preference(AMBIGUOUS)
    assert r.status is ReadingStatus.AMBIGUOUS
    kinds = [a.kind for a in r.alternatives[:2]]
    assert set(kinds) == {"quiet_window", "rest_window_full_coverage"}
    assert all(k in " ".join(r.readings) for k in kinds)


@pytest.mark.parametrize(("row", "field"), [
    ('{"driver_id": "d1", "index": 1, "kind": "curfew", "params": {}}', "kind"),
    ('{"driver_id": "d1", "index": 0, "kind": "quiet_window", "params": {}}', "index"),
    ('{"driver_id": "d1", "index": 1, "kind": "quiet_window", "params": {"start": "25:00", '
     '"end": "05:00"}}', "params"),
    ('{"driver_id": "d1", "index": 1, "kind": "quiet_window", "params": {}, "note": 1}', "note"),
    ('{"driver_id": "d1", "index": 1, "kind": "quiet_window", "params": {"start": "00:00", '
     '"end": "05:00"}, "penalty_amount": -5}', "penalty_amount"),
    ("not json", "row"),
])
def test_bad_pin_rows_name_file_line_and_field(tmp_path: Path, row: str, field: str) -> None:
    p = _pins(tmp_path, "# pins for the March run", row)
    with pytest.raises(PinFileError) as err:
        load_pins(p)
    assert (err.value.line, err.value.field) == (2, field)
    assert str(err.value).startswith(f"{p}:2: {field}: expected ")


def test_a_pin_must_name_an_existing_preference(tmp_path: Path) -> None:
    row = {"driver_id": "d1", "index": 3, "kind": "quiet_window", "params": QUIET}
    pins = load_pins(_pins(tmp_path, row, {**row, "index": 1}))
    with pytest.raises(PinFileError, match=r"pins.jsonl:1: index: expected 1..2"):
        check_pins(pins, {"d1": 2})
    with pytest.raises(PinFileError, match="one pin per preference"):
        load_pins(_pins(tmp_path, row, row))


def _run(tmp: Path) -> Path:
    b = LogBuilder("d1", *HOME, []).wait(2 * 1440)
    return write_run(tmp, [], [driver_row("d1", *HOME, [AMBIGUOUS, GARBLED])], [b], days=2,
                     version="S4")


def test_score_lists_ambiguous_and_applies_pins(tmp_path: Path) -> None:
    run = _run(tmp_path)
    plain = score_run(run)
    assert [a["index"] for a in plain.ambiguous] == [1]
    assert any("preference 1 ambiguous" in w for w in plain.warnings)
    assert any("preference 2 unscored" in w for w in plain.warnings)
    assert plain.driver("d1").rules[0].reading == "ambiguous"
    pins = _pins(tmp_path, {"driver_id": "d1", "index": 1, "kind": "quiet_window",
                            "params": QUIET},
                 {"driver_id": "d1", "index": 2, "kind": "max_orders_per_day",
                  "params": {"max_orders": 3}, "penalty_amount": 200})
    pinned = score_run(run, pins=pins)
    assert pinned.ambiguous == []
    assert pinned.pins == 2
    assert [r.kind for r in pinned.driver("d1").rules] == ["quiet_window", "max_orders_per_day"]
    assert [r.reading for r in pinned.driver("d1").rules] == ["pinned", "pinned"]
    with pytest.raises(ScoringInputError, match="driver_id"):
        score_run(run, pins=_pins(tmp_path, {"driver_id": "zz", "index": 1,
                                             "kind": "quiet_window", "params": QUIET}))


def test_score_cli_takes_a_pin_file(tmp_path: Path) -> None:
    run = _run(tmp_path)
    pins = _pins(tmp_path, {"driver_id": "d1", "index": 2, "kind": "max_orders_per_day",
                            "params": {"max_orders": 3}})
    proc = cli("score", str(run), "--json", "--pin", str(pins))
    assert proc.returncode == 0, proc.stderr
    rules = json.loads(proc.stdout)["drivers"][0]["preference_check"]["rules"]
    assert [r["rule"] for r in rules] == ["K3 quiet_window", "K15 max_orders_per_day"]
    assert "preference 1 ambiguous" in proc.stderr  # still listed: only #2 is pinned


SCENARIO = """[scenario]
name = "pins"
seed = 3
days = 1
start = "2026-03-01T00:00:00"
[cargo]
rate_per_hour = 40
[drivers]
file = "drivers.json"
[memory]
mode = "off"
[preferences]
unparsed = "error"
{pins}"""


def test_validate_stops_on_ambiguous_until_it_is_pinned(tmp_path: Path) -> None:
    drivers = [{"driver_id": "F1", "current_lat": 23.1, "current_lng": 113.3, "cost_per_km": 1.5,
                "preferences": [{"content": AMBIGUOUS, "penalty_amount": 50,
                                 "start_time": "2026-03-01 00:00:00"}]}]
    (tmp_path / "drivers.json").write_text(json.dumps(drivers, ensure_ascii=False),
                                           encoding="utf-8")
    s = tmp_path / "s.toml"
    s.write_text(SCENARIO.format(pins=""), encoding="utf-8")
    proc = cli("validate", str(s))
    assert proc.returncode == 2
    assert "driver F1 preference 1: ambiguous, scored as" in proc.stderr
    assert "rest_window_full_coverage" in proc.stderr
    assert "quiet_window" in proc.stderr
    _pins(tmp_path, {"driver_id": "F1", "index": 1, "kind": "quiet_window", "params": QUIET})
    s.write_text(SCENARIO.format(pins='pins = "pins.jsonl"'), encoding="utf-8")
    proc = cli("validate", str(s))
    assert proc.returncode == 0, proc.stderr


def test_run_summary_carries_ambiguous_and_pins_apply(tmp_path: Path) -> None:
    drivers = [{"driver_id": "F1", "current_lat": 23.1, "current_lng": 113.3, "cost_per_km": 1.5,
                "preferences": [{"content": AMBIGUOUS, "penalty_amount": 50,
                                 "start_time": "2026-03-01 00:00:00"},
                                {"content": GARBLED, "penalty_amount": 80,
                                 "start_time": "2026-03-01 00:00:00"}]}]
    (tmp_path / "drivers.json").write_text(json.dumps(drivers, ensure_ascii=False),
                                           encoding="utf-8")
    _pins(tmp_path, {"driver_id": "F1", "index": 2, "kind": "max_orders_per_day",
                     "params": {"max_orders": 3}})
    s = tmp_path / "s.toml"
    s.write_text(SCENARIO.replace('unparsed = "error"', 'pins = "pins.jsonl"').format(pins=""),
                 encoding="utf-8")
    out = tmp_path / "out"
    run = cli("run", str(s), "--out", str(out), "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "preference 1: ambiguous" in run.stderr
    rules = json.loads((out / "summary.json").read_text(encoding="utf-8"))["preferences"]
    assert [(a["driver_id"], a["index"]) for a in rules["ambiguous"]] == [("F1", 1)]
    assert rules["pinned"] == 1
    assert rules["unscored"] == []  # the garbled text is read through its pin
    assert rules["scored"] == 2
