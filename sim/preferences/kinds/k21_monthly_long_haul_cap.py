"""K21: per month, orders with cost time strictly above the threshold beyond max are fined."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.official.timebase import month_of_minute
from sim.preferences.kinds.base import Counters, Kind, RuleContext, takes_of
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Minutes, Params
from sim.preferences.kinds.wording import hours
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text import rx
from sim.preferences.text.common import LIMIT, MONTH, ORDERS, Claim, hit, int_before
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class MonthlyLongHaulCapParams(Params):
    threshold_minutes: Minutes
    max_per_month: Count


class MonthlyLongHaulCap(Kind):
    name = "monthly_long_haul_cap"
    number = 21
    family = "KPI"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"小时|钟头|hours?|hrs?|长途|远|long|\d+\s*h\b|over")
    model = PenaltyModel.EXTRA
    Params = MonthlyLongHaulCapParams
    scope = Scope.MONTH

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        per_month = Counter(month_of_minute(t.step.action_start) for t in log.takes
                            if ctx.step_in_scope(t.step)
                            and t.cargo.cost_time_minutes > p.threshold_minutes)
        extra = {m: n - p.max_per_month for m, n in sorted(per_month.items())
                 if n > p.max_per_month}
        return {"long_hauls": dict(sorted(per_month.items())), "extra": sum(extra.values())}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        limit = self.params.threshold_minutes
        return all(t.cargo.cost_time_minutes <= limit for t in takes_of(steps, cargo))

    @classmethod
    def hint(cls, params: MonthlyLongHaulCapParams) -> str:
        return (f"Take at most {params.max_per_month} orders a month whose loading+haul+unloading "
                f"time exceeds {params.threshold_minutes} minutes; each extra one is fined.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        status, fined = self.fined(penalty)
        n = sum(counters["long_hauls"].values())
        return status, f"long hauls {n} of {self.params.max_per_month} a month{fined}", None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        hs = list(f.durations)
        counts = int_before(f, ORDERS + r"|(?:a|per|each|every)\s+month|每月|每个月|/\s*月|"
                                        r"/\s*month")
        # "no more than 6 of those in a month": a bound with its orders said before it
        counts += [(int(m.group(1)), m.start(1)) for m in rx.finditer(
            r"(?:no more than|not more than|at most|max(?:imum)?(?: of)?|up to|only|just|"
            r"(?:limited|capped|restricted|held) to|capped at|(?:a )?(?:limit|cap) of)\s+"
            r"(\d+)\s+"
            r"(?:of (?:those|them|these)|such|allowed|permitted|"
            # for the whole month ("are limited to 2 for the whole month")
            r"(?:in|per|a|each|every|for|over)\s+(?:this\s+|the\s+)?(?:whole\s+|entire\s+|"
            r"full\s+)?month)",
            f.low)]
        if not hs or not counts or not hit(f, MONTH):
            return None
        # (points named: an itinerary's stops and stays, no long-haul cap)
        score = 2.0 - 1.5 * (len(f.coords) >= 2) + 0.6 * hit(
            f, r"远活|长途|大半天|长活|long|far|big job|超过|大于|超出|more than|over|exceed|"
               r"longer than") + 0.3 * hit(f, LIMIT)
        if f.categories:
            score -= 1.0
        # the threshold a comparison names ("time is over 10 hours"), not an anecdote's hours
        over = [h for h in hs if rx.search(r"over|more than|longer than|exceed|above|超过|以上|"
                                           r"大于|超出|逾", f.low[max(0, h[1] - 14):h[1]], re.I)]
        hs = over or hs
        after = [v for v, p in counts if p > hs[0][1]] or [counts[-1][0]]
        return Claim("monthly_long_haul_cap", score,
                         {"threshold_minutes": int(hs[0][0]), "max_per_month": after[0]})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MonthlyLongHaulCapParams]:
        t = int(ctx.step(5, 12, 1)) * 60
        n = int(ctx.step(1, 5, 1))
        return Drawn(MonthlyLongHaulCapParams(threshold_minutes=t, max_per_month=n),
                     {"h": hours(t), "n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"耗时超过{v['h']}小时的长途远活，每个月最多接{v['n']}单。",
                f"单笔超过{v['h']}小时的大半天活，一个月不超过{v['n']}单。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"At most {v['n']} orders a month that take longer than {v['h']} hours.",
                f"Long hauls (over {v['h']} hours): no more than {v['n']} per month."]
