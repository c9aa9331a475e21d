"""AgentPolicy: the registered agents over one driver's MemoryAgent, one decision at a time.

A step goes one way: the MemoryAgent refreshes what this step knows, compresses when due and
builds the views (memory/memory_agent.py); then the agents run by stage (preference -> search ->
cargo analyst -> main decision), each given the advice of the stages before it as a mapping.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from agents.llm.accounting import CallLog
from agents.llm.budgets import StepBudgetModel
from agents.llm.calls import AgentCaller, CallContext, CallHook, CallRecord, LineCounts
from agents.llm.events import CompressionRejected, LLMCall, LLMFallback
from agents.llm.language_model import LanguageModel
from agents.llm.providers import DETERMINISTIC
from agents.roles.compressor_agent import CompressorAgent
from agents.roles.registry import agent_names, agents, by_stage
from memory.market_memory import MarketMemory
from memory.memory_agent import MemoryAgent
from memory.time_price import TimePrice
from memory.tokens import TokenCounter
from sim.scenario import DriverSpec, Scenario
from sim.world.actions import Decision, Observation
from sim.world.effects import side_by_side


@dataclass
class AgentServices:
    """What all drivers of one run share: tokenizer, model, call log, shared market, lessons."""

    scenario: Scenario
    counter: TokenCounter
    model: LanguageModel | None
    log: CallLog
    lessons: tuple[str, ...] = ()
    time_prior: TimePrice | None = None  # what earlier runs' time earned (the rate lesson)
    shared_market: MarketMemory | None = None
    memories: dict[str, MemoryAgent] = field(default_factory=dict)
    # observers of every agent call (benchmarks capture prompts here)
    call_hooks: list[CallHook] = field(default_factory=list)
    # prompt token counts with each distinct line counted once, for every driver's calls
    line_counts: LineCounts | None = None

    @classmethod
    def create(cls, scenario: Scenario, out_dir: Path | None, model: LanguageModel | None,
               lessons: tuple[str, ...] = (), time_prior: TimePrice | None = None
               ) -> AgentServices:
        return cls(scenario, TokenCounter(scenario.llm.tokenizer), model,
                   CallLog(out_dir, scenario.output.batch_rows, agent_names()), lessons,
                   time_prior)


class AgentPolicy:
    def __init__(self, world, spec: DriverSpec, services: AgentServices) -> None:
        sc = services.scenario
        self.spec, self.services = spec, services
        self.mode = sc.memory.mode
        self.step = 0
        self.t = 0.0
        bus = world.bus

        def on_fallback(ctx: CallContext, agent: str, cause: str) -> None:
            bus.publish(LLMFallback(ctx.t, ctx.driver_id, agent, ctx.step, cause))

        def on_sink(r: CallRecord) -> None:
            services.log.sink(r)
            if r.backend == "llm":
                bus.publish(LLMCall(r.t, r.driver_id, r.agent, r.step, r.prompt_tokens,
                                    r.completion_tokens, r.latency_s, r.outcome))

        model = services.model
        self.budget: StepBudgetModel | None = None
        if model is not None and (sc.llm.driver_token_budget or sc.llm.step_deadline_s):
            model = self.budget = StepBudgetModel(model, sc.llm.driver_token_budget,
                                                  sc.llm.step_deadline_s)
        if services.line_counts is None:
            services.line_counts = LineCounts(services.counter)
        caller = AgentCaller(sc.llm.backend, model, services.line_counts, on_sink,
                             sc.llm.max_tokens, sc.llm.temperature, on_fallback,
                             services.call_hooks)

        def on_reject(ctx: CallContext, agent: str, bad: list[str]) -> None:
            bus.publish(CompressionRejected(ctx.t, ctx.driver_id, agent, ctx.step, tuple(bad)))

        self.compressor = CompressorAgent(caller, on_reject)
        if sc.memory.shared_market and services.shared_market is None:
            services.shared_market = MarketMemory(world.geo, sc.geo.memory_h3_res,
                                                  sc.memory.low_yield_net, services.counter,
                                                  learn_reach=sc.policy.place_weight > 0)
            bus.subscribe(services.shared_market.on_event)
        registered = agents()
        self.memory = MemoryAgent(self.mode, world.geo, spec, sc, bus, services.counter,
                                  services.shared_market if sc.memory.shared_market else None,
                                  services.lessons,
                                  {name: a.views for name, a in registered.items()},
                                  services.time_prior)
        services.memories[spec.driver_id] = self.memory
        specs = by_stage()
        self.agents = {a.name: a.make(caller, world.geo, sc) for a in specs}
        self.decider = next(reversed(self.agents))  # the last stage answers with the Decision
        # agent names per stage, in run order
        self.stages = [tuple(a.name for a in grp) for _, grp in groupby(specs, lambda a: a.stage)]
        # agents of one stage read only earlier stages' advice, so with a model they are asked
        # side by side; not under budgets, where which call is refused would depend on timing
        self.side_by_side = (sc.llm.parallel_agents and model is not None
                             and sc.llm.backend != DETERMINISTIC and self.budget is None)
        if self.side_by_side:
            services.log.parallel_agents = frozenset(
                n for names in self.stages if len(names) > 1 for n in names)
        # called with each observation before the memory step (the runner closes the driver's
        # finished step record here, so the rule progress knows it; agents/app/runner.py)
        self.before_decide: Callable[[Observation], None] | None = None

    def context(self) -> CallContext:
        return CallContext(self.spec.driver_id, self.step, self.t, self.mode)

    def decide(self, obs: Observation) -> Decision:
        self.step += 1
        self.t = obs.now
        if self.budget is not None:
            self.budget.begin_step()
        if self.before_decide is not None:
            self.before_decide(obs)
        ctx = self.context()
        step = self.memory.step(obs, self.compressor.at(ctx))
        advice: dict[str, Any] = {}
        for names in self.stages:
            if self.side_by_side and len(names) > 1:  # records released in registry order
                earlier = dict(advice)
                asks = [lambda n=n, e=earlier: self.agents[n].advise(step.views[n], e, ctx)
                        for n in names]
                advice.update(zip(names, side_by_side(*asks), strict=True))
            else:
                for n in names:
                    advice[n] = self.agents[n].advise(step.views[n], advice, ctx)
        decision: Decision = advice[self.decider]
        self.services.log.end_step(self.spec.driver_id, self.step, obs.now, self.mode,
                                   decision.action.name,
                                   sum(v.fact_lines for v in step.views.values()))
        return decision
