"""The competition's JSON Lines cargo and driver files, good and bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.app.runner import run_scenario
from sim.scenario import ScenarioError, load_scenario
from tests.conftest import Run, cli


def _cargo_rows() -> list[dict]:
    rows = []
    for i in range(40):
        h = 6 + i % 12
        rows.append({
            "cargo_id": f"X{i:03d}", "create_time": f"2026-03-02 {h:02d}:00:00",
            "remove_time": f"2026-03-02 {h + 3:02d}:00:00",
            "start": {"lat": 23.13 + 0.01 * (i % 5), "lng": 113.26 + 0.01 * (i % 7)},
            "end": {"lat": 22.54, "lng": 114.06},
            "load_time": [f"2026-03-02 {h:02d}:30:00", f"2026-03-02 {h + 4:02d}:00:00"]
            if i % 3 else None,
            "cost_time_minutes": 180, "price": 120000 + 1000 * i,
        })
    return rows


def _drivers_rows() -> list[dict]:
    return [
        {"driver_id": "A1", "current_lat": 23.12, "current_lng": 113.25, "cost_per_km": 1.6,
         "preferences": [{"content": "Do not drive between 23:00 and 5:00.",
                          "penalty_amount": 100, "penalty_cap": 500}]},
        {"driver_id": "A2", "current_lat": 23.15, "current_lng": 113.30, "cost_per_km": 1.4,
         "preferences": [{"content": "每月至少休息4天。", "penalty_amount": 300,
                          "penalty_cap": 1200}]},
    ]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


def _scenario(tmp: Path, cargo: str = "cargo.jsonl", drivers: str = "drivers.jsonl") -> Path:
    p = tmp / "comp.toml"
    p.write_text(f'[scenario]\nname = "comp"\ndays = 1\nstart = "2026-03-02T00:00:00"\n\n'
                 f'[geo]\ndetour_factor = 1.0\n\n[cargo]\nfile = "{cargo}"\n'
                 f'competitor_share = 0.0\n\n[drivers]\nfile = "{drivers}"\n\n'
                 f'[memory]\nmode = "off"\n')
    return p


def test_imported_run_uses_files(tmp_path: Path) -> None:
    _write(tmp_path / "cargo.jsonl", _cargo_rows())
    _write(tmp_path / "drivers.jsonl", _drivers_rows())
    sc = load_scenario(_scenario(tmp_path))
    run_scenario(sc, tmp_path / "out")
    run = Run(tmp_path / "out")
    created = run.kind("cargo_created")
    assert len(created) == 40
    assert set(run.drivers.driver_id) == {"A1", "A2"}
    assert run.summary["orders"] >= 2
    x1 = created.set_index("cargo_id").loc["X001"]
    assert x1.value == pytest.approx(1210.0)  # fen -> yuan
    assert x1.load_start == pytest.approx(7 * 60 + 30)
    x0 = created.set_index("cargo_id").loc["X000"]  # null load_time: create..remove
    assert (x0.load_start, x0.load_end) == (pytest.approx(360.0), pytest.approx(540.0))


@pytest.mark.parametrize(("which", "mutate", "field", "line"), [
    ("cargo", lambda r: r[2].update(load_time=["2026-03-02 09:00:00", "2026-03-02 08:00:00"]),
     "load_time", 3),
    ("cargo", lambda r: r[4].pop("price"), "price", 5),
    ("cargo", lambda r: r[1].update(start={"lat": 31.2, "lng": 121.5}), "start", 2),
    ("cargo", lambda r: r[0].update(create_time="yesterday"), "create_time", 1),
    ("drivers", lambda r: r[1]["preferences"].append({"text": "be nice"}),
     "preferences", 2),
])
def test_bad_rows_report_line(tmp_path: Path, which: str, mutate, field: str, line: int) -> None:
    cargo, drivers = _cargo_rows(), _drivers_rows()
    mutate(cargo if which == "cargo" else drivers)
    _write(tmp_path / "cargo.jsonl", cargo)
    _write(tmp_path / "drivers.jsonl", drivers)
    path = _scenario(tmp_path)
    with pytest.raises(ScenarioError) as info:
        run_scenario(load_scenario(path), tmp_path / "out")
    assert info.value.line == line
    assert info.value.key == field
    proc = cli("run", str(path), "--out", str(tmp_path / "cli"), "--no-progress")
    assert proc.returncode == 2
    assert f"{which}.jsonl:{line}: {field}: expected" in proc.stderr
    assert "Traceback" not in proc.stderr
