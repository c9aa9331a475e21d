"""Composes a run: world from sim/, memory from memory/, the policy the scenario names."""

from __future__ import annotations

import math
import shutil
import sqlite3
from pathlib import Path

import numpy as np

from agents.app.rundir import RunDirLock, check_out_dir
from agents.llm.providers import build_model, uses_model
from agents.llm.record_replay import RecordReplayModel
from agents.roles.baseline import GreedyPolicy
from agents.roles.pipeline import AgentPolicy, AgentServices
from memory.lessons import LessonStore, distil, load_lessons, load_time_prior
from memory.market_memory import BUCKET_HOURS, MarketMemory
from memory.modes import OFF
from memory.rule_progress import RuleProgress, rules_from_entries
from sim.geo import Point
from sim.official.timebase import DAY
from sim.preferences.pins import pins_of
from sim.scenario import DriverSpec, Scenario, ScenarioError
from sim.world.actions import Policy
from sim.world.driver_preferences import check_unparsed, scenario_pins
from sim.world.events import Event, SearchDone
from sim.world.world import RunResult, World


def uses_agents(scenario: Scenario) -> bool:
    """Memory `off` is the greedy baseline over raw observations; any other mode runs agents."""
    return scenario.memory.mode != OFF


def policy_factory(scenario: Scenario, services: AgentServices | None):
    """The function the world calls once per driver to get its policy."""

    def make(world: World, spec: DriverSpec, rng: np.random.Generator) -> Policy:
        # neither policy draws at random; `rng` is the world's per-driver stream for one that does
        if services is None:
            return GreedyPolicy(world.geo, scenario)
        return AgentPolicy(world, spec, services)

    return make


