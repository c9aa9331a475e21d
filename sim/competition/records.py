"""Loading the official cargo JSON Lines strictly (docs/competition.md §2.2), and the strict row
reader the drivers file shares (sim/competition/drivers_file.py).

Every bad row is one `ScenarioError` `file:line: field: expected ..., found ...`. The cargo file
is kept as its bytes plus per-row offsets and a few numpy columns: a query parses only the rows
it returns, so 500,000 rows cost little more than the file itself.

`strict=True` (the default) also rejects what the official simulator would only trip over at a
take (a malformed `load_time`, `cost_time_minutes` or `end`) and the scorer would abort on; with
`strict=False` such rows load and fail at the take exactly as §4.4 says. A window whose end is
before its start is legal either way: the simulator fails the take, the scorer ignores it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.official.timebase import wall_minutes
from sim.scenario import ScenarioError

MAX_COST_MINUTES = 1_000_000  # about two years: anything above is a unit mix-up
MAX_PRICE_FEN = 1e12
MAX_FOUND = 80


class RowError(ValueError):
    """One bad field of one row; the loader adds the file and line."""

    def __init__(self, key: str, expected: str, found: object) -> None:
        super().__init__(key)
        self.key, self.expected, self.found = key, expected, found


def short_value(v: object) -> object:
    """The found value as shown in an error, cut so a huge or deep value stays readable."""
    if isinstance(v, str | int | float | bool) or v is None:
        s = repr(v)
        return v if len(s) <= MAX_FOUND else s[:MAX_FOUND] + "..."
    try:
        s = json.dumps(v, ensure_ascii=False)
    except (ValueError, RecursionError, TypeError):
        s = type(v).__name__
    return s if len(s) <= MAX_FOUND else s[:MAX_FOUND] + "..."


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


STRICT_JSON = json.JSONDecoder(parse_constant=_no_constant)  # NaN and Infinity are no numbers


def _loads(text: str) -> Any:
    return STRICT_JSON.decode(text)


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def finite_number(row: dict, key: str, v: object, lo: float, hi: float, what: str) -> float:
    """A JSON number (not a bool, not a string) in [lo, hi]; NaN and ±inf fail the range."""
    tv = type(v)
    if tv is float:
        x = v
    elif tv is int:
        try:
            x = float(v)
        except OverflowError:
            raise RowError(key, what, short_value(v)) from None
    else:
        raise RowError(key, what, short_value(v))
    if not lo <= x <= hi:
        raise RowError(key, what, short_value(v))
    return x


def _point(row: dict, key: str) -> tuple[float, float]:
    v = row.get(key)
    if not isinstance(v, dict):
        raise RowError(key, "an object {lat, lng, city}", short_value(v))
    lat = finite_number(row, f"{key}.lat", v.get("lat"), -90.0, 90.0, "a latitude in degrees")
    lng = finite_number(row, f"{key}.lng", v.get("lng"), -180.0, 180.0, "a longitude in degrees")
    city = v.get("city")
    if city is not None and not isinstance(city, str):
        raise RowError(f"{key}.city", "a string", short_value(city))
    return lat, lng


def _time(row: dict, key: str) -> int:
    v = row.get(key)
    t = wall_minutes(v)
    if t is None:
        raise RowError(key, "a time like 2026-03-01 08:00:00 (no timezone)", short_value(v))
    return t


def cargo_key(v: object) -> str:
    """The pool key of a cargo id (§4.8): str(cargo_id).strip()."""
    return str(v).strip()


def parse_cost_minutes(v: object) -> int | None:
    """§2.2: an int, an integer string, or a float truncated toward zero; None if unusable."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v) if math.isfinite(v) else None
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            return None
    return None


def _check_cargo(row: dict, strict: bool) -> tuple[str, int, int, float, float]:
    if "cargo_id" not in row or row["cargo_id"] is None:
        raise RowError("cargo_id", "a non-empty cargo id", None)
    cid = row["cargo_id"]
    if isinstance(cid, bool) or not isinstance(cid, str | int | float) or (
            isinstance(cid, float) and not math.isfinite(cid)):
        raise RowError("cargo_id", "a string or a number", short_value(cid))
    key = cargo_key(cid)
    if not key:
        raise RowError("cargo_id", "a non-empty cargo id", short_value(cid))
    create = _time(row, "create_time")
    remove = _time(row, "remove_time")
    lat, lng = _point(row, "start")
    finite_number(row, "price", row.get("price"), 0.0, MAX_PRICE_FEN, "a price in fen (0 to 1e12)")
    if strict:
        _point(row, "end")
        lt = row.get("load_time")
        if lt is not None:
            if not isinstance(lt, list) or len(lt) != 2:
                raise RowError("load_time", "null or [start, end] wall-clock strings",
                               short_value(lt))
            for x in lt:
                if wall_minutes(x) is None:
                    raise RowError("load_time", "[start, end] like 2026-03-01 08:00:00",
                                   short_value(lt))
        cost = row.get("cost_time_minutes")
        c = parse_cost_minutes(cost) if not isinstance(cost, bool) else None
        if c is None or not 0 <= c <= MAX_COST_MINUTES or (
                isinstance(cost, float) and not 0 <= cost <= MAX_COST_MINUTES):
            raise RowError("cost_time_minutes",
                           f"whole minutes from 0 to {MAX_COST_MINUTES}", short_value(cost))
    return key, create, remove, lat, lng


