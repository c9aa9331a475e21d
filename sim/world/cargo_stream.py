"""The calibrated market (`[cargo] model = "calibrated"`) as official cargo records (§2.2).

docs/competition.md §9 reports what the real first-round market looks like: about 16,000 cargo a
day, origins concentrated in the Pearl River Delta, hauls of 2-330 km, a price curve, takes that
cost about 237 + 2.37 min/km. `official_cargo_records` draws such a market day by day and yields
each cargo as the dict the official JSON Lines file holds, so the same stream can be exported
(`freightsim export-cargo`), fed to the competition rules, or read back as world cargo.

Every draw comes from a stream of its own (`calibrated_rng`), spawned from the scenario seed with
a key the world never uses, so the generator world's cargo, driver and policy streams are
untouched whatever this module draws. Work is vectorised per simulated day; only one day's arrays
are alive at a time, so a month of 500,000 rows streams in a few tens of MB.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime, timedelta

import numpy as np

from sim.geo import (
    LAT_MAX,
    LAT_MIN,
    LNG_MAX,
    LNG_MIN,
    Geography,
    Point,
    county_arrays,
    haversine_np,
)
from sim.scenario import CargoConfig, Scenario
from sim.world.cargo import Cargo

EPOCH = datetime(2026, 3, 1)
# A spawn key no other stream uses: the world spawns children 0-3 of SeedSequence(seed).
STREAM_KEY = 0x43414C  # "CAL"
KM_PER_DEG_LAT = 110.574
KM_PER_DEG_LNG = 111.320
DAY_S = 86400
BLOCK = 2048  # rows per rows x counties matrix

def calibrated_rng(seed: int) -> np.random.Generator:
    """The calibrated market's own stream: same seed, same market, other streams untouched."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM_KEY,)))


def official_km(lat1: np.ndarray, lng1: np.ndarray, lat2: np.ndarray,
                lng2: np.ndarray) -> np.ndarray:
    """§2.1 haversine (R = 6371.0), vectorised: the distance the competition pays and charges,
    computed by the environment's own query haversine so generated hauls and query distances
    agree to the last bit."""
    return haversine_np(lat1, lng1, lat2, lng2)


class CountyKm:
    """Equirectangular km from points to every county: exact enough inside one province for
    choosing counties, and the same doubles as the plain expression
    `hypot((lng2 - lng1) * KM_PER_DEG_LNG * cos(radians((lat1 + lat2) / 2)), (lat2 - lat1) *
    KM_PER_DEG_LAT)` (the market's draws depend on them), at two thirds of its cost.

    The cosine of the mid-latitude is most of the work, and the points this market asks about
    are rounded to 0.01 degrees (`np.round(x, 2)`), so each row's cosines are one row of a
    table computed once: the same expression on the same doubles. A point off the grid (or
    outside the table) gets its cosines computed as before, so the result never differs.
    """

    PAD = 3.0  # degrees of table beyond the province's box: destinations are tried off it

    def __init__(self, lat: np.ndarray, lng: np.ndarray) -> None:
        self.lat, self.lng = lat, lng
        self.i0 = round((LAT_MIN - self.PAD) * 100)
        grid = np.arange(self.i0, round((LAT_MAX + self.PAD) * 100) + 1) / 100
        self.grid = np.round(grid, 2)  # the doubles np.round(x, 2) yields
        self.cos = np.cos(np.radians((self.grid[:, None] + lat[None, :]) / 2))

    def __call__(self, plat: np.ndarray, plng: np.ndarray) -> np.ndarray:
        """km from each point (rows) to each county (columns)."""
        i = np.clip(np.rint(plat * 100).astype(np.int64) - self.i0, 0, self.grid.size - 1)
        on_grid = self.grid[i] == plat
        c = self.cos[i]
        if not on_grid.all():
            off = ~on_grid
            c[off] = np.cos(np.radians((plat[off, None] + self.lat[None, :]) / 2))
        dx = self.lng[None, :] - plng[:, None]
        dx *= KM_PER_DEG_LNG
        dx *= c
        dy = self.lat[None, :] - plat[:, None]
        dy *= KM_PER_DEG_LAT
        return np.hypot(dx, dy, out=dx)


