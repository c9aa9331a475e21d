"""Interruptions (issue 10, item 5): SIGKILL and SIGTERM at several moments of a cut-down
default.toml leave readable Parquet up to a recent flush, with no torn batch; SIGTERM unwinds
like Ctrl-C and says where the results are."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.app.cli import Terminated
from sim.world import recorder
from sim.world.events import ROW_SCHEMA
from sim.world.recorder import FLUSH_SECONDS, BatchedParquetWriter
from tests.conftest import ROOT, SCENARIOS


def _scenario(tmp_path: Path) -> Path:
    """default.toml with twice the drivers (about 40 s of simulation on an idle core): time to
    kill it at several moments; each test kills it within seconds of its first flush."""
    text = (SCENARIOS / "default.toml").read_text()
    assert "count = 40" in text
    text = text.replace("count = 40", "count = 80")
    path = tmp_path / "cut.toml"
    path.write_text(text)
    return path


def _start(scenario: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "agents.app.cli", "run", str(scenario), "--out", str(out),
         "--no-progress"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _check_tables(out: Path) -> int:
    events = pq.read_table(out / "events.parquet", schema=ROW_SCHEMA)
    seq = sorted(events.column("seq").to_pylist())
    assert seq == list(range(1, len(seq) + 1))  # whole batches only, in order, none torn
    for name in ("steps.parquet", "llm_calls.parquet"):
        if (out / name).exists():
            pq.read_table(out / name)  # every part readable
    return len(seq)


def _parts(out: Path, table: str) -> int:
    return len(list((out / table).glob("part-*.parquet")))


def _wait_for_first_flush(proc: subprocess.Popen[str], out: Path) -> float:
    deadline = time.monotonic() + 90
    while _parts(out, "events.parquet") == 0:
        assert proc.poll() is None, "the run ended before its first flush"
        assert time.monotonic() < deadline, "no events flushed within 90 s"
        time.sleep(0.02)
    return time.monotonic()


@pytest.mark.parametrize("after_s", [0.0, 1.0 + FLUSH_SECONDS, 2.5 * FLUSH_SECONDS])
def test_sigkill_leaves_rows_up_to_a_recent_flush(tmp_path: Path, after_s: float) -> None:
    out = tmp_path / "run"
    proc = _start(_scenario(tmp_path), out)
    try:
        t_first = _wait_for_first_flush(proc, out)
        time.sleep(after_s)
        assert proc.poll() is None, "the run ended before it could be killed"
        parts_before_kill = _parts(out, "events.parquet")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "summary.json").exists()
    assert _check_tables(out) > 0
    # the first part came by wall time, long before batch_rows (20000) events: a kill loses
    # at most the last FLUSH_SECONDS of rows, so later kills find more parts
    assert _parts(out, "events.parquet") >= parts_before_kill
    if after_s > FLUSH_SECONDS:
        assert _parts(out, "events.parquet") >= 2
        assert _parts(out, "steps.parquet") >= 1
    assert time.monotonic() - t_first < 60


@pytest.mark.parametrize("after_s", [0.5, 3.0])
def test_sigterm_unwinds_like_ctrl_c(tmp_path: Path, after_s: float) -> None:
    out = tmp_path / "run"
    proc = _start(_scenario(tmp_path), out)
    _wait_for_first_flush(proc, out)
    time.sleep(after_s)
    assert proc.poll() is None, "the run ended before it could be stopped"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err
    assert f"terminated: results written so far are in {out}/" in err
    n = _check_tables(out)
    assert n > 0  # everything buffered was written on the way out
    steps = pq.read_table(out / "steps.parquet")
    assert steps.num_rows > 0
    assert not (out / "summary.json").exists()
    scenario = json.loads((out / "scenario.json").read_text())
    assert scenario["scenario"]["name"] == "default"


def test_interrupt_before_any_output_names_no_directory(tmp_path: Path) -> None:
    """Stopped while still importing: no directory exists, so none is named."""
    out = tmp_path / "never"
    proc = _start(_scenario(tmp_path), out)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert "results written so far are in" not in err or out.exists()


class _TornRow(dict):
    """A row whose fifth column's read raises, as a SIGTERM's handler does mid-append."""

    def __init__(self, row: dict) -> None:
        super().__init__(row)
        self.reads = 0

    def get(self, key: str, default: object = None) -> object:
        self.reads += 1
        if self.reads == 5:
            raise Terminated
        return super().get(key, default)


def _row(seq: int) -> dict:
    return {"seq": seq, "t": float(seq), "kind": "wait", "driver_id": "D1", "detail": "{}"}


def test_a_signal_between_a_rows_columns_drops_that_row_only(tmp_path: Path) -> None:
    # failure class "a signal between a row's columns": a SIGTERM landed while the steps
    # writer appended a row column by column; the flush on the way out found columns of
    # unequal length, raised, and the run ended as an internal error (exit 70)
    w = BatchedParquetWriter(tmp_path / "events.parquet", ROW_SCHEMA, batch_rows=1000)
    for i in range(1, 4):
        w.append(_row(i))
    with pytest.raises(Terminated):
        w.append(_TornRow(_row(4)))
    assert len({len(c) for c in w.cols.values()}) == 2  # the columns are ragged
    w.flush()
    got = pq.read_table(tmp_path / "events.parquet")
    assert got.column("seq").to_pylist() == [1, 2, 3]
    assert w.rows_written == 3
    assert w.n == 0
    w.append(_row(5))  # the writer goes on whole
    w.flush()
    assert sorted(pq.read_table(tmp_path / "events.parquet").column("seq").to_pylist()) == [
        1, 2, 3, 5]


@pytest.mark.parametrize("when", ["before the part is renamed", "after it is renamed"])
def test_a_signal_during_a_flush_writes_each_row_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    # a SIGTERM during a part's write unwinds to the flush on the way out: rows the part did
    # not hold are written then, rows it holds are not written again
    w = BatchedParquetWriter(tmp_path / "events.parquet", ROW_SCHEMA, batch_rows=1000)
    for i in range(1, 4):
        w.append(_row(i))
    replace = os.replace

    def replace_and_signal(src: object, dst: object) -> None:
        if when.startswith("after"):
            replace(src, dst)
        raise Terminated

    monkeypatch.setattr(recorder.os, "replace", replace_and_signal)
    with pytest.raises(Terminated):
        w.flush()
    monkeypatch.setattr(recorder.os, "replace", replace)
    assert w.n == (3 if when.startswith("before") else 0)
    w.append(_row(4))
    w.flush()
    seq = pq.read_table(tmp_path / "events.parquet").column("seq").to_pylist()
    assert sorted(seq) == [1, 2, 3, 4]
