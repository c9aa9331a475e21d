"""The four per-agent views: typed records the deterministic agents read, rendering to prompts.

A view holds structured sections (small, rendered each step) and, in `full` and `compressed`
modes, raw fact logs attached by reference with a start index; their tokens are summed from
the logs' running totals, so counting a month-long history costs O(1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from memory.market_memory import GridFact
from memory.tokens import FactLog, TokenCounter
from sim.cargo import CargoView
from sim.geo import Point
from sim.preferences import Preference

NOWHERE = Point(0.0, 0.0)  # frozen, so one shared default is safe


def progress_facts(s: dict, skip: tuple[str, ...] = ("index", "kind", "text")) -> str:
    """A preference's progress snapshot as `key value, ...` (what views and digests print)."""
    return ", ".join(f"{k} {v}" for k, v in s.items() if k not in skip)


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

    def sections(self) -> list[tuple[str, list[str]]]:
        raise NotImplementedError

    def head(self) -> str:
        parts = [f"# {self.agent} memory view ({self.mode}) at t{self.now:.0f}\n"]
        for title, lines in self.sections():
            if lines:
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

    def sections(self) -> list[tuple[str, list[str]]]:
        near = [g for g in self.nearby if not self.here or g.cell != self.here.cell][:3] \
            if self.compact else list(self.nearby)
        shown = {g.cell for g in near} | ({self.here.cell} if self.here else set())
        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"queries today {self.queries_today} budget left {self.budget_left}"]),
            ("current grid", [self.here.line(self.compact)] if self.here else []),
            ("nearby grids by value", [g.line(self.compact) for g in near]),
            ("searched grids" + (" since digest" if self.compact else ""),
             [g.line(self.compact) for g in self.grids if not self.compact
              or g.cell not in shown]),
            ("avoid (low-yield streak)", [] if self.compact else [g.line() for g in self.avoid]),
            ("preference anchors", [] if self.compact else list(self.anchors)),
        ]


@dataclass(frozen=True)
class PreferenceView(View):
    agent: ClassVar[str] = "preference"
    preferences: tuple[Preference, ...] = ()
    progress: tuple[dict, ...] = ()
    last_event: float | None = None

    def sections(self) -> list[tuple[str, list[str]]]:
        prog = []
        for p, s in zip(self.preferences, self.progress, strict=False):
            prog.append(f"[{s['index']}] {p.kind}: {p.text} | {progress_facts(s)} | penalty "
                        f"{p.penalty_amount:g} cap {p.penalty_cap:g}")
        last = [] if self.last_event is None else [f"last preference event t{self.last_event:.0f}"]
        if self.compact and self.digest:  # the digest states each preference's progress
            prog = []
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

    def sections(self) -> list[tuple[str, list[str]]]:
        def ids(xs: tuple[str, ...]) -> list[str]:
            return [" ".join(xs)] if xs else []

        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"cost {self.cost_per_km:g}/km"]),
            ("candidate cargo", [c.line(self.compact) for c in self.candidates]),
            ("failed_cargo_ids", ids(self.failed_cargo_ids)),
            ("stale_cargo_ids", ids(self.stale_cargo_ids)),
            ("unavailable_cargo_ids", ids(self.unavailable_cargo_ids)),
            ("discarded_cargo_summary", [", ".join(f"{k} {v}" for k, v in
                                                   self.discarded_summary.items() if v)]
             if any(self.discarded_summary.values()) and not self.compact else []),
            ("blacklist_summary", [", ".join(f"{k} {v}" for k, v in
                                             self.blacklist_summary.items())]
             if self.blacklist_summary and not self.compact else []),
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

    def sections(self) -> list[tuple[str, list[str]]]:
        here = "unknown" if self.here_value is None else f"{self.here_value:.0f}"
        return [
            ("state", [f"t{self.now:.0f} day {int(self.now // 1440)} position "
                       f"({self.position.lat:.3f},{self.position.lng:.3f}) income "
                       f"{self.income:.0f} orders {self.orders} budget left {self.budget_left}"]),
            ("market", [f"here value {here}"]
             + ([f"best nearby {self.best_grid.line(self.compact)}"] if self.best_grid else [])),
            # compact: the analyst's ranking arrives as an input; no need to list them twice
            ("top candidates", [] if self.compact else [c.line() for c in self.top_candidates]),
            ("preferences", [] if self.compact else list(self.preference_flags)),
            ("recent actions", list(self.recent_actions)),
            ("patterns", [f"searches in a row {self.searches_in_row}, "
                          f"waits without order {self.waits_without_order}, fruitless "
                          f"searches {self.fruitless_searches}, failed takes "
                          f"{self.failed_takes}"]),
            ("last plan", [self.short_plan] if self.short_plan else []),
        ]
