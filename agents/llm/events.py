"""The LLM layer's entries in the run's event log: typed, one meaning per field.

They are annotations (sim/world/events.py): recorded, and never delivered to a driver's memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sim.world.events import Annotation


@dataclass(slots=True)
class LLMCall(Annotation):
    """One agent call a model answered (or failed to): its cost and how it ended."""

    kind: ClassVar[str] = "llm_call"
    agent: str
    step: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    outcome: str

    def row(self) -> dict:
        return self._row(driver_id=self.driver_id, detail={
            "agent": self.agent, "step": self.step, "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens, "latency_s": self.latency_s,
            "outcome": self.outcome})


@dataclass(slots=True)
class LLMFallback(Annotation):
    """A call the deterministic policy answered instead of the model, and why."""

    kind: ClassVar[str] = "llm_fallback"
    agent: str
    step: int
    cause: str

    def row(self) -> dict:
        return self._row(driver_id=self.driver_id,
                         detail={"agent": self.agent, "step": self.step, "cause": self.cause})


@dataclass(slots=True)
class CompressionRejected(Annotation):
    """A model digest that named what the stores never saw; the extractive one stood in."""

    kind: ClassVar[str] = "compression_rejected"
    agent: str
    step: int
    ungrounded: tuple[str, ...]

    def row(self) -> dict:
        return self._row(driver_id=self.driver_id, detail={
            "agent": self.agent, "step": self.step, "ungrounded": list(self.ungrounded[:10])})
