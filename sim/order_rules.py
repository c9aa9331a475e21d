"""What an order costs a driver and which world rule or preference it would break.

These are world facts (the same distance, time and preference rules the world scores by), so
the memory module can keep infeasible cargo out of a view and every agent ranks by the same
numbers the world will pay.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.cargo import CargoView
from sim.geo import Geography, Point
from sim.preferences import Preference, PrefKind


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


def takeable(o: Option, now: float, horizon: float, min_net: float,
             prefs: tuple[Preference, ...], progress: tuple[dict, ...]) -> bool:
    """Worth taking and allowed: pays at least `min_net`, fits its window and the run, and
    breaks no preference. The one test the baseline, the analyst and the memory all apply."""
    return (o.net >= min_net and feasible(o, now, horizon)
            and violates(o, prefs, progress, now) is None)
