"""A run killed with SIGKILL mid-way leaves events.parquet that pyarrow can read."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.world.events import ROW_SCHEMA
from tests.conftest import ROOT, SCENARIOS


def _rows_written(folder: Path) -> int:
    total = 0
    for part in folder.glob("part-*.parquet"):
        try:
            total += pq.read_metadata(part).num_rows
        except (OSError, pa.ArrowInvalid):  # renamed into place while we looked
            continue
    return total


def test_sigkill_leaves_readable_events(tmp_path: Path) -> None:
    scenario = tmp_path / "long.toml"
    # the month without preferences: a drawn must-take rule reads the market ahead to its day
    # before the first event (20 s of cargo), and this test is about the events
    text = (SCENARIOS / "month.toml").read_text()
    assert "preferences_per_driver = 3" in text
    text = text.replace("preferences_per_driver = 3", "preferences_per_driver = 0")
    scenario.write_text(text + "\n[output]\nbatch_rows = 2000\n")
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "agents.app.cli", "run", str(scenario), "--out", str(out),
         "--no-progress"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            # parts are flushed by rows and by wall time: wait for rows, not for a part count
            if _rows_written(out / "events.parquet") >= 6000:
                break
            assert proc.poll() is None, "run ended before it could be killed"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "summary.json").exists()  # it really died mid-run
    table = pq.read_table(out / "events.parquet", schema=ROW_SCHEMA)
    assert table.num_rows >= 6000
    seq = table.column("seq").to_pylist()
    assert sorted(seq) == list(range(1, len(seq) + 1))  # complete batches, nothing torn


def test_interrupted_run_keeps_buffered_steps(tmp_path: Path) -> None:
    """An exception mid-run (Ctrl-C raises one) still writes the buffered rows."""
    from agents.app.runner import build_run
    from sim.scenario import load_scenario

    sc = load_scenario(SCENARIOS / "smoke.toml")
    world, _ = build_run(sc, tmp_path)

    def stop(_ev) -> None:
        if world.env.now > 600:
            raise KeyboardInterrupt

    world.bus.subscribe(stop)
    try:
        world.run()
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the run should have been interrupted")
    steps = pq.read_table(tmp_path / "steps.parquet")
    events = pq.read_table(tmp_path / "events.parquet", schema=ROW_SCHEMA)
    assert steps.num_rows > 0
    assert max(events.column("t").to_pylist()) > 600
    assert not (tmp_path / "summary.json").exists()
