"""K8: accepted takes whose pickup lies more than max_km from the truck are fined per order.

The distance is recomputed from the logged `before` to the cargo's start; the logged
`pickup_deadhead_km` is not used.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Km, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MaxPickupParams(Params):
    max_km: Km


class MaxPickupDeadheadKm(Kind):
    name = "max_pickup_deadhead_km"
    number = 8
    family = "mileage"
    model = PenaltyModel.COUNT
    Params = MaxPickupParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.pickup_km > self.params.max_km]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: MaxPickupParams) -> str:
        return (f"Take no order whose pickup is more than {params.max_km:g} km from where the "
                f"truck stands (fined per order).")
