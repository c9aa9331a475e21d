"""The run loop of §4.7 and the agent-facing api of §3 (without the model call).

Each driver is a self-contained `DriverRun` (its state, its fresh pool, its history, its log),
so drivers can run in threads with results identical to the official sequential loop. The api
finds "the active driver" through a thread-local, which is what makes that safe.
"""

from __future__ import annotations

import copy
import math
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from sim.collector import paced_collector
from sim.competition import actions
from sim.competition.actions import EnvDriver
from sim.competition.drivers_file import DriverRecord
from sim.competition.log import (
    ActionLog,
    action_log_name,
    normalise_record,
    summary_name,
    write_summary,
)
from sim.competition.pool import Pool
from sim.competition.records import CargoTable
from sim.official.timebase import end_time, parse_wall, to_seconds, wall_time

VERSIONS = ("S1", "S2", "S3", "S4")
QUERY_BATCH = 10
DEFAULT_K = 100
MAX_K = 600
DEFAULT_TOKEN_BUDGET = 5_000_000
DEFAULT_STEP_TIMEOUT_S = 120.0
USAGE_KEYS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "total_tokens")


class Agent(Protocol):
    def decide(self, driver_id: str) -> Any: ...


@dataclass(frozen=True)
class RoundSettings:
    """What a round fixes. The release behaviour is always the later one (per-driver max steps,
    a bad decision ends only its driver, files rewritten per step); the scoring version picks k,
    preference visibility fields and the budgets (§7.1)."""

    scoring: str = "S4"
    days: int = 31
    speed_kmh: float = 60.0
    max_steps: int = 20000
    token_budget: int | None = DEFAULT_TOKEN_BUDGET
    step_timeout_s: float | None = DEFAULT_STEP_TIMEOUT_S
    full_coords: bool = True  # §5.3 replica default, whatever the version
    concurrency: int = 1
    flush_every_s: float = 1.0  # rewrite a driver's file at most this often (and at its end)

    @classmethod
    def for_version(cls, scoring: str = "S4", **kw: Any) -> RoundSettings:
        if scoring not in VERSIONS:
            raise ValueError(f"scoring must be one of {', '.join(VERSIONS)}, got {scoring!r}")
        late = scoring in ("S3", "S4")
        kw.setdefault("token_budget", DEFAULT_TOKEN_BUDGET if late else None)
        kw.setdefault("step_timeout_s", DEFAULT_STEP_TIMEOUT_S if late else None)
        return cls(scoring=scoring, **kw)

    @property
    def horizon(self) -> int:
        return self.days * 1440

    @property
    def takes_k(self) -> bool:
        return self.scoring in ("S3", "S4")


@dataclass
class DriverRun:
    """One driver's world: nothing here is shared with another driver."""

    index: int
    record: DriverRecord
    state: EnvDriver
    pool: Pool
    log: ActionLog
    history: list[dict] = field(default_factory=list)
    usage: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    tokens: int = 0
    steps: int = 0
    active: bool = False
    started: bool = False
    end_reason: str | None = None
    failure: str | None = None
    token_stopped: bool = False
    latency: list[float] = field(default_factory=list)
    remaining: int = 0
    done: threading.Event = field(default_factory=threading.Event)


def _visible(p: Any, now_s: int, strip: bool) -> Any | None:
    """§3.2: a dict is hidden iff both bounds parse and now lies outside [start, end]."""
    if not isinstance(p, dict):
        return copy.deepcopy(p)
    a, b = p.get("start_time"), p.get("end_time")
    ta, tb = parse_wall(a), parse_wall(b)
    if ta is not None and tb is not None and not to_seconds(ta) <= now_s <= to_seconds(tb):
        return None
    out = copy.deepcopy(p)
    if strip:
        out.pop("start_time", None)
        out.pop("end_time", None)
    return out


