"""The four per-agent views: typed records the deterministic agents read, rendering to prompts.

A view holds structured sections (small, rendered each step) and, in `full` mode, raw fact
logs attached by reference with a start index; their tokens are summed from the logs' running
totals, so counting a month-long history costs O(1). `compact` views (compressed mode) render
short lines and leave to the digest what it holds; `digest_source` is what a compressor reads.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar

from memory.market_memory import GridFact
from memory.tokens import FactLog, TokenCounter
from sim.cargo import CargoView
from sim.geo import Point
from sim.preferences import Preference, PrefKind

NOWHERE = Point(0.0, 0.0)  # frozen, so one shared default is safe
DIGEST_CANDIDATES = 5  # what a cargo digest is built from


def progress_facts(s: dict, skip: tuple[str, ...] = ("index", "kind", "text")) -> str:
    """A preference's progress snapshot as `key value, ...` (what views and digests print)."""
    return ", ".join(f"{k} {v}" for k, v in s.items() if k not in skip)


def place_of(p: Preference) -> str:
    """` <name> (lat,lng)` for each place of a preference (an answer may go there)."""
    pts = ([p.place] if p.place is not None else []) + list(p.steps)
    return "".join(f" {x.name} ({x.lat:.3f},{x.lng:.3f})" for x in pts)


def pref_hint(p: Preference, s: dict) -> str:
    """One preference's progress as a short hint (digests, and compact views for changes).

    Coordinates only where an answer may go (visit, errand); a zone to avoid needs its name."""
    if p.kind is PrefKind.REST_DAYS:
        return (f"rest days {s['rest_days_this_month']}/{s['required']} this month"
                + (", drove today" if s.get("drove_today") else ""))
    if p.kind is PrefKind.VISIT:
        return f"visit{place_of(p)} {s['visit_days_this_month']}/{s['required']} days this month"
    if p.kind is PrefKind.DAILY_EMPTY_KM:
        return f"empty km today {s['empty_km_today']:g}/{s['limit_km']:g}"
    if p.kind is PrefKind.NIGHT_NO_DRIVING:
        return f"no driving {p.start_hour:g}-{p.end_hour:g}h (broken {s['night_days']} days)"
    if p.kind is PrefKind.FORBIDDEN_ZONE and p.place is not None:
        return f"never enter {p.place.name} r{p.place.radius_km:g}km (entered {s['zone_entries']})"
    if p.kind is PrefKind.ERRAND:
        return f"errand{place_of(p)}: {s['errand_step']}/{s['steps']} stops done"
    return f"{p.kind}: {progress_facts(s)}"


@dataclass(frozen=True, slots=True)
class Candidate:
    cargo: CargoView
    est_net: float
    empty_km: float
    status: str = "active"

    def line(self, compact: bool = False) -> str:
        c = self.cargo
        if compact:
            return (f"{c.cargo_id} net~{self.est_net:.0f} empty {self.empty_km:.0f}km "
                    f"by t{c.load_end:.0f}")
        tag = "" if self.status == "active" else f" [{self.status}]"
        return (f"{c.cargo_id} ({c.origin.lat:.3f},{c.origin.lng:.3f})->({c.dest.lat:.3f},"
                f"{c.dest.lng:.3f}) price {c.price:.0f} window {c.load_start:.0f}-"
                f"{c.load_end:.0f} net~{self.est_net:.0f} empty {self.empty_km:.0f}km{tag}")


