"""The cargo market: active cargo indexed by H3 cell, search, take checks, removal."""

from __future__ import annotations

import math

import h3

from sim.geo import Geography, Point, great_circle_km
from sim.world.cargo import Cargo, CargoStatus, CargoView


class Market:
    """Active cargo by H3 cell (the scenario's market resolution) plus a registry of all cargo.

    The registry lets a take be checked against the true world (unknown id, taken, expired)
    and lets memory be tested against what really happened.
    """

    def __init__(self, geo: Geography, max_results: int) -> None:
        self.geo = geo
        self.max_results = max_results
        self.registry: dict[str, Cargo] = {}
        self.by_cell: dict[str, dict[str, Cargo]] = {}
        edge_km = h3.average_hexagon_edge_length(geo.market_h3_res, unit="km")
        self.edge_km = edge_km
        # ring k's cell centres lie at least k * spacing * cos(30°) from the centre cell's; 0.8
        # instead of 0.866 leaves room for H3's distortion. A point in ring k is then at least
        # k * ring_step - 2 * edge from a query point anywhere in the centre cell.
        self.ring_step_km = edge_km * math.sqrt(3) * 0.8

    def add(self, c: Cargo) -> None:
        c.cell = self.geo.cell(c.origin)
        c.move(CargoStatus.ONLINE)
        self.registry[c.cargo_id] = c
        self.by_cell.setdefault(c.cell, {})[c.cargo_id] = c

    def _unlist(self, c: Cargo, status: CargoStatus) -> None:
        c.move(status)
        bucket = self.by_cell.get(c.cell)
        if bucket is not None:
            bucket.pop(c.cargo_id, None)
            if not bucket:
                del self.by_cell[c.cell]

    def remove(self, cargo_id: str, status: CargoStatus) -> bool:
        """Expire or hand to a competitor; False when the cargo had already left."""
        c = self.registry[cargo_id]
        if c.status is not CargoStatus.ONLINE:
            return False
        self._unlist(c, status)
        return True

    def search(self, center: Point, radius_km: float) -> tuple[CargoView, ...]:
        """Online cargo whose origin lies within radius_km, nearest first, capped.

        Rings of cells are scanned outward; once `max_results` lie closer than anything the
        next ring could hold, the rest cannot make the cut, so busy markets cost no more than
        quiet ones.
        """
        k_max = math.ceil((radius_km + 2 * self.edge_km) / self.ring_step_km)
        origin = self.geo.cell(center)
        found: list[tuple[float, str, Cargo]] = []
        for k in range(k_max + 1):
            for cell in h3.grid_ring(origin, k):
                bucket = self.by_cell.get(cell)
                if not bucket:
                    continue
                for c in bucket.values():
                    d = great_circle_km(center.lat, center.lng, c.origin.lat, c.origin.lng)
                    if d <= radius_km:
                        found.append((d, c.cargo_id, c))
            if len(found) >= self.max_results:
                found.sort(key=lambda x: (x[0], x[1]))
                del found[self.max_results:]
                # the nearest point of ring k+1 is at least this far from the query point
                if found[-1][0] < (k + 1) * self.ring_step_km - 2 * self.edge_km:
                    break
        found.sort(key=lambda x: (x[0], x[1]))
        return tuple(c.view() for _, _, c in found[: self.max_results])

    def check_take(self, cargo_id: str, now: float) -> str | None:
        """Why a take at `now` must fail, or None when the cargo can still be booked."""
        c = self.registry.get(cargo_id)
        if c is None:
            return "unknown_id"
        if c.status in (CargoStatus.TAKEN, CargoStatus.COMPETITOR):
            return "taken"
        if c.status is CargoStatus.EXPIRED or now > c.remove_time:
            return "expired"
        return None

    def book(self, cargo_id: str) -> Cargo:
        c = self.registry[cargo_id]
        self._unlist(c, CargoStatus.TAKEN)
        return c
