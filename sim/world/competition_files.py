"""Import of competition-format files into the GENERATOR world (`[cargo] file`, `[drivers] file`).

cargo rows: cargo_id, create_time, remove_time (wall clock), start/end {lat, lng},
load_time [start, end] or null, cost_time_minutes, price (fen).
driver rows: driver_id, current_lat, current_lng, cost_per_km,
preferences [{content, penalty_amount, penalty_cap}].
A bad row raises ScenarioError with the file and line number. Rows are read by the same strict
reader as the competition environment (UTF-8, no NaN/Infinity, bounded nesting), numbers must be
real finite numbers (not bools or strings), times carry no timezone, ids are unique.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from sim.competition.drivers_file import load_driver_records
from sim.competition.records import (
    MAX_COST_MINUTES,
    MAX_PRICE_FEN,
    RowError,
    decode_lines,
    finite_number,
    parse_object,
    short_value,
)
from sim.geo import Geography, Point, in_guangdong
from sim.scenario import DriverSpec, PreferenceEntry, ScenarioError, rule_from_entry
from sim.world.cargo import Cargo


def _rows(path: Path):
    if not path.is_file():
        raise ScenarioError(path, "file", "an existing regular file", str(path))
    for n, _, _, text in decode_lines(path, path.read_bytes()):
        yield n, parse_object(path, n, text)


def _number(path: Path, n: int, key: str, v: Any, lo: float, hi: float, what: str) -> float:
    try:
        return finite_number({}, key, v, lo, hi, what)
    except RowError as e:
        raise ScenarioError(path, e.key, e.expected, e.found, n) from None


def _field(path: Path, n: int, row: dict, key: str) -> Any:
    if key not in row:
        raise ScenarioError(path, key, "the field to be present", "missing", n)
    return row[key]


def _minutes(path: Path, n: int, key: str, value: Any, start: datetime) -> float:
    try:
        t = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        t = None
    if t is None or t.tzinfo is not None:
        raise ScenarioError(path, key, "a time like 2026-03-02 08:00:00 (no timezone)",
                            short_value(value), n)
    return (t - start).total_seconds() / 60.0


def _point(path: Path, n: int, key: str, value: Any) -> Point:
    if not isinstance(value, dict):
        raise ScenarioError(path, key, "an object {lat, lng} of numbers", short_value(value), n)
    p = Point(_number(path, n, f"{key}.lat", value.get("lat"), -90, 90, "a latitude"),
              _number(path, n, f"{key}.lng", value.get("lng"), -180, 180, "a longitude"))
    if not in_guangdong(p.lat, p.lng):
        raise ScenarioError(path, key, "a point inside Guangdong", value, n)
    return p


def load_world_cargo(path: str | Path, start: datetime, geo: Geography, competitor_share: float,
               rng: np.random.Generator) -> list[Cargo]:
    path = Path(path)
    out: list[Cargo] = []
    seen: dict[str, int] = {}
    for n, row in _rows(path):
        raw_id = _field(path, n, row, "cargo_id")
        cid = str(raw_id).strip()
        if raw_id is None or isinstance(raw_id, bool | dict | list) or not cid:
            raise ScenarioError(path, "cargo_id", "a non-empty string or number",
                                short_value(raw_id), n)
        if cid in seen:
            raise ScenarioError(path, "cargo_id", "a unique cargo id",
                                f"{cid} (also on line {seen[cid]})", n)
        seen[cid] = n
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
        cost = _number(path, n, "cost_time_minutes", cost, 0, MAX_COST_MINUTES,
                       "minutes of zero or more")
        price = _number(path, n, "price", price, 0, MAX_PRICE_FEN, "a price in fen, zero or more")
        competitor = None
        if rng.random() < competitor_share:
            competitor = create + float(rng.uniform(0.0, max(remove - create, 0.0)))
        out.append(Cargo(cid, origin, dest, float(price) / 100.0, create, load_start, load_end,
                         remove, float(cost), geo.road_km(origin, dest), competitor,
                         category=str(row.get("cargo_name") or "").strip(),
                         start_city=str(row["start"].get("city") or ""),
                         end_city=str(row["end"].get("city") or "")))
    out.sort(key=lambda c: (c.create_time, c.cargo_id))
    return out


def load_drivers(path: str | Path) -> list[DriverSpec]:
    """The drivers file as the generator world's drivers: read by the one drivers-file loader
    (sim/competition/drivers_file.py), then what this world adds: a start inside Guangdong, a
    positive cost per km (1.5 when left out) and each preference entry as a PreferenceEntry."""
    path = Path(path)
    out: list[DriverSpec] = []
    for rec in load_driver_records(path, strict=False):
        if not in_guangdong(rec.lat, rec.lng):
            raise ScenarioError(path, "current_lat", "a start inside Guangdong",
                                [rec.lat, rec.lng], rec.line)
        cpk = _number(path, rec.line, "cost_per_km", rec.raw.get("cost_per_km", 1.5), 1e-9, 1e6,
                      "a positive number")
        rules = [read_entry(path, rec.line, p) for p in rec.preferences]
        out.append(DriverSpec(rec.driver_id, rec.lat, rec.lng, float(cpk),
                              tuple(r for r in rules if r is not None)))
    return out


def read_entry(path: Path, n: int, p: object) -> PreferenceEntry | None:
    """What one preference entry of a drivers file (on line `n`) is in the generator world: a
    competition-kind PreferenceEntry (its text read by the scorer's parser at the end of the run, or
    reported as unscored), or None (empty)."""
    if isinstance(p, str):  # the S1 form: text only, fine and cap from the text
        return PreferenceEntry(p.strip()) if p.strip() else None
    if not isinstance(p, dict) or "content" not in p:
        raise ScenarioError(path, "preferences", "objects {content, penalty_amount, penalty_cap}",
                            short_value(p), n)
    for key in ("penalty_amount", "penalty_cap"):  # a fine we cannot read is a clear error
        if p.get(key) is not None:
            _number(path, n, f"preferences.{key}", p[key], 0, 1e12, "null or a number of yuan")
    return rule_from_entry(p)
