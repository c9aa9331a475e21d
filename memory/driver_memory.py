"""DriverMemory: the driver's own recent plan, actions with outcomes, and what they earned.

Preference progress is not kept here: it is the driver's RuleProgress (memory/rule_progress.py),
the 24 kinds' own tests over the official step records, attached to the MemoryAgent.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from memory.tokens import FactLog, TokenCounter
from sim.world.events import (
    ActionChosen,
    Drove,
    Event,
    OrderCompleted,
    OrderTaken,
    SearchDone,
    TakeFailed,
    Waited,
)


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


# What a minute of the driver's time is taken to be worth before it has a record of its own
# (yuan per minute, net of km cost), and how many minutes of record that guess weighs. A month
# of the calibrated market pays a greedy driver about 1.2/min around the clock.
PRIOR_RATE = 1.0
PRIOR_MINUTES = 1440.0


class DriverMemory:
    def __init__(self, recent: int, counter: TokenCounter | None) -> None:
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
        self.start: float | None = None  # the first event's time: the record starts there
        self.last_order_at: float | None = None  # when the last order taken finishes
        self.busy = 0.0  # minutes spent hauling (pickup drive, window wait, haul) or driving
        self.prior_rate = PRIOR_RATE  # lessons of an earlier run may set it
        self.log = FactLog(counter)

    def on_event(self, ev: Event) -> None:
        self.now = max(self.now, ev.t)
        if self.start is None:
            self.start = ev.t
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
            if ev.action not in ("wait", "search"):  # a search is no order: waiting on
                self.waits_without_order = 0  # between searches is still being stuck
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
            self.busy += max(0.0, ev.finish - ev.t)
            self.waits_without_order = 0
            self.last_order_at = ev.finish
            self._outcome(f"booked, done t{ev.finish:.0f}")
        elif isinstance(ev, OrderCompleted):
            self.orders += 1
            self.income += ev.net
            self.log.append(f"t{ev.t:.0f} completed {ev.cargo_id} net {ev.net:.0f}")
        elif isinstance(ev, Drove) and not ev.loaded:
            self.busy += max(0.0, ev.t - ev.t0)
        elif isinstance(ev, Waited):
            self.waits_without_order += 1
            self._outcome("waited")

    def _outcome(self, text: str) -> None:
        if self.recent and not self.recent[-1].outcome:
            self.recent[-1].outcome = text
            self.log.append(self.recent[-1].line())

    # -- what agents read ------------------------------------------------------------------
    def earning_rate(self, now: float) -> float:
        """Net yuan a minute of this driver's working time has earned so far, the prior
        blended in (it fades as the record grows): what an hour spent resting or driving to a
        rule's point forgoes, and what a long take's hours cost against a short one's. Minutes
        spent waiting do not count, so a driver kept idle by its rules does not come to think
        its time worthless. A take in progress counts when it completes."""
        return (self.income + self.prior_rate * PRIOR_MINUTES) / (self.busy + PRIOR_MINUTES)

    def minutes_without_order(self, now: float) -> int:
        """Since the last order finished (or the record began): a long stretch means the
        place, not the hour, is the problem."""
        since = self.last_order_at if self.last_order_at is not None else (self.start or 0.0)
        return max(0, int(now - since))

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
            "start": self.start, "prior_rate": self.prior_rate, "busy": self.busy,
            "last_order_at": self.last_order_at,
            "log": self.log.get_state(),
        }

    def set_state(self, s: dict) -> None:
        self.recent.clear()
        self.recent.extend(ActionRecord(*r) for r in s["recent"])
        self.short_plan, self.action_counts = s["short_plan"], dict(s["action_counts"])
        self.last_action, self.searches_in_row = s["last_action"], s["searches_in_row"]
        self.waits_without_order = s["waits_without_order"]
        self.fruitless_searches, self.failed_takes = s["fruitless_searches"], s["failed_takes"]
        self.orders, self.income, self.now = s["orders"], s["income"], s["now"]
        self.start, self.prior_rate = s.get("start"), s.get("prior_rate", PRIOR_RATE)
        self.busy = s.get("busy", 0.0)
        self.last_order_at = s.get("last_order_at")
        self.log.set_state(s["log"])
