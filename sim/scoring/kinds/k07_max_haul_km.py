"""K7: accepted takes with a straight-line haul above max_km are fined per order."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Km, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MaxHaulParams(Params):
    max_km: Km


class MaxHaulKm(Kind):
    name = "max_haul_km"
    number = 7
    family = "mileage"
    model = PenaltyModel.COUNT
    Params = MaxHaulParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.haul_km > self.params.max_km]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: MaxHaulParams) -> str:
        return (f"Take no order whose pickup-to-drop distance exceeds {params.max_km:g} km "
                f"(fined per order).")
