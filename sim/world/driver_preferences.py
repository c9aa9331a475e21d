"""Driver preferences in the generator world: the 24 kinds of docs/competition.md §7.5, the only
kinds.

Drivers carry them as `DriverSpec.rules` (from `[[drivers.fixed]] preferences`, a drivers file,
or drawn for generated drivers with sim.preferences.draw by `[drivers] preferences_per_driver`).
The world penalises nothing while it runs: it records every decision as an official step record
(sim.world.step_log) and, at the end of the run, scores each preference with sim.scoring exactly
as the competition scorer would score that log. Per-preference penalties go to `preferences.parquet`
and summary.json (`preferences`), the driver total to drivers.parquet `penalty`.

Accounting: `income` is the world's net haul income (gross - cost), `penalty` the scorer's,
and `score = income - penalty`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sim.competition.drivers_file import driver_rows
from sim.geo import Geography, Point
from sim.official.timebase import DAY, EPOCH
from sim.official.versions import settings_for
from sim.preferences.draw import draw_preferences
from sim.preferences.kinds.drawing import CargoMarket
from sim.preferences.pins import PinFileError, Pins, check_pins, load_pins, pins_of
from sim.redact import redact
from sim.scenario import DriverSpec, PreferenceEntry, Scenario, ScenarioError
from sim.scoring.scorer import default_parser, read_preferences, score_preferences
from sim.world.cargo import Cargo
from sim.world.competition_files import read_entry
from sim.world.events import EventBus
from sim.world.recorder import write_table
from sim.world.step_log import StepRecorder, epoch_offset

# A spawn key no other stream uses (the world spawns children 0-3, cargo_stream uses "CAL").
STREAM_KEY = 0x52554C  # "RUL"

PREFERENCES_SCHEMA = pa.schema([
    ("driver_id", pa.string()), ("index", pa.int64()), ("kind", pa.string()),
    ("label", pa.string()), ("text", pa.string()), ("penalty", pa.float64()),
    ("counters", pa.string()), ("scored", pa.bool_()), ("unscored_reason", pa.string()),
    ("penalty_amount", pa.float64()), ("penalty_cap", pa.float64()),
])


def rules_rng(seed: int) -> np.random.Generator:
    """The rule draws' own stream: drawing rules leaves every other stream of the world as is."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM_KEY,)))


def with_drawn_rules(scenario: Scenario, specs: list[DriverSpec], n_fixed: int,
                     market: CargoMarket | None = None) -> list[DriverSpec]:
    """Generated drivers (after the `n_fixed` fixed ones) with `preferences_per_driver` drawn
    competition-kind preferences; must-take rules name cargo of `market` (the run's own,
    sim.world.cargo_listings) listed inside their window."""
    d = scenario.drivers
    if d.preferences_per_driver <= 0 or d.file is not None:
        return specs
    rng = rules_rng(scenario.scenario.seed)
    start = datetime.fromisoformat(scenario.scenario.start)
    if scenario.scenario.ruleset == "competition":  # that environment always starts at the epoch
        start = EPOCH
    days = max(1, math.ceil(scenario.scenario.days))
    kinds = set(d.preference_kinds) or None
    out = list(specs[:n_fixed])
    for spec in specs[n_fixed:]:
        drawn = draw_preferences(rng, d.preferences_per_driver,
                                 lang=d.preference_lang,  # type: ignore[arg-type]
                                 kinds=kinds, home=(spec.lat, spec.lng),
                                 start_day=start.date(), days=days, market=market)
        rules = tuple(PreferenceEntry(p.text, p.kind, p.params.to_dict(), p.penalty_amount,
                                      p.penalty_cap, p.start_time, p.end_time) for p in drawn)
        out.append(dataclasses.replace(spec, rules=spec.rules + rules))
    return out


def attach_recorder(specs: Sequence[DriverSpec], bus: EventBus, geo: Geography, start: datetime,
                    registry: dict[str, Cargo]) -> StepRecorder | None:
    """A step recorder on the world's bus when any driver carries competition rules."""
    if not any(s.rules for s in specs):
        return None
    starts = {s.driver_id: Point(s.lat, s.lng) for s in specs}
    return StepRecorder(bus, geo, starts, start, registry)


