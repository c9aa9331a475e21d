"""Wrappers that keep a run going when the server is slow or failing: a wall-clock deadline per
request, and retries with backoff. Both have the `LanguageModel` interface, so they compose over
any provider."""

from __future__ import annotations

import threading
import time

from agents.llm.language_model import Completion, LanguageModel, LLMError


class DeadlineModel(LanguageModel):
    """Bounds each request by wall time, body included.

    The client's timeout bounds each read, so a server trickling a byte every half second
    holds a call for as long as it likes. Here the request runs on a daemon thread and the
    caller stops waiting at the deadline (cause `timeout`); the abandoned thread ends with
    its socket and never delays the process's exit.
    """

    def __init__(self, inner: LanguageModel, timeout_s: float) -> None:
        self.inner, self.timeout_s, self.name = inner, timeout_s, inner.name

    def complete(self, messages: list[dict], **kw) -> Completion:
        box: dict[str, object] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["ok"] = self.inner.complete(messages, **kw)
            except BaseException as exc:  # handed to the caller's thread
                box["err"] = exc
            finally:
                done.set()

        threading.Thread(target=work, daemon=True, name="llm-call").start()
        if not done.wait(self.timeout_s):
            raise LLMError("timeout", f"no complete reply within {self.timeout_s:g} s")
        if "err" in box:
            raise box["err"]  # type: ignore[misc]
        return box["ok"]  # type: ignore[return-value]


class RetryModel(LanguageModel):
    """Retries timeouts, connection errors, 429 and 5xx answers with exponential backoff,
    waiting at least what a Retry-After header asked (up to MAX_RETRY_AFTER_S)."""

    RETRIABLE = ("timeout", "connection", "http_5", "http_429")
    MAX_RETRY_AFTER_S = 60.0

    def __init__(self, inner: LanguageModel, max_retries: int, backoff_s: float = 0.5) -> None:
        self.inner, self.max_retries, self.backoff_s = inner, max_retries, backoff_s
        self.name = inner.name

    def complete(self, messages: list[dict], **kw) -> Completion:
        attempt = 0
        while True:
            try:
                return self.inner.complete(messages, **kw)
            except LLMError as exc:
                if attempt >= self.max_retries or not exc.cause.startswith(self.RETRIABLE):
                    raise
                wait = self.backoff_s * 2 ** attempt
                if exc.retry_after is not None:
                    wait = max(wait, min(exc.retry_after, self.MAX_RETRY_AFTER_S))
                time.sleep(wait)
                attempt += 1
