"""Repositioning helpers the deterministic agents share.

Order economics live in sim/world/order_costs.py (the memory module uses them too); what a
preference asks for now is its RuleProgress `todo` and what a take would cost its `extra_penalty`
(memory/rule_progress.py), which the memory computes once per step.
"""

from __future__ import annotations

from collections.abc import Callable

from sim.geo import Geography, Point, great_circle_km


def densest_nearby(geo: Geography, pos: Point, elsewhere: bool = False,
                   scale_km: float = 15.0, min_km: float = 8.0,
                   allowed: Callable[[float, float], bool] | None = None) -> Point | None:
    """The county with most weight for its distance (inverse square over `scale_km`); None
    if it is here.

    With `elsewhere`, the best one more than `min_km` away: for when staying has stopped
    paying. A larger scale reaches for a big market further off (a driver stuck for hours in
    a thin one hops between its small towns otherwise). `allowed(lat, lng)`: only counties
    where the driver may go (its place rules)."""
    best, best_score, best_d = None, -1.0, 0.0
    for i, c in enumerate(geo.counties):
        d = great_circle_km(pos.lat, pos.lng, c.lat, c.lng)
        if d < 120.0 and not (elsewhere and d <= min_km) and (
                allowed is None or allowed(c.lat, c.lng)):
            score = float(geo.weights[i]) / (1.0 + (d / scale_km) ** 2)
            if score > best_score:
                best, best_score, best_d = c.point, score, d
    return best if best_d > min_km else None
