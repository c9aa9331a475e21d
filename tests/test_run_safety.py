"""Concurrency, record/replay strictness and late failures (issue 10, items 5-7)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.app.rundir import RunDirLock
from memory.modes import OFF, mode_names
from tests.conftest import ROOT, SCENARIOS, cli
from tests.test_replay import plausible

TINY = """[scenario]
name = "tiny"
seed = 1
days = 0.1

[drivers]
count = 2

[memory]
mode = "bounded"
"""


def _write(tmp_path: Path, text: str = TINY, name: str = "tiny.toml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- the run-directory lock --------------------------------------------------------------------
def test_second_writer_is_refused_and_the_first_run_is_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text('{"mine": true}')
    lock = RunDirLock(out)  # a run holding the directory (this process)
    try:
        proc = cli("run", str(_write(tmp_path)), "--out", str(out), "--no-progress", timeout=60)
    finally:
        lock.release()
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "in use by a running freightsim" in proc.stderr
    assert json.loads((out / "summary.json").read_text()) == {"mine": True}  # nothing removed
    again = cli("run", str(_write(tmp_path)), "--out", str(out), "--no-progress", timeout=120)
    assert again.returncode == 0, again.stderr  # released: the directory is usable again


def test_two_concurrent_runs_into_one_directory(tmp_path: Path) -> None:
    # the second run is forked from an imported server (tests/cli_fork.py), so it reaches the
    # lock within a fraction of a second: a one-day first run is long enough to be caught
    scenario = _write(tmp_path, (SCENARIOS / "default.toml").read_text().replace(
        "days = 7", "days = 1"))
    out = tmp_path / "out"
    args = ["run", str(scenario), "--out", str(out), "--no-progress"]
    first = subprocess.Popen([sys.executable, "-m", "agents.app.cli", *args], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / "scenario.json").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    second = cli(*args, timeout=120)
    first.communicate(timeout=120)
    assert first.returncode == 0
    if second.returncode == 0:
        pytest.skip("the first run finished before the second started (slow machine)")
    assert second.returncode == 2
    assert "in use by a running freightsim" in second.stderr


@pytest.mark.parametrize("kind", ["file", "proc", "under_a_file"])
def test_unusable_output_directories(tmp_path: Path, kind: str) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    out = {"file": blocker, "proc": Path("/proc/self/freightsim"),
           "under_a_file": blocker / "run"}[kind]
    proc = cli("run", str(_write(tmp_path)), "--out", str(out), "--no-progress", timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"error: {out}: --out: expected" in proc.stderr
    assert "results written so far" not in proc.stderr


# -- sweep ---------------------------------------------------------------------------------
def test_sweep_same_stem_scenarios_get_distinct_run_ids(tmp_path: Path) -> None:
    a = _write(tmp_path, name="a/tiny.toml")
    b = _write(tmp_path, TINY.replace("seed = 1", "seed = 2"), name="b/tiny.toml")
    out = tmp_path / "sweep"
    proc = cli("sweep", str(a), str(b), "--seeds", "1", "--out", str(out), "--workers", "1",
               timeout=300)
    assert proc.returncode == 0, proc.stderr
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert len(runs) == 2
    assert len(set(runs)) == 2
    assert all(r.startswith("tiny-") for r in runs)


@pytest.mark.parametrize(("args", "phrase"), [
    (["--seeds", "1,x"], "--seeds: expected comma-separated integers, found 'x'"),
    (["--seeds", "-1"], "--seeds: expected seeds of zero or more, found -1"),
    (["--seeds", "3,3"], "--seeds: expected each value once"),
    (["--modes", "bogus"], "--modes: expected modes from " + ", ".join((OFF, *mode_names()))),
    (["--modes", "bounded,bounded"], "--modes: expected each value once"),
    (["--workers", "0"], "--workers: expected a number of workers of 1 or more"),
])
def test_bad_sweep_arguments(tmp_path: Path, args: list[str], phrase: str) -> None:
    proc = cli("sweep", str(_write(tmp_path)), *args, "--out", str(tmp_path / "s"), timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert phrase in proc.stderr
    assert not (tmp_path / "s").exists()


def test_sweep_naming_one_file_twice(tmp_path: Path) -> None:
    a = _write(tmp_path)
    proc = cli("sweep", str(a), str(a), "--out", str(tmp_path / "s"), timeout=60)
    assert proc.returncode == 2
    assert "each scenario file once" in proc.stderr


# -- replay strictness ---------------------------------------------------------------------
def _llm(tmp_path: Path, cache: str, base_url: str = "http://127.0.0.1:9/v1") -> Path:
    return _write(tmp_path, TINY.replace("days = 0.1", "days = 0.05").replace(
        "count = 2", "count = 1") + f'\n[llm]\nbackend = "llm"\nbase_url = "{base_url}"\n'
        f'cache = "{cache}"\ntimeout_s = 2\nmax_retries = 0\n', name="llm.toml")


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_replay_with_no_cache_fails(tmp_path: Path, state: str) -> None:
    if state == "empty":
        (tmp_path / "cache.jsonl").write_text("")
    scenario = _llm(tmp_path, "cache.jsonl")
    proc = cli("run", str(scenario), "--llm-replay", "--out", str(tmp_path / "o"),
               "--no-progress", timeout=60)
    assert proc.returncode == 2
    assert "[llm] cache: expected a recorded cache to replay" in proc.stderr
    allowed = cli("run", str(scenario), "--llm-replay", "--allow-misses", "--out",
                  str(tmp_path / "o"), "--no-progress", timeout=120)
    assert allowed.returncode == 0, allowed.stderr


def _record(tmp_path: Path) -> Path:
    from agents.testing.fakes import ScriptedServer

    with ScriptedServer(plausible) as srv:
        scenario = _llm(tmp_path, "cache.jsonl", srv.base_url)
        proc = cli("run", str(scenario), "--out", str(tmp_path / "rec"), "--no-progress",
                   timeout=120)
    assert proc.returncode == 0, proc.stderr
    return scenario


def test_replay_misses_fail_the_run_unless_allowed(tmp_path: Path) -> None:
    scenario = _record(tmp_path)
    cache = tmp_path / "cache.jsonl"
    lines = cache.read_text().splitlines(keepends=True)
    assert len(lines) > 4
    full = cli("run", str(scenario), "--llm-replay", "--out", str(tmp_path / "r0"),
               "--no-progress", timeout=120)
    assert full.returncode == 0, full.stderr
    cache.write_text("".join(lines[: len(lines) // 2]))  # half the calls are now misses
    proc = cli("run", str(scenario), "--llm-replay", "--out", str(tmp_path / "r1"),
               "--no-progress", timeout=120)
    assert proc.returncode == 3
    assert "were not in the replay cache" in proc.stderr
    assert (tmp_path / "r1" / "summary.json").exists()  # results still written
    ok = cli("run", str(scenario), "--llm-replay", "--allow-misses", "--out",
             str(tmp_path / "r2"), "--no-progress", timeout=120)
    assert ok.returncode == 0, ok.stderr


def test_torn_last_line_is_skipped_and_reported(tmp_path: Path) -> None:
    scenario = _record(tmp_path)
    cache = tmp_path / "cache.jsonl"
    text = cache.read_text()
    cache.write_text(text + text.splitlines()[0][:57])  # a recording killed mid-write
    n = len(text.splitlines()) + 1
    proc = cli("run", str(scenario), "--llm-replay", "--out", str(tmp_path / "r"),
               "--no-progress", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"{cache}:{n}: skipped a torn last line" in proc.stderr


@pytest.mark.parametrize(("content", "line"), [
    (b'{"key": "a", "completion": {"text": "", "prompt_tokens": 0, "completion_tokens": 0, '
     b'"cached_tokens": null, "latency_s": 0}}\nnot json\n', 2),
    (b'{"key": "a", "completion": {}}\n', 1),
    (b"\xef\xbb\xbf{}\n", 1),
    (b'{"key": "a"}\n\xff\xfe\n{"x": 1}\n', 1),
    (b'[1, 2]\n', 1),
])
def test_garbage_cache_lines_are_named(tmp_path: Path, content: bytes, line: int) -> None:
    (tmp_path / "cache.jsonl").write_bytes(content)
    scenario = _llm(tmp_path, "cache.jsonl")
    proc = cli("run", str(scenario), "--llm-replay", "--out", str(tmp_path / "o"),
               "--no-progress", timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{tmp_path / 'cache.jsonl'}:{line}: [llm] cache: expected" in proc.stderr


# -- late failures: results first ------------------------------------------------------------
def test_lesson_store_failure_after_the_run_keeps_results(tmp_path: Path) -> None:
    blocker = tmp_path / "notadir"
    blocker.write_text("x")  # the store's folder is a file: it cannot be created after the run
    scenario = _write(tmp_path, TINY + f'lessons = "{blocker}/lessons.db"\n')
    out = tmp_path / "out"
    proc = cli("run", str(scenario), "--out", str(out), "--no-progress", timeout=120)
    assert proc.returncode == 4
    assert "Traceback" not in proc.stderr
    assert "results are written, but the lesson store failed" in proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert "lessons_error" in summary
    assert (out / "drivers.parquet").exists()


def test_corrupt_lesson_store_stops_before_the_run(tmp_path: Path) -> None:
    store = tmp_path / "lessons.db"
    store.write_bytes(b"this is not a database" * 100)
    scenario = _write(tmp_path, TINY + f'lessons = "{store}"\n')
    out = tmp_path / "out"
    proc = cli("run", str(scenario), "--out", str(out), "--no-progress", timeout=60)
    assert proc.returncode == 2
    assert "[memory] lessons: expected a readable lesson store" in proc.stderr
    assert not (out / "events.parquet").exists() or not list((out / "events.parquet").iterdir())


def test_full_disk_mid_run_is_a_clear_error_with_readable_results(tmp_path: Path) -> None:
    """A file-size limit stands in for a full disk: writes fail with an OSError mid-run."""
    import resource
    import signal

    import pyarrow.parquet as pq

    from sim.world.events import ROW_SCHEMA

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (6500, 6500))  # scenario.json fits

    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "agents.app.cli", "run", str(SCENARIOS / "smoke.toml"), "--out",
         str(out), "--no-progress"], cwd=ROOT, preexec_fn=limit, capture_output=True,
        text=True, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "File too large" in proc.stderr
    assert f"results written so far are in {out}/" in proc.stderr
    pq.read_table(out / "events.parquet", schema=ROW_SCHEMA)  # what was written is readable
    assert not (out / "summary.json").exists()


def test_a_locked_directory_refuses_a_competition_run(tmp_path: Path) -> None:
    """Competition runs take the same lock (beside competition/, which a new run archives)."""
    out = tmp_path / "out"
    out.mkdir()
    lock = RunDirLock(out)
    try:
        proc = cli("compete", str(SCENARIOS / "competition-smoke.toml"), "--agent",
                   "tests/agents/comp_agent.py:ModelDecisionService", "--out", str(out),
                   timeout=120)
    finally:
        lock.release()
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "in use by a running freightsim" in proc.stderr
    assert not (out / "competition").exists() or not any((out / "competition").glob("actions_*"))
    again = cli("compete", str(SCENARIOS / "competition-smoke.toml"), "--agent",
                "tests/agents/comp_agent.py:ModelDecisionService", "--out", str(out), timeout=120)
    assert again.returncode == 0, again.stderr
    assert any((out / "competition").glob("actions_*"))
    assert (out / ".lock").exists()
    assert not (out / "competition" / ".lock").exists()
