"""Run time of the hindsight optimum on a synthetic month: 1 driver x N days x M cargo per day.

The stream imitates the reported market (docs/competition.md §9): origins around the Pearl River
Delta cities and eastern Guangdong, 2-dp coordinates, online about 85 minutes, cost time about
180 + 2 min per haul km, about 5.3 yuan per km plus a base, 60% with a loading window.
Measured 2026-12-02 on the shared 2-core dev host (load ~8): 31 days x 16,000 cargo with the
default caps (idle 180 min, pickup 120 km, 16 successors): build 5.5 s, solve 245 s wall / about
50 s CPU, 77,473 labels settled, 42 orders, peak RSS 468 MB. Looser caps (360 min, 200 km, 48)
gave the same net on 2 days x 16,000; exact mode (all caps 0) gave the same net as the defaults on
3 seeds of 2 days x 300 cargo (5-15 s each) and does not finish 2 days x 1,500 within 200 s.
usage: python benchmarks/hindsight_scale.py [--days 31] [--per-day 16000] [--idle 180]
       [--pickup-km 120] [--successors 16] [--seed 7]   (a cap of 0 means none: exact)
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

from sim.hindsight import CargoTable, solve

CITIES = np.array([  # lat, lng, weight
    (22.55, 114.06, 0.22), (23.02, 113.75, 0.18), (23.13, 113.26, 0.18), (23.02, 113.12, 0.12),
    (23.11, 114.42, 0.10), (23.55, 116.37, 0.08), (24.29, 116.12, 0.06), (21.27, 110.36, 0.06),
])


def synthetic(days: int, per_day: int, seed: int) -> CargoTable:
    rng = np.random.default_rng(seed)
    n = days * per_day
    w = CITIES[:, 2] / CITIES[:, 2].sum()

    def points(k: int) -> tuple[np.ndarray, np.ndarray]:
        city = rng.choice(len(CITIES), size=k, p=w)
        lat = CITIES[city, 0] + rng.normal(0, 0.12, k)
        lng = CITIES[city, 1] + rng.normal(0, 0.12, k)
        return np.round(lat, 2), np.round(lng, 2)

    slat, slng = points(n)
    elat, elng = points(n)
    local = rng.random(n) < 0.6  # most hauls stay near the origin city
    elat = np.where(local, np.round(slat + rng.normal(0, 0.15, n), 2), elat)
    elng = np.where(local, np.round(slng + rng.normal(0, 0.15, n), 2), elng)
    create = rng.integers(0, days * 1440, n)
    remove = create + np.clip(rng.exponential(85, n), 5, 600).astype(np.int64)
    has_win = rng.random(n) < 0.6
    ws = create + rng.integers(0, 180, n)
    we = ws + rng.integers(30, 360, n)
    lat1, lat2 = np.radians(slat), np.radians(elat)
    h = (np.sin((lat2 - lat1) / 2) ** 2
         + np.cos(lat1) * np.cos(lat2) * np.sin(np.radians(elng - slng) / 2) ** 2)
    haul = 2 * 6371.0 * np.arcsin(np.sqrt(np.clip(h, 0, 1)))
    cost_time = (180 + 2.0 * haul * rng.uniform(0.9, 1.3, n)).astype(np.int64)
    price = (150 + 5.3 * haul) * rng.uniform(0.8, 1.2, n)
    return CargoTable.from_arrays(
        ids=np.array([f"S{i}" for i in range(n)], dtype=object), create=create, remove=remove,
        win_start=np.where(has_win, ws, -(10**12)), win_end=np.where(has_win, we, 10**12),
        cost_time=cost_time, price=price, slat=slat, slng=slng, elat=elat, elng=elng)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=31)
    ap.add_argument("--per-day", type=int, default=16000)
    ap.add_argument("--idle", type=int, default=180)
    ap.add_argument("--pickup-km", type=float, default=120.0)
    ap.add_argument("--successors", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    t0 = time.perf_counter()
    table = synthetic(a.days, a.per_day, a.seed)
    t1 = time.perf_counter()
    res = solve(table, start_lat=22.55, start_lng=114.06, days=a.days, speed=60.0,
                cost_per_km=1.5, version="S3", max_idle_minutes=a.idle or None,
                max_pickup_km=a.pickup_km or None, max_successors=a.successors or None)
    t2 = time.perf_counter()
    print(json.dumps({
        "days": a.days, "cargo": len(table), "caps": {"idle": a.idle, "pickup_km": a.pickup_km,
                                                      "successors": a.successors},
        "build_s": round(t1 - t0, 2), "solve_s": round(t2 - t1, 2),
        "labels_settled": res.labels_settled, "orders": len(res.orders),
        "net": round(res.net, 2), "net_per_day": round(res.net / a.days, 2),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }))


if __name__ == "__main__":
    main()