def usage_counts(usage: Any) -> tuple[int, int, int, int]:
    """§3.5: missing/null usage or reasoning count is 0; a null prompt, completion or total
    count raises; negatives clip to 0. Order: prompt, completion, reasoning, total."""
    if usage is None:
        return 0, 0, 0, 0
    if not isinstance(usage, dict):
        raise ValueError(f"usage must be an object, got {type(usage).__name__}")

    def count(v: Any, name: str) -> int:
        if v is None:
            raise ValueError(f"usage.{name} is null")
        return max(0, int(v))

    details = usage.get("completion_tokens_details") or {}
    reasoning = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return (count(usage.get("prompt_tokens", 0), "prompt_tokens"),
            count(usage.get("completion_tokens", 0), "completion_tokens"),
            max(0, int(reasoning)) if reasoning is not None else 0,
            count(usage.get("total_tokens", 0), "total_tokens"))


class Api:
    """get_driver_status, query_cargo, query_decision_history (§3.2-§3.4); returns copies."""

    def __init__(self, env: CompetitionEnv) -> None:
        self._env = env
        self._local = threading.local()
        self._current: DriverRun | None = None  # the last driver bound on any thread

    # the driver this thread is simulating
    def _active(self) -> DriverRun | None:
        run = getattr(self._local, "run", None)
        if run is None and self._env.settings.concurrency <= 1:
            # the official api is one shared object: a thread the agent starts inside decide
            # (parallel model calls, say) still acts for the driver being simulated
            run = self._current
        return run

    def _bind(self, run: DriverRun | None) -> None:
        self._local.run = run
        if run is not None:
            self._current = run

    def add_usage(self, usage: Any) -> tuple[int, int, int, int]:
        """Count one successful model reply against the active driver's current decision."""
        counts = usage_counts(usage)
        run = self._active()
        if run is not None and run.active:
            for i, c in enumerate(counts):
                run.usage[i] += c
        return counts

    def get_driver_status(self, driver_id: str) -> dict:
        env = self._env
        rec = env.by_id[driver_id]  # unknown id: KeyError, as the official api
        active = self._active()
        t = active.state.t if active is not None else 0
        if active is not None and active.record.driver_id == driver_id:
            lat, lng, done, current = active.state.lat, active.state.lng, active.state.completed, \
                True
        else:
            lat, lng, done, current = rec.lat, rec.lng, 0, False
        strip = env.settings.takes_k
        prefs = [v for p in rec.preferences
                 if (v := _visible(p, t * 60, strip)) is not None]
        raw = rec.raw
        return {
            "driver_id": driver_id,
            "name": raw.get("name") or "", "vehicle_no": raw.get("vehicle_no") or "",
            "truck_length": raw.get("truck_length") or "",
            "preferences": prefs,
            "current_lat": float(lat), "current_lng": float(lng),
            "is_current": current,
            "simulation_started": bool(active is not None and active.started),
            "simulation_progress_minutes": t,
            "simulation_wall_time": wall_time(t),
            "current_order_cargo_id": None,
            "completed_order_count": done,
        }

    def query_cargo(self, driver_id: str, latitude: float, longitude: float,
                    *args: Any, **kwargs: Any) -> dict:
        env = self._env
        run = self._active()
        if run is None or not run.active or driver_id != run.record.driver_id:
            raise ValueError(f"query_cargo for {driver_id!r}, which is not the active driver")
        if env.settings.takes_k:
            if len(args) + len(kwargs) > 1 or (kwargs and "k" not in kwargs):
                raise TypeError("query_cargo takes (driver_id, latitude, longitude[, k])")
            k = int(args[0] if args else kwargs.get("k", DEFAULT_K))
            k = min(MAX_K, max(1, k))
        else:
            if args or kwargs:
                raise TypeError("query_cargo takes (driver_id, latitude, longitude) in S1/S2")
            k = DEFAULT_K
        hits = run.pool.query(run.state.t, float(latitude), float(longitude), k)
        items = []
        for i, d in hits:
            cargo = env.table.record(i)
            if "price" in cargo:
                cargo["price"] = round(cargo["price"] / 100, 2)
            items.append({"distance_km": d, "cargo": cargo})
        out: dict[str, Any] = {"driver_id": driver_id}
        if env.settings.takes_k:
            out["k"] = k
        out["items"] = items
        run.state.t += math.ceil(len(items) / QUERY_BATCH)
        return out

    def query_decision_history(self, driver_id: str, step: int) -> dict:
        env = self._env
        did = str(driver_id).strip()
        if step < -1:
            raise ValueError(f"step must be -1, 0 or positive, got {step}")
        me = self._active()
        target = env.runs_by_id.get(did)
        records: list[dict] = []
        if target is not None:
            if me is not None and target is not me:
                if target.index < me.index:
                    target.done.wait()  # sequential semantics: earlier drivers are finished
                    records = target.history
                # a later driver has not run yet in the official sequential loop
            else:
                records = target.history
        total = len(records)
        chosen = records if step == -1 else records[-step:] if step > 0 else []
        return {"driver_id": did, "total_steps": total, "step_param": step,
                "returned_count": len(chosen), "records": copy.deepcopy(chosen)}


