"""Validity windows of preference objects (§7.3).

A preference's `start_time`/`end_time` (both inclusive, second resolution) become the half-open
minute window W = [start_min, end_min + 1). In the scorer a missing bound defaults to 0 or
31*1440; an unparseable bound is treated as missing (the scorer cannot read it either).
Interpretation: for a horizon longer than 31 days (the 92-day round) the missing end defaults to
the horizon instead, otherwise every month-2 rule without an end bound would be void.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.official.timebase import DAY, wall_to_minutes

DEFAULT_END = 31 * DAY


def overlaps(a: int, b: int, c: int, e: int) -> bool:
    """[a,b) and [c,e) overlap iff max(a,c) < min(b,e); touching intervals do not."""
    return max(a, c) < min(b, e)


@dataclass(frozen=True, slots=True)
class Window:
    start: int
    end: int

    @classmethod
    def from_bounds(cls, start_time: object, end_time: object, *, n_days: int = 31) -> Window:
        return cls(_bound(start_time, 0, 0),
                   _bound(end_time, max(DEFAULT_END, n_days * DAY), 1))

    def overlaps(self, a: int, b: int) -> bool:
        return overlaps(a, b, self.start, self.end)

    def covers_day(self, day: int) -> bool:
        return overlaps(DAY * day, DAY * day + DAY, self.start, self.end)


EVERYTHING = Window(-(10**12), 10**12)


def _bound(value: object, default: int, plus: int) -> int:
    if not isinstance(value, str):
        return default
    try:
        return wall_to_minutes(value) + plus
    except ValueError:
        return default
