"""K10: every step's logged before and after must lie inside the (inclusive) box."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Lat, Lng, Params, ParamsError, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import Pos, StepLog


@dataclass(frozen=True)
class BBox(Params):
    lat_min: Lat
    lat_max: Lat
    lng_min: Lng
    lng_max: Lng

    def check(self, where: str) -> None:
        if self.lat_min > self.lat_max:
            raise ParamsError(f"{where}.lat_min: greater than lat_max")
        if self.lng_min > self.lng_max:
            raise ParamsError(f"{where}.lng_min: greater than lng_max")

    def contains(self, p: Pos) -> bool:
        return self.lat_min <= p.lat <= self.lat_max and self.lng_min <= p.lng <= self.lng_max


class StayInsideBBox(Kind):
    name = "stay_inside_bbox"
    number = 10
    family = "geofence inside"
    model = PenaltyModel.COUNT
    Params = BBox

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        box = self.params
        bad = [s.index for s in log.steps if ctx.step_in_scope(s)
               and not (box.contains(s.before) and box.contains(s.after))]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: BBox) -> str:
        return (f"Keep the truck inside latitude {params.lat_min}-{params.lat_max}, longitude "
                f"{params.lng_min}-{params.lng_max} (every step ending or starting outside is "
                f"fined).")
