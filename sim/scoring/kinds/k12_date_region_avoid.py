"""K12: on the listed days, no order touching the place and no move into the box."""

from __future__ import annotations

from dataclasses import dataclass

from sim.preftext.common import ENTER, REFUSE, Candidate, hit
from sim.preftext.extract import Facts, distinct_isos
from sim.scoring.kinds.base import Counters, Date, Kind, Params, ParamsError, RuleContext
from sim.scoring.kinds.k10_stay_inside_bbox import BBox
from sim.scoring.progress import Progress, ProgressContext, Scope
from sim.spec.penalties import PenaltyModel
from sim.spec.steps import ActionKind, StepLog
from sim.spec.timebase import DAY, date_to_day


@dataclass(frozen=True)
class DateRegionParams(Params):
    dates: list[Date]
    bbox: BBox | None = None
    place: str | None = None

    def check(self, where: str) -> None:
        if not self.dates:
            raise ParamsError(f"{where}.dates: expected at least one date")
        if self.bbox is None and self.place is None:
            raise ParamsError(f"{where}.place: a place or a bbox is required")


class DateRegionAvoid(Kind):
    name = "date_region_avoid"
    number = 12
    family = "named place + dates"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"不|别|avoid|no |not|never|don't|stay out|keep out|away|禁止")
    model = PenaltyModel.COUNT
    Params = DateRegionParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        days = [date_to_day(x) for x in p.dates]
        bad = []
        for s in log.steps:
            if s.action is ActionKind.WAIT or not ctx.step_in_scope(s):
                continue
            a, b = s.action_start, s.action_end
            if not any(max(a, DAY * d) < min(b, DAY * d + DAY) for d in days):
                continue
            if s.accepted:
                cargo = log.cargo.get(s.cargo_id or "")
                hit = p.place is not None and cargo is not None and (
                    p.place in cargo.start_city or p.place in cargo.end_city)
            else:
                hit = p.bbox is not None and (p.bbox.contains(s.before)
                                              or p.bbox.contains(s.after))
            if hit:
                bad.append(s.index)
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: DateRegionParams) -> str:
        where = params.place or "the given box"
        return (f"On {', '.join(params.dates)} take no cargo loading or unloading in {where} and "
                f"do not drive into that area.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Candidate | None:
        if not f.dates or not (f.places or f.bbox):
            return None
        if not hit(f, ENTER + "|" + REFUSE + r"|查车|检查|限行|管制|封路|别往|别去|不往|严查|查|"
                                             r"别接"):
            return None
        score = 2.8
        if f.durations and hit(f, r"停|待|留|呆|stay|spend|stop|wait|dwell"):
            score -= 1.0  # hours to spend at the place: a dwell (K22), not an avoidance
        return Candidate("date_region_avoid", score,
                         {"dates": distinct_isos(f.dates), "bbox": f.bbox,
                          "place": f.places[0].name_zh if f.places else None})
