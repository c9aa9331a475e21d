"""Issue 10.3: hostile competition JSON Lines given to the GENERATOR world's `[cargo] file` /
`[drivers] file` end in `file:line: key: expected ...` with exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import cli
from tests.test_competition_import import _cargo_rows, _drivers_rows, _scenario


def _dump(rows: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n"
                   for r in rows)


CASES = [
    ("cargo", "tz offset", lambda r: r[2].update(create_time="2026-03-02 08:00:00+08:00"),
     "create_time"),
    ("cargo", "NaN price", lambda r: r.__setitem__(2, json.dumps(r[2]).replace(
        f'"price": {r[2]["price"]}', '"price": NaN')), "row"),
    ("cargo", "huge lat", lambda r: r[2]["start"].update(lat=1e300), "start.lat"),
    ("cargo", "bool price", lambda r: r[2].update(price=True), "price"),
    ("cargo", "string cost", lambda r: r[2].update(cost_time_minutes="180"),
     "cost_time_minutes"),
    ("cargo", "null id", lambda r: r[2].update(cargo_id=None), "cargo_id"),
    ("cargo", "duplicate id", lambda r: r[2].update(cargo_id=r[0]["cargo_id"]), "cargo_id"),
    ("cargo", "deep nesting", lambda r: r.__setitem__(2, "[" * 50000 + "]" * 50000), "row"),
    ("drivers", "text amount", lambda r: r[1]["preferences"][0].update(penalty_amount="300元"),
     "preferences.penalty_amount"),
    ("drivers", "duplicate id", lambda r: r[1].update(driver_id="A1"), "driver_id"),
    ("drivers", "bool lat", lambda r: r[1].update(current_lat=True), "current_lat"),
    ("drivers", "prefs not a list", lambda r: r[1].update(preferences=5), "preferences"),
]


@pytest.mark.parametrize(("which", "name", "mutate", "key"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_bad_row_is_a_clear_error(tmp_path: Path, which: str, name: str, mutate,
                                  key: str) -> None:
    cargo, drivers = _cargo_rows(), _drivers_rows()
    mutate(cargo if which == "cargo" else drivers)
    (tmp_path / "cargo.jsonl").write_text(_dump(cargo), encoding="utf-8")
    (tmp_path / "drivers.jsonl").write_text(_dump(drivers), encoding="utf-8")
    line = 3 if which == "cargo" else 2
    proc = cli("run", str(_scenario(tmp_path)), "--out", str(tmp_path / "o"), "--no-progress")
    assert proc.returncode == 2, proc.stderr
    assert f"{which}.jsonl:{line}: {key}: expected" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_null_cap_is_uncapped_not_a_crash(tmp_path: Path) -> None:
    drivers = _drivers_rows()
    drivers[1]["preferences"][0]["penalty_cap"] = None
    (tmp_path / "cargo.jsonl").write_text(_dump(_cargo_rows()), encoding="utf-8")
    (tmp_path / "drivers.jsonl").write_text(_dump(drivers), encoding="utf-8")
    proc = cli("run", str(_scenario(tmp_path)), "--out", str(tmp_path / "o"), "--no-progress")
    assert proc.returncode == 0, proc.stderr
