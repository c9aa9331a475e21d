"""K22: on a given day, reach the point (by arrive_by) and wait there min_dwell minutes."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import (
    HHMM,
    Counters,
    Date,
    Kind,
    Km,
    Lat,
    Lng,
    Minutes,
    Params,
    RuleContext,
)
from sim.scoring.kinds.common import dwell_after
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import Pos, StepLog
from sim.scoring.timebase import DAY, date_to_day, hhmm_to_minutes


@dataclass(frozen=True)
class DwellAtPointParams(Params):
    date: Date
    lat: Lat
    lng: Lng
    min_dwell_minutes: Minutes
    radius_km: Km = 2.0
    arrive_by: HHMM | None = None


class DwellAtPointOnDay(Kind):
    name = "dwell_at_point_on_day"
    number = 22
    family = "itinerary"
    model = PenaltyModel.ONCE
    Params = DwellAtPointParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        s = DAY * date_to_day(p.date)
        deadline = s + (hhmm_to_minutes(p.arrive_by) if p.arrive_by else DAY)

        def near(pos: Pos) -> bool:
            return pos.km_to(p.lat, p.lng) <= p.radius_km

        arrival = next((x.step_end for x in log.steps
                        if s <= x.step_end <= deadline and near(x.after)), None)
        if arrival is None:
            return {"arrival": None, "dwell_minutes": 0, "failed": True}
        dwell = dwell_after(log.steps, arrival, s + DAY, near)
        return {"arrival": arrival, "dwell_minutes": dwell,
                "failed": dwell < p.min_dwell_minutes}

    @classmethod
    def hint(cls, params: DwellAtPointParams) -> str:
        by = f" by {params.arrive_by}" if params.arrive_by else ""
        return (f"On {params.date} reach ({params.lat}, {params.lng}) within "
                f"{params.radius_km:g} km{by} and then wait there at least "
                f"{params.min_dwell_minutes} minutes in one go.")