@dataclass(frozen=True)
class View:
    agent: ClassVar[str] = "view"
    mode: str
    now: float
    digest: tuple[str, ...] = ()
    logs: tuple[tuple[str, FactLog, int], ...] = ()
    lessons: tuple[str, ...] = ()
    compact: bool = False  # compressed mode: short lines, the digest carries the rest
    only: tuple[str, ...] = ()  # render just these sections (a compressor's source)
    # the sections an agent's compressor reads: the rest is live state the digest need not hold
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ()

    def sections(self) -> list[tuple[str, list[str]]]:
        raise NotImplementedError

    def digest_source(self) -> View:
        """What the compressor is sent for this view: its digest sections, no raw logs."""
        return dataclasses.replace(self, only=self.DIGEST_SECTIONS, digest=(), logs=(),
                                   compact=False)

    def head(self) -> str:
        parts = [f"# {self.agent} t{self.now:.0f}\n" if self.compact else
                 f"# {self.agent} memory view ({self.mode}) at t{self.now:.0f}\n"]
        for title, lines in self.sections():
            if lines and (not self.only or title in self.only):
                parts.append(f"## {title}\n" + "".join(x + "\n" for x in lines))
        if self.digest:
            parts.append("## memory digest\n" + "".join(f"- {b}\n" for b in self.digest))
        if self.lessons:
            parts.append("## lessons from earlier runs\n"
                         + "".join(f"- {b}\n" for b in self.lessons))
        return "".join(parts)

    def _log_headers(self) -> list[tuple[str, FactLog, int]]:
        return [(f"## {name} ({len(log) - start} facts)\n", log, start)
                for name, log, start in self.logs if len(log) > start]

    def render(self) -> str:
        return self.head() + "".join(h + log.text(s) for h, log, s in self._log_headers())

    def tokens(self, counter: TokenCounter) -> int:
        n = counter(self.head())
        for h, log, s in self._log_headers():
            n += counter(h) + log.tokens(s)
        return n

    @property
    def fact_lines(self) -> int:
        """How many raw facts ride along (what grows with history in `full`)."""
        return sum(max(0, len(log) - s) for _, log, s in self.logs)


@dataclass(frozen=True)
class SearchView(View):
    agent: ClassVar[str] = "search"
    position: Point = NOWHERE
    budget_left: int = 0
    queries_today: int = 0
    here: GridFact | None = None
    nearby: tuple[GridFact, ...] = ()
    grids: tuple[GridFact, ...] = ()
    avoid: tuple[GridFact, ...] = ()
    anchors: tuple[str, ...] = ()
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("state", "searched grids",
                                                  "avoid (low-yield streak)")

    def cells(self) -> set[str]:
        """Every grid the view names: what a search answer may point at."""
        out = {g.cell for g in (*self.nearby, *self.grids, *self.avoid)}
        return out | ({self.here.cell} if self.here else set())

    def sections(self) -> list[tuple[str, list[str]]]:
        if self.compact:
            # grids by id only: a search answer names a grid ("here" is where the driver
            # stands), so neither the grids' nor the driver's coordinates are needed
            here = {self.here.cell} if self.here else set()
            near = [g for g in self.nearby if g.cell not in here]
            shown = here | {g.cell for g in near}
            return [
                ("state", [f"queries today {self.queries_today} budget left {self.budget_left}"]),
                ("current grid", [self.here.line(True)] if self.here else []),
                ("nearby grids by value", [g.line(True) for g in near]),
                ("searched grids since digest",
                 [g.line(True) for g in self.grids if g.cell not in shown]),
            ]
        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"queries today {self.queries_today} budget left {self.budget_left}"]),
            ("current grid", [self.here.line()] if self.here else []),
            ("nearby grids by value", [g.line() for g in self.nearby]),
            ("searched grids", [g.line() for g in self.grids]),
            ("avoid (low-yield streak)", [g.line() for g in self.avoid]),
            ("preference anchors", list(self.anchors)),
        ]


@dataclass(frozen=True)
class PreferenceView(View):
    agent: ClassVar[str] = "preference"
    preferences: tuple[Preference, ...] = ()
    progress: tuple[dict, ...] = ()
    last_event: float | None = None
    digest_t: float = 0.0  # when the digest was written (compact views)
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("preferences and progress",)

    def sections(self) -> list[tuple[str, list[str]]]:
        prog = []
        for p, s in zip(self.preferences, self.progress, strict=False):
            where = place_of(p)
            where = f" |{where}" if where else ""
            prog.append(f"[{s['index']}] {p.kind}: {p.text}{where} | {progress_facts(s)} "
                        f"| penalty {p.penalty_amount:g} cap {p.penalty_cap:g}")
        last = [] if self.last_event is None else [f"last preference event t{self.last_event:.0f}"]
        if self.compact:  # the digest states each preference's progress; show what moved since
            hints = [pref_hint(p, s) for p, s in zip(self.preferences, self.progress,
                                                     strict=False)]
            since = self.last_event is not None and self.last_event > self.digest_t
            return [("changed since digest", [h for h in hints if h not in self.digest]),
                    ("recent", last if since else [])]
        return [("preferences and progress", prog), ("recent", last)]


