"""`[preferences] unparsed`: a preference no parser can read (drivers file or [[drivers.fixed]])
is never a crash.

With "warn" (the default) `freightsim validate` lists it (file:line, driver, index, text) and
exits 0, and a run scores it as unscored with a warning in summary.json; with "error" both
commands stop before the simulation and list every one. Real files, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.competition_data import cargo_rows, write_cargo
from tests.conftest import cli

UNREAD_1 = "随便写写的一句话"
UNREAD_2 = "Keep the cab tidy and smile."
DRIVERS = [
    {"driver_id": "F1", "current_lat": 23.1, "current_lng": 113.3, "cost_per_km": 1.5,
     "preferences": [{"content": "每单空驶不超过30公里", "start_time": "2026-03-01 00:00:00",
                      "end_time": "2026-03-02 23:59:59", "penalty_amount": 50,
                      "penalty_cap": None}]},
    {"driver_id": "F2", "current_lat": 22.6, "current_lng": 114.0, "cost_per_km": 1.5,
     "preferences": [{"content": "每单空驶不超过20公里", "penalty_amount": 50,
                      "penalty_cap": 100, "start_time": "2026-03-01 00:00:00"},
                     UNREAD_1]},
    {"driver_id": "F3", "current_lat": 23.0, "current_lng": 113.1, "cost_per_km": 1.5,
     "preferences": [{"content": UNREAD_2, "penalty_amount": 80, "penalty_cap": None,
                      "start_time": "2026-03-01 00:00:00"}]},
]
GENERATOR = """[scenario]
name = "unparsed"
seed = 3
days = 1
start = "2026-03-01T00:00:00"
[cargo]
rate_per_hour = 40
[drivers]
file = "drivers.json"
[memory]
mode = "off"
{extra}"""


def _files(tmp: Path, extra: str = "", body: str = GENERATOR) -> Path:
    # a JSON array with one driver per line: driver k (1-based) is on line k + 1
    rows = ",\n".join(json.dumps(d, ensure_ascii=False) for d in DRIVERS)
    (tmp / "drivers.json").write_text(f"[\n{rows}\n]\n", encoding="utf-8")
    p = tmp / "s.toml"
    p.write_text(body.format(extra=extra), encoding="utf-8")
    return p


def test_warn_lists_them_and_the_run_scores_them_unscored(tmp_path: Path) -> None:
    path = _files(tmp_path)
    ok = cli("validate", str(path))
    assert ok.returncode == 0, ok.stderr
    listed = [x for x in ok.stdout.splitlines() if x.startswith("unparsed")]
    drivers = str(tmp_path / "drivers.json")
    assert len(listed) == 2
    assert f"{drivers}:3: driver F2 preference 2: " in listed[0]
    assert UNREAD_1 in listed[0]
    assert f"{drivers}:4: driver F3 preference 1: " in listed[1]
    assert UNREAD_2 in listed[1]

    out = tmp_path / "out"
    run = cli("run", str(path), "--out", str(out), "--no-progress")
    assert run.returncode == 0, run.stderr
    rules = json.loads((out / "summary.json").read_text(encoding="utf-8"))["preferences"]
    assert {(u["driver_id"], u["text"]) for u in rules["unscored"]} == {
        ("F2", UNREAD_1), ("F3", UNREAD_2)}
    assert sum(UNREAD_1 in w for w in rules["warnings"]) == 1
    assert sum(UNREAD_2 in w for w in rules["warnings"]) == 1
    assert rules["scored"] == 2  # the readable ones are scored as before


@pytest.mark.parametrize("command", ["validate", "run"])
def test_error_stops_before_the_simulation_listing_every_one(tmp_path: Path,
                                                             command: str) -> None:
    path = _files(tmp_path, '[preferences]\nunparsed = "error"\n')
    out = tmp_path / "out"
    args = ("--out", str(out), "--no-progress") if command == "run" else ()
    proc = cli(command, str(path), *args)
    assert proc.returncode == 2
    drivers = str(tmp_path / "drivers.json")
    assert "2 preference(s) neither parser can read" in proc.stderr
    assert f"{drivers}:3: driver F2 preference 2: " in proc.stderr
    assert f"{drivers}:4: driver F3 preference 1: " in proc.stderr
    assert UNREAD_1 in proc.stderr
    assert UNREAD_2 in proc.stderr
    assert not (out / "summary.json").exists()
    assert not (out / "events.parquet").exists()


def test_error_without_unparsed_text_runs(tmp_path: Path) -> None:
    path = _files(tmp_path, '[preferences]\nunparsed = "error"\n')
    keep = [dict(DRIVERS[0])]
    (tmp_path / "drivers.json").write_text(json.dumps(keep, ensure_ascii=False), "utf-8")
    proc = cli("validate", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "unparsed (scored as unscored)" not in proc.stdout
    run = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress")
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["preferences"]["unscored"] == []


def test_setting_is_checked(tmp_path: Path) -> None:
    path = _files(tmp_path, '[preferences]\nunparsed = "ignore"\n')
    proc = cli("validate", str(path))
    assert proc.returncode == 2
    assert "[preferences] unparsed: expected one of warn, error" in proc.stderr


def test_competition_world_uses_the_same_check(tmp_path: Path) -> None:
    write_cargo(tmp_path / "cargo.jsonl", cargo_rows(1, 20))
    body = ('[scenario]\nname = "c"\ndays = 1\nruleset = "competition"\n[cargo]\n'
            'file = "cargo.jsonl"\n[drivers]\nfile = "drivers.json"\n[memory]\nmode = "off"\n'
            '{extra}')
    warn = cli("validate", str(_files(tmp_path, "", body)))
    assert warn.returncode == 0, warn.stderr
    assert sum(x.startswith("unparsed") for x in warn.stdout.splitlines()) == 2
    path = _files(tmp_path, '[preferences]\nunparsed = "error"\n', body)
    out = tmp_path / "o"
    run = cli("run", str(path), "--out", str(out))
    assert run.returncode == 2
    assert f"{tmp_path / 'drivers.json'}:3: driver F2 preference 2: " in run.stderr
    assert not (out / "competition").exists()  # stopped before anything was written


FIXED = """[scenario]
name = "fixed"
seed = 3
days = 1
start = "2026-03-01T00:00:00"
[cargo]
rate_per_hour = 40
[drivers]
count = 0
[memory]
mode = "off"
{extra}
[[drivers.fixed]]
driver_id = "A"
lat = 23.1
lng = 113.3
preferences = [{{text = "一天最多接2单"}}, {{text = "UNREAD_A", penalty_amount = 10}}]

