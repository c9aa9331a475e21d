"""Writes events to Parquet in batches while the run goes.

Each batch is its own Parquet file inside the `events.parquet/` dataset directory, written to a
temporary name and renamed, so a run killed at any moment leaves every finished batch readable
(`pyarrow.parquet.read_table("events.parquet")`, `pandas.read_parquet`, DuckDB, Polars).
Every table and text written here passes through sim/redact.py first.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from sim.redact import redact, redact_column, redact_columns
from sim.world.events import ROW_SCHEMA, Event, EventBus

if TYPE_CHECKING:
    import pandas as pd

FLUSH_SECONDS = 2.0  # the most wall time of rows a killed run loses


class BatchedParquetWriter:
    """Column buffers flushed to numbered part files of one dataset directory."""

    def __init__(self, directory: Path, schema: pa.Schema, batch_rows: int,
                 flush_seconds: float = FLUSH_SECONDS) -> None:
        self.dir, self.schema, self.batch_rows = directory, schema, batch_rows
        self.flush_seconds = flush_seconds
        self.dir.mkdir(parents=True, exist_ok=True)
        self._buffers({f.name: [] for f in schema}, 0)
        self.text_cols = tuple(f.name for f in schema if pa.types.is_string(f.type)
                               or pa.types.is_large_string(f.type))
        self.parts = 0
        self.rows_written = 0
        self.last_flush = time.monotonic()

    def append(self, row: dict) -> None:
        get = row.get
        for k, add in self._adders:
            add(get(k))
        self.n += 1  # the row counts once every column has it (see `flush`)
        # by rows for throughput, by wall time so a run killed at any moment has lost at
        # most the last few seconds, however slowly rows arrive
        if self.n >= self.batch_rows or time.monotonic() - self.last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        self.last_flush = time.monotonic()
        if self.n == 0:
            return
        cols, n, part = self.cols, self.n, self.parts
        if any(len(c) != n for c in cols.values()):
            # a Ctrl-C or SIGTERM came while a row was being appended, column by column: that
            # torn row is dropped and the whole ones before it are written (failure class "a
            # signal between a row's columns": the flush on the way out raised, the run ended
            # as an internal error and the buffered rows were lost)
            cols = {k: c[:n] for k, c in cols.items()}
        # the buffers are handed over before the write, so a signal during it cannot make the
        # flush on the way out write the same rows twice; an unfinished write gives them back
        self._buffers({k: [] for k in cols}, 0)
        self.parts = part + 1
        final = self.dir / f"part-{part:05d}.parquet"
        try:
            table = pa.table(redact_columns(cols, self.text_cols), schema=self.schema)
            tmp = self.dir / f".part-{part:05d}.tmp"
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, final)
        except BaseException:
            if not final.exists():
                self._buffers({k: cols[k] + self.cols[k] for k in cols}, n + self.n)
            raise
        self.rows_written += n

    def _buffers(self, cols: dict[str, list], n: int) -> None:
        """Buffer these columns of `n` rows, appended to through `_adders`."""
        self.cols = cols
        self._adders = [(k, col.append) for k, col in cols.items()]  # (column, its append)
        self.n = n


class EventRecorder:
    """Subscribes to the bus first, so it sees every event with its sequence number."""

    def __init__(self, bus: EventBus, directory: Path, batch_rows: int) -> None:
        self.bus = bus
        self.writer = BatchedParquetWriter(directory, ROW_SCHEMA, batch_rows)
        self.counts: dict[str, int] = {}
        bus.subscribe(self.on_event)

    def on_event(self, ev: Event) -> None:
        row = ev.row()
        row["seq"] = self.bus.seq
        self.counts[row["kind"]] = self.counts.get(row["kind"], 0) + 1
        self.writer.append(row)

    def close(self) -> None:
        self.writer.flush()


def write_table(path: Path, rows: list[dict], schema: pa.Schema | None = None) -> None:
    """A small table written in one go (drivers, steps), via a temporary file and rename."""
    table = pa.Table.from_pylist(rows, schema=schema)
    table = pa.table({name: _redacted(table.column(name)) for name in table.column_names},
                     schema=table.schema)
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _redacted(col: pa.ChunkedArray) -> pa.ChunkedArray | pa.Array:
    if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
        return col
    values = col.to_pylist()
    out = redact_column(values)
    return col if out is values else pa.array(out, type=col.type)


def write_text_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename: a reader sees the old file or the new, whole."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(redact(text))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_events(run_dir: str | Path) -> pa.Table:
    """The events of a run as one table, in sequence order."""
    t = pq.read_table(Path(run_dir) / "events.parquet", schema=ROW_SCHEMA)
    return t.sort_by("seq")


WALL_CLOCK_KEYS = ("latency_s",)  # measured wall time inside an event's detail


def without_wall_clock(events: pd.DataFrame) -> pd.DataFrame:
    """Events with measured wall-clock fields removed, for comparing two runs' logs: the same
    replies give the same simulation, but a call never takes the same seconds twice."""
    import json

    def strip(detail: object) -> object:
        if not isinstance(detail, str) or not any(k in detail for k in WALL_CLOCK_KEYS):
            return detail
        d = json.loads(detail)
        for k in WALL_CLOCK_KEYS:
            d.pop(k, None)
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    out = events.copy()
    out["detail"] = out["detail"].map(strip)
    return out.reset_index(drop=True)