def archive_results(out_dir: Path, stamp: str) -> None:
    """§4.7.1: earlier regular files go to history/<stamp>/, so old logs never mix in."""
    out_dir.mkdir(parents=True, exist_ok=True)
    old = [p for p in out_dir.iterdir() if p.is_file()]
    if old:
        dest = out_dir / "history" / stamp
        dest.mkdir(parents=True, exist_ok=True)
        for p in old:
            shutil.move(str(p), dest / p.name)


def run_stamp() -> str:
    """The run's timestamp in file names: local wall time at run start (later release)."""
    return datetime.now().strftime("%Y%m%d_%H%M%S")


class StepTimeoutError(Exception):
    """decide ran past the step timeout (§3.6)."""


class CompetitionEnv:
    def __init__(self, table: CargoTable, drivers: list[DriverRecord], settings: RoundSettings,
                 out_dir: str | Path, stamp: str | None = None) -> None:
        self.table, self.drivers, self.settings = table, drivers, settings
        self.out_dir = Path(out_dir)
        self.stamp = stamp or run_stamp()
        self.by_id = {d.driver_id: d for d in drivers}
        self.runs: list[DriverRun] = []
        self.runs_by_id: dict[str, DriverRun] = {}
        self.api = Api(self)
        self.on_step: Callable[[DriverRun, dict], None] | None = None

    def archive_old_results(self) -> None:
        archive_results(self.out_dir, self.stamp)

    def _new_run(self, i: int, rec: DriverRecord) -> DriverRun:
        return DriverRun(i, rec, EnvDriver(rec.driver_id, rec.lat, rec.lng), Pool(self.table),
                         ActionLog(self.out_dir / action_log_name(rec.driver_id, self.stamp)))

    def _decide(self, run: DriverRun, agent: Agent) -> Any:
        timeout = self.settings.step_timeout_s
        if timeout is None:
            return agent.decide(run.record.driver_id)
        box: dict[str, Any] = {}

        def target() -> None:
            self.api._bind(run)
            try:
                box["v"] = agent.decide(run.record.driver_id)
            except BaseException as exc:
                box["e"] = exc

        th = threading.Thread(target=target, daemon=True, name=f"decide-{run.record.driver_id}")
        th.start()
        th.join(timeout)
        if th.is_alive():
            raise StepTimeoutError(f"decide took longer than {timeout} s")
        if "e" in box:
            raise box["e"]
        return box["v"]

    def run_driver(self, run: DriverRun, agent: Agent) -> None:
        r, s = self.settings, run.state
        self.api._bind(run)
        run.active = run.started = True
        last_flush = time.monotonic()
        try:
            while True:
                if run.steps >= r.max_steps:
                    run.end_reason = "max_steps"
                    break
                if s.t >= r.horizon or run.pool.size(s.t) <= 0:
                    run.end_reason = "normal"
                    break
                step_start, before = s.t, {"lat": s.lat, "lng": s.lng}
                run.usage = [0, 0, 0, 0]
                t0 = time.perf_counter()
                try:
                    decision = self._decide(run, agent)
                except StepTimeoutError:
                    run.latency.append(time.perf_counter() - t0)
                    run.end_reason = "decision_timeout"
                    break
                except Exception as exc:
                    run.latency.append(time.perf_counter() - t0)
                    run.end_reason, run.failure = "error", f"{type(exc).__name__}: {exc}"
                    break
                run.latency.append(time.perf_counter() - t0)
                scan = s.t - step_start
                try:
                    result = actions.apply(s, decision, run.pool, r.speed_kmh, r.horizon)
                    exec_min = s.t - step_start - scan
                    usage = dict(zip(USAGE_KEYS, run.usage, strict=True))
                    decision["model_usage"] = dict(usage)  # §3.1: in the agent's own dict
                    action = dict(decision)
                    record = normalise_record({
                        "step": run.steps + 1, "driver_id": s.driver_id,
                        "step_elapsed_minutes": scan + exec_min,
                        "query_scan_cost_minutes": scan, "action_exec_cost_minutes": exec_min,
                        "position_before": before,
                        "position_after": {"lat": s.lat, "lng": s.lng},
                        "simulation_end_time": end_time(s.t),
                        "action": action, "token_usage": usage, "result": result,
                    }, r.full_coords)
                    run.log.append(record)
                except Exception as exc:
                    run.end_reason, run.failure = "error", f"{type(exc).__name__}: {exc}"
                    break
                run.history.append(record)
                run.steps += 1
                run.tokens += usage["total_tokens"]
                if self.on_step is not None:
                    self.on_step(run, record)
                if time.monotonic() - last_flush >= r.flush_every_s:
                    run.log.flush()
                    last_flush = time.monotonic()
                if r.token_budget is not None and run.tokens > r.token_budget:
                    run.end_reason, run.token_stopped = "token_limit", True
                    break
        finally:
            run.active = False
            run.remaining = run.pool.size(s.t)
            if run.steps:
                run.log.flush()
            self.api._bind(None)
            run.done.set()

    def run(self, agent: Agent, archive: bool = True) -> dict:
        """Every driver in file order (threads if concurrency > 1); returns the run summary."""
        if archive:
            self.archive_old_results()
        t0 = time.perf_counter()
        self.runs = [self._new_run(i, d) for i, d in enumerate(self.drivers)]
        self.runs_by_id = {r.record.driver_id: r for r in self.runs}
        with paced_collector():
            if self.settings.concurrency <= 1:
                for run in self.runs:
                    self.run_driver(run, agent)
            else:
                with ThreadPoolExecutor(self.settings.concurrency, "driver") as pool:
                    for f in [pool.submit(self.run_driver, run, agent) for run in self.runs]:
                        f.result()
        summary = self.summary(time.perf_counter() - t0)
        write_summary(self.out_dir / summary_name(), summary)
        return summary

    def summary(self, wall_s: float) -> dict:
        runs, r = self.runs, self.settings
        with_steps = [x for x in runs if x.steps]
        return {
            "month": "2026-03",
            "simulate_time_seconds": round(wall_s, 2),
            "simulation_duration_days": r.days,
            "completed_steps": sum(x.steps for x in runs),
            "remaining_cargo_count": runs[-1].remaining if runs else 0,
            "driver_completed_steps": {x.record.driver_id: x.steps for x in runs},
            "driver_result_files": {x.record.driver_id: str(x.log.path.resolve())
                                    for x in with_steps},
            "simulation_max_steps_per_driver": r.max_steps,
            "driver_max_total_tokens": r.token_budget,
            "driver_token_usage": {x.record.driver_id: x.tokens for x in with_steps},
            "driver_token_limit_stopped": {x.record.driver_id: True for x in runs
                                           if x.token_stopped},
            "driver_end_reasons": {x.record.driver_id: x.end_reason for x in runs},
            "driver_simulation_failures": {x.record.driver_id: x.failure for x in runs
                                           if x.failure},
            "driver_decision_latency": {
                x.record.driver_id: {"count": len(x.latency),
                                     "total_seconds": round(sum(x.latency), 2),
                                     "avg_seconds": round(sum(x.latency) / len(x.latency), 2)}
                for x in runs if x.latency},
        }
