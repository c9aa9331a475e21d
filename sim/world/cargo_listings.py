"""The scenario's market by listing day, for drawers that must name cargo that exists.

A generated driver's must-take rule (K19) names a cargo id; an id the market never lists costs
every agent the fine, and a take attempt of a missing id aborts the official scoring (§6 step
7). So the drawer picks from the cargo the run itself will list. `MarketListings` wraps the
run's own cargo stream: a drawer asking for a day reads the stream ahead to the end of that day
(only then, and only that far: most scenarios draw no must-take rule), and the world iterating
it afterwards gets the cargo read ahead first, then the rest of the stream; nothing is drawn
twice and the cargo the world lists is unchanged. Only the columns a drawer needs are kept per
day; the cargo read ahead is held until the world takes it.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Iterable, Iterator

import numpy as np

from sim.preferences.kinds.drawing import Listed
from sim.world.cargo import Cargo

EMPTY = Listed((), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0))


class MarketListings:
    """The run's cargo (creation order, times in minutes from `start`): iterate it to get every
    cargo once; `listed_on(day)` gives the cargo created on `day` (a `CargoMarket`)."""

    def __init__(self, cargo: Iterable[Cargo], start: dt.datetime) -> None:
        self._it = iter(cargo)
        self._start = start
        self._ahead: deque[Cargo] = deque()  # read for a drawer, not yet taken by the world
        self._days: dict[dt.date, Listed] = {}
        self._open: dt.date | None = None  # the day being read, and its rows so far
        self._rows: list[tuple[str, float, float, float, float]] = []
        self._done = False
        self._taken = False  # the world has read past the cargo read ahead

    def __iter__(self) -> Iterator[Cargo]:
        return self

    def __next__(self) -> Cargo:
        if self._ahead:
            return self._ahead.popleft()
        self._taken = True
        return next(self._it)

    def listed_on(self, day: dt.date) -> Listed:
        if self._taken:  # the days after the world's reading would be incomplete
            raise RuntimeError("listed_on after the world started reading the market")
        while not self._done and (self._open is None or self._open <= day):
            c = next(self._it, None)
            if c is None:
                self._close()
                self._done = True
                break
            self._ahead.append(c)
            d = (self._start + dt.timedelta(minutes=c.create_time)).date()
            if d != self._open:
                if self._open is not None and d < self._open:
                    raise ValueError(f"cargo {c.cargo_id} is listed before the cargo read "
                                     "before it: the market must come in creation order")
                self._close()
                self._open = d
            midnight = dt.datetime.combine(d, dt.time()) - self._start
            self._rows.append((c.cargo_id, c.origin.lat, c.origin.lng,
                               c.remove_time - c.create_time,
                               c.create_time - midnight.total_seconds() / 60))
        return self._days.get(day, EMPTY)

    def _close(self) -> None:
        if self._open is not None and self._rows:
            cols = np.array([r[1:] for r in self._rows], dtype=float)
            self._days[self._open] = Listed([r[0] for r in self._rows], cols[:, 0], cols[:, 1],
                                            cols[:, 2], cols[:, 3])
        self._rows = []
