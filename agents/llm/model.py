"""A thin language-model interface and its OpenAI-compatible adapter, with wrappers.

`LanguageModel.complete` is the only thing agents call. The adapter is handed an
`openai.OpenAI` client, so the same code talks to vLLM, llama.cpp's server or any other
OpenAI-compatible endpoint. Retries and record/replay are wrappers with the same interface.
"""

from __future__ import annotations

import abc
import dataclasses
import hashlib
import json
import os
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import openai

SCHEMA_FORMATS = ("json_schema", "json_object", "none")


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
    # how the server spent latency_s (None when it does not say): waiting for a batch slot,
    # time to the first token (streaming), and first to last token
    queue_s: float | None = None
    ttft_s: float | None = None
    decode_s: float | None = None


class LanguageModel(abc.ABC):
    name: str = "model"

    @abc.abstractmethod
    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        """One chat completion; raises LLMError when there is none."""


def response_format(kind: str, schema: dict | None, name: str) -> dict | None:
    """How to ask for schema-constrained JSON: vLLM takes json_schema, llama.cpp json_object."""
    if schema is None or kind == "none":
        return None
    if kind == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True}}
    return {"type": "json_object", "schema": schema}


class OpenAIModel(LanguageModel):
    """Chat completions over the `openai` client, detecting the server's JSON-schema dialect.

    With `schema_format="auto"` the first schema call tries json_schema (vLLM, OpenAI); a
    server that rejects it (llama-cpp-python answers 500) is asked again with json_object +
    schema, and that choice is kept for the rest of the run.
    """

    def __init__(self, client: openai.OpenAI, model: str, schema_format: str = "auto") -> None:
        self.client, self.name = client, model
        self.schema_format = None if schema_format == "auto" else schema_format
        self._lock = threading.Lock()

    def _create(self, messages: list[dict], fmt: str, schema: dict | None, name: str,
                max_tokens: int, temperature: float):
        kwargs: dict = {"model": self.name, "messages": messages, "max_tokens": max_tokens,
                        "temperature": temperature, "seed": 0}
        rf = response_format(fmt, schema, name)
        if rf is not None:
            kwargs["response_format"] = rf
        return self.client.chat.completions.create(**kwargs)

    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        t0 = time.perf_counter()
        fmt = self.schema_format or "json_schema"
        try:
            try:
                resp = self._create(messages, fmt, schema, schema_name, max_tokens, temperature)
            except openai.APIStatusError as exc:
                if self.schema_format is not None or schema is None or exc.status_code < 400:
                    raise
                resp = self._create(messages, "json_object", schema, schema_name, max_tokens,
                                    temperature)
                fmt = "json_object"
            if schema is not None and self.schema_format is None:
                with self._lock:
                    self.schema_format = fmt
        except openai.APITimeoutError as exc:
            raise LLMError("timeout", str(exc)) from None
        except openai.APIConnectionError as exc:
            raise LLMError("connection", str(exc)) from None
        except openai.APIStatusError as exc:
            raise LLMError(f"http_{exc.status_code}", exc.message[:200]) from None
        latency = time.perf_counter() - t0
        if not resp.choices:
            raise LLMError("empty_response")
        text = resp.choices[0].message.content or ""
        usage = resp.usage
        cached = None
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        if details is not None and getattr(details, "cached_tokens", None) is not None:
            cached = int(details.cached_tokens)
        return Completion(text, int(usage.prompt_tokens) if usage else 0,
                          int(usage.completion_tokens) if usage else 0, cached, latency)


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


def build_model(llm_cfg, cache_path: Path | None) -> LanguageModel:
    """The model stack a scenario's [llm] table asks for: client -> retries -> record/replay."""
    key = os.environ.get(llm_cfg.api_key_env, "") or "sk-no-key"
    inner: LanguageModel | None = None
    if not llm_cfg.replay:
        client = openai.OpenAI(base_url=llm_cfg.base_url, api_key=key,
                               timeout=llm_cfg.timeout_s, max_retries=0)
        fmt = llm_cfg.response_format
        inner = RetryModel(TimedOpenAIModel(client, llm_cfg.model, fmt, llm_cfg.stream),
                           llm_cfg.max_retries, llm_cfg.backoff_s)
    if cache_path is None:
        if inner is None:
            raise LLMError("replay_miss", "replay needs [llm] cache")
        model: LanguageModel = inner
    else:
        model = SingleFlightRecordReplayModel(inner, cache_path, llm_cfg.replay, llm_cfg.model)
    if llm_cfg.max_calls:
        model = CallLimitModel(model, llm_cfg.max_calls)
    return model


