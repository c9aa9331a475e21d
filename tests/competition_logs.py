"""A tiny competition orchestrator for tests: actions over cargo -> action-log records (§4, §5.2).

It applies the official action arithmetic (query scan cost, wait, reposition, take with pickup
drive, window wait and failure modes) and writes records with the later release's float
normalisation, so scorer tests run on logs shaped exactly like the official ones without any
other part of freightsim.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta
from pathlib import Path

EPOCH = datetime(2026, 3, 1)
R = 6371.0
COORD_KEYS = {"lat", "lng", "latitude", "longitude", "current_lat", "current_lng"}
ZERO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "reasoning_tokens": 0,
              "total_tokens": 0}


def hav(lat1, lng1, lat2, lng2) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin((math.radians(lng2) - math.radians(lng1)) / 2)
         ** 2)
    return 2 * R * math.asin(math.sqrt(min(1.0, max(0.0, h))))


def minutes_for(d: float, speed: float) -> int:
    return 1 if d <= 0 else max(1, math.ceil((d / speed) * 60))


def wall(minutes: int, seconds: bool = True) -> str:
    t = EPOCH + timedelta(minutes=minutes)
    return t.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def to_minutes(text: str) -> int:
    return int((datetime.strptime(text, "%Y-%m-%d %H:%M:%S") - EPOCH).total_seconds()) // 60


def normalise(obj, key=None, coords_2dp=False):
    """§5.3: floats to round(x, 2) except direct coordinate values (later release)."""
    if isinstance(obj, dict):
        return {k: normalise(v, k, coords_2dp) for k, v in obj.items()}
    if isinstance(obj, list):
        return [normalise(v, None, coords_2dp) for v in obj]
    if isinstance(obj, float) and not (key in COORD_KEYS and not coords_2dp):
        return round(obj, 2)
    return obj


def cargo_row(cid: str, start: tuple[float, float], end: tuple[float, float], *,
              create: int = 0, remove: int = 60 * 1440, window: tuple[int, int] | None = None,
              cost_time: int = 60, price: float = 100_000, category: str = "蔬菜",
              start_city: str = "广东省深圳市南山区", end_city: str = "广东省东莞市") -> dict:
    """An official cargo line; times are minutes from the epoch."""
    return {
        "cargo_id": cid, "create_time": wall(create), "remove_time": wall(remove),
        "start": {"lat": start[0], "lng": start[1], "city": start_city},
        "end": {"lat": end[0], "lng": end[1], "city": end_city},
        "load_time": None if window is None else [wall(window[0]), wall(window[1])],
        "cost_time_minutes": cost_time, "price": price, "cargo_name": category,
        "truck_length": "4.2米",
    }


class LogBuilder:
    """Drive one driver through actions; `records` are the §5.2 log lines."""

    def __init__(self, driver_id: str, lat: float, lng: float, cargo: list[dict], *,
                 speed: float = 60.0) -> None:
        self.driver_id, self.lat, self.lng, self.speed = driver_id, lat, lng, speed
        self.cargo = {str(c["cargo_id"]).strip(): c for c in cargo}
        self.attempted: set[str] = set()
        self.t = 0
        self.records: list[dict] = []

    # -- actions -----------------------------------------------------------------------
    def wait(self, minutes: int, *, scan: int = 0) -> LogBuilder:
        start, before = self._begin(scan)
        self.t += minutes
        self._record(start, scan, before, {"action": "wait",
                                           "params": {"duration_minutes": minutes}},
                     {"simulation_progress_minutes": self.t,
                      "simulation_wall_time": wall(self.t)})
        return self

    def wait_until(self, minute: int) -> LogBuilder:
        return self.wait(minute - self.t)

    def reposition(self, lat: float, lng: float, *, scan: int = 0) -> LogBuilder:
        start, before = self._begin(scan)
        d = hav(self.lat, self.lng, lat, lng)
        self.t += minutes_for(d, self.speed)
        self.lat, self.lng = lat, lng
        self._record(start, scan, before,
                     {"action": "reposition", "params": {"latitude": lat, "longitude": lng}},
                     {"current_lat": lat, "current_lng": lng,
                      "simulation_progress_minutes": self.t,
                      "simulation_wall_time": wall(self.t), "distance_km": round(d, 2)})
        return self

    def take(self, cid: str, *, scan: int = 0) -> LogBuilder:
        start, before = self._begin(scan)
        act = {"action": "take_order", "params": {"cargo_id": cid}}
        c = self.cargo.get(cid)
        if (c is None or cid in self.attempted
                or not to_minutes(c["create_time"]) <= self.t <= to_minutes(c["remove_time"])):
            self.t += 1
            self._record(start, scan, before, act, {
                "action": "take_order", "accepted": False, "detail": f"cargo_id 已失效: {cid}",
                "simulation_progress_minutes": self.t, "simulation_wall_time": wall(self.t)})
            return self
        self.attempted.add(cid)
        p = hav(self.lat, self.lng, c["start"]["lat"], c["start"]["lng"])
        if p > 1e-6:
            self.t += minutes_for(p, self.speed)
        self.lat, self.lng = c["start"]["lat"], c["start"]["lng"]
        win = c.get("load_time")
        if win is not None:
            a, b = to_minutes(win[0]), to_minutes(win[1])
            if self.t > b:
                self._record(start, scan, before, act, {
                    "accepted": False, "detail": "load_time_window_expired",
                    "driver_id": self.driver_id, "cargo_id": cid,
                    "simulation_progress_minutes": self.t,
                    "simulation_wall_time": wall(self.t),
                    "pickup_deadhead_km": round(p, 2), "haul_distance_km": 0})
                return self
            self.t = max(self.t, a)
        self.t += int(c["cost_time_minutes"])
        self.lat, self.lng = c["end"]["lat"], c["end"]["lng"]
        haul = hav(c["start"]["lat"], c["start"]["lng"], c["end"]["lat"], c["end"]["lng"])
        self._record(start, scan, before, act, {
            "accepted": True, "detail": "接单后已完成、推进时间并更新到卸货地",
            "driver_id": self.driver_id, "cargo_id": cid,
            "simulation_progress_minutes": self.t, "simulation_wall_time": wall(self.t),
            "pickup_deadhead_km": round(p, 2), "haul_distance_km": round(haul, 2),
            "income_eligible": True})
        return self

    # -- plumbing ----------------------------------------------------------------------
    def _begin(self, scan: int) -> tuple[int, dict]:
        start = self.t
        self.t += scan
        return start, {"lat": self.lat, "lng": self.lng}

    def _record(self, start: int, scan: int, before: dict, action: dict, result: dict) -> None:
        exe = self.t - start - scan
        rec = {
            "step": len(self.records) + 1, "driver_id": self.driver_id,
            "step_elapsed_minutes": scan + exe, "query_scan_cost_minutes": scan,
            "action_exec_cost_minutes": exe, "position_before": before,
            "position_after": {"lat": self.lat, "lng": self.lng},
            "simulation_end_time": wall(self.t, seconds=False),
            "action": {**action, "model_usage": dict(ZERO_USAGE)},
            "token_usage": dict(ZERO_USAGE), "result": result,
        }
        self.records.append(normalise(rec))

    def lines(self) -> list[str]:
        return [json.dumps(r, ensure_ascii=False) for r in self.records]


def write_run(root: Path, cargo: list[dict], drivers: list[dict], logs: list[LogBuilder], *,
              days: int = 31, version: str | None = "S4", stamp: str = "20260301_120000",
              speed: float = 60.0) -> Path:
    """Lay out `<root>/competition/` as a competition run writes it; returns root."""
    comp = root / "competition"
    comp.mkdir(parents=True, exist_ok=True)
    (root / "cargo.jsonl").write_text(
        "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cargo), encoding="utf-8")
    (root / "drivers.json").write_text(json.dumps(drivers, ensure_ascii=False, indent=2),
                                       encoding="utf-8")
    inputs = {"cargo": str(root / "cargo.jsonl"), "drivers": str(root / "drivers.json"),
              "reposition_speed_km_per_hour": speed, "simulation_duration_days": days}
    if version:
        inputs["scoring_version"] = version
    (comp / "freightsim_inputs.json").write_text(json.dumps(inputs), encoding="utf-8")
    files = {}
    for b in logs:
        f = comp / f"actions_202603_{b.driver_id}_{stamp}.jsonl"
        f.write_text("".join(x + "\n" for x in b.lines()), encoding="utf-8")
        files[b.driver_id] = str(f)
    summary = {"month": "2026-03", "simulate_time_seconds": 1.25,
               "simulation_duration_days": days,
               "completed_steps": sum(len(b.records) for b in logs),
               "remaining_cargo_count": 0,
               "driver_completed_steps": {b.driver_id: len(b.records) for b in logs},
               "driver_result_files": files}
    (comp / "run_summary_202603.json").write_text(
        json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
    return root


def driver_row(did: str, lat: float, lng: float, prefs: list, cost_per_km: float = 1.5) -> dict:
    return {"driver_id": did, "name": did, "vehicle_no": "粤B00000", "truck_length": "4.2米",
            "cost_per_km": cost_per_km, "current_lat": lat, "current_lng": lng,
            "preferences": prefs}
