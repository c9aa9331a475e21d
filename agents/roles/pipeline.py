"""AgentPolicy: the four agents over one driver's MemoryAgent, one decision step at a time.

Order per step: the MemoryAgent builds the views (compressing first when facts passed the
threshold), then PreferenceAgent -> SearchAgent -> CargoAnalystAgent -> MainDecisionAgent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.llm.accounting import CallLog
from agents.llm.calls import AgentCaller, CallContext
from agents.llm.model import LanguageModel
from agents.roles.cargo_analyst import CargoAnalystAgent
from agents.roles.compressor_agent import CompressorAgent
from agents.roles.main_decision import MainDecisionAgent
from agents.roles.preference_agent import PreferenceAgent, same_meaning
from agents.roles.search_agent import SearchAgent
from memory.market_memory import MarketMemory
from memory.memory_agent import MemoryAgent
from memory.tokens import TokenCounter
from sim.actions import Decision, Observation
from sim.events import Generic
from sim.preference_text import PreferenceParseError
from sim.scenario import DriverSpec, Scenario


@dataclass
class AgentServices:
    """What all drivers of one run share: tokenizer, model, call log, shared market, lessons."""

    scenario: Scenario
    counter: TokenCounter
    model: LanguageModel | None
    log: CallLog
    lessons: tuple[str, ...] = ()
    shared_market: MarketMemory | None = None
    # (text, the model's parse agreed with the rules parser) for parses the model attempted
    parse_checks: list[tuple[str, bool]] = field(default_factory=list)
    memories: dict[str, MemoryAgent] = field(default_factory=dict)

    @classmethod
    def create(cls, scenario: Scenario, out_dir: Path | None, model: LanguageModel | None,
               lessons: tuple[str, ...] = ()) -> AgentServices:
        return cls(scenario, TokenCounter(scenario.llm.tokenizer), model,
                   CallLog(out_dir, scenario.output.batch_rows), lessons)


class AgentPolicy:
    def __init__(self, world, spec: DriverSpec, rng: np.random.Generator,
                 services: AgentServices) -> None:
        sc = services.scenario
        self.spec, self.services, self.rng = spec, services, rng
        self.mode = sc.memory.mode
        self.step = 0
        self.t = 0.0
        backend = sc.llm.backend
        bus = world.bus

        def on_fallback(ctx: CallContext, agent: str, cause: str) -> None:
            bus.publish(Generic(ctx.t, "llm_fallback", {"driver_id": ctx.driver_id,
                                                         "reason": agent, "count": ctx.step,
                                                         "detail": {"cause": cause}}))

        def on_sink(r) -> None:
            services.log.sink(r)
            if r.backend == "llm":
                bus.publish(Generic(r.t, "llm_call", {
                    "driver_id": r.driver_id, "count": r.step, "reason": r.agent,
                    "value": r.latency_s, "detail": {"prompt_tokens": r.prompt_tokens,
                                                     "completion_tokens": r.completion_tokens,
                                                     "outcome": r.outcome}}))

        caller = AgentCaller(backend, services.model, services.counter, on_sink,
                             sc.llm.max_tokens, sc.llm.temperature, on_fallback)

        def on_reject(ctx: CallContext, agent: str, bad: list[str]) -> None:
            bus.publish(Generic(ctx.t, "compression_rejected", {
                "driver_id": ctx.driver_id, "reason": agent, "count": len(bad),
                "detail": {"ungrounded": bad[:10]}}))

        self.compressor = CompressorAgent(caller, self.context, on_reject)
        if sc.memory.shared_market and services.shared_market is None:
            services.shared_market = MarketMemory(world.geo, sc.geo.memory_h3_res,
                                                  sc.memory.low_yield_net, services.counter)
            bus.subscribe(services.shared_market.on_event)
        self.memory = MemoryAgent(self.mode, world.geo, spec, sc, bus, services.counter,
                                  services.shared_market if sc.memory.shared_market else None,
                                  self.compressor, services.lessons)
        services.memories[spec.driver_id] = self.memory
        self.preference = PreferenceAgent(caller)
        self.search = SearchAgent(caller, sc.market.default_radius_km, sc.market.max_radius_km)
        self.analyst = CargoAnalystAgent(caller, world.geo, world.horizon,
                                         self.memory.cargo.blocked, sc.policy.min_net_income)
        self.main = MainDecisionAgent(caller, world.geo, sc.policy.wait_minutes)
        self.prefs = spec.preferences
        self._parsed = False

    def context(self) -> CallContext:
        return CallContext(self.spec.driver_id, self.step, self.t, self.mode)

    def _parse_preferences(self) -> None:
        """Turn each preference text into its structured form; with a model, check it."""
        parsed = []
        for p in self.prefs:
            try:
                got = self.preference.parse(p.text, p.penalty_amount, p.penalty_cap,
                                            self.context())
            except PreferenceParseError:
                # text no parser reads (or none): the structured form is what the world scores;
                # `validate` reports it before a run (agents/app/precheck.py)
                parsed.append(p)
                continue
            ok = same_meaning(got, p)
            rec = self.preference.caller.last
            if rec is not None and rec.backend == "llm":
                # a reply that failed validation was a wrong parse; a call never answered
                # (timeout, budget) says nothing about the model
                if rec.outcome in ("ok", "repaired"):
                    self.services.parse_checks.append((p.text, ok))
                elif (rec.cause or "").startswith("invalid"):
                    self.services.parse_checks.append((p.text, False))
            # the structured form the world scores is the reference; a wrong parse is reported
            parsed.append(dataclasses.replace(got, place=p.place) if ok else p)
        self.prefs = tuple(parsed)
        self._parsed = True

    def decide(self, obs: Observation) -> Decision:
        self.step += 1
        self.t = obs.now
        if not self._parsed:
            self._parse_preferences()
        ctx = self.context()
        views = self.memory.views(obs)
        pref = self.preference.advise(views["preference"], ctx)
        search = self.search.advise(views["search"], ctx)
        progress = self.memory.driver.progress(obs.now)
        ranking = self.analyst.rank(views["cargo_analyst"], self.prefs, progress,
                                    {"wait_minutes": round(pref.wait_minutes)}
                                    if pref.wait_minutes else {}, ctx)
        decision = self.main.decide(views["main_decision"], pref, search, ranking, ctx)
        self.services.log.end_step(self.spec.driver_id, self.step, obs.now, self.mode,
                                   decision.action.name,
                                   sum(v.fact_lines for v in views.values()))
        return decision
