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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sim.scoring.cargo import CargoRecord, parse_cargo_row
from sim.scoring.kinds import Kind, RuleContext
from sim.scoring.scorer import Parser, Preference, default_parser, read_preferences
from sim.scoring.steps import ActionKind, Pos, Step, StepLog
from sim.scoring.timebase import DAY, date_to_day, drive_minutes, hhmm_to_minutes, wall_to_minutes
from sim.scoring.versions import DEFAULT_VERSION, settings_for
from sim.scoring.windows import Window

DAY_KINDS = frozenset({"daily_continuous_rest", "rest_window_full_coverage", "quiet_window",
                       "home_by_curfew", "max_orders_per_day", "first_order_deadline"})
STEP_KINDS = frozenset({"forbidden_cargo_category", "forbidden_cargo_place", "max_haul_km",
                        "max_pickup_deadhead_km", "stay_inside_bbox", "forbidden_circle",
                        "date_region_avoid"})
# Kinds judged once at the end of the period: their "penalty now" is a forecast, not a fine.
END_KINDS = frozenset({"min_days_without_orders", "min_full_off_days", "min_visit_days",
                       "min_region_order_days", "must_take_cargo", "monthly_category_quota",
                       "dwell_at_point_on_day", "route_stops_on_day", "home_stay_event"})
ADDITIVE = ("violations", "extra")  # counters a day- or step-scoped test adds up
DUE_SLACK = 90  # minutes of slack before a daily rest or curfew must start


class Status(StrEnum):
    OK = "ok"
    DUE = "due"  # act now (or soon) to keep it
    AT_RISK = "at risk"  # can still be kept, but the time left is short
    VIOLATED = "violated"  # a fine is already incurred


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
                       parser: Parser | str | None = "default") -> tuple[RuleSpec, ...]:
    """A drivers-file preference list -> rules, read exactly as the scorer reads them
    (`structured` extension field, else the text parser, else unscored)."""
    settings = settings_for(version or DEFAULT_VERSION)
    use = default_parser() if parser == "default" else parser
    prefs = read_preferences(list(entries), settings, use, n_days)  # type: ignore[arg-type]
    return tuple(RuleSpec.from_preference(p) for p in prefs)


@dataclass(frozen=True)
class Todo:
    """What a due rule asks for now: wait `minutes`, or go to (lat, lng)."""

    action: str  # "wait" | "go"
    reason: str
    minutes: int = 0
    lat: float = 0.0
    lng: float = 0.0
    at_stake: float = float("inf")  # the rule's fine this action avoids (its penalty amount)


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


def _hm(minutes: float) -> str:
    m = round(minutes)
    return f"{m // 60}h{m % 60:02d}"


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
        if rule.name in DAY_KINDS:
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
        out = []
        for spec in self.rules:
            past, c = self._counters(spec, today)
            self._base[spec.index] = c
            pen = self._penalty(spec, past if spec.kind in DAY_KINDS else c)
            status, line, todo = describe(self, spec, c, pen, int(now), pos)
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
            if rule.name in STEP_KINDS:
                delta = rule.violations(self._log([h]), self.ctx(spec))
                after = _add(base, {k: v for k, v in delta.items()
                                    if k in ADDITIVE or isinstance(v, bool)})
            elif rule.name in DAY_KINDS:
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
            elif h.step_start >= _dated_end(rule):
                continue  # a dated itinerary: no step after its day can change it
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


# --------------------------------------------------------------------------- per-kind words

def _near(pos: Pos | None, lat: float, lng: float, r: float) -> bool:
    return pos is not None and pos.km_to(lat, lng) <= r


def _go_minutes(rp: RuleProgress, pos: Pos | None, lat: float, lng: float) -> int:
    return 0 if pos is None else drive_minutes(pos.km_to(lat, lng), rp.speed)


