"""What each agent is shown, per view variant: one builder per agent, read off the stores.

A builder makes an agent's view three ways: `bounded` (bounded structured facts), `full` (the
same plus every raw fact log) and `compressed` (short lines beside that agent's digest). Memory
modes (memory/modes.py) choose the variant; the agents' registry hands the builders to the
MemoryAgent, so a new agent brings its own builder and memory needs no edit.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Protocol

from memory.cargo_memory import CargoMemory, Seen
from memory.driver_memory import DriverMemory
from memory.market_memory import MarketMemory
from memory.rule_progress import RuleProgress, Status
from memory.step_state import Digest, StepState
from memory.views import (
    COMPACT,
    CargoAnalysisView,
    MainDecisionView,
    PreferenceView,
    SearchView,
    View,
)

if TYPE_CHECKING:
    from memory.views import Candidate
    from sim.world.actions import Observation

TOP_CANDIDATES = 5
COMPRESSED_CANDIDATES = 5  # feasible ones: as many as the analyst ranks
COMPRESSED_NEARBY = 3  # neighbour grids beside the current one
COMPRESSED_RECENT = 3


class MemoryReader(Protocol):
    """What the views read of one driver's memory (memory.memory_agent.MemoryAgent is the one
    implementation): declared here so that the builders and the modes read it without
    importing the agent, which imports them."""

    mode: str
    cargo: CargoMemory
    driver: DriverMemory
    market: MarketMemory
    lessons: tuple[str, ...]
    rules: RuleProgress | None
    builders: dict[str, ViewBuilder]
    digests: dict[str, Digest]

    @property
    def logs(self) -> dict: ...

    def candidates(self, obs: Observation, records=None) -> list[Candidate]: ...

    def bounded_views(self, state: StepState) -> dict[str, View]: ...


class ViewBuilder(Protocol):
    def bounded(self, m: MemoryReader, s: StepState) -> View: ...

    def full(self, m: MemoryReader, s: StepState) -> View: ...

    def compressed(self, m: MemoryReader, s: StepState, digest: Digest) -> View: ...


def everything(m: MemoryReader) -> tuple:
    """Every fact log from its start (what `full` attaches to each view)."""
    return tuple((name, log, 0) for name, log in m.logs.items())


class SearchViews:
    def __init__(self) -> None:
        # each driver's anchors by its rules (fixed for a run), kept: every step shows them,
        # and reading them off the rules' params cost as much as the rest of the view
        self._anchors: dict[int, tuple[tuple, tuple[str, ...]]] = {}

    def anchors(self, m: MemoryReader) -> tuple[str, ...]:
        """The places the driver's preferences name (home, visit points, circles to avoid,
        itinerary stops), each with the rule's kind: where a search may or may not go."""
        if m.rules is None:
            return ()
        rules = m.rules.rules
        got = self._anchors.get(id(rules))
        if got is None or got[0] is not rules:  # (the tuple is kept, so its id is not reused)
            got = self._anchors[id(rules)] = (rules, _anchors(rules))
        return got[1]

    def build(self, m: MemoryReader, s: StepState, grids, avoid,
              neighbours: int | None = None, **kw) -> SearchView:
        """`neighbours`: how many of the ring's best grids worth a query now to keep beside the
        current one (None: the whole ring). The agent reads the same list the text shows."""
        obs, t = s.obs, s.obs.now
        here = m.market.fact(m.market.cell(obs.position.lat, obs.position.lng), t)
        near = m.market.ranked(obs.position, 1, t)  # the current grid and its ring
        if neighbours is not None:
            others = [g.cell for g in near
                      if g.cell != here.cell and g.worth_query(t)][:neighbours]
            near = [g for g in near if g.cell == here.cell or g.cell in others]
        return SearchView(
            mode=m.mode, now=t, position=obs.position, budget_left=obs.query_budget_left,
            queries_today=m.market.queries_today(t), here=here,
            nearby=tuple(near), grids=tuple(grids),
            avoid=tuple(avoid), anchors=self.anchors(m), lessons=m.lessons, **kw)

    def bounded(self, m: MemoryReader, s: StepState) -> View:
        local = m.market.local_facts(s.obs.position, 3, s.obs.now)
        return self.build(m, s, local, [g for g in local if g.streak >= 2])

    def full(self, m: MemoryReader, s: StepState) -> View:
        return self.build(m, s, m.market.all_facts(s.obs.now), m.market.avoid(),
                          logs=everything(m))

    def compressed(self, m: MemoryReader, s: StepState, digest: Digest) -> View:
        """The current grid, its best neighbours, the grids searched since the digest, and
        every nearby grid in a low-yield streak (few, and where the driver is now rather than
        where it was when the digest was written)."""
        t = s.obs.now
        facts = m.market.local_facts(s.obs.position, 3, t)
        local = {g.cell for g in facts}
        # the digest names the hot grids as they were; only grids searched since are news
        grids = [m.market.fact(c, t) for c, g in m.market.grids.items()
                 if g.last_t > digest.t and c in local]
        grids.sort(key=lambda f: (-f.value, f.cell))
        return self.build(m, s, grids, [g for g in facts if g.streak >= 2], COMPRESSED_NEARBY,
                          digest=digest.bullets, renderer=COMPACT)


