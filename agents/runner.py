"""Composes a run: world from sim/, memory from memory/, the policy the scenario names."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from agents.baseline import GreedyPolicy
from sim.actions import Policy
from sim.scenario import DriverSpec, Scenario
from sim.world import RunResult, World


def policy_factory(scenario: Scenario):
    """The function the world calls once per driver to get its policy."""

    def make(world: World, spec: DriverSpec, rng: np.random.Generator) -> Policy:
        if scenario.policy.kind == "greedy" or scenario.memory.mode == "off":
            return GreedyPolicy(world.geo, scenario, rng)
        from agents.pipeline import AgentPolicy

        return AgentPolicy.build(world, spec, rng)

    return make


def prepare_out_dir(out: Path) -> Path:
    """A clean run directory: old batches must not mix with the new run's."""
    for name in ("events.parquet",):
        if (out / name).exists():
            shutil.rmtree(out / name)
    for name in ("drivers.parquet", "steps.parquet", "llm_calls.parquet", "summary.json"):
        (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    return out


def run_scenario(scenario: Scenario, out_dir: str | Path | None = None,
                 progress: bool = False) -> RunResult:
    out = prepare_out_dir(Path(out_dir)) if out_dir is not None else None
    world = World(scenario, policy_factory(scenario), out)
    return world.run(progress=progress)
