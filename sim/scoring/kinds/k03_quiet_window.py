"""K3: no take or reposition may overlap the daily window [start, end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.scoring.kinds.base import HHMM, Counters, Kind, Params, RuleContext
from sim.scoring.kinds.common import daily_window
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class QuietWindowParams(Params):
    start: HHMM
    end: HHMM
    count: Literal["per_day", "per_step"] = "per_day"


class QuietWindow(Kind):
    name = "quiet_window"
    number = 3
    family = "night/lunch window"
    model = PenaltyModel.COUNT
    Params = QuietWindowParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        # A wrapping window belongs to the day it starts (day 0's early morning is never checked).
        windows = [daily_window(d, p.start, p.end) for d in ctx.days]
        if p.count == "per_day":
            bad = [d for d, (a, b) in zip(ctx.days, windows, strict=True)
                   if log.active_overlaps(a, b)]
            return {"violations": len(bad), "violating_days": bad}
        steps = [s.index for s in log.active_steps
                 if any(max(s.action_start, a) < min(s.action_end, b) for a, b in windows)]
        return {"violations": len(steps), "violating_steps": steps}

    @classmethod
    def hint(cls, params: QuietWindowParams) -> str:
        unit = "day" if params.count == "per_day" else "order or move"
        return (f"Take no order and drive no empty move that overlaps {params.start}-{params.end}"
                f" (fined per {unit}); waiting is allowed.")
