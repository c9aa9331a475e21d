"""K6: accepted takes loading or unloading in a named place are fined per order."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class ForbiddenPlaceParams(Params):
    place: str


class ForbiddenCargoPlace(Kind):
    name = "forbidden_cargo_place"
    number = 6
    family = "named place"
    model = PenaltyModel.COUNT
    Params = ForbiddenPlaceParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.city_has(self.params.place)]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenPlaceParams) -> str:
        return (f"Do not take cargo whose pickup or drop city contains '{params.place}' "
                f"(fined per order).")
