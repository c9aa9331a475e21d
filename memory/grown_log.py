"""Step logs that share their derived figures, so a what-if re-reads only the steps it adds.

A decision tests each rule on the log so far plus a few hypothetical steps, dozens of times a
step (takes, rests, drives). `KeptLog` is the log so far (or its tail) kept for the whole step:
it works out each day's active minutes and rest once. `GrownLog` is such a log plus a few steps:
each figure is the kept log's, continued over the new steps in log order, which is what the
plain `StepLog` computes over all of them (minutes are whole numbers, the lists keep log order,
and `merge` sorts what it joins). The kinds' tests run unchanged on either.

A logged step's positions are `KeptPos`: the kinds that measure every step against a point
(visits, dwells, family events) then find each distance worked out already.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cached_property

from sim.geo import Point
from sim.official.cargo_index import CargoRecord
from sim.official.steps import Interval, Step, StepLog, Take, clip, merge
from sim.official.timebase import DAY


class KeptLog(StepLog):
    """A log a whole decision step reads many times: its per-day figures are kept. Every
    take in it must find its cargo (then no later registration can change a figure)."""

    @cached_property
    def _days(self) -> dict[tuple[str, int], object]:
        return {}

    def active_minutes(self, day: int) -> int:
        key = ("active", day)
        got = self._days.get(key)
        if got is None:
            got = self._days[key] = super().active_minutes(day)
        return got  # type: ignore[return-value]

    def rest_clipped(self, day: int) -> list[Interval]:
        """The rest intervals clipped to calendar day `day`, before merging (`day_rest`)."""
        key = ("rest", day)
        got = self._days.get(key)
        if got is None:
            got = self._days[key] = clip(self.rest_intervals, DAY * day, DAY * day + DAY)
        return got  # type: ignore[return-value]

    def day_rest(self, day: int) -> list[Interval]:
        return merge(self.rest_clipped(day))

    def active_overlaps(self, lo: int, hi: int) -> bool:
        key = ("overlaps", lo, hi)
        got = self._days.get(key)
        if got is None:
            got = self._days[key] = super().active_overlaps(lo, hi)
        return bool(got)

    def extended(self, extra: Sequence[Step]) -> KeptLog:
        """This log with `extra` logged after it (every take in them finding its cargo), its
        derived lists and the figures of days the new steps cannot reach carried over: the
        log of the next step without re-reading the month. Each list is what the plain
        `StepLog` builds over all the steps (they keep log order, so the old one's list then
        the new steps' list)."""
        out = KeptLog(self.steps + tuple(extra), self.cargo)
        new = StepLog(tuple(extra), self.cargo)
        known = self.__dict__
        for name in _DERIVED:
            if name in known:
                out.__dict__[name] = known[name] + getattr(new, name)
        # a new step's rest and active intervals start at or after its step_start
        first = min((s.step_start for s in extra), default=None)
        days = out._days
        for key, value in self._days.items():
            if first is None:
                days[key] = value
            elif key[0] == "overlaps":
                if value or key[2] <= first:  # found already, or ends before any new step
                    days[key] = value
            elif DAY * key[1] + DAY <= first:  # the day closed before any new step
                days[key] = value
        return out


_DERIVED = ("rest_intervals", "active_steps", "active_intervals", "takes")


class GrownLog(StepLog):
    """A `KeptLog` with a few steps after it (build with `grow`)."""

    base: KeptLog
    new: StepLog

    @classmethod
    def grow(cls, base: KeptLog, extra: Sequence[Step], cargo: dict[str, CargoRecord]
             ) -> GrownLog:
        out = cls(base.steps + tuple(extra), cargo)
        out.__dict__["base"] = base
        out.__dict__["new"] = StepLog(tuple(extra), cargo)
        return out

    def grown_from(self) -> tuple[StepLog, StepLog]:
        return self.base, self.new

    @cached_property
    def rest_intervals(self) -> list[Interval]:  # type: ignore[override]
        return self.base.rest_intervals + self.new.rest_intervals

    @cached_property
    def active_steps(self) -> list[Step]:  # type: ignore[override]
        return self.base.active_steps + self.new.active_steps

    @cached_property
    def active_intervals(self) -> list[Interval]:  # type: ignore[override]
        return self.base.active_intervals + self.new.active_intervals

    @cached_property
    def takes(self) -> list[Take]:  # type: ignore[override]
        return self.base.takes + self.new.takes

    @cached_property
    def _new_span(self) -> tuple[int, int]:
        """The minutes the new steps' active intervals reach: a day outside it is the base's."""
        got = self.new.active_intervals
        return (min(a for a, _ in got), max(b for _, b in got)) if got else (0, 0)

    def active_minutes(self, day: int) -> int:
        total = self.base.active_minutes(day)
        lo = DAY * day
        a0, b0 = self._new_span
        if b0 <= lo or a0 >= lo + DAY:  # nothing new reaches the day: clip keeps nothing
            return total
        for a, b in clip(self.new.active_intervals, lo, lo + DAY):
            total += b - a
        return total

    def active_overlaps(self, lo: int, hi: int) -> bool:
        return self.base.active_overlaps(lo, hi) or self.new.active_overlaps(lo, hi)

    def day_rest(self, day: int) -> list[Interval]:
        return merge(self.base.rest_clipped(day)
                     + clip(self.new.rest_intervals, DAY * day, DAY * day + DAY))


class KeptPos(Point):
    """A logged position that keeps its distances to the points asked (the same float the
    plain `Point.km_to` gives: it is that call, made once per point)."""

    __slots__ = ("_km",)

    def km_to(self, lat: float, lng: float) -> float:
        try:
            known = self._km
        except AttributeError:
            known = {}
            object.__setattr__(self, "_km", known)
        key = (lat, lng)
        got = known.get(key)
        if got is None:
            got = known[key] = Point.km_to(self, lat, lng)
        return got


def kept_positions(step: Step, prev: Step | None) -> Step:
    """`step` with `KeptPos` positions; its start shares the previous step's end when they
    are the same point (a position's distances then serve both steps)."""
    def kept(p: Point) -> KeptPos:
        return p if isinstance(p, KeptPos) else KeptPos(p.lat, p.lng)
    before = (prev.after if prev is not None and prev.after.lat == step.before.lat
              and prev.after.lng == step.before.lng else kept(step.before))
    after = (before if step.after.lat == step.before.lat and step.after.lng == step.before.lng
             else kept(step.after))
    return dataclasses.replace(step, before=before, after=after)
