"""K8: accepted takes whose pickup lies more than max_km from the truck are fined per order.

The distance is recomputed from the logged `before` to the cargo's start; the logged
`pickup_deadhead_km` is not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Km, Params
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import (
    EMPTY,
    HAUL,
    HERE,
    MONTH,
    PICKUP,
    RADIUS,
    Claim,
    hit,
    hit_outside_caps,
    km_after_limit,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MaxPickupParams(Params):
    max_km: Km


# a month's sum of empty km, in words (K9's, not a per-order bound)
SUM_WORDS = (r"总和|累计|加起来|加一起|加一块|加在一块|加在一起|合起来|一共|共计|总共|合计|加上|"
             r"总里程|总公里|里程|\btotal|altogether|\bsum\b|combined|added up|overall|\bplus\b|"
             r"mileage")


class MaxPickupDeadheadKm(Kind):
    name = "max_pickup_deadhead_km"
    number = 8
    family = "mileage"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"公里|千米|km|kilomet")
    model = PenaltyModel.COUNT
    Params = MaxPickupParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.pickup_km > self.params.max_km]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: MaxPickupParams) -> str:
        return (f"Take no order whose pickup is more than {params.max_km:g} km from where the "
                f"truck stands (fined per order).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        km = km_after_limit(f)
        if km is None or not (hit(f, PICKUP) or hit(f, EMPTY)):
            return None
        score = 1.2 + 1.0 * hit(f, PICKUP) + 0.5 * hit(f, EMPTY)
        if hit(f, HAUL) and not hit(f, EMPTY) and not hit(f, HERE):
            score -= 1.0
        # a month's sum (空驶累计, total empty km over the month), not "for the whole month"
        # nor a cap "for the month in total"
        if hit_outside_caps(f, MONTH) and hit_outside_caps(f, SUM_WORDS):
            score -= 1.5
        if hit(f, r"按公里|per km|per kilometre|per kilometer|每超(?:出)?\s*1?\s*公里|超出部分|"
                  r"excess|每公里"):
            score -= 0.8
        if hit(f, r"每单|每次|单次|一次|每一单|each (?:order|job|time)|per (?:order|job)|"
                  r"any single|单趟"):
            score += 0.5
        if f.coords or hit(f, RADIUS):
            score -= 1.5
        return Claim("max_pickup_deadhead_km", score, {"max_km": km})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "order"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MaxPickupParams]:
        km = float(ctx.step(15, 80, 5))
        return Drawn(MaxPickupParams(max_km=km), {"km": f"{km:g}"})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"接单后赶去装货点的空驶距离不能超过{v['km']}公里。",
                f"去装货那一程空车超过{v['km']}公里的单不接。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"The empty drive to a pickup must not exceed {v['km']} km.",
                f"Skip orders whose loading point is more than {v['km']} km away."]
