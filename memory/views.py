"""The four per-agent views: typed records the deterministic agents read, rendering to prompts.

A view holds structured sections (small, rendered each step) and, in `full` mode, raw fact
logs attached by reference with a start index; their tokens are summed from the logs' running
totals, so counting a month-long history costs O(1). Each memory mode prints its views with its
own `Renderer`: VERBOSE (every field) or COMPACT (compressed mode: short lines, the digest
holds the rest). `digest_source` is what a compressor reads, and each view writes its own
extractive digest (what the `deterministic` backend uses, and what replaces an ungrounded model
digest).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import ClassVar

from memory.driver_memory import ActionRecord
from memory.market_memory import GridFact
from memory.rule_progress import EmptyKmFine, Todo
from memory.time_price import UNPRICED, TimePrice
from memory.tokens import FactLog, TokenCounter
from sim.geo import Point
from sim.official.timebase import DAY
from sim.preferences.kinds import Kind
from sim.preferences.progress import hm
from sim.world.cargo import CargoView
from sim.world.order_costs import Option

NOWHERE = Point(0.0, 0.0)  # frozen, so one shared default is safe
DIGEST_CANDIDATES = 5  # what a cargo digest is built from
MAX_BULLETS = 5  # a digest's length, model-written or extractive

Sections = list[tuple[str, list[str]]]


def todo_words(t: Todo | None) -> str:
    """A due preference's action in words, with the fines it avoids (what views and digests
    print: a model weighs a rule's wait against an order only if it sees both prices)."""
    if t is None:
        return ""
    saves = f", saves {t.at_stake:.0f}" if t.at_stake < float("inf") else ""
    if t.cost:
        saves += f", forgoes {t.cost:.0f}"
    if t.action == "wait":
        return f"wait {t.minutes} min ({t.reason}{saves})"
    if t.action == "take":
        return f"take cargo {t.cargo_id} now, unseen ({t.reason}{saves})"
    return f"go to ({t.lat:.4f}, {t.lng:.4f}) ({t.reason}{saves})"




@dataclass(frozen=True, slots=True)
class Candidate:
    cargo: CargoView
    est_net: float
    empty_km: float
    status: str = "active"
    fine: float = 0.0  # what the driver's preference rules would fine this take (extra_penalty)
    busy_minutes: int = 0  # how long the take holds the truck (pickup, window, haul); 0: unknown
    # what its destination is worth for the next order against staying here (yuan; the
    # next pickup drive it saves, memory.place_worth); 0: not valued
    place: float = 0.0

    def with_busy(self, minutes: int, place: float = 0.0) -> Candidate:
        """This candidate holding the truck `minutes`, its destination worth `place`
        (`dataclasses.replace` costs three times as much, and a step sets it on every
        candidate)."""
        return Candidate(self.cargo, self.est_net, self.empty_km, self.status, self.fine, minutes,
                         place)

    def with_fine(self, fine: float) -> Candidate:
        """This candidate fined `fine` by the preference rules (as `with_busy`, without
        `dataclasses.replace`: a step fines every candidate the rules charge)."""
        return Candidate(self.cargo, self.est_net, self.empty_km, self.status, fine,
                         self.busy_minutes, self.place)

    def _net(self) -> str:
        """The net the step ranks by: after the rules' fine, which is named when there is one
        (a model cannot rank takes by a penalty it is not shown), the hours it takes (a model
        cannot weigh a long take against a short one without them) and what its destination
        is worth for the next order ("dest+18": a next pickup drive 18 yuan cheaper there)."""
        hours = f" {hm(self.busy_minutes)}" if self.busy_minutes else ""
        if self.place >= 0.5 or self.place <= -0.5:  # the step ranks by this too
            hours += f" dest{self.place:+.0f}"
        if not self.fine:
            return f"net~{self.est_net:.0f}{hours}"
        return f"net~{self.est_net - self.fine:.0f} (fined {self.fine:.0f}){hours}"

    def short_line(self) -> str:
        c = self.cargo
        return (f"{c.cargo_id} {self._net()} empty {self.empty_km:.0f}km "
                f"by t{c.load_end:.0f}")

    def line(self) -> str:
        c = self.cargo
        tag = "" if self.status == "active" else f" [{self.status}]"
        return (f"{c.cargo_id} ({c.origin.lat:.3f},{c.origin.lng:.3f})->({c.dest.lat:.3f},"
                f"{c.dest.lng:.3f}) price {c.price:.0f} window {c.load_start:.0f}-"
                f"{c.load_end:.0f} {self._net()} empty {self.empty_km:.0f}km{tag}")


