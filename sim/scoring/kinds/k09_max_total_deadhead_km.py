"""K9: total empty km (repositions + pickup drives of accepted takes) above max_km, per km."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Km, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MaxTotalDeadheadParams(Params):
    max_km: Km


class MaxTotalDeadheadKm(Kind):
    name = "max_total_deadhead_km"
    number = 9
    family = "mileage"
    model = PenaltyModel.KM
    Params = MaxTotalDeadheadParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        total = log.deadhead_km([s for s in log.steps if ctx.step_in_scope(s)])
        return {"deadhead_km": total, "over_km": max(0.0, total - self.params.max_km)}

    @classmethod
    def hint(cls, params: MaxTotalDeadheadParams) -> str:
        return (f"Keep the month's empty driving (repositions plus pickup drives) within "
                f"{params.max_km:g} km; every km beyond is fined.")
