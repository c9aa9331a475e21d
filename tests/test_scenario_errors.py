"""Bad scenario files: a clear message (file, line, key, expected, found), exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.modes import OFF, mode_names
from tests.conftest import SCENARIOS, assert_refused, cli

BASE = """[scenario]
name = "bad"
days = 1

[drivers]
count = 2
"""

CASES = {
    "unknown_key": (BASE + "speed = 3\n", "[drivers] speed", "known keys", 7),
    "unknown_table": (BASE + "[weather]\nrain = true\n", "[weather]", "one of the tables", 7),
    "wrong_type": (BASE.replace("count = 2", 'count = "two"'), "[drivers] count",
                   "an integer", 6),
    "negative_duration": (BASE.replace("days = 1", "days = -2"), "[scenario] days",
                          "greater than zero", 3),
    "zero_duration": (BASE + "\n[cargo]\nload_minutes = 0\n", "[cargo] load_minutes",
                      "greater than zero", 9),
    "window_ends_before_start": (BASE + "\n[cargo]\nload_window_minutes = [120, 60]\n",
                                 "[cargo] load_window_minutes", "end is not before its start",
                                 9),
    "driver_outside_guangdong": (
        BASE + '\n[[drivers.fixed]]\ndriver_id = "far"\nlat = 39.9\nlng = 116.4\n',
        "[drivers.fixed] lat", "inside Guangdong", 10),
    "h3_res_out_of_range": (BASE + "\n[geo]\nmarket_h3_res = 16\n", "[geo] market_h3_res",
                            "H3 resolution from 0 to 15", 9),
    "bad_choice": (BASE + '\n[memory]\nmode = "everything"\n', "[memory] mode",
                   "one of " + ", ".join((OFF, *mode_names())), 9),
    "bad_toml": (BASE + "count = = 3\n", "TOML", "valid TOML", 7),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_load_reports_where_and_what(tmp_path: Path, case: str) -> None:
    assert_refused(tmp_path / f"{case}.toml", *CASES[case])


@pytest.mark.parametrize("command", ["validate", "run"])
@pytest.mark.parametrize("case", ["unknown_key", "window_ends_before_start",
                                  "driver_outside_guangdong", "h3_res_out_of_range"])
def test_cli_exits_nonzero_without_traceback(tmp_path: Path, case: str, command: str) -> None:
    text, key, _expected, line = CASES[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    args = [command, str(path)] + (["--out", str(tmp_path / "out"), "--no-progress"]
                                   if command == "run" else [])
    proc = cli(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"{path}:{line}: {key}: expected" in proc.stderr
    assert not (tmp_path / "out" / "events.parquet").exists()


def test_cli_missing_file(tmp_path: Path) -> None:
    proc = cli("validate", str(tmp_path / "nope.toml"))
    assert proc.returncode == 2
    assert "an existing scenario file" in proc.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.toml")))
def test_shipped_scenarios_validate(name: str) -> None:
    proc = cli("validate", str(SCENARIOS / name))
    assert proc.returncode == 0, proc.stderr
    assert "ok" in proc.stdout
