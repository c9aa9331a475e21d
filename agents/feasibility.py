"""Order economics and preference constraints shared by every deterministic agent.

Estimates use the same distance and time rules as the world, so a plan that passes here is
one the world will accept unless the cargo has left the market meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.cargo import CargoView
from sim.geo import Geography, Point, haversine_km
from sim.preferences import DAY, MONTH_DAYS, Preference, PrefKind


@dataclass(frozen=True, slots=True)
class Option:
    cargo: CargoView
    empty_km: float
    arrival: float
    finish: float
    net: float

    @property
    def hours(self) -> float:
        return max(self.finish, 1.0) / 60.0


def evaluate(geo: Geography, c: CargoView, pos: Point, now: float, cost_per_km: float) -> Option:
    net, empty_km = c.route(geo, pos, cost_per_km)
    arrival = now + geo.drive_minutes(empty_km, now)
    finish = max(arrival, c.load_start) + c.cost_minutes
    return Option(c, empty_km, arrival, finish, net)


def feasible(o: Option, now: float, horizon: float, max_wait_minutes: float = 240.0) -> bool:
    c = o.cargo
    return (now <= c.remove_time and o.arrival <= c.load_end and o.finish <= horizon
            and c.load_start - o.arrival <= max_wait_minutes)


def _night_overlap(p: Preference, t0: float, t1: float) -> bool:
    t = t0
    while t < t1:
        if p.is_night(t):
            return True
        t += 30.0
    return p.is_night(t1 - 1)


def violates(o: Option, prefs: tuple[Preference, ...], progress: tuple[dict, ...],
             now: float) -> str | None:
    """The preference an order would break, or None."""
    for p, pr in zip(prefs, progress, strict=False):
        if p.kind is PrefKind.FORBIDDEN_ZONE and (p.in_zone(o.cargo.origin)
                                                  or p.in_zone(o.cargo.dest)):
            return p.text or "forbidden zone"
        if p.kind is PrefKind.NIGHT_NO_DRIVING and _night_overlap(p, now, o.finish):
            return p.text or "night driving"
        if p.kind is PrefKind.DAILY_EMPTY_KM:
            today = pr.get("empty_km_today", 0.0)
            # once today's limit is broken the day's penalty is sunk: more km costs nothing
            if today <= p.km < today + o.empty_km:
                return p.text or "empty km"
    return None


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
