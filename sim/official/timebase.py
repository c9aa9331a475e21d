"""The time base (docs/competition.md §2.1, §4.1): integer minutes from 2026-03-01, 1440-minute
days, 31-day months, wall-clock strings, drive minutes.

One time base for the generator world, the competition environment and the scorer: the scorer
reads the same wall strings and recomputes the same minutes, so two copies could only drift
apart. Wall-clock strings have exactly one format; every conversion here floors seconds, so
minute arithmetic stays in integers and matches the official simulator.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta
from functools import lru_cache

import numpy as np

DAY = 1440  # minutes in a day
MONTH_DAYS = 31  # the competition's month
EPOCH = datetime(2026, 3, 1)
WALL_FORMAT = "%Y-%m-%d %H:%M:%S"
MONTH_PREFIX = "202603"  # the log prefix stays 202603 even in the 92-day round (§5.1)


_WALL = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})", re.ASCII)


def parse_wall(value: object) -> datetime | None:
    """`YYYY-MM-DD HH:MM:SS` (surrounding spaces trimmed) as a naive datetime, else None.

    Accepts exactly what `datetime.strptime(value, WALL_FORMAT)` accepts; the zero-padded form
    is parsed by a regex and cached, so a 500,000-row file (a few distinct minutes repeated)
    does not pay strptime per field.
    """
    if not isinstance(value, str):
        return None
    return _parse(value.strip())


@lru_cache(maxsize=1 << 18)
def _parse(s: str) -> datetime | None:
    m = _WALL.fullmatch(s)
    if m is not None:
        try:
            return datetime(*map(int, m.groups()))
        except ValueError:
            return None
    try:
        return datetime.strptime(s, WALL_FORMAT)
    except ValueError:
        return None


def wall_minutes(value: object) -> int | None:
    """parse_wall then to_minutes, cached: the loader's hot path."""
    if not isinstance(value, str):
        return None
    return _minutes(value.strip())


@lru_cache(maxsize=1 << 18)
def _minutes(s: str) -> int | None:
    t = _parse(s)
    return None if t is None else to_minutes(t)


def to_minutes(t: datetime) -> int:
    """⌊(t − epoch) / 60 s⌋ — floored, so times before the epoch give negative minutes."""
    d = t - EPOCH
    return (d.days * 86400 + d.seconds) // 60


def to_seconds(t: datetime) -> int:
    d = t - EPOCH
    return d.days * 86400 + d.seconds


def wall_time(minutes: int) -> str:
    """`simulation_wall_time`: epoch + minutes as YYYY-MM-DD HH:MM:SS."""
    return (EPOCH + timedelta(minutes=minutes)).strftime(WALL_FORMAT)


def end_time(minutes: int) -> str:
    """`simulation_end_time` in logs: YYYY-MM-DD HH:MM."""
    return (EPOCH + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M")


def drive_minutes(km: float, speed_kmh: float) -> int:
    """§4.1: 1 if d ≤ 0, else max(1, ⌈(d / speed)·60⌉), division first."""
    if km <= 0:
        return 1
    return max(1, math.ceil((km / speed_kmh) * 60))


def drive_minutes_np(km: np.ndarray, speed_kmh: float) -> np.ndarray:
    """drive_minutes over an array (int64)."""
    m = np.maximum(1, np.ceil(km / speed_kmh * 60)).astype(np.int64)
    return np.where(km <= 0, 1, m)


def wall_to_minutes(text: str) -> int:
    """'YYYY-MM-DD HH:MM:SS' -> floor((t - epoch) / 60 s); raises ValueError on another format
    (the scorer aborts a driver or the run where the simulator would fail a take)."""
    m = wall_minutes(text)
    if m is None:
        raise ValueError(f"time data {text!r} does not match format 'YYYY-MM-DD HH:MM:SS'")
    return m


def date_to_day(text: str) -> int:
    """'YYYY-MM-DD' -> day index from the epoch (negative before it)."""
    return (date.fromisoformat(text.strip()) - EPOCH.date()).days


@lru_cache(maxsize=4096)
def hhmm_to_minutes(text: str) -> int:
    """'HH:MM' -> minutes after midnight. Kept by text: the window kinds turn the same few
    clock times into minutes at every what-if of every step."""
    hh, mm = text.split(":")
    return int(hh) * 60 + int(mm)


def month_of_minute(minutes: int) -> str:
    """'YYYY-MM' of the calendar day holding this minute."""
    return (EPOCH + timedelta(days=minutes // DAY)).strftime("%Y-%m")


def weekday(day: int) -> int:
    """Mon = 0; day 0 (2026-03-01) is a Sunday."""
    return (day + 6) % 7
