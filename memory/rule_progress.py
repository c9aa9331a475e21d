"""Progress of a driver's competition preference rules (the 24 kinds of sim/scoring), step by step.

Every number here comes from the kind's own §7.6 test (`Kind.violations`) run over the official
step model (`sim.official.steps`), never from a second implementation of a rule. What this module
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
kind's own class in sim/preferences/kinds/; this module only builds the `ProgressContext` they read.
`Status` and `Todo` are sim/preferences/progress.py's, re-exported here.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from memory.grown_log import GrownLog, KeptLog, kept_positions
from sim.geo import Point
from sim.official.cargo_index import CargoRecord, parse_cargo_row
from sim.official.penalties import PenaltyModel
from sim.official.steps import ActionKind, Step, StepLog
from sim.official.timebase import DAY, drive_minutes
from sim.official.versions import DEFAULT_VERSION, CapRule, settings_for
from sim.official.windows import Window
from sim.preferences.kinds import REGISTRY, Kind, RuleContext
from sim.preferences.kinds.k09_max_total_deadhead_km import MaxTotalDeadheadKm
from sim.preferences.pins import Pin
from sim.preferences.progress import ProgressContext, Scope, Status, Todo
from sim.scoring.scorer import Parser, Preference, default_parser, read_preferences

# The kind sets by scope, from the registry (each kind declares its own `scope`).
DAY_KINDS = frozenset(n for n, k in REGISTRY.items() if k.scope is Scope.DAY)
STEP_KINDS = frozenset(n for n, k in REGISTRY.items() if k.scope is Scope.STEP)
# Kinds judged once at the end of the period: their "penalty now" is a forecast, not a fine.
END_KINDS = frozenset(n for n, k in REGISTRY.items() if k.judged_at_end)
ADDITIVE = ("violations", "extra")  # counters a day- or step-scoped test adds up
# the day lists of one-off rules met by several days of orders or visits (partial credit)
PART_KEYS = ("visit_days", "order_days")
OFF_KEYS = ("unworked_days", "off_days")
# kinds a rest can keep or break: the day kinds (rests, windows, curfews, orders per day,
# first-order deadlines), off days, and the dwells of errands and family events
TIMED_KINDS = DAY_KINDS | {"min_days_without_orders", "min_full_off_days",
                           "dwell_at_point_on_day", "route_stops_on_day", "home_stay_event"}
# one-off fines: judged at the end, so what is at stake stays the whole fine until then
ONE_OFF = frozenset({PenaltyModel.ONCE, PenaltyModel.MUST_TAKE, PenaltyModel.FLAT,
                     PenaltyModel.EVENT})  # ... and of those kept by several days off


# a take's minutes, scan to unload, before the driver has a take of its own (about a 150-km
# haul: 237 min + 2.37 min/km, docs/competition.md §9)
TYPICAL_TAKE_MINUTES = 600.0
# the scan of a decision before the driver has made one: a full query's 100 items (§4)
NEXT_SCAN_MINUTES = 10


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


@dataclass(frozen=True, slots=True)
class EmptyKmFine:
    """A monthly deadhead budget (K9) with no cap as the price of an empty move: km beyond
    `free_km` cost `per_km` each in fines. A move toward a market is not priced by the takes'
    what-ifs, so without this a driver whose budget was spent shuttled between markets at
    the full fine per km (failure class "market moves past a spent deadhead budget")."""

    free_km: float
    per_km: float
    paced: float = 0.0  # what a km of the budget left is worth (`RuleProgress.pace_empty_km`)

    def fine(self, km: float) -> float:
        """What `km` of empty driving costs: the budget's km at their pacing price, the km
        beyond it at the fine."""
        return min(km, self.free_km) * self.paced + max(0.0, km - self.free_km) * self.per_km

    def line(self) -> str:
        paced = f" (worth {self.paced:.1f}/km: paced to last the month)" if self.paced else ""
        return (f"empty km: {self.free_km:.0f} km of budget left{paced}, then {self.per_km:g}/km"
                f" in fines, no cap")


@dataclass(frozen=True)
class HypoTake:
    """A take considered now, from `position`, of `cargo`."""

    cargo: CargoRecord
    now: int
    position: Point
    scan: int = 0


@dataclass(frozen=True)
class KeptContext(RuleContext):
    """The kind's own context, its derived values worked out once: a month asks one rule's
    context the same questions (horizon, window, days) a million times. A kind reads the day
    list and never changes it."""

    @cached_property
    def horizon(self) -> int:  # type: ignore[override]
        return RuleContext.horizon.fget(self)  # type: ignore[attr-defined]

    @cached_property
    def window_applied(self) -> bool:  # type: ignore[override]
        return RuleContext.window_applied.fget(self)  # type: ignore[attr-defined]

    @cached_property
    def whole_log(self) -> bool:  # type: ignore[override]
        return RuleContext.whole_log.fget(self)  # type: ignore[attr-defined]

    @cached_property
    def days(self) -> list[int]:  # type: ignore[override]
        return RuleContext.days.fget(self)  # type: ignore[attr-defined]

    @cached_property
    def _scoped(self) -> tuple[list[Step], dict[int, bool]]:
        """The driver's logged steps (set by `RuleProgress.ctx`) and, by position, whether each
        is in scope: a month kind asks it of every logged take at every what-if."""
        return [], {}

    def step_in_scope(self, step: Step) -> bool:
        logged, memo = self._scoped
        i = step.index - 1
        if 0 <= i < len(logged) and logged[i] is step:  # a logged step: the answer is kept
            got = memo.get(i)
            if got is None:
                got = memo[i] = super().step_in_scope(step)
            return got
        return super().step_in_scope(step)


@dataclass(frozen=True)
class DaysContext(KeptContext):
    """The kind's own context with its day set cut to [lo, hi] (the rule's test unchanged)."""

    lo: int = 0
    hi: int = 10**6

    @cached_property
    def days(self) -> list[int]:  # type: ignore[override]
        return [d for d in RuleContext.days.fget(self)  # type: ignore[attr-defined]
                if self.lo <= d <= self.hi]


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
                 initial: Point | None = None, speed_kmh: float = 60.0,
                 share_work: bool = True) -> None:
        """`share_work=False`: every test re-reads the log from scratch, nothing is kept
        between what-ifs or steps (the slow reference the shared path must agree with)."""
        self.share_work = share_work
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
        self._known_head = 0  # the first logged steps whose takes all found their cargo
        self._extra: dict[tuple, object] = {}  # what-if totals (and rest futures) of this step
        # what the what-ifs of one step share (tails of the log, the future without the
        # steps, a box rule's next step where the driver stands), dropped at each new step
        self._memo: dict[tuple, object] = {}
        self._ctxs: dict[tuple, RuleContext] = {}  # (rule, lo, hi) -> its context, for good
        self._base_pen: dict[int, float] = {}  # the penalty of `_base`, per rule
        # per-step kinds: (steps tested, counters) — each new step is tested once and added
        self._step_counts: dict[int, tuple[int, dict]] = {}
        # month kinds: (steps tested, counters), kept while the log is kept (see _month_counters)
        self._month_counts: dict[int, tuple[int, dict]] = {}
        self.waived: set[int] = set()  # rules broken knowingly (their fines are a price paid)
        # place rules whose broken hours have out-earned their kept ones (memory/place_regimes):
        # no action asked, no fence on moves, each step still charged its fine
        self.released: set[int] = set()
        # a deadhead budget's pacing price: yuan per km of the budget left (`pace_empty_km`)
        self.km_price: dict[int, float] = {}
        self._budgets = frozenset(r.index for r in self.rules
                                  if isinstance(r.rule, MaxTotalDeadheadKm))
        # the rules whose fine grows with how late their action is (`delay_charges`)
        self._late = tuple(r for r in self.rules if r.rule is not None
                           and type(r.rule).follow_counters is not Kind.follow_counters)
        # the rules a rest can keep (time, days, dwells): the only ones a wait is priced on
        self.timed = frozenset(r.index for r in self.rules if r.kind in TIMED_KINDS)
        # the rules about places alone (a box to stay in, a circle to keep out of: a kind that
        # answers `allows_place`), fixed for the run
        self.place_specs = tuple(r for r in self.rules
                                 if type(r.rule).allows_place is not Kind.allows_place)

    # -- feeding -----------------------------------------------------------------------
    def add_cargo(self, row: dict, *, price_in_yuan: bool = False) -> None:
        """Register an official cargo object, for take facts. `price_in_yuan`: the row is a
        query item's copy, whose price the environment gives in yuan (docs/competition.md);
        the record keeps fen, as the dataset's rows and the generator world's do."""
        cid = row.get("cargo_id") if isinstance(row, dict) else None
        if isinstance(cid, str) and cid.strip() in self.cargo:
            return  # seen before: a query answers the same cargo again and again
        try:
            rec = parse_cargo_row(row)
        except (KeyError, TypeError, ValueError):
            return
        if price_in_yuan:
            rec = dataclasses.replace(rec, price_fen=round(rec.price_fen * 100))
        self.cargo.setdefault(rec.cargo_id, rec)

    def add_record(self, rec: CargoRecord) -> None:
        """Register a cargo already in the scorer's form (the generator world's cargo)."""
        self.cargo.setdefault(rec.cargo_id, rec)

    def on_step(self, record: dict) -> None:
        last = self.steps[-1] if self.steps else None
        step = Step.from_record(record, last.step_end if last is not None else 0,
                                len(self.steps) + 1, accepted_truthy=self.settings.accepted_truthy)
        self.steps.append(kept_positions(step, last) if self.share_work else step)
        self._cache = None
        self._extra.clear()
        self._memo.clear()

    @property
    def end(self) -> int:
        return self.steps[-1].step_end if self.steps else 0

    def position(self) -> Point | None:
        return self.steps[-1].after if self.steps else self.initial

    # -- testing -----------------------------------------------------------------------
    def ctx(self, spec: RuleSpec, lo: int | None = None, hi: int | None = None) -> RuleContext:
        assert spec.rule is not None
        key = (spec.index, lo, hi)
        got = self._ctxs.get(key) if self.share_work else None
        if got is not None:
            return got
        if lo is None and hi is None:
            got = KeptContext(self.settings, self.n_days, spec.rule.name, spec.window,
                              self.initial)
        else:
            got = DaysContext(self.settings, self.n_days, spec.rule.name, spec.window,
                              self.initial, lo if lo is not None else 0,
                              hi if hi is not None else 10**6)
        if self.share_work:
            got.__dict__["_scoped"] = (self.steps, {})  # the log only grows: positions stay
            self._ctxs[key] = got
        return got

    def _log(self, steps: Sequence[Step]) -> StepLog:
        return StepLog(tuple(steps), self.cargo)

    def _known(self, steps: Sequence[Step]) -> bool:
        """Every take among `steps` (the log or a tail of it) has its cargo registered, so
        their takes never grow. Cargo is never unregistered: the known head of the log is
        kept and only the steps after it are looked at."""
        log = self.steps
        while self._known_head < len(log) and (not log[self._known_head].accepted or
                                               log[self._known_head].cargo_id in self.cargo):
            self._known_head += 1
        if self._known_head == len(log):
            return True
        return all(s.cargo_id in self.cargo for s in steps if s.accepted)

    def _full(self) -> StepLog:
        """The whole log as one StepLog per step (its derived lists are computed once)."""
        if not self.share_work:
            return self._log(self.steps)
        prev = self._full_log
        if prev is None or len(prev.steps) != len(self.steps):
            # kept (its day figures shared) when every take in it found its cargo; the last
            # step's kept log grows by the steps logged since (the log only grows)
            if not self._known(self.steps):
                self._full_log = self._log(self.steps)
            elif isinstance(prev, KeptLog) and len(prev.steps) < len(self.steps):
                self._full_log = prev.extended(self.steps[len(prev.steps):])
            else:
                self._full_log = KeptLog(tuple(self.steps), self.cargo)
        return self._full_log

    def _full_plus(self, extra: Sequence[Step]) -> StepLog:
        """The whole log with `extra` steps after it (a month kind's what-if)."""
        full = self._full()
        if not isinstance(full, KeptLog):  # (also when work is not shared)
            return self._log([*self.steps, *extra])
        return GrownLog.grow(full, extra, self.cargo)

    def _tail(self, from_day: int, extra: Sequence[Step] = ()) -> StepLog:
        """Steps ending after the start of `from_day - 1`, plus the one before (for positions).
        The steps from the log are cut once a step; the same tail serves every what-if."""
        key = ("tail", from_day)
        base = self._memo.get(key) if self.share_work else None
        if not isinstance(base, KeptLog):
            cut = (from_day - 1) * DAY
            i = len(self.steps)
            while i > 0 and self.steps[i - 1].step_end > cut:
                i -= 1
            steps = self.steps[max(0, i - 1):]
            if not self.share_work or not self._known(steps):  # (a take's cargo not read yet)
                return self._log([*steps, *extra])
            base = self._memo[key] = KeptLog(tuple(steps), self.cargo)
        return GrownLog.grow(base, extra, self.cargo) if extra else base

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
        if rule.scope is Scope.STEP:
            c = self._step_counters(spec)
            return c, c
        c = self._month_counters(spec)
        return c, c

    def _kept_full(self) -> bool:
        """Whether the whole log is kept (every take in it found its cargo)."""
        return isinstance(self._full(), KeptLog)

    def _month_counters(self, spec: RuleSpec) -> dict:
        """A month kind's counters over the log: the last ones kept while the steps logged
        since cannot change them (`Kind.unchanged_by`), else the kind's test of the log."""
        rule = spec.rule
        assert rule is not None
        if not self.share_work:
            return rule.violations(self._full(), self.ctx(spec))
        kept = self._kept_full()
        done, c = self._month_counts.get(spec.index, (-1, None))
        if c is None or not kept or not rule.unchanged_by(c, self.steps[done:], self.cargo):
            c = rule.violations(self._full(), self.ctx(spec))
        if kept:
            self._month_counts[spec.index] = (len(self.steps), c)
        else:
            self._month_counts.pop(spec.index, None)
        return c

    def _step_counters(self, spec: RuleSpec) -> dict:
        """A per-step kind's counters over the log: each step is tested once, on its own, and
        added (`_add`: counts add, step lists join, flags or), which is the kind's test over
        the whole log since it judges each step alone. A step whose take's cargo is not read
        yet is not added until it is."""
        rule = spec.rule
        assert rule is not None
        if not self.share_work:
            return rule.violations(self._full(), self.ctx(spec))
        done, c = self._step_counts.get(spec.index, (0, None))
        if c is None:
            done, c = 0, rule.violations(self._log(()), self.ctx(spec))
        new = self.steps[done:]
        if new and self._known(new):
            c = _add(c, rule.violations(self._log(new), self.ctx(spec)))
            done = len(self.steps)
        elif new:
            return rule.violations(self._full(), self.ctx(spec))
        self._step_counts[spec.index] = (done, c)
        return c

    def _penalty(self, spec: RuleSpec, counters: dict) -> float:
        assert spec.rule is not None
        return spec.rule.penalty(counters, spec.amount, spec.cap, self.ctx(spec),
                                 zero_cap_uncapped=spec.zero_cap_uncapped)

    def states(self, now: float, position: Point | None = None) -> tuple[RuleState, ...]:
        """Each rule's counters, penalty, status and line at `now` (cached per step)."""
        key = (len(self.steps), int(now))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        today = int(now) // DAY
        pos = position or self.position()
        view = self._view(int(now), pos)
        out = []
        for spec in self.rules:
            rule = spec.rule
            assert rule is not None
            past, c = self._counters(spec, today)
            self._base[spec.index] = c
            self._base_pen.pop(spec.index, None)
            pen = self._penalty(spec, past if rule.scope is Scope.DAY else c)
            status, line, todo = rule.progress(view, c, pen)
            state = RuleState(spec, c, round(pen, 2), status, line, todo)
            if todo is not None:  # what following it avoids: the fine, less a paid cap
                state = dataclasses.replace(state, todo=dataclasses.replace(
                    todo, at_stake=self.todo_stake(state, view)))
            out.append(state)
        result = tuple(out)
        self._cache = (key, result)
        return result

    def rest_lengths(self, now: float, position: Point | None = None) -> tuple[int, ...]:
        """The rests from `now` that end just as a rule is kept (a window's end, a daily
        rest's minimum), up to a day, in minutes: a rest priced at these lengths never runs
        longer than the rule needs."""
        at = int(now)
        view = self._view(at, position or self.position())
        ends = {e for spec in self.rules if spec.index not in self.waived
                and spec.rule is not None for e in spec.rule.rest_ends(view)}
        return tuple(sorted(m for e in ends if 1 <= (m := e - at) <= DAY))

    def stop_due_in(self, now: float, position: Point | None = None) -> int | None:
        """Minutes until the first drive a dated stop needs falls due (`Kind.drive_due`), among
        the rules not waived and not yet due; None if none. A wait or rest asked now is cut
        there: a stop falls due only shortly before its drive, and a night's rest begun the
        evening before would otherwise run past it (the quiet window that made T24's route
        stop unreachable, failure class "a due rule behind another")."""
        at = int(now)
        view = self._view(at, position or self.position())
        ins = [due - at for st in self.states(now, position)
               if st.status is Status.OK and st.spec.index not in self.waived
               and st.spec.rule is not None
               and (due := st.spec.rule.drive_due(view, st.counters)) is not None and due > at]
        return min(ins, default=None)

    def stay_after(self, state: RuleState, arrive: int, at: Point) -> int:
        """Minutes the rule of `state` then asks the driver to rest at `at` from `arrive` (a
        curfew's night at home): what going there commits to, beyond the drive."""
        assert state.spec.rule is not None
        ends = [e - arrive for e in state.spec.rule.rest_ends(self._view(arrive, at))
                if e > arrive]
        return min(min(ends, default=0), DAY)

    def _view(self, now: int, position: Point | None) -> ProgressContext:
        """What the kinds' progress and rest lengths read at `now`, standing at `position`."""
        return ProgressContext(now, position, self.horizon, self.speed, self._tail,
                               bool(self.steps))

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
            after = Point(c.end_lat, c.end_lng)
        else:
            after = Point(c.start_lat, c.start_lng)
        return Step(len(self.steps) + 1, ActionKind.TAKE_ORDER, start, take.scan,
                    t - start - take.scan, t, pos, after, accepted, c.cargo_id, 0.0,
                    round(p, 2) if accepted else 0.0)  # logged floats are 2 dp (§5.3)

    def extra_by_rule(self, take: HypoTake, *, credit: bool = True) -> dict[int, float]:
        """Penalty each rule would add if the driver took this cargo now (index -> yuan)."""
        self.cargo.setdefault(take.cargo.cargo_id, take.cargo)
        return self.extra_for_steps([self.hypothetical(take)], take.now, take.position,
                                    credit=credit)

    def extra_for_steps(self, hs: Sequence[Step], now: int, position: Point | None, *,
                        credit: bool = True, only: frozenset[int] | None = None
                        ) -> dict[int, float]:
        """Penalty each rule would add if these hypothetical steps were logged next.

        Day kinds compare both futures as if the driver rested after them (to the end of the
        day after the last step): a day that a rest can still keep counts as kept on both
        sides, so a take is charged for the rest, quiet window or curfew it makes impossible,
        not for a day that is merely not over yet. With `credit`, a day toward a one-off
        rule kept by several days counts its share of the fine (`_part_credit`)."""
        if not self._base or self._cache is None:
            self.states(now, position)
        first, last = hs[0], hs[-1]
        d0 = first.step_start // DAY
        here = self.position() or position or first.before
        log_h: StepLog | None = None  # the log plus the steps, shared by the month kinds
        # the steps then a minute's stay (per-step kinds) and the day tail with the steps and
        # the rest after them (day kinds): the same for every rule of a scope, built once
        log_s: StepLog | None = None
        tails: dict[Point | None, StepLog] = {}  # by the place a rest keeps the rule
        memo = self._memo if self.share_work else {}
        out: dict[int, float] = {}
        for spec in self.rules:
            rule = spec.rule
            assert rule is not None
            if only is not None and spec.index not in only:
                continue
            base = self._base[spec.index]
            if rule.scope is Scope.STEP and spec.index in self.released:
                # a released place rule is a toll on each step that breaks it: the steps'
                # own fines, no credit or charge for where they leave the driver (that
                # credit pulled a driver back into a box over a thin market, then every
                # order out of it paid two steps' fines: "a box kept at more than its fines")
                delta = rule.violations(self._log(hs), self.ctx(spec))
                after = _add(base, {k: v for k, v in delta.items()
                                    if k in ADDITIVE or isinstance(v, bool)})
            elif rule.scope is Scope.STEP:
                # the driver stays where the steps leave it for at least one more step: a take
                # that ends outside a box is charged the step after it too (S4 has no cap)
                if log_s is None or not self.share_work:
                    log_s = self._log([*hs, _rest(last.step_end, last.step_end + 1,
                                                  last.after)])
                delta = rule.violations(log_s, self.ctx(spec))
                key = ("stay", spec.index, here)  # the same for every what-if of this step
                stay = memo.get(key)
                if stay is None:
                    stay = memo[key] = rule.violations(
                        self._log([_rest(self.end, self.end + 1, here)]), self.ctx(spec))
                after = _add(base, {k: v - stay.get(k, 0) if k in ADDITIVE else v
                                    for k, v in delta.items()
                                    if k in ADDITIVE or isinstance(v, bool)})
            elif rule.scope is Scope.DAY:
                # the days from the one before the steps to the one after they end: later days
                # are not their doing (K4 would otherwise fine every night to come for a drop
                # far from home, as if the driver never moved again)
                lo, hi = max(0, d0 - 1), last.step_end // DAY + 1
                until = (hi + 1) * DAY
                key = ("without", spec.index, lo, hi, here)  # shared by the what-ifs of a step
                without = memo.get(key)
                at = rule.rest_point()
                if without is None:
                    without = memo[key] = rule.violations(
                        self._tail(lo, self._keep(self.end, until, here, at)),
                        self.ctx(spec, lo, hi))
                tail_h = tails.get(at) if self.share_work else None
                if tail_h is None:
                    tail_h = tails[at] = self._tail(
                        lo, [*hs, *self._keep(last.step_end, until, last.after, at)])
                with_h = rule.violations(tail_h, self.ctx(spec, lo, hi))
                after = dict(base)
                for k in ADDITIVE:
                    if k in with_h:
                        after[k] = base.get(k, 0) + with_h[k] - without[k]
            elif first.step_start >= rule.settled_after():
                continue  # e.g. a dated itinerary: no step after its day can change it
            elif self.share_work and self._kept_full() and rule.unchanged_by(base, hs,
                                                                              self.cargo):
                continue  # the kind shows these steps cannot change its month's counters
            else:
                log_h = log_h or self._full_plus(hs)
                after = rule.violations(log_h, self.ctx(spec))
            base_pen = self._base_pen.get(spec.index) if self.share_work else None
            if base_pen is None:
                base_pen = self._base_pen[spec.index] = self._penalty(spec, base)
            extra = self._penalty(spec, after) - base_pen
            if credit:
                extra -= self._part_credit(spec, base, after)
            if abs(extra) > 1e-9:
                out[spec.index] = extra
        return out

    def _keep(self, start: int, until: int, here: Point, at: Point | None) -> list[Step]:
        """A what-if's future: rest from `start` to `until`, after driving to `at` first when
        only a rest there keeps the rule (a curfew at home)."""
        km = 0.0 if at is None else here.km_to(at.lat, at.lng)
        if at is None or km <= 1e-6:
            return [_rest(start, until, here)]
        arrive = start + drive_minutes(km, self.speed)
        drive = Step(0, ActionKind.REPOSITION, start, 0, arrive - start, arrive, here, at,
                     distance_km=round(km, 2))
        return [drive, _rest(arrive, until, at)] if arrive < until else [drive]

    @staticmethod
    def _part_credit(spec: RuleSpec, base: dict, after: dict) -> float:
        """A one-off fine kept only by several days of orders or visits (K17, K18) gives
        each new day its share: without it no single day would ever look worth a detour."""
        for key in PART_KEYS:
            if key in base and key in after and base.get("failed") and after.get("failed"):
                need = getattr(spec.rule.params, "min_days", 0) if spec.rule else 0
                gained = len(after[key]) - len(base[key])
                if need > 0 and gained > 0:
                    return spec.amount * gained / need
        return 0.0

    def wait_saving(self, now: int, position: Point, minutes: int) -> float:
        """The fines a rest of `minutes` here, and nothing after it, avoids over every rule at
        once: both futures go on working to the end of the day the rest ends in (orders of no
        category, place or length, so only time and days count), one after this rest, one
        right away.
        The rest is priced as a whole: a wait that only starts a night's rest, or part of an
        off day, secures nothing, and one rest at night can keep a daily rest, a quiet window
        and a curfew together. A one-off fine kept by several days off counts a day's share."""
        minutes = max(1, int(minutes))
        if not self.timed:
            return 0.0
        return max(0.0, sum(self.wait_saving_by_rule(now, position, minutes).values()))

    def wait_saving_by_rule(self, now: int, position: Point, minutes: int) -> dict[int, float]:
        """`wait_saving` rule by rule (a part may be negative: a rest can cost a rule, an
        off day split by its days): what a rest kept, to book its cost against those rules."""
        minutes = max(1, int(minutes))
        if not self.timed:
            return {}
        key = ("wait", len(self.steps), int(now), position, minutes)
        got = self._extra.get(key)
        if got is None:  # a decide refreshes its memory around each search
            got = self._extra[key] = self._wait_saving(now, position, minutes)
        return got

    def rest_fines_by_rule(self, now: int, position: Point, minutes: int) -> dict[int, float]:
        """The fines a rest of `minutes` here adds, rule by rule, over keeping every rule, the
        way a take's what-if charges them (`extra_for_steps`: both futures then keep what
        they still can). A rest in place far from home breaks tonight's curfew as a take
        does; without this it looked free beside a take charged that fine (failure class
        "a rest in place excused"). Rules waived are left out; only fines added count."""
        minutes = max(1, int(minutes))
        key = ("rest fines", len(self.steps), int(now), position, minutes)
        got = self._extra.get(key)
        if got is None:
            start = max(now, self.end)
            rest = _rest(start, start + minutes, position, len(self.steps) + 1)
            got = self._extra[key] = {} if len(self.waived) == len(self.rules) else {
                i: v for i, v in self.extra_for_steps([rest], start, position, credit=False,
                                                      only=self._live()).items() if v > 0}
        return got

    def _wait_saving(self, now: int, position: Point, minutes: int) -> dict[int, float]:
        self.cargo[NEUTRAL_CARGO] = CargoRecord(
            NEUTRAL_CARGO, 0, 10**9, position.lat, position.lng, "", position.lat,
            position.lng, "", None, 0, 0.0, "")
        n = len(self.steps) + 1
        start = max(now, self.end)
        mid = start + minutes
        # the work after the rest: on to a minute before the midnight that ends the rest's day
        # (an order finishing that day makes it a worked day, K13); days after are left as the
        # kinds' tests see days to come
        last = ((mid - 1) // DAY + 1) * DAY - 1

        def work(a: int, b: int, i: int) -> Step:
            return Step(i, ActionKind.TAKE_ORDER, a, 0, b - a, b, position, position, True,
                        NEUTRAL_CARGO)

        if mid <= last:
            # one order on either side: a daily count of orders must not see the working
            # future split in two at the rest's end (a 60-minute rest "saved" a 4th order's
            # fine every hour, and a driver waited out a whole day so)
            after = [work(mid, last, n + 1)] if mid < last else []
            worked = [work(start, last, n)] if mid < last else [work(start, mid, n)]
            rested = [_rest(start, mid, position, n), *after]
        elif last > start:  # the rest ends at midnight: the worked order ends a minute before
            worked = [work(start, last, n), _rest(last, mid, position, n + 1)]
            rested = [_rest(start, mid, position, n)]
        else:
            worked, rested = [work(start, mid, n)], [_rest(start, mid, position, n)]
        live = self.timed - self.waived  # a waived rule's saving is never counted
        if not live:
            return {}
        by_work = self._future(worked, now, position, live)
        by_rest = self._future(rested, now, position, live)
        parts: dict[int, float] = {}
        for spec in self.rules:
            if spec.index in self.waived:
                continue
            s = by_work.get(spec.index, 0.0) - by_rest.get(spec.index, 0.0)
            if s and any(k in self._base.get(spec.index, {}) for k in OFF_KEYS):
                s /= max(1, getattr(spec.rule.params, "min_days", 1))
            parts[spec.index] = s
        return parts

    def _future(self, hs: list[Step], now: int, position: Point, live: frozenset[int]
                 ) -> dict[int, float]:
        """`extra_for_steps` of a priced rest's future, kept for the step: the rests of one
        step often share their worked future (work to the end of the same day)."""
        if not self.share_work:
            return self.extra_for_steps(hs, now, position, credit=False, only=live)
        if self._cache is None:  # the counters of this instant first (the what-if's base)
            self.states(now, position)
        assert self._cache is not None
        key = ("future", tuple(hs), self._cache[0], position, live)
        got = self._extra.get(key)
        if got is None:
            got = self._extra[key] = self.extra_for_steps(hs, now, position, credit=False,
                                                          only=live)
        return got  # type: ignore[return-value]

    def reposition_extra(self, now: int, position: Point, lat: float, lng: float) -> float:
        """The fines a drive to (lat, lng) would add (deadhead totals, boxes, circles, quiet
        windows, curfews), by the kinds' own tests on the step the official arithmetic logs."""
        km = position.km_to(lat, lng)
        start = max(now, self.end)
        exe = drive_minutes(km, self.speed) if km > 1e-6 else 1
        step = Step(len(self.steps) + 1, ActionKind.REPOSITION, start, 0, exe, start + exe,
                    position, Point(lat, lng), distance_km=round(km, 2))
        paced = sum(self.empty_km_charge(km, now, position).values())
        return paced + sum(v for i, v in self.extra_for_steps([step], now, position).items()
                           if i not in self.waived)

    def empty_km_fines(self, states: Iterable[RuleState]) -> tuple[EmptyKmFine, ...]:
        """Each monthly deadhead budget with no cap (a null cap, or any cap under S4), as a
        price of empty km from now (see `EmptyKmFine`). A capped one is left out: the most it
        can cost is known, and staying stuck in a poor market for a month to save it costs
        more (on a blind driver under S2, 14,804 net against 47,126 with moves free, cap
        4,000)."""
        return tuple(EmptyKmFine(left, st.spec.amount, self.km_price.get(st.spec.index, 0.0))
                     for st, _, left in self._open_budgets(states))

    def _open_budgets(self, states: Iterable[RuleState]
                      ) -> Iterable[tuple[RuleState, float, float]]:
        """Each monthly deadhead budget (K9) not waived and with no cap (a null cap, or any
        cap under S4; a capped one's whole rule is the price, weighed by `_book`), with its km
        used so far and left."""
        for st in states:
            rule = st.spec.rule
            if (st.spec.index in self._budgets and st.spec.index not in self.waived
                    and self.liability(st) is None):
                used = float(st.counters.get("deadhead_km", 0.0))
                yield st, used, max(0.0, rule.params.max_km - used)  # type: ignore[union-attr]

    def budgets_left(self, now: float, position: Point | None = None
                     ) -> dict[int, tuple[float, float]]:
        """`_open_budgets` of the step's own (kept) `states(now, position)`: (km used so far,
        km left), by rule."""
        if not self._budgets:
            return {}
        return {st.spec.index: (used, left)
                for st, used, left in self._open_budgets(self.states(now, position))}

    def pace_empty_km(self, prices: Mapping[int, float]) -> None:
        """Set what a km of each deadhead budget is worth this step (yuan, by rule): the
        memory's pacing price, so that a budget spent by mid-month does not leave the driver
        idle for the rest of it. A take's and a move's km within the budget are charged it
        (`empty_km_charge`); km beyond are fined by the kind's own test."""
        prices = {i: p for i, p in prices.items() if p > 0}
        if prices != self.km_price:
            self.km_price = prices
            self._extra.clear()

    def empty_km_charge(self, km: float, now: float, position: Point | None
                        ) -> dict[int, float]:
        """The pacing price of `km` empty km driven from `position` at `now`, by rule, for the
        km within each budget left."""
        if not self.km_price or km <= 0:
            return {}
        left = self.budgets_left(now, position)
        return {i: p * min(km, left[i][1]) for i, p in self.km_price.items()
                if i in left and left[i][1] > 0}

    def todo_stake(self, state: RuleState, view: ProgressContext) -> float:
        """What following the rule's action from `view` on saves against giving it up: the
        kind's own two endings where it gives them (`Kind.follow_counters`), else one more
        break's fine (`marginal_fine`)."""
        rule = state.spec.rule
        ends = rule.follow_counters(state.counters, view) if rule is not None else None
        if ends is None:
            return self.marginal_fine(state)
        kept, lost = ends
        return max(0.0, self._penalty(state.spec, lost) - self._penalty(state.spec, kept))

    def marginal_fine(self, state: RuleState) -> float:
        """What breaking this rule once more would add now: the fine, less once a cap is
        reached (a capped rule whose cap is paid costs nothing more), 0 for a one-off rule
        already failed."""
        spec = state.spec
        model = spec.rule.penalty_model if spec.rule is not None else None
        if model in ONE_OFF:
            # judged at the end: "failed" before then is a forecast, the fine still avoidable;
            # a rule kept by several days of visits, orders or rest: one day is worth its share
            fine = spec.amount if not spec.cap else min(spec.amount, spec.cap)
            need = getattr(spec.rule.params, "min_days", 0) if spec.rule is not None else 0
            key = next((k for k in (*PART_KEYS, *OFF_KEYS) if k in state.counters), None)
            if key is not None and need > 0:
                have = state.counters[key]
                have = len(have) if isinstance(have, list) else 0
                if key in PART_KEYS and need - have > self.n_days - int(self.end) // DAY:
                    return 0.0  # too few days left to keep it: nothing left to save
                return fine / need
            return fine
        c = dict(state.counters)
        if "violations" in c:
            # one more break; for a fine per step (outside a box) what a drive back avoids
            # is the next step's fine, the cap permitting: a take that ends outside is
            # charged the step after it, and the steps after that are priced when chosen.
            # Counting three, drivers with an uncapped box under S4 drove back empty after
            # every long haul (failure class "a box left on every long haul")
            c["violations"] = c["violations"] + 1
        elif "over_km" in c:
            c["over_km"] = c["over_km"] + 1
        elif "failed" in c:
            if c["failed"]:
                return 0.0
            c["failed"] = True
        else:
            return spec.amount
        return max(0.0, self._penalty(spec, c) - self._penalty(spec, state.counters))

    def _live(self) -> frozenset[int] | None:
        """The rules not waived, as `extra_for_steps(only=...)` takes them (None: all)."""
        return None if not self.waived else frozenset(
            r.index for r in self.rules if r.index not in self.waived)

    def extra_penalty_by_rule(self, take: HypoTake) -> dict[int, float]:
        """`extra_by_rule` over the rules not waived, plus the dated stops the take puts out
        of reach (`stops_lost`), the orders it crowds out of a daily cap (`slot_charge`), the
        pacing price of its pickup km within a deadhead budget (`empty_km_charge`) and, in
        place of the plain what-if where larger, what it costs an errand it delays
        (`delay_charges`),
        cached until the next step (a decide may refresh its memory several times around its
        searches)."""
        key = (len(self.steps), take.cargo.cargo_id, take.now, take.position, take.scan)
        got = self._extra.get(key)
        if got is None:
            self.cargo.setdefault(take.cargo.cargo_id, take.cargo)  # as `extra_by_rule`
            step = self.hypothetical(take)
            got = self.extra_for_steps([step], take.now, take.position, only=self._live())
            paced = self.empty_km_charge(step.pickup_deadhead_km, take.now, take.position)
            for more in (self.stops_lost(take, step), self.slot_charge(take, step), paced):
                if more:
                    got = {**got, **{i: got.get(i, 0.0) + v for i, v in more.items()}}
            late = self.delay_charges(take, step)
            if late:  # the delay holds the take's own effect on the rule: not added twice
                got = {**got, **{i: max(got.get(i, 0.0), v) for i, v in late.items()}}
            self._extra[key] = got
        return got

    def _takes_so_far(self) -> tuple[Counter[int], float]:
        """Accepted takes by the day they started, and their mean minutes (scan to unload),
        kept for the step."""
        got = self._memo.get(("takes",)) if self.share_work else None
        if got is None:
            takes = [s for s in self.steps if s.accepted and s.action is ActionKind.TAKE_ORDER]
            per_day = Counter(s.action_start // DAY for s in takes)  # as K15 counts them
            typical = (sum(s.step_end - s.step_start for s in takes) / len(takes) if takes
                       else TYPICAL_TAKE_MINUTES)
            got = (per_day, typical)
            if self.share_work:
                self._memo[("takes",)] = got
        return got  # type: ignore[return-value]

    def _next_scan(self) -> int:
        """The scan minutes the decision after a take is taken to spend before it moves: the
        longest of the driver's last three (a full query's before it has made one)."""
        return max((s.scan for s in self.steps[-3:]), default=NEXT_SCAN_MINUTES)

    def delay_charges(self, take: HypoTake, step: Step) -> dict[int, float]:
        """What a take costs the rules whose fine grows with how late their action is
        (`Kind.follow_counters`, K24), by rule: the fine when the action is followed from
        the take's end (after the scan of the next decision) less the fine when it is
        followed from now, at most what following saves. Such a rule's own test sees only
        minutes already away, so a take that ends 250 km from the pickup three hours before
        the errand was free (failure class "an errand priced at its once-fine"). A rule with
        its action due is left out: its action is priced beside the takes. The scan's own
        minutes, if inside the absence span, are left out (at most the rate times a scan)."""
        rules = [s for s in self._late if s.index not in self.waived]
        if not rules:
            return {}
        states = {st.spec.index: st for st in self.states(take.now, take.position)}
        here = self._view(int(take.now), take.position)
        there = self._view(step.step_end + self._next_scan(), step.after)
        out: dict[int, float] = {}
        for spec in rules:
            st, rule = states[spec.index], spec.rule
            assert rule is not None
            now_ends = rule.follow_counters(st.counters, here) if st.todo is None else None
            if now_ends is None:
                continue
            after = st.counters
            if not rule.unchanged_by(after, [step], self.cargo):
                after = rule.violations(self._full_plus([step]), self.ctx(spec))
            late_ends = rule.follow_counters(after, there)
            if late_ends is None:
                continue
            kept = self._penalty(spec, now_ends[0])
            charge = min(self._penalty(spec, late_ends[0]) - kept,
                         self._penalty(spec, now_ends[1]) - kept)
            if charge > 0:
                out[spec.index] = charge
        return out

    def stops_lost(self, take: HypoTake, step: Step | None = None) -> dict[int, float]:
        """The fines of dated stops (K22, K23) this take would put out of reach: not due
        yet, reachable now, and lost once the take ends, counting the scan minutes of the
        decision after it before the drive. The stop's own test fails before and after such a
        take alike (nothing is reached yet), so its what-if charges nothing; the stop's action
        becomes due only when the time left is short, and a take just before that could end
        where the drive arrives minutes late (failure class "a stop missed by one scan": a
        blind driver's airport dwell, reached by 13:59 on paper and 14:09 with the scan).
        `step`: the take's `hypothetical` step when the caller has it already."""
        stops = [s for s in self.rules if s.rule is not None and s.rule.lost_unseen()
                 and s.index not in self.waived and take.now < s.rule.settled_after()]
        if not stops:
            return {}
        step = step if step is not None else self.hypothetical(take)
        at_end = self._view(step.step_end + self._next_scan(), step.after)
        states = {st.spec.index: st for st in self.states(take.now, take.position)}
        log: StepLog | None = None
        out: dict[int, float] = {}
        for spec in stops:
            st = states.get(spec.index)
            if st is None or st.status is not Status.OK or not st.counters.get("failed"):
                continue  # done, due (its action is priced beside the takes) or lost already
            rule = spec.rule
            assert rule is not None
            log = log or self._full_plus([step])
            after = rule.violations(log, self.ctx(spec))
            if after.get("failed") and rule.progress(
                    at_end, after, self._penalty(spec, after))[0] is Status.VIOLATED:
                out[spec.index] = self.marginal_fine(st)
        return out

    def extra_penalty(self, take: HypoTake) -> float:
        """The total of `extra_penalty_by_rule`."""
        return sum(self.extra_penalty_by_rule(take).values())

    def daily_caps(self) -> list[tuple[RuleSpec, int]]:
        """Each daily order cap (`Kind.daily_order_slots`, K15) among the rules not waived, with
        its orders a day: what the slot charge and the slot price (`MemoryAgent.slot_price`)
        both read."""
        return [(s, n) for s in self.rules if s.index not in self.waived
                for n in [s.rule.daily_order_slots() if s.rule is not None else None]
                if n is not None]

    def slot_charge(self, take: HypoTake, step: Step | None = None) -> dict[int, float]:
        """What a take within a daily order cap (K15) costs the day's later orders, by rule.

        The kind's own test fines only the orders past the cap, so the first orders of a
        day look free and short ones win on value per hour; the later orders they crowd out
        then pay the fine (blind drivers with a cap of 2 took 91 orders where the greedy took
        51, and paid 5,800: failure class "a daily cap filled with short orders"). A take
        whose day leaves room for more orders than the cap has slots left is charged the
        fine for the share it crowds out: the minutes left in its day over the driver's mean
        take, plus the orders already started that day, less the cap. A take that fills its
        day (a long haul) is charged nothing. `step`: the take's `hypothetical` step when the
        caller has it already."""
        caps = self.daily_caps()
        if not caps:
            return {}
        step = step if step is not None else self.hypothetical(take)
        if not step.accepted:
            return {}
        day = step.action_start // DAY
        if day * DAY >= self.horizon:
            return {}  # a day the version does not score (S2's 31st): no order there is fined
        per_day, typical = self._takes_so_far()
        k = 1 + per_day[day]
        more = max(0, (day + 1) * DAY - step.step_end) / max(typical, 60.0)
        states = {st.spec.index: st for st in self.states(take.now, take.position)}
        out: dict[int, float] = {}
        for spec, cap in caps:
            if k <= cap and spec.window.covers_day(day):
                # the fine one more order past the cap would add: less once a money cap
                # (where the version applies one) is nearly paid
                left = self.liability(states[spec.index])
                fine = spec.amount if left is None else min(spec.amount, left)
                charge = fine * min(1.0, max(0.0, k + more - cap))
                if charge > 0:
                    out[spec.index] = charge
        return out

    def due_states(self, now: float, position: Point | None = None
                   ) -> tuple[RuleState, ...]:
        """Every rule with an action due and not waived, in rule order."""
        return tuple(s for s in self.states(now, position)
                     if s.todo is not None and s.status in (Status.DUE, Status.AT_RISK)
                     and s.spec.index not in self.waived
                     and s.spec.index not in self.released)

    def rest_there(self, now: float, position: Point, indices: Iterable[int]
                   ) -> tuple[RuleState, ...]:
        """The rules among `indices` (those a rest here would break) that a rest at one place
        keeps (`Kind.rest_point`: a curfew's home) and that ask for nothing yet, each given
        the drive there as its action. A driver about to rest 35 km from home at 19:30 rested
        where it stood and paid the 22:00 curfew, since the curfew asks for the drive only
        when it falls due (failure class "a rest in place when home keeps more")."""
        want = set(indices) - self.waived
        out = []
        for s in self.states(now, position):
            rule = s.spec.rule
            at = None if rule is None or s.todo is not None else rule.rest_point()
            if s.spec.index not in want or at is None or position.km_to(at.lat, at.lng) < 1.0:
                continue
            todo = Todo("go", f"{s.spec.kind}: rest there, not here", lat=at.lat, lng=at.lng,
                        at_stake=self.marginal_fine(s))
            out.append(dataclasses.replace(s, todo=todo, status=Status.DUE))
        return tuple(out)

    def due_state(self, now: float, position: Point | None = None) -> RuleState | None:
        """The first rule with an action due, in rule order (None when nothing is due or the
        rule is waived)."""
        return next(iter(self.due_states(now, position)), None)

    def todo(self, now: float, position: Point | None = None) -> Todo | None:
        """The first due rule's action (see `due_state`)."""
        s = self.due_state(now, position)
        return None if s is None else s.todo

    # -- plans ---------------------------------------------------------------------------
    def liability(self, state: RuleState) -> float | None:
        """The most this rule can still cost from now on, when that is bounded: the cap left
        where the version applies caps, a one-off fine not yet failed; None for a fine per
        break with no cap (each break is then priced where it happens, exactly)."""
        spec = state.spec
        model = spec.rule.penalty_model if spec.rule is not None else None
        if model is PenaltyModel.EVENT:  # minutes away at a rate, plus A: bounded by a cap
            return spec.cap if spec.cap else None
        if model in ONE_OFF:  # a forecast "failed" is not a fine paid: all of it is at stake
            return spec.amount
        if (spec.cap is not None and spec.cap > 0
                and self.settings.cap_rule is not CapRule.NEVER):
            return max(0.0, spec.cap - state.penalty)
        return None

    def place_rules(self) -> tuple[Kind, ...]:
        """The rules about places alone (a box to stay in, a circle to keep out of), not
        waived: where a move toward a market may not end."""
        return tuple(spec.rule for spec in self.place_specs
                     if spec.index not in self.waived and spec.index not in self.released)

    def release(self, index: int, on: bool = True) -> None:
        """Ask nothing of this place rule and fence no move by it (`on`), or ask again: its
        broken steps have out-earned its kept ones, fines paid (memory/place_regimes.py).
        Takes and rests are still charged its fines."""
        if on != (index in self.released):
            (self.released.add if on else self.released.discard)(index)
            self._extra.clear()  # what-ifs priced before the flip charged it otherwise

    def waive(self, index: int) -> None:
        """Break this rule knowingly from now on: keeping it forgoes more than it can still
        cost (its takes carry no fine and its todos are not asked for)."""
        self.waived.add(index)
        self._extra.clear()

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

    def lines(self, now: float, position: Point | None = None) -> list[str]:
        return [s.status_line() for s in self.states(now, position)]


NEUTRAL_CARGO = "~work"  # the order of no category, place or length that prices a wait


def _rest(start: int, end: int, at: Point, index: int = 0) -> Step:
    """A hypothetical wait from `start` to `end` at `at` (a rest per §7.2)."""
    return Step(index, ActionKind.WAIT, start, 0, max(0, end - start), max(start, end), at, at)


def take_of(rp: RuleProgress, cargo_id: str, now: int, position: Point, scan: int = 0
            ) -> HypoTake | None:
    rec = rp.cargo.get(cargo_id)
    return None if rec is None else HypoTake(rec, now, position, scan)


__all__ = ["DAY_KINDS", "END_KINDS", "STEP_KINDS", "DaysContext", "HypoTake", "RuleProgress",
           "RuleSpec", "RuleState", "Status", "Todo", "rules_from_entries", "take_of"]
