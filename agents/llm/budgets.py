"""Wrappers that bound what a run spends on the model: a call count for the whole run, and one
driver's tokens and seconds per decision step. Past a budget a call fails with its own cause and
the agents fall back to their rules."""

from __future__ import annotations

import threading

from agents.llm.language_model import Completion, LanguageModel, LLMError


class CallLimitModel(LanguageModel):
    """Stops asking after `max_calls` requests (cause `call_budget`): the agents fall back to
    their rules and the run goes on. Bounds cost on a paid endpoint and time on a slow one."""

    def __init__(self, inner: LanguageModel, max_calls: int) -> None:
        self.inner, self.max_calls, self.name = inner, max_calls, inner.name
        self.calls = 0
        self._lock = threading.Lock()

    def complete(self, messages: list[dict], **kw) -> Completion:
        with self._lock:
            if self.calls >= self.max_calls:
                raise LLMError("call_budget", f"{self.max_calls} calls used")
            self.calls += 1
        return self.inner.complete(messages, **kw)


class StepBudgetModel(LanguageModel):
    """One driver's budgets: tokens over the whole run and seconds per decision step.

    The competition's second round gives each driver 5,000,000 tokens and 120 s per step. Once
    the driver has used `token_budget` tokens (prompt + completion, as the server counted them)
    every call fails with cause `token_budget`; once the step's calls have taken `deadline_s`
    seconds, further calls fail with cause `step_deadline`, and so does a reply that arrives
    after the deadline (the driver could no longer act on it). The agents then fall back to their
    rules, and the fallback is recorded with that cause. Time is the calls' reported latency, not
    the wall clock, so a replayed run meets its budgets exactly where the recorded run did.
    Call `begin_step()` when the driver starts a decision. 0 disables a budget.
    """

    def __init__(self, inner: LanguageModel, token_budget: int = 0,
                 deadline_s: float = 0.0) -> None:
        self.inner, self.name = inner, inner.name
        self.token_budget, self.deadline_s = token_budget, deadline_s
        self.tokens_used = 0
        self.step_s = 0.0

    def begin_step(self) -> None:
        self.step_s = 0.0

    def complete(self, messages: list[dict], **kw) -> Completion:
        if self.token_budget and self.tokens_used >= self.token_budget:
            raise LLMError("token_budget", f"{self.tokens_used} of {self.token_budget} used")
        if self.deadline_s and self.step_s >= self.deadline_s:
            raise LLMError("step_deadline", f"{self.step_s:.1f} s of {self.deadline_s:g} s")
        c = self.inner.complete(messages, **kw)
        self.tokens_used += c.prompt_tokens + c.completion_tokens
        self.step_s += c.latency_s
        if self.deadline_s and self.step_s > self.deadline_s:
            raise LLMError("step_deadline", f"reply at {self.step_s:.1f} s, "
                           f"deadline {self.deadline_s:g} s")
        return c