def _resting_run(rp: RuleProgress, now: int) -> int:
    """Minutes of the rest run ending now today (waits back to back), per the step model."""
    log = rp._tail(now // DAY)
    for a, b in log.day_rest(now // DAY):
        if b == now:
            return b - a
    return 0


def describe(rp: RuleProgress, spec: RuleSpec, c: dict, pen: float, now: int,
             pos: Pos | None) -> tuple[Status, str, Todo | None]:
    """Status, a line of what is kept/due/at risk, and the action a due rule asks for."""
    rule = spec.rule
    assert rule is not None
    p: Any = rule.params
    name, today = rule.name, now // DAY
    left_today = DAY - now % DAY
    days_left = max(0, rp.horizon // DAY - today)  # today included
    fined = f", fined {pen:,.0f} so far" if pen > 0 and name not in END_KINDS else ""
    bad = Status.VIOLATED if pen > 0 and name not in END_KINDS else Status.OK
    todo: Todo | None = None
    status = bad

    if name == "daily_continuous_rest":
        best = max((b - a for a, b in rp._tail(today).day_rest(today)), default=0)
        line = f"rest today {_hm(best)} of {_hm(p.min_minutes)} in one stretch{fined}"
        if best < p.min_minutes:
            need = p.min_minutes - _resting_run(rp, now)
            if need <= left_today and left_today - need <= DUE_SLACK:
                status, todo = Status.DUE, Todo("wait", "daily rest due", minutes=need)
            elif need > left_today:
                status = Status.AT_RISK if status is Status.OK else status
                line += " (too late today)"
        return status, line, todo
    if name in ("rest_window_full_coverage", "quiet_window"):
        for d in (today - 1, today):
            a, b = (rule.window(d) if hasattr(rule, "window")  # type: ignore[attr-defined]
                    else _daily(d, p.start, p.end))
            if a <= now < b:
                what = "rest" if name == "rest_window_full_coverage" else "no orders/moves"
                return (Status.DUE, f"{what} now until {_hm(b % DAY)}{fined}",
                        Todo("wait", f"{name} window", minutes=b - now))
        a, _ = (rule.window(today) if hasattr(rule, "window")  # type: ignore[attr-defined]
                else _daily(today, p.start, p.end))
        line = f"window {p.start}-{p.end}; starts in {_hm(max(0, a - now))}{fined}"
        return status, line, None
    if name == "home_by_curfew":
        cur, quiet = hhmm_to_minutes(p.curfew), hhmm_to_minutes(p.quiet_until)
        home = _near(pos, p.lat, p.lng, p.radius_km)
        for d in (today - 1, today):  # the curfew night of yesterday or of today
            a, b = d * DAY + cur, (d + 1) * DAY + quiet
            if a <= now < b:
                if not home:  # away at the curfew: that night is lost, waiting saves nothing
                    return (Status.VIOLATED, f"away from home after the {p.curfew} curfew{fined}",
                            None)
                return (Status.DUE, f"home quiet time until {p.quiet_until}{fined}",
                        Todo("wait", "home quiet time", minutes=b - now))
        cur += today * DAY
        go = _go_minutes(rp, pos, p.lat, p.lng)
        line = f"home by {p.curfew}: {'at home' if home else f'{go} min drive away'}{fined}"
        if not home and cur - now - go <= DUE_SLACK:
            if now + go <= cur:  # still reachable in time
                status, todo = Status.DUE, Todo("go", "home by curfew", lat=p.lat, lng=p.lng)
            else:
                status = Status.AT_RISK if status is Status.OK else status
        elif home and cur - now <= DUE_SLACK:  # at home close to the curfew: stay
            status, todo = Status.DUE, Todo("wait", "home by curfew", minutes=cur - now)
        return status, line, todo
    if name == "stay_inside_bbox" and pos is not None and not p.contains(pos):
        # every step starting or ending outside is fined: back to the nearest point inside
        m = 0.01
        lat = min(max(pos.lat, p.lat_min + m), p.lat_max - m)
        lng = min(max(pos.lng, p.lng_min + m), p.lng_max - m)
        return (Status.DUE, f"outside the allowed box; {c.get('violations', 0)} steps fined"
                f"{fined}", Todo("go", "back inside the box", lat=lat, lng=lng))
    if name in ("forbidden_cargo_category", "forbidden_cargo_place", "max_haul_km",
                "max_pickup_deadhead_km", "stay_inside_bbox", "forbidden_circle",
                "date_region_avoid", "first_order_deadline"):
        n = c.get("violations", 0)
        return status, f"{rule.hint(p)} Broken {n} times{fined}", None
    if name == "max_total_deadhead_km":
        used = c["deadhead_km"]
        line = f"deadhead {used:,.0f} of {p.max_km:,.0f} km this month{fined}"
        if status is Status.OK and used > 0.8 * p.max_km:
            status = Status.AT_RISK
        return status, line, None
    if name == "max_orders_per_day":
        n = sum(1 for t in rp._tail(today).takes if t.start_day == today)
        line = f"orders today {n} of {p.max_orders}{fined}"
        if status is Status.OK and n >= p.max_orders:
            status = Status.AT_RISK
        return status, line, None
    if name == "monthly_long_haul_cap":
        n = sum(c["long_hauls"].values())
        return status, f"long hauls {n} of {p.max_per_month} a month{fined}", None
    if name in ("min_days_without_orders", "min_full_off_days"):
        have = c.get("unworked_days", c.get("off_days", 0))
        tail = rp._tail(today)
        if name == "min_full_off_days":
            busy_today = bool(rp.steps) and tail.active_minutes(today) > 0
        else:  # K13 counts a day as worked by the day an order finishes
            busy_today = any(t.end_day == today for t in tail.takes)
        # the test counts today and the days to come as free while nothing is logged there:
        # only the days before today are kept for sure
        done = max(0, have - max(0, days_left - 1) - (0 if busy_today else 1))
        need = max(0, p.min_days - done)
        line = f"off days {done} of {p.min_days} kept, {days_left} days left (today included)"
        if need == 0:
            return Status.OK, line, None
        # two days of slack: an order taken late today may run into tomorrow
        if need >= days_left - 2 and not busy_today:
            return (Status.DUE, line + "; rest today",
                    Todo("wait", "off day due", minutes=left_today))
        return (Status.AT_RISK if need >= days_left else Status.OK), line, None
    if name == "min_visit_days":
        have = len(c["visit_days"])
        line = f"visit days {have} of {p.min_days}"
        need = p.min_days - have
        if need <= 0:
            return Status.OK, line, None
        if today not in c["visit_days"] and need >= days_left - 1:
            return Status.DUE, line, Todo("go", "visit day due", lat=p.lat, lng=p.lng)
        return (Status.AT_RISK if need > days_left else Status.OK), line, None
    if name == "min_region_order_days":
        have = len(c["order_days"])
        st = Status.OK if have >= p.min_days else (
            Status.AT_RISK if p.min_days - have >= days_left else Status.OK)
        return st, f"order days in {p.place} {have} of {p.min_days}", None
    if name == "must_take_cargo":
        return (Status.AT_RISK if c["failed"] else Status.OK,
                f"must take cargo {p.cargo_id}: {'not yet' if c['failed'] else 'taken'}", None)
    if name == "monthly_category_quota":
        carry = f" (+{c['carried']} carried)" if c.get("carried") else ""
        line = f"quota {p.category} {c['count']} of {p.min_orders} in {p.month}{carry}"
        return (Status.AT_RISK if c["missing"] else Status.OK), line, None
    if name == "dwell_at_point_on_day":
        day = date_to_day(p.date)
        by = day * DAY + (hhmm_to_minutes(p.arrive_by) if p.arrive_by else DAY)
        if not c["failed"]:
            return Status.OK, f"dwell on {p.date}: done", None
        line = f"dwell {p.min_dwell_minutes} min at ({p.lat}, {p.lng}) on {p.date}"
        if now >= day * DAY + DAY:
            return Status.VIOLATED, line + ": missed", None
        if _near(pos, p.lat, p.lng, p.radius_km) and now >= day * DAY:
            run = _resting_run(rp, now)
            return Status.DUE, line, Todo("wait", "dwell", minutes=max(1, p.min_dwell_minutes
                                                                       - run))
        if by - now - _go_minutes(rp, pos, p.lat, p.lng) <= DUE_SLACK + DAY // 2:
            return Status.DUE, line, Todo("go", "dwell point", lat=p.lat, lng=p.lng)
        return Status.OK, line, None
    if name == "route_stops_on_day":
        day = date_to_day(p.date)
        if not c["failed"]:
            return Status.OK, f"route on {p.date}: done", None
        stop = p.stops[(c.get("failed_stop") or 1) - 1]
        line = f"route on {p.date}: stop {c.get('failed_stop')} of {len(p.stops)} next"
        if now >= day * DAY + DAY:
            return Status.VIOLATED, line + ": missed", None
        if day * DAY - DAY // 2 <= now:
            if _near(pos, stop.lat, stop.lng, p.radius_km) and stop.min_dwell_minutes:
                return Status.DUE, line, Todo("wait", "route stop dwell",
                                              minutes=stop.min_dwell_minutes)
            return Status.DUE, line, Todo("go", "route stop", lat=stop.lat, lng=stop.lng)
        return Status.OK, line, None
    if name == "home_stay_event":
        w0, w_end = wall_to_minutes(p.w0), wall_to_minutes(p.w_end)
        away = c["absence_minutes"]
        line = f"errand from {p.w0}: " + (
            "home, stay" if c["home_arrival"] is not None and c["pickup_done"] is not None
            else "pickup done" if c["pickup_done"] is not None else "pickup not yet")
        line += f", {away} min away so far"
        if now >= w_end or now < w0 - DUE_SLACK:
            return (Status.OK if not c["failed"] else Status.AT_RISK), line, None
        if c["pickup_done"] is None:
            if _near(pos, p.pickup_lat, p.pickup_lng, p.radius_km):
                return Status.DUE, line, Todo("wait", "errand pickup",
                                              minutes=max(1, p.min_pickup_dwell_minutes))
            return Status.DUE, line, Todo("go", "errand pickup", lat=p.pickup_lat,
                                          lng=p.pickup_lng)
        if not _near(pos, p.home_lat, p.home_lng, p.radius_km):
            return Status.DUE, line, Todo("go", "errand: home", lat=p.home_lat, lng=p.home_lng)
        return Status.DUE, line, Todo("wait", "errand: stay home", minutes=w_end - now)
    return status, f"{rule.hint(p)}{fined}", None


def _dated_end(rule: Kind) -> int:
    """The minute after which no step changes a dated itinerary (K22, K23: steps starting
    after their day are outside both the arrival and the dwell tests); else never."""
    if rule.name in ("dwell_at_point_on_day", "route_stops_on_day"):
        return (date_to_day(rule.params.date) + 1) * DAY  # type: ignore[attr-defined]
    return 10**12


def _daily(day: int, start: str, end: str) -> tuple[int, int]:
    from sim.scoring.kinds.common import daily_window

    return daily_window(day, start, end)


def take_of(rp: RuleProgress, cargo_id: str, now: int, position: Pos, scan: int = 0
            ) -> HypoTake | None:
    rec = rp.cargo.get(cargo_id)
    return None if rec is None else HypoTake(rec, now, position, scan)


__all__ = ["DAY_KINDS", "END_KINDS", "STEP_KINDS", "DaysContext", "HypoTake", "RuleProgress",
           "RuleSpec", "RuleState", "Status", "Todo", "rules_from_entries", "take_of"]
