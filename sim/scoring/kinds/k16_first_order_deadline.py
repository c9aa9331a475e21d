"""K16: on a day with orders, the first must start strictly before `latest`."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import HHMM, Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog
from sim.scoring.timebase import DAY, hhmm_to_minutes


@dataclass(frozen=True)
class FirstOrderDeadlineParams(Params):
    latest: HHMM


class FirstOrderDeadline(Kind):
    name = "first_order_deadline"
    number = 16
    family = "order timing"
    model = PenaltyModel.COUNT
    Params = FirstOrderDeadlineParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        first: dict[int, int] = {}
        for t in log.takes:
            first.setdefault(t.start_day, t.step.action_start)
            first[t.start_day] = min(first[t.start_day], t.step.action_start)
        late = hhmm_to_minutes(self.params.latest)
        bad = [d for d in ctx.days if d in first and first[d] >= DAY * d + late]
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: FirstOrderDeadlineParams) -> str:
        return (f"On any day you take orders, start the first one before {params.latest} "
                f"(starting exactly at {params.latest} is late).")
