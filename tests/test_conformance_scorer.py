"""Spec conformance across the simulator and the scorer (docs/competition.md §4, §6).

Each run is a real replica run whose written files are then scored; where the spec says the two
disagree (a fractional wait, remove < create, an unknown id), the driver must abort, and
everywhere else it must validate with income equal to an independent recomputation from the log.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.geo import haversine_km
from sim.scoring.scorer import score_run
from tests.test_competition_rules import HOME, cargo, driver, move, play, take, wait

ROOT = Path(__file__).resolve().parents[1]


def score(tmp: Path, version: str, days: int = 1, **kw):
    return score_run(tmp / "out", version=version, cargo=tmp / "cargo.jsonl",
                     drivers=tmp / "drivers.json", days=days, **kw)


def independent_income(log_lines: list[dict], cargo_rows: dict[str, dict], horizon: int,
                       cost_per_km: float) -> tuple[float, float, float]:
    """§6 from the written log and the raw cargo, without the scorer's code."""
    gross = km = 0.0
    for rec in log_lines:
        name = rec["action"]["action"].lower()
        res = rec["result"]
        if name == "reposition":
            km += res["distance_km"]
        elif name == "take_order" and res.get("accepted") is True:
            row = cargo_rows[str(rec["action"]["params"]["cargo_id"]).strip()]
            if res["simulation_progress_minutes"] <= horizon:
                gross += row["price"] / 100
            haul = res["haul_distance_km"]
            if haul <= 0:
                haul = haversine_km(row["start"]["lat"], row["start"]["lng"], row["end"]["lat"],
                                 row["end"]["lng"])
            km += res["pickup_deadhead_km"] + haul
    return round(gross, 2), round(km, 2), round(gross - km * cost_per_km, 2)


