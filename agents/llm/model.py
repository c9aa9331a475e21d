"""A thin language-model interface and its OpenAI-compatible adapter, with wrappers.

`LanguageModel.complete` is the only thing agents call. The adapter is handed an
`openai.OpenAI` client, so the same code talks to vLLM, llama.cpp's server or any other
OpenAI-compatible endpoint. Retries and record/replay are wrappers with the same interface.
Which stack a scenario gets is agents/llm/providers.py's (one table of providers).
"""

from __future__ import annotations

import abc
import dataclasses
import hashlib
import json
import math
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import openai

from sim.redact import redact, redact_obj
from sim.scenario import ScenarioError

SCHEMA_FORMATS = ("json_schema", "json_object", "none")
SCHEMA_WORDS = ("json_schema", "json_object", "response_format")


class LLMError(Exception):
    """A call that produced no usable completion; `cause` is what the fallback event records.

    The detail often quotes the server (an error body, a header it sent back), so it is
    redacted here, before anyone cuts it short or prints it (sim/redact.py)."""

    def __init__(self, cause: str, detail: str = "", retry_after: float | None = None) -> None:
        detail = redact(detail)
        super().__init__(f"{cause}: {detail}" if detail else cause)
        self.cause = cause
        self.retry_after = retry_after  # seconds a 429/503 asked us to wait, if it said


MAX_REPLY_CHARS = 64_000  # a reply this long is not an answer to a 256-token request
MAX_TOKEN_COUNT = 10_000_000


def completion_parts(resp: object) -> tuple[str, int, int, int | None]:
    """(text, prompt_tokens, completion_tokens, cached_tokens) of a chat completion, checked.

    The client builds its response objects without validating them, so a server's odd reply
    (an HTML page with status 200, `choices: [{}]`, content that is a number, usage that is a
    string) would surface as an AttributeError or TypeError deep inside an agent. Every such
    shape is one LLMError (cause `bad_response`) here, which the caller turns into a fallback.
    """
    if isinstance(resp, str | bytes):
        raise LLMError("bad_response", f"a non-JSON body ({redact(str(resp[:400]))[:40]!r})")
    choices = getattr(resp, "choices", None)
    if not isinstance(choices, list):
        raise LLMError("bad_response", "no choices list")
    if not choices:
        raise LLMError("empty_response")
    message = getattr(choices[0], "message", None)
    if message is None:
        raise LLMError("bad_response", "choices[0] has no message")
    text = getattr(message, "content", None)
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise LLMError("bad_response", f"message content is {type(text).__name__}, not text")
    if len(text) > MAX_REPLY_CHARS:
        raise LLMError("bad_response", f"reply of {len(text)} characters "
                       f"(at most {MAX_REPLY_CHARS})")
    # a server may echo what it was sent (the Authorization header among it): no secret gets
    # past this point, so what the agents see, record and replay is the same redacted text
    text = redact(text)
    usage = getattr(resp, "usage", None)
    if usage is None:
        return text, 0, 0, None

    def count(obj: object, name: str) -> int | None:
        v = getattr(obj, name, None) if not isinstance(obj, dict) else obj.get(name)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
                or not 0 <= v <= MAX_TOKEN_COUNT:
            raise LLMError("bad_response", f"usage.{name} is {redact(repr(v))[:80]}")
        return int(v)

    if isinstance(usage, str | int | float | list):
        raise LLMError("bad_response", f"usage is {type(usage).__name__}")
    details = getattr(usage, "prompt_tokens_details", None)
    cached = count(details, "cached_tokens") if details is not None and not isinstance(
        details, str | int | float | list) else None
    return (text, count(usage, "prompt_tokens") or 0, count(usage, "completion_tokens") or 0,
            cached)


def retry_after_s(exc: openai.APIStatusError) -> float | None:
    """The server's Retry-After (seconds form), if it sent a usable one."""
    try:
        v = float(exc.response.headers.get("retry-after", ""))
    except (ValueError, AttributeError):
        return None
    return v if math.isfinite(v) and v >= 0 else None


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


def response_format(kind: str, schema: dict | None, name: str) -> dict | None:
    """How to ask for schema-constrained JSON: vLLM takes json_schema, llama.cpp json_object."""
    if schema is None or kind == "none":
        return None
    if kind == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True}}
    return {"type": "json_object", "schema": schema}


