"""MarketMemory: how each searched grid has paid, by hour bucket, and where to search next.

A grid is an H3 cell at the scenario's memory resolution (coarser than the market index). The
value estimate follows the write-up: higher best route net and more items raise it, a streak
of low-yield searches (nothing found, or the best net below a threshold) halves it per step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import h3

from memory.time_price import HourRates
from memory.tokens import FactLog, TokenCounter
from sim.geo import Geography, Point, great_circle_km, in_guangdong
from sim.official.timebase import DAY
from sim.world.events import Event, SearchDone

ITEM_VALUE = 20.0  # yuan of value per item on average: density matters, but less than price
STREAK_DECAY = 0.5
PRIOR_VALUE = 400.0  # what an unsearched grid at the province's densest spot is taken to be
PRIOR_SCALE_KM = 15.0
BUCKET_HOURS = 4  # hour buckets of the day for per-bucket stats
FRESH_MINUTES = 10.0  # a grid searched this recently is still known: no need to ask again
LOW_YIELD_MINUTES = 30.0  # a grid that just gave little is left alone this long
REACH_NEAREST = 10  # a search's reach: the mean distance to its nearest this many pickups


@dataclass(slots=True)
class GridStats:
    queries: int = 0
    items: int = 0
    best_net: float = 0.0
    streak: int = 0
    last_t: float = 0.0

    @property
    def avg_items(self) -> float:
        return self.items / self.queries if self.queries else 0.0

    @property
    def value(self) -> float:
        return (max(self.best_net, 0.0) + ITEM_VALUE * min(self.avg_items, 50.0)) * (
            STREAK_DECAY ** self.streak)

    def add(self, n: int, best: float, low: bool, t: float) -> None:
        self.queries += 1
        self.items += n
        self.best_net = max(self.best_net, best)
        self.streak = self.streak + 1 if low else 0
        self.last_t = t


@dataclass(frozen=True, slots=True)
class GridFact:
    cell: str
    lat: float
    lng: float
    value: float
    queries: int
    avg_items: float
    best_net: float
    streak: int
    searched: bool
    last_t: float = -1.0

    def worth_query(self, now: float) -> bool:
        """Whether querying this grid now could tell the driver something new."""
        if not self.searched:
            return self.value > 0
        age = now - self.last_t
        if age < FRESH_MINUTES or (self.streak >= 1 and age < LOW_YIELD_MINUTES):
            return False
        return self.streak < 3 or age > 4 * LOW_YIELD_MINUTES

    def short_line(self) -> str:
        return (f"{self.cell} value {self.value:.0f}"
                + (f" streak {self.streak}" if self.streak else "")
                + ("" if self.searched else " unsearched"))

    def line(self) -> str:
        if not self.searched:
            return f"{self.cell} ({self.lat:.3f},{self.lng:.3f}) unsearched prior {self.value:.0f}"
        return (f"{self.cell} ({self.lat:.3f},{self.lng:.3f}) value {self.value:.0f} "
                f"q{self.queries} items {self.avg_items:.1f} best {self.best_net:.0f} "
                f"streak {self.streak}")


class MarketMemory:
    def __init__(self, geo: Geography, res: int, low_yield_net: float,
                 counter: TokenCounter | None, bucket_hours: int = BUCKET_HOURS,
                 learn_reach: bool = False) -> None:
        self.geo, self.res = geo, res
        self.low_yield_net, self.bucket_hours = low_yield_net, bucket_hours
        self.grids: dict[str, GridStats] = {}
        self.by_bucket: dict[tuple[str, int], GridStats] = {}
        self.queries_by_day: dict[int, int] = {}
        self.repeated_low_yield = 0  # searches in a grid whose streak was already >= 1
        self.hours = HourRates()  # the best order rate searches found, by clock hour
        # per grid: the summed reach of its searches and their count (see `reach_km`); learnt
        # only for a run that values destinations (`[policy] place_weight`)
        self.learn_reach = learn_reach
        self.reach: dict[str, list[float]] = {}
        self.log = FactLog(counter)

    def bucket(self, t: float) -> int:
        return int((t % DAY) // 60) // self.bucket_hours

    def cell(self, lat: float, lng: float) -> str:
        return _cell(lat, lng, self.res)

    def on_event(self, ev: Event) -> None:
        if not isinstance(ev, SearchDone) or ev.rejected is not None:
            return
        best = ev.best_net
        low = not ev.results or best < self.low_yield_net
        cell = self.cell(ev.lat, ev.lng)
        g = self.grids.setdefault(cell, GridStats())
        if g.streak >= 1 and low:
            self.repeated_low_yield += 1
        g.add(len(ev.results), best, low, ev.t)
        self.by_bucket.setdefault((cell, self.bucket(ev.t)), GridStats()).add(
            len(ev.results), best, low, ev.t)
        if self.learn_reach and ev.results:
            near = sorted(great_circle_km(ev.lat, ev.lng, c.origin.lat, c.origin.lng)
                          for c in ev.results)[:REACH_NEAREST]
            r = self.reach.setdefault(cell, [0.0, 0])
            r[0] += sum(near) / len(near)
            r[1] += 1
        day = int(ev.t // DAY)
        self.queries_by_day[day] = self.queries_by_day.get(day, 0) + 1
        self.log.append(f"t{ev.t:.0f} search {cell} n{len(ev.results)} best {best:.0f}"
                        + (" low" if low else ""))

    # -- what agents read ------------------------------------------------------------------
    def stats(self, cell: str, t: float | None = None) -> GridStats | None:
        """Stats for the hour bucket of `t` when that bucket has data, else all hours."""
        if t is not None:
            b = self.by_bucket.get((cell, self.bucket(t)))
            if b is not None:
                return b
        return self.grids.get(cell)

    def prior(self, cell: str) -> float:
        """What an unsearched grid is worth before any search: population density around it.

        Census weights of counties within reach, decaying with distance, scaled so the densest
        spot of the province gets PRIOR_VALUE. Memoised on the run's Geography, shared by all
        drivers.
        """
        key = ("grid_prior", cell)
        v = self.geo.memo.get(key)
        if v is None:
            lat, lng = h3.cell_to_latlng(cell)
            v = PRIOR_VALUE * min(1.0, self.geo.density(lat, lng, PRIOR_SCALE_KM))
            self.geo.memo[key] = v
        return v

    def fact(self, cell: str, t: float | None = None) -> GridFact:
        lat, lng = _centre(cell)
        g = self.stats(cell, t)
        if g is None:
            return GridFact(cell, lat, lng, self.prior(cell), 0, 0.0, 0.0, 0, False)
        return GridFact(cell, lat, lng, g.value, g.queries, g.avg_items, g.best_net, g.streak,
                        True, g.last_t)

    def ranked(self, around: Point, k: int = 2, t: float | None = None) -> list[GridFact]:
        """Grids within k rings of `around` (centres inside Guangdong), best value first."""
        cells = _disk(self.cell(around.lat, around.lng), k)
        facts = [f for f in (self.fact(c, t) for c in cells) if _inside(f.lat, f.lng)]
        facts.sort(key=lambda f: (-f.value, f.cell))
        return facts

    def best(self, around: Point, k: int = 2, t: float | None = None) -> GridFact | None:
        """`ranked(around, k, t)[0]` (None when empty), with only the winner's fact built: the
        same order (value, then cell id) over the same grids."""
        top: tuple[float, str] | None = None
        for c in _disk(self.cell(around.lat, around.lng), k):
            lat, lng = _centre(c)
            if not _inside(lat, lng):
                continue
            g = self.stats(c, t)
            key = (-(g.value if g is not None else self.prior(c)), c)
            if top is None or key < top:
                top = key
        return None if top is None else self.fact(top[1], t)

    def avoid(self, n: int | None = None, min_streak: int = 2) -> list[GridFact]:
        facts = [self.fact(c) for c, g in self.grids.items() if g.streak >= min_streak]
        facts.sort(key=lambda f: (-f.streak, f.cell))
        return facts if n is None else facts[:n]

    def local_facts(self, around: Point, k: int = 3, t: float | None = None) -> list[GridFact]:
        """Searched grids within k rings (about 45 km at resolution 5), best value first.

        What a driver can act on: bounded by geography, however long the run."""
        cells = _disk(self.cell(around.lat, around.lng), k)
        facts = [self.fact(c, t) for c in cells if c in self.grids]
        facts.sort(key=lambda f: (-f.value, f.cell))
        return facts

    def all_facts(self, t: float | None = None) -> list[GridFact]:
        facts = [self.fact(c, t) for c in self.grids]
        facts.sort(key=lambda f: (-f.value, f.cell))
        return facts

    def reach_km(self, lat: float, lng: float) -> float | None:
        """How far the nearest pickups lie around a place, as its grid's searches found them
        (the grids one ring around it when its own was never searched; None: none known)."""
        cell = self.cell(lat, lng)
        r = self.reach.get(cell)
        if r is not None:
            return r[0] / r[1]
        near = [r[0] / r[1] for c in _disk(cell, 1) if (r := self.reach.get(c)) is not None]
        return sum(near) / len(near) if near else None

    def queries_today(self, t: float) -> int:
        return self.queries_by_day.get(int(t // DAY), 0)

    # -- state -----------------------------------------------------------------------------
    def get_state(self) -> dict:
        def g(s: GridStats) -> list:
            return [s.queries, s.items, s.best_net, s.streak, s.last_t]

        return {"grids": {c: g(s) for c, s in self.grids.items()},
                "by_bucket": [[c, b, g(s)] for (c, b), s in self.by_bucket.items()],
                "queries_by_day": {str(k): v for k, v in self.queries_by_day.items()},
                "repeated_low_yield": self.repeated_low_yield, "log": self.log.get_state(),
                "hours": self.hours.get_state(), "reach": self.reach}

    def set_state(self, s: dict) -> None:
        self.grids = {c: GridStats(*v) for c, v in s["grids"].items()}
        self.by_bucket = {(c, b): GridStats(*v) for c, b, v in s["by_bucket"]}
        self.queries_by_day = {int(k): v for k, v in s["queries_by_day"].items()}
        self.repeated_low_yield = s["repeated_low_yield"]
        self.log.set_state(s["log"])
        if "hours" in s:
            self.hours.set_state(s["hours"])
        self.reach = {c: list(v) for c, v in s.get("reach", {}).items()}


# Grid geometry is fixed: every driver asks the same cells, rings and centres step after step,
# so the answers are kept (pure functions of their arguments).
@lru_cache(maxsize=1 << 16)
def _cell(lat: float, lng: float, res: int) -> str:
    return h3.latlng_to_cell(lat, lng, res)


@lru_cache(maxsize=1 << 16)
def _centre(cell: str) -> tuple[float, float]:
    return h3.cell_to_latlng(cell)


@lru_cache(maxsize=1 << 15)
def _disk(cell: str, k: int) -> tuple[str, ...]:
    return tuple(h3.grid_disk(cell, k))


@lru_cache(maxsize=1 << 16)
def _inside(lat: float, lng: float) -> bool:
    return in_guangdong(lat, lng)


def grid_table(events, res: int, low_yield_net: float):
    """Per-grid market stats rebuilt from a run's search events (all drivers pooled).

    The same arithmetic as MarketMemory, from what events.parquet keeps (count, best_net), so
    a notebook can map market value without the run's live memory.
    """
    import json

    import pandas as pd

    s = events[(events.kind == "search") & events.reason.isna()].sort_values("seq")
    grids: dict[str, GridStats] = {}
    for lat, lng, n, d, t in zip(s.lat, s.lng, s["count"], s.detail, s.t, strict=True):
        best = json.loads(d)["best_net"] if isinstance(d, str) else 0.0
        cell = h3.latlng_to_cell(lat, lng, res)
        grids.setdefault(cell, GridStats()).add(int(n), best, n == 0 or best < low_yield_net, t)
    rows = []
    for cell, g in grids.items():
        lat, lng = h3.cell_to_latlng(cell)
        rows.append({"cell": cell, "lat": lat, "lng": lng, "queries": g.queries,
                     "avg_items": g.avg_items, "best_net": g.best_net, "streak": g.streak,
                     "value": g.value})
    return pd.DataFrame(rows)