def read_log(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


# -------------------------------------------------------- where the two must disagree


def test_fractional_wait_runs_truncated_and_aborts_in_scoring(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7")], [wait(7.996)])
    rec = read_log(env.runs[0].log.path)[0]
    assert rec["action_exec_cost_minutes"] == 7
    assert rec["action"]["params"]["duration_minutes"] == 8.0  # logged rounded
    for v in ("S1", "S2", "S3", "S4"):
        d = score(tmp_path, v).driver("A")
        assert d.calculation_aborted is True
        assert d.validation_error.startswith("ValueError: ")
        assert d.income.net_income == 0.0
        assert d.token_usage["total_tokens"] == 0


@pytest.mark.parametrize("given", [-0.5, "7", 7.4, 0])
def test_other_wait_forms_validate(tmp_path: Path, given: object) -> None:
    play(tmp_path, [cargo("7")], [wait(given)])
    for v in ("S1", "S4"):
        assert score(tmp_path, v).driver("A").calculation_aborted is False


def test_remove_before_create_take_aborts_in_scoring(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7", create=10, remove=5, cost=5)], [wait(10), take("7")])
    assert read_log(env.runs[0].log.path)[1]["result"]["accepted"] is True
    for v in ("S1", "S2", "S3", "S4"):
        d = score(tmp_path, v).driver("A")
        assert d.calculation_aborted is True
        assert "not online" in d.validation_error


def test_unknown_id_aborts_even_when_the_take_failed(tmp_path: Path) -> None:
    play(tmp_path, [cargo("7")], [take("nope")])
    d = score(tmp_path, "S4").driver("A")
    assert d.calculation_aborted is True
    assert d.validation_error.startswith("KeyError: ")


def test_untrimmed_failed_take_is_found_by_the_trimmed_lookup(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7")], [take(" 7 ")])
    assert read_log(env.runs[0].log.path)[0]["result"]["accepted"] is False
    assert score(tmp_path, "S4").driver("A").calculation_aborted is False


# -------------------------------------------------------------- where they must agree


@pytest.mark.parametrize("dlat", [0.0, 5e-9, 2e-8])
def test_pickup_snap_agrees_with_the_scorer(tmp_path: Path, dlat: float) -> None:
    pick = (23.1, 113.3)
    play(tmp_path, [cargo("7", at=pick, cost=30)], [take("7")],
         drivers=[driver(at=(pick[0] + dlat, pick[1]))])
    for v in ("S3", "S4"):
        d = score(tmp_path, v).driver("A")
        assert d.calculation_aborted is False, d.validation_error
        assert d.income.gross_income == 1000.0


def test_window_expired_deadhead_is_never_costed(tmp_path: Path) -> None:
    rows = [cargo("7", at=(23.4, 113.3), window=[wall0(), wall0()])]
    env, _ = play(tmp_path, rows, [take("7")])
    rec = read_log(env.runs[0].log.path)[0]
    assert rec["result"]["detail"] == "load_time_window_expired"
    assert rec["result"]["pickup_deadhead_km"] > 0
    d = score(tmp_path, "S4").driver("A")
    assert d.calculation_aborted is False
    assert d.income.distance_km == 0.0


def wall0() -> str:
    return "2026-03-01 00:00:00"


def _rich_steps():
    """Repositions with long decimals, windows, waits, failed and accepted takes, a day-31
    order (paid under S3/S4 only) and a query before an action."""
    def query_then_take(cid):
        def step(api, d):
            api.query_cargo(d, *HOME)
            return {"action": "take_order", "params": {"cargo_id": cid}, "reason": "近"}
        return step
    return [move(23.123456789, 113.3456789), take("a"), wait(33.3), query_then_take("b"),
            take("gone"), move(23.2, 113.2), take("c"), wait(30 * 1440 - 60), take("d")]


def _rich_rows():
    return [cargo("a", cost=200, price=123456, at=(23.12, 113.35), to=(23.5, 113.81)),
            cargo("b", cost=95, price=100.5, at=(23.51, 113.8), to=(23.2, 113.2),
                  window=["2026-03-01 03:00:00", "2026-03-01 23:00:00"], remove=2000),
            cargo("gone", create=0, remove=1),
            cargo("c", cost=10, price=99999, at=(23.2, 113.2), to=(23.21, 113.21),
                  window=["2026-03-01 00:00:00", "2026-03-01 00:00:00"]),
            cargo("d", create=0, remove=31 * 1440, cost=700, price=500000, at=(23.2, 113.2),
                  to=(22.8, 113.6))]


@pytest.mark.parametrize("version", ["S1", "S2", "S3", "S4"])
def test_round_trip_income_equals_independent_recomputation(tmp_path: Path,
                                                            version: str) -> None:
    rows = _rich_rows()
    env, _summary = play(tmp_path, rows, _rich_steps(), days=31)
    lines = read_log(env.runs[0].log.path)
    acc = [r["result"].get("accepted") for r in lines if r["action"]["action"] == "take_order"]
    assert acc == [True, True, False, False, True]
    last = lines[8]["result"]["simulation_progress_minutes"]
    assert 30 * 1440 < last <= 31 * 1440  # the day-31 order
    rep = score(tmp_path, version, days=31)
    d = rep.driver("A")
    assert d.calculation_aborted is False, d.validation_error
    h = (30 if version in ("S1", "S2") else 31) * 1440
    by_id = {r["cargo_id"]: r for r in rows}
    gross, km, net = independent_income(lines, by_id, h, 1.5)
    assert (d.income.gross_income, d.income.distance_km) == (gross, km)
    assert d.income.cost == round(km * 1.5, 2) or abs(d.income.cost - km * 1.5) < 0.02
    assert abs(d.income.net_income - net) <= 0.011
    paid_d = version in ("S3", "S4")
    assert (gross > 5000) is paid_d


@pytest.mark.parametrize("mode", ["compete", "run"])
def test_smoke_scenario_cli_round_trip(tmp_path: Path, mode: str) -> None:
    """The shipped smoke scenario under a third-party agent (compete) and ours (run), then
    `freightsim score --json` under S1-S4."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "agents.app.cli", mode, "scenarios/competition-smoke.toml",
           "--out", str(out)]
    if mode == "compete":
        cmd += ["--agent", "tests/agents/comp_agent.py:ModelDecisionService"]
    else:
        cmd += ["--no-progress"]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=300)
    comp = out / "competition"
    inputs = json.loads((comp / "freightsim_inputs.json").read_text(encoding="utf-8"))
    rows = {}
    for line in Path(inputs["cargo"]).read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            rows[str(r["cargo_id"]).strip()] = r
    drivers = {d["driver_id"]: d for d in
               json.loads(Path(inputs["drivers"]).read_text(encoding="utf-8"))}
    days = inputs["simulation_duration_days"]
    for version in ("S1", "S2", "S3", "S4"):
        res = subprocess.run([sys.executable, "-m", "agents.app.cli", "score", str(out),
                              "--version", version, "--json"], cwd=ROOT, check=True,
                             capture_output=True, text=True, timeout=300)
        official = json.loads(res.stdout)
        if version == inputs["scoring_version"]:  # the run wrote the scorer's file (§6)
            written = json.loads((comp / "monthly_income_202603.json").read_text("utf-8"))
            assert written == official
        assert official["summary"]["failed_driver_count"] == 0
        assert [d["driver_id"] for d in official["drivers"]] == sorted(drivers)
        h = min(days, 30 if version in ("S1", "S2") else 31 if version == "S3" else days) * 1440
        for d in official["drivers"]:
            assert d["calculation_aborted"] is False, d["validation_error"]
            (path,) = comp.glob(f"actions_202603_{d['driver_id']}_*.jsonl")
            lines = read_log(path)
            assert lines, "every driver logged steps"
            gross, km, _ = independent_income(lines, rows, h, 0.0)
            assert d["income"]["gross_income"] == gross
            assert d["income"]["distance_km"] == km
            cpk = drivers[d["driver_id"]]["cost_per_km"]
            assert abs(d["income"]["cost"] - km * cpk) < 0.01 * (1 + cpk)
            assert list(d["income"]) == ["gross_income", "distance_km", "cost",
                                         "preference_penalty", "net_income"]


def test_run_without_any_logged_step_still_finishes(tmp_path: Path) -> None:
    """Every driver fails at its first decision: no action files (§5.1), a summary, exit 0."""
    agent = tmp_path / "bad_agent.py"
    agent.write_text("class ModelDecisionService:\n"
                     "    def __init__(self, api):\n        self.api = api\n"
                     "    def decide(self, driver_id):\n        raise RuntimeError('boom')\n",
                     encoding="utf-8")
    out = tmp_path / "run"
    res = subprocess.run([sys.executable, "-m", "agents.app.cli", "compete",
                          "scenarios/competition-smoke.toml", "--agent",
                          f"{agent}:ModelDecisionService", "--out", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    comp = out / "competition"
    assert not list(comp.glob("actions_202603_*.jsonl"))
    summary = json.loads((comp / "run_summary_202603.json").read_text("utf-8"))
    assert set(summary["driver_end_reasons"].values()) == {"error"}
    assert summary["driver_result_files"] == {}
    assert summary["completed_steps"] == 0


@pytest.mark.parametrize(("name", "aborts"), [("WAIT", False), ("Wait", False),
                                              (" wait", True), ("wait ", True)])
def test_action_name_spaces_run_but_abort_in_scoring(tmp_path: Path, name: str,
                                                     aborts: bool) -> None:
    """§3.1 ignores case and surrounding spaces; §6.1 only lowercases the logged name."""
    env, _ = play(tmp_path, [cargo("7")], [lambda api, d: {"action": name}])
    rec = read_log(env.runs[0].log.path)[0]
    assert rec["action"]["action"] == name
    assert rec["action_exec_cost_minutes"] == 1
    for v in ("S1", "S4"):
        assert score(tmp_path, v).driver("A").calculation_aborted is aborts


@pytest.mark.parametrize(("extra", "paid"), [(0, True), (1, False)])
def test_payment_at_the_horizon_ignores_the_flag(tmp_path: Path, extra: int, paid: bool) -> None:
    env, _ = play(tmp_path, [cargo("7", cost=1440 - 100 + extra, remove=2000, price=54321)],
                  [wait(100), take("7")])
    rec = read_log(env.runs[0].log.path)[1]
    assert rec["result"]["income_eligible"] is paid
    for v in ("S1", "S2", "S3", "S4"):
        d = score(tmp_path, v).driver("A")
        assert d.calculation_aborted is False
        assert d.income.gross_income == (543.21 if paid else 0.0)
        assert d.income.distance_km == rec["result"]["haul_distance_km"]  # costed either way


@pytest.mark.parametrize("full", [True, False])
def test_early_release_rounding_rejects_finer_cargo_coordinates(tmp_path: Path,
                                                                full: bool) -> None:
    """§2.2/§5.3: with 2-dp logged coordinates (early release) an accepted take of cargo whose
    drop point has finer decimals fails S1/S2's end-position check; the replica default
    (full precision) validates everywhere, and S3/S4 skip that check anyway."""
    play(tmp_path, [cargo("7", to=(23.5012, 113.8), cost=5)], [take("7")], full_coords=full)
    for v in ("S1", "S2", "S3", "S4"):
        aborted = score(tmp_path, v).driver("A").calculation_aborted
        assert aborted is (not full and v in ("S1", "S2"))
