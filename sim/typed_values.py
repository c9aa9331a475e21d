"""Typed values from plain data (a TOML table, a JSON object, a model's reply).

One reader for every place that turns a dataclass's type hints into checked values (scenario
tables, preference kinds' params and the parsers' structured forms), so what one accepts, all
accept: numbers are finite, whole numbers may be written 3.0, strings are not blank and come back
stripped, dates, months, clock and wall times are real calendar values.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

MAX_LIST = 1000  # longer lists in a scenario or a preference are a mistake, not data


class Fmt(StrEnum):
    """A string with a format of its own."""

    HHMM = "hhmm"
    DATE = "date"
    MONTH = "month"
    WALL = "wall"


@dataclass(frozen=True)
class Range:
    lo: float | None = None
    hi: float | None = None


HHMM = Annotated[str, Fmt.HHMM]
Date = Annotated[str, Fmt.DATE]
Month = Annotated[str, Fmt.MONTH]
Wall = Annotated[str, Fmt.WALL]


def _calendar(fmt: str) -> typing.Callable[[str], bool]:
    def ok(text: str) -> bool:
        try:
            datetime.strptime(text, fmt)
        except ValueError:
            return False
        return True
    return ok


# format -> (the regex a JSON schema states, a calendar check, what an error says is expected)
FORMATS: dict[Fmt, tuple[str, typing.Callable[[str], bool], str]] = {
    Fmt.HHMM: (r"^([01]\d|2[0-3]):[0-5]\d$", _calendar("%H:%M"), "a time 'HH:MM'"),
    Fmt.DATE: (r"^\d{4}-\d{2}-\d{2}$", lambda s: _is_date(s), "a date 'YYYY-MM-DD'"),
    Fmt.MONTH: (r"^\d{4}-(0[1-9]|1[0-2])$", _calendar("%Y-%m"), "a month 'YYYY-MM'"),
    Fmt.WALL: (r"^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$",
               _calendar("%Y-%m-%d %H:%M:%S"), "a wall time 'YYYY-MM-DD HH:MM:SS'"),
}


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


class TypedValueError(ValueError):
    """One value that does not fit its type: where it is, what was expected, what was found."""

    def __init__(self, where: str, expected: str, found: object) -> None:
        super().__init__(f"{where}: expected {expected}, got {found!r}")
        self.where, self.expected, self.found = where, expected, found


def describe(tp: Any) -> str:
    """What a value of this type looks like, as an error message says it."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        fmt = next((m for m in marks if isinstance(m, Fmt)), None)
        return FORMATS[fmt][2] if fmt is not None else describe(inner)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(describe(a) for a in typing.get_args(tp) if a is not type(None))
    if origin is Literal:
        return f"one of {list(typing.get_args(tp))}"
    if origin is list:
        return "a list"
    if origin is tuple:
        args = typing.get_args(tp)
        if _is_table(tp):
            return "a table of name = weight"
        if args == (float, float):
            return "a list of two numbers [start, end]"
        return "a list of numbers"
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return "an object"
    return {int: "an integer", float: "a number", str: "a non-empty string",
            bool: "true or false"}.get(tp, str(tp))


def _is_table(tp: Any) -> bool:
    """tuple[tuple[str, X], ...]: a TOML table read as ordered (name, value) pairs."""
    args = typing.get_args(tp)
    return (len(args) == 2 and args[1] is Ellipsis
            and typing.get_origin(args[0]) is tuple and typing.get_args(args[0])[0] is str)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypedValueError(where, "a number", value)
    if not math.isfinite(value):
        raise TypedValueError(where, "a finite number", value)
    return value


def convert(value: Any, tp: Any, where: str) -> Any:
    """`value` checked against the type hint `tp`: lists come back as tuples, a nested dataclass
    through its own `from_dict(value, where=...)`; anything else raises TypedValueError."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        out = convert(value, inner, where)
        for m in marks:
            if isinstance(m, Fmt):
                pattern, ok, expected = FORMATS[m]
                if not (re.match(pattern, out) and ok(out)):
                    raise TypedValueError(where, expected, value)
            if isinstance(m, Range) and ((m.lo is not None and out < m.lo)
                                         or (m.hi is not None and out > m.hi)):
                raise TypedValueError(where, f"a value in [{m.lo}, {m.hi}]", value)
        return out
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        inner = next(a for a in typing.get_args(tp) if a is not type(None))
        return convert(value, inner, where)
    if origin is Literal:
        if value not in typing.get_args(tp):
            raise TypedValueError(where, describe(tp), value)
        return value
    if origin is list:
        (item,) = typing.get_args(tp)
        if not isinstance(value, list) or len(value) > MAX_LIST:
            raise TypedValueError(where, describe(tp), value)
        return tuple(convert(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is tuple:
        return _tuple(value, tp, where)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise TypedValueError(where, "an object", value)
        return tp.from_dict(value, where=where)  # type: ignore[attr-defined]
    if tp is bool:
        if not isinstance(value, bool):
            raise TypedValueError(where, "true or false", value)
        return value
    if tp is int:
        ok = (isinstance(value, int | float) and not isinstance(value, bool)
              and math.isfinite(value) and value == int(value))
        if not ok:
            raise TypedValueError(where, "an integer", value)
        return int(value)
    if tp is float:
        return float(_number(value, where))
    if tp is str:
        if not isinstance(value, str) or not value.strip():
            raise TypedValueError(where, "a non-empty string", value)
        if "\x00" in value:
            raise TypedValueError(where, "a string without NUL characters", value)
        return value.strip()
    raise TypeError(f"unsupported type {tp!r} at {where}")


def _tuple(value: Any, tp: Any, where: str) -> tuple:
    """A table of name = value pairs, or a list of numbers (fixed length or `...`)."""
    args = typing.get_args(tp)
    if _is_table(tp):
        if not isinstance(value, dict) or len(value) > MAX_LIST:
            raise TypedValueError(where, describe(tp), value)
        item = typing.get_args(args[0])[1]
        try:
            return tuple((str(k), convert(v, item, where)) for k, v in value.items())
        except TypedValueError:
            raise TypedValueError(where, describe(tp), value) from None
    fixed = args[-1] is not Ellipsis
    if not isinstance(value, list) or len(value) > MAX_LIST or (fixed and len(value) != len(args)):
        raise TypedValueError(where, describe(tp) + " (finite)", value)
    try:
        return tuple(convert(v, args[i] if fixed else args[0], where) for i, v in enumerate(value))
    except TypedValueError:
        raise TypedValueError(where, describe(tp) + " (finite)", value) from None
