"""Preference timing and repositioning helpers the deterministic agents share.

Order economics and rule checks live in sim/order_rules.py (the memory module uses them too).
"""

from __future__ import annotations

from sim.clock import DAY, MONTH_DAYS
from sim.geo import Geography, Point, haversine_km
from sim.preferences import Preference, PrefKind


def rest_today(prefs: tuple[Preference, ...], progress: tuple[dict, ...], now: float) -> bool:
    """Whether the driver must keep today free to meet a monthly rest-day preference."""
    day = int(now // DAY)
    left_in_month = MONTH_DAYS - day % MONTH_DAYS
    for p, pr in zip(prefs, progress, strict=False):
        if p.kind is PrefKind.REST_DAYS and not pr.get("drove_today", True):
            missing = p.days - pr.get("rest_days_this_month", 0)
            if missing > 0 and left_in_month <= missing + 1:
                return True
    return False


def night_now(prefs: tuple[Preference, ...], now: float) -> Preference | None:
    for p in prefs:
        if p.kind is PrefKind.NIGHT_NO_DRIVING and p.is_night(now):
            return p
    return None


def errand_target(prefs: tuple[Preference, ...], progress: tuple[dict, ...]) -> Point | None:
    for p, pr in zip(prefs, progress, strict=False):
        if p.kind is PrefKind.ERRAND and pr.get("errand_step", 0) < len(p.steps):
            s = p.steps[pr["errand_step"]]
            return Point(s.lat, s.lng)
    return None


def visit_target(prefs: tuple[Preference, ...], progress: tuple[dict, ...],
                 now: float) -> Point | None:
    day = int(now // DAY)
    left_in_month = MONTH_DAYS - day % MONTH_DAYS
    for p, pr in zip(prefs, progress, strict=False):
        if p.kind is PrefKind.VISIT and p.place is not None:
            missing = p.days - pr.get("visit_days_this_month", 0)
            if missing > 0 and left_in_month <= missing * 3:
                return Point(p.place.lat, p.place.lng)
    return None


def minutes_to_night_end(p: Preference, now: float) -> float:
    """Minutes until the night window ends (used to wait it out)."""
    h = (now % DAY) / 60.0
    end = p.end_hour
    delta_h = (end - h) % 24
    return max(1.0, delta_h * 60.0)


def densest_nearby(geo: Geography, pos: Point, elsewhere: bool = False) -> Point | None:
    """The county with most weight for its distance (inverse square); None if it is here.

    With `elsewhere`, the best one more than 8 km away: for when staying has stopped paying.
    """
    best, best_score, best_d = None, -1.0, 0.0
    for i, c in enumerate(geo.counties):
        d = haversine_km(pos.lat, pos.lng, c.lat, c.lng)
        if d < 120.0 and not (elsewhere and d <= 8.0):
            score = float(geo.weights[i]) / (1.0 + (d / 15.0) ** 2)
            if score > best_score:
                best, best_score, best_d = c.point, score, d
    return best if best_d > 8.0 else None
