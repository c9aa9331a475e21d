"""The drivers file (docs/competition.md §2.3), read by one loader for the competition
environment and the generator world alike: the official JSON array or our JSON Lines, every bad
row one `ScenarioError` `file:line: field: expected ..., found ...`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.competition.records import (
    MAX_FOUND,
    STRICT_JSON,
    RowError,
    decode_lines,
    finite_number,
    parse_object,
    short_value,
)
from sim.official.timebase import parse_wall
from sim.scenario import ScenarioError


@dataclass(frozen=True)
class DriverRecord:
    driver_id: str
    line: int
    raw: dict  # the row as the file has it (copied out by the env; never handed over)
    lat: float
    lng: float
    cost_per_km: float
    preferences: tuple  # raw entries: strings (S1) or objects (S2-S4)


def _check_preference(i: int, p: object, strict: bool) -> None:
    key = f"preferences[{i}]"
    if isinstance(p, str):
        return
    if not isinstance(p, dict):
        raise RowError(key, "a string or an object {content, penalty_amount, penalty_cap}",
                       short_value(p))
    text = p.get("content", p.get("text"))
    if not isinstance(text, str):
        raise RowError(f"{key}.content", "a string", short_value(text))
    amount = p.get("penalty_amount")
    if amount is not None or strict:
        finite_number(p, f"{key}.penalty_amount", amount, 0.0, 1e12, "a number of yuan (0 to 1e12)")
    cap = p.get("penalty_cap")
    if cap is not None:
        finite_number(p, f"{key}.penalty_cap", cap, 0.0, 1e12, "null or a number of yuan")
    for bound in ("start_time", "end_time"):
        v = p.get(bound)
        if v is None:
            continue
        if not isinstance(v, str) or (strict and parse_wall(v) is None):
            raise RowError(f"{key}.{bound}", "null or a time like 2026-03-01 08:00:00",
                           short_value(v))


def _check_driver(row: dict, strict: bool) -> tuple[str, float, float, float, tuple]:
    did = row.get("driver_id")
    if not isinstance(did, str) or not did.strip():
        raise RowError("driver_id", "a non-empty string", short_value(did))
    if "_" in did:
        raise RowError("driver_id", "an id without '_' (the scorer splits file names on it)",
                       did)
    for key in ("name", "vehicle_no", "truck_length"):
        if key in row and row[key] is not None and not isinstance(row[key], str):
            raise RowError(key, "a string", short_value(row[key]))
    lat = finite_number(row, "current_lat", row.get("current_lat"), -90.0, 90.0, "a latitude")
    lng = finite_number(row, "current_lng", row.get("current_lng"), -180.0, 180.0, "a longitude")
    cpk = row.get("cost_per_km")
    if cpk is not None or strict:
        cpk = finite_number(row, "cost_per_km", cpk, 0.0, 1e6, "yuan per km, 0 or more")
    prefs = row.get("preferences", [])
    if prefs is None or not isinstance(prefs, list):
        raise RowError("preferences", "an array (not null)", short_value(prefs))
    for i, p in enumerate(prefs):
        _check_preference(i, p, strict)
    return did, lat, lng, float(cpk or 0.0), tuple(prefs)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def driver_rows(path: Path, buf: bytes):
    """(line, row) from a JSON array (the official format) or JSON Lines (ours)."""
    try:
        text = buf.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(path, "row", "UTF-8 text", f"byte {buf[exc.start]:#04x}",
                            buf.count(b"\n", 0, exc.start) + 1) from None
    if text.startswith("\ufeff"):
        raise ScenarioError(path, "file", "UTF-8 without a byte-order mark", "a BOM", 1)
    stripped = text.lstrip()
    if not stripped.startswith("["):
        for n, _, _, line in decode_lines(path, buf):
            yield n, parse_object(path, n, line)
        return
    dec = STRICT_JSON
    pos = len(text) - len(stripped) + 1
    first = True
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            raise ScenarioError(path, "drivers", "a closing ]", "end of file",
                                _line_of(text, pos))
        if text[pos] == "]":
            break
        if not first:
            if text[pos] != ",":
                raise ScenarioError(path, "drivers", "',' between drivers", text[pos],
                                    _line_of(text, pos))
            pos += 1
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
        first = False
        n = _line_of(text, pos)
        try:
            row, pos = dec.raw_decode(text, pos)
        except RecursionError:
            raise ScenarioError(path, "row", "a JSON object of reasonable depth",
                                "nesting too deep", n) from None
        except ValueError as exc:
            raise ScenarioError(path, "row", "a JSON array of driver objects",
                                str(exc)[:MAX_FOUND], n) from None
        if not isinstance(row, dict):
            raise ScenarioError(path, "row", "a driver object", short_value(row), n)
        yield n, row
    if text[pos + 1:].strip():
        raise ScenarioError(path, "drivers", "nothing after the closing ]",
                            text[pos + 1:].strip()[:MAX_FOUND], _line_of(text, pos + 1))


def load_driver_records(path: str | Path, strict: bool = True) -> list[DriverRecord]:
    path = Path(path)
    if not path.is_file():
        raise ScenarioError(path, "file", "an existing drivers file", str(path))
    out: list[DriverRecord] = []
    seen: dict[str, int] = {}
    for n, row in driver_rows(path, path.read_bytes()):
        try:
            did, lat, lng, cpk, prefs = _check_driver(row, strict)
        except RowError as e:
            raise ScenarioError(path, e.key, e.expected, e.found, n) from None
        if did in seen:
            raise ScenarioError(path, "driver_id", "a unique driver id",
                                f"{did} (also on line {seen[did]})", n)
        seen[did] = n
        out.append(DriverRecord(did, n, row, lat, lng, cpk, prefs))
    if not out:
        raise ScenarioError(path, "drivers", "at least one driver", "none", None)
    return out
