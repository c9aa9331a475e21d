"""wait / reposition / take_order: the minute arithmetic and results of §4.2-§4.5, exactly.

Each function mutates one driver's state and returns the result dict the log records. A
malformed decision raises (§4.6); the run loop turns that into end reason `error`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.competition.pool import Pool
from sim.competition.records import parse_cost_minutes
from sim.geo import haversine_km
from sim.official.timebase import drive_minutes, parse_wall, to_minutes, wall_time

ACTIONS = ("wait", "reposition", "take_order")
SNAP_KM = 1e-6
ACCEPTED_DETAIL = "接单后已完成、推进时间并更新到卸货地"
EXPIRED_DETAIL = "load_time_window_expired"


class DecisionError(ValueError):
    """A decision the orchestrator cannot apply (§4.6)."""


@dataclass
class EnvDriver:
    driver_id: str
    lat: float
    lng: float
    t: int = 0
    completed: int = 0


def _clock(s: EnvDriver) -> dict:
    return {"simulation_progress_minutes": s.t, "simulation_wall_time": wall_time(s.t)}


def action_name(decision: Any) -> str:
    if not isinstance(decision, dict):
        raise DecisionError(f"decide must return a dict, got {type(decision).__name__}")
    if "action" not in decision:
        raise DecisionError("decision has no 'action'")
    name = decision["action"]
    if not isinstance(name, str) or name.strip().lower() not in ACTIONS:
        raise DecisionError(f"unknown action: {name!r}")
    return name.strip().lower()


def params_of(decision: dict) -> dict:
    params = decision.get("params", {})
    if not isinstance(params, dict):
        raise DecisionError(f"params must be an object, got {type(params).__name__}")
    return params


def wait(s: EnvDriver, params: dict) -> dict:
    minutes = int(params.get("duration_minutes", 1))
    if minutes < 0:
        raise DecisionError(f"duration_minutes must not be negative: {minutes}")
    s.t += minutes
    return _clock(s)


def reposition(s: EnvDriver, params: dict, speed_kmh: float) -> dict:
    lat, lng = float(params["latitude"]), float(params["longitude"])
    d = haversine_km(s.lat, s.lng, lat, lng)
    s.t += drive_minutes(d, speed_kmh)
    s.lat, s.lng = lat, lng
    return {"current_lat": lat, "current_lng": lng, **_clock(s), "distance_km": round(d, 2)}


def _not_online(s: EnvDriver, cid: str) -> dict:
    s.t += 1
    return {"action": "take_order", "accepted": False, "detail": f"cargo_id 已失效: {cid}",
            **_clock(s)}


def parse_window(lt: Any) -> tuple[int, int] | str | None:
    """(start, end) minutes, None for no window, or "bad" for a malformed one (§2.2)."""
    if lt is None:
        return None
    if not isinstance(lt, list | tuple) or len(lt) != 2:
        return "bad"
    a, b = parse_wall(lt[0]), parse_wall(lt[1])
    if a is None or b is None:
        return "bad"
    w0, w1 = to_minutes(a), to_minutes(b)
    return "bad" if w1 < w0 else (w0, w1)


def _point(v: Any) -> tuple[float, float] | None:
    try:
        return float(v["lat"]), float(v["lng"])
    except (TypeError, KeyError, ValueError):
        return None


def take_order(s: EnvDriver, params: dict, pool: Pool, speed_kmh: float,
               horizon: int) -> dict:
    cid = str(params["cargo_id"])
    i = pool.table.index.get(cid)  # untrimmed id against trimmed keys (§4.8)
    if i is None or not pool.is_online(i, s.t):
        return _not_online(s, cid)
    pool.discard(i)  # gone from this driver's pool whatever happens next
    cargo = pool.table.record(i)
    key = pool.table.keys[i]
    slat, slng = float(pool.table.lat[i]), float(pool.table.lng[i])
    window = parse_window(cargo.get("load_time"))
    if window == "bad":
        return _not_online(s, key)
    p = haversine_km(s.lat, s.lng, slat, slng)
    pickup = drive_minutes(p, speed_kmh) if p > SNAP_KM else 0
    t0 = s.t
    arrival = t0 + pickup
    reachable = window is None or arrival <= window[1]
    eligible = True
    if reachable:
        if cargo.get("cost_time_minutes") is None:
            raise DecisionError(f"cargo {key} has no cost_time_minutes")
        cost = parse_cost_minutes(cargo["cost_time_minutes"])
        if cost is None or cost < 0:
            return _not_online(s, key)
        wait_min = max(0, window[0] - arrival) if window is not None else 0
        eligible = t0 + pickup + wait_min + cost <= horizon
    s.t = arrival
    s.lat, s.lng = slat, slng
    base = {"driver_id": s.driver_id, "cargo_id": key}
    if not reachable:
        return {"accepted": False, "detail": EXPIRED_DETAIL, **base, **_clock(s),
                "pickup_deadhead_km": round(p, 2), "haul_distance_km": 0}
    if window is not None and s.t < window[0]:
        s.t = window[0]
    if "end" not in cargo:
        raise DecisionError(f"cargo {key} has no end")
    end = _point(cargo["end"])
    if end is None:
        return _not_online(s, key)
    s.t += cost
    s.lat, s.lng = end
    s.completed += 1
    return {"accepted": True, "detail": ACCEPTED_DETAIL, **base, **_clock(s),
            "pickup_deadhead_km": round(p, 2),
            "haul_distance_km": round(haversine_km(slat, slng, end[0], end[1]), 2),
            "income_eligible": eligible}


def apply(s: EnvDriver, decision: dict, pool: Pool, speed_kmh: float, horizon: int) -> dict:
    name = action_name(decision)
    params = params_of(decision)
    if name == "wait":
        return wait(s, params)
    if name == "reposition":
        return reposition(s, params, speed_kmh)
    return take_order(s, params, pool, speed_kmh, horizon)
