"""The registries: what an agent or a memory mode must bring, and that adding one is enough.

A throwaway fifth agent, a throwaway memory mode and a throwaway LLM provider are registered
here, run through a real scenario, and removed: nothing else in the code base had to change
for them to work.
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

from agents.llm import providers
from agents.llm.calls import AgentCaller, CallContext
from agents.llm.prompts import STR, Prompt, compression_adapter, obj
from agents.roles import registry
from agents.roles.registry import AgentSpec, agent_names, agents
from agents.testing.fakes import ScriptedModel
from memory import modes
from memory.memory_agent import DigestWritten
from memory.views import COMPACT, View
from sim.scenario import Scenario, ScenarioError, load_scenario
from sim.world.events import EventBus, TakeFailed
from tests.conftest import SCENARIOS, cli


def test_every_agent_brings_prompt_adapter_view_digest_and_builder() -> None:
    got = agents()
    assert list(got) == ["search", "preference", "cargo_analyst", "main_decision"]
    for name, a in got.items():
        assert a.prompt.agent == name
        assert a.compress_prompt.agent == f"compress_{name}"
        assert a.view.agent == name
        # its own extractive digest: what compressed mode falls back to
        assert a.view.extractive_digest is not View.extractive_digest
        for variant in ("bounded", "full", "compressed"):
            assert callable(getattr(a.views, variant))
    assert [a.name for a in registry.by_stage()][-1] == "main_decision"


def test_mode_list_is_the_registry_everywhere(tmp_path: Path) -> None:
    names = modes.mode_names()
    assert names == ("full", "bounded", "bounded-filtered", "compressed-unfiltered", "compressed",
                     "cargo", "cargo-market", "cargo-market-driver")
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
    bus.publish(DigestWritten(5.0, "D1", "search", 200, ("b",), 0, 0, 0.0, "bounded"))
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
    def bounded(self, m, s) -> View:
        return ClockView(mode=m.mode, now=s.obs.now)

    def full(self, m, s) -> View:
        return self.bounded(m, s)

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
    from sim.world.recorder import read_events

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
                for a, v in m.bounded_views(s).items()}


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
    report = run_bench(sc, tmp_path, ("bounded", "rules_compact"))
    m = report["modes"]
    assert m["rules_compact"]["steps"] == m["bounded"]["steps"]
    assert (m["rules_compact"]["tokens_per_step"]["mean"]
            < m["bounded"]["tokens_per_step"]["mean"])


# -- a throwaway LLM provider: one registration, valid in scenario files, composed the same --
def _scripted_provider(made: list) -> providers.Provider:
    """Answers '{}' to everything: each call is asked, repaired once, then falls back."""

    def factory(llm_cfg) -> ScriptedModel:
        made.append(ScriptedModel(["{}"] * 100_000, name=llm_cfg.model))
        return made[-1]

    return providers.Provider("scripted", factory)


@pytest.fixture
def scripted_provider():
    made: list[ScriptedModel] = []
    providers.register(_scripted_provider(made))
    try:
        yield made
    finally:
        providers.unregister("scripted")


def test_provider_list_is_the_registry(tmp_path: Path) -> None:
    names = providers.provider_names()
    assert {"deterministic", "openai", "llm"} <= set(names)
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nname = "b"\ndays = 1\n\n[llm]\nbackend = "nobody"\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert all(n in str(err.value) for n in names)
    assert providers.get("llm") is providers.get("openai")  # the old name still works
    assert not providers.get("deterministic").uses_model


def test_a_new_provider_is_valid_in_files_runs_and_replays(scripted_provider, tmp_path: Path
                                                           ) -> None:
    from agents.app.runner import run_scenario

    toml = (SCENARIOS / "smoke.toml").read_text(encoding="utf-8")
    path = tmp_path / "scripted.toml"
    path.write_text(toml.replace("days = 1", "days = 0.25")
                    + '\n[llm]\nbackend = "scripted"\ncache = "rec.jsonl"\n', encoding="utf-8")
    sc = load_scenario(path).with_overrides(drivers={"count": 2})
    run_scenario(sc, tmp_path / "rec")
    (model,) = scripted_provider
    calls = pq.read_table(tmp_path / "rec" / "llm_calls.parquet").to_pandas()
    assert len(model.requests) == calls.calls.sum() > 0  # every request reached the provider
    assert (calls.backend == "llm").all()
    assert (calls.outcome == "fallback").all()
    assert calls.cause.str.startswith("invalid after repair").all()
    assert (tmp_path / "rec.jsonl").stat().st_size > 0  # recorded through the shared wrapper

    run_scenario(sc.with_overrides(llm={"replay": True}), tmp_path / "replay")
    assert len(scripted_provider) == 1  # a replay never builds the live model
    again = pq.read_table(tmp_path / "replay" / "llm_calls.parquet").to_pandas()
    cols = ["driver_id", "step", "agent", "outcome", "cause", "prompt_tokens", "calls"]
    assert again[cols].equals(calls[cols])

    providers.unregister("scripted")
    with pytest.raises(ScenarioError, match="scripted"):
        load_scenario(path)


# -- preference kinds: one list, the scoring registry's ----------------------------------------
def test_parsers_and_generator_cover_exactly_the_registrys_kinds() -> None:
    import datetime as dt

    import numpy as np

    from agents.roles import preference_parse
    from sim.preferences import draw as preference_draw
    from sim.preferences import schema
    from sim.preferences.kinds import REGISTRY, Kind, kind_names

    names = kind_names()
    assert names == sorted(REGISTRY, key=lambda n: REGISTRY[n].number)
    # the parser runs each registered kind's own recogniser: none is left without one
    assert [k for k in names if REGISTRY[k].recognise is Kind.recognise] == []
    assert list(schema.SCHEMA) == names  # the rules/model parsers' params table
    assert list(preference_parse.SCHEMA["properties"]["kind"]["enum"]) == [*names, "unparsed"]
    # every kind draws itself and words its texts (its own module: tests/test_kind_one_file.py)
    drawn = preference_draw.draw_preferences(
        np.random.default_rng(0), len(names), home=(23.1, 113.3),
        start_day=dt.date(2026, 3, 1), days=30)
    assert sorted(p.kind for p in drawn) == sorted(names)
