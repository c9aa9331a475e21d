"""Fact-recall probes: the facts a decision step depends on, and whether a view's text states them.

The deterministic agents read the views' structured fields, never their text, so a view could
drop every fact a model needs and no decision would move. These probes measure the text: at a
decision step they derive, from the driver's stores and the true world, the facts each agent's
decision depends on, and check whether the text that agent is shown states each one in a form a
reader can use (the id with its value, the grid id with its reason). The same facts are the
questions a model is asked (agents/app/evaluate.py), with exact-match answers.

Facts, and whose view must state them:
- best_cargo (cargo_analyst, main_decision): the best feasible cargo still open in the true
  world, stated as its id with its net (within rounding).
- no_offer (cargo_analyst, main_decision): failed, stale or unavailable cargo, and cargo memory
  holds as active that the world has already lost, among the nearest to the driver within the
  candidates' reach: stated when the text never offers it (the id is not shown with a net,
  except on a history line or a line tagged with its status).
- best_grid (search): the best grid of the driver's ring worth a query now, id with value.
- avoid_grid (search): grids near the driver in a low-yield streak (>= 2), id with its streak.
- budget (search, main_decision): the query budget left.
- preference (preference): each preference rule that is not ok (due, at risk, violated), from
  the driver's RuleProgress: stated as the rule's own status line head `#i kind [status]`.
- pattern (main_decision): the last action, and each non-zero counter of the action pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from memory.cargo_memory import Seen
from memory.memory_agent import MemoryAgent
from memory.rule_progress import Status
from sim.geo import great_circle_km

NO_OFFER_PER_STEP = 3  # the nearest few: a long tail of far ids would swamp the figure
AVOID_STREAK = 2  # what the views call a low-yield streak worth avoiding
NEAR_KM_DEFAULT = 30.0  # reach when the driver has no candidates

# a raw fact or action line (`t<minute> ...`): history, not an offer; and a candidate line
# tagged with a status that rules it out (`full` lists every cargo seen, tagged)
LOG_LINE = re.compile(r"(?m)^(?:t\d+ .*|.*\[(?:failed|stale|unavailable|taken)\].*)\n?")

Live = Callable[[str], bool]  # the true world: whether a cargo id can still be booked now


@dataclass(frozen=True)
class Fact:
    """One fact an agent's decision depends on: how to find it in a text, and as a question."""

    kind: str
    agent: str
    key: str
    question: str
    answer: str
    check: Callable[[str], bool]

    def stated(self, text: str) -> bool:
        return self.check(text)


def _num(x: str) -> float:
    return float(x)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= max(1.0, 0.01 * abs(b))


def with_value(key: str, label: str, value: float, same: Callable[[float, float], bool] = _near,
               stop: str = "\n}") -> Callable[[str], bool]:
    """True when `key` is followed on its line (or JSON object) by `label` and a number equal
    to `value` (within rounding): the id with its value, not the id alone."""
    rx = re.compile(rf"(?<![\w]){re.escape(key)}(?![\w])[^{stop}]*?{label}\W{{0,4}}"
                    r"(-?\d+(?:\.\d+)?)")

    def check(text: str) -> bool:
        return any(same(_num(m.group(1)), value) for m in rx.finditer(text))

    return check


def _equal(a: float, b: float) -> bool:
    return a == b


def rule_check(index: int, kind: str, status: str) -> Callable[[str], bool]:
    """A line naming this rule with its status, as RuleState.status_line writes it."""
    head = f"#{index} {kind} [{status}]"

    def check(text: str) -> bool:
        return head in text

    return check


