"""K20: take at least min_orders of a category in a month; a previous shortfall carries over."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Month, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import month_of_minute


@dataclass(frozen=True)
class CarryFrom(Params):
    category: str
    month: Month
    min_orders: Count


@dataclass(frozen=True)
class MonthlyCategoryQuotaParams(Params):
    category: str
    month: Month
    min_orders: Count
    carry_from: CarryFrom | None = None


class MonthlyCategoryQuota(Kind):
    name = "monthly_category_quota"
    number = 20
    family = "KPI"
    model = PenaltyModel.SHORT
    Params = MonthlyCategoryQuotaParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params

        def count(category: str, month: str) -> int:
            return sum(1 for t in log.takes if ctx.step_in_scope(t.step)
                       and t.cargo.category == category
                       and month_of_minute(t.step.action_start) == month)

        c = count(p.category, p.month)
        shortfall = max(0, p.min_orders - c)
        carried = 0
        if p.carry_from is not None:
            cf = p.carry_from
            prev_short = max(0, cf.min_orders - count(cf.category, cf.month))
            carried = max(0, prev_short - count(cf.category, p.month))
        return {"count": c, "shortfall": shortfall, "carried": carried,
                "missing": shortfall + carried}

    @classmethod
    def hint(cls, params: MonthlyCategoryQuotaParams) -> str:
        carry = ""
        if params.carry_from:
            cf = params.carry_from
            carry = (f"; any {cf.category} orders still owed from {cf.month} (quota "
                     f"{cf.min_orders}) must be made up in {params.month} too")
        return (f"Take at least {params.min_orders} orders of category {params.category} in "
                f"{params.month} (fined per missing order{carry}).")