@dataclass(frozen=True, slots=True)
class RestOption:
    """A wait from now that keeps rules a worked stretch would break: the fines it avoids
    over every rule at once, and what the minutes forgo at the driver's rate."""

    minutes: int
    saving: float
    cost: float = 0.0
    fines: float = 0.0  # what the rest itself breaks that a take's pricing would keep (weighed)

    @property
    def value(self) -> float:
        return self.saving - self.cost - self.fines

    @property
    def beside_takes(self) -> float:
        """The value to hold against a take's, which already carries the fines the rest
        saves (failure class "a rest valued twice"): what the minutes forgo and what the
        rest itself breaks."""
        return -self.cost - self.fines

    def line(self) -> str:
        fined = f", breaks {self.fines:.0f}" if self.fines else ""
        return (f"rest {self.minutes} min now: saves {self.saving:.0f}, forgoes "
                f"{self.cost:.0f}{fined}")


class Renderer:
    """How a memory mode prints a view: its title line and which of the view's sections."""

    name = "renderer"
    brief = False  # short lines; inputs from other agents drop what says nothing

    def title(self, v: View) -> str:
        raise NotImplementedError

    def sections(self, v: View) -> Sections:
        raise NotImplementedError


class Verbose(Renderer):
    """Every field, with coordinates and counts (`full` and `bounded`)."""

    name = "verbose"

    def title(self, v: View) -> str:
        return f"# {v.agent} memory view ({v.mode}) at t{v.now:.0f}\n"

    def sections(self, v: View) -> Sections:
        return v.verbose_sections()


class Compact(Renderer):
    """Short lines beside a digest (`compressed`): what the digest holds is not repeated."""

    name = "compact"
    brief = True

    def title(self, v: View) -> str:
        return f"# {v.agent} t{v.now:.0f}\n"

    def sections(self, v: View) -> Sections:
        return v.compact_sections()


VERBOSE, COMPACT = Verbose(), Compact()


