"""K17: end a step within r of the point on at least min_days distinct days (P-once)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Count, Counters, Kind, Km, Lat, Lng, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import DAY


@dataclass(frozen=True)
class MinVisitDaysParams(Params):
    lat: Lat
    lng: Lng
    min_days: Count
    radius_km: Km = 1.0


class MinVisitDays(Kind):
    name = "min_visit_days"
    number = 17
    family = "visit quota"
    model = PenaltyModel.ONCE
    Params = MinVisitDaysParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        # Over all steps of any action, not just D (§7.6); only a version that applies the
        # rule's window to this kind restricts the visit days to it.
        visit = sorted({s.step_end // DAY for s in log.steps
                        if s.after.km_to(p.lat, p.lng) <= p.radius_km
                        and (ctx.whole_log or ctx.in_window(s.step_end // DAY * DAY,
                                                            s.step_end // DAY * DAY + DAY))})
        return {"visit_days": visit, "failed": len(visit) < p.min_days}

    @classmethod
    def hint(cls, params: MinVisitDaysParams) -> str:
        return (f"Be within {params.radius_km:g} km of ({params.lat}, {params.lng}) on at least "
                f"{params.min_days} different days (several visits on one day count once).")
