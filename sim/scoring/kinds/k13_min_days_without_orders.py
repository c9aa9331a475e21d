"""K13: at least min_days scored days on which no accepted take completes (P-once)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MinDaysWithoutOrdersParams(Params):
    min_days: Count


class MinDaysWithoutOrders(Kind):
    name = "min_days_without_orders"
    number = 13
    family = "off days"
    model = PenaltyModel.ONCE
    Params = MinDaysWithoutOrdersParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        worked = {t.end_day for t in log.takes}  # by completion day
        free = [d for d in ctx.days if d not in worked]
        return {"unworked_days": len(free), "failed": len(free) < self.params.min_days}

    @classmethod
    def hint(cls, params: MinDaysWithoutOrdersParams) -> str:
        return (f"Keep at least {params.min_days} days this month on which no order is "
                f"completed (a day counts as worked by the day an order finishes).")
