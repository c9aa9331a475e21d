"""The MemoryAgent's compressor: the model (or the extractive rule) turns a view into bullets.

The memory hands it each view's digest source and the entities a digest may name; every digest
passes that grounding check, and one naming an unseen grid, cargo or coordinate is rejected
(reported through `on_reject`) and the view's extractive digest is used instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.roles.registry import agents
from memory.digest import ungrounded
from memory.memory_agent import Compression, Grounding
from memory.views import MAX_BULLETS, View

RejectHook = Callable[[CallContext, str, list[str]], None]


class CompressorAgent:
    """Compresses views for one driver; `at(ctx)` is the memory's Compressor for one step."""

    def __init__(self, caller: AgentCaller, on_reject: RejectHook | None = None) -> None:
        self.caller, self.on_reject = caller, on_reject
        self.prompts = {name: a.compress_prompt for name, a in agents().items()}

    def at(self, ctx: CallContext) -> StepCompressor:
        return StepCompressor(self, ctx)

    def compress(self, source: View, grounding: Grounding, ctx: CallContext) -> Compression:
        fallback = source.extractive_digest()

        def validate(out: dict) -> list[str]:
            bullets = [str(b) for b in out["bullets"]]
            if not bullets or len(bullets) > MAX_BULLETS:
                raise InvalidOutputError(f"expected 1 to {MAX_BULLETS} bullets, got {len(bullets)}")
            bad = ungrounded(bullets, grounding.cells, grounding.cargo_ids, grounding.coords)
            if bad:
                if self.on_reject is not None:
                    self.on_reject(ctx, source.agent, bad)
                return fallback
            return bullets

        bullets = self.caller.call(self.prompts[source.agent], source, None, ctx,
                                   lambda: {"bullets": fallback}, validate)
        r = self.caller.last  # the record of the call just made
        assert r is not None
        return Compression(tuple(bullets), r.prompt_tokens, r.completion_tokens, r.latency_s,
                          r.outcome)


@dataclass(frozen=True)
class StepCompressor:
    """memory's Compressor protocol, bound to the step whose calls it makes."""

    agent: CompressorAgent
    ctx: CallContext

    def compress(self, source: View, grounding: Grounding) -> Compression:
        return self.agent.compress(source, grounding, self.ctx)
