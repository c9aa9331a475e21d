"""A kind's typed params: a frozen dataclass whose type hints drive `from_dict` (through the
one typed-value reader, sim/typed_values.py), `to_dict` and the JSON schema, so a kind declares
its fields once (docs/competition.md §7.5) and parsers, validators and the schema cannot drift.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from sim.typed_values import (
    FORMATS,
    Fmt,
    Range,
    TypedValueError,
    convert,
)


class ParamsError(ValueError):
    """A params dict does not match its kind's schema; the message names the field."""


Lat = Annotated[float, Range(-90, 90)]
Lng = Annotated[float, Range(-180, 180)]
Km = Annotated[float, Range(0, None)]
Count = Annotated[int, Range(0, None)]
Minutes = Annotated[int, Range(0, None)]


def json_schema_of(tp: Any) -> dict:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        out = json_schema_of(inner)
        for m in marks:
            if isinstance(m, Fmt):
                out["pattern"] = FORMATS[m][0]
            if isinstance(m, Range):
                if m.lo is not None:
                    out["minimum"] = m.lo
                if m.hi is not None:
                    out["maximum"] = m.hi
        return out
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return {"anyOf": [json_schema_of(args[0]), {"type": "null"}]}
    if origin is Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin is list:
        return {"type": "array", "items": json_schema_of(typing.get_args(tp)[0])}
    if isinstance(tp, type) and issubclass(tp, Params):
        return tp.json_schema()
    return {"type": {bool: "boolean", int: "integer", float: "number", str: "string"}[tp]}


@dataclass(frozen=True)
class Params:
    """Base of every params dataclass: dict round trip and schema from the type hints."""

    # a nested object's type name in the text parsers' params table (sim/preferences/schema.py)
    tag: ClassVar[str | None] = None

    @classmethod
    def from_dict(cls, data: dict, *, where: str | None = None) -> Params:
        where = where or cls.__qualname__
        if not isinstance(data, dict):
            raise ParamsError(f"{where}: expected an object, got {data!r}")
        hints = typing.get_type_hints(cls, include_extras=True)
        names = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(data) - names)
        if extra:
            raise ParamsError(f"{where}.{extra[0]}: unknown field")
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is dataclasses.MISSING:
                    raise ParamsError(f"{where}.{f.name}: missing")
                continue
            try:
                kwargs[f.name] = convert(data[f.name], hints[f.name], f"{where}.{f.name}")
            except TypedValueError as e:
                raise ParamsError(str(e)) from None
        obj = cls(**kwargs)
        obj.check(where)
        return obj

    def check(self, where: str) -> None:
        """Cross-field checks; subclasses raise ParamsError naming the field."""

    def to_dict(self) -> dict:
        def plain(v: Any) -> Any:
            if isinstance(v, Params):
                return v.to_dict()
            if isinstance(v, tuple):
                return [plain(x) for x in v]
            return v
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def json_schema(cls) -> dict:
        hints = typing.get_type_hints(cls, include_extras=True)
        fields = dataclasses.fields(cls)
        return {
            "type": "object",
            "properties": {f.name: json_schema_of(hints[f.name]) for f in fields},
            "required": [f.name for f in fields if f.default is dataclasses.MISSING],
            "additionalProperties": False,
        }