[[drivers.fixed]]
driver_id = "B"
lat = 22.6
lng = 114.0
preferences = [{{text = "UNREAD_B"}}]
"""


def test_fixed_drivers_unreadable_texts_are_listed_with_their_lines(tmp_path: Path) -> None:
    """The one reporter (sim.world.driver_preferences.unparsed_preferences) covers
    [[drivers.fixed]] too:
    `validate` lists each as file:line (the driver's table): driver D preference i: reason:
    'text', and "error" stops the run."""
    body = FIXED.replace("UNREAD_A", UNREAD_1).replace("UNREAD_B", UNREAD_2)
    p = tmp_path / "s.toml"
    p.write_text(body.format(extra=""), encoding="utf-8")
    lines = body.format(extra="").splitlines()
    head_a = lines.index("[[drivers.fixed]]") + 1
    head_b = lines.index("[[drivers.fixed]]", head_a) + 1
    ok = cli("validate", str(p))
    assert ok.returncode == 0, ok.stderr
    listed = [x for x in ok.stdout.splitlines() if x.startswith("unparsed")]
    assert len(listed) == 2
    assert f"{p}:{head_a}: driver A preference 2: " in listed[0]
    assert listed[0].endswith(f"{UNREAD_1!r}")
    assert f"{p}:{head_b}: driver B preference 1: " in listed[1]
    assert listed[1].endswith(f"{UNREAD_2!r}")
    p.write_text(body.format(extra='[preferences]\nunparsed = "error"'), encoding="utf-8")
    out = tmp_path / "out"
    run = cli("run", str(p), "--out", str(out), "--no-progress")
    assert run.returncode == 2
    assert "2 preference(s) neither parser can read" in run.stderr
    assert not (out / "summary.json").exists()
