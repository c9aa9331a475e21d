"""K7: accepted takes with a straight-line haul above max_km are fined per order."""

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
    LIMIT,
    PICKUP,
    RADIUS,
    Claim,
    hit,
    km_after_limit,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MaxHaulParams(Params):
    max_km: Km


class MaxHaulKm(Kind):
    name = "max_haul_km"
    number = 7
    family = "mileage"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"公里|千米|km|kilomet")
    model = PenaltyModel.COUNT
    Params = MaxHaulParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.haul_km > self.params.max_km]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: MaxHaulParams) -> str:
        return (f"Take no order whose pickup-to-drop distance exceeds {params.max_km:g} km "
                f"(fined per order).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        km = km_after_limit(f)
        if km is None or not hit(f, LIMIT):
            return None
        score = 1.2 + 1.2 * hit(f, HAUL) + 0.6 * hit(
            f, r"距离|distance|trip|长途|long-distance|路程|两地")
        if hit(f, r"只接|只拉|只跑|only (?:take|haul|accept|loads?|orders?|jobs?)") and not hit(
                f, r"离我|离这|离家|附近|from (?:me|here|home)|nearby"):
            score += 0.6  # 只接200公里以内的活: the job itself is bounded
        if hit(f, EMPTY) or (hit(f, PICKUP) and not hit(f, HAUL)):
            score -= 1.0
        if hit(f, HERE):  # "within 20 km of where I am": the way to the pickup (K8)
            score -= 1.0
        if f.coords or hit(f, RADIUS):
            score -= 1.5
        return Claim("max_haul_km", score, {"max_km": km})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "order"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MaxHaulParams]:
        km = float(ctx.step(100, 400, 10))
        return Drawn(MaxHaulParams(max_km=km), {"km": f"{km:g}"})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"单笔订单装货点至卸货点不得超过{v['km']}公里。",
                f"装卸距离超过{v['km']}公里的单子不接。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"No single order with a haul longer than {v['km']} km from loading to unloading.",
                f"Maximum haul per order: {v['km']} km."]
