"""Record/replay: answers from a JSON Lines cache keyed by request hash, recording what it had to
ask, so a recorded run replays without a server and with the same accounting."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import threading
from dataclasses import asdict
from pathlib import Path

from agents.llm.language_model import TIMING_FIELDS, Completion, LanguageModel, LLMError
from sim.redact import redact, redact_obj
from sim.scenario import ScenarioError


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
