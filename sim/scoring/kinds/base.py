"""What every preference kind shares: typed params, the rule context and the Kind base class.

Params are frozen dataclasses whose type hints drive `from_dict`, `to_dict` and the JSON schema,
so a kind declares its fields once (docs/competition.md §7.5) and parsers, validators and the schema
enum cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import types
import typing
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from sim.scoring.progress import Progress, ProgressContext, Scope, Status
from sim.spec.penalties import (
    PenaltyModel,
    p_count,
    p_event,
    p_extra,
    p_km,
    p_must_take,
    p_once,
    p_short,
)
from sim.spec.steps import Pos, Step, StepLog
from sim.spec.timebase import DAY
from sim.spec.versions import VersionSettings
from sim.spec.windows import EVERYTHING, Window

if TYPE_CHECKING:
    from sim.preftext.common import Candidate
    from sim.preftext.extract import Facts
    from sim.scoring.kinds.drawing import DrawContext, Drawn
    from sim.scoring.kinds.wording import FinePer


class ParamsError(ValueError):
    """A params dict does not match its kind's schema; the message names the field."""


class Fmt(StrEnum):
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
Lat = Annotated[float, Range(-90, 90)]
Lng = Annotated[float, Range(-180, 180)]
Km = Annotated[float, Range(0, None)]
Count = Annotated[int, Range(0, None)]
Minutes = Annotated[int, Range(0, None)]

_PATTERNS = {
    Fmt.HHMM: (r"^([01]\d|2[0-3]):[0-5]\d$", "a time 'HH:MM'"),
    Fmt.DATE: (r"^\d{4}-\d{2}-\d{2}$", "a date 'YYYY-MM-DD'"),
    Fmt.MONTH: (r"^\d{4}-(0[1-9]|1[0-2])$", "a month 'YYYY-MM'"),
    Fmt.WALL: (r"^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$",
               "a wall time 'YYYY-MM-DD HH:MM:SS'"),
}


