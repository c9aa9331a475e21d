"""Competition-format files for tests: cargo JSON Lines and a drivers JSON array, seeded."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import numpy as np

from sim.official.timebase import EPOCH, WALL_FORMAT

CITIES = [("广东省深圳市南山区", 22.53, 113.93), ("广东省东莞市", 23.02, 113.75),
          ("广东省佛山市顺德区", 22.80, 113.29), ("广东省广州市白云区", 23.16, 113.27),
          ("广东省惠州市", 23.11, 114.41), ("广东省揭阳市", 23.55, 116.37)]
CATEGORIES = ["蔬菜", "水果", "建材", "化工塑料", "机械设备", "食品饮料", "快递快运搬家"]


def wall(minutes: int) -> str:
    return (EPOCH + timedelta(minutes=int(minutes))).strftime(WALL_FORMAT)


def cargo_rows(days: int = 3, per_day: int = 200, seed: int = 7) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(days * per_day):
        create = int(rng.integers(0, days * 1440))
        online = int(rng.integers(30, 240))
        a, b = rng.choice(len(CITIES), 2, replace=False)
        sa, sb = CITIES[a], CITIES[b]
        start = {"lat": round(sa[1] + rng.uniform(-0.1, 0.1), 2),
                 "lng": round(sa[2] + rng.uniform(-0.1, 0.1), 2), "city": sa[0]}
        end = {"lat": round(sb[1] + rng.uniform(-0.1, 0.1), 2),
               "lng": round(sb[2] + rng.uniform(-0.1, 0.1), 2), "city": sb[0]}
        w0 = create + int(rng.integers(0, 120))
        window = None if i % 5 == 0 else [wall(w0), wall(w0 + int(rng.integers(60, 360)))]
        rows.append({
            "cargo_id": str(100000 + i), "create_time": wall(create),
            "remove_time": wall(create + online), "start": start, "end": end,
            "load_time": window, "cost_time_minutes": int(rng.integers(120, 600)),
            "price": int(rng.integers(20000, 150000)),
            "cargo_name": CATEGORIES[i % len(CATEGORIES)], "truck_length": "4.2米",
        })
    return rows


def driver_rows(n: int = 10, seed: int = 3) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        _, lat, lng = CITIES[i % 4]
        prefs: list = [{"content": "每月至少休息3天。",
                        "start_time": "2026-03-01 00:00:00", "end_time": "2026-03-31 23:59:59",
                        "penalty_amount": 100, "penalty_cap": None}]
        if i % 3 == 0:
            prefs.append({"content": "Do not drive between 23:00 and 5:00.",
                          "start_time": "2026-03-02 00:00:00",
                          "end_time": "2026-03-02 23:59:59", "penalty_amount": 200,
                          "penalty_cap": 200})
        out.append({"driver_id": f"D{i + 1:03d}", "name": f"司机{i + 1}",
                    "vehicle_no": f"粤B{10000 + i}", "truck_length": "4.2米",
                    "cost_per_km": round(1.2 + 0.1 * (i % 4), 2),
                    "current_lat": round(lat + rng.uniform(-0.05, 0.05), 4),
                    "current_lng": round(lng + rng.uniform(-0.05, 0.05), 4),
                    "preferences": prefs})
    return out


def write_cargo(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def write_drivers(path: Path, rows: list[dict]) -> Path:
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=2), encoding="utf-8")
    return path
