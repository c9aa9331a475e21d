"""Read a generator-world run directory (`freightsim run` with `ruleset = "generator"`) into a
`RunData`.

Money is drivers.parquet's (income = gross - km cost, the scorer's penalty, score); the timeline
is events.parquet (each take's pickup arrival, load start and finish are in its `order_taken`
detail); preference violations are located through step_log.jsonl, the official step records
the scorer read, whose 1-based line numbers the counters name.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

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
from sim.official.timebase import DAY, EPOCH

_EVENT_KINDS = ("action", "search", "order_taken", "order_completed", "drive", "wait",
                "take_failed", "digest")
_COLUMNS = ["seq", "t", "kind", "driver_id", "cargo_id", "lat", "lng", "lat2", "lng2", "value",
            "reason", "detail"]


def _json(text: Any) -> dict:
    if not isinstance(text, str) or not text:
        return {}
    try:
        v = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return v if isinstance(v, dict) else {}


def _step_starts(path: Path) -> dict[str, dict[int, float]]:
    """Each driver's step -> action start (scorer minutes), from step_log.jsonl."""
    out: dict[str, dict[int, float]] = defaultdict(dict)
    prev: dict[str, int] = defaultdict(int)
    if not path.is_file():
        return out
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                r = json.loads(line)
                did = str(r["driver_id"])
                out[did][int(r["step"])] = prev[did] + int(r["query_scan_cost_minutes"])
                prev[did] = int(r["result"]["simulation_progress_minutes"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue
    return out


def _trace_events(trace: DriverTrace, ev: pd.DataFrame, offset: int) -> None:
    """Segments, money, route and stops of one driver from its events (sorted by seq)."""
    step = 0
    take_starts = set(ev.loc[ev["kind"] == "order_taken", "t"].round(6))
    for r in ev.itertuples(index=False):
        k, t = r.kind, float(r.t) + offset
        if k == "action":
            step += 1
        elif k == "search":
            m = float(_json(r.detail).get("minutes", 0) or 0)
            if m > 0:
                trace.segments.append(Segment(Phase.SEARCH, t, t + m, step))
        elif k == "wait" and r.value and r.value > 0:
            trace.segments.append(Segment(Phase.WAIT, t, t + float(r.value), step))
        elif k == "take_failed":
            trace.segments.append(Segment(Phase.FAILED_TAKE, t, t + 1, step,
                                          f"{r.cargo_id}: {r.reason}"))
        elif k == "order_taken":
            d = _json(r.detail)
            arr = float(d.get("pickup_arrival", r.t)) + offset
            load = float(d.get("load_start", arr - offset)) + offset
            fin = float(d.get("finish", r.value)) + offset
            note = f"{r.cargo_id}, {float(d.get('loaded_km', 0)):.0f} km loaded"
            trace.segments += [Segment(Phase.PICKUP, t, arr, step, note),
                               Segment(Phase.WINDOW_WAIT, arr, load, step, note),
                               Segment(Phase.HAUL, load, fin, step, note)]
            trace.orders += 1
        elif k == "order_completed":
            # the world charges km cost per order (pickup + haul) at its completion: `value`
            # is the order's net; repositions are not charged (sim/world/driver.py)
            trace.money.append(Money(t, float(r.value or 0.0)))
        elif k == "drive":
            t0 = float(_json(r.detail).get("t0", r.t))
            if not trace.route:
                trace.route.append((t0 + offset, float(r.lat), float(r.lng)))
            trace.route.append((t, float(r.lat2), float(r.lng2)))
            if r.reason == "empty" and round(t0, 6) not in take_starts:
                trace.segments.append(Segment(Phase.REPOSITION, t0 + offset, t, step))
            elif r.reason == "loaded":
                trace.stops += [MapStop(float(r.lat), float(r.lng), "pickup", t0 + offset, ""),
                                MapStop(float(r.lat2), float(r.lng2), "drop", t, "")]
    trace.steps = step


def _llm(run_dir: Path, events: pd.DataFrame, offset: int) -> LlmData | None:
    steps_path, calls_path = run_dir / "steps.parquet", run_dir / "llm_calls.parquet"
    if not steps_path.exists():
        return None
    steps = pd.read_parquet(steps_path)
    if steps.empty:
        return None
    llm = LlmData()
    agents = [c.removesuffix("_prompt_tokens") for c in steps.columns
              if c.endswith("_prompt_tokens") and c != "prompt_tokens"]
    span = float(steps["t"].max()) if len(steps) else 0.0
    width = 60 if span <= 3 * DAY else DAY  # hours for a short run, days for a long one
    llm.bucket = "hour" if width == 60 else "day"
    bucket = (steps["t"] // width) * width + offset
    for a in agents:
        per = steps.groupby(bucket)[f"{a}_prompt_tokens"].mean()
        if per.sum() > 0:
            llm.tokens_by_agent[a] = [(float(t), float(v)) for t, v in per.items()]
    if calls_path.exists():
        calls = pd.read_parquet(calls_path)
        for a, g in calls.groupby("agent"):
            split = {c: float(g[c].mean()) for c in ("queue_s", "ttft_s", "decode_s")
                     if c in g and g[c].notna().any()}
            llm.latency_by_agent[str(a)] = split or {"total": float(g["latency_s"].mean())}
        if not any("ttft_s" in v for v in llm.latency_by_agent.values()):
            llm.notes.append("no queue/TTFT/decode split recorded (a deterministic backend, or "
                             "no [llm] stream = true): latency shown as the call's total")
    dig = events[events["kind"] == "digest"]
    for r in dig.itertuples(index=False):
        d = _json(r.detail)
        llm.digests.append((float(r.t) + offset, str(d.get("agent", "?")),
                            int(d.get("facts", 0)), len(d.get("bullets") or [])))
    mode = str(steps["memory_mode"].iloc[0]) if "memory_mode" in steps else "?"
    llm.notes.append(f"memory mode {mode}; prompt tokens counted per agent per decision step, "
                     f"averaged over all drivers by {llm.bucket}")
    return llm


def _fixed_readings(scenario: dict) -> dict[tuple[str, int], dict]:
    """Structured readings a scenario's fixed drivers state (drawn ones are not written)."""
    out = {}
    for d in (scenario.get("drivers") or {}).get("fixed") or []:
        for i, p in enumerate(d.get("preferences") or d.get("rules") or [], 1):
            if isinstance(p, dict) and isinstance(p.get("structured"), dict):
                out[(str(d.get("driver_id")), i)] = p["structured"]
    return out


def read_generator_run(run_dir: Path) -> RunData:
    run_dir = Path(run_dir)
    for need in ("drivers.parquet", "events.parquet", "scenario.json"):
        if not (run_dir / need).exists():
            raise ValueError(f"{run_dir}: no {need} (not a generator run directory, or a run "
                             f"that did not finish)")
    scenario = json.loads((run_dir / "scenario.json").read_text(encoding="utf-8"))
    sc = scenario.get("scenario") or {}
    start = datetime.fromisoformat(sc.get("start", EPOCH.isoformat()))
    offset = round((start - EPOCH).total_seconds() / 60)
    summary = {}
    if (run_dir / "summary.json").is_file():
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    drivers = pd.read_parquet(run_dir / "drivers.parquet")
    events = pd.read_parquet(run_dir / "events.parquet", columns=_COLUMNS,
                             filters=[("kind", "in", list(_EVENT_KINDS))])
    events = events.sort_values("seq", kind="stable")
    horizon = offset + float(sc.get("days", 1)) * DAY
    run = RunData(str(run_dir), "generator", f"{sc.get('name', run_dir.name)} (seed "
                  f"{sc.get('seed', '?')})", horizon, [], [])
    run.start = float(max(offset, 0))
    run.facts = {"ruleset": "generator", "days": sc.get("days"), "drivers": len(drivers),
                 "memory": summary.get("memory_mode", "?"), "steps": summary.get("steps", "?")}
    if "preferences" in summary:
        run.facts["scoring version"] = summary["preferences"].get("scoring_version")
    starts = _step_starts(run_dir / "step_log.jsonl")
    fixed = _fixed_readings(scenario)
    prefs = (pd.read_parquet(run_dir / "preferences.parquet")
             if (run_dir / "preferences.parquet").exists() else pd.DataFrame())
    by_driver = dict(tuple(events.groupby("driver_id", sort=False)))
    for row in drivers.itertuples(index=False):
        did = str(row.driver_id)
        trace = DriverTrace(did, gross=float(row.gross), km=float(row.empty_km + row.loaded_km),
                            cost=float(row.cost), penalty=float(row.penalty),
                            net=float(row.income), score=float(row.score), orders=0, steps=0,
                            start=(float(row.start_lat), float(row.start_lng)))
        ev = by_driver.get(did)
        if ev is not None:
            _trace_events(trace, ev, offset)
        if not prefs.empty:
            for p in prefs[prefs["driver_id"] == did].itertuples(index=False):
                rule = _rule_row(p, fixed.get((did, int(p.index))))
                run.rules.append(rule)
                trace.marks += marks_for(rule, starts.get(did, {}), horizon)
                trace.areas += rule_areas(rule)
            trace.marks.sort(key=lambda m: m.t)
        run.drivers.append(trace)
    run.llm = _llm(run_dir, events, offset)
    if not prefs.empty and not fixed:
        run.notes.append("drawn preferences: the run does not write the structured form the "
                         "scorer used, so the map's areas are the text parser's reading")
    return run


def _rule_row(p: Any, structured: dict | None) -> RuleRow:
    def num(v: Any) -> float | None:
        return None if v is None or pd.isna(v) else float(v)

    parsed = parser_reading(str(p.text))
    reason = p.unscored_reason if isinstance(p.unscored_reason, str) else None
    return RuleRow(
        str(p.driver_id), int(p.index), str(p.text), str(p.label),
        None if p.kind == "unscored" else str(p.kind),
        structured, "structured field" if structured else "not recorded (drawn)", parsed,
        float(p.penalty), _json(p.counters), num(p.penalty_amount), num(p.penalty_cap),
        None if bool(p.scored) else (reason or "unscored"))