def prepare_out_dir(out: Path) -> Path:
    """A clean run directory: old batches must not mix with the new run's."""
    for name in ("events.parquet", "steps.parquet", "llm_calls.parquet"):
        if (out / name).exists():
            shutil.rmtree(out / name)
    for name in ("drivers.parquet", "summary.json", "preferences.parquet", "step_log.jsonl"):
        (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    return out


def lessons_path(scenario: Scenario) -> Path | None:
    p = scenario.memory.lessons
    if p is None:
        return None
    path = Path(p)
    return path if path.is_absolute() else Path(scenario.path).parent / path


def build_services(scenario: Scenario, out: Path | None) -> AgentServices:
    model = None
    if uses_model(scenario.llm.backend):
        cache = Path(scenario.llm.cache) if scenario.llm.cache else None
        if cache is not None and not cache.is_absolute():
            cache = Path(scenario.path).parent / cache
        model = build_model(scenario.llm, cache)
    path = lessons_path(scenario)
    try:
        lessons, prior = load_lessons(path), load_time_prior(path)
    except (sqlite3.Error, OSError) as exc:
        raise ScenarioError(scenario.path, "[memory] lessons", "a readable lesson store "
                            f"(SQLite) at {path}", str(exc)) from None
    return AgentServices.create(scenario, out, model, lessons, prior)


def build_run(scenario: Scenario, out_dir: str | Path | None = None
              ) -> tuple[World, AgentServices | None]:
    """The world ready to run, and the agents' shared services (None for the baseline)."""
    check_unparsed(scenario)  # [preferences] unparsed = "error": stop before anything is written
    lock = None
    out = None
    if out_dir is not None:
        out = Path(out_dir)
        check_out_dir(out)
        lock = RunDirLock(out)  # before anything in the directory is removed
        prepare_out_dir(out)
    services = build_services(scenario, out) if uses_agents(scenario) else None
    world = World(scenario, policy_factory(scenario, services), out)
    world.lock = lock  # type: ignore[attr-defined]  # held as long as the world lives
    if services is not None:
        wire_preference_progress(world, services)
        world.flush_hooks.append(services.log.flush)
        world.finish_hooks.append(lambda w: finish(services))
        if scenario.memory.lessons is not None:
            world.finish_hooks.append(lambda w: learn_safely(w, services))
    return world, services


def wire_preference_progress(world: World, services: AgentServices) -> dict[str, RuleProgress]:
    """Give each agent driver that carries preferences its RuleProgress (the one preference
    state of memory and agents), fed as the competition adapter feeds it: every official step
    record the world's step recorder closes, and the scorer's form of every cargo a search shows
    (what `extra_penalty` tests a take on).

    With drivers deciding inline the driver's finished step is closed just before it decides
    (same record, sim.world.step_log.close_step); under a lookahead window the rules see it one
    decision later. A world that starts after the scorer's epoch (2026-03-01) hands the memory
    its offset: the rules' clock is the scorer's (world minutes + offset), as the step records
    and cargo records are."""
    rec = world.step_recorder
    if rec is None or rec.offset < 0:
        # before the epoch the scorer scores nothing (sim.world.driver_preferences.score_rules)
        return {}
    sc = services.scenario
    days = max(1, math.ceil((rec.offset + world.horizon) / DAY - 1e-9))
    progress: dict[str, RuleProgress] = {}
    pins = scenario_pins(sc)  # [preferences] pins: the agents plan on the pinned readings
    for d in world.drivers:
        spec = d.spec
        if not spec.rules or spec.driver_id not in services.memories:
            continue
        specs = rules_from_entries([r.to_official() for r in spec.rules], n_days=days,
                                   version=sc.scenario.scoring,
                                   pins=pins_of(pins, spec.driver_id))  # as the scorer reads
        if not any(r.rule is not None for r in specs):
            continue
        rp = RuleProgress(specs, n_days=days, version=sc.scenario.scoring,
                          initial=Point(spec.lat, spec.lng), speed_kmh=sc.geo.speed_kmh)
        services.memories[spec.driver_id].attach_rules(rp, rec.offset)
        progress[spec.driver_id] = rp
        if world.dispatcher.immediate and isinstance(d.policy, AgentPolicy):
            d.policy.before_decide = (
                lambda obs, did=spec.driver_id: rec.close_step(did, obs.now))
    if not progress:
        return progress

    def on_record(driver_id: str, record: dict) -> None:
        rp = progress.get(driver_id)
        if rp is not None:
            rp.on_step(record)

    registry = world.market.registry

    def on_event(ev: Event) -> None:
        rp = progress.get(getattr(ev, "driver_id", "")) if isinstance(ev, SearchDone) else None
        if rp is None:
            return
        for v in ev.results:
            c = registry.get(v.cargo_id)
            if c is not None and v.cargo_id not in rp.cargo:
                rp.add_record(rec.record_of(c))

    rec.listeners.append(on_record)
    world.bus.subscribe(on_event)
    return progress


def run_scenario(scenario: Scenario, out_dir: str | Path | None = None,
                 progress: bool = False) -> RunResult:
    world, _ = build_run(scenario, out_dir)
    try:
        return world.run(progress=progress)
    finally:
        if world.lock is not None:  # type: ignore[attr-defined]
            world.lock.release()  # type: ignore[attr-defined]


def learn_safely(world: World | None, services: AgentServices) -> dict:
    """`learn`, but a lesson store that is locked, corrupt or unwritable must not cost the
    run's results: the failure goes into the summary (`lessons_error`), the results are still
    written, and the command line exits non-zero naming it."""
    try:
        return learn(world, services)
    except (sqlite3.Error, OSError) as exc:
        return {"lessons_error": f"{lessons_path(services.scenario)}: {exc}"}


def _markets(services: AgentServices) -> list[MarketMemory]:
    if services.shared_market is not None:
        return [services.shared_market]
    return [m.market for m in services.memories.values()]


def learn(world: World | None, services: AgentServices) -> dict:
    """Distil this run's lessons into the scenario's lesson store (a competition run has no
    world: its preferences are scored afterwards, so it teaches no preference lessons)."""
    sc = services.scenario
    rows = world.rule_scores.rows if world is not None and world.rule_scores is not None else []
    penalties = [(r["kind"], r["penalty"]) for r in rows if r["scored"]]
    prices = [m.last.state.time_price for m in services.memories.values() if m.last is not None]
    observed = distil(_markets(services), sc.memory.low_yield_net, BUCKET_HOURS, penalties,
                      prices)
    store = LessonStore(lessons_path(sc))
    try:
        counts = store.update(observed, f"{sc.scenario.name}-s{sc.scenario.seed}")
    finally:
        store.close()
    return {"lessons_loaded": len(services.lessons), "lessons": counts}


def finish(services: AgentServices) -> dict:
    """Flush the call log and report what the agents cost and how parsing went."""
    out = services.log.close()
    out["repeated_low_yield_searches_memory"] = sum(
        m.repeated_low_yield for m in _markets(services))
    replay = find_replay(services.model)
    if replay is not None:
        out["replay_misses"] = replay.misses
    return out


def find_replay(model) -> RecordReplayModel | None:
    """The record/replay layer of a model stack, if any (wrappers keep theirs in `inner`)."""
    while model is not None:
        if isinstance(model, RecordReplayModel):
            return model
        model = getattr(model, "inner", None)
    return None