@dataclass(frozen=True)
class View:
    agent: ClassVar[str] = "view"
    mode: str
    now: float
    digest: tuple[str, ...] = ()
    logs: tuple[tuple[str, FactLog, int], ...] = ()
    lessons: tuple[str, ...] = ()
    renderer: Renderer = VERBOSE
    only: tuple[str, ...] = ()  # render just these sections (a compressor's source)
    # the sections an agent's compressor reads: the rest is live state the digest need not hold
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ()

    def verbose_sections(self) -> Sections:
        raise NotImplementedError

    def compact_sections(self) -> Sections:
        raise NotImplementedError

    def extractive_digest(self) -> list[str]:
        """The digest a rule writes from this view's digest source (what a model is sent)."""
        raise NotImplementedError

    def shown_cells(self) -> frozenset[str]:
        """Grids this view shows beyond those the market memory has searched (a digest may
        name them too)."""
        return frozenset()

    def digest_source(self) -> View:
        """What the compressor is sent for this view: its digest sections, no raw logs."""
        return dataclasses.replace(self, only=self.DIGEST_SECTIONS, digest=(), logs=(),
                                   renderer=VERBOSE)

    def _sections_text(self) -> str:
        return "".join(x + "\n" for x in self._section_lines())

    def _section_lines(self) -> list[str]:
        """The sections' lines, each to be ended by a newline (what `_sections_text` joins)."""
        out = []
        for title, lines in self.renderer.sections(self):
            if lines and (not self.only or title in self.only):
                out.append(f"## {title}")
                out += lines
        if self.digest:
            out.append("## memory digest")
            out += [f"- {b}" for b in self.digest]
        if self.lessons:
            out.append("## lessons from earlier runs")
            out += [f"- {b}" for b in self.lessons]
        return out

    def head(self) -> str:
        return self.renderer.title(self) + self._sections_text()

    def body(self) -> str:
        """All but the title (which holds the time): equal bodies say the same thing."""
        return self._sections_text() + "".join(h + log.text(s)
                                               for h, log, s in self._log_headers())

    def _log_headers(self) -> list[tuple[str, FactLog, int]]:
        return [(f"## {name} ({len(log) - start} facts)\n", log, start)
                for name, log, start in self.logs if len(log) > start]

    def render(self) -> str:
        return self.head() + "".join(h + log.text(s) for h, log, s in self._log_headers())

    def tokens(self, counter: TokenCounter) -> int:
        by_lines = getattr(counter, "lines", None)  # a counter that sums lines (agents' calls)
        title = self.renderer.title(self)
        if by_lines is not None and title.endswith("\n") and title.count("\n") == 1:
            n = by_lines([title[:-1], *self._section_lines()])
        else:
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

    def shown_cells(self) -> frozenset[str]:
        return frozenset(g.cell for g in self.nearby)

    def cells(self) -> set[str]:
        """Every grid the view names: what a search answer may point at."""
        out = {g.cell for g in (*self.nearby, *self.grids, *self.avoid)}
        return out | ({self.here.cell} if self.here else set())

    def verbose_sections(self) -> Sections:
        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"queries today {self.queries_today} budget left {self.budget_left}"]),
            ("current grid", [self.here.line()] if self.here else []),
            ("nearby grids by value", [g.line() for g in self.nearby]),
            ("searched grids", [g.line() for g in self.grids]),
            ("avoid (low-yield streak)", [g.line() for g in self.avoid]),
            ("preference anchors", list(self.anchors)),
        ]

    def compact_sections(self) -> Sections:
        # grids by id only: a search answer names a grid ("here" is where the driver
        # stands), so neither the grids' nor the driver's coordinates are needed
        here = {self.here.cell} if self.here else set()
        near = [g for g in self.nearby if g.cell not in here]
        shown = here | {g.cell for g in near}
        return [
            ("state", [f"queries today {self.queries_today} budget left {self.budget_left}"]),
            ("current grid", [self.here.short_line()] if self.here else []),
            ("nearby grids by value", [g.short_line() for g in near]),
            ("searched grids since digest",
             [g.short_line() for g in self.grids if g.cell not in shown]),
            # a streak from before the digest is where the driver is now, not where it was
            ("avoid, repeated low yield", [g.short_line() for g in self.avoid if g.cell
                                           not in shown | {x.cell for x in self.grids}]),
        ]

    def extractive_digest(self) -> list[str]:
        out = []
        hot = [g for g in self.grids if g.streak == 0][:3]
        if hot:  # by id: a search answer names a grid, so its coordinates would be waste
            out.append("worth searching: " + "; ".join(f"{g.cell} value {g.value:.0f}"
                                                       for g in hot))
        if self.avoid:
            out.append("avoid, repeated low yield: " + "; ".join(
                f"{g.cell} streak {g.streak}" for g in self.avoid[:3]))
        spent = self.queries_today
        if self.budget_left < max(5, spent // 3):  # the live view has the counts; warn only
            out.append(f"query budget high: {spent} used today, {self.budget_left} left")
        out += [f"lesson: {x}" for x in self.lessons[:MAX_BULLETS - len(out)]]
        return out[:MAX_BULLETS] or ["nothing searched nearby yet"]


@dataclass(frozen=True)
class PreferenceView(View):
    """The driver's preferences as their RuleProgress states them (memory/rule_progress.py):
    one status line per rule (kind, ok / due / at risk / violated, what is kept or owed) and
    the first due rule's action."""

    agent: ClassVar[str] = "preference"
    digest_t: float = 0.0  # when the digest was written (compact views)
    rule_lines: tuple[str, ...] = ()  # each preference's status line (rule_progress)
    due_lines: tuple[str, ...] = ()  # the due / at-risk ones among them
    violated_lines: tuple[str, ...] = ()  # the ones already fined
    unscored: tuple[str, ...] = ()  # preferences no parser reads (the scorer skips them)
    todo_action: Todo | None = None  # what the first due rule asks for now
    time_price: TimePrice = UNPRICED  # what the driver's time earns (what a wait forgoes)
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("preference rules",)

    @property
    def todo(self) -> str:
        return todo_words(self.todo_action)

    def hints(self) -> list[str]:
        """The action due now, the due and at-risk rules, then those already fined (their own
        status lines: grounded); rules that are ok need no reminder."""
        todo = [f"do now: {self.todo}"] if self.todo else []
        return todo + list(self.due_lines) + list(self.violated_lines)

    def verbose_sections(self) -> Sections:
        rules = ([f"do now: {self.todo}"] if self.todo else []) + list(self.rule_lines)
        return [("preference rules", rules), ("unscored preferences", list(self.unscored))]

    def compact_sections(self) -> Sections:
        # the digest states each rule's status; show what changed since
        return [("changed since digest", [h for h in self.hints() if h not in self.digest])]

    def extractive_digest(self) -> list[str]:
        return self.hints()[:MAX_BULLETS] or ["no preferences"]


@dataclass(frozen=True)
class CargoAnalysisView(View):
    agent: ClassVar[str] = "cargo_analyst"
    position: Point = NOWHERE
    cost_per_km: float = 0.0
    candidates: tuple[Candidate, ...] = ()
    # what the driver may take now, by the memory's one feasibility check per step (not
    # rendered: the analyst ranks these; the candidates above are what it is shown)
    feasible: tuple[Option, ...] = ()
    failed_cargo_ids: tuple[str, ...] = ()
    stale_cargo_ids: tuple[str, ...] = ()
    unavailable_cargo_ids: tuple[str, ...] = ()
    # every id memory has seen leave the market (any status but active): never to be offered
    blocked_ids: AbstractSet[str] = frozenset()
    discarded_summary: dict = field(default_factory=dict)
    blacklist_summary: dict = field(default_factory=dict)
    # compressed mode: counts of ids dropped since the digest. Candidates there are only cargo
    # the driver can take, so no dropped id can be offered and listing each would be waste.
    dropped_since_digest: dict = field(default_factory=dict)
    time_price: TimePrice = UNPRICED  # what the driver's time earns (falsy: not priced)

    def digest_source(self) -> View:
        """The best few candidates in short lines and the summaries; no id lists."""
        return dataclasses.replace(self, candidates=self.candidates[:DIGEST_CANDIDATES],
                                   only=(), digest=(), logs=(), renderer=COMPACT,
                                   dropped_since_digest={})

    def verbose_sections(self) -> Sections:
        return [
            ("state", [f"position ({self.position.lat:.3f},{self.position.lng:.3f}) "
                       f"cost {self.cost_per_km:g}/km", *self.time_price.lines()[:1]]),
            ("candidate cargo", [c.line() for c in self.candidates]),
            ("failed_cargo_ids", _ids(self.failed_cargo_ids)),
            ("stale_cargo_ids", _ids(self.stale_cargo_ids)),
            ("unavailable_cargo_ids", _ids(self.unavailable_cargo_ids)),
            ("discarded_cargo_summary", _joined(self.discarded_summary)),
            ("blacklist_summary", _joined(self.blacklist_summary)),
        ]

    def compact_sections(self) -> Sections:
        # each line carries its net and empty km, so position and cost add nothing; the
        # live view leaves the summaries to the digest (empty there)
        return [
            ("candidate cargo, best first", [c.short_line() for c in self.candidates]),
            ("time", self.time_price.lines()[:1]),
            ("dropped since digest", _joined(self.dropped_since_digest)),
            ("discarded so far", _joined(self.discarded_summary)),
            ("blacklist", _joined(self.blacklist_summary)),
        ]

    def extractive_digest(self) -> list[str]:
        out = []
        if self.candidates:  # the live view lists today's candidates; the level is the hint
            out.append(f"best net at digest time ~{self.candidates[0].est_net:.0f}")
        if self.blacklist_summary:
            out.append("blacklist: " + ", ".join(f"{k} {v}"
                                                 for k, v in self.blacklist_summary.items()))
        d = {k: v for k, v in self.discarded_summary.items() if v}
        if d:
            out.append("discarded so far: " + ", ".join(f"{k} {v}" for k, v in d.items()))
        return out[:MAX_BULLETS] or ["no cargo seen yet"]


def _ids(xs: tuple[str, ...]) -> list[str]:
    return [" ".join(xs)] if xs else []


def _joined(d: dict) -> list[str]:
    text = ", ".join(f"{k} {v}" for k, v in d.items() if v)
    return [text] if text else []


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
    preference_flags: tuple[str, ...] = ()  # the preferences not ok (due, at risk, violated)
    recent_actions: tuple[ActionRecord, ...] = ()
    last_action: str = ""
    searches_in_row: int = 0
    waits_without_order: int = 0
    fruitless_searches: int = 0
    minutes_without_order: int = 0
    failed_takes: int = 0
    short_plan: str = ""
    time_price: TimePrice = UNPRICED  # what the driver's time earns (falsy: not priced)
    rests: tuple[RestOption, ...] = ()  # waits from now that avoid fines (priced)
    fences: tuple[Kind, ...] = ()  # rules about places alone: where a move may not end
    empty_km: tuple[EmptyKmFine, ...] = ()  # monthly deadhead budgets: what empty km cost
    DIGEST_SECTIONS: ClassVar[tuple[str, ...]] = ("recent actions", "patterns")

    def allows(self, lat: float, lng: float) -> bool:
        """Whether a move to (lat, lng) keeps every place rule (box, circle)."""
        p = Point(lat, lng)
        return all(f.allows_place(p) for f in self.fences)

    def move_fine(self, lat: float, lng: float) -> float:
        """The fines an empty move to (lat, lng) adds to the deadhead budgets (the logged
        reposition distance is the straight-line km)."""
        if not self.empty_km:
            return 0.0
        km = self.position.km_to(lat, lng)
        return sum(e.fine(km) for e in self.empty_km)

    def _fence_lines(self) -> list[str]:
        return ([f"moves keep: {type(f).hint(f.params)}" for f in self.fences]
                + [e.line() for e in self.empty_km])

    def _state(self) -> list[str]:
        return [f"t{self.now:.0f} day {int(self.now // DAY)} position "
                f"({self.position.lat:.3f},{self.position.lng:.3f}) income "
                f"{self.income:.0f} orders {self.orders} budget left {self.budget_left}",
                *self.time_price.lines()]

    def _here(self) -> str:
        return "unknown" if self.here_value is None else f"{self.here_value:.0f}"

    def verbose_sections(self) -> Sections:
        return [
            ("state", self._state()),
            ("market", [f"here value {self._here()}"]
             + ([f"best nearby {self.best_grid.line()}"] if self.best_grid else [])
             + self._fence_lines()),
            ("top candidates", [c.line() for c in self.top_candidates]),
            ("preferences", list(self.preference_flags)),
            ("rests that avoid fines", [r.line() for r in self.rests]),
            ("recent actions", [r.line() for r in self.recent_actions]),
            ("patterns", [f"searches in a row {self.searches_in_row}, "
                          f"waits without order {self.waits_without_order}, fruitless "
                          f"searches {self.fruitless_searches}, failed takes "
                          f"{self.failed_takes}, hours without order "
                          f"{self.minutes_without_order // 60}"]),
            ("last plan", [self.short_plan] if self.short_plan else []),
        ]

    def compact_sections(self) -> Sections:
        # the analyst's ranking and the preference advice arrive as inputs; a reposition
        # needs the best grid's coordinates, not its id; zero counters say nothing, and the
        # others are live here (a digest's count goes stale at the next failed take)
        g = self.best_grid
        counts = (("searches in a row", self.searches_in_row),
                  ("waits without order", self.waits_without_order),
                  ("fruitless searches", self.fruitless_searches),
                  ("failed takes", self.failed_takes),
                  ("hours without order", self.minutes_without_order // 60))
        return [
            ("state", self._state()),
            ("market", [f"here value {self._here()}"] + (
                [f"best nearby ({g.lat:.3f},{g.lng:.3f}) value {g.value:.0f}"] if g else [])
             + self._fence_lines()),
            ("rests that avoid fines", [r.line() for r in self.rests]),
            ("recent actions", [r.line() for r in self.recent_actions]),
            ("patterns", [", ".join(f"{k} {v}" for k, v in counts if v)]
             if any(v for _, v in counts) else []),
            ("last plan", [self.short_plan[:80]] if self.short_plan else []),
        ]

    def extractive_digest(self) -> list[str]:
        kinds: dict[str, int] = {}
        for r in self.recent_actions:
            kinds[r.action] = kinds.get(r.action, 0) + 1
        out = []
        if kinds:
            out.append(f"last {len(self.recent_actions)} actions: "
                       + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
        if self.failed_takes:
            out.append(f"{self.failed_takes} failed takes so far")
        return out or ["no actions yet"]
