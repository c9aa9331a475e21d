"""Time and distance base of the competition (§2.1, §4.1): integer minutes, haversine.

The earth radius is the competition's 6371.0 km, not the simulator's geodesic mean, because the
scorer recomputes minutes from distances and one ulp can change a ceiling.
"""

from __future__ import annotations

from datetime import date, timedelta

from sim.clock import DAY
from sim.competition.clock import EPOCH, WALL_FORMAT, drive_minutes, wall_minutes

__all__ = ["DAY", "EPOCH", "WALL_FORMAT", "drive_minutes", "wall_to_minutes"]

# One time and distance base for the simulator and the scorer (sim/competition/clock.py):
# the scorer reads the same wall strings and recomputes the same minutes, so two copies
# could only drift apart.


def wall_to_minutes(text: str) -> int:
    """'YYYY-MM-DD HH:MM:SS' -> floor((t - epoch) / 60 s); raises ValueError on another format
    (the scorer aborts a driver or the run where the simulator would fail a take)."""
    m = wall_minutes(text)
    if m is None:
        raise ValueError(f"time data {text!r} does not match format 'YYYY-MM-DD HH:MM:SS'")
    return m


def minutes_to_wall(minutes: int) -> str:
    return (EPOCH + timedelta(minutes=minutes)).strftime(WALL_FORMAT)


def date_to_day(text: str) -> int:
    """'YYYY-MM-DD' -> day index from the epoch (negative before it)."""
    return (date.fromisoformat(text.strip()) - EPOCH.date()).days


def hhmm_to_minutes(text: str) -> int:
    hh, mm = text.split(":")
    return int(hh) * 60 + int(mm)


def month_of_minute(minutes: int) -> str:
    """'YYYY-MM' of the calendar day holding this minute."""
    return (EPOCH + timedelta(days=minutes // DAY)).strftime("%Y-%m")


def weekday(day: int) -> int:
    """Mon = 0; day 0 (2026-03-01) is a Sunday."""
    return (day + 6) % 7
