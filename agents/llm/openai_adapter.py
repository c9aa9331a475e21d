"""The OpenAI-compatible provider: the adapter over the `openai` client and its factory, the
stack `[llm] backend = "openai"` (or "llm") runs.

The adapter is handed an `openai.OpenAI` client, so the same code talks to vLLM, llama.cpp's
server or any other OpenAI-compatible endpoint; it checks every reply's shape and redacts its
text as it arrives. agents/llm/providers.py imports this module only when a scenario names the
provider.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time

import openai

from agents.llm.language_model import Completion, LanguageModel, LLMError
from agents.llm.resilience import DeadlineModel
from sim.redact import add_secret_from_env, redact

SCHEMA_FORMATS = ("json_schema", "json_object", "none")
SCHEMA_WORDS = ("json_schema", "json_object", "response_format")


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


def from_config(llm_cfg) -> LanguageModel:
    """The provider's model for a scenario's [llm] table: a client for its server (key from its
    env var, retries left to RetryModel), the adapter that also times queue wait, first token
    and decode (streamed when `[llm] stream`), and a wall-clock deadline per request."""
    # registered with the redactor before the first request: nothing written quotes it
    key = add_secret_from_env(llm_cfg.api_key_env) or "sk-no-key"
    client = openai.OpenAI(base_url=llm_cfg.base_url, api_key=key, timeout=llm_cfg.timeout_s,
                           max_retries=0)
    timed = TimedOpenAIModel(client, llm_cfg.model, llm_cfg.response_format, llm_cfg.stream)
    return DeadlineModel(timed, llm_cfg.timeout_s)