@dataclass(frozen=True)
class CargoAnalysisView(View):
    agent: ClassVar[str] = "cargo_analyst"
    position: Point = NOWHERE
    cost_per_km: float = 0.0
    candidates: tuple[Candidate, ...] = ()
    failed_cargo_ids: tuple[str, ...] = ()
    stale_cargo_ids: tuple[str, ...] = ()
    unavailable_cargo_ids: tuple[str, ...] = ()
    discarded_summary: dict = field(default_factory=dict)
    blacklist_summary: dict = field(default_factory=dict)
    # compressed mode: counts of ids dropped since the digest. Candidates there are only cargo
    # the driver can take, so no dropped id can be offered and listing each would be waste.
    dropped_since_digest: dict = field(default_factory=dict)

    def digest_source(self) -> View:
        """The best few candidates in short lines and the summaries; no id lists."""
        return dataclasses.replace(self, candidates=self.candidates[:DIGEST_CANDIDATES],
                                   only=(), digest=(), logs=(), compact=True,
                                   dropped_since_digest={})

    def sections(self) -> list[tuple[str, list[str]]]:
        def ids(xs: tuple[str, ...]) -> list[str]:
            return [" ".join(xs)] if xs else []

        def joined(d: dict) -> list[str]:
            text = ", ".join(f"{k} {v}" for k, v in d.items() if v)
            return [text] if text else []

        if self.compact:
            # each line carries its net and empty km, so position and cost add nothing; the
            # live view leaves the summaries to the digest (empty there)
            return [
                ("candidate cargo, best net first", [c.line(True) for c in self.candidates]),
                ("dropped since digest", joined(self.dropped_since_digest)),
                ("discarded so far", joined(self.discarded_summary)),
                ("blacklist", joined(self.blacklist_summary)),
            ]
        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"cost {self.cost_per_km:g}/km"]),
            ("candidate cargo", [c.line() for c in self.candidates]),
            ("failed_cargo_ids", ids(self.failed_cargo_ids)),
            ("stale_cargo_ids", ids(self.stale_cargo_ids)),
            ("unavailable_cargo_ids", ids(self.unavailable_cargo_ids)),
            ("discarded_cargo_summary", joined(self.discarded_summary)),
            ("blacklist_summary", joined(self.blacklist_summary)),
        ]


@dataclass(frozen=True)
class MainDecisionView(View):
    agent: ClassVar[str] = "main_decision"
    position: Point = NOWHERE
    income: float = 0.0
    orders: int = 0
    budget_left: int = 0
    here_value: float | None = None
    best_grid: GridFact | None = None
    top_candidates: tuple[Candidate, ...] = ()
    preference_flags: tuple[str, ...] = ()
    recent_actions: tuple[str, ...] = ()
    last_action: str = ""
    searches_in_row: int = 0
    waits_without_order: int = 0
    fruitless_searches: int = 0
    failed_takes: int = 0
    short_plan: str = ""
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("recent actions", "patterns")

    def sections(self) -> list[tuple[str, list[str]]]:
        here = "unknown" if self.here_value is None else f"{self.here_value:.0f}"
        state = [f"t{self.now:.0f} day {int(self.now // 1440)} position "
                 f"({self.position.lat:.3f},{self.position.lng:.3f}) income "
                 f"{self.income:.0f} orders {self.orders} budget left {self.budget_left}"]
        if self.compact:
            # the analyst's ranking and the preference advice arrive as inputs; a reposition
            # needs the best grid's coordinates, not its id; zero counters say nothing
            g = self.best_grid
            counts = (("searches in a row", self.searches_in_row),
                      ("waits without order", self.waits_without_order),
                      ("fruitless searches", self.fruitless_searches))
            return [
                ("state", state),
                ("market", [f"here value {here}"] + (
                    [f"best nearby ({g.lat:.3f},{g.lng:.3f}) value {g.value:.0f}"] if g else [])),
                ("recent actions", list(self.recent_actions)),
                ("patterns", [", ".join(f"{k} {v}" for k, v in counts if v)]
                 if any(v for _, v in counts) else []),
                ("last plan", [self.short_plan[:80]] if self.short_plan else []),
            ]
        return [
            ("state", state),
            ("market", [f"here value {here}"]
             + ([f"best nearby {self.best_grid.line()}"] if self.best_grid else [])),
            ("top candidates", [c.line() for c in self.top_candidates]),
            ("preferences", list(self.preference_flags)),
            ("recent actions", list(self.recent_actions)),
            ("patterns", [f"searches in a row {self.searches_in_row}, "
                          f"waits without order {self.waits_without_order}, fruitless "
                          f"searches {self.fruitless_searches}, failed takes "
                          f"{self.failed_takes}"]),
            ("last plan", [self.short_plan] if self.short_plan else []),
        ]
