"""K18: take orders touching the place on at least min_days distinct start days (P-once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext, takes_of
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Params
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text import rx
from sim.preferences.text.common import (
    AT_LEAST,
    DAYS_N,
    PLACE_LOADS,
    REFUSE,
    Claim,
    hit,
    int_before,
    names_a_day,
    rule_place,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MinRegionOrderDaysParams(Params):
    place: str
    min_days: Count


class MinRegionOrderDays(Kind):
    name = "min_region_order_days"
    number = 18
    family = "visit quota"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"装|卸|单|活|货|load|unload|orders?|jobs?|cargo|pick|deliver|haul")
    model = PenaltyModel.ONCE
    Params = MinRegionOrderDaysParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        days = sorted({t.start_day for t in log.takes
                       if ctx.step_in_scope(t.step) and t.city_has(p.place)})
        return {"order_days": days, "failed": len(days) < p.min_days}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        p, known = self.params, set(base["order_days"])
        return all(t.start_day in known or not t.city_has(p.place)
                   for t in takes_of(steps, cargo))  # none there, or on a day counted

    @classmethod
    def hint(cls, params: MinRegionOrderDaysParams) -> str:
        return (f"Take orders loading or unloading in {params.place} on at least "
                f"{params.min_days} different days (several on one day count once).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        have = len(counters["order_days"])
        st = Status.OK if have >= p.min_days else (
            Status.AT_RISK if p.min_days - have >= ctx.days_left else Status.OK)
        return st, f"order days in {p.place} {have} of {p.min_days}", None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        ns = [v for v, _ in int_before(f, DAYS_N) if 0 < v <= 92] or [
            int(m.group(1)) for m in rx.finditer(
                r"(?:order days|接单日|days?|日子|天数)[^.;。；]{0,50}?(?:at least|至少|不少于|≥|"
                r">=)\s*(\d+)(?!\d|\.\d)", f.low)]
        if not ns or not f.places:
            return None
        score = 2.0 + 1.0 * hit(f, r"装货|卸货|装卸|loading|unloading|pickup|drop(?!\s+(?:by|in))|"
                                  r"start(?:s|ing)? or end(?:s|ing)?|"
                                  r"from or to|to or from|origin|destination|起点|终点|订单|单|"
                                  r"orders?|jobs?|loads?|cargo|" + PLACE_LOADS)
        if f.coords:
            score -= 1.0
        if names_a_day(f):
            score -= 1.5
        if hit(f, REFUSE) and not hit(f, r"至少|接够|不少于|at least|minimum|" + AT_LEAST):
            score -= 1.0
        return Claim("min_region_order_days", score,
                         {"place": rule_place(f).name_zh, "min_days": ns[0]})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MinRegionOrderDaysParams]:
        p, zh, en = ctx.place()
        n = int(ctx.step(2, min(6, max(2, ctx.days // 4)), 1))
        return Drawn(MinRegionOrderDaysParams(place=p, min_days=n),
                     {"p_zh": zh, "p_en": en, "n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"装货或卸货在{v['p_zh']}的货，每月要接够{v['n']}个不同的日子，"
                "同一天几单只算一天。",
                f"每月至少{v['n']}天接到装货地或卸货地在{v['p_zh']}的单。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"Take orders loading or unloading in {v['p_en']} on at least {v['n']} different "
                "days a month.",
                f"{v['p_en']} cargo (either end) on {v['n']}+ distinct days per month."]
