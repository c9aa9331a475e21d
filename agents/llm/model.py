"""A thin language-model interface and the wrappers every provider shares.

`LanguageModel.complete` is the only thing agents call. Retries, call budgets and
record/replay are wrappers with the same interface, so they compose over any provider; the
providers themselves (the OpenAI-compatible adapter in agents/llm/openai_model.py, ...) are
named in one table, agents/llm/providers.py, and imported only when a scenario asks for one.
"""

from __future__ import annotations

import abc
import hashlib
import json
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path


class LLMError(Exception):
    """A call that produced no usable completion; `cause` is what the fallback event records."""

    def __init__(self, cause: str, detail: str = "") -> None:
        super().__init__(f"{cause}: {detail}" if detail else cause)
        self.cause = cause


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None
    latency_s: float
    source: str = "server"  # "server" | "replay"


class LanguageModel(abc.ABC):
    name: str = "model"

    @abc.abstractmethod
    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        """One chat completion; raises LLMError when there is none."""


class RetryModel(LanguageModel):
    """Retries timeouts, connection errors and 5xx answers with exponential backoff."""

    RETRIABLE = ("timeout", "connection", "http_5")

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
                time.sleep(self.backoff_s * 2 ** attempt)
                attempt += 1


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


def request_key(model: str, messages: list[dict], **kw: object) -> str:
    """sha256 of the canonical request: model, messages, schema and sampling parameters."""
    blob = json.dumps({"model": model, "messages": messages, **kw}, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class RecordReplayModel(LanguageModel):
    """Answers from a JSON Lines cache keyed by request hash; records what it had to ask.

    With `replay=True` a request missing from the cache is an error (cause `replay_miss`), so
    a replayed run cannot quietly reach a live server. Replayed completions keep the recorded
    token counts and latency, so a replay reproduces the recorded run's accounting exactly.
    """

    def __init__(self, inner: LanguageModel | None, path: str | Path, replay: bool,
                 model_name: str | None = None) -> None:
        self.inner, self.path, self.replay = inner, Path(path), replay
        self.name = model_name or (inner.name if inner else "replay")
        self.cache: dict[str, dict] = {}
        self._lock = threading.Lock()
        if self.path.exists():
            with self.path.open(encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        row = json.loads(line)
                        self.cache[row["key"]] = row["completion"]

    def complete(self, messages: list[dict], **kw) -> Completion:
        key = request_key(self.name, messages, **kw)
        hit = self.cache.get(key)
        if hit is not None:
            return Completion(**{**hit, "source": "replay"})
        if self.replay or self.inner is None:
            raise LLMError("replay_miss", key[:12])
        c = self.inner.complete(messages, **kw)
        row = {"key": key, "model": self.name, "request": {"messages": messages, **kw},
               "completion": {k: v for k, v in asdict(c).items() if k != "source"}}
        with self._lock:
            self.cache[key] = row["completion"]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        return c