@dataclass
class RuleScores:
    """The end-of-run scoring of every driver's competition rules."""

    version: str
    n_days: int
    by_driver: dict[str, float] = field(default_factory=dict)  # rounded driver totals
    rows: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ambiguous: list[dict[str, Any]] = field(default_factory=list)  # scored as the best reading
    pinned: int = 0  # readings fixed by `[preferences] pins`

    def summary(self) -> dict[str, Any]:
        by_kind: dict[str, float] = defaultdict(float)
        count: dict[str, int] = defaultdict(int)
        for r in self.rows:
            if r["scored"]:
                by_kind[r["kind"]] += r["penalty"]
                count[r["kind"]] += 1
        return {
            "preferences": {
                "scoring_version": self.version, "days_scored": self.n_days,
                "scored": sum(1 for r in self.rows if r["scored"]),
                "penalty_by_kind": {k: {"preferences": count[k], "penalty": round(v, 2)}
                                    for k, v in sorted(by_kind.items())},
                "unscored": [{"driver_id": r["driver_id"], "index": r["index"],
                              "text": r["text"], "reason": r["unscored_reason"]}
                             for r in self.rows if not r["scored"]],
                "ambiguous": self.ambiguous,
                "pinned": self.pinned,
                "warnings": self.warnings,
            },
        }


def score_rules(scenario: Scenario, specs: Sequence[DriverSpec],
                recorder: StepRecorder | None, horizon_minutes: float) -> RuleScores:
    """Score every driver's rules over its step log with the scenario's scoring version."""
    settings = settings_for(scenario.scenario.scoring)
    start = datetime.fromisoformat(scenario.scenario.start)
    offset = epoch_offset(start)
    n_days = max(1, math.ceil((max(offset, 0) + horizon_minutes) / DAY - 1e-9))
    out = RuleScores(str(settings.version), n_days)
    if recorder is None:
        return out
    parser = default_parser()
    cargo = recorder.cargo_index()
    pins = scenario_pins(scenario)
    for spec in specs:
        if not spec.rules:
            continue
        entries = [r.to_official() for r in spec.rules]
        prefs = read_preferences(entries, settings, parser, n_days,
                                 pins_of(pins, spec.driver_id))
        for p in prefs:
            out.pinned += p.pinned is not None
            if p.rule is not None and p.ambiguous is not None:
                out.ambiguous.append({"driver_id": spec.driver_id, "index": p.index,
                                      "text": p.text, "scored_as": p.rule.name,
                                      "why": p.ambiguous})
                out.warnings.append(f"driver {spec.driver_id} preference {p.index} ambiguous, "
                                    f"scored as {p.rule.name} ({p.ambiguous}): {p.text}")
        if offset < 0:
            why = "the world starts before 2026-03-01, the scorer's first minute"
            prefs = [dataclasses.replace(p, rule=None, unscored=why) for p in prefs]
        log = recorder.step_log(spec.driver_id, cargo)
        reports, total = score_preferences(prefs, log, settings, n_days, Point(spec.lat, spec.lng))
        out.by_driver[spec.driver_id] = round(total, 2)
        by_index = {p.index: p for p in prefs}
        for r in reports:
            p = by_index[r.index]
            if r.unscored is not None:
                out.warnings.append(f"driver {spec.driver_id} preference {r.index} unscored "
                                    f"({r.unscored}): {r.text}")
            out.rows.append({
                "driver_id": spec.driver_id, "index": r.index,
                "kind": r.kind or "unscored", "label": r.label, "text": r.text,
                "penalty": r.penalty, "counters": json.dumps(r.counters, default=_plain,
                                                             ensure_ascii=False),
                "scored": r.unscored is None, "unscored_reason": r.unscored,
                "penalty_amount": p.amount, "penalty_cap": p.cap,
            })
    return out


@dataclass(frozen=True)
class Unparsed:
    """A drivers-file preference the run cannot read with confidence: `unparsed` (neither a
    structured form, a pin nor a parser reads it: scored as unscored) or `ambiguous` (the parser
    hesitates between readings: scored as the best one, listed in `reason`). `line` is the
    driver's line in the file, `index` 1-based in its list."""

    file: str
    line: int
    driver_id: str
    index: int
    text: str
    reason: str
    status: str = "unparsed"

    def message(self) -> str:
        tag = "ambiguous, " if self.status == "ambiguous" else ""
        return (f"{self.file}:{self.line}: driver {self.driver_id} preference {self.index}: "
                f"{tag}{self.reason}: {self.text[:200]!r}")

    def note(self) -> str:
        """The line `validate` and `run` print for it."""
        what = "unparsed (scored as unscored)" if self.status == "unparsed" else \
            "ambiguous (scored as its best reading; pin it to fix one)"
        return f"{what}: {self.message()}"


class UnparsedPreferencesError(ScenarioError):
    """`[preferences] unparsed = "error"` and some preferences cannot be read: every one is
    listed (file:line, driver, index, text), not only the first."""

    def __init__(self, items: Sequence[Unparsed]) -> None:
        super().__init__(items[0].file, "preferences", "preferences a parser can read",
                         items[0].text, items[0].line)
        self.items = tuple(items)

    def __str__(self) -> str:
        return (f"{len(self.items)} preference(s) neither parser can read with confidence "
                '([preferences] unparsed = "error" covers unparsed and ambiguous ones; pin a '
                'reading with [preferences] pins):\n'
                + "\n".join(u.message() for u in self.items))


