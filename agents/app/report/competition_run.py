"""Read a competition run directory (`freightsim run` under competition rules, `compete`, or a
folder of official action logs) into a `RunData`.

Money and penalties are the official scorer's: its `monthly_income_202603.json` when the run
wrote one after its last log, else `score_run` afresh. The timeline is the action logs, each
take split into pickup drive, window wait and haul by §4.5's arithmetic with the cargo's window;
only the taken cargo is read from the cargo file (a month's file holds 500,000 rows).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from agents.app.report.model import (
    DriverTrace,
    LlmData,
    MapStop,
    Money,
    Phase,
    RuleRow,
    RunData,
    Segment,
)
from agents.app.report.rules import marks_for, parser_reading, rule_areas
from sim.geo import haversine_km
from sim.official.cargo_index import CargoRecord, parse_cargo_row
from sim.official.timebase import DAY, drive_minutes
from sim.official.versions import settings_for
from sim.scoring.scorer import (
    RunInputs,
    ScoringInputError,
    driver_id_of,
    read_driver_rows,
    resolve_inputs,
    score_run,
)

INCOME_FILE = "monthly_income_202603.json"
SNAP_KM = 1e-6
_CARGO_ID = re.compile(r'"cargo_id"\s*:\s*"?([^",}]+)')


def _read_log(path: Path) -> list[dict]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # the scorer's validation reports it; the page shows what parses
            if isinstance(rec, dict):
                out.append(rec)
    return out


def cargo_lines(path: Path, ids: set[str]) -> dict[str, str]:
    """The cargo file's lines whose id is in `ids`, found by a cheap scan of each line's id."""
    out: dict[str, str] = {}
    if not ids:
        return out
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            m = _CARGO_ID.search(line)
            if m is not None and m.group(1).strip() in ids:
                out[m.group(1).strip()] = line
    return out


def _records(lines: dict[str, str]) -> dict[str, CargoRecord]:
    out: dict[str, CargoRecord] = {}
    for line in lines.values():
        try:
            rec = parse_cargo_row(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        out[rec.cargo_id] = rec
    return out


def _official_score(inputs: RunInputs, run_dir: Path, lines: dict[str, str]) -> dict:
    """The scorer's report of the run: the one it wrote after the last log, else a fresh
    `score_run` over a cargo file cut to the cargo the logs name (the scorer reads no other:
    validation and every kind look up the cargo of a take), so a month is not reloaded."""
    income = inputs.folder / INCOME_FILE
    newest = max(p.stat().st_mtime for p in inputs.log_files)
    if income.is_file() and income.stat().st_mtime >= newest:
        try:
            return json.loads(income.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            pass
    try:
        if not inputs.cargo_path.is_file():
            return score_run(run_dir).to_official_json()  # raises, naming the missing file
        with tempfile.TemporaryDirectory() as tmp:
            cut = Path(tmp) / "cargo.jsonl"
            cut.write_text("".join(lines.values()), encoding="utf-8")
            return score_run(run_dir, cargo=cut).to_official_json()
    except ScoringInputError as exc:
        raise ValueError(f"{run_dir}: cannot score the logs: {exc}") from None


def _steps(records: list[dict], cargo: dict[str, CargoRecord], cost_per_km: float,
           speed: float, horizon: int, trace: DriverTrace) -> dict[int, float]:
    """Fill the trace's segments, money, route and stops; -> each step's action start."""
    starts: dict[int, float] = {}
    prev = 0
    for i, rec in enumerate(records, 1):
        try:
            scan = int(rec["query_scan_cost_minutes"])
            end = int(rec["result"]["simulation_progress_minutes"])
            act = rec["action"]
            name = str(act["action"]).strip().lower()
            before = (float(rec["position_before"]["lat"]), float(rec["position_before"]["lng"]))
            after = (float(rec["position_after"]["lat"]), float(rec["position_after"]["lng"]))
        except (KeyError, TypeError, ValueError):
            continue  # a malformed line: the scorer names it; skip it here
        result = rec.get("result") or {}
        a0 = prev + scan
        starts[i] = a0
        if not trace.route:
            trace.route.append((prev, *before))
        if scan > 0:
            trace.segments.append(Segment(Phase.SEARCH, prev, a0, i))
        if name == "wait":
            if end > a0:
                trace.segments.append(Segment(Phase.WAIT, a0, end, i))
        elif name == "reposition":
            trace.segments.append(Segment(Phase.REPOSITION, a0, end, i))
            km = float(result.get("distance_km") or 0.0)
            trace.money.append(Money(end, -km * cost_per_km))
        elif name == "take_order":
            cid = str((act.get("params") or {}).get("cargo_id", "")).strip()
            c = cargo.get(cid)
            if result.get("accepted") is not True:
                why = str(result.get("detail") or "failed")
                trace.segments.append(Segment(Phase.FAILED_TAKE, a0, max(end, a0 + 1), i,
                                              f"{cid}: {why}"))
            elif c is None:
                trace.segments.append(Segment(Phase.HAUL, a0, end, i, f"{cid} (not in cargo)"))
            else:
                p = haversine_km(*before, c.start_lat, c.start_lng)
                arrival = a0 + (0 if p <= SNAP_KM else drive_minutes(p, speed))
                load = max(arrival, end - c.cost_time_minutes)
                price = c.price_fen / 100
                note = f"{cid} {c.category} {c.haul_km:.0f} km, {price:,.0f} yuan"
                trace.segments += [Segment(Phase.PICKUP, a0, arrival, i, note),
                                   Segment(Phase.WINDOW_WAIT, arrival, load, i, note),
                                   Segment(Phase.HAUL, load, end, i, note)]
                km = float(result.get("pickup_deadhead_km") or 0.0) + float(
                    result.get("haul_distance_km") or c.haul_km)
                trace.money.append(Money(end, (price if end <= horizon else 0.0)
                                         - km * cost_per_km))
                trace.stops += [MapStop(c.start_lat, c.start_lng, "pickup", arrival, note),
                                MapStop(c.end_lat, c.end_lng, "drop", end, note)]
                trace.orders += 1
                trace.route.append((arrival, c.start_lat, c.start_lng))
        trace.route.append((end, *after))
        prev = end
    trace.steps = len(records)
    return starts


def _llm(per_driver: dict[str, list[dict]], summary: dict | None) -> LlmData | None:
    """Token usage per step from the logs (the agent's own model calls), by day."""
    by_day: dict[int, list[float]] = {}
    for records in per_driver.values():
        prev = 0
        for rec in records:
            try:
                end = int(rec["result"]["simulation_progress_minutes"])
                tok = float((rec.get("token_usage") or {}).get("total_tokens") or 0)
            except (KeyError, TypeError, ValueError):
                continue
            by_day.setdefault(prev // DAY, []).append(tok)
            prev = end
    if not any(t for v in by_day.values() for t in v):
        return None
    llm = LlmData()
    llm.tokens_by_agent["agent (all calls)"] = [
        (float(d * DAY), sum(v) / len(v)) for d, v in sorted(by_day.items())]
    lat = (summary or {}).get("driver_decision_latency") or {}
    if lat:
        n = sum(x.get("count", 0) for x in lat.values())
        tot = sum(x.get("total_seconds", 0.0) for x in lat.values())
        llm.latency_by_agent["agent (decide)"] = {"total": tot / n if n else 0.0}
    llm.notes.append("tokens are the action logs' token_usage per step; the competition log "
                     "has no per-agent split, queue/TTFT/decode times or compression events")
    return llm


def read_competition_run(run_dir: Path) -> RunData:
    try:
        inputs = resolve_inputs(run_dir)
    except ScoringInputError as exc:
        raise ValueError(f"{run_dir}: not a readable competition run: {exc}") from None
    settings = settings_for(inputs.version)
    horizon = settings.horizon_days(inputs.n_days) * DAY
    rows = read_driver_rows(inputs.drivers_path) if inputs.drivers_path.is_file() else {}
    by_driver: dict[str, list[Path]] = {}
    for f in inputs.log_files:
        by_driver.setdefault(driver_id_of(f), []).append(f)
    records = {d: [r for f in (fs if settings.all_files else fs[-1:]) for r in _read_log(f)]
               for d, fs in sorted(by_driver.items())}
    ids = {str(r["action"]["params"].get("cargo_id", "")).strip()
           for fs in by_driver.values() for f in fs for r in _read_log(f)
           if isinstance(r.get("action"), dict) and isinstance(r["action"].get("params"), dict)
           and str(r["action"].get("action", "")).strip().lower() == "take_order"}
    lines = cargo_lines(inputs.cargo_path, ids) if inputs.cargo_path.is_file() else {}
    cargo = _records(lines)
    official = _official_score(inputs, Path(run_dir), lines)
    missing = [] if inputs.cargo_path.is_file() else [
        f"cargo file {inputs.cargo_path} is missing: takes are drawn whole, without pickups, "
        f"drops or their split into pickup, window wait and haul"]
    run = RunData(str(run_dir), "competition", f"{Path(run_dir).resolve().name}", horizon, [], [])
    run.notes += missing
    run.facts = {"ruleset": "competition", "scoring version": str(inputs.version),
                 "days": inputs.n_days, "drivers": len(records),
                 "steps": sum(len(r) for r in records.values())}
    scored = {d["driver_id"]: d for d in official.get("drivers", [])}
    for did, recs in records.items():
        row = rows.get(did, {})
        off = scored.get(did, {})
        inc = off.get("income") or {}
        trace = DriverTrace(
            did, gross=float(inc.get("gross_income", 0.0)), km=float(inc.get("distance_km", 0.0)),
            cost=float(inc.get("cost", 0.0)), penalty=float(inc.get("preference_penalty", 0.0)),
            net=float(inc.get("gross_income", 0.0)) - float(inc.get("cost", 0.0)),
            score=float(inc.get("net_income", 0.0)), orders=0, steps=0)
        if "current_lat" in row and "current_lng" in row:
            trace.start = (float(row["current_lat"]), float(row["current_lng"]))
        if off.get("calculation_aborted"):
            trace.note = f"scoring aborted: {off.get('validation_error')}"
        starts = _steps(recs, cargo, float(row.get("cost_per_km", 0) or 0), inputs.speed_kmh,
                        horizon, trace)
        entries = [e for e in row.get("preferences") or [] if e]
        reported = (off.get("preference_check") or {}).get("rules") or []
        for j, (entry, rep) in enumerate(zip(entries, reported, strict=False), 1):
            rule = _rule_row(did, j, entry, rep)
            run.rules.append(rule)
            trace.marks += marks_for(rule, starts, horizon)
            trace.areas += rule_areas(rule)
        trace.marks.sort(key=lambda m: m.t)
        run.drivers.append(trace)
    run.llm = _llm(records, inputs.summary)
    return run


def _rule_row(did: str, index: int, entry: Any, rep: dict) -> RuleRow:
    """One preference: the drivers file's entry next to the scorer's line for it."""
    text = entry if isinstance(entry, str) else str(entry.get("content") or
                                                    entry.get("text") or "")
    structured = entry.get("structured") if isinstance(entry, dict) else None
    label = str(rep.get("rule", "unscored"))
    parsed = parser_reading(text.strip())
    if isinstance(structured, dict):
        reading, source = structured, "structured field"
    elif label != "unscored":
        reading, source = parsed, "text parser"
    else:
        reading, source = None, "not read"
    amount = entry.get("penalty_amount") if isinstance(entry, dict) else None
    cap = entry.get("penalty_cap") if isinstance(entry, dict) else None
    kind = label.split(" ", 1)[1] if " " in label else None
    return RuleRow(did, index, text.strip(), label, kind, reading, source, parsed,
                   float(rep.get("penalty", 0.0)), dict(rep.get("counters") or {}),
                   float(amount) if isinstance(amount, int | float) else None,
                   float(cap) if isinstance(cap, int | float) else None,
                   None if label != "unscored" else "not scored")
