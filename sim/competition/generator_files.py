"""Import of competition-format files into the GENERATOR world (`[cargo] file`, `[drivers] file`).

cargo rows: cargo_id, create_time, remove_time (wall clock), start/end {lat, lng},
load_time [start, end] or null, cost_time_minutes, price (fen).
driver rows: driver_id, current_lat, current_lng, cost_per_km,
preferences [{content, penalty_amount, penalty_cap}].
A bad row raises ScenarioError with the file and line number.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from sim.cargo import Cargo
from sim.geo import Geography, Point, in_guangdong
from sim.preference_text import PreferenceParseError, parse_preference
from sim.scenario import DriverSpec, ScenarioError


def _rows(path: Path):
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ScenarioError(path, "row", "one JSON object per line", str(exc), n) from None
            if not isinstance(row, dict):
                raise ScenarioError(path, "row", "a JSON object", row, n)
            yield n, row


def _field(path: Path, n: int, row: dict, key: str) -> Any:
    if key not in row:
        raise ScenarioError(path, key, "the field to be present", "missing", n)
    return row[key]


def _minutes(path: Path, n: int, key: str, value: Any, start: datetime) -> float:
    try:
        t = datetime.fromisoformat(str(value))
    except ValueError:
        raise ScenarioError(path, key, "a time like 2026-03-02 08:00:00", value, n) from None
    return (t - start).total_seconds() / 60.0


def _point(path: Path, n: int, key: str, value: Any) -> Point:
    try:
        p = Point(float(value["lat"]), float(value["lng"]))
    except (TypeError, KeyError, ValueError):
        raise ScenarioError(path, key, "an object {lat, lng} of numbers", value, n) from None
    if not in_guangdong(p.lat, p.lng):
        raise ScenarioError(path, key, "a point inside Guangdong", value, n)
    return p


def load_cargo(path: str | Path, start: datetime, geo: Geography, competitor_share: float,
               rng: np.random.Generator) -> list[Cargo]:
    path = Path(path)
    out: list[Cargo] = []
    for n, row in _rows(path):
        cid = str(_field(path, n, row, "cargo_id"))
        create = _minutes(path, n, "create_time", _field(path, n, row, "create_time"), start)
        remove = _minutes(path, n, "remove_time", _field(path, n, row, "remove_time"), start)
        if remove < create:
            raise ScenarioError(path, "remove_time", "a time not before create_time",
                                row["remove_time"], n)
        origin = _point(path, n, "start", _field(path, n, row, "start"))
        dest = _point(path, n, "end", _field(path, n, row, "end"))
        lt = row.get("load_time")
        if lt is None:
            load_start, load_end = create, remove
        else:
            if not isinstance(lt, list) or len(lt) != 2:
                raise ScenarioError(path, "load_time", "[start, end] or null", lt, n)
            load_start = _minutes(path, n, "load_time", lt[0], start)
            load_end = _minutes(path, n, "load_time", lt[1], start)
            if load_end < load_start:
                raise ScenarioError(path, "load_time",
                                    "a loading window whose end is not before its start", lt, n)
        cost = _field(path, n, row, "cost_time_minutes")
        price = _field(path, n, row, "price")
        if not isinstance(cost, int | float) or cost < 0:
            raise ScenarioError(path, "cost_time_minutes", "minutes of zero or more", cost, n)
        if not isinstance(price, int | float) or price < 0:
            raise ScenarioError(path, "price", "a price in fen, zero or more", price, n)
        competitor = None
        if rng.random() < competitor_share:
            competitor = create + float(rng.uniform(0.0, max(remove - create, 0.0)))
        out.append(Cargo(cid, origin, dest, float(price) / 100.0, create, load_start, load_end,
                         remove, float(cost), geo.road_km(origin, dest), competitor))
    out.sort(key=lambda c: (c.create_time, c.cargo_id))
    return out


def load_drivers(path: str | Path) -> list[DriverSpec]:
    path = Path(path)
    out: list[DriverSpec] = []
    for n, row in _rows(path):
        did = str(_field(path, n, row, "driver_id"))
        lat, lng = _field(path, n, row, "current_lat"), _field(path, n, row, "current_lng")
        if not all(isinstance(x, int | float) for x in (lat, lng)):
            raise ScenarioError(path, "current_lat", "numbers for current_lat/current_lng",
                                [lat, lng], n)
        if not in_guangdong(lat, lng):
            raise ScenarioError(path, "current_lat", "a start inside Guangdong", [lat, lng], n)
        cpk = row.get("cost_per_km", 1.5)
        if not isinstance(cpk, int | float) or cpk <= 0:
            raise ScenarioError(path, "cost_per_km", "a positive number", cpk, n)
        prefs = []
        for p in row.get("preferences") or []:
            if not isinstance(p, dict) or "content" not in p:
                raise ScenarioError(path, "preferences",
                                    "objects {content, penalty_amount, penalty_cap}", p, n)
            try:
                prefs.append(parse_preference(str(p["content"]),
                                              float(p.get("penalty_amount", 100.0)),
                                              float(p.get("penalty_cap", 1000.0))))
            except PreferenceParseError as exc:
                raise ScenarioError(path, "preferences.content",
                                    "a preference the rules parser understands",
                                    str(exc), n) from None
        out.append(DriverSpec(did, float(lat), float(lng), float(cpk), tuple(prefs)))
    return out
