"""The one redactor every writer of freightsim calls: no API key reaches a file or the console.

Run directories, record/replay caches and lesson stores get zipped and attached to bug reports,
so a secret in any of them is a leaked secret. A secret can arrive from anywhere: a server that
echoes the request's Authorization header into its reply or an error body, a scenario file
with a key in a URL or a preference text, an exception message. Rather than trusting each
source, every text that is written passes through `redact` (or `redact_obj`, `redact_columns`
for Parquet batches), which replaces

- each secret registered with `add_secret` (the configured API key: the model layer registers
  it when it reads the key), in its plain and JSON-escaped spellings;
- any `Bearer <token>`, whatever the token;
- any `sk-`-style key (`sk-` and at least 16 more key characters);
- the password of a URL (`scheme://user:password@host`) and the value of an `api_key=` or
  `access_token:` pair,

with `[REDACTED]`. The replacement never contains a quote or a backslash, so JSON text stays
JSON. It lives in sim/ so that sim's own writers (events, summaries, action logs) can call it
without importing the layers above.

It is cheap on text without secrets: a few substring tests decide whether the patterns run at
all, which keeps it off the per-event cost of a run.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6  # a shorter "key" ("x", "EMPTY") is a placeholder, not a secret
PLACEHOLDER_KEYS = frozenset({"sk-no-key", "EMPTY", "none", "local"})
# environment variables whose values are API keys by convention, registered on first use
KEY_ENV_VARS = ("FREIGHTSIM_API_KEY", "OPENAI_API_KEY")

_TOKEN = r"[A-Za-z0-9._~+/=-]"
_PATTERN = re.compile(
    rf"(?P<auth>\b(?i:bearer)\s+){_TOKEN}{{6,}}"
    r"|(?P<sk>\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,})"
    r"|(?P<url>://[^/\s:@\"'<>]+:)[^/\s@\"'<>]+@"
    rf"|(?P<pair>(?i:\b(?:x-)?(?:api[_-]?key|access[_-]?token)\b)[\"']?\s*[:=]\s*[\"']?)"
    rf"(?!\[REDACTED\]){_TOKEN}{{8,}}")
# substrings of the lower-cased text without which _PATTERN cannot match: the cheap test
_TRIGGERS = ("sk-", "bearer", "://", "api_key", "api-key", "apikey", "access_token",
             "access-token", "accesstoken")

_lock = threading.Lock()
_secrets: tuple[str, ...] = ()  # every spelling of every registered secret, longest first
_env_checked: set[str] = set()


def _spellings(value: str) -> set[str]:
    return {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}


def add_secret(value: str | None) -> None:
    """Register a secret (an API key) that no written text may contain from now on."""
    global _secrets
    if not value or len(value) < MIN_SECRET_CHARS or value in PLACEHOLDER_KEYS:
        return
    with _lock:
        if value in _secrets:
            return
        _secrets = tuple(sorted(set(_secrets) | _spellings(value), key=len, reverse=True))


def add_secret_from_env(name: str | None) -> str:
    """Register the value of environment variable `name` (if set); returns the value."""
    if not name:
        return ""
    value = os.environ.get(name, "")
    add_secret(value)
    _env_checked.add(name)
    return value


def registered() -> tuple[str, ...]:
    """The spellings currently redacted (for tests and diagnostics, never for writing)."""
    _check_default_env()
    return _secrets


def forget_secrets() -> None:
    """Drop every registered secret (tests that register throwaway keys clean up with this)."""
    global _secrets
    with _lock:
        _secrets = ()
        _env_checked.clear()


def _check_default_env() -> None:
    for name in KEY_ENV_VARS:
        if name not in _env_checked:
            add_secret_from_env(name)


def _sub(m: re.Match) -> str:
    prefix = m.group("auth") or m.group("url") or m.group("pair") or ""
    return f"{prefix}{REDACTED}" + ("@" if m.group("url") else "")


def redact(text: str) -> str:
    """`text` without any secret (see the module docstring); the same object when it has none."""
    if not text:
        return text
    _check_default_env()
    for s in _secrets:
        if s in text:
            text = text.replace(s, REDACTED)
    low = text.lower()
    if any(t in low for t in _TRIGGERS):
        text = _PATTERN.sub(_sub, text)
    return text


def contains_secret(text: str) -> bool:
    return redact(text) != text


def redact_obj(obj: Any) -> Any:
    """A JSON-like value with every string (keys included) redacted; others unchanged."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, Mapping):
        return {redact_obj(k): redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [redact_obj(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(redact_obj(v) for v in obj)
    return obj


def redact_column(values: list) -> list:
    """A column of a batch (strings or None) redacted; the same list when nothing matched.

    The test runs once over the column joined, so a batch without secrets costs one join."""
    strings = [v for v in values if isinstance(v, str)]
    if not strings or redact("\x00".join(strings)) == "\x00".join(strings):
        return values
    return [redact(v) if isinstance(v, str) else v for v in values]


def redact_columns(cols: dict[str, list], names: Iterable[str]) -> dict[str, list]:
    """The named (string) columns of a column-buffer dict redacted, in place; returns it."""
    for n in names:
        cols[n] = redact_column(cols[n])
    return cols


class RedactingStream:
    """A text stream wrapper whose writes are redacted (sys.stdout / sys.stderr of the CLI)."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, s: str) -> int:
        self._inner.write(redact(s))
        return len(s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextmanager
def console_redacted() -> Iterator[None]:
    """Within the block, the process's stdout and stderr go through the redactor."""
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, RedactingStream):
        sys.stdout = RedactingStream(sys.stdout)  # type: ignore[assignment]
    if not isinstance(sys.stderr, RedactingStream):
        sys.stderr = RedactingStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
