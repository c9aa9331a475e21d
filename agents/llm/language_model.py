"""The language-model interface: what agents call, what it returns and how it fails.

`LanguageModel.complete` is the only thing agents call; a provider's adapter implements it and
the wrappers (retries, deadlines, budgets, record/replay) compose over it with the same
interface. Which stack a scenario gets is agents/llm/providers.py's (one table of providers).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

from sim.redact import redact


class LLMError(Exception):
    """A call that produced no usable completion; `cause` is what the fallback event records.

    The detail often quotes the server (an error body, a header it sent back), so it is
    redacted here, before anyone cuts it short or prints it (sim/redact.py)."""

    def __init__(self, cause: str, detail: str = "", retry_after: float | None = None) -> None:
        detail = redact(detail)
        super().__init__(f"{cause}: {detail}" if detail else cause)
        self.cause = cause
        self.retry_after = retry_after  # seconds a 429/503 asked us to wait, if it said


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None
    latency_s: float
    source: str = "server"  # "server" | "replay"
    # how the server spent latency_s (None when it does not say): waiting for a batch slot,
    # time to the first token (streaming), and first to last token
    queue_s: float | None = None
    ttft_s: float | None = None
    decode_s: float | None = None


# the optional latency split a recorded completion may carry beside the required fields
TIMING_FIELDS = frozenset({"queue_s", "ttft_s", "decode_s"})


class LanguageModel(abc.ABC):
    name: str = "model"

    @abc.abstractmethod
    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        """One chat completion; raises LLMError when there is none."""