def post_chat(client: openai.OpenAI, body: dict, stream: bool = False, raw: bool = False):
    """POST a chat-completions body through the client, as `chat.completions.create` does but
    without its request transform: our bodies are plain JSON already, and the transform walks
    every message and the schema against the SDK's typed params (about a third of the client's
    CPU per call, which bounds how many calls one process keeps in flight). Errors, timeouts
    and the response types are the client's own. `raw`: the LegacyAPIResponse (headers), as
    `with_raw_response` gives."""
    from openai import Stream
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

    options = {"headers": {"X-Stainless-Raw-Response": "true"}} if raw else {}
    if stream:
        return client.post("/chat/completions", body=body, cast_to=ChatCompletion,
                           options=options, stream=True, stream_cls=Stream[ChatCompletionChunk])
    return client.post("/chat/completions", body=body, cast_to=ChatCompletion, options=options)


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
        self._schema_rejections = 0  # 5xx answers to json_schema that json_object then served

    def _request(self, messages: list[dict], fmt: str, schema: dict | None, name: str,
                 max_tokens: int, temperature: float) -> dict:
        """The chat-completions arguments of one call (seed 0: a server that honours it
        answers the same request the same way)."""
        kwargs: dict = {"model": self.name, "messages": messages, "max_tokens": max_tokens,
                        "temperature": temperature, "seed": 0}
        rf = response_format(fmt, schema, name)
        if rf is not None:
            kwargs["response_format"] = rf
        return kwargs

    def _create(self, messages: list[dict], fmt: str, schema: dict | None, name: str,
                max_tokens: int, temperature: float):
        return post_chat(self.client,
                         self._request(messages, fmt, schema, name, max_tokens, temperature))

    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        t0 = time.perf_counter()
        fmt = self.schema_format or "json_schema"
        try:
            try:
                resp = self._create(messages, fmt, schema, schema_name, max_tokens, temperature)
                if schema is not None and self.schema_format is None:
                    with self._lock:
                        self.schema_format = fmt
            except openai.APIStatusError as exc:
                code = exc.status_code
                if self.schema_format is not None or schema is None or code < 400 or code == 429:
                    raise
                resp = self._create(messages, "json_object", schema, schema_name, max_tokens,
                                    temperature)
                # a 4xx, or a 5xx that names the format, rejects json_schema; any other 5xx
                # may be a transient fault, so json_object is kept only after a second one
                names_format = any(w in str(exc.message) for w in SCHEMA_WORDS)
                with self._lock:
                    self._schema_rejections += 1
                    if code < 500 or names_format or self._schema_rejections >= 2:
                        self.schema_format = "json_object"
        except openai.APITimeoutError as exc:
            raise LLMError("timeout", str(exc)) from None
        except openai.APIConnectionError as exc:
            raise LLMError("connection", str(exc)) from None
        except openai.APIStatusError as exc:
            raise LLMError(f"http_{exc.status_code}", redact(str(exc.message))[:200],
                           retry_after_s(exc)) from None
        except openai.OpenAIError as exc:
            raise LLMError("bad_response", redact(str(exc))[:200]) from None
        except (ValueError, TypeError, AttributeError, KeyError, RecursionError) as exc:
            # a body the client could not decode: deep JSON, 1e400, a truncated document
            raise LLMError("bad_response",
                           f"{type(exc).__name__}: {redact(str(exc))[:160]}") from None
        latency = time.perf_counter() - t0
        text, prompt_tokens, completion_tokens, cached = completion_parts(resp)
        return Completion(text, prompt_tokens, completion_tokens, cached, latency)


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


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _keyed(model: str, messages: list[dict], kw: dict) -> tuple[str, bool]:
    """(request key, whether the request held a secret): the key is the sha256 of the
    canonical request (model, messages, schema and sampling parameters), hashed redacted: a
    secret is not part of a request's identity, so a cache whose rows were written redacted
    still answers the run that recorded it (and one with another key)."""
    blob = json.dumps({"model": model, "messages": messages, **kw}, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    clean = redact(blob)
    return hashlib.sha256(clean.encode("utf-8")).hexdigest(), clean != blob


def request_key(model: str, messages: list[dict], **kw: object) -> str:
    """sha256 of the canonical request, redacted (see `_keyed`)."""
    return _keyed(model, messages, kw)[0]


def replayed(row: dict) -> Completion:
    """A cached completion, as replay returns it (redacted: a cache written before redaction
    was in place may still hold a secret)."""
    return Completion(**{**row, "text": redact(row["text"]), "source": "replay"})


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
        self.misses = 0
        self.torn_line: int | None = None  # a last line cut short by a killed recording
        self._needs_newline = False
        if self.path.exists() or self.path.is_symlink():
            self._load()

    def _load(self) -> None:
        """Read the cache, naming the line of anything that is not a recorded call."""
        p = self.path

        def bad(expected: str, found: object, line: int | None = None) -> ScenarioError:
            return ScenarioError(p, "[llm] cache", expected, found, line)

        if p.is_dir():
            raise bad("a JSON Lines file", "a directory")
        if not p.is_file():
            raise bad("a JSON Lines file", "not a regular file")
        try:
            blob = p.read_bytes()
        except OSError as exc:
            raise bad("a readable file", exc.strerror) from None
        if blob.startswith(b"\xef\xbb\xbf"):
            raise bad("JSON Lines without a byte-order mark", "a UTF-8 BOM", 1)
        lines = blob.split(b"\n")
        last = len(lines) if lines[-1] else len(lines) - 1  # the line without a newline
        self._needs_newline = bool(lines[-1])
        fields = {"text", "prompt_tokens", "completion_tokens", "cached_tokens", "latency_s"}
        for n, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
                ok = (isinstance(row, dict) and isinstance(row.get("key"), str)
                      and isinstance(row.get("completion"), dict)
                      and fields <= set(row["completion"]) <= fields | TIMING_FIELDS)
                if ok:
                    Completion(**row["completion"])
            except (UnicodeDecodeError, ValueError, RecursionError, TypeError) as exc:
                if n == last and self._needs_newline:
                    self.torn_line = n
                    print(f"warning: {p}:{n}: skipped a torn last line (a recording was cut "
                          "short)", file=sys.stderr)
                    continue
                raise bad("one recorded call per line (JSON with key and completion)",
                          f"{type(exc).__name__}: {redact(str(exc))[:80]}", n) from None
            if not ok:
                raise bad("one recorded call per line (JSON with key and completion)",
                          redact(raw[:400].decode("utf-8", "replace"))[:80], n)
            self.cache[row["key"]] = row["completion"]

    def complete(self, messages: list[dict], **kw) -> Completion:
        return self._complete(*_keyed(self.name, messages, kw), messages, kw)

    def _complete(self, key: str, secret: bool, messages: list[dict], kw: dict) -> Completion:
        """`complete` once the request's key is known (it costs a redaction to compute)."""
        hit = self.cache.get(key)
        if hit is not None:
            return replayed(hit)
        if self.replay or self.inner is None:
            with self._lock:
                self.misses += 1
            raise LLMError("replay_miss", key[:12])
        c = self.inner.complete(messages, **kw)
        request = {"messages": messages, **kw}
        row = {"key": key, "model": redact(self.name),
               "request": redact_obj(request) if secret else request,
               "completion": {k: v for k, v in asdict(c).items() if k != "source"}}
        # what the run goes on with is what the cache keeps, so a replay takes the same path
        c = dataclasses.replace(c, text=redact(c.text))
        row["completion"]["text"] = c.text
        with self._lock:
            self.cache[key] = row["completion"]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                if self._needs_newline:  # never glue a new row onto a torn one
                    fh.write("\n")
                    self._needs_newline = False
                # every part is redacted above (the request whenever it held a secret)
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        return c


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
        kwargs = self._request(messages, fmt, schema, name, max_tokens, temperature)
        if self.stream:
            kwargs.update(stream=True, stream_options={"include_usage": True})
        t0 = time.perf_counter()
        raw = post_chat(self.client, kwargs, stream=self.stream, raw=True)
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
        key, secret = _keyed(self.name, messages, kw)
        while True:
            with self._lock:
                hit = self.cache.get(key)
                flight = self._flights.get(key)
                if hit is None and flight is None:
                    self._flights[key] = threading.Event()
                    break
            if hit is not None:
                return replayed(hit)
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
            return self._complete(key, secret, messages, kw)
        finally:
            with self._lock:
                self._flights.pop(key).set()
