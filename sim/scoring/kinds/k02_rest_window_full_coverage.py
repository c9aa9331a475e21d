"""K2: the whole nightly window [start, end) must be rest, every scored day."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import HHMM, Counters, Kind, Params, RuleContext
from sim.scoring.kinds.common import daily_window
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog, covered
from sim.scoring.timebase import weekday


@dataclass(frozen=True)
class RestWindowParams(Params):
    start: HHMM
    end: HHMM
    weekend_start: HHMM | None = None


class RestWindowFullCoverage(Kind):
    name = "rest_window_full_coverage"
    number = 2
    family = "night window"
    model = PenaltyModel.COUNT
    Params = RestWindowParams

    def window(self, day: int) -> tuple[int, int]:
        p = self.params
        start = p.weekend_start if p.weekend_start and weekday(day) >= 5 else p.start
        return daily_window(day, start, p.end)

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = []
        for d in ctx.days:
            a, b = self.window(d)
            if covered(log.merged_rest, a, b) < b - a:
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: RestWindowParams) -> str:
        wk = f" ({params.weekend_start} on Saturday and Sunday)" if params.weekend_start else ""
        return (f"Be resting (waiting) for the whole span {params.start}{wk} to {params.end} "
                f"every night; any gap, work or empty drive in it breaks the rule for that night.")
