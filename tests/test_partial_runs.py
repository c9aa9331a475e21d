"""Complete or not, said plainly (issue 23, item 2): a run killed halfway, or a run directory
whose logs or summary were cut by hand, is never scored as a result. `freightsim score` names
each incomplete driver and exits 3; with --allow-partial it scores what exists and the
official-format result marks those drivers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.app.cli import main
from agents.app.compete import run_competition
from agents.testing.fakes import ScriptedServer
from sim.competition.completeness import LogState, SummaryState, check_run_complete
from sim.scenario import load_scenario
from tests.conftest import ROOT, SCENARIOS

DRIVERS = ("D001", "D002", "D003")  # scenarios/competition-smoke/drivers.json
STAMP = "20260301_000000"


def _slow_reply(body: dict):
    time.sleep(0.05)  # each model call takes a while, so a driver takes seconds
    return 200, "{}"


def test_killed_run_is_refused_then_scored_as_partial(tmp_path: Path, capsys) -> None:
    """A real `freightsim run` of a competition scenario, killed with SIGKILL as soon as its
    first driver's action log appears."""
    with ScriptedServer(_slow_reply) as srv:
        sc = tmp_path / "comp.toml"
        sc.write_text(
            (SCENARIOS / "competition-smoke.toml").read_text(encoding="utf-8")
            .replace('file = "competition-smoke/', f'file = "{SCENARIOS}/competition-smoke/')
            .replace('mode = "off"', 'mode = "bounded"')
            + f'\n[llm]\nbackend = "openai"\nbase_url = "{srv.base_url}"\ntimeout_s = 5.0\n'
              'max_retries = 0\nresponse_format = "json_object"\n', encoding="utf-8")
        out = tmp_path / "out"
        proc = subprocess.Popen(
            [sys.executable, "-m", "agents.app.cli", "run", str(sc), "--out", str(out)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            deadline = time.monotonic() + 60
            while not list((out / "competition").glob("actions_*.jsonl")):
                assert proc.poll() is None, "the run ended before it could be killed"
                assert time.monotonic() < deadline, "no action log within 60 s"
                time.sleep(0.02)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    whole = check_run_complete(out)
    assert not whole.complete
    assert whole.summary is SummaryState.MISSING
    assert [d.driver_id for d in whole.drivers] == list(DRIVERS)
    no_log = {d.driver_id for d in whole.drivers if d.state is LogState.NO_LOG}
    assert no_log >= {"D003"}  # the loop is sequential: the last driver never started
    assert {d.driver_id for d in whole.incomplete} >= no_log

    assert main(["score", str(out)]) == 3
    err = capsys.readouterr().err
    assert "no run summary" in err
    for did in no_log:
        assert f"driver {did}: no action log" in err

    assert main(["score", str(out), "--json", "--allow-partial"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["run_complete"] is False
    assert set(result["summary"]["incomplete_drivers"]) == {d.driver_id for d in
                                                            whole.incomplete}
    scored = {d["driver_id"] for d in result["drivers"]}
    assert scored == {d.driver_id for d in whole.drivers if d.log_file is not None}
    for d in result["drivers"]:
        assert ("incomplete" in d) == (d["driver_id"] in result["summary"]["incomplete_drivers"])


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole run of the shipped competition scenario (1 day, greedy baseline)."""
    sc = load_scenario(SCENARIOS / "competition-smoke.toml").with_overrides(
        scenario={"days": 1})
    out = tmp_path_factory.mktemp("finished") / "run"
    run_competition(sc, out, stamp=STAMP)
    return out


def _copy(finished: Path, tmp: Path) -> tuple[Path, Path]:
    out = tmp / "run"
    shutil.copytree(finished, out)
    return out, out / "competition"


def _log(comp: Path, did: str) -> Path:
    return comp / f"actions_202603_{did}_{STAMP}.jsonl"


def test_whole_run_is_complete_and_scores_in_the_official_shape(finished: Path, tmp_path: Path,
                                                                 capsys) -> None:
    whole = check_run_complete(finished)
    assert whole.complete, whole.messages()
    assert [d.state for d in whole.drivers] == [LogState.COMPLETE] * 3
    assert main(["score", str(finished), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "run_complete" not in result  # the official format, untouched
    assert "incomplete_drivers" not in result["summary"]


def _cut_lines(path: Path, keep: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) > keep
    path.write_text("".join(lines[:keep]), encoding="utf-8")


@pytest.mark.parametrize(("damage", "state", "words"), [
    ("fewer_lines", LogState.SHORT_LOG, "stops after 1 of"),
    ("mid_line", LogState.TORN_LOG, "cut short"),
    ("no_log", LogState.NO_LOG, "no action log"),
    ("gap", LogState.TORN_LOG, "expected step 2"),
])
def test_a_cut_log_is_named(finished: Path, tmp_path: Path, capsys, damage: str,
                            state: LogState, words: str) -> None:
    out, comp = _copy(finished, tmp_path)
    log = _log(comp, "D002")
    if damage == "fewer_lines":
        _cut_lines(log, 1)
    elif damage == "mid_line":
        blob = log.read_bytes()
        log.write_bytes(blob[:len(blob) - 40])
    elif damage == "no_log":
        log.unlink()
    else:
        lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
        log.write_text(lines[0] + "".join(lines[2:]), encoding="utf-8")
    whole = check_run_complete(out)
    assert [d.driver_id for d in whole.incomplete] == ["D002"]
    assert whole.incomplete[0].state is state
    assert words in whole.incomplete[0].detail

    assert main(["score", str(out)]) == 3
    assert "driver D002: " in capsys.readouterr().err
    assert main(["score", str(out), "--allow-partial"]) == 0
    text = capsys.readouterr().out
    assert "PARTIAL RUN: 1 of 3 drivers incomplete" in text
    assert f"driver D002: {whole.incomplete[0].detail}" in text


@pytest.mark.parametrize("damage", ["torn", "missing"])
def test_a_torn_or_missing_summary_is_named(finished: Path, tmp_path: Path, capsys,
                                            damage: str) -> None:
    out, comp = _copy(finished, tmp_path)
    summary = comp / "run_summary_202603.json"
    if damage == "torn":
        summary.write_text(summary.read_text(encoding="utf-8")[:200], encoding="utf-8")
    else:
        summary.unlink()
    whole = check_run_complete(out)
    assert whole.summary is (SummaryState.TORN if damage == "torn" else SummaryState.MISSING)
    assert not whole.complete
    assert main(["score", str(out)]) == 3
    err = capsys.readouterr().err
    assert ("is torn" if damage == "torn" else "no run summary") in err
    # with --allow-partial the logs are scored all the same (the torn summary set aside)
    assert main(["score", str(out), "--json", "--allow-partial"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["run_complete"] is False
    assert len(result["drivers"]) == 3
    assert result["run_problems"]


def test_a_driver_the_summary_never_ended(finished: Path, tmp_path: Path) -> None:
    out, comp = _copy(finished, tmp_path)
    path = comp / "run_summary_202603.json"
    summary = json.loads(path.read_text(encoding="utf-8"))
    del summary["driver_end_reasons"]["D003"]
    del summary["driver_completed_steps"]["D003"]
    path.write_text(json.dumps(summary), encoding="utf-8")
    whole = check_run_complete(out)
    assert [(d.driver_id, d.state) for d in whole.incomplete] == [("D003",
                                                                   LogState.NOT_ENDED)]


def test_a_generator_world_run_without_its_summary(tmp_path: Path, smoke) -> None:
    from agents.app.runner import run_scenario

    out = tmp_path / "world"
    run_scenario(smoke.with_overrides(scenario={"days": 0.05}, drivers={"count": 2},
                                      memory={"mode": "off"}), out)
    assert check_run_complete(out).complete
    (out / "summary.json").unlink()
    whole = check_run_complete(out)
    assert whole.summary is SummaryState.MISSING
    assert not whole.complete


def test_bench_refuses_a_mode_whose_run_is_not_whole(tmp_path: Path, monkeypatch,
                                                     capsys) -> None:
    """bench checks each mode's run directory as score does: a driver's log lost between the
    run and the report makes the bench exit 3 naming it, not report a figure."""
    import agents.app.bench_competition as bc

    real = bc.run_competition

    def losing_a_log(sc, out, *args, **kw):
        summary = real(sc, out, *args, **kw)
        next((Path(out) / "competition").glob("actions_*_D002_*.jsonl")).unlink()
        return summary

    monkeypatch.setattr(bc, "run_competition", losing_a_log)
    sc = tmp_path / "bench.toml"
    sc.write_text((SCENARIOS / "competition-smoke.toml").read_text(encoding="utf-8")
                  .replace('file = "competition-smoke/', f'file = "{SCENARIOS}/competition-smoke/')
                  .replace("days = 3", "days = 1"), encoding="utf-8")
    assert main(["bench", str(sc), "--modes", "off", "--out", str(tmp_path / "b")]) == 3
    err = capsys.readouterr().err
    assert "incomplete: off: driver D002: no action log" in err
    report = json.loads((tmp_path / "b" / "report.json").read_text(encoding="utf-8"))
    assert report["modes"]["off"]["incomplete"]
