"""What an order costs a driver and whether the world lets it be done in time.

These are world facts (the same distance and time rules the world runs by), so the memory
module can keep infeasible cargo out of a view and every agent ranks by the same numbers the
world will pay. What an order would cost in preference penalties is the preference kinds' own
what-if (memory.rule_progress.RuleProgress.extra_penalty), not a rule written here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.geo import Geography, Point
from sim.world.cargo import CargoView


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


def evaluate(geo: Geography, c: CargoView, pos: Point, now: float, cost_per_km: float,
             route: tuple[float, float] | None = None) -> Option:
    """`route`: `c.route(geo, pos, cost_per_km)` when the caller has it already."""
    net, empty_km = c.route(geo, pos, cost_per_km) if route is None else route
    arrival = now + geo.drive_minutes(empty_km, now)
    finish = max(arrival, c.load_start) + c.cost_minutes
    return Option(c, empty_km, arrival, finish, net)


def feasible(o: Option, now: float, horizon: float, max_wait_minutes: float = 240.0) -> bool:
    c = o.cargo
    return (now <= c.remove_time and o.arrival <= c.load_end and o.finish <= horizon
            and c.load_start - o.arrival <= max_wait_minutes)


def takeable(o: Option, now: float, horizon: float, min_net: float) -> bool:
    """Worth taking and possible: pays at least `min_net` and fits its window and the run.
    The one test the baseline, the analyst and the memory all apply (preference penalties
    come after it: memory.memory_agent.rule_filter)."""
    return o.net >= min_net and feasible(o, now, horizon)