def _anchors(rules: tuple) -> tuple[str, ...]:
    """`SearchViews.anchors` of one driver's rules (`RuleSpec`s), worked out."""
    out = []
    for spec in rules:
        d = spec.rule.params.to_dict() if spec.rule is not None else {}
        for obj in [d, *d.get("stops", [])]:
            for a, b in (("lat", "lng"), ("pickup_lat", "pickup_lng"),
                         ("home_lat", "home_lng")):
                if isinstance(obj.get(a), float) and isinstance(obj.get(b), float):
                    r = obj.get("radius_km", d.get("radius_km"))
                    out.append(f"#{spec.index} {spec.kind} ({obj[a]:.3f},{obj[b]:.3f})"
                               + (f" r{r:g}km" if isinstance(r, int | float) else ""))
    return tuple(out)


WAIVED_NOTE = " (broken knowingly: keeping it forgoes more than it can still cost)"
RELEASED_NOTE = (" (released: hours breaking it have earned more than hours keeping it, fines "
                 "paid; each step that breaks it still costs its fine)")


def _rule_note(rules: RuleProgress | None, index: int) -> str:
    """What a rule line adds when the rule is broken knowingly or released."""
    if rules is None:
        return ""
    return (WAIVED_NOTE if index in rules.waived else RELEASED_NOTE if index in rules.released
            else "")


class PreferenceViews:
    def build(self, m: MemoryReader, s: StepState, **kw) -> PreferenceView:
        unscored = () if m.rules is None else tuple(
            f"#{r.index} {r.text} ({r.unscored})" for r in m.rules.unscored)
        return PreferenceView(mode=m.mode, now=s.obs.now, lessons=m.lessons,
                              rule_lines=tuple(r.status_line() + _rule_note(m.rules,
                                                                            r.spec.index)
                                               for r in s.rules),
                              due_lines=tuple(r.status_line() for r in s.rules
                                              if r.status in (Status.DUE, Status.AT_RISK)),
                              violated_lines=tuple(r.status_line() for r in s.rules
                                                   if r.status is Status.VIOLATED),
                              unscored=unscored, todo_action=s.todo,
                              time_price=s.time_price, **kw)

    def bounded(self, m: MemoryReader, s: StepState) -> View:
        return self.build(m, s)

    def full(self, m: MemoryReader, s: StepState) -> View:
        return self.build(m, s, logs=everything(m))

    def compressed(self, m: MemoryReader, s: StepState, digest: Digest) -> View:
        """The digest states each rule's status; the view shows what changed since."""
        return self.build(m, s, digest=digest.bullets, digest_t=digest.t, renderer=COMPACT)


