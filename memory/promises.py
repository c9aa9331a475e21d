"""Promised cargo (K19 `must_take_cargo`): the driver knows the id and when it lists (the rule's
validity window opens at the listing), never where it is.

The competition takes any online cargo by id, seen or not (docs/competition.md §4.4), and a
failed try costs one minute. So the plan is: be free when the cargo lists, try the take at once,
and never try twice (a cargo a driver has tried leaves its pool for good). But the official
scorer aborts a driver whose log takes an id missing from the dataset, even a failed take (§6,
step 7): a misread id, or one from another market, would cost the whole month. So an id is
tried only once it has been seen in a query, or when it has the shape of the ids the queries
show (the same letters in the same places, as many digits). A take that would
still hold the truck when the cargo lists is charged the promise's fine, so the choice between
that take and the promise is made ahead, by price, rather than found out afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from memory.rule_progress import NEUTRAL_CARGO, RuleProgress, Todo
from sim.official.steps import ActionKind

KIND = "must_take_cargo"
LEAD_MINUTES = 60  # a listing this close is waited for rather than started away from
# a take ending this soon after the listing still finds the cargo online (the calibrated
# market's median time online is 85 minutes; docs/competition.md §9)
GRACE_MINUTES = 30
SHAPE_SAMPLE = 200  # the latest ids seen, whose shapes a promised id must match


@dataclass(frozen=True, slots=True)
class Promise:
    index: int  # the rule's index among the driver's preferences
    cargo_id: str
    opens: int  # the listing minute (the window's start), on the rules' clock
    closes: int  # the window's end: a take after it no longer keeps the promise
    fine: float  # what missing it costs (the fine, within its cap)


def id_shape(cargo_id: str) -> str:
    """C00177924 -> C99999999: what every id of one dataset has in common."""
    return re.sub(r"\d", "9", cargo_id)


def plausible(rp: RuleProgress, cargo_id: str) -> bool:
    """Seen in a query, or shaped like the ids the queries have shown."""
    if cargo_id in rp.cargo:
        return True
    latest = islice(reversed(rp.cargo), SHAPE_SAMPLE)
    shapes = {id_shape(c) for c in latest if c != NEUTRAL_CARGO}
    return id_shape(cargo_id) in shapes


def open_promises(rp: RuleProgress) -> Iterator[Promise]:
    """The promises not yet tried, not waived, and safe to try (`plausible`)."""
    specs = [s for s in rp.rules if s.kind == KIND and s.index not in rp.waived]
    if not specs:
        return
    tried = {s.cargo_id for s in rp.steps if s.action is ActionKind.TAKE_ORDER}
    for spec in specs:
        if spec.rule is None:
            continue
        cid = str(getattr(spec.rule.params, "cargo_id", ""))
        if not cid or cid in tried or not plausible(rp, cid):
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


def promise_fine(promises: Iterable[Promise], cargo_id: str, start: float, end: float
                 ) -> float:
    """The fines of the `promises` (`open_promises`, taken once a decision) a take of
    `cargo_id` from `start` to `end` (rules' clock) would miss: it starts before a listing
    (plus grace) and is still running after it."""
    return sum(p.fine for p in promises if p.cargo_id != cargo_id
               and start < p.opens + GRACE_MINUTES < min(end, p.closes))


__all__ = ["GRACE_MINUTES", "LEAD_MINUTES", "Promise", "id_shape", "open_promises", "plausible",
           "promise_fine", "promise_todo"]