class _Streamed:
    """A streamed answer put back together in the shape `OpenAIModel.complete` reads."""

    def __init__(self, text: str, usage: object) -> None:
        msg = type("Message", (), {"content": text})()
        self.choices = [type("Choice", (), {"message": msg})()]
        self.usage = usage


class TimedOpenAIModel(OpenAIModel):
    """OpenAIModel that also says where the latency went: queue wait, TTFT and decode time.

    Queue wait comes from the server's `x-queue-ms` header when it sends one (the emulated
    server does; vLLM and llama.cpp do not). With `stream=True` the reply is streamed with
    `stream_options.include_usage`, the first content chunk timestamps the first token, and the
    usage arrives in the last chunk; without streaming only queue wait can be known. Timings of
    concurrent calls on one instance are kept apart per thread.
    """

    def __init__(self, client: openai.OpenAI, model: str, schema_format: str = "auto",
                 stream: bool = False) -> None:
        super().__init__(client, model, schema_format)
        self.stream = stream
        self._timing = threading.local()

    def _create(self, messages: list[dict], fmt: str, schema: dict | None, name: str,
                max_tokens: int, temperature: float):
        kwargs: dict = {"model": self.name, "messages": messages, "max_tokens": max_tokens,
                        "temperature": temperature, "seed": 0}
        rf = response_format(fmt, schema, name)
        if rf is not None:
            kwargs["response_format"] = rf
        if self.stream:
            kwargs.update(stream=True, stream_options={"include_usage": True})
        t0 = time.perf_counter()
        raw = self.client.chat.completions.with_raw_response.create(**kwargs)
        q = raw.headers.get("x-queue-ms")
        timing = {"queue_s": float(q) / 1000 if q is not None else None,
                  "ttft_s": None, "decode_s": None}
        self._timing.value = timing
        resp = raw.parse()
        if not self.stream:
            return resp
        parts: list[str] = []
        usage = None
        t_first = t_last = None
        for chunk in resp:
            if chunk.usage is not None:
                usage = chunk.usage
            for ch in chunk.choices:
                if ch.delta.content:
                    t_last = time.perf_counter()
                    if t_first is None:
                        t_first = t_last
                    parts.append(ch.delta.content)
        if t_first is not None:
            timing["ttft_s"], timing["decode_s"] = t_first - t0, t_last - t_first
        return _Streamed("".join(parts), usage)

    def complete(self, messages: list[dict], **kw) -> Completion:
        self._timing.value = {}
        c = super().complete(messages, **kw)
        return dataclasses.replace(c, **{k: v for k, v in self._timing.value.items()
                                         if v is not None})


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


class SingleFlightRecordReplayModel(RecordReplayModel):
    """RecordReplayModel for concurrent callers: identical requests in flight are asked once.

    Two drivers can send the very same request at the same time (the same preference text, the
    same empty view). Run one after another, the second is answered from the cache; run side by
    side, both would miss it and reach the server, whose two answers (and latencies) may differ
    while the cache keeps only one. Here the second waits for the first and gets its completion,
    as it would have from the cache, so a concurrent run records what a replay gives back.
    """

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self._flights: dict[str, threading.Event] = {}

    def complete(self, messages: list[dict], **kw) -> Completion:
        key = request_key(self.name, messages, **kw)
        while True:
            with self._lock:
                hit = self.cache.get(key)
                flight = self._flights.get(key)
                if hit is None and flight is None:
                    self._flights[key] = threading.Event()
                    break
            if hit is not None:
                return Completion(**{**hit, "source": "replay"})
            flight.wait()
            with self._lock:
                if key in self.cache:
                    continue
            # the leader failed (an LLMError): ask on our own, as a sequential run would
            with self._lock:
                if key not in self._flights:
                    self._flights[key] = threading.Event()
                    break
        try:
            return super().complete(messages, **kw)
        finally:
            with self._lock:
                self._flights.pop(key).set()
