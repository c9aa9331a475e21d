"""Hostile scenario values (issue 10, item 1 and 8): each is refused with the file, the line,
the key, what was expected and what was found, before anything runs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sim.scenario import MAX_WORK, ScenarioError, load_scenario, work_estimate
from tests.conftest import assert_refused, cli

BASE = """[scenario]
name = "bad"
days = 1

[drivers]
count = 2
"""


def fixed(driver_id: str, extra: str = "") -> str:
    return f'\n[[drivers.fixed]]\ndriver_id = "{driver_id}"\nlat = 23.1\nlng = 113.3\n{extra}'


# case: (file text, key, a phrase of what was expected, line)
CASES = {
    "days_nan": (BASE.replace("days = 1", "days = nan"), "[scenario] days", "finite", 3),
    "days_inf": (BASE.replace("days = 1", "days = inf"), "[scenario] days", "finite", 3),
    "days_huge": (BASE.replace("days = 1", "days = 1e9"), "[scenario] days", "at most 366", 3),
    "detour_nan": (BASE + "[geo]\ndetour_factor = nan\n", "[geo] detour_factor", "finite", 8),
    "speed_neg_inf": (BASE + "[geo]\nspeed_kmh = -inf\n", "[geo] speed_kmh", "finite", 8),
    "speed_profile_nan": (BASE + "[geo]\nspeed_profile = [nan]\n", "[geo] speed_profile",
                          "finite", 8),
    "window_nan": (BASE + "[cargo]\nload_window_minutes = [nan, 60]\n",
                   "[cargo] load_window_minutes", "finite", 8),
    "count_huge": (BASE.replace("count = 2", "count = 100000000"), "[drivers] count",
                   "at most", 6),
    "h3_res_15": (BASE + "[geo]\nmarket_h3_res = 15\n", "[geo] market_h3_res", "at most 9", 8),
    "rate_huge": (BASE + "[cargo]\nrate_per_hour = 1e12\n", "[cargo] rate_per_hour",
                  "at most", 8),
    "night_factor_huge": (BASE + "[cargo]\nnight_factor = 1e300\n", "[cargo] night_factor",
                          "at most", 8),
    "work_too_big": (BASE.replace("days = 1", "days = 300").replace("count = 2", "count = 5000"),
                     "[scenario] days", "work units", 3),
    "start_garbage": (BASE.replace("days = 1", 'days = 1\nstart = "garbage"'),
                      "[scenario] start", "date-time", 4),
    "start_feb_29": (BASE.replace("days = 1", 'days = 1\nstart = "2026-02-29T00:00:00"'),
                     "[scenario] start", "date-time", 4),
    "start_tz": (BASE.replace("days = 1", 'days = 1\nstart = "2026-03-02T00:00:00+08:00"'),
                 "[scenario] start", "without a timezone", 4),
    "radius_order": (BASE + "[market]\ndefault_radius_km = 90\nmax_radius_km = 50\n",
                     "[market] default_radius_km", "no larger than max_radius_km", 8),
    "tokenizer": (BASE + '[llm]\ntokenizer = "gpt-17"\n', "[llm] tokenizer", "one of", 8),
    "timeout_nan": (BASE + "[llm]\ntimeout_s = nan\n", "[llm] timeout_s", "finite", 8),
    "name_parent": (BASE.replace('"bad"', '"../x"'), "[scenario] name", "run directory", 2),
    "name_absolute": (BASE.replace('"bad"', '"/tmp/x"'), "[scenario] name", "run directory", 2),
    "name_too_long": (BASE.replace('"bad"', '"' + "n" * 300 + '"'), "[scenario] name",
                      "1-64", 2),
    "duplicate_fixed_ids": (BASE + fixed("A") + fixed("A"), "[drivers.fixed] driver_id",
                            "used once", 9),
    "fixed_id_generated": (BASE.replace("count = 2", "count = 5") + fixed("D0003"),
                           "[drivers.fixed] driver_id", "other than the generated", 9),
    "pref_nan": (BASE + fixed("A", 'preferences = [{text = "x", penalty_amount = nan}]\n'),
                 "[drivers.fixed] preferences.penalty_amount", "finite", 12),
    "deep_nesting": (BASE + "[llm]\nx = " + "[" * 3000 + "]" * 3000 + "\n", "TOML",
                     "nested", None),
    "nul_byte": (BASE + "\x00\x01\x02", "TOML", "a text file", 7),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_value_refused_with_where_and_what(tmp_path: Path, case: str) -> None:
    assert_refused(tmp_path / f"{case}.toml", *CASES[case])


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(BASE.encode() + b'\n[llm]\nmodel = "caf\xe9"\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.line == 9
    assert "UTF-8" in info.value.expected


def test_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    assert load_scenario(path).scenario.name == "bad"


def test_unquoted_local_datetime_start_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "start.toml"
    path.write_text(BASE.replace("days = 1", "days = 1\nstart = 2026-03-02T06:30:00"))
    assert load_scenario(path).scenario.start == "2026-03-02T06:30:00"


def test_work_estimate_grows_with_the_scenario(tmp_path: Path) -> None:
    small = tmp_path / "s.toml"
    small.write_text(BASE)
    big = tmp_path / "b.toml"
    big.write_text(BASE.replace("days = 1", "days = 30"))
    a, b = work_estimate(load_scenario(small)), work_estimate(load_scenario(big))
    assert 0 < a < b <= MAX_WORK
    assert b == pytest.approx(30 * a, rel=0.01)


def _special_paths(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "adir").mkdir()
    return {"directory": str(tmp_path / "adir"), "fifo": str(fifo), "device": "/dev/null",
            "proc": "/proc/self/status"}


@pytest.mark.parametrize("what", ["directory", "fifo", "device", "proc"])
@pytest.mark.parametrize(("table", "key"), [("cargo", "file"), ("drivers", "file"),
                                            ("llm", "cache"), ("memory", "lessons")])
def test_special_files_named_in_a_scenario(tmp_path: Path, what: str, table: str,
                                           key: str) -> None:
    target = _special_paths(tmp_path)[what]
    path = tmp_path / "s.toml"
    line = f'{key} = "{target}"'
    if table == "drivers":
        path.write_text(BASE.replace("count = 2", f"count = 2\n{line}"))
    else:
        path.write_text(BASE + f"\n[{table}]\n{line}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.key == f"[{table}] {key}"
    assert info.value.line == (7 if table == "drivers" else 9)
    assert "regular file" in info.value.expected


@pytest.mark.parametrize("case", ["days_nan", "start_tz", "name_parent", "deep_nesting",
                                  "duplicate_fixed_ids"])
def test_cli_validate_and_run_exit_2(tmp_path: Path, case: str) -> None:
    text, key, _expected, line = CASES[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    for args in (["validate", str(path)],
                 ["run", str(path), "--out", str(tmp_path / "out"), "--no-progress"]):
        proc = cli(*args, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr
        where = f"{path}:{line}" if line else f"{path}"
        assert f"error: {where}: {key}: expected" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_unreadable_preference_is_reported_and_the_run_scores_it_unscored(
        tmp_path: Path) -> None:
    """A fixed driver's preference text no parser reads: `validate` names it by file and line
    (sim.world.driver_preferences.unparsed_preferences), and a run in an agent mode scores it
    unscored."""
    path = tmp_path / "pref.toml"
    path.write_text(BASE.replace("days = 1", "days = 0.1") + fixed(
        "A", 'preferences = [{text = "一天最多接2单"}]\n') + fixed(
        "B", 'preferences = [{text = "blorp zork", penalty_amount = 10}]\n')
        + '\n[memory]\nmode = "bounded"\n')
    v = cli("validate", str(path), timeout=60)
    assert v.returncode == 0, v.stderr
    notes = [ln for ln in v.stdout.splitlines() if ln.startswith("unparsed")]
    assert len(notes) == 1
    assert f"{path}:14: driver B preference 1: " in notes[0]
    assert notes[0].endswith("'blorp zork'")
    r = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress", timeout=120)
    assert r.returncode == 0, r.stderr
    assert "note: unparsed (scored as unscored)" in r.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert [u["text"] for u in summary["preferences"]["unscored"]] == ["blorp zork"]


@pytest.mark.parametrize(("key", "bad", "expected", "default"), [
    ("slot_share", "-0.1", "zero or more", 0.5), ("slot_share", "1.5", "at most 1", 0.5),
    ("place_weight", "-1", "zero or more", 0.0), ("place_weight", "1000", "at most 100", 0.0),
])
def test_the_policys_shares_and_weights_are_checked(tmp_path: Path, key: str, bad: str,
                                                    expected: str, default: float) -> None:
    """`[policy] slot_share` is a share of a slot (0-1); `place_weight` a weight (0-100)."""
    f = tmp_path / "s.toml"
    f.write_text(f'[scenario]\nname = "s"\ndays = 1\n\n[policy]\n{key} = {bad}\n',
                 encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert f"[policy] {key}" in str(e.value)
    assert expected in str(e.value)
    root = Path(__file__).resolve().parents[1]
    policy = load_scenario(root / "scenarios/competition-rules.toml").policy
    assert getattr(policy, key) == default