def unparsed_preferences(scenario: Scenario) -> list[Unparsed]:
    """Every preference the run would leave unscored, decided exactly as the run decides: each
    `[[drivers.fixed]]` preference (its line: the driver's `[[drivers.fixed]]` header) and each
    `[drivers] file` entry (its line in the file) becomes the PreferenceEntry the world makes of it
    (competition world: the entry itself) and goes through the scorer's own reading
    (read_preferences with the default text parser). Drawn preferences are always structured.
    The one reporter of unreadable preferences (`freightsim validate`, `[preferences]
    unparsed`)."""
    settings = settings_for(scenario.scenario.scoring)
    parser = default_parser()
    pins = scenario_pins(scenario)
    out = []
    heads = _fixed_header_lines(scenario.path)
    for k, spec in enumerate(scenario.drivers.fixed):
        for i, rule in enumerate(spec.rules, 1):
            pin = pins_of(pins, spec.driver_id).get(i)
            for pref in read_preferences([rule.to_official()], settings, parser,
                                         pins={1: pin} if pin else None):
                u = _doubtful(pref, scenario.path, heads[k] if k < len(heads) else 0,
                              spec.driver_id, i)
                if u is not None:
                    out.append(u)
    path = scenario.drivers.file
    if path is None:
        return out
    competition = scenario.scenario.ruleset == "competition"
    p = Path(path)
    for n, row in driver_rows(p, p.read_bytes()):
        raw = row.get("preferences") or []
        for i, entry in enumerate(raw if isinstance(raw, list) else [], 1):
            if not competition:
                e = read_entry(p, n, entry)
                if e is None:
                    continue  # an empty one
                entry = e.to_official()
            pin = pins_of(pins, str(row.get("driver_id"))).get(i)
            for pref in read_preferences([entry], settings, parser,
                                         pins={1: pin} if pin else None):
                u = _doubtful(pref, str(path), n, str(row.get("driver_id")), i)
                if u is not None:
                    out.append(u)
    return out


def _doubtful(pref: Any, file: str, line: int, driver_id: str, index: int) -> Unparsed | None:
    if pref.rule is None:
        return Unparsed(file, line, driver_id, index, pref.text,
                        pref.unscored or "not understood")
    if pref.ambiguous is not None:
        return Unparsed(file, line, driver_id, index, pref.text,
                        f"scored as {pref.rule.name}; {pref.ambiguous}", "ambiguous")
    return None


def scenario_pins(scenario: Scenario) -> Pins:
    """The `[preferences] pins` file, checked against the scenario's drivers (a pin naming no
    driver or preference is an error, not a silent no-op)."""
    path = scenario.preferences.pins
    if path is None:
        return {}
    try:
        pins = load_pins(path)
        counts = {s.driver_id: len(s.rules) for s in scenario.drivers.fixed}
        if scenario.drivers.file is not None:
            p = Path(scenario.drivers.file)
            for _, row in driver_rows(p, p.read_bytes()):
                raw = row.get("preferences") or []
                counts[str(row.get("driver_id"))] = len(raw) if isinstance(raw, list) else 0
        check_pins(pins, counts)
    except PinFileError as exc:
        raise ScenarioError(exc.path, exc.field, exc.expected, exc.found, exc.line) from None
    return pins


def _fixed_header_lines(path: str) -> list[int]:
    """The line of each `[[drivers.fixed]]` header of a scenario file, in order."""
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [n for n, line in enumerate(lines, 1)
            if re.match(r"^\s*\[\[\s*drivers\.fixed\s*\]\]", line)]


def check_unparsed(scenario: Scenario) -> list[Unparsed]:
    """The unparsed preferences; with `[preferences] unparsed = "error"` any raises."""
    found = unparsed_preferences(scenario)
    if found and scenario.preferences.unparsed == "error":
        raise UnparsedPreferencesError(found)
    return found


def _plain(v: Any) -> Any:
    if isinstance(v, set | frozenset | tuple):
        return sorted(v) if isinstance(v, set | frozenset) else list(v)
    return str(v)


def write_outputs(out_dir: Path, scores: RuleScores, recorder: StepRecorder | None) -> None:
    """preferences.parquet (one row per rule) and step_log.jsonl (the official step records)."""
    if recorder is None:
        return
    write_table(out_dir / "preferences.parquet", scores.rows, PREFERENCES_SCHEMA)
    with (out_dir / "step_log.jsonl").open("w", encoding="utf-8") as fh:
        for ds in recorder.drivers.values():
            for rec in ds.records:
                fh.write(redact(json.dumps(rec, ensure_ascii=False)) + "\n")
