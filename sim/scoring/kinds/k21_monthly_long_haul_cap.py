"""K21: per month, orders with cost time strictly above the threshold beyond max are fined."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Minutes, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import month_of_minute


@dataclass(frozen=True)
class MonthlyLongHaulCapParams(Params):
    threshold_minutes: Minutes
    max_per_month: Count


class MonthlyLongHaulCap(Kind):
    name = "monthly_long_haul_cap"
    number = 21
    family = "KPI"
    model = PenaltyModel.EXTRA
    Params = MonthlyLongHaulCapParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        per_month = Counter(month_of_minute(t.step.action_start) for t in log.takes
                            if ctx.step_in_scope(t.step)
                            and t.cargo.cost_time_minutes > p.threshold_minutes)
        extra = {m: n - p.max_per_month for m, n in sorted(per_month.items())
                 if n > p.max_per_month}
        return {"long_hauls": dict(sorted(per_month.items())), "extra": sum(extra.values())}

    @classmethod
    def hint(cls, params: MonthlyLongHaulCapParams) -> str:
        return (f"Take at most {params.max_per_month} orders a month whose loading+haul+unloading "
                f"time exceeds {params.threshold_minutes} minutes; each extra one is fined.")
