"""Small helpers several kinds share (daily clock windows, dwell runs)."""

from __future__ import annotations

from collections.abc import Iterable

from sim.scoring.steps import ActionKind, Step
from sim.scoring.timebase import DAY, hhmm_to_minutes


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
