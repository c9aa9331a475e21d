"""Checks made before a run starts, so a problem found there is never found mid-run.

A `[[drivers.fixed]]` preference carries its structured form (kind and parameters) and may
carry text. The agents re-parse the text at a driver's first decision to check the parser; a
text the rules parser cannot read (or no text at all) used to raise there, in every memory
mode but `off`. Now `validate` names each such preference by file and line, and a run scores
the structured form, which the scenario file always gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sim.preference_text import PreferenceParseError, parse_preference
from sim.scenario import Scenario


@dataclass(frozen=True)
class UnreadablePreference:
    path: str
    line: int | None
    driver_id: str
    text: str
    reason: str

    def message(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return (f"{where}: [drivers.fixed] preferences: expected text the rules parser can "
                f"read, found {self.text!r} ({self.reason}); driver {self.driver_id} runs on "
                "the structured form")


def _fixed_header_lines(path: str) -> list[int]:
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [n for n, line in enumerate(lines, 1)
            if re.match(r"^\s*\[\[\s*drivers\.fixed\s*\]\]", line)]


def unreadable_preferences(sc: Scenario) -> list[UnreadablePreference]:
    """Fixed drivers' preferences whose text the rules parser cannot read."""
    heads = _fixed_header_lines(sc.path)
    out = []
    for i, spec in enumerate(sc.drivers.fixed):
        for p in spec.preferences:
            try:
                parse_preference(p.text, p.penalty_amount, p.penalty_cap)
            except (PreferenceParseError, ValueError, KeyError, TypeError) as exc:
                out.append(UnreadablePreference(sc.path, heads[i] if i < len(heads) else None,
                                                spec.driver_id, p.text, str(exc)[:120]))
    return out
