"""MemoryAgent: owns one driver's stores, keeps them subscribed, and builds each agent's view.

Modes: `full` (everything, including the raw history of all three stores, to every agent),
`rules` (structured facts dispatched by rule to the agents that need them, bounded), and
`compressed` (like rules until the facts since the last digest pass the threshold; then a
compressor turns each view into a few bullets, and views carry the digest plus only what came
after it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from memory.cargo_memory import CargoMemory, Seen
from memory.driver_memory import DriverMemory
from memory.market_memory import MarketMemory
from memory.tokens import TokenCounter
from memory.views import (
    Candidate,
    CargoAnalysisView,
    MainDecisionView,
    PreferenceView,
    SearchView,
    View,
    progress_facts,
)
from sim.actions import Observation
from sim.events import EventBus, Generic
from sim.geo import Geography
from sim.order_rules import evaluate, takeable
from sim.preferences import PrefKind
from sim.scenario import DriverSpec, Scenario

MODES = ("full", "rules", "compressed")
AGENTS = ("search", "preference", "cargo_analyst", "main_decision")
TOP_CANDIDATES = 5
COMPRESSED_CANDIDATES = 5  # feasible ones: as many as the analyst ranks
COMPRESSED_NEARBY = 3  # neighbour grids beside the current one
COMPRESSED_RECENT = 3


@dataclass(frozen=True)
class Compressed:
    """A compressor's answer and what it cost (zero for the extractive rule's latency)."""

    bullets: tuple[str, ...]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    outcome: str = "rules"


class Compressor(Protocol):
    """Turns a view into at most a few grounded bullets (a model call or an extractive rule)."""

    def compress(self, view: View, memory: MemoryAgent) -> Compressed: ...


@dataclass
class Digest:
    bullets: tuple[str, ...]
    t: float
    marks: dict[str, int]  # log name -> length at digest time
    source: str = ""  # what the compressor read: an unchanged source needs no new call


@dataclass
class MemoryProfile:
    """Nanoseconds spent per simulated day on store updates and on view builds (benchmarks)."""

    ns: dict[tuple[str, int], int] = field(default_factory=dict)
    n: dict[tuple[str, int], int] = field(default_factory=dict)

    def add(self, what: str, t: float, ns: int) -> None:
        key = (what, int(t // 1440))
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
                 market: MarketMemory | None = None, compressor: Compressor | None = None,
                 lessons: tuple[str, ...] = ()) -> None:
        if mode not in MODES:
            raise ValueError(f"memory mode must be one of {MODES}, not {mode!r}")
        self.mode, self.geo, self.spec, self.sc = mode, geo, spec, scenario
        self.counter = counter
        m = scenario.memory
        self.cargo = CargoMemory(geo, spec.cost_per_km, counter, scenario.market.search_max_results,
                                 m.confirm_minutes)
        own_market = market is None
        self.market = market or MarketMemory(geo, scenario.geo.memory_h3_res, m.low_yield_net,
                                             counter)
        self.driver = DriverMemory(spec.preferences, m.recent_actions, counter)
        self._handlers = [self.cargo.on_event, self.driver.on_event]
        if own_market:
            self._handlers.append(self.market.on_event)
        bus.subscribe(self.on_event, spec.driver_id)
        self.bus = bus
        self.profile: MemoryProfile | None = None
        self.compressor = compressor
        self.threshold = m.compress_threshold
        self.digests: dict[str, Digest] = {}
        self.marks = {"cargo facts": 0, "market facts": 0, "driver facts": 0}
        self.stats = CompressionStats()
        self.lessons = lessons

    def on_event(self, ev) -> None:
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

    # -- compression ---------------------------------------------------------------------
    def _maybe_compress(self, obs: Observation) -> bool:
        """Compress all four views when facts since the last digest pass the threshold.

        Called by `_views` right after the cargo clock has advanced to `obs.now`."""
        if self.mode != "compressed" or self.compressor is None:
            return False
        facts_in = self.facts_since_digest()
        if facts_in < self.threshold:
            return False
        marks = {name: len(log) for name, log in self.logs.items()}
        rules = self._rules_views(obs)
        for agent, view in rules.items():
            src = view.digest_source()
            source = src.render().split("\n", 1)[1]  # all but the title, which holds the time
            old = self.digests.get(agent)
            reused = old is not None and old.source == source
            if reused:
                got = Compressed(old.bullets, outcome="reused")
                self.stats.reused += 1
            else:
                got = self.compressor.compress(src, self)
                self.stats.calls += 1
            self.digests[agent] = Digest(got.bullets, obs.now, marks, source)
            self.bus.publish(Generic(obs.now, "digest", {
                "driver_id": self.spec.driver_id, "reason": agent, "count": facts_in,
                "value": got.latency_s, "detail": {
                    "bullets": list(got.bullets), "prompt_tokens": got.prompt_tokens,
                    "completion_tokens": got.completion_tokens, "outcome": got.outcome}}))
        self.stats.rounds.append(obs.now)
        self.marks = marks
        return True

    # -- views ---------------------------------------------------------------------------
    def views(self, obs: Observation) -> dict[str, View]:
        if self.profile is None:
            return self._views(obs)
        t0 = time.perf_counter_ns()
        out = self._views(obs)
        self.profile.add("views", obs.now, time.perf_counter_ns() - t0)
        return out

    def _views(self, obs: Observation) -> dict[str, View]:
        self.cargo.advance(obs.now)
        self._maybe_compress(obs)
        if self.mode == "rules" or (self.mode == "compressed" and not self.digests):
            return self._rules_views(obs)
        if self.mode == "full":
            return self._full_views(obs)
        return self._compressed_views(obs)

    def candidates(self, obs: Observation, records=None) -> list[Candidate]:
        """Reachable candidates with net estimated from where the driver stands now."""
        out = []
        recs = self.cargo.active.values() if records is None else records
        for r in recs:
            c = r.cargo
            net, empty = c.route(self.geo, obs.position, obs.cost_per_km)
            if records is None and obs.now + self.geo.drive_minutes(empty, obs.now) > c.load_end:
                continue
            out.append(Candidate(c, round(net, 1), round(empty, 1), r.status.value))
        out.sort(key=lambda x: (-x.est_net, x.cargo.cargo_id))
        return out

    def feasible_candidates(self, obs: Observation, n: int) -> list[Candidate]:
        """The best `n` active cargo the driver can take now without breaking a world rule or
        a preference: what the analyst would rank, so nothing else need be sent."""
        out = []
        progress = self.driver.progress(obs.now)
        for c in self.candidates(obs):
            o = evaluate(self.geo, c.cargo, obs.position, obs.now, obs.cost_per_km)
            if takeable(o, obs.now, self.sc.minutes, self.sc.policy.min_net_income,
                        self.spec.preferences, progress):
                out.append(c)
                if len(out) == n:
                    break
        return out

    def _anchors(self) -> tuple[str, ...]:
        out = []
        for p in self.spec.preferences:
            if p.kind in (PrefKind.VISIT, PrefKind.FORBIDDEN_ZONE) and p.place is not None:
                verb = "visit" if p.kind is PrefKind.VISIT else "avoid"
                out.append(f"{verb} {p.place.name} ({p.place.lat:.3f},{p.place.lng:.3f}) "
                           f"r{p.place.radius_km:g}km")
            elif p.kind is PrefKind.ERRAND:
                out.append("errand " + " then ".join(f"{s.name} ({s.lat:.3f},{s.lng:.3f})"
                                                     for s in p.steps))
        return tuple(out)


    def _search(self, obs: Observation, grids, avoid, neighbours: int | None = None,
                **kw) -> SearchView:
        """`neighbours`: how many of the ring's best grids worth a query now to keep beside the
        current one (None: the whole ring). The agent reads the same list the text shows."""
        t = obs.now
        here = self.market.fact(self.market.cell(obs.position.lat, obs.position.lng), t)
        near = self.market.ranked(obs.position, 1, t)  # the current grid and its ring
        if neighbours is not None:
            others = [g.cell for g in near
                      if g.cell != here.cell and g.worth_query(t)][:neighbours]
            near = [g for g in near if g.cell == here.cell or g.cell in others]
        return SearchView(
            mode=self.mode, now=t, position=obs.position, budget_left=obs.query_budget_left,
            queries_today=self.market.queries_today(t), here=here,
            nearby=tuple(near), grids=tuple(grids),
            avoid=tuple(avoid), anchors=self._anchors(), lessons=self.lessons, **kw)

    def _pref(self, obs: Observation, **kw) -> PreferenceView:
        return PreferenceView(mode=self.mode, now=obs.now, preferences=self.spec.preferences,
                              progress=self.driver.progress(obs.now),
                              last_event=self.driver.last_pref_event, lessons=self.lessons, **kw)

    def _cargo(self, obs: Observation, cands, failed=(), stale=(), unavailable=(),
               **kw) -> CargoAnalysisView:
        kw.setdefault("discarded_summary", self.cargo.discarded_summary())
        kw.setdefault("blacklist_summary", self.cargo.blacklist_summary())
        return CargoAnalysisView(
            mode=self.mode, now=obs.now, position=obs.position, cost_per_km=obs.cost_per_km,
            candidates=tuple(cands), failed_cargo_ids=tuple(failed),
            stale_cargo_ids=tuple(stale), unavailable_cargo_ids=tuple(unavailable), **kw)

    def _main(self, obs: Observation, cands, recent, **kw) -> MainDecisionView:
        t = obs.now
        d = self.driver
        here = self.market.stats(self.market.cell(obs.position.lat, obs.position.lng), t)
        ranked = self.market.ranked(obs.position, 2, t)
        return MainDecisionView(
            mode=self.mode, now=t, position=obs.position, income=obs.income, orders=obs.orders,
            budget_left=obs.query_budget_left, here_value=None if here is None else here.value,
            best_grid=ranked[0] if ranked else None, top_candidates=tuple(cands),
            preference_flags=tuple(f"[{s['index']}] {progress_facts(s, ('index', 'text'))}"
                                   for s in d.progress(t)),
            recent_actions=tuple(recent),
            last_action=d.last_action, searches_in_row=d.searches_in_row,
            waits_without_order=d.waits_without_order, fruitless_searches=d.fruitless_searches,
            failed_takes=d.failed_takes, short_plan=d.short_plan, lessons=self.lessons, **kw)

    def _rules_views(self, obs: Observation) -> dict[str, View]:
        cands = self.candidates(obs)
        local = self.market.local_facts(obs.position, 3, obs.now)
        c = self.cargo
        return {
            "search": self._search(obs, local, [g for g in local if g.streak >= 2]),
            "preference": self._pref(obs),
            "cargo_analyst": self._cargo(obs, cands, c.failed_cargo_ids, c.stale_cargo_ids,
                                         c.unavailable_cargo_ids),
            "main_decision": self._main(obs, cands[:TOP_CANDIDATES],
                                        self.driver.recent_lines()),
        }

    def _full_views(self, obs: Observation) -> dict[str, View]:
        everything = tuple((name, log, 0) for name, log in self.logs.items())
        cands = self.candidates(obs)
        seen = self.candidates(obs, records=list(self.cargo.records.values()))
        c = self.cargo
        all_failed = sorted(i for i, r in c.records.items() if r.status is Seen.FAILED)
        all_stale = sorted(i for i, r in c.records.items() if r.status is Seen.STALE)
        all_gone = sorted(i for i, r in c.records.items() if r.status is Seen.UNAVAILABLE)
        return {
            "search": self._search(obs, self.market.all_facts(obs.now), self.market.avoid(),
                                   logs=everything),
            "preference": self._pref(obs, logs=everything),
            "cargo_analyst": self._cargo(obs, seen, all_failed, all_stale, all_gone,
                                         logs=everything),
            "main_decision": self._main(obs, cands[:TOP_CANDIDATES], self.driver.recent_lines(),
                                        logs=everything),
        }

    def _compressed_views(self, obs: Observation) -> dict[str, View]:
        """Digest plus what came after it, in short lines.

        search: the current grid, its best neighbours and the grids searched since the digest;
        preference: the digest's progress; cargo: the feasible candidates and how many ids were
        dropped since; main: the market, the actions since the digest and the digest.
        """
        t = obs.now
        out: dict[str, View] = {}
        d = self.digests["search"]
        local = {g.cell for g in self.market.local_facts(obs.position, 3, t)}
        # the digest names the hot grids as they were; only grids searched since are news
        grids = [self.market.fact(c, t) for c, g in self.market.grids.items()
                 if g.last_t > d.t and c in local]
        grids.sort(key=lambda f: (-f.value, f.cell))
        out["search"] = self._search(obs, grids, [g for g in grids if g.streak >= 2],
                                     COMPRESSED_NEARBY, digest=d.bullets, compact=True)
        d = self.digests["preference"]
        out["preference"] = self._pref(obs, digest=d.bullets, digest_t=d.t, compact=True)
        d = self.digests["cargo_analyst"]
        cands = self.feasible_candidates(obs, COMPRESSED_CANDIDATES)
        dropped = {s.value: 0 for s in (Seen.FAILED, Seen.STALE, Seen.UNAVAILABLE)}
        for r in self.cargo.discarded.values():
            if r.changed_at > d.t and r.status.value in dropped:
                dropped[r.status.value] += 1
        out["cargo_analyst"] = self._cargo(obs, cands, digest=d.bullets, compact=True,
                                           dropped_since_digest=dropped, discarded_summary={},
                                           blacklist_summary={})
        d = self.digests["main_decision"]
        recent = [r.line() for r in self.driver.recent if r.t > d.t][-COMPRESSED_RECENT:]
        out["main_decision"] = self._main(obs, cands[:3], recent, digest=d.bullets,
                                          compact=True)
        return out

    # -- state ---------------------------------------------------------------------------
    def get_state(self) -> dict:
        return {"mode": self.mode, "cargo": self.cargo.get_state(),
                "market": self.market.get_state(), "driver": self.driver.get_state(),
                "marks": dict(self.marks),
                "digests": {a: {"bullets": list(d.bullets), "t": d.t, "marks": d.marks,
                                "source": d.source}
                            for a, d in self.digests.items()}}

    def set_state(self, s: dict) -> None:
        self.cargo.set_state(s["cargo"])
        self.market.set_state(s["market"])
        self.driver.set_state(s["driver"])
        self.marks = dict(s["marks"])
        self.digests = {a: Digest(tuple(d["bullets"]), d["t"], dict(d["marks"]), d["source"])
                        for a, d in s["digests"].items()}
