"""MemoryAgent: owns one driver's stores, keeps them subscribed, and builds each agent's view.

A decision step goes one way: `step(obs, compressor)` refreshes what this step knows once
(`StepState`: the clock, the preference rules' states, reachable candidates and the feasible
options among them, by one feasibility check with each take's preference what-if), compresses
when the facts since the last digest pass the threshold (handing the compressor each view's
digest source and the entities a digest may name), then builds the views its mode asks for.
The agents run on those views afterwards.

Modes live in memory/modes.py (one registry); the views each agent reads, in
memory/view_builders.py (one builder per agent, handed in by the agents' registry).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

import h3

from memory.cargo_memory import CargoMemory, Seen
from memory.driver_memory import PRIOR_MINUTES, DriverMemory
from memory.market_memory import MarketMemory
from memory.modes import MODES, Layer, MemoryMode, mode_names
from memory.place_regimes import PlaceRegimes
from memory.place_worth import PlaceWorth
from memory.promises import open_promises, promise_fine, promise_todo
from memory.rule_progress import OFF_KEYS, RuleProgress, RuleState, Todo, take_of
from memory.step_state import Digest, StepState
from memory.time_price import FLAT, UNPRICED, SlotPrice, TimePrice
from memory.tokens import TokenCounter
from memory.view_builders import BUILDERS, ViewBuilder
from memory.views import Candidate, RestOption, View
from sim.geo import Geography, Point
from sim.official.penalties import PenaltyModel
from sim.official.timebase import DAY
from sim.preferences.kinds.common import off_days_kept
from sim.scenario import DriverSpec, Scenario
from sim.world.actions import Observation, OutcomeKind
from sim.world.cargo import CargoView
from sim.world.events import Annotation, Event, EventBus
from sim.world.order_costs import evaluate, feasible, takeable


@dataclass(frozen=True)
class Compression:
    """A compressor's answer and what it cost (zero for the extractive rule's latency)."""

    bullets: tuple[str, ...]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    outcome: str = "deterministic"


@dataclass(frozen=True)
class Grounding:
    """What a digest may name: grids, cargo ids and coordinates the stores have seen."""

    cells: frozenset[str]
    cargo_ids: frozenset[str]
    coords: tuple[tuple[float, float], ...]


class Compressor(Protocol):
    """Turns a digest source into at most a few grounded bullets (a model or the rule)."""

    def compress(self, source: View, grounding: Grounding) -> Compression: ...


@dataclass(slots=True)
class DigestWritten(Annotation):
    """One view's digest: how many facts had come in, the bullets, and what it cost."""

    kind: ClassVar[str] = "digest"
    agent: str
    facts: int
    bullets: tuple[str, ...]
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    outcome: str  # deterministic | ok | repaired | fallback | reused

    def row(self) -> dict:
        return self._row(driver_id=self.driver_id, detail={
            "agent": self.agent, "facts": self.facts, "bullets": list(self.bullets),
            "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
            "latency_s": self.latency_s, "outcome": self.outcome})


MORE_BATCHES = 3  # rule_filter's batches of candidates while fines keep reordering them


@dataclass(frozen=True, slots=True)
class _Shown:
    """A search result as a candidate record when no cargo memory keeps it."""

    cargo: CargoView
    status: Seen = Seen.ACTIVE


# the rests from now a step prices against its orders: an hour up to a night
REST_MINUTES = (60, 120, 240, 360, 480, 600)
# `[policy] what_ifs = "lean"`: fewer rests and smaller batches of takes priced per step
LEAN_REST_MINUTES = (120, 480)
LEAN_TAKES = 6


@dataclass(frozen=True)
class StepMemory:
    state: StepState
    views: dict[str, View]
    compressed: bool  # a digest round ran this step


