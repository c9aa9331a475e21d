"""K6: accepted takes loading or unloading in a named place are fined per order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Params
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import (
    LIMIT,
    REFUSE,
    Claim,
    hit,
    int_before,
    km_after_limit,
    rule_place,
)
from sim.preferences.text.extract import Facts

PLACE_ENDS = (r"装货地|卸货地|装货|卸货|装卸|起点|终点|发货地|收货地|目的地|始发|出发地|那一路|"
              r"进出|往返|来回|"
              r"发往|运往|去往|拉往|送往|到|从|来自|\bto\b|\bfrom\b|pickup|pick-up|drop|delivery|"
              r"loading|unloading|origin|destination|start|end|bound for|going to|coming from")


@dataclass(frozen=True)
class ForbiddenPlaceParams(Params):
    place: str


class ForbiddenCargoPlace(Kind):
    name = "forbidden_cargo_place"
    number = 6
    family = "named place"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"装|卸|货|单|活|load|unload|cargo|orders?|jobs?|pick|deliver|haul|drop|"
               r"origin|destination|from|to")
    model = PenaltyModel.COUNT
    Params = ForbiddenPlaceParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.city_has(self.params.place)]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenPlaceParams) -> str:
        return (f"Do not take cargo whose pickup or drop city contains '{params.place}' "
                f"(fined per order).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if not f.places or not hit(f, REFUSE):
            return None
        score = 1.8 + 0.8 * hit(f, PLACE_ENDS) + 0.4 * hit(f, r"货|cargo|loads?|orders?|jobs?|"
                                                              r"freight")
        if f.dates:
            score -= 1.5
        if int_before(f, r"个不同的日子|个不同的?(?:自然)?日|天|different days|days|个日子"):
            score -= 1.0
        if f.coords or f.radius is not None:
            score -= 1.0
        if km_after_limit(f) is not None and hit(f, LIMIT):
            score -= 1.0  # "keep it to 40 km max", Qingyuan named in passing: a distance rule
        if hit(f, r"家|home") and not hit(f, r"装|卸|货|cargo|loads?|orders?|freight"):
            score -= 1.0  # where I live, not where cargo goes
        return Claim("forbidden_cargo_place", score, {"place": rule_place(f).name_zh})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "order"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[ForbiddenPlaceParams]:
        p, zh, en = ctx.place()
        return Drawn(ForbiddenPlaceParams(place=p), {"p_zh": zh, "p_en": en})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"装货地或卸货地在{v['p_zh']}的货不接。",
                f"{v['p_zh']}那一路的货我不拉，装货卸货哪头在{v['p_zh']}都不行。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"I do not take cargo whose loading or unloading city is {v['p_en']}.",
                f"No loads that start or end in {v['p_en']}."]