def derive(m: MemoryAgent, live: Live) -> list[Fact]:
    """The facts of the driver's current step (after `MemoryAgent.step`), one per agent that
    needs each."""
    if m.last is None:
        return []
    s = m.last.state
    obs, t = s.obs, s.obs.now
    out: list[Fact] = []
    offerers = ("cargo_analyst", "main_decision")
    # the best feasible cargo the world still holds, with the net the step ranked it by (after
    # the penalty the preference rules would add to the take, when the driver has rules)
    best = next((i for i, c in enumerate(s.feasible) if live(c.cargo.cargo_id)), None)
    if best is not None:
        cid = s.feasible[best].cargo.cargo_id
        for a in offerers:
            out.append(Fact("best_cargo", a, cid, "Which cargo id is the best one the driver "
                            "can take now? Answer with the cargo id only.", cid,
                            with_value(cid, "net", s.options[best].net)))
    # cargo that must not be offered, nearest first, within the candidates' reach
    reach = max((c.empty_km for c in s.candidates), default=NEAR_KM_DEFAULT) + 1.0
    bad = [r for r in m.cargo.discarded.values()
           if r.status in (Seen.FAILED, Seen.STALE, Seen.UNAVAILABLE)]
    bad += [r for r in m.cargo.active.values() if not live(r.cargo.cargo_id)]
    ranked = sorted((great_circle_km(obs.position.lat, obs.position.lng, r.cargo.origin.lat,
                                   r.cargo.origin.lng), r.cargo.cargo_id) for r in bad)
    for _, cid in [x for x in ranked if x[0] <= reach][:NO_OFFER_PER_STEP]:
        offered = with_value(cid, "net", 0.0, lambda a, b: True)
        for a in offerers:
            out.append(Fact("no_offer", a, cid, f"May the driver take cargo {cid} now? "
                            "Answer yes or no.", "no",
                            lambda text, f=offered: not f(LOG_LINE.sub("", text))))
    # grids: the best worth a query now, and those to avoid
    ring = m.market.ranked(obs.position, 1, t)
    grid = next((g for g in ring if g.worth_query(t)), None)
    if grid is not None:
        out.append(Fact("best_grid", "search", grid.cell, "Which grid id is the best to "
                        "search now? Answer with the grid id only.", grid.cell,
                        with_value(grid.cell, "(?:value|prior)", round(grid.value),
                                   stop="\n;")))
    for g in m.market.local_facts(obs.position, 3, t):
        if g.streak >= AVOID_STREAK:
            out.append(Fact("avoid_grid", "search", g.cell, f"How many low-yield searches in "
                            f"a row has grid {g.cell} had? Answer with a number.",
                            str(g.streak), with_value(g.cell, "streak", g.streak, _equal,
                                                      stop="\n;")))
    # the query budget
    n = obs.query_budget_left
    rx_budget = re.compile(r"budget left (\d+)")
    for a in ("search", "main_decision"):
        out.append(Fact("budget", a, "budget", "How many search queries are left in the "
                        "budget? Answer with a number.", str(n),
                        lambda text, n=n: any(int(x) == n for x in rx_budget.findall(text))))
    # each preference rule not ok: what a decision must act on (memory/rule_progress.py)
    for r in s.rules:
        if r.status is Status.OK:
            continue
        out.append(Fact("preference", "preference", f"#{r.spec.index}",
                        f"What is the status of preference #{r.spec.index} ({r.spec.kind})? "
                        "Answer ok, due, at risk or violated.", str(r.status),
                        rule_check(r.spec.index, r.spec.kind, str(r.status))))
    # the recent action pattern
    d = m.driver
    if d.recent:
        last = d.recent[-1]
        line = last.line()
        out.append(Fact("pattern", "main_decision", "last_action", "What was the driver's "
                        "last action? Answer with one word.", last.action,
                        lambda text, line=line: line in text))
    for label, v in (("searches in a row", d.searches_in_row),
                     ("waits without order", d.waits_without_order),
                     ("fruitless searches", d.fruitless_searches),
                     ("failed takes", d.failed_takes)):
        if v:
            rx = re.compile(rf"{label} (\d+)|(\d+) {label}")
            out.append(Fact("pattern", "main_decision", label, f"How many {label} so far? "
                            "Answer with a number.", str(v),
                            lambda text, rx=rx, v=v: any(int(a or b) == v
                                                         for a, b in rx.findall(text))))
    return out


@dataclass
class Recall:
    """Probes stated / probes asked, overall and by agent and kind."""

    stated: int = 0
    asked: int = 0
    by_agent: dict[str, list[int]] = None  # type: ignore[assignment]
    by_kind: dict[str, list[int]] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.by_agent = {} if self.by_agent is None else self.by_agent
        self.by_kind = {} if self.by_kind is None else self.by_kind

    def add(self, facts: Iterable[Fact], texts: Mapping[str, str]) -> list[bool]:
        """Score facts against each agent's text; an agent with no text states nothing."""
        got = []
        for f in facts:
            ok = f.stated(texts.get(f.agent, ""))
            got.append(ok)
            self.stated += ok
            self.asked += 1
            for d, k in ((self.by_agent, f.agent), (self.by_kind, f.kind)):
                d.setdefault(k, [0, 0])
                d[k][0] += ok
                d[k][1] += 1
        return got

    @staticmethod
    def _r(x: list[int]) -> float:
        return round(x[0] / x[1], 4) if x[1] else 1.0

    def summary(self) -> dict:
        return {"recall": self._r([self.stated, self.asked]), "probes": self.asked,
                "by_agent": {k: self._r(v) for k, v in sorted(self.by_agent.items())},
                "by_kind": {k: self._r(v) for k, v in sorted(self.by_kind.items())},
                "probes_by_kind": {k: v[1] for k, v in sorted(self.by_kind.items())},
                "probes_by_agent": {k: v[1] for k, v in sorted(self.by_agent.items())}}
