"""K24: a family errand: wait at a pickup point, then go home and stay; absence is fined.

w0 starts the event, w1 ends the absence count and w_end ends the leave-early check; they are
independent parameters. Penalty = rate * absence minutes + A if the sequence fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import (
    Counters,
    Kind,
    Km,
    Lat,
    Lng,
    Minutes,
    Params,
    ParamsError,
    RuleContext,
    Wall,
)
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import ActionKind, Pos, StepLog
from sim.scoring.timebase import wall_to_minutes


@dataclass(frozen=True)
class HomeStayEventParams(Params):
    w0: Wall
    w1: Wall
    w_end: Wall
    pickup_lat: Lat
    pickup_lng: Lng
    home_lat: Lat
    home_lng: Lng
    min_pickup_dwell_minutes: Minutes
    rate_per_minute: Km  # yuan per minute, >= 0
    radius_km: Km = 1.0

    def check(self, where: str) -> None:
        if wall_to_minutes(self.w1) < wall_to_minutes(self.w0):
            raise ParamsError(f"{where}.w1: earlier than w0")
        if wall_to_minutes(self.w_end) < wall_to_minutes(self.w0):
            raise ParamsError(f"{where}.w_end: earlier than w0")


class HomeStayEvent(Kind):
    name = "home_stay_event"
    number = 24
    family = "itinerary"
    model = PenaltyModel.EVENT
    Params = HomeStayEventParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        w0, w1, w_end = (wall_to_minutes(x) for x in (p.w0, p.w1, p.w_end))

        def near_pk(pos: Pos) -> bool:
            return pos.km_to(p.pickup_lat, p.pickup_lng) <= p.radius_km

        def near_hm(pos: Pos) -> bool:
            return pos.km_to(p.home_lat, p.home_lng) <= p.radius_km

        pickup_done, run = None, 0
        for s in log.steps:
            if s.step_end <= w0:
                continue
            if s.action is ActionKind.WAIT:
                if near_pk(s.after):
                    run += s.exec
                    if run >= p.min_pickup_dwell_minutes:
                        pickup_done = s.step_end
                        break
                else:
                    run = 0
            elif not (near_pk(s.before) and near_pk(s.after)):
                run = 0
        home = next((s.step_end for s in log.steps if s.step_end >= w0 and near_hm(s.after)),
                    None)
        sequence_ok = pickup_done is not None and home is not None and pickup_done < home
        absence = sum(
            max(0, min(s.step_end, w1) - max(s.step_start, w0)) for s in log.steps
            if not (s.action is ActionKind.WAIT and near_hm(s.before) and near_hm(s.after)))
        left_early = home is not None and any(
            s.is_active and home <= s.step_start < w_end for s in log.steps)
        return {
            "pickup_done": pickup_done, "home_arrival": home, "sequence_ok": sequence_ok,
            "left_early": left_early, "absence_minutes": absence,
            "rate_per_minute": p.rate_per_minute,
            "failed": (not sequence_ok) or home is None or left_early,
        }

    @classmethod
    def hint(cls, params: HomeStayEventParams) -> str:
        return (f"From {params.w0}: first wait at least {params.min_pickup_dwell_minutes} min "
                f"within {params.radius_km:g} km of ({params.pickup_lat}, {params.pickup_lng}), "
                f"then go home ({params.home_lat}, {params.home_lng}) and stay without any move "
                f"or order until {params.w_end}; every minute away from home before {params.w1} "
                f"costs {params.rate_per_minute:g} yuan.")
