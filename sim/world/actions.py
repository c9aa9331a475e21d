"""What a driver can do, what it sees, and the Policy protocol the world calls.

The world depends on this protocol only; agents and memory implement it from outside.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from sim.geo import Point
from sim.official.timebase import DAY
from sim.world.cargo import CargoView


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


class OutcomeKind(StrEnum):
    NONE = "none"  # no action yet
    WAITED = "waited"
    REPOSITIONED = "repositioned"
    REPOSITION_REJECTED = "reposition_rejected"  # the target lies outside Guangdong
    SEARCHED = "searched"
    SEARCH_REJECTED = "search_rejected"  # the day's query budget is used up
    TAKE_FAILED = "take_failed"
    COMPLETED = "completed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the driver's last action came to, as a policy reads it (no text to parse)."""

    kind: OutcomeKind = OutcomeKind.NONE
    cargo_id: str | None = None  # take_failed, completed
    reason: str = ""  # take_failed: the market's reason
    amount: float = 0.0  # waited: minutes; repositioned: km; searched: results; completed: net

    @property
    def failed(self) -> bool:
        return self.kind is OutcomeKind.TAKE_FAILED


NO_OUTCOME = Outcome()


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
    last_outcome: Outcome = NO_OUTCOME

    @property
    def day(self) -> int:
        return int(self.now // DAY)

    @property
    def minute_of_day(self) -> float:
        return self.now % DAY


class Policy(Protocol):
    def decide(self, obs: Observation) -> Decision: ...
