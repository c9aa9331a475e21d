"""The registries: what an agent or a memory mode must bring, and that adding one is enough.

A throwaway fifth agent and a throwaway memory mode are registered here, run through a real
scenario, and removed: nothing else in the code base had to change for them to work.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pyarrow.parquet as pq
import pytest

from agents.llm.calls import AgentCaller, CallContext
from agents.llm.prompts import STR, Prompt, compression_adapter, obj
from agents.roles import registry
from agents.roles.registry import AgentSpec, agent_names, agents
from memory import modes
from memory.memory_agent import DigestWritten
from memory.views import COMPACT, View
from sim.events import EventBus, TakeFailed
from sim.scenario import Scenario, ScenarioError, load_scenario
from tests.conftest import cli


def test_every_agent_brings_prompt_adapter_view_digest_and_builder() -> None:
    got = agents()
    assert list(got) == ["search", "preference", "cargo_analyst", "main_decision"]
    for name, a in got.items():
        assert a.prompt.agent == name
        assert a.compress_prompt.agent == f"compress_{name}"
        assert a.view.agent == name
        # its own extractive digest: what compressed mode falls back to
        assert a.view.extractive_digest is not View.extractive_digest
        for variant in ("rules", "full", "compressed"):
            assert callable(getattr(a.views, variant))
    assert [a.name for a in registry.by_stage()][-1] == "main_decision"


def test_mode_list_is_the_registry_everywhere(tmp_path: Path) -> None:
    names = modes.mode_names()
    assert names == ("full", "rules", "rules-filtered", "compressed-unfiltered", "compressed")
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nname = "b"\ndays = 1\n\n[memory]\nmode = "everything"\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert all(n in str(err.value) for n in (modes.OFF, *names))
    help_text = cli("run", "--help").stdout
    assert "{" + ",".join((modes.OFF, *names)) + "}" in help_text


def test_annotations_never_reach_a_drivers_memory() -> None:
    bus = EventBus()
    mine: list = []
    everyone: list = []
    bus.subscribe(mine.append, "D1")
    bus.subscribe(everyone.append)
    bus.publish(DigestWritten(5.0, "D1", "search", 200, ("b",), 0, 0, 0.0, "rules"))
    bus.publish(TakeFailed(6.0, "D1", "C1", "taken"))
    assert [type(e).__name__ for e in everyone] == ["DigestWritten", "TakeFailed"]
    assert [type(e).__name__ for e in mine] == ["TakeFailed"]


# -- a throwaway fifth agent: one view, one policy, one registration --------------------------
@dataclass(frozen=True)
class ClockView(View):
    agent: ClassVar[str] = "clock"
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("time",)

    def verbose_sections(self):
        return [("time", [f"minute {self.now:.0f}"])]

    def compact_sections(self):
        return [("time", [f"m{self.now:.0f}"])]

    def extractive_digest(self) -> list[str]:
        return [f"last digest at minute {self.now:.0f}"]


class ClockViews:
    def rules(self, m, s) -> View:
        return ClockView(mode=m.mode, now=s.obs.now)

    def full(self, m, s) -> View:
        return self.rules(m, s)

    def compressed(self, m, s, digest) -> View:
        return ClockView(mode=m.mode, now=s.obs.now, digest=digest.bullets, renderer=COMPACT)


@dataclass(frozen=True)
class ClockAdvice:
    hour: int

    def main_input(self, brief: bool) -> None:
        return None  # the main agent's rules do not read it


class ClockAgent:
    def __init__(self, caller: AgentCaller) -> None:
        self.caller = caller

    def advise(self, view: ClockView, advice: Mapping[str, Any], ctx: CallContext) -> ClockAdvice:
        return self.caller.call(CLOCK, view, None, ctx, lambda: {"note": "ok"},
                                lambda out: ClockAdvice(int(view.now // 60) % 24))


CLOCK = Prompt("clock", "clock-v1", "Say the hour. JSON only.", obj({"note": STR}, ["note"]))


@pytest.fixture
def clock_agent():
    registry.register(AgentSpec(
        name="clock", prompt=CLOCK, compress_prompt=compression_adapter("clock", "the time"),
        view=ClockView, views=ClockViews(), order=4, stage=1,
        make=lambda caller, geo, sc: ClockAgent(caller)))
    try:
        yield
    finally:
        registry.unregister("clock")


def test_a_fifth_agent_runs_is_accounted_and_digested(clock_agent, tmp_path: Path,
                                                      smoke: Scenario) -> None:
    from agents.app.runner import run_scenario
    from sim.recorder import read_events

    assert "clock" in agent_names()
    sc = smoke.with_overrides(scenario={"days": 0.5}, drivers={"count": 2},
                              memory={"mode": "compressed", "compress_threshold": 40})
    run_scenario(sc, tmp_path)
    steps = pq.read_table(tmp_path / "steps.parquet").to_pandas()
    assert (steps.clock_prompt_tokens > 0).all()  # its own columns, every step
    ev = read_events(tmp_path).to_pandas()
    digests = [json.loads(d) for d in ev[ev.kind == "digest"].detail]
    assert any(d["agent"] == "clock" and d["bullets"][0].startswith("last digest")
               for d in digests)


# -- a throwaway memory mode: rules facts, printed compactly --------------------------------
class RulesCompact(modes.MemoryMode):
    name = "rules_compact"

    def views(self, m, s):
        return {a: dataclasses.replace(v, renderer=COMPACT)
                for a, v in m.rules_views(s).items()}


@pytest.fixture
def rules_compact():
    modes.register(RulesCompact())
    try:
        yield
    finally:
        modes.unregister("rules_compact")


def test_a_new_memory_mode_is_valid_everywhere_and_runs(rules_compact, tmp_path: Path,
                                                         smoke: Scenario) -> None:
    from agents.app.bench import run_bench

    assert "rules_compact" in modes.mode_names()
    sc = smoke.with_overrides(scenario={"days": 0.25}, drivers={"count": 2})
    report = run_bench(sc, tmp_path, ("rules", "rules_compact"))
    m = report["modes"]
    assert m["rules_compact"]["steps"] == m["rules"]["steps"]
    assert (m["rules_compact"]["tokens_per_step"]["mean"]
            < m["rules"]["tokens_per_step"]["mean"])
