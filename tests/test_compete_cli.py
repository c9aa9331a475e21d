"""`freightsim compete` and `run` under competition rules, as a user runs them (subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.competition_data import cargo_rows, driver_rows, wall, write_cargo, write_drivers
from tests.conftest import ROOT, cli

AGENT = "tests/agents/comp_agent.py:ModelDecisionService"


def _scenario(tmp: Path, days: int = 3, drivers: int = 10, extra: str = "",
              cargo: list[dict] | None = None) -> Path:
    write_cargo(tmp / "cargo.jsonl", cargo if cargo is not None else cargo_rows(days, 150))
    write_drivers(tmp / "drivers.json", driver_rows(drivers))
    p = tmp / "comp.toml"
    p.write_text(f'[scenario]\nname = "c"\ndays = {days}\nruleset = "competition"\n{extra}\n'
                 '[cargo]\nfile = "cargo.jsonl"\n[drivers]\nfile = "drivers.json"\n'
                 '[memory]\nmode = "off"\n', encoding="utf-8")
    return p


def _logs(out: Path) -> dict[str, str]:
    """Action-log contents by driver id (file names carry the run's timestamp)."""
    return {p.name.split("_")[2]: p.read_text(encoding="utf-8")
            for p in (out / "competition").glob("actions_202603_*.jsonl")}


def test_competition_agent_10_drivers_3_days_is_deterministic(tmp_path: Path) -> None:
    sc = _scenario(tmp_path)
    runs = []
    for name in ("one", "two"):
        proc = cli("compete", str(sc), "--agent", AGENT, "--out", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        runs.append(_logs(tmp_path / name))
    assert sorted(runs[0]) == [f"D{i:03d}" for i in range(1, 11)]
    assert runs[0] == runs[1]
    comp = tmp_path / "one" / "competition"
    summary = json.loads((comp / "run_summary_202603.json").read_text(encoding="utf-8"))
    assert summary["simulation_duration_days"] == 3
    assert set(summary["driver_end_reasons"].values()) == {"normal"}
    assert summary["completed_steps"] == sum(len(v.splitlines()) for v in runs[0].values())
    for did, path in summary["driver_result_files"].items():
        assert Path(path).read_text(encoding="utf-8") == runs[0][did]
    inputs = json.loads((comp / "freightsim_inputs.json").read_text())
    assert inputs == {"cargo": str((tmp_path / "cargo.jsonl").resolve()),
                      "drivers": str((comp / "drivers.json").resolve()),
                      "reposition_speed_km_per_hour": 60.0, "simulation_duration_days": 3,
                      "scoring_version": "S4"}
    drivers = json.loads((comp / "drivers.json").read_text(encoding="utf-8"))
    assert drivers == driver_rows(10)  # the official form, as given
    lines = [json.loads(x) for x in runs[0]["D001"].splitlines()]
    assert {r["action"]["action"] for r in lines} >= {"take_order", "wait"}
    assert all(r["action"]["note"] == "RuntimeError" for r in lines if "note" in r["action"])


def test_dotted_module_agent_and_fixed_timestamp(tmp_path: Path) -> None:
    sc = _scenario(tmp_path, days=1, drivers=2)
    proc = cli("compete", str(sc), "--agent", "tests.agents.comp_agent:ModelDecisionService",
               "--out", str(tmp_path / "o"), "--timestamp", "20260301_120000",
               "--concurrency", "2")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "o/competition/actions_202603_D001_20260301_120000.jsonl").is_file()


def test_our_agents_run_under_competition_rules(tmp_path: Path) -> None:
    sc = _scenario(tmp_path, days=2, drivers=3)
    outs = []
    for name, mode in (("a", "off"), ("b", "off"), ("c", "bounded"), ("d", "compressed")):
        proc = cli("run", str(sc), "--out", str(tmp_path / name), "--memory", mode,
                   "--no-progress")
        assert proc.returncode == 0, proc.stderr
        summary = json.loads((tmp_path / name / "competition/run_summary_202603.json")
                             .read_text(encoding="utf-8"))
        assert set(summary["driver_end_reasons"].values()) == {"normal"}, summary
        outs.append(_logs(tmp_path / name))
    assert outs[0] == outs[1]  # deterministic
    assert sorted(outs[2]) == ["D001", "D002", "D003"]
    recs = [json.loads(x) for v in outs[2].values() for x in v.splitlines()]
    assert any(r["result"].get("accepted") for r in recs)
    assert any(r["query_scan_cost_minutes"] > 0 for r in recs)  # a Search is a query_cargo


def test_92_day_horizon(tmp_path: Path) -> None:
    cargo = [{"cargo_id": "long", "create_time": wall(0), "remove_time": wall(100 * 1440),
              "start": {"lat": 21.0, "lng": 111.0}, "end": {"lat": 21.5, "lng": 111.5},
              "load_time": None, "cost_time_minutes": 60, "price": 1000}]
    agent = tmp_path / "day_agent.py"
    agent.write_text("class Agent:\n    def __init__(self, api):\n        self.api = api\n"
                     "    def decide(self, driver_id):\n"
                     "        return {'action': 'wait', 'params': {'duration_minutes': 1440}}\n")
    sc = _scenario(tmp_path, days=92, drivers=1, cargo=cargo)
    proc = cli("compete", str(sc), "--agent", f"{agent}:Agent", "--out", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(x) for x in _logs(tmp_path / "o")["D001"].splitlines()]
    assert len(recs) == 92
    assert recs[-1]["simulation_end_time"] == "2026-06-01 00:00"
    assert recs[-1]["result"]["simulation_progress_minutes"] == 92 * 1440


def test_clear_errors(tmp_path: Path) -> None:
    sc = _scenario(tmp_path, days=1, drivers=2)
    bad = cli("compete", str(sc), "--agent", "no_such_module:X", "--out", str(tmp_path / "o"))
    assert bad.returncode == 2
    assert "--agent: expected an importable agent module" in bad.stderr
    rows = cargo_rows(1, 5)
    rows[2]["price"] = "NaN"
    write_cargo(tmp_path / "cargo.jsonl", rows)
    bad = cli("compete", str(sc), "--agent", AGENT, "--out", str(tmp_path / "o"))
    assert bad.returncode == 2
    assert "cargo.jsonl:3: price: expected" in bad.stderr
    assert "Traceback" not in bad.stderr
    p = tmp_path / "gen.toml"
    p.write_text('[scenario]\nruleset = "competition"\ndays = 1.5\n')
    bad = cli("validate", str(p))
    assert bad.returncode == 2
    assert "[scenario] days: expected a whole number of days" in bad.stderr


def test_generated_cargo_needs_cargo_stream(tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("sim.world.cargo_stream") is not None:
        return  # the calibrated generator exists: covered by its own tests
    p = tmp_path / "gen.toml"
    p.write_text('[scenario]\nruleset = "competition"\ndays = 1\n[drivers]\ncount = 2\n')
    bad = cli("run", str(p), "--out", str(tmp_path / "o"), "--no-progress")
    assert bad.returncode == 2
    assert "needs sim.world.cargo_stream" in bad.stderr
    drivers = json.loads((tmp_path / "o/competition/drivers.json").read_text()) if (
        tmp_path / "o/competition/drivers.json").exists() else None
    assert drivers is None  # nothing half-written before the error


def test_shipped_smoke_scenario(tmp_path: Path) -> None:
    proc = cli("compete", str(ROOT / "scenarios/competition-smoke.toml"), "--agent", AGENT,
               "--out", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    assert len(_logs(tmp_path / "o")) == 3


def test_validate_opens_the_data_files(tmp_path: Path) -> None:
    sc = _scenario(tmp_path, days=1, drivers=2)
    rows = driver_rows(2)
    rows[1]["preferences"].append({"content": "开心就好", "penalty_amount": 1,
                                   "penalty_cap": None})
    write_drivers(tmp_path / "drivers.json", rows)
    ok = cli("validate", str(sc))
    assert ok.returncode == 0, ok.stderr
    assert "150 rows, listed 2026-03-01" in ok.stdout
    assert "drivers.json:" in ok.stdout
    assert "driver D002 preference 2: text not understood by the parser: '开心就好'" in ok.stdout
    cargo = cargo_rows(1, 5)
    cargo[4]["create_time"] = "2026-03-01 08:00:00+08:00"
    write_cargo(tmp_path / "cargo.jsonl", cargo)
    bad = cli("validate", str(sc))
    assert bad.returncode == 2
    assert "cargo.jsonl:5: create_time: expected a time like" in bad.stderr


def test_memory_view_for_competition_agents(tmp_path: Path) -> None:
    from agents.app.compete import run_competition
    from sim.scenario import load_scenario

    sc = load_scenario(_scenario(tmp_path, days=1, drivers=2)).with_overrides(
        memory={"mode": "bounded"})
    seen = {}

    class Peek:
        def __init__(self, api) -> None:
            from agents.app.compete_adapter import FreightsimAgent
            from sim.competition.drivers_file import load_driver_records

            self.api = api
            self.ours = FreightsimAgent(api, sc, load_driver_records(tmp_path / "drivers.json"))

        def decide(self, driver_id: str) -> dict:
            out = self.ours.decide(driver_id)
            seen.setdefault(driver_id, self.api.memory_view(driver_id, "main_decision"))
            return out

    import sys
    import types

    mod = types.ModuleType("peek_agent")
    mod.Peek = Peek
    sys.modules["peek_agent"] = mod
    summary = run_competition(sc, tmp_path / "o", "peek_agent:Peek", stamp="20260301_000000")
    assert set(summary["driver_end_reasons"].values()) == {"normal"}
    assert sorted(seen) == ["D001", "D002"]
    assert all(isinstance(v, str) and v for v in seen.values())


def test_model_calls_are_counted_recorded_and_replayed(tmp_path: Path, monkeypatch) -> None:
    from agents.app.compete import run_competition
    from agents.testing.fakes import ScriptedServer, constant
    from sim.scenario import load_scenario

    monkeypatch.setenv("COMP_TEST_KEY", "sk-test")
    base = _scenario(tmp_path, days=1, drivers=2)
    logs = []
    with ScriptedServer(constant("hello"), prompt_tokens=30, completion_tokens=7) as srv:
        llm = {"backend": "llm", "base_url": srv.base_url, "model": "m1",
               "api_key_env": "COMP_TEST_KEY", "cache": str(tmp_path / "cache.jsonl")}
        sc = load_scenario(base).with_overrides(llm=llm)
        run_competition(sc, tmp_path / "rec", AGENT, stamp="20260301_000000")
        logs.append(_logs(tmp_path / "rec"))
        assert srv.requests[0]["model"] == "m1"  # filled in from config
        assert srv.headers[0]["authorization"] == "Bearer sk-test"
        sent = len(srv.requests)
    replay = load_scenario(base).with_overrides(llm={**llm, "replay": True,
                                                     "base_url": "http://127.0.0.1:9/v1"})
    summary = run_competition(replay, tmp_path / "rep", AGENT, stamp="20260301_000000")
    logs.append(_logs(tmp_path / "rep"))
    assert logs[0] == logs[1]
    recs = [json.loads(x) for x in logs[0]["D001"].splitlines()]
    # one request per distinct payload ("step n"): repeats are answered from the cache
    assert sent == max(len(v.splitlines()) for v in logs[0].values())
    assert {r["action"].get("note") for r in recs if "note" in r["action"]} == {"hello"}
    assert all(r["token_usage"] == {"prompt_tokens": 30, "completion_tokens": 7,
                                    "reasoning_tokens": 0, "total_tokens": 37} for r in recs)
    assert summary["driver_token_usage"]["D001"] == 37 * len(recs)
