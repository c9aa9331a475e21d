"""What every kind's drawer shares: the seeded draw context, the result a drawer returns, the
place tables the draws pick from, and the fine a drawn rule carries.

Generated drivers need preferences that exercise the same kinds the real competition files do,
with realistic numbers. Each kind draws its own typed params in its own module (`Kind.draw`);
the helpers here keep every random choice on the caller's numpy Generator, in a fixed order, so
a seed always draws the same drivers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from sim.geo import PREFECTURES_ZH, County, great_circle_km, load_counties
from sim.official.penalties import PenaltyModel
from sim.preferences.kinds.params import Params


@cache
def counties() -> tuple[County, ...]:
    return tuple(load_counties())


@dataclass(frozen=True)
class Listed:
    """The cargo a market lists on one day (created that day), as columns: a must-take rule
    names one of them, so the id exists and lists inside the rule's window."""

    ids: Sequence[str]
    lat: np.ndarray  # origin
    lng: np.ndarray
    online_minutes: np.ndarray  # remove - create
    listed_minute: np.ndarray  # create, in minutes from the start of its day (fractional)


class CargoMarket(Protocol):
    """The scenario's market by listing day (sim.world.cargo_listings reads it)."""

    def listed_on(self, day: dt.date) -> Listed: ...


@dataclass(frozen=True)
class DrawContext:
    """One rule's draw: the seeded generator, the driver's home, the horizon and the language."""

    rng: np.random.Generator
    home: tuple[float, float]
    start: dt.date
    days: int
    lang: str  # "zh" | "en": the language the text will be written in
    cargo_ids: Sequence[str] | None = None  # cargo a must-take rule may name (no times known)
    market: CargoMarket | None = None  # the scenario's market: a must-take rule names its cargo

    def pick(self, seq: Sequence[Any]) -> Any:
        return seq[int(self.rng.integers(len(seq)))]

    def step(self, lo: float, hi: float, step: float) -> float:
        """A multiple of `step` in [lo, hi], uniformly."""
        k = int(self.rng.integers(round((hi - lo) / step) + 1))
        return round(lo + k * step, 6)

    def day(self, lo: int = 0, hi_excl: int | None = None) -> dt.date:
        hi = self.days if hi_excl is None else hi_excl
        return self.start + dt.timedelta(days=int(self.rng.integers(lo, max(lo + 1, hi))))

    def near_county(self, max_km: float = 120.0, min_km: float = 0.0) -> County:
        lat, lng = self.home
        near = [c for c in counties()
                if min_km <= great_circle_km(lat, lng, c.lat, c.lng) <= max_km]
        return self.pick(near or counties())

    def other_prefecture(self) -> str:
        """A prefecture (English key) that is not the one the driver lives in."""
        lat, lng = self.home
        home_city = min(counties(), key=lambda c: great_circle_km(lat, lng, c.lat, c.lng)).city_en
        return self.pick([k for k in PREFECTURES_ZH if k != home_city])

    def place(self) -> tuple[str, str, str]:
        """(param, zh text name, en text name) of another prefecture. The param is the Chinese
        name as written in a Chinese text (with or without 市), the short one for an English
        text."""
        en = self.other_prefecture()
        zh = PREFECTURES_ZH[en] + ("市" if self.lang == "zh" and self.rng.random() < 0.3 else "")
        return zh, zh, en


def clock(minutes: int) -> str:
    """'HH:MM' of a minute of the day (wrapping past midnight)."""
    minutes %= 1440
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def wall_at(day: dt.date, minutes: int) -> str:
    """'YYYY-MM-DD HH:MM:SS' of `minutes` after the start of `day`."""
    t = dt.datetime.combine(day, dt.time()) + dt.timedelta(minutes=minutes)
    return t.strftime("%Y-%m-%d %H:%M:%S")


P = TypeVar("P", bound=Params)


@dataclass(frozen=True)
class Drawn(Generic[P]):
    """A drawer's result: the kind's typed params and the words its text templates fill in
    (text-only facts such as a county's name, besides the params' own values)."""

    params: P
    words: dict[str, Any]
    # the validity window (first, last day) when the draw fixes it itself (a must-take rule:
    # from its cargo's listing day); None: the kind's `draw_window`
    window: tuple[dt.date, dt.date] | None = None
    # the minute of the first day the window opens at (a must-take rule: its cargo's listing,
    # as in the competition's data); None: midnight
    opens_minute: int | None = None


def draw_amounts(ctx: DrawContext, model: PenaltyModel) -> tuple[float, float | None]:
    """(A, C) by penalty model: per day/order/step 50-300 yuan, per km 1-5, one-shot
    500-3000 (C = A as in all known data, sometimes null), per-minute events 500-3000 extra."""
    if model is PenaltyModel.COUNT:
        a = ctx.step(50, 300, 10)
        return a, None if ctx.rng.random() < 0.3 else a * float(ctx.pick([5, 10, 15, 20, 30]))
    if model is PenaltyModel.KM:
        a = ctx.step(1, 5, 0.5)
        return a, None if ctx.rng.random() < 0.4 else ctx.step(1000, 5000, 500)
    if model in (PenaltyModel.ONCE, PenaltyModel.MUST_TAKE, PenaltyModel.FLAT):
        a = ctx.step(500, 3000, 100)
        return a, a if ctx.rng.random() < 0.7 else None
    if model in (PenaltyModel.EXTRA, PenaltyModel.SHORT):
        return ctx.step(50, 300, 10), None
    a = ctx.step(500, 3000, 100)
    return a, None if ctx.rng.random() < 0.5 else ctx.step(2000, 6000, 500)
