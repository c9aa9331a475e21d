"""K4: be within r of home at the curfew and stay inactive until quiet_until the next day."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import HHMM, Counters, Kind, Km, Lat, Lng, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import DAY, hhmm_to_minutes


@dataclass(frozen=True)
class HomeByCurfewParams(Params):
    lat: Lat
    lng: Lng
    curfew: HHMM
    quiet_until: HHMM
    radius_km: Km = 1.0


class HomeByCurfew(Kind):
    name = "home_by_curfew"
    number = 4
    family = "homing"
    model = PenaltyModel.COUNT
    Params = HomeByCurfewParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = []
        for d in ctx.days:
            t = DAY * d + hhmm_to_minutes(p.curfew)
            ended = [s for s in log.steps if s.step_end <= t]
            if ended:
                pos = ended[-1].after
            elif log.steps:
                pos = log.steps[0].before
            else:
                pos = ctx.initial
            away = pos is None or pos.km_to(p.lat, p.lng) > p.radius_km
            quiet_end = DAY * (d + 1) + hhmm_to_minutes(p.quiet_until)
            if away or log.active_overlaps(t, quiet_end):
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: HomeByCurfewParams) -> str:
        return (f"Be within {params.radius_km:g} km of home ({params.lat}, {params.lng}) by "
                f"{params.curfew} every day and take no order nor empty move until "
                f"{params.quiet_until} the next morning.")
