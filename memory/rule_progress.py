"""Progress of a driver's competition preference rules (the 24 kinds of sim/scoring), step by step.

Every number here comes from the kind's own §7.6 test (`Kind.violations`) run over the official
step model (`sim.scoring.steps`), never from a second implementation of a rule. What this module
adds is *where* the test runs, so a month stays fast:

- day-additive kinds (rest, night/quiet windows, homing, orders per day, first-order deadline)
  are tested over a few days only: the closed days are tested once when the day changes and
  kept; each step re-tests from yesterday on, over the steps that reach it;
- per-step kinds (cargo, mileage per order, geofences, date regions) test each new step once;
- month-level kinds (deadhead total, off days, visits, quotas, itineraries) re-test the log.

`extra_penalty` is the what-if of a take: the hypothetical step is built with the official
arithmetic (pickup drive, window wait, cost time, end at the drop point) and the penalty
difference is taken on the same scoped tests (exact for additive counters, see the tests).
`todo` turns a due rule into one action (wait N minutes / go to a point), which the baseline
and the preference agent follow.

Which of the three a kind is (`Kind.scope`), whether its penalty before the end is a forecast
(`Kind.judged_at_end`) and how it words its line and action (`Kind.progress`) belong to the
kind's own class in sim/scoring/kinds/; this module only builds the `ProgressContext` they read.
`Status` and `Todo` are sim/scoring/progress.py's, re-exported here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sim.scoring.cargo import CargoRecord, parse_cargo_row
from sim.scoring.kinds import REGISTRY, Kind, RuleContext
from sim.scoring.pins import Pin
from sim.scoring.progress import ProgressContext, Scope, Status, Todo
from sim.scoring.scorer import Parser, Preference, default_parser, read_preferences
from sim.scoring.steps import ActionKind, Pos, Step, StepLog
from sim.scoring.timebase import DAY, drive_minutes
from sim.scoring.versions import DEFAULT_VERSION, settings_for
from sim.scoring.windows import Window

# The kind sets by scope, from the registry (each kind declares its own `scope`).
DAY_KINDS = frozenset(n for n, k in REGISTRY.items() if k.scope is Scope.DAY)
STEP_KINDS = frozenset(n for n, k in REGISTRY.items() if k.scope is Scope.STEP)
# Kinds judged once at the end of the period: their "penalty now" is a forecast, not a fine.
END_KINDS = frozenset(n for n, k in REGISTRY.items() if k.judged_at_end)
ADDITIVE = ("violations", "extra")  # counters a day- or step-scoped test adds up


@dataclass(frozen=True)
class RuleSpec:
    """One competition rule a driver carries: kind and typed params, fine, window, text."""

    index: int  # 1-based among the driver's preference entries
    text: str
    rule: Kind | None
    amount: float
    cap: float | None
    window: Window
    unscored: str | None = None
    zero_cap_uncapped: bool | None = None

    @property
    def kind(self) -> str:
        return self.rule.name if self.rule is not None else "unscored"

    @classmethod
    def from_preference(cls, p: Preference) -> RuleSpec:
        return cls(p.index, p.text, p.rule, p.amount, p.cap, p.window, p.unscored,
                   p.zero_cap_uncapped)


def rules_from_entries(entries: Sequence, *, n_days: int = 31, version: str | None = None,
                       parser: Parser | str | None = "default",
                       pins: Mapping[int, Pin] | None = None) -> tuple[RuleSpec, ...]:
    """A drivers-file preference list -> rules, read exactly as the scorer reads them
    (a pin by index, else the `structured` extension field, else the text parser, else
    unscored)."""
    settings = settings_for(version or DEFAULT_VERSION)
    use = default_parser() if parser == "default" else parser
    prefs = read_preferences(list(entries), settings, use, n_days,  # type: ignore[arg-type]
                             pins)
    return tuple(RuleSpec.from_preference(p) for p in prefs)


@dataclass(frozen=True)
class RuleState:
    spec: RuleSpec
    counters: dict
    penalty: float  # fines so far (COUNT/KM/EXTRA kinds, closed days) or if it ended now
    status: Status
    line: str
    todo: Todo | None = None

    def status_line(self) -> str:
        return f"#{self.spec.index} {self.spec.kind} [{self.status}] {self.line}"


@dataclass(frozen=True)
class HypoTake:
    """A take considered now, from `position`, of `cargo`."""

    cargo: CargoRecord
    now: int
    position: Pos
    scan: int = 0


@dataclass(frozen=True)
class DaysContext(RuleContext):
    """The kind's own context with its day set cut to [lo, hi] (the rule's test unchanged)."""

    lo: int = 0
    hi: int = 10**6

    @property
    def days(self) -> list[int]:
        return [d for d in super().days if self.lo <= d <= self.hi]


def _add(a: dict, b: dict) -> dict:
    """Sum two scoped counter dicts: numbers add, lists join, dicts merge, flags or."""
    out = dict(a)
    for k, v in b.items():
        w = out.get(k)
        if isinstance(v, bool) or isinstance(w, bool):
            out[k] = bool(v) or bool(w)
        elif (isinstance(v, int | float) and isinstance(w, int | float)) or (
                isinstance(v, list) and isinstance(w, list)):
            out[k] = w + v
        elif isinstance(v, dict) and isinstance(w, dict):
            out[k] = {**w, **v}
        elif w is None:
            out[k] = v
    return out


class RuleProgress:
    """One driver's rules and step records so far (feed `on_step` with each official record)."""

    def __init__(self, rules: Iterable[RuleSpec], *, n_days: int, version: str | None = None,
                 initial: Pos | None = None, speed_kmh: float = 60.0) -> None:
        self.rules = tuple(r for r in rules if r.rule is not None)
        self.unscored = tuple(r for r in rules if r.rule is None)
        self.settings = settings_for(version or DEFAULT_VERSION)
        self.n_days, self.initial, self.speed = n_days, initial, speed_kmh
        self.horizon = self.settings.horizon_days(n_days) * DAY
        self.steps: list[Step] = []
        self.cargo: dict[str, CargoRecord] = {}
        self._closed: dict[int, tuple[int, dict]] = {}  # rule index -> (through day, counters)
        self._cache: tuple[tuple[int, int], tuple[RuleState, ...]] | None = None
        self._base: dict[int, dict] = {}  # counters of the log so far, per rule (what-if base)
        self._full_log: StepLog | None = None
        self._extra: dict[tuple, float] = {}  # what-if totals of this step

    # -- feeding -----------------------------------------------------------------------
    def add_cargo(self, row: dict) -> None:
        """Register an official cargo object (a query item's `cargo`), for take facts."""
        try:
            rec = parse_cargo_row(row)
        except (KeyError, TypeError, ValueError):
            return
        self.cargo.setdefault(rec.cargo_id, rec)

    def add_record(self, rec: CargoRecord) -> None:
        """Register a cargo already in the scorer's form (the generator world's cargo)."""
        self.cargo.setdefault(rec.cargo_id, rec)

    def on_step(self, record: dict) -> None:
        prev = self.steps[-1].step_end if self.steps else 0
        self.steps.append(Step.from_record(record, prev, len(self.steps) + 1,
                                           accepted_truthy=self.settings.accepted_truthy))
        self._cache = None
        self._extra.clear()

    @property
    def end(self) -> int:
        return self.steps[-1].step_end if self.steps else 0

    def position(self) -> Pos | None:
        return self.steps[-1].after if self.steps else self.initial

    # -- testing -----------------------------------------------------------------------
    def ctx(self, spec: RuleSpec, lo: int | None = None, hi: int | None = None) -> RuleContext:
        assert spec.rule is not None
        if lo is None and hi is None:
            return RuleContext(self.settings, self.n_days, spec.rule.name, spec.window,
                               self.initial)
        return DaysContext(self.settings, self.n_days, spec.rule.name, spec.window, self.initial,
                           lo if lo is not None else 0, hi if hi is not None else 10**6)

    def _log(self, steps: Sequence[Step]) -> StepLog:
        return StepLog(tuple(steps), self.cargo)

    def _full(self) -> StepLog:
        """The whole log as one StepLog per step (its derived lists are computed once)."""
        if self._full_log is None or len(self._full_log.steps) != len(self.steps):
            self._full_log = self._log(self.steps)
        return self._full_log

    def _tail(self, from_day: int, extra: Sequence[Step] = ()) -> StepLog:
        """Steps ending after the start of `from_day - 1`, plus the one before (for positions)."""
        cut = (from_day - 1) * DAY
        i = len(self.steps)
        while i > 0 and self.steps[i - 1].step_end > cut:
            i -= 1
        return self._log([*self.steps[max(0, i - 1):], *extra])

    def _counters(self, spec: RuleSpec, today: int) -> tuple[dict, dict]:
        """-> (counters through yesterday, counters through today) of the log so far.

        Day kinds keep their closed days (before yesterday) and re-test yesterday and today
        over the steps that reach them; future days are not yet due and never counted."""
        rule = spec.rule
        assert rule is not None
        if rule.scope is Scope.DAY:
            lo = max(0, today - 1)
            through, closed = self._closed.get(spec.index, (-2, {}))
            if through != lo - 1:
                # no closed day yet: the test over no days gives its zero counters
                closed = rule.violations(self._full(), self.ctx(spec, 0, lo - 1))
                self._closed[spec.index] = (lo - 1, closed)
            tail = self._tail(lo)
            past = closed
            if today > 0:
                past = _add(closed, rule.violations(tail, self.ctx(spec, lo, lo)))
            return past, _add(past, rule.violations(tail, self.ctx(spec, today, today)))
        c = rule.violations(self._full(), self.ctx(spec))
        return c, c

    def _penalty(self, spec: RuleSpec, counters: dict) -> float:
        assert spec.rule is not None
        return spec.rule.penalty(counters, spec.amount, spec.cap, self.ctx(spec),
                                 zero_cap_uncapped=spec.zero_cap_uncapped)

    def states(self, now: float, position: Pos | None = None) -> tuple[RuleState, ...]:
        """Each rule's counters, penalty, status and line at `now` (cached per step)."""
        key = (len(self.steps), int(now))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        today = int(now) // DAY
        pos = position or self.position()
        view = ProgressContext(int(now), pos, self.horizon, self.speed, self._tail,
                               bool(self.steps))
        out = []
        for spec in self.rules:
            rule = spec.rule
            assert rule is not None
            past, c = self._counters(spec, today)
            self._base[spec.index] = c
            pen = self._penalty(spec, past if rule.scope is Scope.DAY else c)
            status, line, todo = rule.progress(view, c, pen)
            if todo is not None:
                todo = dataclasses.replace(todo, at_stake=spec.amount)
            out.append(RuleState(spec, c, round(pen, 2), status, line, todo))
        result = tuple(out)
        self._cache = (key, result)
        return result

    # -- what-if -----------------------------------------------------------------------
    def hypothetical(self, take: HypoTake) -> Step:
        """The step the official arithmetic would log for this take (accepted or failed)."""
        c, pos = take.cargo, take.position
        start = take.now
        t = start + take.scan
        p = pos.km_to(c.start_lat, c.start_lng)
        if p > 1e-6:
            t += drive_minutes(p, self.speed)
        accepted = True
        if c.window is not None:
            if t > c.window[1]:
                accepted = False
            t = max(t, c.window[0])
        if accepted:
            t += c.cost_time_minutes
            after = Pos(c.end_lat, c.end_lng)
        else:
            after = Pos(c.start_lat, c.start_lng)
        return Step(len(self.steps) + 1, ActionKind.TAKE_ORDER, start, take.scan,
                    t - start - take.scan, t, pos, after, accepted, c.cargo_id, 0.0,
                    round(p, 2) if accepted else 0.0)  # logged floats are 2 dp (§5.3)

    def extra_by_rule(self, take: HypoTake) -> dict[int, float]:
        """Penalty each rule would add if the driver took this cargo now (index -> yuan)."""
        self.cargo.setdefault(take.cargo.cargo_id, take.cargo)
        if not self._base or self._cache is None:
            self.states(take.now, take.position)
        h = self.hypothetical(take)
        log_h: StepLog | None = None  # the log plus the take, shared by the month kinds
        d0 = h.step_start // DAY
        out: dict[int, float] = {}
        for spec in self.rules:
            rule = spec.rule
            assert rule is not None
            base = self._base[spec.index]
            if rule.scope is Scope.STEP:
                delta = rule.violations(self._log([h]), self.ctx(spec))
                after = _add(base, {k: v for k, v in delta.items()
                                    if k in ADDITIVE or isinstance(v, bool)})
            elif rule.scope is Scope.DAY:
                # the days from the one before the take to the one after it ends: later days
                # are not the take's doing (K4 would otherwise fine every night to come for a
                # drop far from home, as if the driver never moved again)
                lo, hi = max(0, d0 - 1), h.step_end // DAY + 1
                without = rule.violations(self._tail(lo), self.ctx(spec, lo, hi))
                with_h = rule.violations(self._tail(lo, [h]), self.ctx(spec, lo, hi))
                after = dict(base)
                for k in ADDITIVE:
                    if k in with_h:
                        after[k] = base.get(k, 0) + with_h[k] - without[k]
            elif h.step_start >= rule.settled_after():
                continue  # e.g. a dated itinerary: no step after its day can change it
            else:
                log_h = log_h or self._log([*self.steps, h])
                after = rule.violations(log_h, self.ctx(spec))
            extra = self._penalty(spec, after) - self._penalty(spec, base)
            if abs(extra) > 1e-9:
                out[spec.index] = extra
        return out

    def extra_penalty(self, take: HypoTake) -> float:
        """The total of `extra_by_rule`, cached until the next step (a decide may refresh its
        memory several times around its searches)."""
        key = (len(self.steps), take.cargo.cargo_id, take.now, take.position, take.scan)
        got = self._extra.get(key)
        if got is None:
            got = self._extra[key] = sum(self.extra_by_rule(take).values())
        return got

    def todo(self, now: float, position: Pos | None = None) -> Todo | None:
        """The first due rule's action, in rule order (None when nothing is due)."""
        return next((s.todo for s in self.states(now, position)
                     if s.todo is not None and s.status in (Status.DUE, Status.AT_RISK)), None)

    def points(self) -> list[tuple[float, float]]:
        """Every (lat, lng) the rules' params name: what a grounded digest may mention."""
        out = []
        for spec in self.rules:
            d = spec.rule.params.to_dict() if spec.rule is not None else {}
            for obj in [d, *d.get("stops", [])]:
                for a, b in (("lat", "lng"), ("pickup_lat", "pickup_lng"),
                             ("home_lat", "home_lng")):
                    if isinstance(obj.get(a), float) and isinstance(obj.get(b), float):
                        out.append((obj[a], obj[b]))
        return out

    def lines(self, now: float, position: Pos | None = None) -> list[str]:
        return [s.status_line() for s in self.states(now, position)]


def take_of(rp: RuleProgress, cargo_id: str, now: int, position: Pos, scan: int = 0
            ) -> HypoTake | None:
    rec = rp.cargo.get(cargo_id)
    return None if rec is None else HypoTake(rec, now, position, scan)


__all__ = ["DAY_KINDS", "END_KINDS", "STEP_KINDS", "DaysContext", "HypoTake", "RuleProgress",
           "RuleSpec", "RuleState", "Status", "Todo", "rules_from_entries", "take_of"]
