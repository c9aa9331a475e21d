"""Typed event records and the bus that delivers them to the recorder and to memory stores.

Each record flattens to one row of a fixed schema (`ROW_SCHEMA`), so one Parquet table holds
every kind; anything kind-specific that is not a column goes into the JSON `detail` column.
Records may carry Python-only payloads (a search's results) that subscribers use but the
recorder does not write.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pyarrow as pa

from sim.world.effects import capturing, defer

ROW_SCHEMA = pa.schema([
    ("seq", pa.int64()),
    ("t", pa.float64()),
    ("kind", pa.string()),
    ("driver_id", pa.string()),
    ("cargo_id", pa.string()),
    ("lat", pa.float64()),
    ("lng", pa.float64()),
    ("lat2", pa.float64()),
    ("lng2", pa.float64()),
    ("value", pa.float64()),
    ("count", pa.int64()),
    ("reason", pa.string()),
    ("detail", pa.string()),
])


# what json.dumps(detail, sort_keys=True, separators=(",", ":")) builds for every call, made once
_DETAIL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class Event:
    kind: ClassVar[str] = "event"
    t: float

    def row(self) -> dict[str, Any]:
        raise NotImplementedError

    def _row(self, driver_id: str | None = None, cargo_id: str | None = None,
             lat: float | None = None, lng: float | None = None, lat2: float | None = None,
             lng2: float | None = None, value: float | None = None, count: int | None = None,
             reason: str | None = None, detail: dict | None = None) -> dict[str, Any]:
        return {
            "t": float(self.t), "kind": self.kind, "driver_id": driver_id, "cargo_id": cargo_id,
            "lat": lat, "lng": lng, "lat2": lat2, "lng2": lng2, "value": value, "count": count,
            "reason": reason,
            "detail": _DETAIL.encode(detail) if detail else None,
        }


@dataclass(slots=True)
class CargoCreated(Event):
    kind: ClassVar[str] = "cargo_created"
    cargo: Any  # sim.world.cargo.Cargo

    def row(self) -> dict[str, Any]:
        c = self.cargo
        return self._row(cargo_id=c.cargo_id, lat=c.origin.lat, lng=c.origin.lng,
                         lat2=c.dest.lat, lng2=c.dest.lng, value=c.price,
                         detail={"load_start": c.load_start, "load_end": c.load_end,
                                 "remove_time": c.remove_time, "cost_minutes": c.cost_minutes,
                                 "distance_km": round(c.distance_km, 3)})


@dataclass(slots=True)
class CargoRemoved(Event):
    """Cargo left the market without a driver of ours: expiry or a competitor's take."""

    kind: ClassVar[str] = "cargo_removed"
    cargo_id: str
    reason: str  # "expired" | "competitor"

    def row(self) -> dict[str, Any]:
        return self._row(cargo_id=self.cargo_id, reason=self.reason)


@dataclass(slots=True)
class SearchDone(Event):
    kind: ClassVar[str] = "search"
    driver_id: str
    lat: float
    lng: float
    radius_km: float
    minutes: int
    budget_left: int
    results: tuple = field(default=())  # tuple[sim.world.cargo.CargoView, ...], not written
    rejected: str | None = None
    best_net: float = 0.0  # best route net among the results for this driver's costs

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, lat=self.lat, lng=self.lng,
                         value=self.radius_km, count=len(self.results), reason=self.rejected,
                         detail={"minutes": self.minutes, "budget_left": self.budget_left,
                                 "best_net": round(self.best_net, 2)})


@dataclass(slots=True)
class ActionChosen(Event):
    kind: ClassVar[str] = "action"
    driver_id: str
    action: str
    cargo_id: str | None = None
    params: dict = field(default_factory=dict)
    note: str | None = None

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, cargo_id=self.cargo_id, reason=self.action,
                         detail={**self.params, **({"note": self.note} if self.note else {})})


@dataclass(slots=True)
class TakeFailed(Event):
    kind: ClassVar[str] = "take_failed"
    driver_id: str
    cargo_id: str
    reason: str  # "unknown_id" | "taken" | "expired" | "window_missed" | "busy"

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, cargo_id=self.cargo_id, reason=self.reason)


@dataclass(slots=True)
class OrderTaken(Event):
    kind: ClassVar[str] = "order_taken"
    driver_id: str
    cargo_id: str
    pickup_arrival: float
    load_start: float
    finish: float
    empty_km: float
    loaded_km: float

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, cargo_id=self.cargo_id,
                         value=self.finish,
                         detail={"pickup_arrival": self.pickup_arrival,
                                 "load_start": self.load_start, "finish": self.finish,
                                 "empty_km": round(self.empty_km, 3),
                                 "loaded_km": round(self.loaded_km, 3)})


@dataclass(slots=True)
class OrderCompleted(Event):
    kind: ClassVar[str] = "order_completed"
    driver_id: str
    cargo_id: str
    price: float
    cost: float
    net: float
    paid: bool
    lat: float
    lng: float

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, cargo_id=self.cargo_id, value=self.net,
                         lat=self.lat, lng=self.lng, reason="paid" if self.paid else "after_end",
                         detail={"price": round(self.price, 2), "cost": round(self.cost, 2)})


@dataclass(slots=True)
class Drove(Event):
    kind: ClassVar[str] = "drive"
    driver_id: str
    t0: float
    lat: float
    lng: float
    lat2: float
    lng2: float
    km: float
    loaded: bool

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, lat=self.lat, lng=self.lng, lat2=self.lat2,
                         lng2=self.lng2, value=round(self.km, 3),
                         reason="loaded" if self.loaded else "empty", detail={"t0": self.t0})


@dataclass(slots=True)
class Waited(Event):
    kind: ClassVar[str] = "wait"
    driver_id: str
    minutes: float

    def row(self) -> dict[str, Any]:
        return self._row(driver_id=self.driver_id, value=self.minutes)


@dataclass(slots=True)
class Annotation(Event):
    """A record another layer adds to the run's log (model calls, digests), typed by subclass.

    The bus hands annotations to global subscribers (the recorder, the world's counts) only,
    never to a driver's subscribers: a driver's memory hears the world, not its own notes, so a
    digest it writes cannot come back to it as a fact.
    """

    driver_id: str


Handler = Callable[[Event], None]


class EventBus:
    """Delivers each event, in simulation order, to global and per-driver subscribers."""

    def __init__(self) -> None:
        self.seq = 0
        self._all: list[Handler] = []
        self._by_driver: dict[str, list[Handler]] = defaultdict(list)

    def subscribe(self, handler: Handler, driver_id: str | None = None) -> None:
        if driver_id is None:
            self._all.append(handler)
        else:
            self._by_driver[driver_id].append(handler)

    def publish(self, event: Event) -> None:
        if capturing():  # a decision computed off the sim thread: published in fixed order later
            defer(lambda: self._deliver(event))
            return
        self._deliver(event)

    def _deliver(self, event: Event) -> None:
        self.seq += 1
        for h in self._all:
            h(event)
        driver_id = getattr(event, "driver_id", None)
        if driver_id is not None and not isinstance(event, Annotation):
            for h in self._by_driver.get(driver_id, ()):
                h(event)
