"""Bench reports written before the renames, read under today's names.

Memory mode `rules` is now `bounded` (`rules-filtered`: `bounded-filtered`), the LLM
backend `rules` is `deterministic`, and a competition report's ruleset key `rules` is
`ruleset`. A baseline or report.json from before carries the old names as keys (`modes`, each
per-mode table under `quality`, the `<a>_vs_<b>` ratio pairs) and as values (`backend`);
`current_report` renames them so the regression check compares each mode with itself instead
of skipping it as new. Only names change: every figure is kept as it was.
"""

from __future__ import annotations

from typing import Any

from agents.llm import providers
from memory import modes


def _mode(name: str) -> str:
    return modes.RENAMED.get(name, name)


def _pair(key: str) -> str:
    """`compressed_vs_rules` -> `compressed_vs_bounded`."""
    return "_vs_".join(_mode(m) for m in key.split("_vs_"))


def _by_mode(table: Any) -> Any:
    return {_mode(k): v for k, v in table.items()} if isinstance(table, dict) else table


def current_report(report: dict) -> dict:
    """A copy of a bench report (shared-world or competition) under today's names; a report
    already under them comes back equal."""
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key == "rules" and isinstance(value, str):  # the ruleset: generator | competition
            out["ruleset"] = value
        elif key == "backend" and isinstance(value, str):
            out[key] = providers.RENAMED.get(value, value)
        elif key == "modes":
            out[key] = _by_mode(value)
        elif key == "ratios" and isinstance(value, dict):
            out[key] = {_pair(k): v for k, v in value.items()}
        elif key == "quality" and isinstance(value, dict):
            out[key] = _quality(value)
        else:
            out[key] = value
    return out


def _quality(q: dict) -> dict:
    return {k: _model(v) if k == "model" and isinstance(v, dict) else _by_mode(v)
            for k, v in q.items()}


def _model(m: dict) -> dict:
    """The model figures (agents/app/evaluate.py model_quality): QA by mode, agreement pairs."""
    out = dict(m)
    if isinstance(m.get("qa"), dict):
        out["qa"] = _by_mode(m["qa"])
    if isinstance(m.get("decision_agreement"), dict):
        out["decision_agreement"] = {_pair(k): v for k, v in m["decision_agreement"].items()}
    return out
