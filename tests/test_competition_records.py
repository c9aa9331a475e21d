"""Official cargo/driver files: real-format edge cases load, every bad row is `file:line` (§2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.competition.drivers_file import load_driver_records
from sim.competition.records import load_cargo_table
from sim.scenario import ScenarioError
from tests.competition_data import cargo_rows, driver_rows, write_cargo, write_drivers


def _lines(rows: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n"
                   for r in rows)


def test_real_format_cargo_loads(tmp_path: Path) -> None:
    rows = cargo_rows(2, 20)
    rows[3]["cargo_id"] = 12345  # numbers become strings
    rows[4]["remove_time"] = rows[4]["create_time"].replace("2026", "2025")  # remove < create
    rows[5]["truck_length"] = ["4.2米", "6.8米"]
    rows[6]["extra_field"] = {"nested": [1, 2]}
    path = tmp_path / "c.jsonl"
    path.write_text(_lines(rows[:10]) + "\n  \n" + _lines(rows[10:]), encoding="utf-8")
    t = load_cargo_table(path)
    assert len(t) == 40
    assert "12345" in t.index
    i = t.index[rows[4]["cargo_id"]]
    assert t.remove[i] == t.create[i]  # the simulator raises remove to create
    assert t.lines[-1] == 42  # physical line numbers survive the blank lines
    assert t.record(t.index[rows[6]["cargo_id"]])["extra_field"] == {"nested": [1, 2]}


BAD_CARGO = [
    ("tz offset", lambda r: r.update(create_time="2026-03-01 08:00:00+08:00"), "create_time"),
    ("iso T", lambda r: r.update(remove_time="2026-03-01T08:00:00"), "remove_time"),
    ("NaN price", ("price", "NaN"), "row"),
    ("Infinity lat", ("lat", "Infinity"), "row"),
    ("huge price", lambda r: r.update(price=1e300), "price"),
    ("1e400 price", ("price", "1e400"), "price"),
    ("bool price", lambda r: r.update(price=True), "price"),
    ("string price", lambda r: r.update(price="100"), "price"),
    ("string lat", lambda r: r["start"].update(lat="23.1"), "start.lat"),
    ("lat out of range", lambda r: r["start"].update(lat=123.0), "start.lat"),
    ("null id", lambda r: r.update(cargo_id=None), "cargo_id"),
    ("blank id", lambda r: r.update(cargo_id="  "), "cargo_id"),
    ("bool id", lambda r: r.update(cargo_id=False), "cargo_id"),
    ("missing start", lambda r: r.pop("start"), "start"),
    ("bad window", lambda r: r.update(load_time=["2026-03-01 08:00:00"]), "load_time"),
    ("text cost", lambda r: r.update(cost_time_minutes="long"), "cost_time_minutes"),
    ("negative cost", lambda r: r.update(cost_time_minutes=-5), "cost_time_minutes"),
    ("huge cost", lambda r: r.update(cost_time_minutes=10**12), "cost_time_minutes"),
    ("bad end", lambda r: r.update(end={"lat": 1}), "end.lng"),
    ("array row", "[1, 2]", "row"),
    ("deep nesting", "[" * 100000 + "]" * 100000, "row"),
    ("deep field", lambda r: r.update(x=json.loads("[" * 500 + "]" * 500)), None),
]


@pytest.mark.parametrize(("name", "mutate", "key"), BAD_CARGO, ids=[b[0] for b in BAD_CARGO])
def test_bad_cargo_row_is_a_line_error(tmp_path: Path, name: str, mutate, key) -> None:
    rows: list = cargo_rows(1, 6)
    text = None
    if callable(mutate):
        mutate(rows[3])
    elif isinstance(mutate, tuple):  # a literal json.dumps cannot write
        field, literal = mutate
        value = rows[3][field] if field in rows[3] else rows[3]["start"][field]
        line = json.dumps(rows[3]).replace(f'"{field}": {json.dumps(value)}',
                                           f'"{field}": {literal}', 1)
        text = _lines(rows[:3]) + line + "\n" + _lines(rows[4:])
    else:
        rows[3] = mutate
    path = tmp_path / "c.jsonl"
    path.write_text(text or _lines(rows), encoding="utf-8")
    if key is None:  # deep but legal: loads
        assert len(load_cargo_table(path)) == 6
        return
    with pytest.raises(ScenarioError) as info:
        load_cargo_table(path)
    assert info.value.line == 4
    assert info.value.key == key
    assert str(info.value).startswith(f"{path}:4: {key}: expected ")


def test_duplicate_cargo_id(tmp_path: Path) -> None:
    rows = cargo_rows(1, 5)
    rows[4]["cargo_id"] = " " + rows[1]["cargo_id"] + " "  # duplicates after trimming
    with pytest.raises(ScenarioError, match=r"c.jsonl:5: cargo_id: expected a unique cargo id"):
        load_cargo_table(write_cargo(tmp_path / "c.jsonl", rows))


def test_non_utf8_and_bom(tmp_path: Path) -> None:
    good = _lines(cargo_rows(1, 3)).encode()
    p = tmp_path / "c.jsonl"
    p.write_bytes(good + b'{"cargo_id": "\xff\xfe"}\n')
    with pytest.raises(ScenarioError, match=r"c.jsonl:4: row: expected UTF-8 text"):
        load_cargo_table(p)
    p.write_bytes(b"\xef\xbb\xbf" + good)
    with pytest.raises(ScenarioError, match="byte-order mark"):
        load_cargo_table(p)


def test_lenient_load_keeps_rows_the_simulator_fails_at_take(tmp_path: Path) -> None:
    rows = cargo_rows(1, 4)
    rows[1]["load_time"] = "garbage"
    rows[2]["cost_time_minutes"] = "9x"
    p = write_cargo(tmp_path / "c.jsonl", rows)
    with pytest.raises(ScenarioError):
        load_cargo_table(p)
    assert len(load_cargo_table(p, strict=False)) == 4


# --- drivers -------------------------------------------------------------------------------

def test_json_array_drivers_with_string_preferences_and_null_caps(tmp_path: Path) -> None:
    rows = driver_rows(3)
    rows[0]["preferences"] = ["每天至少休息8小时，不满足一次扣100元。", "不拉煤炭。"]  # S1 strings
    rows[1]["preferences"][0]["penalty_cap"] = None
    del rows[2]["preferences"]  # optional
    recs = load_driver_records(write_drivers(tmp_path / "drivers.json", rows))
    assert [r.driver_id for r in recs] == ["D001", "D002", "D003"]
    assert recs[0].preferences == tuple(rows[0]["preferences"])
    assert recs[1].preferences[0]["penalty_cap"] is None
    assert recs[1].line > recs[0].line > 1
    assert recs[2].preferences == ()


def test_json_lines_drivers_also_load(tmp_path: Path) -> None:
    p = tmp_path / "drivers.jsonl"
    p.write_text(_lines(driver_rows(2)), encoding="utf-8")
    assert [r.line for r in load_driver_records(p)] == [1, 2]


BAD_DRIVERS = [
    ("dup id", lambda rs: rs[2].update(driver_id="D001"), "driver_id"),
    ("underscore", lambda rs: rs[2].update(driver_id="D_3"), "driver_id"),
    ("null prefs", lambda rs: rs[2].update(preferences=None), "preferences"),
    ("text amount", lambda rs: rs[2]["preferences"][0].update(penalty_amount="100元"),
     "preferences[0].penalty_amount"),
    ("NaN cap", lambda rs: rs[2]["preferences"][0].update(penalty_cap=float("nan")),
     "row"),
    ("tz window", lambda rs: rs[2]["preferences"][0].update(
        start_time="2026-03-01 00:00:00+08:00"), "preferences[0].start_time"),
    ("bool lat", lambda rs: rs[2].update(current_lat=True), "current_lat"),
    ("string cost", lambda rs: rs[2].update(cost_per_km="1.5"), "cost_per_km"),
    ("number pref", lambda rs: rs[2]["preferences"].append(5), "preferences[1]"),
]


@pytest.mark.parametrize(("name", "mutate", "key"), BAD_DRIVERS,
                         ids=[b[0] for b in BAD_DRIVERS])
def test_bad_driver_is_a_line_error(tmp_path: Path, name: str, mutate, key: str) -> None:
    rows = driver_rows(3)
    mutate(rows)
    p = tmp_path / "drivers.json"
    if name == "NaN cap":  # json.dumps writes NaN, which is not JSON
        p.write_text(json.dumps(rows, ensure_ascii=False, indent=2), encoding="utf-8")
    else:
        write_drivers(p, rows)
    text = p.read_text(encoding="utf-8")
    third = text.rindex('"driver_id": "' + rows[2]["driver_id"] + '"')
    line = text.count("\n", 0, text.rfind("{", 0, third)) + 1
    with pytest.raises(ScenarioError) as info:
        load_driver_records(p)
    assert info.value.key == key
    assert info.value.line == line
    assert f"drivers.json:{line}: {key}: expected" in str(info.value)


def test_empty_and_truncated_driver_arrays(tmp_path: Path) -> None:
    p = tmp_path / "drivers.json"
    p.write_text("[]")
    with pytest.raises(ScenarioError, match="at least one driver"):
        load_driver_records(p)
    p.write_text('[{"driver_id": "A", "current_lat": 1, "current_lng": 2, "cost_per_km": 1}')
    with pytest.raises(ScenarioError, match="closing"):
        load_driver_records(p)
