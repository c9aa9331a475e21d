"""What a preference kind says about itself mid-run: a status, one line and the action it asks.

These are the sim-side types of `Kind.progress` (each kind words its own progress, beside its
§7.6 test, so a new kind is one module); memory/rule_progress.py runs the tests where they are
cheap, builds a `ProgressContext` per step and re-exports `Status` and `Todo` for its importers.
Nothing here knows of memory or agents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from sim.geo import Point
from sim.official.steps import StepLog
from sim.official.timebase import DAY, drive_minutes

DUE_SLACK = 90  # minutes of slack before a daily rest or curfew must start
# minutes beyond DUE_SLACK that a dated stop's drive (K22, K23) falls due before it must start:
# a take that would lose the stop is charged its fine (`stops_lost` in memory/rule_progress.py),
# so the lead covers only the rests, searches and moves that are not
STOP_LEAD = 180


class Scope(StrEnum):
    """Where a kind's test must run to stay exact while a month stays fast."""

    DAY = "day"  # day-additive: closed days are tested once, then yesterday and today per step
    STEP = "step"  # per-step: each new step is tested once on its own
    MONTH = "month"  # month-level: the whole log is re-tested (always exact, the slowest)


class Status(StrEnum):
    OK = "ok"
    DUE = "due"  # act now (or soon) to keep it
    AT_RISK = "at risk"  # can still be kept, but the time left is short
    VIOLATED = "violated"  # a fine is already incurred


@dataclass(frozen=True)
class Todo:
    """What a due rule asks for now: wait `minutes`, go to (lat, lng), or take `cargo_id`."""

    action: str  # "wait" | "go" | "take"
    reason: str
    minutes: int = 0
    lat: float = 0.0
    lng: float = 0.0
    at_stake: float = float("inf")  # the fines this action avoids (a planner prices them)
    cost: float = 0.0  # what following it forgoes: the time's earnings, km and other fines
    cargo_id: str = ""  # the cargo a "take" asks for (a promised cargo, K19)
    # no take's what-if is charged `at_stake`: a whole sequence's fine (a family event's
    # pickup, an itinerary's dwell), kept by the stops to come, or a point to reach (a dated
    # stop, a box), which a take and a rest where the driver stands miss alike
    takes_uncharged: bool = False


Progress = tuple[Status, str, Todo | None]


def hm(minutes: float) -> str:
    """4h05 (the progress lines' duration format)."""
    m = round(minutes)
    return f"{m // 60}h{m % 60:02d}"


@dataclass(frozen=True)
class ProgressContext:
    """The run as a kind's `progress` sees it at one instant.

    `tail(day)` is the step log from the start of `day - 1` on (plus the step before, for
    positions): enough for today's rest runs, takes and active minutes without re-reading the
    month. `any_steps` is False before the first step.
    """

    now: int
    position: Point | None
    horizon: int  # H in minutes
    speed_kmh: float
    tail: Callable[[int], StepLog]
    any_steps: bool

    @property
    def today(self) -> int:
        return self.now // DAY

    @property
    def left_today(self) -> int:
        return DAY - self.now % DAY

    @property
    def days_left(self) -> int:
        """Days of the horizon from today on, today included."""
        return max(0, self.horizon // DAY - self.today)

    def near(self, lat: float, lng: float, radius_km: float) -> bool:
        return self.position is not None and self.position.km_to(lat, lng) <= radius_km

    def go_minutes(self, lat: float, lng: float) -> int:
        """Drive minutes from the position to the point (0 when the position is unknown)."""
        if self.position is None:
            return 0
        return drive_minutes(self.position.km_to(lat, lng), self.speed_kmh)

    def resting_run(self) -> int:
        """Minutes of the rest run ending now today (waits back to back), per the step model."""
        for a, b in self.tail(self.today).day_rest(self.today):
            if b == self.now:
                return b - a
        return 0


__all__ = ["DUE_SLACK", "STOP_LEAD", "Progress", "ProgressContext", "Scope", "Status", "Todo",
           "hm"]