class CargoViews:
    def build(self, m: MemoryReader, s: StepState, cands, feasible, failed=(), stale=(),
              unavailable=(), **kw) -> CargoAnalysisView:
        kw.setdefault("discarded_summary", m.cargo.discarded_summary())
        kw.setdefault("blacklist_summary", m.cargo.blacklist_summary())
        obs = s.obs
        return CargoAnalysisView(
            mode=m.mode, now=obs.now, position=obs.position, cost_per_km=obs.cost_per_km,
            candidates=tuple(cands), feasible=tuple(feasible), failed_cargo_ids=tuple(failed),
            stale_cargo_ids=tuple(stale), unavailable_cargo_ids=tuple(unavailable),
            blocked_ids=m.cargo.blocked_ids, time_price=s.time_price, **kw)

    def bounded(self, m: MemoryReader, s: StepState) -> View:
        c = m.cargo
        return self.build(m, s, s.candidates, s.options, c.failed_cargo_ids, c.stale_cargo_ids,
                          c.unavailable_cargo_ids)

    def full(self, m: MemoryReader, s: StepState) -> View:
        c = m.cargo
        fines = {x.cargo.cargo_id: x.fine for x in s.candidates if x.fine}
        seen = [dataclasses.replace(x, fine=fines[x.cargo.cargo_id])
                if x.cargo.cargo_id in fines else x
                for x in m.candidates(s.obs, records=list(c.records.values()))]
        ids = {st: sorted(i for i, r in c.records.items() if r.status is st)
               for st in (Seen.FAILED, Seen.STALE, Seen.UNAVAILABLE)}
        return self.build(m, s, seen, s.options, ids[Seen.FAILED], ids[Seen.STALE],
                          ids[Seen.UNAVAILABLE], logs=everything(m))

    def compressed(self, m: MemoryReader, s: StepState, digest: Digest) -> View:
        """The feasible candidates only, and how many ids were dropped since the digest."""
        dropped = {st.value: 0 for st in (Seen.FAILED, Seen.STALE, Seen.UNAVAILABLE)}
        for r in m.cargo.discarded.values():
            if r.changed_at > digest.t and r.status.value in dropped:
                dropped[r.status.value] += 1
        n = COMPRESSED_CANDIDATES
        return self.build(m, s, s.feasible[:n], s.options[:n], digest=digest.bullets,
                          renderer=COMPACT, dropped_since_digest=dropped, discarded_summary={},
                          blacklist_summary={})


class MainViews:
    def build(self, m: MemoryReader, s: StepState, cands, recent, **kw) -> MainDecisionView:
        obs, t, d = s.obs, s.obs.now, m.driver
        here = m.market.stats(m.market.cell(obs.position.lat, obs.position.lng), t)
        best = m.market.best(obs.position, 2, t)
        return MainDecisionView(
            mode=m.mode, now=t, position=obs.position, income=obs.income, orders=obs.orders,
            budget_left=obs.query_budget_left, here_value=None if here is None else here.value,
            best_grid=best, top_candidates=tuple(cands),
            preference_flags=tuple(r.status_line() for r in s.rules if r.status is not Status.OK),
            recent_actions=tuple(recent),
            last_action=d.last_action, searches_in_row=d.searches_in_row,
            waits_without_order=d.waits_without_order, fruitless_searches=d.fruitless_searches,
            minutes_without_order=d.minutes_without_order(t),
            failed_takes=d.failed_takes, short_plan=d.short_plan, lessons=m.lessons,
            time_price=s.time_price,
            rests=tuple(sorted(s.rests, key=lambda r: (-r.value, r.minutes))[:2]),
            fences=() if m.rules is None else m.rules.place_rules(),
            empty_km=() if m.rules is None else m.rules.empty_km_fines(s.rules), **kw)

    def bounded(self, m: MemoryReader, s: StepState) -> View:
        return self.build(m, s, s.candidates[:TOP_CANDIDATES], m.driver.recent)

    def full(self, m: MemoryReader, s: StepState) -> View:
        return self.build(m, s, s.candidates[:TOP_CANDIDATES], m.driver.recent,
                          logs=everything(m))

    def compressed(self, m: MemoryReader, s: StepState, digest: Digest) -> View:
        """The market, the actions since the digest, and the digest.

        The last action is always shown: right after a digest none is newer, and the digest
        states patterns, not the step just taken that the next decision follows from."""
        recent = [r for r in m.driver.recent if r.t > digest.t][-COMPRESSED_RECENT:]
        if not recent and m.driver.recent:
            recent = [m.driver.recent[-1]]
        return self.build(m, s, s.feasible[:3], recent, digest=digest.bullets,
                          renderer=COMPACT)


# the four agents' builders, by agent name (the agents' registry passes its own)
BUILDERS: dict[str, ViewBuilder] = {
    "search": SearchViews(), "preference": PreferenceViews(), "cargo_analyst": CargoViews(),
    "main_decision": MainViews(),
}
