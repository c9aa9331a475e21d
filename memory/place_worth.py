"""What a take's destination is worth for the order after it.

A take ends where its cargo is unloaded, and the next order starts with a pickup drive from
there. Where cargo is sparse that drive is long: on a 31-day calibrated month the memory-off
greedy drove 93 km empty to its next pickup after orders ending 200-400 km from Guangzhou,
17 km after those ending within 50 km of it. Market memory learns how far the nearest cargo
lies around each grid it searched (`MarketMemory.reach_km`); a take is credited the
difference between the next pickup drive expected here and at its destination, at what a km
of that drive costs (its km cost and its minutes at the driver's rate).

Off by default (`[policy] place_weight` 0): on 32 held-out months it bought +0.0018 of the
greedy's net with a standard error of 0.0019 (docs/agents.md): the market already prices the
place, an order out of a sparse county being most often a long haul back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.world.order_costs import Option


@dataclass(frozen=True)
class PlaceWorth:
    """The next pickup drive a take's destination saves (or costs) against staying here."""

    here_km: float  # the next pickup drive expected from where the driver stands
    per_km: float  # yuan a km of that drive forgoes: km cost and minutes at the rate, weighted
    reach: Callable[[float, float], float | None]  # expected drive from a place (None: unknown)
    # where the driver's place rules let it end a move (None: anywhere). A destination outside
    # earns no credit however dense: the next order has to bring the driver back
    allows: Callable[[float, float], bool] | None = None

    def delta(self, o: Option) -> float:
        dest = o.cargo.dest
        d = self.reach(dest.lat, dest.lng)
        if d is None:
            return 0.0
        v = self.per_km * (self.here_km - d)
        if v > 0 and self.allows is not None and not self.allows(dest.lat, dest.lng):
            return 0.0
        return v
