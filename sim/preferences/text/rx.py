"""Regular expressions for the text parser, compiled once and kept for the process.

The kinds' recognisers and the shared extractors use several hundred literal patterns per
text. `re`'s own cache holds 512 patterns for the whole process, so a parse evicted its own
patterns and recompiled most of them for every text: 37.7 ms a text on the eval set against
2.5 ms with every pattern kept (`data/preference_eval.jsonl`, 240 texts, one run). The set
of patterns is fixed by the code (about a thousand), so an unbounded cache is bounded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator


@functools.cache
def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).search(text)


def match(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).match(text)


def fullmatch(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return compile(pattern, flags).fullmatch(text)


def findall(pattern: str, text: str, flags: int = 0) -> list:
    return compile(pattern, flags).findall(text)


def finditer(pattern: str, text: str, flags: int = 0) -> Iterator[re.Match[str]]:
    return compile(pattern, flags).finditer(text)


def sub(pattern: str, repl, text: str, count: int = 0, flags: int = 0) -> str:
    return compile(pattern, flags).sub(repl, text, count)


def split(pattern: str, text: str, maxsplit: int = 0, flags: int = 0) -> list:
    return compile(pattern, flags).split(text, maxsplit)