def _convert(value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        out = _convert(value, inner, where)
        for m in marks:
            if isinstance(m, Fmt) and not re.match(_PATTERNS[m][0], out):
                raise ParamsError(f"{where}: expected {_PATTERNS[m][1]}, got {value!r}")
            if isinstance(m, Range) and ((m.lo is not None and out < m.lo)
                                         or (m.hi is not None and out > m.hi)):
                raise ParamsError(f"{where}: expected a value in [{m.lo}, {m.hi}], got {value!r}")
        return out
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _convert(value, args[0], where)
    if origin is Literal:
        if value not in typing.get_args(tp):
            raise ParamsError(f"{where}: expected one of {list(typing.get_args(tp))}, "
                              f"got {value!r}")
        return value
    if origin is list:
        (item,) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ParamsError(f"{where}: expected a list, got {value!r}")
        return tuple(_convert(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(tp, type) and issubclass(tp, Params):
        if not isinstance(value, dict):
            raise ParamsError(f"{where}: expected an object, got {value!r}")
        return tp.from_dict(value, where=where)
    if tp is bool:
        if not isinstance(value, bool):
            raise ParamsError(f"{where}: expected true/false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            raise ParamsError(f"{where}: expected an integer, got {value!r}")
        return int(value)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ParamsError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str) or not value.strip():
            raise ParamsError(f"{where}: expected a non-empty string, got {value!r}")
        return value.strip()
    raise TypeError(f"unsupported params type {tp!r} at {where}")


def _schema(tp: Any) -> dict:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        inner, *marks = typing.get_args(tp)
        out = _schema(inner)
        for m in marks:
            if isinstance(m, Fmt):
                out["pattern"] = _PATTERNS[m][0]
            if isinstance(m, Range):
                if m.lo is not None:
                    out["minimum"] = m.lo
                if m.hi is not None:
                    out["maximum"] = m.hi
        return out
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return {"anyOf": [_schema(args[0]), {"type": "null"}]}
    if origin is Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin is list:
        return {"type": "array", "items": _schema(typing.get_args(tp)[0])}
    if isinstance(tp, type) and issubclass(tp, Params):
        return tp.json_schema()
    return {"type": {bool: "boolean", int: "integer", float: "number", str: "string"}[tp]}


@dataclass(frozen=True)
class Params:
    """Base of every params dataclass: dict round trip and schema from the type hints."""

    # a nested object's type name in the text parsers' params table (sim/preftext/types.py)
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
            kwargs[f.name] = _convert(data[f.name], hints[f.name], f"{where}.{f.name}")
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
            "properties": {f.name: _schema(hints[f.name]) for f in fields},
            "required": [f.name for f in fields if f.default is dataclasses.MISSING],
            "additionalProperties": False,
        }


@dataclass(frozen=True)
class RuleContext:
    """What a kind needs besides the steps: version, horizon, the rule's window, start position."""

    settings: VersionSettings
    n_days: int  # N, the run's simulation_duration_days
    kind: str
    window: Window = EVERYTHING  # the preference's validity window (§7.3)
    initial: Pos | None = None  # the driver's start position (for K4 on an empty log)

    @property
    def horizon(self) -> int:
        """H in minutes (§6)."""
        return self.settings.horizon_days(self.n_days) * DAY

    @property
    def window_applied(self) -> bool:
        return self.settings.window_applies(self.kind)

    @property
    def whole_log(self) -> bool:
        return self.kind in self.settings.whole_log_kinds

    @property
    def days(self) -> list[int]:
        """D restricted to in-window days where this version applies the window."""
        d = range(self.horizon // DAY)
        if self.whole_log or not self.window_applied:
            return list(d)
        return [x for x in d if self.window.covers_day(x)]

    def step_in_scope(self, step: Step) -> bool:
        """An order/step kind counts a step iff it starts before H and overlaps W (§7.3)."""
        if self.whole_log:
            return True
        if step.action_start >= self.horizon:
            return False
        return not self.window_applied or self.window.overlaps(step.action_start, step.action_end)

    def in_window(self, a: int, b: int) -> bool:
        return not self.window_applied or self.window.overlaps(a, b)


Counters = dict[str, Any]


class Kind(ABC):
    """One preference kind, everything about it in one class: params, the §7.6 test
    (`violations`), its penalty model, the agent's hint, the free-text recogniser
    (`recognise`) and, for generated drivers, its drawer (`draw`) and its Chinese and English
    text templates (`zh`, `en`). The registry discovers the class from its kNN_*.py module, so
    adding a kind is adding one module; the parser, the schema enum, the scorer and the drivers'
    draw follow from the registry.
    """

    name: ClassVar[str]
    number: ClassVar[int]
    family: ClassVar[str]
    model: ClassVar[PenaltyModel]
    Params: ClassVar[type[Params]]
    # the kind's wording (docs/competition.md §8, and English): a text read as this kind with none
    # of it is reported ambiguous, not trusted (sim/preftext/reading.py); "" checks nothing
    signals: ClassVar[str] = ""
    # where the progress re-runs the test each step (MONTH, the whole log, is always exact)
    scope: ClassVar[Scope] = Scope.MONTH
    # judged once at the end of the period: the penalty before then is a forecast, not a fine
    judged_at_end: ClassVar[bool] = False

    def __init__(self, params: Params) -> None:
        if not isinstance(params, self.Params):
            raise TypeError(f"{self.name} needs {self.Params.__name__}, got {type(params)}")
        self.params = params

    @classmethod
    def from_dict(cls, data: dict) -> Kind:
        return cls(cls.Params.from_dict(data, where=cls.name))

    @property
    def label(self) -> str:
        return f"K{self.number} {self.name}"

    @property
    def penalty_model(self) -> PenaltyModel:
        return self.model

    @abstractmethod
    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        """The exact test of §7.6; the counters feed `penalty` and the report."""

    def penalty(self, counters: Counters, amount: float, cap: float | None, ctx: RuleContext,
                *, zero_cap_uncapped: bool | None = None) -> float:
        s, m = ctx.settings, self.penalty_model
        exempt = self.name in s.cap_exempt_kinds
        if m is PenaltyModel.COUNT:
            return p_count(counters["violations"], amount, cap, s, exempt=exempt,
                           zero_cap_uncapped=zero_cap_uncapped)
        if m is PenaltyModel.KM:
            return p_km(counters["over_km"], amount, cap, s, exempt=exempt,
                        zero_cap_uncapped=zero_cap_uncapped)
        if m is PenaltyModel.ONCE:
            return p_once(counters["failed"], amount, cap, s)
        if m is PenaltyModel.SHORT:
            return p_short(counters["missing"], amount)
        if m is PenaltyModel.EXTRA:
            return p_extra(counters["extra"], amount)
        if m is PenaltyModel.MUST_TAKE:
            return p_must_take(counters["failed"], amount, cap)
        if m is PenaltyModel.FLAT:
            return amount if counters["failed"] else 0.0
        if m is PenaltyModel.EVENT:
            return p_event(counters["absence_minutes"], counters["rate_per_minute"],
                           counters["failed"], amount, cap)
        raise AssertionError(m)

    @classmethod
    @abstractmethod
    def hint(cls, params: Params) -> str:
        """One English sentence telling an agent what the rule asks."""

    @staticmethod
    def recognise(f: Facts) -> Candidate | None:
        """This kind's reading of a free-text preference, scored, or None when the text is not
        about it. `f` holds what the shared extractors (sim/preftext/extract.py) found once for
        every kind; the score counts the kind's keyword groups (sim/preftext/common.py) minus
        the cues pointing at a neighbouring kind, and the parser keeps the best candidate that
        validates at or above its MIN_SCORE. The default: no text form."""
        return None

    # -- progress mid-run (memory/rule_progress.py) ----------------------------------------
    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        """Status, one line of what is kept/due/at risk, and the one action a due rule asks
        for, from this rule's counters and penalty so far (`penalty` is a forecast for kinds
        `judged_at_end`). The default: the hint and the fines so far."""
        status, fined = self.fined(penalty)
        return status, f"{self.hint(self.params)}{fined}", None

    def fined(self, penalty: float) -> tuple[Status, str]:
        """(VIOLATED, ", fined N so far") once a fine is incurred, else (OK, "")."""
        if penalty > 0 and not self.judged_at_end:
            return Status.VIOLATED, f", fined {penalty:,.0f} so far"
        return Status.OK, ""

    def times_broken(self, counters: Counters, penalty: float) -> Progress:
        """The line of a rule broken step by step: the hint and how often it was broken."""
        status, fined = self.fined(penalty)
        n = counters.get("violations", 0)
        return status, f"{self.hint(self.params)} Broken {n} times{fined}", None

    def settled_after(self) -> int:
        """The minute after which no step can change this rule's counters (the what-if skips
        later takes); never, by default."""
        return 10**12

    # -- generated drivers (sim/preference_draw.py) ----------------------------------------
    # what a per-count fine is charged for in a drawn text; "" where the model has no unit
    fine_per: ClassVar[FinePer] = ""

    def drawn_fine_per(self) -> FinePer:
        """The unit a drawn text names for this rule's count fine (may depend on the params)."""
        return self.fine_per

    @classmethod
    def draw_window(cls, ctx: DrawContext) -> tuple[dt.date, dt.date]:
        """The drawn rule's validity window, first and last day (both whole): the horizon."""
        return ctx.start, ctx.start + dt.timedelta(days=ctx.days - 1)

    @classmethod
    @abstractmethod
    def draw(cls, ctx: DrawContext) -> Drawn:
        """Realistic params for a generated driver, every random choice from `ctx.rng` (in a
        fixed order: seeded drivers files must stay as they are), and the words the templates
        fill in."""

    @staticmethod
    @abstractmethod
    def zh(words: dict[str, Any]) -> list[str]:
        """Chinese texts of a drawn rule, one per template; the drawer's words fill them."""

    @staticmethod
    @abstractmethod
    def en(words: dict[str, Any]) -> list[str]:
        """English texts of a drawn rule, one per template."""
