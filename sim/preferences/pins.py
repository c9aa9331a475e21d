"""Pinned readings: a sidecar file fixing the kind and params of chosen preference texts.

An official-format drivers file holds only texts; where the parser reads one wrongly or
ambiguously, a user pins the reading here instead of editing that file. `run`, `compete` and
`score` apply a pin before any parser: the pinned preference is scored exactly as a
`structured` preference object would be (docs/preferences.md has the format).

One JSON object per line (blank lines and lines starting with # are skipped):
    {"driver_id": "D001", "index": 2, "kind": "home_stay_event", "params": {...},
     "penalty_amount": 500, "penalty_cap": null}
`index` is the 1-based position in the driver's `preferences` array (as the scorer and
`freightsim validate` number them). `penalty_amount`/`penalty_cap` are optional: absent, the
driver file's own (or the text's) amounts stay.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.preferences.kinds import ParamsError, build_rule, kind_names

KEYS = ("driver_id", "index", "kind", "params", "penalty_amount", "penalty_cap")


class PinFileError(ValueError):
    """A pin file that cannot be used: file, line, field, what was expected, what was found."""

    def __init__(self, path: str | Path, line: int, field: str, expected: str,
                 found: Any) -> None:
        self.path, self.line, self.field = str(path), line, field
        self.expected, self.found = expected, found
        super().__init__(f"{path}:{line}: {field}: expected {expected}, found {found!r}")


@dataclass(frozen=True)
class Pin:
    driver_id: str
    index: int
    kind: str
    params: dict[str, Any]
    penalty_amount: float | None
    penalty_cap: float | None
    has_amount: bool  # the row states penalty_amount (null included)
    has_cap: bool
    path: str
    line: int

    def structured(self) -> dict[str, Any]:
        """The `structured` form the scorer reads on a preference object."""
        return {"kind": self.kind, "params": self.params}


Pins = Mapping[tuple[str, int], Pin]


def _money(path: Path, n: int, row: dict, key: str) -> float | None:
    v = row.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
        raise PinFileError(path, n, key, "a number of yuan >= 0 or null", v)
    return float(v)


def _pin(path: Path, n: int, row: Any) -> Pin:
    if not isinstance(row, dict):
        raise PinFileError(path, n, "row", "a JSON object", row)
    extra = sorted(set(row) - set(KEYS))
    if extra:
        raise PinFileError(path, n, extra[0], f"one of {', '.join(KEYS)}", "an unknown key")
    did = row.get("driver_id")
    if not isinstance(did, str | int) or isinstance(did, bool) or not str(did).strip():
        raise PinFileError(path, n, "driver_id", "a non-empty driver id", did)
    idx = row.get("index")
    if isinstance(idx, bool) or not isinstance(idx, int) or idx < 1:
        raise PinFileError(path, n, "index", "the preference's 1-based position (an int >= 1)",
                           idx)
    kind = row.get("kind")
    if kind not in kind_names():
        raise PinFileError(path, n, "kind", "one of the 24 kind names (e.g. home_stay_event)",
                           kind)
    params = row.get("params")
    if not isinstance(params, dict):
        raise PinFileError(path, n, "params", f"an object with the params of {kind}", params)
    try:
        build_rule(kind, params)
    except ParamsError as exc:
        raise PinFileError(path, n, "params", f"params of {kind}", str(exc)) from None
    return Pin(str(did).strip(), idx, kind, params, _money(path, n, row, "penalty_amount"),
               _money(path, n, row, "penalty_cap"), "penalty_amount" in row,
               "penalty_cap" in row, str(path), n)


def load_pins(path: str | Path) -> dict[tuple[str, int], Pin]:
    """Every pin of a file by (driver_id, index); a bad or repeated row raises PinFileError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise PinFileError(p, 0, "file", "a readable UTF-8 JSON Lines file", str(exc)) from None
    out: dict[tuple[str, int], Pin] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PinFileError(p, n, "row", "one JSON object per line", exc.msg) from None
        pin = _pin(p, n, row)
        key = (pin.driver_id, pin.index)
        if key in out:
            raise PinFileError(p, n, "index", f"one pin per preference (line {out[key].line} "
                                              f"already pins driver {key[0]} #{key[1]})", key[1])
        out[key] = pin
    return out


def check_pins(pins: Pins, counts: Mapping[str, int]) -> None:
    """Every pin names an existing driver and preference (`counts`: driver id -> number of
    preference entries); a pin that matches nothing would silently do nothing."""
    for pin in pins.values():
        if pin.driver_id not in counts:
            raise PinFileError(pin.path, pin.line, "driver_id", "a driver of the drivers file",
                               pin.driver_id)
        if pin.index > counts[pin.driver_id]:
            raise PinFileError(pin.path, pin.line, "index", f"1..{counts[pin.driver_id]} "
                               f"(driver {pin.driver_id}'s preferences)", pin.index)


def pins_of(pins: Pins | None, driver_id: str) -> dict[int, Pin]:
    """The pins of one driver by index."""
    if not pins:
        return {}
    return {i: p for (d, i), p in pins.items() if d == driver_id}


def pin_lines(pins: Iterable[Pin]) -> list[str]:
    """One line per pin for a report: where it is and what it fixes."""
    return [f"{p.path}:{p.line}: driver {p.driver_id} preference {p.index} pinned as {p.kind}"
            for p in pins]
