"""K18: take orders touching the place on at least min_days distinct start days (P-once)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MinRegionOrderDaysParams(Params):
    place: str
    min_days: Count


class MinRegionOrderDays(Kind):
    name = "min_region_order_days"
    number = 18
    family = "visit quota"
    model = PenaltyModel.ONCE
    Params = MinRegionOrderDaysParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        days = sorted({t.start_day for t in log.takes
                       if ctx.step_in_scope(t.step) and t.city_has(p.place)})
        return {"order_days": days, "failed": len(days) < p.min_days}

    @classmethod
    def hint(cls, params: MinRegionOrderDaysParams) -> str:
        return (f"Take orders loading or unloading in {params.place} on at least "
                f"{params.min_days} different days (several on one day count once).")
