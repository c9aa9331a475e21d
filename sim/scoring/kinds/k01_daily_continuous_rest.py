"""K1: every (week)day needs one continuous rest of at least min_minutes within that day."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.scoring.kinds.base import Counters, Kind, Minutes, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import weekday


@dataclass(frozen=True)
class DailyContinuousRestParams(Params):
    min_minutes: Minutes
    days: Literal["all", "weekdays"] = "all"


class DailyContinuousRest(Kind):
    name = "daily_continuous_rest"
    number = 1
    family = "rest"
    model = PenaltyModel.COUNT
    Params = DailyContinuousRestParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = []
        for d in ctx.days:
            if p.days == "weekdays" and weekday(d) >= 5:
                continue
            longest = max((b - a for a, b in log.day_rest(d)), default=0)
            if longest < p.min_minutes:
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: DailyContinuousRestParams) -> str:
        which = "each weekday" if params.days == "weekdays" else "each calendar day"
        return (f"Rest (wait) at least {params.min_minutes} minutes in one continuous stretch "
                f"within {which}; a rest crossing midnight counts separately on each day.")
