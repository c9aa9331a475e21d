"""Driver preferences: structured kinds, their progress over a run, and the penalty they score.

Progress is fed one driving segment at a time (O(1) per segment) and per-day facts are kept in
small dicts keyed by day, so scoring at the end is a pass over days, not over history.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

import h3

from sim.clock import DAY, MONTH_DAYS
from sim.geo import Point, haversine_km


class PrefKind(StrEnum):
    REST_DAYS = "rest_days"
    VISIT = "visit"
    FORBIDDEN_ZONE = "forbidden_zone"
    DAILY_EMPTY_KM = "daily_empty_km"
    NIGHT_NO_DRIVING = "night_no_driving"
    ERRAND = "errand"


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    lat: float
    lng: float
    radius_km: float = 5.0

    def contains(self, p: Point) -> bool:
        return haversine_km(self.lat, self.lng, p.lat, p.lng) <= self.radius_km


@dataclass(frozen=True, slots=True)
class Preference:
    """One preference: its kind and parameters, the text it came from, and its penalty terms.

    Parameters by kind: rest_days(days), visit(place, days), forbidden_zone(place and/or cells),
    daily_empty_km(km), night_no_driving(start_hour, end_hour), errand(steps, deadline_day).
    """

    kind: PrefKind
    text: str = ""
    penalty_amount: float = 100.0
    penalty_cap: float = 1000.0
    days: int = 0
    place: Place | None = None
    cells: tuple[str, ...] = ()
    km: float = 0.0
    start_hour: int = 0
    end_hour: int = 0
    steps: tuple[Place, ...] = ()
    deadline_day: int = 0

    def to_dict(self) -> dict:
        d: dict = {"kind": str(self.kind), "penalty_amount": self.penalty_amount,
                   "penalty_cap": self.penalty_cap}
        if self.kind in (PrefKind.REST_DAYS, PrefKind.VISIT):
            d["days"] = self.days
        if self.place is not None:
            d["place"] = _place_dict(self.place)
        if self.cells:
            d["cells"] = list(self.cells)
        if self.kind is PrefKind.DAILY_EMPTY_KM:
            d["km"] = self.km
        if self.kind is PrefKind.NIGHT_NO_DRIVING:
            d["start_hour"], d["end_hour"] = self.start_hour, self.end_hour
        if self.kind is PrefKind.ERRAND:
            d["steps"] = [_place_dict(s) for s in self.steps]
            d["deadline_day"] = self.deadline_day
        return d

    def in_zone(self, p: Point) -> bool:
        if self.place is not None and self.place.contains(p):
            return True
        if self.cells:
            res = h3.get_resolution(self.cells[0])
            return h3.latlng_to_cell(p.lat, p.lng, res) in self.cells
        return False

    def is_night(self, minute: float) -> bool:
        h = (minute % DAY) / 60
        if self.start_hour <= self.end_hour:
            return self.start_hour <= h < self.end_hour
        return h >= self.start_hour or h < self.end_hour


def _place_dict(p: Place) -> dict:
    return {"name": p.name, "lat": p.lat, "lng": p.lng, "radius_km": p.radius_km}


def preference_from_dict(d: dict, text: str = "") -> Preference:
    """Build a Preference from its structured dict (scenario files, data/preferences.jsonl)."""
    kind = PrefKind(d["kind"])

    def place(x: dict) -> Place:
        return Place(str(x.get("name", "")), float(x["lat"]), float(x["lng"]),
                     float(x.get("radius_km", 5.0)))

    return Preference(
        kind=kind,
        text=text or str(d.get("text", "")),
        penalty_amount=float(d.get("penalty_amount", 100.0)),
        penalty_cap=float(d.get("penalty_cap", 1000.0)),
        days=int(d.get("days", 0)),
        place=place(d["place"]) if "place" in d else None,
        cells=tuple(d.get("cells", ())),
        km=float(d.get("km", 0.0)),
        start_hour=int(d.get("start_hour", 0)),
        end_hour=int(d.get("end_hour", 0)),
        steps=tuple(place(s) for s in d.get("steps", ())),
        deadline_day=int(d.get("deadline_day", 0)),
    )


@dataclass
class Progress:
    """Running progress of one preference for one driver."""

    pref: Preference
    drive_minutes_by_day: dict[int, float] = field(default_factory=dict)
    empty_km_by_day: dict[int, float] = field(default_factory=dict)
    visit_days: set[int] = field(default_factory=set)
    night_days: set[int] = field(default_factory=set)
    zone_entries: int = 0
    errand_step: int = 0
    errand_done_day: int | None = None
    last_event_t: float | None = None


def _overlap_night_minutes(pref: Preference, t0: float, t1: float) -> float:
    """Minutes of [t0, t1) inside the night window, walking hour boundaries (trips are short)."""
    total, t = 0.0, t0
    while t < t1:
        nxt = min(t1, (math.floor(t / 60) + 1) * 60)
        if pref.is_night(t):
            total += nxt - t
        t = nxt
    return total


class PreferenceTracker:
    """Tracks all preferences of one driver; returns the preference events each segment caused."""

    def __init__(self, prefs: tuple[Preference, ...], horizon_minutes: float) -> None:
        self.progress = [Progress(p) for p in prefs]
        self.horizon = horizon_minutes

    def on_segment(self, t0: float, t1: float, a: Point, b: Point, km: float,
                   loaded: bool) -> list[tuple[int, str, float]]:
        """Feed one drive; returns (preference index, what happened, amount) tuples."""
        out: list[tuple[int, str, float]] = []
        day = int(t0 // DAY)
        spans = _minutes_by_day(t0, t1)
        for i, pr in enumerate(self.progress):
            p = pr.pref
            for d, minutes in spans:
                pr.drive_minutes_by_day[d] = pr.drive_minutes_by_day.get(d, 0) + minutes
            if not loaded:
                pr.empty_km_by_day[day] = pr.empty_km_by_day.get(day, 0.0) + km
            if p.kind is PrefKind.DAILY_EMPTY_KM and not loaded:
                if pr.empty_km_by_day[day] > p.km >= pr.empty_km_by_day[day] - km:
                    out.append((i, "empty_km_exceeded", pr.empty_km_by_day[day]))
                    pr.last_event_t = t1
            elif p.kind is PrefKind.NIGHT_NO_DRIVING:
                if _overlap_night_minutes(p, t0, t1) > 0 and day not in pr.night_days:
                    pr.night_days.add(day)
                    out.append((i, "night_driving", float(day)))
                    pr.last_event_t = t1
            elif p.kind is PrefKind.FORBIDDEN_ZONE:
                if p.in_zone(b) or p.in_zone(_mid(a, b)):
                    pr.zone_entries += 1
                    out.append((i, "zone_entered", float(pr.zone_entries)))
                    pr.last_event_t = t1
            elif p.kind is PrefKind.VISIT:
                vday = int(t1 // DAY)
                if p.place is not None and p.place.contains(b) and vday not in pr.visit_days:
                    pr.visit_days.add(vday)
                    out.append((i, "visited", float(len(pr.visit_days))))
                    pr.last_event_t = t1
            elif (p.kind is PrefKind.ERRAND and pr.errand_step < len(p.steps)
                  and p.steps[pr.errand_step].contains(b)):
                pr.errand_step += 1
                if pr.errand_step == len(p.steps):
                    pr.errand_done_day = int(t1 // DAY)
                out.append((i, "errand_step", float(pr.errand_step)))
                pr.last_event_t = t1
        return out

    def rest_days(self, i: int, month: int, upto_minute: float) -> int:
        """Days of `month` (31-day months from the start) up to `upto_minute` with no driving."""
        pr = self.progress[i]
        first = month * MONTH_DAYS
        last = min(first + MONTH_DAYS, math.ceil(upto_minute / DAY))
        return sum(1 for d in range(first, last) if pr.drive_minutes_by_day.get(d, 0) == 0)

    def penalties(self) -> list[float]:
        """Penalty per preference for the whole horizon, each capped by its penalty_cap."""
        n_days = max(1, math.ceil(self.horizon / DAY))
        months = math.ceil(n_days / MONTH_DAYS)
        out = []
        for i, pr in enumerate(self.progress):
            p = pr.pref
            units = 0.0
            if p.kind is PrefKind.REST_DAYS or p.kind is PrefKind.VISIT:
                for m in range(months):
                    span = min(MONTH_DAYS, n_days - m * MONTH_DAYS)
                    need = math.ceil(p.days * span / MONTH_DAYS)
                    if p.kind is PrefKind.REST_DAYS:
                        got = self.rest_days(i, m, self.horizon)
                    else:
                        got = sum(1 for d in pr.visit_days
                                  if m * MONTH_DAYS <= d < (m + 1) * MONTH_DAYS)
                    units += max(0, need - got)
            elif p.kind is PrefKind.DAILY_EMPTY_KM:
                units = sum(1 for km in pr.empty_km_by_day.values() if km > p.km)
            elif p.kind is PrefKind.NIGHT_NO_DRIVING:
                units = len(pr.night_days)
            elif p.kind is PrefKind.FORBIDDEN_ZONE:
                units = pr.zone_entries
            elif p.kind is PrefKind.ERRAND:
                deadline = p.deadline_day or n_days
                done = pr.errand_done_day is not None and pr.errand_done_day < deadline
                units = 0 if done else 1
            out.append(min(p.penalty_cap, units * p.penalty_amount))
        return out

    def snapshot(self, now: float) -> list[dict]:
        """Progress facts per preference, as the driver (and its memory) sees them now."""
        day = int(now // DAY)
        month = day // MONTH_DAYS
        snap = []
        for i, pr in enumerate(self.progress):
            p = pr.pref
            s: dict = {"index": i, "kind": str(p.kind), "text": p.text}
            if p.kind is PrefKind.REST_DAYS:
                s["rest_days_this_month"] = self.rest_days(i, month, day * DAY)
                s["required"] = p.days
                s["drove_today"] = pr.drive_minutes_by_day.get(day, 0) > 0
            elif p.kind is PrefKind.VISIT:
                s["visit_days_this_month"] = sum(
                    1 for d in pr.visit_days if d // MONTH_DAYS == month)
                s["required"] = p.days
            elif p.kind is PrefKind.DAILY_EMPTY_KM:
                s["empty_km_today"] = round(pr.empty_km_by_day.get(day, 0.0), 1)
                s["limit_km"] = p.km
            elif p.kind is PrefKind.NIGHT_NO_DRIVING:
                s["night_days"] = len(pr.night_days)
            elif p.kind is PrefKind.FORBIDDEN_ZONE:
                s["zone_entries"] = pr.zone_entries
            elif p.kind is PrefKind.ERRAND:
                s["errand_step"] = pr.errand_step
                s["steps"] = len(p.steps)
            snap.append(s)
        return snap


def _minutes_by_day(t0: float, t1: float) -> list[tuple[int, float]]:
    """Split [t0, t1) at midnights; a zero-length drive still marks its day as driven."""
    if t1 <= t0:
        return [(int(t0 // DAY), 1e-6)]
    out, t = [], t0
    while t < t1:
        nxt = min(t1, (math.floor(t / DAY) + 1) * DAY)
        out.append((int(t // DAY), nxt - t))
        t = nxt
    return out


def _mid(a: Point, b: Point) -> Point:
    return Point((a.lat + b.lat) / 2, (a.lng + b.lng) / 2)
