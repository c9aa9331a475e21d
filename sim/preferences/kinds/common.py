"""Small helpers several kinds share (daily clock windows, dwell runs, progress lines)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from sim.official.cargo_index import CargoRecord
from sim.official.steps import ActionKind, Step
from sim.official.timebase import DAY, date_to_day, hhmm_to_minutes
from sim.preferences.kinds.base import Counters, Kind
from sim.preferences.progress import (
    DUE_SLACK,
    STOP_LEAD,
    Progress,
    ProgressContext,
    Status,
    Todo,
    hm,
)


def daily_window(day: int, start: str, end: str) -> tuple[int, int]:
    """W_d = [1440d + start, 1440d + end), the end moved a day on when end <= start (wraps)."""
    a, b = hhmm_to_minutes(start), hhmm_to_minutes(end)
    if b <= a:
        b += DAY
    return DAY * day + a, DAY * day + b


def dwell_after(steps: Iterable[Step], arrival: int, day_end: int, near) -> int:
    """K22's dwell: longest run of consecutive waits ending near the point (exec only).

    Among the steps with step_end > arrival and step_start < day_end; a non-wait step or a wait
    ending away from the point resets the run; scan minutes neither add nor break.
    """
    best = run = 0
    for s in steps:
        if not (s.step_end > arrival and s.step_start < day_end):
            continue
        if s.action is ActionKind.WAIT and near(s.after):
            run += s.exec
            best = max(best, run)
        else:
            run = 0
    return best


class WindowKind(Kind):
    """A kind judged on a clock window each day (K2 rest through it, K3 no work in it): its
    progress and the rests that keep it both follow from `window(day)`."""

    # what the window asks, as the progress line says it
    doing: ClassVar[str] = ""

    def window(self, day: int) -> tuple[int, int]:
        raise NotImplementedError

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        """Inside yesterday's or today's window, wait to its end; else say when the next one
        starts."""
        status, fined = self.fined(penalty)
        p: Any = self.params
        for d in (ctx.today - 1, ctx.today):
            a, b = self.window(d)
            if a <= ctx.now < b:
                return (Status.DUE, f"{self.doing} now until {hm(b % DAY)}{fined}",
                        Todo("wait", f"{self.name} window", minutes=b - ctx.now))
        a, _ = self.window(ctx.today)
        return (status, f"window {p.start}-{p.end}; starts in {hm(max(0, a - ctx.now))}{fined}",
                None)

    def rest_ends(self, ctx: ProgressContext, ahead: int = DAY // 2) -> tuple[int, ...]:
        """To the end of the window the driver is in, or of the next one starting within
        `ahead` minutes (a rest begun before a night window keeps it too)."""
        return tuple(b for d in (ctx.today - 1, ctx.today, ctx.today + 1)
                     for a, b in [self.window(d)] if b > ctx.now and a - ctx.now <= ahead)


class DatedStopKind(Kind):
    """A kind judged by arrivals at stops on one dated day (K22, K23); its params carry
    `date`."""

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        # steps ending before the day: the log before them ends earlier still, so neither
        # log reaches the day and both fail at the first arrival alike
        s = DAY * date_to_day(self.params.date)
        return all(x.step_end < s for x in steps)

    def settled_after(self) -> int:
        """Steps starting after the day are outside every arrival and dwell test."""
        return (date_to_day(self.params.date) + 1) * DAY

    def lost_unseen(self) -> bool:
        return True

    @abstractmethod
    def next_stop(self, counters: Counters) -> tuple[float, float, int] | None:
        """(lat, lng, the minute it must be reached by) of the stop to keep next; None when
        the rule is kept."""

    def drive_due(self, ctx: ProgressContext, counters: Counters) -> int | None:
        """The minute the drive to the next stop falls due: its time, less the drive, less
        DUE_SLACK and STOP_LEAD. Not the evening before (failure class "a stop reached the
        evening before"): a take that would lose the stop is charged its fine
        (`RuleProgress.stops_lost`) and a wait is cut short at this minute
        (`RuleProgress.stop_due_in`). None when the rule is kept."""
        nxt = self.next_stop(counters)
        if nxt is None:
            return None
        lat, lng, by = nxt
        return by - ctx.go_minutes(lat, lng) - DUE_SLACK - STOP_LEAD

    @staticmethod
    def stop_lost(ctx: ProgressContext, arrived: int | None, lat: float, lng: float,
                  radius_km: float, by: int) -> bool:
        """A stop that can no longer be kept: not reached and out of reach by its time `by`,
        or reached and left before its stay was done. Waiting at it then keeps nothing
        (failure class "a stop kept after its time")."""
        if arrived is None:
            return ctx.now + ctx.go_minutes(lat, lng) > by
        return not ctx.near(lat, lng, radius_km)


def off_days_kept(have: int, days_left: int, busy_today: bool) -> int:
    """Off days kept for sure: K13/K14's tests count today and the days to come as free while
    nothing is logged there, so only the days before today are certain."""
    return max(0, have - max(0, days_left - 1) - (0 if busy_today else 1))


def off_days_progress(min_days: int, ctx: ProgressContext, counters: Counters,
                      busy_today: bool) -> Progress:
    """K13/K14's progress: off days kept so far against the days left.

    The test counts today and the days to come as free while nothing is logged there: only the
    days before today are kept for sure."""
    have = counters.get("unworked_days", counters.get("off_days", 0))
    days_left = ctx.days_left
    done = off_days_kept(have, days_left, busy_today)
    need = max(0, min_days - done)
    line = f"off days {done} of {min_days} kept, {days_left} days left (today included)"
    if need == 0:
        return Status.OK, line, None
    # two days of slack: an order taken late today may run into tomorrow
    if need >= days_left - 2 and not busy_today:
        return (Status.DUE, line + "; rest today",
                Todo("wait", "off day due", minutes=ctx.left_today))
    return (Status.AT_RISK if need >= days_left else Status.OK), line, None
