"""K16: on a day with orders, the first must start strictly before `latest`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.official.timebase import DAY, hhmm_to_minutes
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock
from sim.preferences.kinds.params import Params
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts
from sim.typed_values import HHMM


@dataclass(frozen=True)
class FirstOrderDeadlineParams(Params):
    latest: HHMM


class FirstOrderDeadline(Kind):
    name = "first_order_deadline"
    number = 16
    family = "order timing"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"首单|首笔|头单|头一单|第一单|第一个|开工|开始|出车|first|start|begin|earliest|"
               r"kick off")
    model = PenaltyModel.COUNT
    Params = FirstOrderDeadlineParams
    scope = Scope.DAY

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

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if not f.clocks or not hit(f, r"first-order|first[\s-]+(?:order|job|load)|首单|第一单|"
                                      r"第一笔|首笔|首趟|头一单|第一个单|开工|开张|出第一|"
                                      r"first (?:order|job|load|pickup|take|booking|one)|"
                                      r"start work|begin work|start the day|earliest order|"
                                      r"first .{0,10}of the day"):
            return None
        score = 2.5 + 0.5 * hit(f, r"不得晚于|不晚于|不迟于|之前|以前|前|before|by|no later|"
                                   r"not later|latest")
        c = next((c for c in f.clocks if c.before), f.clocks[0])
        return Claim("first_order_deadline", score, {"latest": c.hhmm})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "day"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[FirstOrderDeadlineParams]:
        t = clock(int(ctx.step(7 * 60, 12 * 60, 30)))
        return Drawn(FirstOrderDeadlineParams(latest=t), {"t": t})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"这天接了单的话，首单开工不得晚于当天{v['t']}。",
                f"有活的日子，第一单要在{v['t']}之前开始。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"On days with orders, the first one starts before {v['t']}.",
                f"First order of a working day must begin earlier than {v['t']}."]
