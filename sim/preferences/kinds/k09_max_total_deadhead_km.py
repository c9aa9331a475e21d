"""K9: total empty km (repositions + pickup drives of accepted takes) above max_km, per km."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import ActionKind, Step, StepLog
from sim.preferences.kinds.base import (
    SUMS_CONTINUE,
    Counters,
    Kind,
    RuleContext,
)
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Km, Params
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text.common import (
    DAILY,
    EMPTY,
    MONTH,
    RADIUS,
    TOTAL,
    Claim,
    hit,
    hit_outside_caps,
    km_after_limit,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MaxTotalDeadheadParams(Params):
    max_km: Km


def _scoped_sums(log: StepLog, ctx: RuleContext) -> tuple[float, float]:
    """`StepLog.deadhead_km`'s two sums (repositions' km, accepted takes' pickup km) over the
    steps in scope, added in log order as `sum` adds them. A grown log continues its kept
    log's sums, worked out once per kept log and context: a what-if then reads only the
    steps it adds, not the month."""
    parts = log.grown_from()
    if parts is not None:
        base, new = parts
        memo = base.kind_memo
        got = memo.get(("k9", id(ctx)))
        if got is None or got[0] is not ctx:
            got = memo[("k9", id(ctx))] = (ctx, *_scoped_sums(base, ctx))
        reps, picks = got[1], got[2]
        steps = [s for s in new.steps if ctx.step_in_scope(s)]
    else:
        reps = picks = 0
        steps = [s for s in log.steps if ctx.step_in_scope(s)]
    for s in steps:
        if s.action is ActionKind.REPOSITION:
            reps = reps + s.distance_km
    for s in steps:
        if s.accepted:
            picks = picks + s.pickup_deadhead_km
    return reps, picks


class MaxTotalDeadheadKm(Kind):
    name = "max_total_deadhead_km"
    number = 9
    family = "mileage"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"公里|千米|km|kilomet")
    model = PenaltyModel.KM
    Params = MaxTotalDeadheadParams
    scope = Scope.MONTH

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        if SUMS_CONTINUE:
            reps, picks = _scoped_sums(log, ctx)
            total = reps + picks
        else:
            total = log.deadhead_km([s for s in log.steps if ctx.step_in_scope(s)])
        return {"deadhead_km": total, "over_km": max(0.0, total - self.params.max_km)}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        # only repositions and accepted takes add empty km
        return not any(s.action is ActionKind.REPOSITION or s.accepted for s in steps)

    @classmethod
    def hint(cls, params: MaxTotalDeadheadParams) -> str:
        return (f"Keep the month's empty driving (repositions plus pickup drives) within "
                f"{params.max_km:g} km; every km beyond is fined.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        status, fined = self.fined(penalty)
        used = counters["deadhead_km"]
        line = f"deadhead {used:,.0f} of {p.max_km:,.0f} km this month{fined}"
        if status is Status.OK and used > 0.8 * p.max_km:
            status = Status.AT_RISK
        return status, line, None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        km = km_after_limit(f)
        if km is None or not hit(f, EMPTY):
            return None
        score = 1.0 + 0.8 * hit_outside_caps(f, MONTH) + 0.8 * hit_outside_caps(f, TOTAL) \
            + 0.6 * hit(
            f, r"按公里|per km|per kilometre|per kilometer|每超(?:出)?\s*1?\s*公里|excess|"
               r"超出(?:去)?的?那?部分|"
               r"每公里|every (?:extra|additional) (?:km|kilomet)|"
               r"each (?:extra|additional) (?:km|kilomet)|(?:every|each|per) km over|km over")
        if hit(f, DAILY) and not hit(f, MONTH):
            score -= 1.0
        if f.coords or hit(f, RADIUS):
            score -= 1.5
        return Claim("max_total_deadhead_km", score, {"max_km": km})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MaxTotalDeadheadParams]:
        km = float(ctx.step(500, 2500, 100))
        return Drawn(MaxTotalDeadheadParams(max_km=km), {"km": f"{km:g}"})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"月度空驶（赶路）里程总和不得超过{v['km']}公里。",
                f"一个月空车跑的里程加起来不超过{v['km']}公里。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"Keep the month's total empty mileage at or below {v['km']} km.",
                f"Monthly deadhead budget: {v['km']} km."]
