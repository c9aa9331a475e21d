"""Cargo records, their checked lifecycle, and the non-homogeneous Poisson generator."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from sim.geo import Geography, Point
from sim.scenario import CargoConfig


class CargoStatus(StrEnum):
    CREATED = "created"
    ONLINE = "online"
    TAKEN = "taken"
    COMPETITOR = "competitor"
    EXPIRED = "expired"

    @property
    def successors(self) -> frozenset[CargoStatus]:
        return _SUCCESSORS[self]


_SUCCESSORS = {
    CargoStatus.CREATED: frozenset({CargoStatus.ONLINE}),
    CargoStatus.ONLINE: frozenset({CargoStatus.TAKEN, CargoStatus.COMPETITOR, CargoStatus.EXPIRED}),
    CargoStatus.TAKEN: frozenset(),
    CargoStatus.COMPETITOR: frozenset(),
    CargoStatus.EXPIRED: frozenset(),
}


@dataclass(frozen=True, slots=True)
class CargoView:
    """What a search shows a driver: the cargo's public terms, not its fate."""

    cargo_id: str
    origin: Point
    dest: Point
    price: float
    load_start: float
    load_end: float
    remove_time: float
    cost_minutes: float
    distance_km: float

    def route(self, geo: Geography, at: Point, cost_per_km: float) -> tuple[float, float]:
        """(net income, empty km) of hauling this cargo for a driver standing at `at`."""
        empty_km = geo.road_km(at, self.origin)
        return self.price - (empty_km + self.distance_km) * cost_per_km, empty_km


@dataclass(slots=True)
class Cargo:
    cargo_id: str
    origin: Point
    dest: Point
    price: float
    create_time: float
    load_start: float
    load_end: float
    remove_time: float
    cost_minutes: float  # loading + loaded driving + unloading
    distance_km: float
    competitor_time: float | None = None  # hidden: when another carrier takes it
    status: CargoStatus = CargoStatus.CREATED
    cell: str = ""
    # facts only the scorer's preference kinds read (K5/K6/K18/K20): empty when the cargo
    # model does not draw them (cities then come from the nearest county, sim.world.step_log)
    category: str = ""
    start_city: str = ""
    end_city: str = ""

    def move(self, new: CargoStatus) -> None:
        if new not in self.status.successors:
            raise RuntimeError(f"cargo {self.cargo_id}: illegal transition {self.status} -> {new}")
        self.status = new

    def view(self) -> CargoView:
        return CargoView(self.cargo_id, self.origin, self.dest, self.price, self.load_start,
                         self.load_end, self.remove_time, self.cost_minutes, self.distance_km)


def hourly_profile(cfg: CargoConfig) -> np.ndarray:
    """Relative arrival intensity by hour: 1 by day, night_factor by night, smooth shoulders."""
    prof = np.full(24, cfg.night_factor)
    for h in range(24):
        if cfg.day_start_hour <= h < cfg.day_end_hour:
            prof[h] = 1.0
    # one-hour shoulders so intensity does not jump at dawn and dusk
    prof[(cfg.day_start_hour - 1) % 24] = (1.0 + cfg.night_factor) / 2
    prof[cfg.day_end_hour % 24] = (1.0 + cfg.night_factor) / 2
    return prof


class CargoGenerator:
    """Emits cargo by thinning a homogeneous Poisson stream at the peak rate (Lewis-Shedler)."""

    def __init__(self, cfg: CargoConfig, geo: Geography, rng: np.random.Generator,
                 start_minute_of_day: float = 0.0) -> None:
        self.cfg, self.geo, self.rng = cfg, geo, rng
        self.profile = hourly_profile(cfg)
        self.peak = cfg.rate_per_hour * float(self.profile.max())
        self.offset = start_minute_of_day
        d = geo.centroid_distance_km
        w = geo.weights
        # destinations: gravity model, heavier for big counties and near ones
        dest = w[None, :] * np.exp(-d / cfg.destination_scale_km)
        # the cumulative weights as Python lists: a month draws a few hundred thousand picks,
        # and bisect on a list gives numpy's searchsorted (side="left") at a fifth of its cost
        self._dest_rows = np.cumsum(dest / dest.sum(axis=1, keepdims=True), axis=1).tolist()
        self._origin_row = np.cumsum(w).tolist()
        self._profile = self.profile.tolist()
        self._profile_max = max(self._profile)
        self.n = 0

    def _pick(self, cdf: list[float]) -> int:
        return min(bisect.bisect_left(cdf, self.rng.random() * cdf[-1]), len(cdf) - 1)

    def arrivals(self, horizon: float) -> Iterator[Cargo]:
        """Cargo in creation order up to the horizon (minutes from scenario start)."""
        t = 0.0
        rate_per_min = self.peak / 60.0
        while True:
            t += self.rng.exponential(1.0 / rate_per_min)
            if t >= horizon:
                return
            hour = int(((t + self.offset) // 60) % 24)
            if self.rng.random() * self._profile_max > self._profile[hour]:
                continue
            yield self.make(t)

    def make(self, t: float) -> Cargo:
        cfg, rng, geo = self.cfg, self.rng, self.geo
        oi = self._pick(self._origin_row)
        di = self._pick(self._dest_rows[oi])
        origin = geo.sample_point(oi, rng)
        dest = geo.sample_point(di, rng)
        km = max(geo.road_km(origin, dest), 3.0)
        noise = float(rng.lognormal(0.0, cfg.price_noise))
        price = (cfg.price_base + cfg.price_per_km * km) * noise
        load_start = t + float(rng.uniform(*cfg.lead_minutes))
        load_end = load_start + float(rng.uniform(*cfg.load_window_minutes))
        remove = max(t + 15.0, load_end - float(rng.uniform(*cfg.remove_before_window_end_minutes)))
        cost = cfg.load_minutes + geo.drive_minutes(km, load_start) + cfg.unload_minutes
        competitor = None
        if rng.random() < cfg.competitor_share:
            competitor = t + float(rng.uniform(0.0, remove - t))
        self.n += 1
        return Cargo(
            cargo_id=f"C{self.n:07d}", origin=origin, dest=dest, price=round(price, 2),
            create_time=round(t, 3), load_start=round(load_start, 3), load_end=round(load_end, 3),
            remove_time=round(remove, 3), cost_minutes=float(math.ceil(cost)), distance_km=km,
            competitor_time=None if competitor is None else round(competitor, 3),
        )
