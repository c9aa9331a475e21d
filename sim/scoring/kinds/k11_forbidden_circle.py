"""K11: steps starting or ending within r of a centre are fined (per step, or A once)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.scoring.kinds.base import Counters, Kind, Km, Lat, Lng, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class ForbiddenCircleParams(Params):
    lat: Lat
    lng: Lng
    radius_km: Km
    mode: Literal["per_step", "once"] = "per_step"


class ForbiddenCircle(Kind):
    name = "forbidden_circle"
    number = 11
    family = "geofence outside"
    model = PenaltyModel.COUNT
    Params = ForbiddenCircleParams

    @property
    def penalty_model(self) -> PenaltyModel:
        return PenaltyModel.FLAT if self.params.mode == "once" else PenaltyModel.COUNT

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = [s.index for s in log.steps if ctx.step_in_scope(s) and (
            s.before.km_to(p.lat, p.lng) <= p.radius_km
            or s.after.km_to(p.lat, p.lng) <= p.radius_km)]
        return {"violations": len(bad), "failed": bool(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenCircleParams) -> str:
        how = "once" if params.mode == "once" else "per step"
        return (f"Never start or end a step within {params.radius_km:g} km of "
                f"({params.lat}, {params.lng}) "
                f"(fined {how}).")
