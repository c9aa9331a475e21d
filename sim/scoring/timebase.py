"""Time and distance base of the competition (§2.1, §4.1): integer minutes, haversine.

The earth radius is the competition's 6371.0 km, not the simulator's geodesic mean, because the
scorer recomputes minutes from distances and one ulp can change a ceiling.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

EPOCH = datetime(2026, 3, 1, 0, 0, 0)
EARTH_R_KM = 6371.0
DAY = 1440
WALL_FORMAT = "%Y-%m-%d %H:%M:%S"


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance exactly as §2.1 (h clamped to [0, 1])."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dphi = p2 - p1
    dlmb = math.radians(lng2) - math.radians(lng1)
    h = math.sin(dphi / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dlmb / 2) ** 2
    h = min(1.0, max(0.0, h))
    return 2 * EARTH_R_KM * math.asin(math.sqrt(h))


def drive_minutes(distance_km: float, speed_kmh: float) -> int:
    """§4.1: 1 if d <= 0, else max(1, ceil((d / speed) * 60)), the division done first."""
    if distance_km <= 0:
        return 1
    return max(1, math.ceil((distance_km / speed_kmh) * 60))


def wall_to_minutes(text: str) -> int:
    """'YYYY-MM-DD HH:MM:SS' -> floor((t - epoch) / 60 s); raises ValueError on another format."""
    t = datetime.strptime(text.strip(), WALL_FORMAT)
    seconds = int((t - EPOCH).total_seconds())
    return seconds // 60


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
