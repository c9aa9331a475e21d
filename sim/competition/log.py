"""Action logs and the run summary, byte for byte as §5 describes.

Lines are `json.dumps(record, ensure_ascii=False)` after the float normalisation of §5.3. A
driver's file is rewritten through a `.tmp` file and an atomic rename, so a reader never sees a
torn line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sim.official.timebase import MONTH_PREFIX
from sim.redact import redact

COORD_KEYS = frozenset({"lat", "lng", "latitude", "longitude", "current_lat", "current_lng"})


def normalise_record(obj: Any, full_coords: bool = True, _key: str | None = None) -> Any:
    """Every float to round(x, 2), at any depth; with full_coords (S3/S4, the replica default)
    a float that is the direct value of a coordinate key keeps full precision. Lists are walked
    (their elements rounded even under coordinate keys); tuples are not."""
    if isinstance(obj, float):
        if full_coords and _key in COORD_KEYS:
            return obj
        return round(obj, 2)
    if isinstance(obj, dict):
        return {k: normalise_record(v, full_coords, k) for k, v in obj.items()}
    if isinstance(obj, list):
        return [normalise_record(v, full_coords, None) for v in obj]
    return obj


def dumps(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def action_log_name(driver_id: str, stamp: str) -> str:
    return f"actions_{MONTH_PREFIX}_{driver_id}_{stamp}.jsonl"


def summary_name() -> str:
    return f"run_summary_{MONTH_PREFIX}.json"


def write_atomic(path: Path, text: str) -> None:
    """Every file of a competition run is written here, redacted (sim/redact.py)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(redact(text))
    os.replace(tmp, path)


class ActionLog:
    """One driver's action-log file: lines kept in memory, rewritten atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []
        self._written = 0

    def append(self, record: dict) -> None:
        self.lines.append(dumps(record) + "\n")

    def flush(self) -> None:
        if len(self.lines) != self._written:
            write_atomic(self.path, "".join(self.lines))
            self._written = len(self.lines)


def write_summary(path: Path, summary: dict) -> None:
    """indent 2, raw UTF-8, no trailing newline (§4.8, §5.4)."""
    write_atomic(path, json.dumps(summary, ensure_ascii=False, indent=2))
