"""The world of one scenario run: builds market, cargo source and drivers, runs, writes results."""

from __future__ import annotations

import json
import math
import resource
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import simpy
from tqdm import tqdm

from sim.collector import paced_collector
from sim.geo import Geography
from sim.scenario import DriverSpec, Scenario
from sim.world.actions import Policy
from sim.world.cargo import Cargo, CargoGenerator, CargoStatus
from sim.world.cargo_listings import MarketListings
from sim.world.cargo_stream import world_cargo
from sim.world.competition_files import load_drivers, load_world_cargo
from sim.world.dispatch import DecisionDispatcher
from sim.world.driver import Driver
from sim.world.driver_preferences import (
    RuleScores,
    attach_recorder,
    score_rules,
    with_drawn_rules,
    write_outputs,
)
from sim.world.events import CargoCreated, CargoRemoved, Event, EventBus, TakeFailed
from sim.world.market import Market
from sim.world.recorder import EventRecorder, write_table, write_text_atomic

PolicyFactory = Callable[["World", DriverSpec, np.random.Generator], Policy]

DRIVERS_SCHEMA = pa.schema([
    ("driver_id", pa.string()), ("start_lat", pa.float64()), ("start_lng", pa.float64()),
    ("end_lat", pa.float64()), ("end_lng", pa.float64()), ("cost_per_km", pa.float64()),
    ("orders", pa.int64()), ("unpaid_orders", pa.int64()), ("gross", pa.float64()),
    ("cost", pa.float64()), ("income", pa.float64()), ("penalty", pa.float64()),
    ("score", pa.float64()), ("empty_km", pa.float64()), ("loaded_km", pa.float64()),
    ("searches", pa.int64()), ("waits", pa.int64()), ("repositions", pa.int64()),
    ("failed_takes", pa.int64()), ("n_preferences", pa.int64()),
])


@dataclass
class RunResult:
    out_dir: Path | None
    summary: dict[str, Any]
    drivers: list[dict[str, Any]] = field(default_factory=list)


