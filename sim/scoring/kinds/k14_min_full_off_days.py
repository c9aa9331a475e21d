"""K14: at least min_days scored days with no active minute at all (P-once)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MinFullOffDaysParams(Params):
    min_days: Count


class MinFullOffDays(Kind):
    name = "min_full_off_days"
    number = 14
    family = "off days"
    model = PenaltyModel.ONCE
    Params = MinFullOffDaysParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        off = [d for d in ctx.days if log.active_minutes(d) == 0]
        return {"off_days": len(off), "failed": len(off) < self.params.min_days}

    @classmethod
    def hint(cls, params: MinFullOffDaysParams) -> str:
        return (f"Keep at least {params.min_days} whole days (00:00-24:00) with no order and no "
                f"empty driving, failed takes included.")
