"""Free-text preferences (Chinese and English) to the agreed structured form of the 24 kinds.

`parse_preference(text)` is the rules parser; `validate(obj)` checks any other parser's output
(the model's) against the same schema. sim-side: imports nothing from memory or agents.

What lives here is only what the kinds share: `extract` (numbers, clocks, dates, places... read
once into `Facts`), `common` (keyword groups, `hit`/`span` helpers and the `Candidate` record),
`types` (the structured form and its validation), `parser` (runs every registered kind's
`recognise`), `evidence` (what establishes each kind in a text) and `reading` (the best reading
with its confidence). A kind's own text patterns live in its class, sim/preferences/kinds/kNN_*.py.

The names below load lazily: the kind modules import `extract` and `common`, and the parser
imports the kinds registry, so an eager import here would make the two packages import each
other half-initialised.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"candidates": "parser", "parse_preference": "parser", "KINDS": "types",
            "SCHEMA": "types", "InvalidPreferenceError": "types", "ParsedPreference": "types",
            "same": "types", "validate": "types", "read_preference": "reading",
            "Reading": "reading", "Status": "reading"}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


__all__ = [
    "KINDS",
    "SCHEMA",
    "InvalidPreferenceError",
    "ParsedPreference",
    "Reading",
    "Status",
    "candidates",
    "parse_preference",
    "read_preference",
    "same",
    "validate",
]
