"""The structured form every parser (rules or model) produces, and its validation.

One frozen record for every way of reading a preference, so the rules parser, the model parser
and the CLI compare and print the same thing (schema: docs/competition.md §7.5).
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from sim.preferences.kinds import REGISTRY, kind_names
from sim.preferences.kinds.params import Params
from sim.typed_values import Fmt

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


_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_WALL = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

# Param name -> type tag. "f" float, "i" int, "s" str, "t" HH:MM, "d" date, "m" month, "w" wall
# time, "enum:a|b", "[t]" a list of t, a nested object's own tag (its spec in _OBJECTS; "stops" a
# list of "stop"); "?" at the end: may be null. Generated from each kind's Params type hints, so
# a new kind's params are parsed and validated with no edit here (the same table is printed in
# the model parser's prompt: agents/roles/preference_parse.py).
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


def _num(v: Any, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise InvalidPreferenceError(f"{where}: a number, got {v!r}")
    return float(v)


def _value(tag: str, v: Any, where: str) -> Any:
    optional = tag.endswith("?")
    tag = tag.rstrip("?")
    if v is None:
        if optional:
            return None
        raise InvalidPreferenceError(f"{where}: required")
    if tag == "f":
        return _num(v, where)
    if tag == "i":
        x = _num(v, where)
        if x != int(x):
            raise InvalidPreferenceError(f"{where}: a whole number, got {v!r}")
        return int(x)
    if tag.startswith("enum:"):
        if v not in tag[5:].split("|"):
            raise InvalidPreferenceError(f"{where}: one of {tag[5:]}, got {v!r}")
        return v
    pats = {"t": _HHMM, "d": _DATE, "m": _MONTH, "w": _WALL}
    if tag in pats or tag == "s":
        if not isinstance(v, str) or not v.strip() or (tag in pats and not pats[tag].match(v)):
            raise InvalidPreferenceError(f"{where}: a {tag!r} string, got {v!r}")
        return v
    if tag.startswith("["):
        if not isinstance(v, list) or not v:
            raise InvalidPreferenceError(f"{where}: a non-empty list, got {v!r}")
        return [_value(tag[1:-1], x, f"{where}[{i}]") for i, x in enumerate(v)]
    if tag in _OBJECTS:
        return _object(_OBJECTS[tag], v, where)
    if tag in _LISTS:
        if not isinstance(v, list) or not v:
            raise InvalidPreferenceError(f"{where}: a non-empty list of {tag}")
        return [_object(_OBJECTS[_LISTS[tag]], x, f"{where}[{i}]") for i, x in enumerate(v)]
    raise AssertionError(tag)


def _object(spec: dict[str, str], v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise InvalidPreferenceError(f"{where}: an object, got {v!r}")
    extra = set(v) - set(spec)
    if extra:
        raise InvalidPreferenceError(f"{where}: unknown keys {sorted(extra)}")
    return {k: _value(t, v.get(k), f"{where}.{k}") for k, t in spec.items()}


def validate(obj: Any) -> ParsedPreference:
    """A ParsedPreference from a JSON-like dict (a model's reply), or InvalidPreferenceError."""
    if not isinstance(obj, dict):
        raise InvalidPreferenceError("not an object")
    kind = obj.get("kind")
    if kind not in SCHEMA:
        raise InvalidPreferenceError(f"kind: one of the 24 kinds, got {kind!r}")
    params = _object(SCHEMA[kind], obj.get("params") or {}, "params")
    if kind == "date_region_avoid" and params["bbox"] is None and params["place"] is None:
        raise InvalidPreferenceError("params: date_region_avoid needs a bbox or a place")
    amount, cap = obj.get("penalty_amount"), obj.get("penalty_cap")
    return ParsedPreference(
        kind, params,
        None if amount is None else _num(amount, "penalty_amount"),
        None if cap is None else _num(cap, "penalty_cap"))


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
