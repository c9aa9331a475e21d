"""K23: on a given day, visit the stops in order, each by its time, dwelling where required."""

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
    ParamsError,
    RuleContext,
)
from sim.scoring.kinds.common import dwell_after
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import Pos, StepLog
from sim.scoring.timebase import DAY, date_to_day, hhmm_to_minutes


@dataclass(frozen=True)
class Stop(Params):
    lat: Lat
    lng: Lng
    arrive_by: HHMM
    min_dwell_minutes: Minutes = 0


@dataclass(frozen=True)
class RouteStopsParams(Params):
    date: Date
    stops: list[Stop]
    radius_km: Km = 2.0

    def check(self, where: str) -> None:
        if not self.stops:
            raise ParamsError(f"{where}.stops: expected at least one stop")


class RouteStopsOnDay(Kind):
    name = "route_stops_on_day"
    number = 23
    family = "itinerary"
    model = PenaltyModel.ONCE
    Params = RouteStopsParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        s = DAY * date_to_day(p.date)
        t = 0
        arrivals: list[int | None] = []
        for i, stop in enumerate(p.stops):
            def near(pos: Pos, stop: Stop = stop) -> bool:
                return pos.km_to(stop.lat, stop.lng) <= p.radius_km

            by = s + hhmm_to_minutes(stop.arrive_by)
            arrival = next((x.step_end for x in log.steps
                            if x.step_end > t and s <= x.step_end <= by and near(x.after)), None)
            arrivals.append(arrival)
            if arrival is None:
                return {"arrivals": arrivals, "failed_stop": i + 1, "failed": True}
            if stop.min_dwell_minutes > 0:
                if dwell_after(log.steps, arrival, s + DAY, near) < stop.min_dwell_minutes:
                    return {"arrivals": arrivals, "failed_stop": i + 1, "failed": True}
                t = max(t, arrival + stop.min_dwell_minutes)
            else:
                t = max(t, arrival)
        return {"arrivals": arrivals, "failed_stop": None, "failed": False}

    @classmethod
    def hint(cls, params: RouteStopsParams) -> str:
        legs = "; then ".join(
            f"({x.lat}, {x.lng}) by {x.arrive_by}"
            + (f", waiting {x.min_dwell_minutes} min" if x.min_dwell_minutes else "")
            for x in params.stops)
        return f"On {params.date} visit, in this order, within {params.radius_km:g} km: {legs}."