def decode_lines(path: Path, buf: bytes):
    """(line number, start offset, end offset, text) for each non-blank line."""
    pos, n, size = 0, 0, len(buf)
    if buf.startswith(b"\xef\xbb\xbf"):
        raise ScenarioError(path, "file", "UTF-8 without a byte-order mark", "a BOM", 1)
    while pos < size:
        nl = buf.find(b"\n", pos)
        if nl < 0:
            nl = size
        n += 1
        raw = buf[pos:nl]
        if raw.strip():
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ScenarioError(path, "row", "UTF-8 text",
                                    f"byte {raw[exc.start]:#04x} at column {exc.start + 1}",
                                    n) from None
            yield n, pos, nl, text
        pos = nl + 1


def parse_object(path: Path, n: int, text: str) -> dict:
    try:
        row = _loads(text)
    except RecursionError:
        raise ScenarioError(path, "row", "a JSON object of reasonable depth",
                            "nesting too deep", n) from None
    except ValueError as exc:
        raise ScenarioError(path, "row", "one JSON object per line", str(exc)[:MAX_FOUND],
                            n) from None
    if not isinstance(row, dict):
        raise ScenarioError(path, "row", "a JSON object", short_value(row), n)
    return row


@dataclass
class CargoTable:
    """The cargo file, immutable once loaded; pools (one per driver) index into it."""

    path: str
    buf: bytes
    offsets: np.ndarray  # (n, 2) byte start/end of each row, file order
    lines: np.ndarray  # physical line number of each row
    keys: list[str]
    index: dict[str, int]
    create: np.ndarray  # int64 minutes
    remove: np.ndarray  # int64 minutes, raised to create where it was earlier (§2.2)
    lat: np.ndarray  # start (pickup) coordinates, degrees
    lng: np.ndarray
    order: np.ndarray = field(init=False)  # online order: create minute, then file line
    remove_sorted: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.order = np.lexsort((self.lines, self.create))
        self.remove_sorted = np.sort(self.remove)

    def __len__(self) -> int:
        return len(self.keys)

    def record(self, i: int) -> dict:
        """A fresh copy of row i as the file has it."""
        a, b = self.offsets[i]
        return _loads(self.buf[a:b].decode("utf-8"))

    def time_range(self) -> tuple[int, int]:
        if not len(self):
            return 0, 0
        return int(self.create.min()), int(self.remove.max())


def load_cargo_table(path: str | Path, strict: bool = True) -> CargoTable:
    path = Path(path)
    if not path.is_file():
        raise ScenarioError(path, "file", "an existing cargo JSON Lines file", str(path))
    buf = path.read_bytes()
    offs: list[tuple[int, int]] = []
    lines: list[int] = []
    keys: list[str] = []
    index: dict[str, int] = {}
    create: list[int] = []
    remove: list[int] = []
    lat: list[float] = []
    lng: list[float] = []
    for n, a, b, text in decode_lines(path, buf):
        row = parse_object(path, n, text)
        try:
            key, c, r, la, ln = _check_cargo(row, strict)
        except RowError as e:
            raise ScenarioError(path, e.key, e.expected, e.found, n) from None
        if key in index:
            raise ScenarioError(path, "cargo_id", "a unique cargo id",
                                f"{key} (also on line {lines[index[key]]})", n)
        index[key] = len(keys)
        keys.append(key)
        offs.append((a, b))
        lines.append(n)
        create.append(c)
        remove.append(max(r, c))
        lat.append(la)
        lng.append(ln)
    return CargoTable(
        str(path.resolve()), buf, np.array(offs, dtype=np.int64).reshape(-1, 2),
        np.array(lines, dtype=np.int64), keys, index, np.array(create, dtype=np.int64),
        np.array(remove, dtype=np.int64), np.array(lat, dtype=np.float64),
        np.array(lng, dtype=np.float64))
