"""One agent call: prompt, backend, validation, one repair retry, fallback, and accounting.

With the `deterministic` backend the agent's own policy answers, and the prompt it would have
been sent is still counted with the real tokenizer, so token figures mean the same in both.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from agents.llm.language_model import LanguageModel, LLMError
from agents.llm.prompts import Prompt, inputs_text
from agents.llm.providers import DETERMINISTIC
from sim.redact import redact

T = TypeVar("T")
Counter = Callable[[str], int]  # a tokenizer's count of a text


class Renderable(Protocol):
    """What an agent is shown: text for a model, and its token count (which a view may sum
    from running totals instead of counting its text again)."""

    def render(self) -> str: ...

    def tokens(self, counter: Counter) -> int: ...


# called with each call before it is answered: (context, prompt, view, inputs), to observe
CallHook = Callable[["CallContext", Prompt, "Renderable | str", "dict | None"], None]


class InvalidOutputError(ValueError):
    """The reply parsed but breaks the schema or the world (an unseen id, say)."""


@dataclass(frozen=True, slots=True)
class CallContext:
    driver_id: str
    step: int
    t: float
    mode: str


@dataclass(slots=True)
class CallRecord:
    driver_id: str
    step: int
    t: float
    agent: str
    memory_mode: str
    backend: str
    prompt_version: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None
    latency_s: float
    outcome: str  # deterministic | ok | repaired | fallback
    cause: str | None
    calls: int  # requests sent to a model (0 for deterministic, 2 after a repair)
    # where the server spent latency_s, summed over the requests (None: the server did not say)
    queue_s: float | None = None
    ttft_s: float | None = None
    decode_s: float | None = None


class LineCounts:
    """A tokenizer's count of a text, summed line by line with each distinct line counted once.

    Qwen's pre-tokenizer never joins text across a single newline (a line's pieces end at or
    before its newline), so a text's count is the sum of its lines' counts; a run's prompts
    repeat most lines from step to step (rule states, candidates, sections). Texts where the
    split could join pieces (a blank line, a carriage return) are counted whole. At most
    `limit` lines are kept; then the memo starts again (counts never depend on it)."""

    def __init__(self, counter: Counter, limit: int = 1 << 17) -> None:
        self.counter, self.limit = counter, limit
        self.memo: dict[str, int] = {}

    def _sum(self, lines: Iterable[str]) -> int | None:
        """Each line's count with its newline, summed, each distinct line counted once; None
        when a line not counted yet breaks the rule above (empty, or holding a newline or a
        carriage return), so the text must be counted whole."""
        memo, counter = self.memo, self.counter
        if len(memo) > self.limit:
            memo.clear()
        total = 0
        for line in lines:
            n = memo.get(line)
            if n is None:
                if not line or "\r" in line or "\n" in line:
                    return None
                n = memo[line] = counter(line + "\n")
            total += n
        return total

    def lines(self, lines: Iterable[str]) -> int:
        """The count of the text the lines make, each ended by a newline, without joining
        them (a view's sections); counted whole when a line breaks the rule above."""
        lines = list(lines)
        total = self._sum(lines)
        return self.counter("".join(x + "\n" for x in lines)) if total is None else total

    def __call__(self, text: str) -> int:
        if "\r" in text or "\n\n" in text or text.startswith("\n"):
            return self.counter(text)
        lines = text.split("\n")
        last = lines.pop()
        total = self._sum(lines)
        assert total is not None  # no empty line, none with a carriage return (checked above)
        memo, counter = self.memo, self.counter
        if last:  # the end without a newline (kept apart from the lines that have one)
            key = "\n" + last
            n = memo.get(key)
            if n is None:
                n = memo[key] = counter(last)
            total += n
        return total


class AgentCaller:
    def __init__(self, backend: str, model: LanguageModel | None, counter: Counter,
                 sink: Callable[[CallRecord], None], max_tokens: int = 256,
                 temperature: float = 0.0,
                 on_fallback: Callable[[CallContext, str, str], None] | None = None,
                 hooks: Sequence[CallHook] = ()) -> None:
        self.backend, self.model, self.sink = backend, model, sink
        # callers that share a LineCounts (a run's drivers) share its memo
        self.counter = counter if isinstance(counter, LineCounts) else LineCounts(counter)
        self.max_tokens, self.temperature = max_tokens, temperature
        self.on_fallback = on_fallback
        self.hooks = hooks  # read at each call: observers may join before the run starts
        self._system_tokens: dict[str, int] = {}
        self.last: CallRecord | None = None  # the record of the latest call, for callers

    def _record(self, r: CallRecord) -> None:
        self.last = r
        self.sink(r)

    def system_tokens(self, p: Prompt) -> int:
        n = self._system_tokens.get(p.version)
        if n is None:
            n = self._system_tokens[p.version] = self.counter(p.system)
        return n

    def call(self, prompt: Prompt, view: Renderable | str, inputs: dict | None,
             ctx: CallContext, deterministic: Callable[[], dict],
             validate: Callable[[dict], T]) -> T:
        for hook in self.hooks:
            hook(ctx, prompt, view, inputs)
        if self.backend == DETERMINISTIC or self.model is None:
            t0 = time.perf_counter()
            out = deterministic()
            value = validate(out)
            latency = time.perf_counter() - t0
            body = self.counter(view) if isinstance(view, str) else view.tokens(self.counter)
            prompt_tokens = (self.system_tokens(prompt) + body
                             + self.counter(inputs_text(inputs)))
            completion = self.counter(json.dumps(out, ensure_ascii=False, sort_keys=True))
            self._record(CallRecord(ctx.driver_id, ctx.step, ctx.t, prompt.agent, ctx.mode,
                                    DETERMINISTIC, prompt.version, prompt_tokens, completion,
                                    None, latency, DETERMINISTIC, None, 0))
            return value
        return self._call_model(prompt, view, inputs, ctx, deterministic, validate)

    def _call_model(self, prompt: Prompt, view: Renderable | str, inputs: dict | None,
                    ctx: CallContext, deterministic: Callable[[], dict],
                    validate: Callable[[dict], T]) -> T:
        assert self.model is not None
        text = view if isinstance(view, str) else view.render()
        messages = prompt.messages(text, inputs)
        kw: dict[str, Any] = {"schema": prompt.schema, "schema_name": prompt.agent,
                              "max_tokens": self.max_tokens, "temperature": self.temperature}
        totals = [0, 0, 0, 0.0, 0]  # prompt, completion, cached, latency, calls
        cached_seen = False
        timing: dict[str, float] = {}  # queue_s, ttft_s, decode_s the server reported

        def ask(msgs: list[dict]) -> str:
            nonlocal cached_seen
            c = self.model.complete(msgs, **kw)
            totals[0] += c.prompt_tokens
            totals[1] += c.completion_tokens
            if c.cached_tokens is not None:
                totals[2] += c.cached_tokens
                cached_seen = True
            totals[3] += c.latency_s
            totals[4] += 1
            for k in ("queue_s", "ttft_s", "decode_s"):
                v = getattr(c, k, None)
                if v is not None:
                    timing[k] = timing.get(k, 0.0) + v
            return c.text

        outcome, cause = "ok", None
        value: T | None = None
        try:
            reply = ask(messages)
            try:
                value = validate(checked_reply(reply, prompt.schema))
            except (InvalidOutputError, ValueError, KeyError, TypeError, OverflowError) as exc:
                cause = f"invalid: {redact(str(exc))[:160]}"
                repair = [*messages, {"role": "assistant", "content": reply[:MAX_ECHO_CHARS]},
                          {"role": "user", "content": f"That answer was not valid ({exc}). "
                           "Answer again with JSON that matches the schema."}]
                reply = ask(repair)
                value = validate(checked_reply(reply, prompt.schema))
                outcome = "repaired"
        except LLMError as exc:
            outcome, cause = "fallback", exc.cause
        except (InvalidOutputError, ValueError, KeyError, TypeError, OverflowError) as exc:
            outcome, cause = "fallback", f"invalid after repair: {redact(str(exc))[:160]}"
        if cause is not None:  # it may quote the reply or the server's error
            cause = redact(cause)
        if outcome == "fallback":
            value = validate(deterministic())
            if self.on_fallback is not None:
                self.on_fallback(ctx, prompt.agent, cause or "")
        self._record(CallRecord(ctx.driver_id, ctx.step, ctx.t, prompt.agent, ctx.mode, "llm",
                             prompt.version, totals[0], totals[1],
                             totals[2] if cached_seen else None, totals[3], outcome, cause,
                             totals[4], **timing))
        return value  # type: ignore[return-value]


def _parse(reply: str) -> dict:
    text = reply.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    if _depth(text) > MAX_DEPTH:
        raise InvalidOutputError(f"JSON nested deeper than {MAX_DEPTH} levels")
    out = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    if not isinstance(out, dict):
        raise InvalidOutputError("expected a JSON object")
    return out


MAX_ECHO_CHARS = 2000  # a bad reply echoed back in the repair request, at most this long
MAX_DEPTH = 8  # agent schemas nest two levels; deeper JSON is not an answer
MAX_TEXT = 240  # a reason, plan or digest bullet longer than this is cut
MAX_ITEMS = 50
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


def _reject_constant(name: str) -> float:
    raise InvalidOutputError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise InvalidOutputError(f"number {text[:20]} is out of range")
    return v


def _depth(text: str) -> int:
    """Deepest bracket nesting outside strings, without building anything (so no recursion)."""
    depth = deepest = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def clean_text(s: str, limit: int = MAX_TEXT) -> str:
    """Model text that later prompts will carry: one line, no control characters, bounded,
    so a reply cannot open a new prompt section or grow every later prompt."""
    s = _CONTROL.sub(" ", s).replace("##", "#").strip()
    return s if len(s) <= limit else s[:limit - 1] + "…"


def _clean(v: object) -> object:
    if isinstance(v, str):
        return clean_text(v)
    if isinstance(v, list):
        if len(v) > MAX_ITEMS:
            raise InvalidOutputError(f"a list of {len(v)} items (at most {MAX_ITEMS})")
        return [_clean(x) for x in v]
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    return v


def checked_reply(reply: str, schema: dict | None) -> dict:
    """The reply as a JSON object that the agents' validators can trust not to be hostile:
    finite numbers only (NaN passes min/max clamps), bounded nesting, no keys the schema
    forbids, strings cleaned and bounded."""
    out = _parse(reply)
    if schema is not None and schema.get("additionalProperties") is False:
        extra = sorted(set(out) - set(schema.get("properties", {})))
        if extra:
            raise InvalidOutputError(f"keys the schema does not allow: {extra[:5]}")
    return _clean(out)  # type: ignore[return-value]
