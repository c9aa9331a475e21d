"""The grounding check every digest must pass: nothing named that the stores never saw.

Each view writes its own extractive digest (memory/views.py); this module checks a digest's
bullets against the entities the memory hands the compressor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set

CELL_RE = re.compile(r"\b8[0-9a-f]{14}\b")
CARGO_RE = re.compile(r"\b[A-Z]{1,3}\d{3,}\b")
COORD_RE = re.compile(r"\((-?\d{1,3}\.\d+),\s*(-?\d{1,3}\.\d+)\)")
COORD_TOLERANCE = 0.006  # degrees: digests round to three decimals


def ungrounded(bullets: list[str], cells: Set[str], cargo_ids: Set[str],
               coords: Sequence[tuple[float, float]]) -> list[str]:
    """Everything a digest names that the stores never saw (empty when grounded)."""
    bad = []
    text = "\n".join(bullets)
    bad += [c for c in CELL_RE.findall(text) if c not in cells]
    bad += [c for c in CARGO_RE.findall(text) if c not in cargo_ids]
    for lat_s, lng_s in COORD_RE.findall(text):
        lat, lng = float(lat_s), float(lng_s)
        if not any(abs(lat - a) <= COORD_TOLERANCE and abs(lng - b) <= COORD_TOLERANCE
                   for a, b in coords):
            bad.append(f"({lat_s},{lng_s})")
    return bad
