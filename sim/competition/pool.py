"""One driver's cargo pool over the shared table (§3.3, §4.7): what is online, k nearest.

The table never changes; a pool only remembers which rows this driver has taken or attempted,
so every driver starts on a full fresh pool and drivers never interfere (and may run in threads).
"""

from __future__ import annotations

import numpy as np

from sim.competition.records import CargoTable
from sim.geo import haversine_np


def nearest(d: np.ndarray, k: int) -> np.ndarray:
    """Positions of the min(k, n) smallest of d, nearest first, ties as numpy orders them."""
    take = min(k, len(d))
    if take <= 0:
        return np.empty(0, dtype=np.int64)
    part = np.argpartition(d, take - 1)[:take]
    return part[np.argsort(d[part])]


class Pool:
    def __init__(self, table: CargoTable) -> None:
        self.table = table
        self.gone = np.zeros(len(table), dtype=bool)  # taken or attempted by this driver
        self._gone_list: list[int] = []
        self._create_online = table.create[table.order]

    def online(self, now: int) -> np.ndarray:
        """Row indices online at `now` (create ≤ now ≤ remove, not gone), in online order."""
        t = self.table
        hi = int(np.searchsorted(self._create_online, now, side="right"))
        cand = t.order[:hi]
        return cand[(t.remove[cand] >= now) & ~self.gone[cand]]

    def is_online(self, i: int, now: int) -> bool:
        t = self.table
        return bool(t.create[i] <= now <= t.remove[i]) and not self.gone[i]

    def discard(self, i: int) -> None:
        if not self.gone[i]:
            self.gone[i] = True
            self._gone_list.append(i)

    def size(self, now: int) -> int:
        """Not yet listed plus online: rows not expired at `now` that this driver has not used."""
        t = self.table
        alive = len(t) - int(np.searchsorted(t.remove_sorted, now, side="left"))
        return alive - sum(1 for i in self._gone_list if t.remove[i] >= now)

    def query(self, now: int, lat: float, lng: float, k: int) -> list[tuple[int, float]]:
        """(row, distance_km) of the k online rows whose pickup is nearest to (lat, lng)."""
        idx = self.online(now)
        if not len(idx):
            return []
        d = haversine_np(lat, lng, self.table.lat[idx], self.table.lng[idx])
        sel = nearest(d, k)
        return [(int(idx[j]), float(d[j])) for j in sel]
