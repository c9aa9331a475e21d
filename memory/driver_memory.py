"""DriverMemory: the driver's own recent plan, actions with outcomes, and preference progress.

Progress is rebuilt from events by the memory's clock (day and 31-day month boundaries), not
copied from the world, so a view can be checked against the world's own scoring.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from memory.tokens import FactLog, TokenCounter
from sim.clock import DAY, MONTH_DAYS
from sim.events import (
    ActionChosen,
    Drove,
    Event,
    OrderCompleted,
    OrderTaken,
    PreferenceEvent,
    SearchDone,
    TakeFailed,
    Waited,
)
from sim.preferences import Preference, PrefKind


@dataclass(slots=True)
class ActionRecord:
    t: float
    action: str
    detail: str = ""
    outcome: str = ""

    def line(self) -> str:
        d = f" {self.detail}" if self.detail else ""
        o = f" -> {self.outcome}" if self.outcome else ""
        return f"t{self.t:.0f} {self.action}{d}{o}"


class DriverMemory:
    def __init__(self, prefs: tuple[Preference, ...], recent: int,
                 counter: TokenCounter | None) -> None:
        self.prefs = prefs
        self.recent: deque[ActionRecord] = deque(maxlen=recent)
        self.short_plan = ""
        self.last_action = ""
        self.searches_in_row = 0
        self.action_counts: dict[str, int] = {}
        self.waits_without_order = 0
        self.fruitless_searches = 0
        self.failed_takes = 0
        self.orders = 0
        self.income = 0.0
        self.now = 0.0
        # preference progress, by the memory's own clock
        self.drove_days: set[int] = set()
        self.empty_km_day = -1
        self.empty_km_today = 0.0
        self.visit_days: dict[int, set[int]] = {}
        self.errand_step: dict[int, int] = {}
        self.night_days: dict[int, int] = {}
        self.zone_entries: dict[int, int] = {}
        self.last_pref_event: float | None = None
        self.log = FactLog(counter)

    def on_event(self, ev: Event) -> None:
        self.now = max(self.now, ev.t)
        if isinstance(ev, ActionChosen):
            detail = ev.cargo_id or ""
            if ev.action == "wait":
                detail = f"{ev.params.get('minutes', 0):.0f}min"
            elif ev.action == "reposition":
                detail = f"({ev.params['lat']:.3f},{ev.params['lng']:.3f})"
            self.recent.append(ActionRecord(ev.t, ev.action, detail))
            self.action_counts[ev.action] = self.action_counts.get(ev.action, 0) + 1
            self.last_action = ev.action
            self.searches_in_row = self.searches_in_row + 1 if ev.action == "search" else 0
            if ev.action != "wait":
                self.waits_without_order = 0
            if ev.action == "reposition":  # a new place: its searches start afresh
                self.fruitless_searches = 0
            if "short_plan" in ev.params:
                self.short_plan = str(ev.params["short_plan"])
        elif isinstance(ev, SearchDone):
            n = len(ev.results)
            self._outcome("rejected: budget" if ev.rejected
                          else f"{n} found best {ev.best_net:.0f}")
            self.fruitless_searches = self.fruitless_searches + 1 if n == 0 else 0
        elif isinstance(ev, TakeFailed):
            self.failed_takes += 1
            self._outcome(f"failed {ev.reason}")
        elif isinstance(ev, OrderTaken):
            self.waits_without_order = 0
            self._outcome(f"booked, done t{ev.finish:.0f}")
        elif isinstance(ev, OrderCompleted):
            self.orders += 1
            self.income += ev.net
            self.log.append(f"t{ev.t:.0f} completed {ev.cargo_id} net {ev.net:.0f}")
        elif isinstance(ev, Waited):
            self.waits_without_order += 1
            self._outcome("waited")
        elif isinstance(ev, Drove):
            self._on_drive(ev)
        elif isinstance(ev, PreferenceEvent):
            self._on_preference(ev)

    def _outcome(self, text: str) -> None:
        if self.recent and not self.recent[-1].outcome:
            self.recent[-1].outcome = text
            self.log.append(self.recent[-1].line())

    def _on_drive(self, ev: Drove) -> None:
        # the days [t0, t) touches, as the world's tracker splits them
        last = math.ceil(ev.t / DAY) - 1 if ev.t > ev.t0 else int(ev.t0 // DAY)
        for d in range(int(ev.t0 // DAY), last + 1):
            self.drove_days.add(d)
        day = int(ev.t0 // DAY)
        if day != self.empty_km_day:
            self.empty_km_day, self.empty_km_today = day, 0.0
        if not ev.loaded:
            self.empty_km_today += ev.km

    def _on_preference(self, ev: PreferenceEvent) -> None:
        self.last_pref_event = ev.t
        i, day = ev.index, int(ev.t // DAY)
        if ev.what == "visited":
            self.visit_days.setdefault(i, set()).add(day)
        elif ev.what == "errand_step":
            self.errand_step[i] = int(ev.amount)
        elif ev.what == "night_driving":
            self.night_days[i] = self.night_days.get(i, 0) + 1
        elif ev.what == "zone_entered":
            self.zone_entries[i] = self.zone_entries.get(i, 0) + 1
        self.log.append(f"t{ev.t:.0f} preference {ev.pref_kind} {ev.what} {ev.amount:g}")

    # -- what agents read ------------------------------------------------------------------
    def empty_km_on(self, now: float) -> float:
        return self.empty_km_today if int(now // DAY) == self.empty_km_day else 0.0

    def rest_days_this_month(self, now: float) -> int:
        """Whole days of this 31-day month, before today, with no driving at all."""
        today = int(now // DAY)
        first = today - today % MONTH_DAYS
        return sum(1 for d in range(first, today) if d not in self.drove_days)

    def progress(self, now: float) -> tuple[dict, ...]:
        today = int(now // DAY)
        month = today // MONTH_DAYS
        out = []
        for i, p in enumerate(self.prefs):
            s: dict = {"index": i, "kind": str(p.kind), "text": p.text}
            if p.kind is PrefKind.REST_DAYS:
                s.update(rest_days_this_month=self.rest_days_this_month(now), required=p.days,
                         drove_today=today in self.drove_days)
            elif p.kind is PrefKind.VISIT:
                s.update(visit_days_this_month=sum(
                    1 for d in self.visit_days.get(i, ()) if d // MONTH_DAYS == month),
                    required=p.days)
            elif p.kind is PrefKind.DAILY_EMPTY_KM:
                s.update(empty_km_today=round(self.empty_km_on(now), 1), limit_km=p.km)
            elif p.kind is PrefKind.NIGHT_NO_DRIVING:
                s.update(night_days=self.night_days.get(i, 0))
            elif p.kind is PrefKind.FORBIDDEN_ZONE:
                s.update(zone_entries=self.zone_entries.get(i, 0))
            elif p.kind is PrefKind.ERRAND:
                s.update(errand_step=self.errand_step.get(i, 0), steps=len(p.steps))
            out.append(s)
        return tuple(out)

    def recent_lines(self) -> list[str]:
        return [r.line() for r in self.recent]

    # -- state -----------------------------------------------------------------------------
    def get_state(self) -> dict:
        return {
            "recent": [[r.t, r.action, r.detail, r.outcome] for r in self.recent],
            "short_plan": self.short_plan, "last_action": self.last_action,
            "searches_in_row": self.searches_in_row, "action_counts": dict(self.action_counts),
            "waits_without_order": self.waits_without_order,
            "fruitless_searches": self.fruitless_searches, "failed_takes": self.failed_takes,
            "orders": self.orders, "income": self.income, "now": self.now,
            "drove_days": sorted(self.drove_days), "empty_km_day": self.empty_km_day,
            "empty_km_today": self.empty_km_today,
            "visit_days": {str(k): sorted(v) for k, v in self.visit_days.items()},
            "errand_step": {str(k): v for k, v in self.errand_step.items()},
            "night_days": {str(k): v for k, v in self.night_days.items()},
            "zone_entries": {str(k): v for k, v in self.zone_entries.items()},
            "last_pref_event": self.last_pref_event, "log": self.log.get_state(),
        }

    def set_state(self, s: dict) -> None:
        self.recent.clear()
        self.recent.extend(ActionRecord(*r) for r in s["recent"])
        self.short_plan, self.action_counts = s["short_plan"], dict(s["action_counts"])
        self.last_action, self.searches_in_row = s["last_action"], s["searches_in_row"]
        self.waits_without_order = s["waits_without_order"]
        self.fruitless_searches, self.failed_takes = s["fruitless_searches"], s["failed_takes"]
        self.orders, self.income, self.now = s["orders"], s["income"], s["now"]
        self.drove_days = set(s["drove_days"])
        self.empty_km_day, self.empty_km_today = s["empty_km_day"], s["empty_km_today"]
        self.visit_days = {int(k): set(v) for k, v in s["visit_days"].items()}
        self.errand_step = {int(k): v for k, v in s["errand_step"].items()}
        self.night_days = {int(k): v for k, v in s["night_days"].items()}
        self.zone_entries = {int(k): v for k, v in s["zone_entries"].items()}
        self.last_pref_event = s["last_pref_event"]
        self.log.set_state(s["log"])
