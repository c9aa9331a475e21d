"""Per-call and per-step accounting: llm_calls.parquet and steps.parquet, written in batches.

A step is one decision of one driver: the four agent calls, plus any compression calls the
MemoryAgent made while building that step's views (kept apart so they can be reported both
amortised into the steps and on their own).
"""

from __future__ import annotations

import threading
from dataclasses import fields
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa

from agents.llm.calls import CallRecord
from sim.official.timebase import DAY
from sim.world.effects import defer
from sim.world.recorder import BatchedParquetWriter

CALLS_SCHEMA = pa.schema([
    ("driver_id", pa.string()), ("step", pa.int64()), ("t", pa.float64()),
    ("agent", pa.string()), ("memory_mode", pa.string()), ("backend", pa.string()),
    ("prompt_version", pa.string()), ("prompt_tokens", pa.int64()),
    ("completion_tokens", pa.int64()), ("cached_tokens", pa.int64()),
    ("latency_s", pa.float64()), ("outcome", pa.string()), ("cause", pa.string()),
    ("calls", pa.int64()), ("queue_s", pa.float64()), ("ttft_s", pa.float64()),
    ("decode_s", pa.float64()),
])


def steps_schema(agents: tuple[str, ...]) -> pa.Schema:
    """steps.parquet's columns: per-agent tokens and latency for each agent of the run."""
    fields_ = [("driver_id", pa.string()), ("step", pa.int64()), ("t", pa.float64()),
               ("day", pa.int64()), ("memory_mode", pa.string()), ("action", pa.string())]
    for a in agents:
        fields_ += [(f"{a}_prompt_tokens", pa.int64()), (f"{a}_completion_tokens", pa.int64()),
                    (f"{a}_latency_s", pa.float64())]
    fields_ += [
        ("prompt_tokens", pa.int64()), ("completion_tokens", pa.int64()),
        ("latency_s", pa.float64()), ("llm_calls", pa.int64()), ("fallbacks", pa.int64()),
        ("compress_prompt_tokens", pa.int64()), ("compress_completion_tokens", pa.int64()),
        ("compress_latency_s", pa.float64()), ("compress_calls", pa.int64()),
        ("view_fact_lines", pa.int64()),
        # what the driver waited (calls in sequence add up, calls run side by side count once)
        # and the sum over all calls, compression included; then the server's split of that sum
        ("critical_path_s", pa.float64()), ("latency_sum_s", pa.float64()),
        ("queue_s", pa.float64()), ("ttft_s", pa.float64()), ("decode_s", pa.float64()),
    ]
    return pa.schema(fields_)


_RECORD_FIELDS = tuple(f.name for f in fields(CallRecord))


