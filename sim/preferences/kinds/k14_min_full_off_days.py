"""K14: at least min_days scored days with no active minute at all (P-once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.common import off_days_progress
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Params
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import (
    MONTH,
    NO_ORDERS,
    OFF_FULL,
    Claim,
    hit,
    min_days,
    names_a_day,
)
from sim.preferences.text.evidence import MOTION_ALLOWED
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MinFullOffDaysParams(Params):
    min_days: Count


class MinFullOffDays(Kind):
    name = "min_full_off_days"
    number = 14
    family = "off days"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"整天|全天|不动|停驶|静止|歇|休|保养|检修|出车|空|whole|full|"
               r"entire|all day|off|not move|doesn't move|"
               r"parked|idle|rest")
    model = PenaltyModel.ONCE
    Params = MinFullOffDaysParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        off = [d for d in ctx.days if log.active_minutes(d) == 0]
        return {"off_days": len(off), "failed": len(off) < self.params.min_days}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        return not any(s.is_active for s in steps)  # waits leave every day off

    @classmethod
    def hint(cls, params: MinFullOffDaysParams) -> str:
        return (f"Keep at least {params.min_days} whole days (00:00-24:00) with no order and no "
                f"empty driving, failed takes included.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        busy_today = ctx.any_steps and ctx.tail(ctx.today).active_minutes(ctx.today) > 0
        return off_days_progress(self.params.min_days, ctx, counters, busy_today)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        n = min_days(f)
        if n is None or not (hit(f, OFF_FULL) or hit(f, NO_ORDERS)):
            return None
        score = 1.6 + 0.5 * hit(f, MONTH) + (0.8 if hit(f, OFF_FULL) else -0.5)
        if f.coords or f.places or f.categories or names_a_day(f):
            score -= 1.0
        if hit(f, MOTION_ALLOWED):  # empty moves allowed on those days: K13 (§8)
            score -= 1.5
        if f.durations and not hit(f, r"整天|全天|whole|full|entire"):  # 趴窝六个钟头: K1's hours
            score -= 1.0
        if len(f.clocks) >= 2 and not hit(f, r"整天|全天|完整|whole|full|entire|complete"):
            score -= 1.0  # 晚上11点到早上5点之间不出车: a nightly window (K3), not days off
        return Claim("min_full_off_days", score, {"min_days": n})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MinFullOffDaysParams]:
        n = int(ctx.step(2, min(6, max(2, ctx.days // 3)), 1))
        return Drawn(MinFullOffDaysParams(min_days=n), {"n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"每月至少{v['n']}个整天完全停驶，既不接单也不空车乱跑。",
                f"一个月要有{v['n']}天车处于静止，不出车，检修保养。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"At least {v['n']} full days a month with the truck not moving at all: no orders, "
                "no empty driving.",
                f"{v['n']} complete days off per month, truck parked from 00:00 to 24:00."]
