"""K15: each order started on a day beyond max_orders is fined A (never capped)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Params
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text import rx
from sim.preferences.text.common import (
    DAILY,
    LIMIT,
    MONTH,
    ORDERS,
    Claim,
    hit,
    int_before,
    span,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MaxOrdersPerDayParams(Params):
    max_orders: Count


class MaxOrdersPerDay(Kind):
    name = "max_orders_per_day"
    number = 15
    family = "order count"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"单|活|趟|orders?|jobs?|loads?|trips?|runs?")
    model = PenaltyModel.EXTRA
    Params = MaxOrdersPerDayParams
    scope = Scope.DAY

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        per_day = Counter(t.start_day for t in log.takes)
        days = set(ctx.days)
        extra = {d: n - self.params.max_orders for d, n in sorted(per_day.items())
                 if d in days and n > self.params.max_orders}
        return {"extra": sum(extra.values()), "extra_by_day": extra}

    def daily_order_slots(self) -> int | None:
        return self.params.max_orders

    @classmethod
    def hint(cls, params: MaxOrdersPerDayParams) -> str:
        return (f"Start at most {params.max_orders} orders per calendar day; each extra order "
                f"is fined.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        status, fined = self.fined(penalty)
        n = sum(1 for t in ctx.tail(ctx.today).takes if t.start_day == ctx.today)
        line = f"orders today {n} of {p.max_orders}{fined}"
        if status is Status.OK and n >= p.max_orders:
            status = Status.AT_RISK
        return status, line, None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        vals = int_before(f, ORDERS) or [
            (int(m.group(1)), m.start()) for m in
            rx.finditer(r"(?:cap|limit|max(?:imum)?|上限|最多|(?:never|no|not) more than)\s*"
                        r"(?:is|为|是|:)?\s*(\d+)(?!\d|\.\d)", f.low)]
        # the count a limit word names (一天最多给我排2单), before a story's (一天跑了五单)
        bound = [(v, p) for v, p in vals
                 if rx.search(r"(?:最多|至多|顶多|不超过|不得超过|上限|max|at most|no more than|"
                              r"never more than|not more than|up to|cap)[^,，。;；]{0,6}$",
                              f.low[max(0, p - 14):p])]
        vals = bound or vals
        # the count said with its day ("4 orders a day"), before one said with other words
        # ("takes 1 hour to load")
        daily = [(v, p) for v, p in vals if rx.match(
            r"\d+\s*(?:orders?|jobs?|loads?|trips?|单|个单)\s*(?:a|per|each|every|/|每)\s*(?:day|天)",
            f.low[p:p + 30])]
        vals = daily or vals
        # 一单也不接 / 一单都没有: not one order, no daily limit
        vals = [(v, p) for v, p in vals
                if not rx.match(r"\d+\s*(?:单|个单)\s*(?:都|也)\s*(?:不|没|别)|1\s*单\s*不",
                                f.low[p:p + 10])]
        if not vals or not hit(f, DAILY + r"|同一天|同日|单日|一天之内|in a single day|on any day"):
            return None
        score = 1.8 + 0.6 * hit(f, LIMIT)
        if hit(f, MONTH) and not hit(f, DAILY):
            score -= 1.5
        # hours beside a plain daily cap ("takes 1 hour to load anyway, so cap it at 4 orders a
        # day") are the reason, not the rule
        capped = rx.search(r"\d+\s*(?:orders?|jobs?|loads?|单)\s*(?:a|per|each)\s*day|"
                           r"(?:每天|一天|每日)最多", f.low)
        if f.categories or (f.durations and not capped):
            score -= 1.0
        if span(f) is not None and not hit(f, r"单|orders?|jobs?|loads?|trips?"):
            score -= 1.5  # 01:00-04:30 不开车 (每天最多1次): a window's fine counted once a day
        return Claim("max_orders_per_day", score, {"max_orders": vals[0][0]})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MaxOrdersPerDayParams]:
        n = int(ctx.step(1, 5, 1))
        return Drawn(MaxOrdersPerDayParams(max_orders=n), {"n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"同一天接单不得超过{v['n']}单。", f"每天最多接{v['n']}单。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        o = "order" if v["n"] == 1 else "orders"
        return [f"No more than {v['n']} {o} on any one day.",
                f"Daily limit: {v['n']} {o}."]
