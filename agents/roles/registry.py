"""The agents' registry: one entry per agent, and what the pipeline and memory read from it.

An entry names the agent, its prompt and its compression adapter, the builder of its memory
view (whose View class writes its own extractive digest), the stage it runs at, and how to make
it for one driver. Each agent module registers itself; `agents()` imports every module of this
package first, so a new agent is one new file here (and its test).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from agents.llm.calls import AgentCaller, CallContext
from agents.llm.prompts import Prompt
from memory.view_builders import ViewBuilder
from memory.views import View
from sim.geo import Geography
from sim.scenario import Scenario


class RoleAgent(Protocol):
    """One agent over its view. `advice` holds the answers of the agents of earlier stages,
    by agent name; the last stage's answer is the driver's Decision."""

    def advise(self, view: Any, advice: Mapping[str, Any], ctx: CallContext) -> Any: ...


class Advice(Protocol):
    """An advising agent's answer, as the main agent is sent it: a (key, value) pair of its
    inputs, or None when it says nothing in a brief view."""

    def main_input(self, brief: bool) -> tuple[str, Any] | None: ...


@dataclass(frozen=True)
class AgentSpec:
    name: str
    prompt: Prompt
    compress_prompt: Prompt
    view: type[View]
    views: ViewBuilder
    order: int  # view order: the order of a digest round's calls (recorded runs replay)
    stage: int  # run order within a step; an agent reads the advice of earlier stages
    make: Callable[[AgentCaller, Geography, Scenario], RoleAgent]


_AGENTS: dict[str, AgentSpec] = {}
_discovered = False  # every module of agents.roles imported (each registers its agent)


def register(spec: AgentSpec) -> AgentSpec:
    if spec.view.agent != spec.name:
        raise ValueError(f"agent {spec.name!r}: its view is for {spec.view.agent!r}")
    _AGENTS[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Drop an agent (tests that register a throwaway one clean up with this)."""
    _AGENTS.pop(name, None)


def agents() -> dict[str, AgentSpec]:
    """Every agent, in view order."""
    global _discovered
    if not _discovered:
        import agents.roles as package

        for m in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{m.name}")
        _discovered = True
    return {a.name: a for a in sorted(_AGENTS.values(), key=lambda a: a.order)}


def by_stage() -> list[AgentSpec]:
    return sorted(agents().values(), key=lambda a: (a.stage, a.name))


def agent_names() -> tuple[str, ...]:
    return tuple(agents())