@dataclass
class MemoryProfile:
    """Nanoseconds spent per simulated day on store updates and on view builds (benchmarks)."""

    ns: dict[tuple[str, int], int] = field(default_factory=dict)
    n: dict[tuple[str, int], int] = field(default_factory=dict)

    def add(self, what: str, t: float, ns: int) -> None:
        key = (what, int(t // DAY))
        self.ns[key] = self.ns.get(key, 0) + ns
        self.n[key] = self.n.get(key, 0) + 1


@dataclass
class CompressionStats:
    calls: int = 0
    reused: int = 0  # views whose source had not changed since their digest: no call
    rounds: list[float] = field(default_factory=list)


class MemoryAgent:
    def __init__(self, mode: str, geo: Geography, spec: DriverSpec, scenario: Scenario,
                 bus: EventBus, counter: TokenCounter | None,
                 market: MarketMemory | None = None, lessons: tuple[str, ...] = (),
                 builders: Mapping[str, ViewBuilder] = BUILDERS,
                 time_prior: TimePrice | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"memory mode must be one of {mode_names()}, not {mode!r}")
        self.mode, self.geo, self.spec, self.sc = mode, geo, spec, scenario
        self.kind: MemoryMode = MODES[mode]
        self.builders = dict(builders)
        self.counter = counter
        m = scenario.memory
        self.cargo = CargoMemory(geo, spec.cost_per_km, counter, scenario.market.search_max_results,
                                 m.confirm_minutes)
        own_market = market is None
        self.market = market or MarketMemory(geo, scenario.geo.memory_h3_res, m.low_yield_net,
                                             counter,
                                             learn_reach=scenario.policy.place_weight > 0)
        self.driver = DriverMemory(m.recent_actions, counter)
        self._handlers = [self.cargo.on_event, self.driver.on_event]
        # a mode without the market layer keeps a market that learns nothing: the views show
        # only its static prior (county weights), as a driver without memory knows them
        if own_market and Layer.MARKET in self.kind.layers:
            self._handlers.append(self.market.on_event)
        bus.subscribe(self.on_event, spec.driver_id)
        # digests go to the run's record; annotations never come back to a driver's memory
        self.record: Callable[[Event], None] = bus.publish
        self.profile: MemoryProfile | None = None
        self.threshold = m.compress_threshold
        self.digests: dict[str, Digest] = {}
        self.marks = {"cargo facts": 0, "market facts": 0, "driver facts": 0}
        self.stats = CompressionStats()
        self.lessons = lessons if Layer.LESSONS in self.kind.layers else ()
        if time_prior is not None and Layer.LESSONS in self.kind.layers:
            # what earlier runs' time earned, by hour: the price of time from the first step
            self.driver.prior_rate = time_prior.rate
            if own_market and time_prior.factors != FLAT:
                self.market.hours.seed(time_prior.factors)
        self.rules: RuleProgress | None = None
        self.rule_offset = 0  # the rules' clock (the scorer's minutes) minus the world's
        self.last: StepMemory | None = None  # this step's state and views (probes read it)
        self._rated_search: float | None = None  # the last search whose rate the hours learnt
        self.forgone: dict[int, float] = {}  # per rule: value its fines pushed aside so far
        # rules priced at their fine's face value whatever `fine_weight`: a fine per day with
        # no cap whose keeping forwent more a day than the weighed fine (see `face_if_dear`)
        self.at_face: set[int] = set()
        # the rests this step offered, rule by rule, to book the one taken (see `book_wait`)
        self._offered: tuple[float, TimePrice, dict[int, dict[int, float]]] | None = None
        # a drive this step offered for a rule: its point, and what it forgoes (its hours at
        # the flat rate and its km) beyond the fine it keeps by itself, spent from the
        # compliance budget if the driver goes (a curfew's fine is credited at the night's rest)
        self._drive: tuple[float, float, float] | None = None
        # what keeping rules forwent beyond the fines it avoided: rests, and best takes that
        # weighted fines pushed aside
        self.overspent = 0.0
        # each place rule's record kept and broken: released once breaking it pays
        self.regimes = PlaceRegimes()
        # each cargo's (net, empty km) from where the driver stood at the last refresh
        self._routes: dict[str, tuple[float, float]] = {}
        self._routes_from: tuple[Point, float] | None = None

    def attach_rules(self, rules: RuleProgress, clock_offset: int = 0) -> None:
        """The driver's preferences (the one preference state), fed with its official step
        records by the caller (agents/app/runner.wire_preference_progress, the competition adapter).
        `clock_offset`: minutes from the scorer's epoch to the world's start (the rules are
        asked at world time + offset, the step records' time base). A mode without the
        driver layer stays unaware of them, as the memory-off greedy is."""
        if Layer.DRIVER in self.kind.layers:
            self.rules, self.rule_offset = rules, clock_offset

    def on_event(self, ev: Event) -> None:
        if self.profile is None:
            for h in self._handlers:
                h(ev)
            return
        t0 = time.perf_counter_ns()
        for h in self._handlers:
            h(ev)
        self.profile.add("event", ev.t, time.perf_counter_ns() - t0)

    @property
    def logs(self) -> dict:
        return {"cargo facts": self.cargo.log, "market facts": self.market.log,
                "driver facts": self.driver.log}

    def facts_since_digest(self) -> int:
        return sum(len(log) - self.marks[name] for name, log in self.logs.items())

    # -- the step ------------------------------------------------------------------------
    def step(self, obs: Observation, compressor: Compressor | None = None) -> StepMemory:
        """Refresh, compress when due, build the views: everything the agents read this step."""
        t0 = time.perf_counter_ns() if self.profile is not None else 0
        state = self.refresh(obs)
        done = compressor is not None and self.compress_if_due(state, compressor)
        views = self.kind.views(self, state)
        if self.profile is not None:
            self.profile.add("views", obs.now, time.perf_counter_ns() - t0)
        self.last = StepMemory(state, views, done)
        return self.last

    def refresh(self, obs: Observation) -> StepState:
        """Advance the clock and compute, once, what every view and agent of this step reads."""
        self.cargo.advance(obs.now)
        if self._routes_from != (obs.position, obs.cost_per_km):
            self._routes_from, self._routes = (obs.position, obs.cost_per_km), {}
        if self.rules is not None:  # a place rule's release first: moves read its fences
            self.regimes.observe(self.rules, obs.cost_per_km, self.rule_offset)
        cands = tuple(self.candidates(obs))
        tp = self.slot_price(self.time_price(obs))
        pairs = []
        routes = self._routes
        for c in cands:
            o = evaluate(self.geo, c.cargo, obs.position, obs.now, obs.cost_per_km,
                         routes.get(c.cargo.cargo_id))
            if takeable(o, obs.now, self.sc.minutes, self.sc.policy.min_net_income):
                pairs.append((c, o))
        # best value first: net less the hours the take holds the truck, at what the driver's
        # time earns (plain net when time is not priced)
        pairs.sort(key=lambda p: (-tp.value(p[1], obs.now), p[0].cargo.cargo_id))
        busy = {o.cargo.cargo_id: round(o.finish - obs.now) for _, o in pairs}
        place = {} if tp.place is None else {
            o.cargo.cargo_id: round(tp.place.delta(o), 1) for _, o in pairs}
        if self.rules is None:
            return StepState(obs, _busy(cands, busy, place), tuple(c for c, _ in pairs),
                             tuple(o for _, o in pairs), time_price=tp)
        pos = Point(obs.position.lat, obs.position.lng)
        now = obs.now + self.rule_offset  # the rules' clock
        states = self.rules.states(now, pos)
        self.book_wait(obs, states)
        self.pace_budgets(now, pos)
        before = {c.cargo.cargo_id: o.net for c, o in pairs}
        w = self.fine_weight()
        lean = self.sc.policy.what_ifs == "lean"
        kept = rule_filter(self.rules, pairs, now, pos, self.sc.policy.min_net_income,
                           limit=LEAN_TAKES if lean else 12, price=tp, now_world=obs.now,
                           fine_weight=w, at_face=frozenset(self.at_face))
        self.weigh_rules(pairs, kept, states, now, pos, tp, obs.now)
        fines = {c.cargo.cargo_id: before[c.cargo.cargo_id] - o.net for c, o in kept
                 if o.net != before[c.cargo.cargo_id]}

        def fined(c: Candidate) -> Candidate:
            f = fines.get(c.cargo.cargo_id)
            return c if f is None else c.with_fine(round(f, 1))
        # the views show each take's net after the fine it would draw and how long it runs
        cands = _busy(tuple(fined(c) for c in cands), busy, place)
        kept = [(fined(c), o) for c, o in kept]
        lengths = sorted(set(LEAN_REST_MINUTES if lean else REST_MINUTES)
                         | set(self.rules.rest_lengths(now, pos)))
        # no rest past the minute a dated stop's drive falls due
        cut = self.rules.stop_due_in(now, pos)
        if cut is not None:
            lengths = sorted({min(m, cut) for m in lengths})
        # each rest's saving rule by rule: summed for the view, kept to book the one taken
        parts = {m: self.rules.wait_saving_by_rule(int(now), pos, m) for m in lengths}
        saving = {m: round(self.weigh(parts[m], w), 1) for m in lengths}
        # what each rest that saves something breaks itself (a curfew out of reach from here)
        breaks = {m: self.rules.rest_fines_by_rule(int(now), pos, m)
                  for m in lengths if saving[m] > 0}
        rests = tuple(RestOption(m, saving[m], round(tp.cost(obs.now, m), 1),
                                 round(self.weigh(b, w), 1)) for m, b in breaks.items())
        self._drive = None
        # the rules a rest here would break that a rest at their place keeps: their drive
        # there is priced beside the due rules' actions
        broken = {i for r in rests if r.fines > 0 for i in breaks[r.minutes]}
        todo = self.priced_todo(obs, now, pos, tp, rest_there=frozenset(broken), stop_cut=cut)
        offered = {r.minutes: parts[r.minutes] for r in rests}
        if todo is not None and todo.action == "wait":
            m = int(min(todo.minutes, DAY))
            offered[m] = self.rules.wait_saving_by_rule(int(now), pos, m)
        self._offered = (obs.now, tp, offered)
        return StepState(obs, cands, tuple(c for c, _ in kept), tuple(o for _, o in kept),
                         states, todo, tp, rests)

    def book_wait(self, obs: Observation, states: tuple[RuleState, ...]) -> None:
        """A rest the driver took to keep rules forgoes its minutes: booked against the rules
        it kept, as a take their fines pushed aside is (`weigh_rules`). A capped rule kept
        day after day by rests that cost more, over the month, than its cap is then broken
        knowingly, instead of resting out every day for a fine that stops at the cap."""
        offered, self._offered = self._offered, None
        drive, self._drive = self._drive, None
        done = obs.last_outcome
        if (drive is not None and done.kind is OutcomeKind.REPOSITIONED
                and obs.position.km_to(drive[0], drive[1]) < 1e-3):
            self.overspent += drive[2]
        if offered is None or done.kind is not OutcomeKind.WAITED:
            return
        t0, tp, by_length = offered
        assert self.rules is not None
        parts = by_length.get(round(done.amount), {})
        kept = {i: v for i, v in parts.items() if v > 0 and i not in self.rules.waived}
        cost = tp.cost(t0, done.amount)
        # the budget counts the rest's minutes at the flat rate: the hours' shape tells where
        # a rest costs least, but a month of rests forgoes about the rate whatever the hour
        self.overspent += max(0.0, tp.rate * done.amount - sum(kept.values()))
        if kept:
            self._book(kept, cost, states, obs.now)

    def fine_weight(self) -> float:
        """`[policy] fine_weight` while what keeping rules beyond their fines has cost stays
        within `[policy] compliance_budget` of the net earned so far; 1 (a fine at its amount)
        once that is spent."""
        p = self.sc.policy
        if p.fine_weight == 1.0 or p.compliance_budget is None:
            return p.fine_weight
        earned = max(0.0, self.driver.income) + self.driver.prior_rate * PRIOR_MINUTES
        return p.fine_weight if self.overspent <= p.compliance_budget * earned else 1.0

    def rule_weight(self, index: int, w: float) -> float:
        """What one yuan of this rule's fine weighs this step: 1 for a rule priced at face,
        else `w` (the step's `fine_weight`)."""
        return 1.0 if index in self.at_face else w

    def weigh(self, by_rule: Mapping[int, float], w: float) -> float:
        """Fines rule by rule (what a rest keeps) weighed by `rule_weight`, at least 0."""
        if not self.at_face:  # one weight for all: the sum weighed once
            return w * max(0.0, sum(by_rule.values()))
        return max(0.0, sum(v * self.rule_weight(i, w) for i, v in by_rule.items()))

    def face_if_dear(self, state: RuleState, elapsed: float) -> None:
        """A fine per day with no cap is never waived (each break is priced where it
        happens), but with fines weighed above their amount (`fine_weight` > 1) the weight
        buys compliance only where it costs at most that many times the fine: once what
        keeping the rule forwent (`forgone`) passes, per day elapsed, the weighed day's fine,
        the rule is priced at face from then on (failure class "a night kept at any price": a
        quiet window of nine hours kept every night at seven times its fine)."""
        spec, w = state.spec, self.fine_weight()
        if (w <= 1.0 or spec.index in self.at_face or spec.rule is None
                or spec.rule.penalty_model is not PenaltyModel.COUNT
                or spec.rule.drawn_fine_per() != "day"):
            return
        if self.forgone.get(spec.index, 0.0) * DAY / max(DAY, elapsed) > w * spec.amount:
            self.at_face.add(spec.index)

    def weigh_rules(self, pairs: list, kept: list, states: tuple[RuleState, ...], now: float,
                    pos: Point, tp: TimePrice, t: float) -> None:
        """Keep a rule only while keeping it pays. Each step the best order a rule's fines
        pushed aside is booked against that rule (what keeping it forgoes); projected over the
        days left, once that passes the most the rule can still cost (its cap left, or a
        one-off fine), the rule is waived: broken knowingly, its fine a price paid. A fine per
        break with no cap is never waived: every break is priced where it happens."""
        assert self.rules is not None
        self.waive_off_days(states, now, t)
        if not pairs:
            return
        free = max(pairs, key=lambda p: (tp.value(p[1], t), p[0].cargo.cargo_id))
        best = max((tp.value(o, t) for _, o in kept), default=None)
        gap = tp.value(free[1], t) - (best if best is not None else 0.0)
        if gap <= 0 or (kept and kept[0][0].cargo.cargo_id == free[0].cargo.cargo_id):
            return
        take = take_of(self.rules, free[0].cargo.cargo_id, int(now), pos)
        if take is None:
            return
        fines = {i: v for i, v in self.rules.extra_by_rule(take).items()
                 if v > 0 and i not in self.rules.waived}
        if kept and self.fine_weight() != 1.0:
            # weighted fines pushed the best take aside: what that forgoes beyond the fines
            # at their face value is spent from the compliance budget, as a rest's is
            c, o = kept[0]
            raw = next(x for x_c, x in pairs if x_c.cargo.cargo_id == c.cargo.cargo_id)
            weighted = raw.net - o.net
            face = tp.value(o, t) + weighted * (1.0 - 1.0 / self.fine_weight())
            self.overspent += max(0.0, tp.value(free[1], t) - sum(fines.values()) - face)
        self._book(fines, gap, states, t)

    def _book(self, fines: dict[int, float], amount: float, states: tuple[RuleState, ...],
              t: float) -> None:
        """Book `amount` forgone against the rules in `fines`, split by their fines; a rule
        whose forgone, projected over the days left, passes the most it can still cost is
        waived."""
        assert self.rules is not None
        total = sum(fines.values())
        elapsed = max(DAY / 2, t - (self.driver.start or 0.0))
        left = max(0.0, self.sc.minutes - t)
        for st in states:
            i = st.spec.index
            if i not in fines:
                continue
            self.forgone[i] = self.forgone.get(i, 0.0) + amount * fines[i] / total
            bound = self.rules.liability(st)
            if bound is None:
                self.face_if_dear(st, elapsed)
            # a family event (K24) happens once: what it forgoes is not projected over the
            # month (one order pushed aside at its pickup on the 10th projected to 2.3 times
            # itself, passed the cap and waived it there: the driver left and paid it all);
            # its stops are weighed one by one against what they keep
            once = st.spec.rule is not None and st.spec.rule.penalty_model is PenaltyModel.EVENT
            if bound is not None and not once and self.forgone[i] * left / elapsed > (
                    bound * self.fine_weight()):
                self.rules.waive(i)

    def pace_budgets(self, now: float, pos: Point) -> None:
        """Price the km of each monthly deadhead budget (K9, no cap) so that it lasts the
        month. Its own test fines only the km past the budget, so early km look free: blind
        drivers under S4 spent 1,200-1,500 km by the 14th and then waited out most of the
        remaining days, since every pickup past the budget cost 100-150 a km (failure class
        "a deadhead budget spent by mid-month"). While the km used per day so far (`burn`)
        outrun the km left per day to come (`pace`), a km is worth what the driver's km have
        earned (its net over the km used, both since the later of its start and the rule's
        window's) times the share of the burn the budget cannot carry, 1 - pace/burn; never
        more than the fine per km. `now` is the rules' clock."""
        assert self.rules is not None
        start = self.driver.start
        began = None if start is None else start + self.rule_offset  # on the rules' clock
        budgets = ({} if began is None or now - began < DAY / 2
                   else self.rules.budgets_left(now, pos))
        prices = {}
        for i, (used, left) in budgets.items():
            spec = next(r for r in self.rules.rules if r.index == i)
            # the km the kind counts: within its window where the version applies one
            win = spec.window if self.rules.settings.window_applies(spec.kind) else None
            lo = max(0.0, float(win.start if win else 0), began)
            hi = min(float(self.rules.horizon), float(win.end if win else self.rules.horizon))
            days_in, days_left = (now - lo) / DAY, (hi - now) / DAY
            if used <= 0 or left <= 0 or days_in < 0.5 or days_left <= 0:
                continue
            burn, pace = used / days_in, left / days_left
            earned = self.driver.income * (now - lo) / (now - began)  # within the window
            if burn > pace and earned > 0:
                prices[i] = min(spec.amount, earned / used * (1.0 - pace / burn))
        self.rules.pace_empty_km(prices)

    def waive_off_days(self, states: tuple[RuleState, ...], now: float, t: float) -> None:
        """A rule of N days off (K13, K14) is kept by days without work, each worth about a
        day of the driver's earnings so far. Once the days still to keep off cost more than
        the fine, the rule is broken knowingly; left to the pricing of single takes, each
        take near the end would carry the whole fine and the driver would idle out the month
        to keep a rule worth a fraction of it."""
        assert self.rules is not None
        elapsed = t - (self.driver.start or 0.0)
        if elapsed < DAY:
            return  # no day's earnings to judge by yet
        day_value = self.driver.income * DAY / elapsed
        days_left = max(0, self.rules.horizon // DAY - int(now) // DAY)  # today included
        for st in states:
            i = st.spec.index
            have = next((st.counters[k] for k in OFF_KEYS if k in st.counters), None)
            need = getattr(st.spec.rule.params, "min_days", 0) if st.spec.rule else 0
            if i in self.rules.waived or not isinstance(have, int) or need <= 0:
                continue
            short = need - off_days_kept(have, days_left, busy_today=False)
            bound = self.rules.liability(st)
            if short > 0 and bound is not None and (
                    short * day_value > bound * self.fine_weight()):
                self.rules.waive(i)

    def time_price(self, obs: Observation) -> TimePrice:
        """The driver's earning rate shaped by the market's hours (modes with the market
        layer); each fresh search's best order rate teaches the hour it was made in."""
        if not self.kind.prices_time:
            return UNPRICED
        if obs.last_search_time is not None and obs.last_search_time != self._rated_search:
            self._rated_search = obs.last_search_time
            rates = [o.net / max(1.0, o.finish - obs.now) for c in obs.last_search
                     for o in [evaluate(self.geo, c, obs.position, obs.now, obs.cost_per_km)]
                     if feasible(o, obs.now, self.sc.minutes)]
            if rates:
                self.market.hours.add(obs.last_search_time, max(rates))
        rate = self.driver.earning_rate(obs.now)
        return TimePrice(rate, self.market.hours.factors(), self.place_worth(obs, rate))

    def place_worth(self, obs: Observation, rate: float) -> PlaceWorth | None:
        """What a destination is worth for the next order (modes with the market layer, once
        the grid the driver stands in has a known reach)."""
        w = self.sc.policy.place_weight
        if w <= 0 or Layer.MARKET not in self.kind.layers:
            return None
        here = self.market.reach_km(obs.position.lat, obs.position.lng)
        if here is None:
            return None
        per_km = self.geo.detour_factor * (
            obs.cost_per_km + rate * self.geo.drive_minutes(100.0, obs.now) / 100.0)
        fences = () if self.rules is None else self.rules.place_rules()
        allows = None if not fences else (
            lambda lat, lng: all(f.allows_place(Point(lat, lng)) for f in fences))
        return PlaceWorth(here, w * per_km, self.market.reach_km, allows)

    def slot_price(self, tp: TimePrice) -> TimePrice:
        """`tp` as a capped driver's takes weigh it (`SlotPrice`): with a daily order cap among
        the rules not waived, a take is charged at least `[policy] slot_share` of the day over
        the tightest cap. Unchanged without a cap, without the driver layer, or unpriced."""
        share = self.sc.policy.slot_share
        if self.rules is None or not tp or share <= 0:
            return tp
        caps = [n for _, n in self.rules.daily_caps()]
        return SlotPrice(tp.rate, tp.factors, tp.place, share * DAY / min(caps)) if caps else tp

    def priced_todo(self, obs: Observation, now: float, pos: Point, tp: TimePrice,
                    rest_there: frozenset[int] = frozenset(),
                    stop_cut: int | None = None) -> Todo | None:
        """The first due rule's action with both prices: what it avoids (a wait: the fines
        over every rule at once; a drive: the rule's fine) and what it forgoes (the minutes
        at `rate`, a drive's km and the fines the drive itself draws). `stop_cut` is the
        step's `RuleProgress.stop_due_in`: no wait runs past it."""
        assert self.rules is not None
        w = self.fine_weight()  # fines weigh w yuan of earnings each
        promised = promise_todo(self.rules, now)
        if promised is not None:  # a promised cargo: its fine is the whole stake
            minutes = 1 if promised.action == "take" else promised.minutes
            return dataclasses.replace(promised, at_stake=w * promised.at_stake,
                                       cost=round(tp.cost(obs.now, minutes), 1))
        # every due rule priced, the one worth most followed: the first in rule order could
        # hide a later one (a night's quiet window before a route stop the rest makes
        # unreachable: failure class "a due rule behind another")
        best: tuple[Todo, tuple[float, float, float] | None] | None = None
        for state in (*self.rules.due_states(now, pos),
                      *self.rules.rest_there(now, pos, rest_there)):
            priced = self._priced(state, obs, now, pos, tp, w, stop_cut)
            if best is None or priced[0].at_stake - priced[0].cost > (
                    best[0].at_stake - best[0].cost):
                best = priced
        if best is None:
            return None
        self._drive = best[1]
        return best[0]

    def _priced(self, state: RuleState, obs: Observation, now: float, pos: Point,
                tp: TimePrice, w: float, stop_cut: int | None
                ) -> tuple[Todo, tuple[float, float, float] | None]:
        """One due rule's action priced (see `priced_todo`), with the drive the compliance
        budget books if the driver follows it."""
        assert self.rules is not None
        todo = state.todo
        assert todo is not None
        if todo.action == "wait":
            if stop_cut is not None and stop_cut < todo.minutes:  # as the rests: not past
                todo = dataclasses.replace(todo, minutes=stop_cut)  # a stop's drive
            minutes = int(min(todo.minutes, DAY))
            if self.at_face:  # rule by rule, each at its own weight
                saving = self.weigh(self.rules.wait_saving_by_rule(int(now), pos, minutes), w)
            else:
                saving = w * self.rules.wait_saving(int(now), pos, minutes)
            if state.spec.kind in SEQUENCE_KINDS:
                # one stop of a sequence (a family event's pickup, an itinerary's dwell): the
                # wait alone keeps nothing, the sequence it starts keeps the rule's fine
                saving = max(saving, self.rule_weight(state.spec.index, w) * todo.at_stake)
            return dataclasses.replace(todo, at_stake=round(saving, 1),
                                       cost=round(tp.cost(obs.now, minutes), 1),
                                       takes_uncharged=state.spec.kind in UNCHARGED_WAIT_KINDS
                                       ), None
        km = pos.km_to(todo.lat, todo.lng)
        drive = self.geo.drive_minutes(km, obs.now)
        fines = self.rules.reposition_extra(int(now), pos, todo.lat, todo.lng)
        # going home for a curfew commits to the night there: its hours are part of the price,
        # and so is all that night keeps (a quiet window, a daily rest besides the curfew)
        home = Point(todo.lat, todo.lng)
        stay = self.rules.stay_after(state, int(now + drive), home)
        kept = todo.at_stake
        weighed = self.rule_weight(state.spec.index, w) * kept
        if stay > 0:
            night = self.rules.wait_saving_by_rule(int(now), home, drive + stay)
            kept += sum(v for i, v in night.items() if i != state.spec.index and v > 0)
            weighed += sum(v * self.rule_weight(i, w) for i, v in night.items()
                           if i != state.spec.index and v > 0)
        spent = (todo.lat, todo.lng, max(0.0, tp.rate * drive + km * obs.cost_per_km
                                         - (0.0 if stay > 0 else todo.at_stake)))
        return dataclasses.replace(
            todo, takes_uncharged=(state.spec.kind in SEQUENCE_KINDS
                                   or state.spec.rule is None
                                   or state.spec.rule.rest_point() is None),
            at_stake=weighed if self.at_face else w * kept,
            cost=round(tp.cost(obs.now, drive + stay) + km * obs.cost_per_km + w * fines,
                       1)), spent

    def candidates(self, obs: Observation, records=None) -> list[Candidate]:
        """Reachable candidates with net estimated from where the driver stands now."""
        out = []
        if records is None and Layer.CARGO not in self.kind.layers:
            # no cargo memory: what the last search showed, less the take that just failed
            failed = obs.last_outcome.cargo_id if obs.last_outcome.failed else None
            records = [_Shown(c) for c in obs.last_search if c.cargo_id != failed]
        recs = self.cargo.active.values() if records is None else records
        kept = self._routes if self._routes_from == (obs.position, obs.cost_per_km) else {}
        for r in recs:
            c = r.cargo
            route = kept.get(c.cargo_id)
            if route is None:
                route = kept[c.cargo_id] = c.route(self.geo, obs.position, obs.cost_per_km)
            net, empty = route
            if records is None and obs.now + self.geo.drive_minutes(empty, obs.now) > c.load_end:
                continue
            out.append(Candidate(c, round(net, 1), round(empty, 1), r.status.value))
        out.sort(key=lambda x: (-x.est_net, x.cargo.cargo_id))
        return out

    def bounded_views(self, state: StepState) -> dict[str, View]:
        return {a: b.bounded(self, state) for a, b in self.builders.items()}

    # -- compression ---------------------------------------------------------------------
    def grounding(self) -> Grounding:
        pts = [h3.cell_to_latlng(c) for c in self.market.grids]
        for r in self.cargo.records.values():
            pts += [(r.cargo.origin.lat, r.cargo.origin.lng),
                    (r.cargo.dest.lat, r.cargo.dest.lng)]
        if self.rules is not None:  # the points the preferences name (a todo may go there)
            pts += self.rules.points()
        return Grounding(frozenset(self.market.grids), frozenset(self.cargo.records), tuple(pts))

    def compress_if_due(self, state: StepState, compressor: Compressor) -> bool:
        """Digest every view when facts since the last digest pass the threshold (modes that
        compress only). A view whose source has not changed keeps its digest, with no call."""
        if not self.kind.compresses:
            return False
        facts_in = self.facts_since_digest()
        if facts_in < self.threshold:
            return False
        now = state.obs.now
        marks = {name: len(log) for name, log in self.logs.items()}
        known = self.grounding()
        for agent, view in self.bounded_views(state).items():
            src = view.digest_source()
            source = src.body()
            old = self.digests.get(agent)
            if old is not None and old.source == source:
                got = Compression(old.bullets, outcome="reused")
                self.stats.reused += 1
            else:
                g = Grounding(known.cells | src.shown_cells(), known.cargo_ids, known.coords)
                got = compressor.compress(src, g)
                self.stats.calls += 1
            self.digests[agent] = Digest(got.bullets, now, marks, source)
            self.record(DigestWritten(now, self.spec.driver_id, agent, facts_in, got.bullets,
                                      got.prompt_tokens, got.completion_tokens, got.latency_s,
                                      got.outcome))
        self.stats.rounds.append(now)
        self.marks = marks
        return True

    # -- state ---------------------------------------------------------------------------
    def get_state(self) -> dict:
        return {"mode": self.mode, "cargo": self.cargo.get_state(),
                "market": self.market.get_state(), "driver": self.driver.get_state(),
                "marks": dict(self.marks),
                "digests": {a: {"bullets": list(d.bullets), "t": d.t, "marks": d.marks,
                                "source": d.source}
                            for a, d in self.digests.items()},
                # what keeping each rule has forgone, and the rules broken knowingly since
                "forgone": {str(i): v for i, v in self.forgone.items()},
                "overspent": self.overspent,
                "drive": None if self._drive is None else list(self._drive),
                "offered": None if self._offered is None else [
                    self._offered[0], self._offered[1].rate, list(self._offered[1].factors),
                    {str(m): {str(i): v for i, v in p.items()}
                     for m, p in self._offered[2].items()}],
                "waived": sorted(self.rules.waived) if self.rules is not None else [],
                "regimes": self.regimes.get_state()}

    def set_state(self, s: dict) -> None:
        self.cargo.set_state(s["cargo"])
        self.market.set_state(s["market"])
        self.driver.set_state(s["driver"])
        self.marks = dict(s["marks"])
        self.digests = {a: Digest(tuple(d["bullets"]), d["t"], dict(d["marks"]), d["source"])
                        for a, d in s["digests"].items()}
        self.forgone = {int(i): float(v) for i, v in s.get("forgone", {}).items()}
        self.overspent = float(s.get("overspent", 0.0))
        o = s.get("offered")
        d = s.get("drive")
        self._drive = None if d is None else (float(d[0]), float(d[1]), float(d[2]))
        self._offered = None if o is None else (
            o[0], TimePrice(o[1], tuple(o[2])),
            {int(m): {int(i): float(v) for i, v in p.items()} for m, p in o[3].items()})
        if self.rules is not None:
            for i in s.get("waived", []):
                self.rules.waive(int(i))
        if "regimes" in s:
            self.regimes.set_state(s["regimes"])
            if self.rules is not None:
                self.regimes.apply(self.rules)


def _busy(cands: tuple[Candidate, ...], busy: dict[str, int],
          place: dict[str, float]) -> tuple[Candidate, ...]:
    """The candidates with how long each takeable one holds the truck and what its
    destination is worth (the others as they were)."""
    return tuple(c.with_busy(busy[c.cargo.cargo_id], place.get(c.cargo.cargo_id, 0.0))
                 if c.cargo.cargo_id in busy else c for c in cands)


# kinds whose waits are one stop of a sequence: priced by the fine the sequence keeps
SEQUENCE_KINDS = frozenset({"home_stay_event", "route_stops_on_day"})
# kinds whose waits keep a fine no take's what-if charges (`Todo.takes_uncharged`): the
# sequences' stops, and a dated stop's dwell (K23: a take leaving the point was left
# uncharged and, held against the dwell at its cost alone, took T06's and T13's stops)
UNCHARGED_WAIT_KINDS = SEQUENCE_KINDS | {"dwell_at_point_on_day"}


def rule_filter(rules: RuleProgress, pairs: list, now: float, pos: Point, min_net: float,
                limit: int = 12, price: TimePrice = UNPRICED,
                now_world: float | None = None, fine_weight: float = 1.0,
                at_face: frozenset[int] = frozenset()) -> list:
    """Competition rules in the one feasibility check: each take's net becomes its net minus
    the penalty it would add (`extra_penalty`, the kinds' own tests on the hypothetical step),
    a take whose net after penalty falls below `min_net` is dropped, and the rest are ranked
    by value after penalty (plain net when time is not priced). Only the first `limit` pairs
    as given are tested and kept (the analyst ranks 5), so a month stays fast, and while a
    batch holds fined takes the next `limit` are tested too (up to MORE_BATCHES batches): a
    box rule that fines every long haul must not hide the local orders ranked below them; a
    take whose cargo the rules have not seen keeps its net. `now` is the rules' clock,
    `now_world` the options' (default the same); fines weigh `fine_weight` yuan each, but
    those of the rules in `at_face` their amount."""
    t = now if now_world is None else now_world
    promises = tuple(open_promises(rules))
    out = []
    for k, (c, o) in enumerate(pairs[:limit * MORE_BATCHES]):
        if k and k % limit == 0 and len(out) == k and all(
                x.net == p.net for (_, x), (_, p) in zip(out, pairs, strict=False)):
            break  # a whole batch unfined: later ones rank below it whatever their fines
        take = take_of(rules, c.cargo.cargo_id, int(now), pos)
        promised = promise_fine(promises, c.cargo.cargo_id, now, now + o.finish - t)
        if at_face and fine_weight != 1.0 and take is not None:
            extra = fine_weight * promised + sum(
                v * (1.0 if i in at_face else fine_weight)
                for i, v in rules.extra_penalty_by_rule(take).items())
        else:
            extra = 0.0 if take is None else rules.extra_penalty(take)
            extra += promised
            extra *= fine_weight
        if o.net - extra < min_net:
            continue
        out.append((c, dataclasses.replace(o, net=o.net - extra) if extra else o))
    out.sort(key=lambda x: (-price.value(x[1], t), x[0].cargo.cargo_id))
    return out
