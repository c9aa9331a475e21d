"""The structured form every parser (rules or model) produces, and its validation.

One frozen record for every way of reading a preference, so the rules parser, the model parser
and the CLI compare and print the same thing (schema: notes/PREF_PARAMS.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

KINDS: tuple[str, ...] = (
    "daily_continuous_rest", "rest_window_full_coverage", "quiet_window", "home_by_curfew",
    "forbidden_cargo_category", "forbidden_cargo_place", "max_haul_km",
    "max_pickup_deadhead_km", "max_total_deadhead_km", "stay_inside_bbox", "forbidden_circle",
    "date_region_avoid", "min_days_without_orders", "min_full_off_days", "max_orders_per_day",
    "first_order_deadline", "min_visit_days", "min_region_order_days", "must_take_cargo",
    "monthly_category_quota", "monthly_long_haul_cap", "dwell_at_point_on_day",
    "route_stops_on_day", "home_stay_event",
)


class InvalidPreferenceError(ValueError):
    """A structured form that does not fit the agreed schema (kind or params)."""


@dataclass(frozen=True)
class ParsedPreference:
    """A preference in the agreed structured form. `params` is never mutated after creation."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    penalty_amount: float | None = None
    penalty_cap: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": self.params,
                "penalty_amount": self.penalty_amount, "penalty_cap": self.penalty_cap}


_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_WALL = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

# Param name -> type tag. "f" float, "i" int, "s" str, "t" HH:MM, "t?" optional HH:MM, "d" date,
# "m" month, "w" wall time, then the structured ones handled by name.
SCHEMA: dict[str, dict[str, str]] = {
    "daily_continuous_rest": {"min_minutes": "i", "days": "enum:all|weekdays"},
    "rest_window_full_coverage": {"start": "t", "end": "t", "weekend_start": "t?"},
    "quiet_window": {"start": "t", "end": "t", "count": "enum:per_day|per_step"},
    "home_by_curfew": {"lat": "f", "lng": "f", "radius_km": "f", "curfew": "t",
                       "quiet_until": "t"},
    "forbidden_cargo_category": {"categories": "[s]"},
    "forbidden_cargo_place": {"place": "s"},
    "max_haul_km": {"max_km": "f"},
    "max_pickup_deadhead_km": {"max_km": "f"},
    "max_total_deadhead_km": {"max_km": "f"},
    "stay_inside_bbox": {"lat_min": "f", "lat_max": "f", "lng_min": "f", "lng_max": "f"},
    "forbidden_circle": {"lat": "f", "lng": "f", "radius_km": "f",
                         "mode": "enum:per_step|once"},
    "date_region_avoid": {"dates": "[d]", "bbox": "bbox?", "place": "s?"},
    "min_days_without_orders": {"min_days": "i"},
    "min_full_off_days": {"min_days": "i"},
    "max_orders_per_day": {"max_orders": "i"},
    "first_order_deadline": {"latest": "t"},
    "min_visit_days": {"lat": "f", "lng": "f", "radius_km": "f", "min_days": "i"},
    "min_region_order_days": {"place": "s", "min_days": "i"},
    "must_take_cargo": {"cargo_id": "s"},
    "monthly_category_quota": {"category": "s", "month": "m", "min_orders": "i",
                               "carry_from": "carry?"},
    "monthly_long_haul_cap": {"threshold_minutes": "i", "max_per_month": "i"},
    "dwell_at_point_on_day": {"date": "d", "lat": "f", "lng": "f", "radius_km": "f",
                              "min_dwell_minutes": "i", "arrive_by": "t?"},
    "route_stops_on_day": {"date": "d", "radius_km": "f", "stops": "stops"},
    "home_stay_event": {"w0": "w", "w1": "w", "w_end": "w", "pickup_lat": "f",
                        "pickup_lng": "f", "home_lat": "f", "home_lng": "f", "radius_km": "f",
                        "min_pickup_dwell_minutes": "i", "rate_per_minute": "f"},
}
_BBOX = {"lat_min": "f", "lat_max": "f", "lng_min": "f", "lng_max": "f"}
_CARRY = {"category": "s", "month": "m", "min_orders": "i"}
_STOP = {"lat": "f", "lng": "f", "arrive_by": "t", "min_dwell_minutes": "i"}


def _num(v: Any, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise InvalidPreferenceError(f"{where}: a number, got {v!r}")
    return float(v)


def _value(tag: str, v: Any, where: str) -> Any:
    optional = tag.endswith("?")
    tag = tag.rstrip("?")
    if v is None:
        if optional:
            return None
        raise InvalidPreferenceError(f"{where}: required")
    if tag == "f":
        return _num(v, where)
    if tag == "i":
        x = _num(v, where)
        if x != int(x):
            raise InvalidPreferenceError(f"{where}: a whole number, got {v!r}")
        return int(x)
    if tag.startswith("enum:"):
        if v not in tag[5:].split("|"):
            raise InvalidPreferenceError(f"{where}: one of {tag[5:]}, got {v!r}")
        return v
    pats = {"t": _HHMM, "d": _DATE, "m": _MONTH, "w": _WALL}
    if tag in pats or tag == "s":
        if not isinstance(v, str) or not v.strip() or (tag in pats and not pats[tag].match(v)):
            raise InvalidPreferenceError(f"{where}: a {tag!r} string, got {v!r}")
        return v
    if tag.startswith("["):
        if not isinstance(v, list) or not v:
            raise InvalidPreferenceError(f"{where}: a non-empty list, got {v!r}")
        return [_value(tag[1:-1], x, f"{where}[{i}]") for i, x in enumerate(v)]
    if tag == "bbox":
        return _object(_BBOX, v, where)
    if tag == "carry":
        return _object(_CARRY, v, where)
    if tag == "stops":
        if not isinstance(v, list) or not v:
            raise InvalidPreferenceError(f"{where}: a non-empty list of stops")
        return [_object(_STOP, x, f"{where}[{i}]") for i, x in enumerate(v)]
    raise AssertionError(tag)


def _object(spec: dict[str, str], v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise InvalidPreferenceError(f"{where}: an object, got {v!r}")
    extra = set(v) - set(spec)
    if extra:
        raise InvalidPreferenceError(f"{where}: unknown keys {sorted(extra)}")
    return {k: _value(t, v.get(k), f"{where}.{k}") for k, t in spec.items()}


def validate(obj: Any) -> ParsedPreference:
    """A ParsedPreference from a JSON-like dict (a model's reply), or InvalidPreferenceError."""
    if not isinstance(obj, dict):
        raise InvalidPreferenceError("not an object")
    kind = obj.get("kind")
    if kind not in SCHEMA:
        raise InvalidPreferenceError(f"kind: one of the 24 kinds, got {kind!r}")
    params = _object(SCHEMA[kind], obj.get("params") or {}, "params")
    if kind == "date_region_avoid" and params["bbox"] is None and params["place"] is None:
        raise InvalidPreferenceError("params: date_region_avoid needs a bbox or a place")
    amount, cap = obj.get("penalty_amount"), obj.get("penalty_cap")
    return ParsedPreference(
        kind, params,
        None if amount is None else _num(amount, "penalty_amount"),
        None if cap is None else _num(cap, "penalty_cap"))


def same(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Structural equality with a float tolerance (how the eval and disagreement compare)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b, strict=True))
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return abs(float(a) - float(b)) <= tol
    return a == b
