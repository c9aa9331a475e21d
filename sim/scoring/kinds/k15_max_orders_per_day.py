"""K15: each order started on a day beyond max_orders is fined A (never capped)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MaxOrdersPerDayParams(Params):
    max_orders: Count


class MaxOrdersPerDay(Kind):
    name = "max_orders_per_day"
    number = 15
    family = "order count"
    model = PenaltyModel.EXTRA
    Params = MaxOrdersPerDayParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        per_day = Counter(t.start_day for t in log.takes)
        days = set(ctx.days)
        extra = {d: n - self.params.max_orders for d, n in sorted(per_day.items())
                 if d in days and n > self.params.max_orders}
        return {"extra": sum(extra.values()), "extra_by_day": extra}

    @classmethod
    def hint(cls, params: MaxOrdersPerDayParams) -> str:
        return (f"Start at most {params.max_orders} orders per calendar day; each extra order "
                f"is fined.")
