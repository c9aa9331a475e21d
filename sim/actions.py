"""What a driver can do, what it sees, and the Policy protocol the world calls.

The world depends on this protocol only; agents and memory implement it from outside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sim.cargo import CargoView
from sim.geo import Point
from sim.preferences import Preference


@dataclass(frozen=True, slots=True)
class Search:
    lat: float | None = None  # None: search around the driver's position
    lng: float | None = None
    radius_km: float | None = None  # None: the scenario's default radius

    name = "search"


@dataclass(frozen=True, slots=True)
class TakeOrder:
    cargo_id: str

    name = "take_order"


@dataclass(frozen=True, slots=True)
class Wait:
    minutes: float

    name = "wait"


@dataclass(frozen=True, slots=True)
class Reposition:
    lat: float
    lng: float

    name = "reposition"


Action = Search | TakeOrder | Wait | Reposition


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    short_plan: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Observation:
    """The raw state a driver has at a decision point; memory adds everything else."""

    driver_id: str
    now: float
    horizon: float
    position: Point
    cost_per_km: float
    income: float
    orders: int
    empty_km: float
    loaded_km: float
    query_budget_left: int
    last_search: tuple[CargoView, ...] = ()
    last_search_time: float | None = None
    last_outcome: str = ""
    preferences: tuple[Preference, ...] = ()
    progress: tuple[dict, ...] = field(default=())

    @property
    def day(self) -> int:
        return int(self.now // 1440)

    @property
    def minute_of_day(self) -> float:
        return self.now % 1440


class Policy(Protocol):
    def decide(self, obs: Observation) -> Decision: ...
