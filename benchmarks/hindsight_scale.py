"""Run time and memory of the hindsight optimum at real density.

Two uses:
- a synthetic month, one driver, one search with fixed caps (1 driver x N days x M cargo a day);
- `--cargo FILE --drivers FILE`: what `freightsim bench` runs on a competition month, i.e. every
  driver's bound within a time limit and a memory ceiling
  (sim.analysis.hindsight.bounded_hindsight_for_run: exact where it fits, else a ladder of capped
  searches), printed per driver with its kind.

The synthetic stream imitates the reported market (docs/competition.md §9): origins around the Pearl
River Delta cities and eastern Guangdong, 2-dp coordinates, online about 85 minutes, cost time
about 180 + 2 min per haul km, about 5.3 yuan per km plus a base, 60% with a loading window.
Figures: docs/benchmarks-hindsight.md.
usage: python benchmarks/hindsight_scale.py [--days 31] [--per-day 16000] [--idle 180]
       [--pickup-km 120] [--successors 16] [--seed 7]   (a cap of 0 means none: exact)
       python benchmarks/hindsight_scale.py --cargo cargo.jsonl --drivers drivers.json
       [--days 31] [--version S4] [--time-limit 300] [--memory-gb 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np

from sim.analysis.hindsight import (
    HindsightCargo,
    HindsightLimits,
    bounded_hindsight_for_run,
    current_rss_bytes,
    solve,
)
from sim.geo import haversine_rad_np

CITIES = np.array([  # lat, lng, weight
    (22.55, 114.06, 0.22), (23.02, 113.75, 0.18), (23.13, 113.26, 0.18), (23.02, 113.12, 0.12),
    (23.11, 114.42, 0.10), (23.55, 116.37, 0.08), (24.29, 116.12, 0.06), (21.27, 110.36, 0.06),
])


def synthetic(days: int, per_day: int, seed: int) -> HindsightCargo:
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
    haul = haversine_rad_np(lat1, np.radians(slng), np.cos(lat1), lat2, np.radians(elng),
                            np.cos(lat2))
    cost_time = (180 + 2.0 * haul * rng.uniform(0.9, 1.3, n)).astype(np.int64)
    price = (150 + 5.3 * haul) * rng.uniform(0.8, 1.2, n)
    return HindsightCargo.from_arrays(
        ids=np.array([f"S{i}" for i in range(n)], dtype=object), create=create, remove=remove,
        win_start=np.where(has_win, ws, -(10**12)), win_end=np.where(has_win, we, 10**12),
        cost_time=cost_time, price=price, slat=slat, slng=slng, elat=elat, elng=elng)


def bench_month(a: argparse.Namespace) -> None:
    """The bench's bounded hindsight on a real cargo file, per driver."""
    from sim.scoring.scorer import default_parser, parsed_dict

    parser = default_parser()

    def parse(p: object) -> dict | None:
        text = p if isinstance(p, str) else p.get("content", "")  # type: ignore[union-attr]
        return None if parser is None else parsed_dict(parser(text))

    def rows():
        with open(a.cargo, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)

    t0 = time.perf_counter()
    table = HindsightCargo.from_records(rows())
    t1 = time.perf_counter()
    rss_table = current_rss_bytes()
    drivers = json.loads(Path(a.drivers).read_text(encoding="utf-8"))
    limits = HindsightLimits(time_s=a.time_limit, max_rss_bytes=int(a.memory_gb * 2**30))
    out = bounded_hindsight_for_run(table, drivers, a.days, a.version, 60.0,
                                    parse_preference=parse, limits=limits)
    t2 = time.perf_counter()
    for did, b in out.items():
        r = b.result
        print(json.dumps({"driver": did, "bound": str(b.bound), "net": round(r.net, 2),
                          "upper": round(b.upper, 2), "caps": dict(r.caps),
                          "solve_s": r.solve_s, "stopped": r.stopped,
                          "exact_not_used": b.exact_stop, "orders": len(r.orders),
                          "relaxed_kinds": list(r.relaxed_kinds)}, ensure_ascii=False))
    print(json.dumps({
        "cargo": len(table), "drivers": len(drivers), "days": a.days,
        "load_s": round(t1 - t0, 2), "hindsight_s": round(t2 - t1, 2),
        "cpu_s": round(time.process_time(), 2),
        "rss_after_load_mb": (rss_table or 0) // 2**20,
        "net": round(sum(b.result.net for b in out.values()), 2),
        "upper": round(sum(b.upper for b in out.values()), 2),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cargo", help="official cargo JSON Lines: run the bench's bounded search")
    ap.add_argument("--drivers", help="official drivers.json (with --cargo)")
    ap.add_argument("--version", default="S4", help="scoring version (with --cargo)")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds (with --cargo)")
    ap.add_argument("--memory-gb", type=float, default=3.0, help="RSS ceiling (with --cargo)")
    ap.add_argument("--days", type=int, default=31)
    ap.add_argument("--per-day", type=int, default=16000)
    ap.add_argument("--idle", type=int, default=180)
    ap.add_argument("--pickup-km", type=float, default=120.0)
    ap.add_argument("--successors", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if a.cargo:
        if not a.drivers:
            ap.error("--cargo needs --drivers")
        bench_month(a)
        return
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
