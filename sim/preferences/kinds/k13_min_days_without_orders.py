"""K13: at least min_days scored days on which no accepted take completes (P-once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext, takes_of
from sim.preferences.kinds.common import off_days_progress
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Params
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import (
    AT_LEAST,
    MONTH,
    NO_ORDERS,
    OFF_FULL,
    Claim,
    hit,
    min_days,
    names_a_day,
    span,
)
from sim.preferences.text.evidence import MOTION_ALLOWED
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MinDaysWithoutOrdersParams(Params):
    min_days: Count


class MinDaysWithoutOrders(Kind):
    name = "min_days_without_orders"
    number = 13
    family = "off days"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"不接|没单|无单|一单|单|放空|休|歇|假|orders?|jobs?|loads?|off|rest|free")
    model = PenaltyModel.ONCE
    Params = MinDaysWithoutOrdersParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        worked = {t.end_day for t in log.takes}  # by completion day
        free = [d for d in ctx.days if d not in worked]
        return {"unworked_days": len(free), "failed": len(free) < self.params.min_days}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        return not takes_of(steps, cargo)  # only a take works a day

    @classmethod
    def hint(cls, params: MinDaysWithoutOrdersParams) -> str:
        return (f"Keep at least {params.min_days} days this month on which no order is "
                f"completed (a day counts as worked by the day an order finishes).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        # K13 counts a day as worked by the day an order finishes
        busy_today = any(t.end_day == ctx.today for t in ctx.tail(ctx.today).takes)
        return off_days_progress(self.params.min_days, ctx, counters, busy_today)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        n = min_days(f)
        if n is None or not hit(f, NO_ORDERS):
            return None
        score = 1.8 + 0.5 * hit(f, MONTH) + 0.3 * hit(f, AT_LEAST)
        if hit(f, OFF_FULL) and not hit(f, MOTION_ALLOWED):  # empty moves allowed: still K13
            score -= 1.0
        if f.coords or f.places or f.categories or names_a_day(f):
            score -= 1.0
        if span(f) is not None:
            score -= 1.0
        if f.durations:  # "8 hours of rest a day ... 一个月最多罚…": hours are K1/K2's, not days
            score -= 1.0
        return Claim("min_days_without_orders", score, {"min_days": n})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MinDaysWithoutOrdersParams]:
        n = int(ctx.step(2, min(8, max(2, ctx.days // 3)), 1))
        return Drawn(MinDaysWithoutOrdersParams(min_days=n), {"n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"每个自然月至少{v['n']}个整天不接单。", f"一个月里要有{v['n']}天放空不接单。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"At least {v['n']} days a month without any orders.",
                f"Leave {v['n']} order-free days in each month."]