def _weights(table: tuple[tuple[str, float], ...]) -> tuple[list[str], np.ndarray]:
    names = [n for n, _ in table]
    w = np.array([x for _, x in table], dtype=float)
    return names, w / w.sum()


class CalibratedMarket:
    """Draws one simulated day of calibrated cargo at a time, as column arrays."""

    def __init__(self, cfg: CargoConfig, seed: int) -> None:
        self.cfg = cfg
        self.rng = calibrated_rng(seed)
        self.k = county_arrays()
        self.county_km = CountyKm(self.k.lat, self.k.lng)
        city_w = dict(cfg.origin_city_weights)
        # a city's weight is spread over its counties by population
        city_pop: dict[str, float] = {}
        for c, p in zip(self.k.city, self.k.pop, strict=True):
            city_pop[c] = city_pop.get(c, 0.0) + p
        w = np.array([city_w.get(c, 0.0) * p / city_pop[c]
                      for c, p in zip(self.k.city, self.k.pop, strict=True)])
        self.origin_p = w / w.sum()
        hw = np.array(cfg.hour_weights, dtype=float)
        self.per_hour = cfg.cargo_per_day * hw / hw.sum()
        self.categories, self.category_p = _weights(cfg.category_weights)
        self.trucks, self.truck_p = _weights(cfg.truck_length_weights)

    # -- the pieces of one cargo ---------------------------------------------------------
    def _hauls(self, n: int) -> np.ndarray:
        """Straight-line haul targets: a short/long lognormal mixture truncated to the range."""
        c, rng = self.cfg, self.rng
        lo, hi = c.haul_km_range
        out = np.empty(n)
        todo = np.arange(n)
        while todo.size:
            short = rng.random(todo.size) < c.haul_short_share
            med = np.where(short, c.haul_short_median_km, c.haul_long_median_km)
            sig = np.where(short, c.haul_short_sigma, c.haul_long_sigma)
            d = med * np.exp(sig * rng.standard_normal(todo.size))
            ok = (d >= lo) & (d <= hi)
            out[todo[ok]] = d[ok]
            todo = todo[~ok]
        return out

    def _origins(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        k, rng = self.k, self.rng
        oi = rng.choice(len(self.origin_p), size=n, p=self.origin_p)
        sig = k.radius[oi] / 2
        lat = k.lat[oi] + rng.standard_normal(n) * sig / KM_PER_DEG_LAT
        lng = k.lng[oi] + rng.standard_normal(n) * sig / (
            KM_PER_DEG_LNG * np.cos(np.radians(k.lat[oi])))
        lat = np.round(np.clip(lat, LAT_MIN, LAT_MAX), 2)
        lng = np.round(np.clip(lng, LNG_MIN, LNG_MAX), 2)
        return oi, lat, lng

    def _on_land(self, lat: np.ndarray, lng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(nearest county, whether the point is plausibly inside it rather than at sea)."""
        k = self.k
        near = np.empty(lat.size, dtype=np.int64)
        gap = np.empty(lat.size)
        for a in range(0, lat.size, BLOCK):  # blocks keep the rows x counties matrix small
            sl = slice(a, a + BLOCK)
            d = self.county_km(lat[sl], lng[sl])
            near[sl] = d.argmin(axis=1)
            gap[sl] = d[np.arange(d.shape[0]), near[sl]]
        inside = gap <= 1.2 * k.radius[near] + 2.0
        box = (lat >= LAT_MIN) & (lat <= LAT_MAX) & (lng >= LNG_MIN) & (lng <= LNG_MAX)
        return near, inside & box

    def _destinations(self, olat: np.ndarray, olng: np.ndarray, target: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Points at the target distance, towards a county that lies about that far away.

        A county is chosen with weight population x Gaussian(centroid distance - target); the
        point sits at exactly the target distance on the bearing to it (with a spread of about
        the county's size), so the haul distribution is the one configured and destinations
        still fall where people live. Points at sea are re-aimed; rows that cannot be placed
        come back as `ok == False` for the caller to redraw.
        """
        k, rng, bw = self.k, self.rng, self.cfg.dest_bandwidth_km
        n = olat.size
        u = rng.random(n)
        j = np.empty(n, dtype=np.int64)
        dj = np.empty(n)
        for a in range(0, n, BLOCK):
            sl = slice(a, a + BLOCK)
            dc = self.county_km(olat[sl], olng[sl])
            cum = np.cumsum(k.pop[None, :] * np.exp(-0.5 * ((dc - target[sl, None]) / bw) ** 2),
                            axis=1)
            j[sl] = np.minimum((cum < (u[sl] * cum[:, -1])[:, None]).sum(axis=1), len(k.lat) - 1)
            dj[sl] = dc[np.arange(dc.shape[0]), j[sl]]
        aim = np.arctan2((k.lng[j] - olng) * np.cos(np.radians(olat)), k.lat[j] - olat)
        spread = (k.radius[j] / 2 + 2.0) / np.maximum(target, 1.0)
        local = dj < k.radius[j]  # already inside the chosen county: any direction
        lat, lng = np.empty(n), np.empty(n)
        ok = np.zeros(n, dtype=bool)
        todo = np.arange(n)
        for _ in range(12):
            m = todo.size
            if not m:
                break
            theta = np.where(local[todo], rng.uniform(-math.pi, math.pi, m),
                             aim[todo] + spread[todo] * rng.standard_normal(m))
            la = olat[todo] + target[todo] * np.cos(theta) / KM_PER_DEG_LAT
            ln = olng[todo] + target[todo] * np.sin(theta) / (
                KM_PER_DEG_LNG * np.cos(np.radians(olat[todo])))
            la, ln = np.round(la, 2), np.round(ln, 2)
            _, land = self._on_land(la, ln)
            hit = todo[land]
            lat[hit], lng[hit], ok[hit] = la[land], ln[land], True
            todo = todo[~land]
        near, _ = self._on_land(np.where(ok, lat, olat), np.where(ok, lng, olng))
        return lat, lng, near, ok

    def day(self, t0_s: int, t1_s: int, first_hour: int) -> dict[str, np.ndarray] | None:
        """Cargo created in [t0_s, t1_s) seconds from the start, columns sorted by create time.

        `first_hour` is the clock hour at t0_s (hours are aligned to the scenario start).
        """
        c, rng = self.cfg, self.rng
        slots = np.arange(t0_s, t1_s, 3600)
        length = np.minimum(slots + 3600, t1_s) - slots
        hours = (first_hour + np.arange(slots.size)) % 24
        counts = rng.poisson(self.per_hour[hours] * length / 3600)
        n = int(counts.sum())
        if n == 0:
            return None
        create = np.sort(np.repeat(slots, counts)
                         + np.floor(rng.random(n) * np.repeat(length, counts)).astype(np.int64))
        oi, olat, olng = self._origins(n)
        target = self._hauls(n)
        dlat, dlng, di, ok = self._destinations(olat, olng, target)
        haul = official_km(olat, olng, dlat, dlng)
        lo, hi = c.haul_km_range
        ok &= (haul >= lo) & (haul <= hi)
        for _ in range(20):  # redraw the few rows that found no land or rounded out of range
            bad = np.flatnonzero(~ok)
            if not bad.size:
                break
            t2 = self._hauls(bad.size)
            la, ln, ni, ok2 = self._destinations(olat[bad], olng[bad], t2)
            h2 = official_km(olat[bad], olng[bad], la, ln)
            ok2 &= (h2 >= lo) & (h2 <= hi)
            dlat[bad], dlng[bad], di[bad], haul[bad], ok[bad] = la, ln, ni, h2, ok2
        price = np.maximum(1.0, np.round((c.line_price_base + c.line_price_per_km * haul)
                                         * np.exp(c.line_price_noise * rng.standard_normal(n))))
        cost = np.round((c.cost_fixed_minutes + c.cost_minutes_per_km * haul)
                        * np.exp(c.cost_noise * rng.standard_normal(n))).astype(np.int64)
        lo_on, hi_on = c.online_minutes_range
        online = np.clip(c.online_median_minutes * np.exp(c.online_sigma * rng.standard_normal(n)),
                         lo_on, hi_on)
        remove = create + np.round(online * 60).astype(np.int64)
        window = rng.random(n) < c.window_share
        lead = np.round(rng.uniform(*c.window_lead_minutes, n)).astype(np.int64)
        span = np.round(rng.uniform(*c.window_length_minutes, n)).astype(np.int64)
        w_start = (-(-create // 60) + lead) * 60  # whole minutes, not before listing
        w_end = w_start + span * 60
        cat = rng.choice(len(self.category_p), size=n, p=self.category_p)
        truck = rng.choice(len(self.truck_p), size=n, p=self.truck_p)
        keep = ok  # rows still unplaced after the redraws are dropped (never seen in practice)
        cols = {"create": create, "remove": remove, "oi": oi, "olat": olat, "olng": olng,
                "di": di, "dlat": dlat, "dlng": dlng, "haul": haul, "price_yuan": price,
                "cost": cost, "window": window, "w_start": w_start, "w_end": w_end,
                "category": cat, "truck": truck}
        return {key: v[keep] for key, v in cols.items()}

    def days(self, start: datetime, minutes: float) -> Iterator[dict[str, np.ndarray]]:
        """Column batches, one per simulated day, over the horizon from `start`."""
        total_s = round(minutes * 60)
        for t0 in range(0, total_s, DAY_S):
            batch = self.day(t0, min(t0 + DAY_S, total_s), (start.hour + t0 // 3600) % 24)
            if batch is not None:
                yield batch


def _clock(start: datetime, seconds: np.ndarray) -> list[str]:
    """'YYYY-MM-DD HH:MM:SS' for second offsets from `start`, vectorised."""
    base = np.datetime64(start.replace(microsecond=0), "s")
    text = np.datetime_as_string(base + seconds.astype("timedelta64[s]"), unit="s")
    return np.char.replace(text, "T", " ").tolist()


def scenario_start(sc: Scenario) -> datetime:
    return datetime.fromisoformat(sc.scenario.start)


def official_cargo_records(sc: Scenario) -> Iterator[dict]:
    """The scenario's calibrated market as official cargo rows (§2.2), in listing order.

    Deterministic from the scenario seed; times count from the scenario start (2026-03-01
    00:00:00 in competition rules); coordinates have 2 decimals like the official file; `price`
    is in fen. Streams one simulated day at a time. It reads the calibrated keys of `[cargo]`
    whatever `model` says (their defaults are the §9 calibration), so a competition scenario
    without a cargo file gets this market even if it never set `model = "calibrated"`.
    """
    market = CalibratedMarket(sc.cargo, sc.scenario.seed)
    names = market.k.names
    start = scenario_start(sc)
    n = 0
    for b in market.days(start, sc.minutes):
        create, remove = _clock(start, b["create"]), _clock(start, b["remove"])
        ws, we = _clock(start, b["w_start"]), _clock(start, b["w_end"])
        rows = zip(create, remove, b["oi"].tolist(), b["olat"].tolist(), b["olng"].tolist(),
                   b["di"].tolist(), b["dlat"].tolist(), b["dlng"].tolist(),
                   b["window"].tolist(), ws, we, b["cost"].tolist(),
                   (b["price_yuan"] * 100).astype(np.int64).tolist(), b["category"].tolist(),
                   b["truck"].tolist(), strict=True)
        for (c, r, oi, olat, olng, di, dlat, dlng, win, s, e, cost, fen, cat, truck) in rows:
            n += 1
            yield {
                "cargo_id": f"C{n:08d}",
                "create_time": c,
                "remove_time": r,
                "start": {"lat": olat, "lng": olng, "city": names[oi]},
                "end": {"lat": dlat, "lng": dlng, "city": names[di]},
                "load_time": [s, e] if win else None,
                "cost_time_minutes": cost,
                "price": fen,
                "cargo_name": market.categories[cat],
                "truck_length": market.trucks[truck],
            }


def world_cargo(sc: Scenario, geo: Geography, rng: np.random.Generator) -> Iterator:
    """The same records as generator-world cargo, read the way the official loader reads them:
    minutes floored from the scenario start, no window = loadable while listed. Competitor
    takes draw from `rng` (the world's cargo stream), as for an imported cargo file."""
    start = scenario_start(sc)
    share = sc.cargo.competitor_share

    def minute(text: str) -> float:
        return float((datetime.fromisoformat(text) - start) // timedelta(minutes=1))

    for r in official_cargo_records(sc):
        create, remove = minute(r["create_time"]), minute(r["remove_time"])
        lt = r["load_time"]
        ls, le = (create, remove) if lt is None else (minute(lt[0]), minute(lt[1]))
        o = Point(r["start"]["lat"], r["start"]["lng"])
        d = Point(r["end"]["lat"], r["end"]["lng"])
        competitor = None
        if rng.random() < share:
            competitor = create + float(rng.uniform(0.0, remove - create))
        yield Cargo(r["cargo_id"], o, d, r["price"] / 100.0, create, ls, le, remove,
                    float(r["cost_time_minutes"]), geo.road_km(o, d), competitor,
                    category=r["cargo_name"], start_city=r["start"]["city"],
                    end_city=r["end"]["city"])


# -- calibration tools (the notebook and the tests compare the market with §9 through these) --
def records_frame(records: Iterator[dict] | list[dict], start: datetime = EPOCH):
    """Official cargo rows as a pandas table in minutes from `start` (the official flooring),
    with the straight-line haul, price in yuan, and the origin/destination city."""
    import pandas as pd

    rows = list(records)
    base = np.datetime64(start.replace(microsecond=0), "s")

    def minutes(texts: list[str]) -> np.ndarray:
        t = np.array(texts, dtype="datetime64[s]") - base
        return np.floor_divide(t.astype(np.int64), 60)

    lt = [r["load_time"] for r in rows]
    has = np.array([w is not None for w in lt])
    ws = minutes([w[0] if w else "1970-01-01 00:00:00" for w in lt]).astype(float)
    we = minutes([w[1] if w else "1970-01-01 00:00:00" for w in lt]).astype(float)
    df = pd.DataFrame({
        "cargo_id": [r["cargo_id"] for r in rows],
        "create": minutes([r["create_time"] for r in rows]),
        "remove": minutes([r["remove_time"] for r in rows]),
        "olat": [r["start"]["lat"] for r in rows], "olng": [r["start"]["lng"] for r in rows],
        "dlat": [r["end"]["lat"] for r in rows], "dlng": [r["end"]["lng"] for r in rows],
        "origin": [r["start"]["city"] for r in rows], "dest": [r["end"]["city"] for r in rows],
        "window_start": np.where(has, ws, np.nan), "window_end": np.where(has, we, np.nan),
        "cost": [r["cost_time_minutes"] for r in rows],
        "price": np.array([r["price"] for r in rows]) / 100.0,
        "category": [r["cargo_name"] for r in rows],
        "truck_length": [r["truck_length"] for r in rows],
    })
    df["km"] = official_km(df.olat.to_numpy(), df.olng.to_numpy(), df.dlat.to_numpy(),
                           df.dlng.to_numpy())
    df["origin_city"] = df.origin.str.slice(3, 6)
    return df


def simulated_takes(df, rng: np.random.Generator, pickup_km: tuple[float, float] = (1.0, 60.0),
                    speed_kmh: float = 60.0):
    """Execution minutes of one greedy-ish take of every cargo, per the official action rules.

    The driver decides at a uniform moment while the cargo is listed, stands a uniform
    `pickup_km` from the pickup (one of the cargo a k = 100 query returns; 1-60 km, mean 30,
    puts the deadhead share of a long-haul driver's km at §9's 12-19%), drives there at
    `speed_kmh` (§4.1 minutes), waits for the window to open, then spends cost_time_minutes.
    Returns (execution minutes, whether the take fails because the window closed first,
    pickup km).
    """
    t0 = np.floor(df["create"] + rng.random(len(df)) * (df["remove"] - df["create"]))
    p = rng.uniform(*pickup_km, len(df))
    drive = np.maximum(1, np.ceil(p / speed_kmh * 60))
    arrive = t0 + drive
    window = df["window_start"].notna().to_numpy()
    late = window & (arrive > df["window_end"].fillna(np.inf)).to_numpy()
    wait = np.where(window, np.maximum(0.0, df["window_start"].fillna(0) - arrive), 0.0)
    return drive + wait + df["cost"].to_numpy(), late, p
