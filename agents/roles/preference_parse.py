"""The model parser: asks a language model for the agreed structured form of a preference.

It speaks the same schema as the text parser (sim.preferences.text), is validated by the same
`validate`, and is compared with the text parser's result: when both read a text and disagree, the
caller gets a `Disagreement` to report, rather than one reading silently winning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from agents.llm.language_model import LanguageModel, LLMError
from sim.preferences.kinds import preference_schema
from sim.preferences.schema import SCHEMA as PARAMS
from sim.preferences.schema import InvalidPreferenceError, ParsedPreference, same, validate
from sim.preferences.text.reading import parse_preference

# The kind enum is the scoring registry's (preference_schema), plus "unparsed". The rest keeps
# the strict shape servers' json_schema mode needs (every key required, nothing extra), so
# recorded requests replay byte for byte.
SCHEMA: dict = {
    "type": "object",
    "properties": {
        "kind": {"type": "string",
                 "enum": [*preference_schema()["properties"]["kind"]["enum"], "unparsed"]},
        "params": {"type": "object"},
        "penalty_amount": {"type": ["number", "null"]},
        "penalty_cap": {"type": ["number", "null"]},
    },
    "required": ["kind", "params", "penalty_amount", "penalty_cap"],
    "additionalProperties": False,
}

SYSTEM = """You convert one truck driver's preference (Chinese or English) into JSON:
{"kind": <one of the kinds>, "params": {...}, "penalty_amount": number|null,
 "penalty_cap": number|null}. Use "unparsed" when the text states no rule.
Times "HH:MM" (24 h), dates "YYYY-MM-DD" (year 2026 unless written), months "YYYY-MM",
wall times "YYYY-MM-DD HH:MM:SS", coordinates in degrees, radii in km (default 1.0 for
home/visit/home-stay, 2.0 for dated itineraries). Places are the Chinese city/district name
(English names translated, e.g. Shenzhen -> 深圳). penalty_amount/penalty_cap only when the
text states them (无月度封顶/上不封顶 -> null cap). Params per kind:
""" + "\n".join(f"- {k}: " + ", ".join(f"{p}:{t}" for p, t in v.items())
                for k, v in PARAMS.items())


@dataclass(frozen=True)
class ModelParse:
    """What the model made of a text: a validated preference, or why there is none."""

    preference: ParsedPreference | None
    error: str | None = None


@dataclass(frozen=True)
class Disagreement:
    """Both parsers read the text and gave different structured forms."""

    text: str
    parser: ParsedPreference  # the text parser's reading (sim.preferences.text)
    model: ParsedPreference
    field: Literal["kind", "params", "penalty"]


@dataclass(frozen=True)
class ChosenReading:
    """The chosen reading of one text, who produced it, and any disagreement to report."""

    preference: ParsedPreference | None
    parsed_by: Literal["parser", "model", "none"]  # the text parser, the model or neither
    disagreement: Disagreement | None = None
    model_error: str | None = None


def parse_with_model(model: LanguageModel, text: str, max_tokens: int = 600) -> ModelParse:
    """One schema-constrained call; a reply that does not validate is an error, not a crash."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
    try:
        reply = model.complete(messages, schema=SCHEMA, schema_name="preference",
                               max_tokens=max_tokens, temperature=0.0)
    except LLMError as exc:
        return ModelParse(None, f"llm:{exc.cause}")
    try:
        obj = json.loads(reply.text)
    except json.JSONDecodeError as exc:
        return ModelParse(None, f"json:{exc.msg}")
    if isinstance(obj, dict) and obj.get("kind") == "unparsed":
        return ModelParse(None, "unparsed")
    try:
        return ModelParse(validate(obj))
    except InvalidPreferenceError as exc:
        return ModelParse(None, f"schema:{exc}")


def compare(text: str, parsed: ParsedPreference, model: ParsedPreference
            ) -> Disagreement | None:
    if parsed.kind != model.kind:
        return Disagreement(text, parsed, model, "kind")
    if not same(parsed.params, model.params):
        return Disagreement(text, parsed, model, "params")
    if not same([parsed.penalty_amount, parsed.penalty_cap],
                [model.penalty_amount, model.penalty_cap]):
        return Disagreement(text, parsed, model, "penalty")
    return None


def choose_reading(text: str, model: LanguageModel | None = None) -> ChosenReading:
    """The text parser first (deterministic, free); the model fills in what the parser cannot
    read and is checked against it where both answer. The parser's reading wins a
    disagreement."""
    parsed = parse_preference(text)
    if model is None:
        return ChosenReading(parsed, "parser" if parsed else "none")
    m = parse_with_model(model, text)
    if parsed is not None and m.preference is not None:
        return ChosenReading(parsed, "parser", compare(text, parsed, m.preference), m.error)
    if parsed is not None:
        return ChosenReading(parsed, "parser", None, m.error)
    if m.preference is not None:
        return ChosenReading(m.preference, "model", None, None)
    return ChosenReading(None, "none", None, m.error)