class World:
    def __init__(self, scenario: Scenario, policy_factory: PolicyFactory,
                 out_dir: str | Path | None = None) -> None:
        self.scenario = s = scenario
        # spawned children depend only on their index, so the streams stay as they were
        seeds = np.random.SeedSequence(s.scenario.seed).spawn(3)
        self.rng_cargo, self.rng_drivers, self.rng_policy = (
            np.random.default_rng(x) for x in seeds)
        self.env = simpy.Environment()
        self.horizon = s.minutes
        self.start = datetime.fromisoformat(s.scenario.start)
        self.geo = Geography.guangdong(
            detour_factor=s.geo.detour_factor, speed_kmh=s.geo.speed_kmh,
            speed_profile=tuple(s.geo.speed_profile), market_h3_res=s.geo.market_h3_res)
        self.bus = EventBus()
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.recorder = None
        if self.out_dir is not None:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.out_dir / "scenario.json", json.dumps(
                s.to_dict(), indent=2, ensure_ascii=False, default=str))
            self.recorder = EventRecorder(self.bus, self.out_dir / "events.parquet",
                                          s.output.batch_rows)
        self.counts: Counter[str] = Counter()
        self.fail_reasons: Counter[str] = Counter()
        self.bus.subscribe(self._count)
        self.market = Market(self.geo, s.market.search_max_results)
        # the run's cargo: files load (and fail) here, before the run; a must-take rule's draw
        # reads it ahead to name cargo the world will list (sim.world.cargo_listings)
        self._cargo = self.listings = MarketListings(self._cargo_stream(), self.start)
        self.specs = self._driver_specs()
        # competition-kind rules: every decision as an official step record
        # (sim.world.driver_preferences)
        self.step_recorder = attach_recorder(self.specs, self.bus, self.geo, self.start,
                                             self.market.registry)
        self.rule_scores: RuleScores | None = None
        self.finish_hooks: list[Callable[[World], dict | None]] = []
        # called however the run ends (an exception, Ctrl-C): write what is buffered
        self.flush_hooks: list[Callable[[], None]] = []
        self.dispatcher = DecisionDispatcher(self.env, s.llm.lookahead_minutes,
                                             s.llm.concurrency)
        self.drivers = [
            Driver(self.env, spec, policy_factory(self, spec, np.random.default_rng(seed)),
                   self.market, self.geo, self.bus, s.market, self.horizon, s.cargo.load_minutes,
                   self.dispatcher)
            for spec, seed in zip(self.specs, self.rng_policy.spawn(len(self.specs)), strict=True)
        ]
        self.env.process(self._cargo_source())

    # -- construction ----------------------------------------------------------------------
    def _driver_specs(self) -> list[DriverSpec]:
        d = self.scenario.drivers
        if d.file is not None:
            return load_drivers(d.file)
        # called unbound by agents.app.compete.official_drivers (a namespace, not a World)
        return with_drawn_rules(self.scenario, World._generated_specs(self),
                                len(d.fixed), self.listings)

    def _generated_specs(self) -> list[DriverSpec]:
        """The fixed drivers, then generated ones placed by county weight (their preferences
        are drawn afterwards, from their own stream: sim.world.world.with_drawn_rules)."""
        d = self.scenario.drivers
        specs = list(d.fixed)
        for i in range(len(specs), max(d.count, len(specs))):
            ci = int(np.searchsorted(np.cumsum(self.geo.weights), self.rng_drivers.random()))
            p = self.geo.sample_point(min(ci, len(self.geo.counties) - 1), self.rng_drivers)
            specs.append(DriverSpec(f"D{i:04d}", p.lat, p.lng, d.cost_per_km))
        return specs

    def _cargo_stream(self):
        c = self.scenario.cargo
        if c.file is not None:
            return iter(load_world_cargo(c.file, self.start, self.geo, c.competitor_share,
                                   self.rng_cargo))
        if c.model == "calibrated":  # docs/competition.md §9's market, from its own seeded stream
            return world_cargo(self.scenario, self.geo, self.rng_cargo)
        offset = self.start.hour * 60 + self.start.minute
        return CargoGenerator(c, self.geo, self.rng_cargo, offset).arrivals(self.horizon)

    def _cargo_source(self) -> Generator[simpy.Event, Any, None]:
        for cargo in self._cargo:
            if cargo.create_time > self.env.now:
                yield self.env.timeout(cargo.create_time - self.env.now)
            if cargo.remove_time < self.env.now:
                continue
            self.market.add(cargo)
            self.bus.publish(CargoCreated(self.env.now, cargo))
            self._schedule_removal(cargo)

    def _schedule_removal(self, c: Cargo) -> None:
        def remove(status: CargoStatus, reason: str) -> Callable[[simpy.Event], None]:
            def cb(_: simpy.Event) -> None:
                if self.market.remove(c.cargo_id, status):
                    self.bus.publish(CargoRemoved(self.env.now, c.cargo_id, reason))
            return cb

        if c.competitor_time is not None and c.competitor_time < c.remove_time:
            ev = self.env.timeout(max(0.0, c.competitor_time - self.env.now))
            ev.callbacks.append(remove(CargoStatus.COMPETITOR, "competitor"))
        ev = self.env.timeout(max(0.0, c.remove_time - self.env.now))
        ev.callbacks.append(remove(CargoStatus.EXPIRED, "expired"))

    def _count(self, ev: Event) -> None:
        self.counts[ev.kind] += 1
        if isinstance(ev, TakeFailed):
            self.fail_reasons[ev.reason] += 1

    # -- running ---------------------------------------------------------------------------
    def run(self, progress: bool = False, trace_memory: bool = False) -> RunResult:
        t0 = time.perf_counter()
        if trace_memory:
            tracemalloc.start()
        step = 60.0
        try:
            with paced_collector(), tqdm(
                    total=math.ceil(self.horizon / step), unit="sim-h", disable=not progress,
                    desc=self.scenario.scenario.name, leave=False) as bar:
                t = 0.0
                while t < self.horizon:
                    t = min(t + step, self.horizon)
                    self.env.run(until=t)
                    bar.update(1)
        finally:
            self.dispatcher.close()
            if self.recorder is not None:
                self.recorder.close()
            for flush in self.flush_hooks:
                flush()
        if self.step_recorder is not None:
            self.step_recorder.finish(self.env.now)
        self.rule_scores = score_rules(self.scenario, self.specs, self.step_recorder,
                                                   self.horizon)
        peak = tracemalloc.get_traced_memory()[1] if trace_memory else None
        if trace_memory:
            tracemalloc.stop()
        extra: dict[str, Any] = {}
        for hook in self.finish_hooks:
            extra.update(hook(self) or {})  # a hook that can fail after the run reports it here
        wall = time.perf_counter() - t0
        return self._finish(wall, peak, extra)

    def driver_rows(self) -> list[dict[str, Any]]:
        rows = []
        for d in self.drivers:
            s, spec = d.state, d.spec
            # the 24-kind scorer's penalty over the driver's step log (sim.world.driver_preferences)
            pen = self.rule_scores.by_driver.get(d.id, 0.0) if self.rule_scores else 0.0
            rows.append({
                "driver_id": d.id, "start_lat": spec.lat, "start_lng": spec.lng,
                "end_lat": s.position.lat, "end_lng": s.position.lng,
                "cost_per_km": spec.cost_per_km, "orders": s.orders,
                "unpaid_orders": s.unpaid_orders, "gross": round(s.gross, 4),
                "cost": round(s.cost, 4), "income": s.income, "penalty": pen,
                "score": s.income - pen, "empty_km": s.empty_km,
                "loaded_km": s.loaded_km,
                "searches": s.searches, "waits": s.waits, "repositions": s.repositions,
                "failed_takes": s.failed_takes, "n_preferences": len(spec.rules),
            })
        return rows

    def _finish(self, wall: float, peak: int | None, extra: dict[str, Any]) -> RunResult:
        rows = self.driver_rows()
        n_events = self.bus.seq
        summary: dict[str, Any] = {
            "scenario": self.scenario.scenario.name,
            "seed": self.scenario.scenario.seed,
            "days": self.scenario.scenario.days,
            "drivers": len(rows),
            "memory_mode": self.scenario.memory.mode,
            "cargo_created": self.counts["cargo_created"],
            "cargo_expired": 0,
            "cargo_competitor": 0,
            "orders": sum(r["orders"] for r in rows),
            "unpaid_orders": sum(r["unpaid_orders"] for r in rows),
            "net_income": round(sum(r["income"] for r in rows), 2),
            "penalty": round(sum(r["penalty"] for r in rows), 2),
            "score": round(sum(r["score"] for r in rows), 2),
            "failed_takes": dict(sorted(self.fail_reasons.items())),
            "events": n_events,
            "events_by_kind": dict(sorted(self.counts.items())),
            "wall_s": round(wall, 3),
            "events_per_s": round(n_events / wall, 1) if wall > 0 else None,
            "peak_traced_mb": round(peak / 2**20, 1) if peak is not None else None,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
        removed = Counter(c.status for c in self.market.registry.values())
        summary["cargo_expired"] = removed[CargoStatus.EXPIRED]
        summary["cargo_competitor"] = removed[CargoStatus.COMPETITOR]
        summary["cargo_taken"] = removed[CargoStatus.TAKEN]
        if self.step_recorder is not None and self.rule_scores is not None:
            summary.update(self.rule_scores.summary())
        if not self.dispatcher.immediate:
            summary["dispatch"] = self.dispatcher.stats()
        summary.update(extra)
        if self.out_dir is not None:
            if self.rule_scores is not None:
                write_outputs(self.out_dir, self.rule_scores, self.step_recorder)
            write_table(self.out_dir / "drivers.parquet", rows, DRIVERS_SCHEMA)
            write_text_atomic(self.out_dir / "summary.json", json.dumps(summary, indent=2))
        return RunResult(self.out_dir, summary, rows)