class CallLog:
    """Receives every CallRecord; folds a driver's records into its step row at step end.

    Under competition rules drivers run on threads and record straight away (no dispatcher
    defers their records), so the buffers are guarded by a lock: a row is never torn between
    two drivers. The order of rows across drivers then follows the threads; within a driver
    it is the driver's own."""

    # agents a step runs side by side (their latencies overlap on the critical path)
    parallel_agents: frozenset[str] = frozenset()

    def __init__(self, out_dir: Path | None, batch_rows: int, agents: tuple[str, ...]) -> None:
        self.agents = agents  # the agents whose calls get their own columns, in order
        self.calls = self.steps = None
        if out_dir is not None:
            self.calls = BatchedParquetWriter(out_dir / "llm_calls.parquet", CALLS_SCHEMA,
                                              batch_rows)
            self.steps = BatchedParquetWriter(out_dir / "steps.parquet", steps_schema(agents),
                                              batch_rows)
        self.pending: dict[str, list[CallRecord]] = {}
        self.step_tokens: list[int] = []
        self.step_latency: list[float] = []
        self.step_critical: list[float] = []
        self.compress_tokens = 0
        self.compress_latency = 0.0
        self.compress_calls = 0
        self.n_calls = 0
        self.outcomes: dict[str, int] = {}
        self._lock = threading.RLock()

    def sink(self, r: CallRecord) -> None:
        # deferred: a decision computed on a worker thread records in the dispatcher's order
        defer(partial(self._sink, r))

    def end_step(self, driver_id: str, step: int, t: float, mode: str, action: str,
                 fact_lines: int) -> None:
        defer(partial(self._end_step, driver_id, step, t, mode, action, fact_lines))

    def _sink(self, r: CallRecord) -> None:
        with self._lock:
            self._sink_locked(r)

    def _sink_locked(self, r: CallRecord) -> None:
        self.n_calls += 1
        self.outcomes[r.outcome] = self.outcomes.get(r.outcome, 0) + 1
        self.pending.setdefault(r.driver_id, []).append(r)
        if self.calls is not None:
            self.calls.append({f: getattr(r, f) for f in _RECORD_FIELDS})

    def _end_step(self, driver_id: str, step: int, t: float, mode: str, action: str,
                  fact_lines: int) -> None:
        with self._lock:
            self._end_step_locked(driver_id, step, t, mode, action, fact_lines)

    def _end_step_locked(self, driver_id: str, step: int, t: float, mode: str, action: str,
                         fact_lines: int) -> None:
        recs = self.pending.pop(driver_id, [])
        row: dict = {"driver_id": driver_id, "step": step, "t": t, "day": int(t // DAY),
                     "memory_mode": mode, "action": action, "view_fact_lines": fact_lines}
        for a in self.agents:
            row[f"{a}_prompt_tokens"] = row[f"{a}_completion_tokens"] = 0
            row[f"{a}_latency_s"] = 0.0
        p = c = n = fb = cp = cc = ncomp = 0
        lat = clat = 0.0
        split: dict[str, float | None] = {"queue_s": None, "ttft_s": None, "decode_s": None}
        side_by_side = 0.0
        for r in recs:
            for k, v in split.items():
                x = getattr(r, k)
                if x is not None:
                    split[k] = (v or 0.0) + x
            if r.agent in self.parallel_agents:
                side_by_side = max(side_by_side, r.latency_s)
            if r.agent.startswith("compress"):
                cp += r.prompt_tokens
                cc += r.completion_tokens
                clat += r.latency_s
                ncomp += 1
                continue
            if r.agent in self.agents:
                row[f"{r.agent}_prompt_tokens"] += r.prompt_tokens
                row[f"{r.agent}_completion_tokens"] += r.completion_tokens
                row[f"{r.agent}_latency_s"] += r.latency_s
            p += r.prompt_tokens
            c += r.completion_tokens
            lat += r.latency_s
            n += r.calls
            fb += r.outcome == "fallback"
        row.update(prompt_tokens=p, completion_tokens=c, latency_s=lat, llm_calls=n,
                   fallbacks=fb, compress_prompt_tokens=cp, compress_completion_tokens=cc,
                   compress_latency_s=clat, compress_calls=ncomp, latency_sum_s=lat + clat,
                   critical_path_s=clat + side_by_side + sum(
                       r.latency_s for r in recs if not r.agent.startswith("compress")
                       and r.agent not in self.parallel_agents), **split)
        self.step_critical.append(row["critical_path_s"])
        self.step_tokens.append(p)
        self.step_latency.append(lat)
        self.compress_tokens += cp
        self.compress_latency += clat
        self.compress_calls += ncomp
        if self.steps is not None:
            self.steps.append(row)

    def flush(self) -> None:
        if self.calls is not None:
            with self._lock:
                self.calls.flush()
                self.steps.flush()

    def close(self) -> dict:
        self.flush()
        tok = np.array(self.step_tokens or [0])
        n = max(len(self.step_tokens), 1)
        return {
            "steps": len(self.step_tokens),
            "tokens_per_step": round(float(tok.mean()), 2),
            "tokens_per_step_p50": float(np.percentile(tok, 50)),
            "tokens_per_step_p95": float(np.percentile(tok, 95)),
            "tokens_per_step_with_compression": round(
                (float(tok.sum()) + self.compress_tokens) / n, 2),
            "compression_calls": self.compress_calls,
            "compression_tokens": self.compress_tokens,
            "latency_per_step_s": round(float(np.mean(self.step_latency or [0.0])), 6),
            "critical_path_per_step_s": round(float(np.mean(self.step_critical or [0.0])), 6),
            "agent_calls": self.n_calls,
            "call_outcomes": dict(sorted(self.outcomes.items())),
        }
