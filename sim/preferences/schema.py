"""The structured form every parser (rules or model) produces, and its validation.

One frozen record for every way of reading a preference, so the text parser, the model parser
and the CLI compare and print the same thing (schema: docs/competition.md §7.5).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from sim.preferences.kinds import REGISTRY, kind_names
from sim.preferences.kinds.params import Params, ParamsError
from sim.typed_values import Fmt, TypedValueError, convert

# the kind names are the scoring registry's (one list; a test checks SCHEMA covers exactly them)
KINDS: tuple[str, ...] = tuple(kind_names())


class InvalidPreferenceError(ValueError):
    """A structured form that does not fit the agreed schema (kind or params)."""


@dataclass(frozen=True)
class ParsedPreference:
    """A preference in the agreed structured form. `params` is never mutated after creation."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    penalty_amount: float | None = None
    penalty_cap: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": self.params,
                "penalty_amount": self.penalty_amount, "penalty_cap": self.penalty_cap}


# Param name -> type tag, the table the model parser's prompt prints
# (agents/roles/preference_parse.py). "f" float, "i" int, "s" str, "t" HH:MM, "d" date, "m"
# month, "w" wall time, "enum:a|b", "[t]" a list of t, a nested object's own tag (its spec in
# _OBJECTS; "stops" a list of "stop"); "?" at the end: may be null. Generated from each kind's
# Params type hints, so a new kind needs no edit here; values are checked by `validate`.
_FMT_TAGS = {Fmt.HHMM: "t", Fmt.DATE: "d", Fmt.MONTH: "m", Fmt.WALL: "w"}
_OBJECTS: dict[str, dict[str, str]] = {}
_LISTS: dict[str, str] = {}  # tag of a list of objects -> the object's tag


def _tag(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        fmt = next((m for m in marks if isinstance(m, Fmt)), None)
        return _FMT_TAGS[fmt] if fmt is not None else _tag(inner)
    if origin in (types.UnionType, typing.Union):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return _tag(inner) + "?"
    if origin is Literal:
        return "enum:" + "|".join(typing.get_args(tp))
    if origin is list:
        (item,) = typing.get_args(tp)
        inner = _tag(item)
        if inner in _OBJECTS:
            _LISTS[inner + "s"] = inner
            return inner + "s"
        return f"[{inner}]"
    if isinstance(tp, type) and issubclass(tp, Params):
        if tp.tag is None:
            raise TypeError(f"{tp.__qualname__} needs a `tag` to be nested in params")
        _OBJECTS[tp.tag] = _spec(tp)
        return tp.tag
    return {float: "f", int: "i", str: "s"}[tp]


def _spec(cls: type[Params]) -> dict[str, str]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return {f.name: _tag(hints[f.name]) for f in dataclasses.fields(cls)}


SCHEMA: dict[str, dict[str, str]] = {name: _spec(kind.Params) for name, kind in REGISTRY.items()}


def _fine(v: Any, where: str) -> float | None:
    if v is None:
        return None
    try:
        return convert(v, float, where)
    except TypedValueError as e:
        raise InvalidPreferenceError(str(e)) from None


def validate(obj: Any) -> ParsedPreference:
    """A ParsedPreference from a JSON-like dict (a model's reply), or InvalidPreferenceError. The
    params are read by the kind's own Params (the one typed-value reader, cross-field checks
    included), so what the scorer accepts and what a parser may hand it cannot differ."""
    if not isinstance(obj, dict):
        raise InvalidPreferenceError("not an object")
    kind = obj.get("kind")
    if kind not in SCHEMA:
        raise InvalidPreferenceError(f"kind: one of the 24 kinds, got {kind!r}")
    try:
        params = REGISTRY[kind].Params.from_dict(obj.get("params") or {}, where="params")
    except ParamsError as e:
        raise InvalidPreferenceError(str(e)) from None
    return ParsedPreference(kind, params.to_dict(),
                            _fine(obj.get("penalty_amount"), "penalty_amount"),
                            _fine(obj.get("penalty_cap"), "penalty_cap"))


def same(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Structural equality with a float tolerance (how the eval and disagreement compare)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b, strict=True))
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return abs(float(a) - float(b)) <= tol
    return a == b
