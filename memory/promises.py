"""Promised cargo (K19 `must_take_cargo`): the driver knows the id and when it lists (the rule's
validity window opens at the listing), never where it is.

The competition takes any online cargo by id, seen or not (docs/competition.md §4.4), and a
failed try costs one minute. So the plan is: be free when the cargo lists, try the take at once,
and never try twice (a cargo a driver has tried leaves its pool for good). A take that would
still hold the truck when the cargo lists is charged the promise's fine, so the choice between
that take and the promise is made ahead, by price, rather than found out afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memory.rule_progress import RuleProgress, Todo
from sim.official.steps import ActionKind

KIND = "must_take_cargo"
LEAD_MINUTES = 60  # a listing this close is waited for rather than started away from
# a take ending this soon after the listing still finds the cargo online (the calibrated
# market's median time online is 85 minutes; docs/competition.md §9)
GRACE_MINUTES = 30


@dataclass(frozen=True, slots=True)
class Promise:
    index: int  # the rule's index among the driver's preferences
    cargo_id: str
    opens: int  # the listing minute (the window's start), on the rules' clock
    closes: int  # the window's end: a take after it no longer keeps the promise
    fine: float  # what missing it costs (the fine, within its cap)


def open_promises(rp: RuleProgress) -> Iterator[Promise]:
    """The promises not yet tried and not waived."""
    specs = [s for s in rp.rules if s.kind == KIND and s.index not in rp.waived]
    if not specs:
        return
    tried = {s.cargo_id for s in rp.steps if s.action is ActionKind.TAKE_ORDER}
    for spec in specs:
        if spec.rule is None:
            continue
        cid = str(getattr(spec.rule.params, "cargo_id", ""))
        if not cid or cid in tried:
            continue
        fine = spec.amount if not spec.cap else min(spec.amount, spec.cap)
        yield Promise(spec.index, cid, spec.window.start, spec.window.end, fine)


def promise_todo(rp: RuleProgress, now: float) -> Todo | None:
    """Take the promised cargo once it lists (blind: its place is unknown), or wait for a
    listing less than LEAD_MINUTES away; None when no promise is due."""
    for p in open_promises(rp):
        if p.opens <= now < p.closes:
            return Todo("take", f"promised cargo {p.cargo_id} is listed", cargo_id=p.cargo_id,
                        at_stake=p.fine)
        if 0 < p.opens - now <= LEAD_MINUTES:
            return Todo("wait", f"promised cargo {p.cargo_id} lists soon",
                        minutes=int(p.opens - now), at_stake=p.fine)
    return None


def promise_fine(rp: RuleProgress, cargo_id: str, start: float, end: float) -> float:
    """The fines of the promises a take of `cargo_id` from `start` to `end` (rules' clock)
    would miss: it starts before a listing (plus grace) and is still running after it."""
    return sum(p.fine for p in open_promises(rp) if p.cargo_id != cargo_id
               and start < p.opens + GRACE_MINUTES < min(end, p.closes))


__all__ = ["GRACE_MINUTES", "LEAD_MINUTES", "Promise", "open_promises", "promise_fine",
           "promise_todo"]
