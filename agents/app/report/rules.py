"""A preference's reading and its violations as marks on the timeline.

The scorer's counters (sim/preferences/kinds) say where each kind found its violations: the steps
(`violating_steps`, 1-based log lines), the days (`violating_days`, `extra_by_day`), or only a
verdict for the whole period (`failed`, `over_km`, `shortfall`). Each becomes a mark at that
step's start, that day's midday, or the end of the run, and the rule's fine is shared among its
marks in time order: `penalty_amount` each until the rule's total is reached (the cap), or in
equal shares when the amounts do not add up (a per-km or per-minute model).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from agents.app.report.model import Area, Mark, RuleRow
from sim.official.timebase import DAY, wall_time

_PREFIXES = ("", "pickup_", "home_")


def parser_reading(text: str) -> dict[str, Any] | None:
    """What the text parser (sim.preferences.text) makes of a text: {"kind", "params"} or None."""
    from sim.preferences.text.reading import parse_preference

    try:
        parsed = parse_preference(text) if text else None
    except Exception as exc:  # a report must show a text the parser chokes on, not crash
        return {"kind": None, "error": f"{type(exc).__name__}: {exc}"}
    if parsed is None:
        return None
    d = parsed.to_dict()
    return {"kind": d.get("kind"), "params": d.get("params") or {}}


@cache
def _county_places() -> list[tuple[str, float, float, float]]:
    """(the county as a cargo's city reads, lat, lng, radius) for every county."""
    from sim.geo import PREFECTURES_ZH, load_counties

    return [(f"广东省{PREFECTURES_ZH.get(c.city_en, '')}市{c.name_zh}", c.lat, c.lng, c.radius_km)
            for c in load_counties()]


def place_areas(place: str, label: str) -> list[Area]:
    """The counties a place names, by the scorer's test (the place is a substring of the
    cargo's city, "广东省揭阳市..."): each a circle of its area, the first one labelled."""
    hits = [x for x in _county_places() if place and place in x[0]]
    return [Area("circle", label if i == 0 else "", lat=lat, lng=lng, radius_km=r)
            for i, (_, lat, lng, r) in enumerate(hits)]


def areas_of(params: Any, label: str, radius_km: float | None = None) -> list[Area]:
    """Every box, circle and point in a kind's params, found by their field names (lat_min..
    for a box; lat/lng with a radius_km for a circle, without for a point; pickup_ and home_
    points too; a `place` as its counties), through nested params (a K12 bbox, K23's stops,
    which take their parent's radius)."""
    out: list[Area] = []
    if isinstance(params, list):
        for i, p in enumerate(params, 1):
            out += areas_of(p, f"{label} #{i}", radius_km)
        return out
    if not isinstance(params, Mapping):
        return out
    r_here = params.get("radius_km", radius_km)
    if isinstance(params.get("place"), str):
        out += place_areas(params["place"], f"{label} {params['place']}")
    if all(k in params for k in ("lat_min", "lat_max", "lng_min", "lng_max")):
        out.append(Area("box", label, lat_min=float(params["lat_min"]),
                        lat_max=float(params["lat_max"]), lng_min=float(params["lng_min"]),
                        lng_max=float(params["lng_max"])))
    for pre in _PREFIXES:
        lat, lng = params.get(f"{pre}lat"), params.get(f"{pre}lng")
        if not isinstance(lat, int | float) or not isinstance(lng, int | float):
            continue
        name = f"{label} {pre.rstrip('_')}".strip()
        r = r_here if pre != "pickup_" else None
        if isinstance(r, int | float) and r > 0:
            out.append(Area("circle", name, lat=float(lat), lng=float(lng), radius_km=float(r)))
        else:
            out.append(Area("point", name, lat=float(lat), lng=float(lng)))
    for k, v in params.items():
        if isinstance(v, Mapping | list):
            out += areas_of(v, f"{label} {k}", r_here if isinstance(r_here, int | float)
                            else None)
    return out


def _day_label(day: int) -> str:
    return f"day {day} ({wall_time(day * DAY)[:10]})"


def _locations(counters: Mapping[str, Any], step_start: Mapping[int, float]
               ) -> list[tuple[float, str, float]]:
    """(time, where, weight) of each violation the counters locate."""
    out: list[tuple[float, str, float]] = []
    for s in counters.get("violating_steps") or []:
        if isinstance(s, int) and s in step_start:
            out.append((step_start[s], f"step {s}", 1.0))
    for d in counters.get("violating_days") or []:
        if isinstance(d, int):
            out.append((d * DAY + DAY / 2, _day_label(d), 1.0))
    extra = counters.get("extra_by_day")
    if isinstance(extra, Mapping):
        for d, n in extra.items():
            day = int(d)
            if n:
                out.append((day * DAY + DAY / 2, f"{_day_label(day)}, {n} over", float(n)))
    return sorted(out)


def marks_for(rule: RuleRow, step_start: Mapping[int, float], horizon: float) -> list[Mark]:
    """The rule's violations as timeline marks, its penalty shared among them."""
    if rule.unscored is not None:
        return []
    locs = _locations(rule.counters, step_start)
    if not locs:
        if rule.penalty <= 0:
            return []
        return [Mark(horizon, rule.index, rule.label, "judged over the period", rule.penalty)]
    fines: list[float] = []
    left = rule.penalty
    if rule.amount and rule.amount > 0:
        for _, _, w in locs:
            f = min(rule.amount * w, max(left, 0.0))
            fines.append(f)
            left -= f
    if not fines or abs(sum(fines) - rule.penalty) > 0.01:
        total_w = sum(w for _, _, w in locs)
        fines = [rule.penalty * w / total_w for _, _, w in locs]
    return [Mark(t, rule.index, rule.label, where, round(f, 2))
            for (t, where, _), f in zip(locs, fines, strict=True)]


def rule_areas(rule: RuleRow) -> list[Area]:
    """The areas of the reading the scorer used, else of the parser's reading."""
    reading = rule.scorer_reading or rule.parser_reading
    if not reading or not reading.get("kind"):
        return []
    return areas_of(reading.get("params") or {}, f"#{rule.index} {rule.label}")
