"""The raw cargo file as the scorer reads it (§2.2, §4.8, §6).

Lookup is by trimmed `cargo_id` over the whole file; the last line wins for a duplicate id and
lines without an id are skipped. A malformed line (bad window other than end < start, non-integer
cost time, bad coordinates, missing create/remove time) aborts the whole scoring run, so loading
raises `CargoFileError` with the line number.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sim.geo import haversine_km
from sim.official.timebase import wall_to_minutes


class CargoFileError(ValueError):
    """The cargo file cannot be scored against (the official scorer aborts the run)."""


@dataclass(frozen=True, slots=True)
class CargoRecord:
    cargo_id: str
    create_min: int
    remove_min: int
    start_lat: float
    start_lng: float
    start_city: str
    end_lat: float
    end_lng: float
    end_city: str
    window: tuple[int, int] | None  # loading window in minutes; end < start reads as none
    cost_time_minutes: int
    price_fen: float
    category: str

    @property
    def haul_km(self) -> float:
        return haversine_km(self.start_lat, self.start_lng, self.end_lat, self.end_lng)


def _point(row: dict, key: str) -> tuple[float, float, str]:
    p = row.get(key)
    if not isinstance(p, dict):
        raise ValueError(f"{key} must be an object {{lat, lng, city}}")
    lat, lng = float(p["lat"]), float(p["lng"])
    city = p.get("city")
    return lat, lng, "" if city is None else str(city)


def _window(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(value):
        raise ValueError(f"load_time must be null or [start, end], got {value!r}")
    a, b = (wall_to_minutes(str(v)) for v in value)
    return None if b < a else (a, b)


def parse_cargo_row(row: dict) -> CargoRecord:
    """One cargo object -> record; ValueError/KeyError/TypeError name what is wrong."""
    cid = str(row["cargo_id"]).strip()
    for key in ("create_time", "remove_time"):
        if not isinstance(row.get(key), str):
            raise ValueError(f"{key} must be a wall-clock string")
    slat, slng, scity = _point(row, "start")
    elat, elng, ecity = _point(row, "end")
    return CargoRecord(
        cargo_id=cid,
        create_min=wall_to_minutes(row["create_time"]),
        remove_min=wall_to_minutes(row["remove_time"]),
        start_lat=slat, start_lng=slng, start_city=scity,
        end_lat=elat, end_lng=elng, end_city=ecity,
        window=_window(row.get("load_time")),
        cost_time_minutes=int(row.get("cost_time_minutes")),  # type: ignore[arg-type]
        price_fen=float(row.get("price", 0) or 0),
        category=str(row.get("cargo_name") or "").strip(),
    )


def index_cargo(rows: Iterable[dict]) -> dict[str, CargoRecord]:
    out: dict[str, CargoRecord] = {}
    for row in rows:
        rec = parse_cargo_row(row)
        out[rec.cargo_id] = rec
    return out


_last_index: tuple[tuple, Mapping[str, CargoRecord]] | None = None
_last_lock = threading.Lock()


def load_cargo_index(path: Path) -> Mapping[str, CargoRecord]:
    """The file's cargo by id, read-only. The last file read is kept while its bytes are the
    same (a SHA-1 of the file, a fraction of a second for a month's 200 MB against half a
    minute of parsing): a competition run scores itself, and a harness scores it again against
    the gold drivers file. Only one index is kept, so memory stays bounded by one month."""
    global _last_index
    try:
        digest = hashlib.sha1(usedforsecurity=False)
        with path.open("rb") as fb:
            while chunk := fb.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        raise CargoFileError(f"cannot read cargo file {path}: {exc}") from None
    key = (str(path.resolve()), digest.digest())
    with _last_lock:
        if _last_index is not None and _last_index[0] == key:
            return _last_index[1]
    index = MappingProxyType(_read_cargo_index(path))
    with _last_lock:
        _last_index = (key, index)
    return index


def _read_cargo_index(path: Path) -> dict[str, CargoRecord]:
    out: dict[str, CargoRecord] = {}
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise CargoFileError(f"cannot read cargo file {path}: {exc}") from None
    with fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise ValueError("not a JSON object")
                if row.get("cargo_id") is None or not str(row["cargo_id"]).strip():
                    continue  # the scorer skips lines without an id
                rec = parse_cargo_row(row)
            except (ValueError, KeyError, TypeError) as exc:
                raise CargoFileError(
                    f"{path}:{n}: malformed cargo line ({type(exc).__name__}: {exc})") from None
            out[rec.cargo_id] = rec
    return out
