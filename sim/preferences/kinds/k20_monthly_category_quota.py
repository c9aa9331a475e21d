"""K20: take at least min_orders of a category in a month; a previous shortfall carries over."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.categories import CATEGORIES
from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.official.timebase import month_of_minute
from sim.preferences.kinds.base import Counters, Kind, RuleContext, takes_of
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Params
from sim.preferences.kinds.wording import en_month
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text import rx
from sim.preferences.text.common import AT_LEAST, MONTH, REFUSE, Claim, fine_unit, hit
from sim.preferences.text.extract import Facts, canonical_category, months
from sim.typed_values import Month

_QUOTA_N = re.compile(r"(?<![\d.])(\d+)\s*(?:个|笔)?\s*(?:[「『“\"][^」』”\"]{1,12}[」』”\"]\s*|"
                      r"(?:[a-z/&-]+\s+){0,3}(?:[(（][^)）]{1,12}[)）]\s*)?)?"
                      r"(?:单|笔|票|趟|orders?|jobs?|loads?|trips?)", re.I)


def _all_categories(f: Facts) -> list[tuple[str, int]]:
    out = []
    for m in rx.finditer(r"[「『“\"]([^」』”\"]{1,20})[」』”\"]", f.num):
        c = canonical_category(m.group(1))
        if c:
            out.append((c, m.start()))
    if out:
        return out
    return f.categories


@dataclass(frozen=True)
class CarryFrom(Params):
    tag = "carry"  # its name in the parsers' params table (sim/preferences/schema.py)

    category: str
    month: Month
    min_orders: Count


@dataclass(frozen=True)
class MonthlyCategoryQuotaParams(Params):
    category: str
    month: Month
    min_orders: Count
    carry_from: CarryFrom | None = None


class MonthlyCategoryQuota(Kind):
    name = "monthly_category_quota"
    number = 20
    family = "KPI"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"考核|指标|kpi|target|quota|至少|起码|不少于|满|够|at least|任务|完成|"
               r"minimum|goal|不低于|≥|>=|接单量|最少|最低|起码|wants?\b|要求|需要|need|"
               r"required|per missing|each missing")
    model = PenaltyModel.SHORT
    Params = MonthlyCategoryQuotaParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params

        def count(category: str, month: str) -> int:
            return sum(1 for t in log.takes if ctx.step_in_scope(t.step)
                       and t.cargo.category == category
                       and month_of_minute(t.step.action_start) == month)

        c = count(p.category, p.month)
        shortfall = max(0, p.min_orders - c)
        carried = 0
        if p.carry_from is not None:
            cf = p.carry_from
            prev_short = max(0, cf.min_orders - count(cf.category, cf.month))
            carried = max(0, prev_short - count(cf.category, p.month))
        return {"count": c, "shortfall": shortfall, "carried": carried,
                "missing": shortfall + carried}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        p = self.params
        counted = {p.category} | ({p.carry_from.category} if p.carry_from is not None else set())
        return all(t.cargo.category not in counted for t in takes_of(steps, cargo))

    @classmethod
    def hint(cls, params: MonthlyCategoryQuotaParams) -> str:
        carry = ""
        if params.carry_from:
            cf = params.carry_from
            carry = (f"; any {cf.category} orders still owed from {cf.month} (quota "
                     f"{cf.min_orders}) must be made up in {params.month} too")
        return (f"Take at least {params.min_orders} orders of category {params.category} in "
                f"{params.month} (fined per missing order{carry}).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, c = self.params, counters
        carry = f" (+{c['carried']} carried)" if c.get("carried") else ""
        line = f"quota {p.category} {c['count']} of {p.min_orders} in {p.month}{carry}"
        return (Status.AT_RISK if c["missing"] else Status.OK), line, None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        """Each month mention opens a segment holding its category and count; with carry wording
        the latest month is the rule and an earlier one is carry_from."""
        if not f.categories:
            return None
        counts = [(int(m.group(1)), m.start()) for m in _QUOTA_N.finditer(f.low)
                  if not fine_unit(f.low, m.start())
                  # "500 per missing order", "rmb 80 for each order short" are fines, not counts
                  and not rx.match(r"\d+\s*(?:yuan\s*)?(?:per|for each|for every)\b",
                                   f.low[m.start():])
                  and not rx.search(r"(?:rmb|cny|¥)\s*$", f.low[max(0, m.start() - 5):m.start()])
                  # "罚200元1单": the fine's unit
                  and not rx.search(r"[元块]\s*$", f.low[max(0, m.start() - 2):m.start()])]
        counts += [(int(m.group(1)), m.start()) for m in
                   rx.finditer(r"(?:quota|target|kpi|minimum|at least|no fewer than)\s*(?:of|:)?\s*"
                               r"(\d+)(?!\s*(?:yuan|rmb|cny|元|km|公里|hours?|minutes?|days?))",
                               f.low)]
        if not counts:
            return None
        score = 1.5 + 1.0 * hit(f, r"考核|kpi|指标|必须接满|接满|至少|不少于|起码|quota|target|"
                                   r"at least|"
                                  r"minimum|no fewer|完成|达到") + 0.3 * hit(f, MONTH)
        if hit(f, REFUSE) and not hit(f, AT_LEAST + r"|考核|kpi|quota"):
            score -= 1.5
        mentions = [(c, p) for c, p in _all_categories(f)]
        ms = months(f.num)
        bounds = [p for _, p in ms] + [len(f.low)]
        segs = []
        for i, (mo, p) in enumerate(ms):
            lo, hi = (0 if i == 0 else p), bounds[i + 1]
            cat = next((c for c, q in mentions if lo <= q < hi), None)
            if cat is None:  # "the 「建材」 orders I fell short on in May (May quota: 4)"
                before = [c for c, q in mentions if q < lo]
                cat = before[-1] if before else None
            cnt = next((v for v, q in counts if lo <= q < hi), None)
            if cat is not None and cnt is not None:
                segs.append((mo, cat, cnt))
        carry_words = hit(f, r"欠|补|carry|shortfall|make up|owed|owe|结转|顺延|累加|叠加|带到|"
                             r"backlog|"
                              r"\bleft\b|fell short|short on|on top|remaining|leftover|remainder|"
                              r"unfinished|没完成|未完成|没接够")
        if not segs:
            main = (ms[0][0] if ms else "2026-03", mentions[0][0], counts[0][0])
            return Claim("monthly_category_quota", score - 0.3,
                             {"category": main[1], "month": main[0], "min_orders": main[2],
                              "carry_from": None})
        main = max(segs, key=lambda g: g[0])
        carry = None
        earlier = [g for g in segs if g[0] < main[0]]
        if carry_words and earlier:
            prev = max(earlier, key=lambda g: g[0])
            carry = {"category": prev[1], "month": prev[0], "min_orders": prev[2]}
        elif not carry_words:
            main = segs[0]
        return Claim("monthly_category_quota", score,
                         {"category": main[1], "month": main[0], "min_orders": main[2],
                          "carry_from": carry})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MonthlyCategoryQuotaParams]:
        months = _months(ctx)
        cat = ctx.pick(list(CATEGORIES))
        n = int(ctx.step(2, 8, 1))
        carry = None
        i = int(ctx.rng.integers(len(months)))
        if i > 0 and ctx.rng.random() < 0.5:
            carry = CarryFrom(category=cat, month=months[i - 1], min_orders=int(ctx.step(2, 6, 1)))
        month = months[i]
        return Drawn(MonthlyCategoryQuotaParams(category=cat, month=month, min_orders=n,
                                                carry_from=carry),
                     {"cat": cat, "cat_en": CATEGORIES[cat], "n": n,
                      "carry": None if carry is None else carry.to_dict(),
                      "m_zh": f"{month[:4]}年{int(month[5:])}月", "m_en": en_month(month)})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        c = v["carry"]
        carry = (f"；{int(c['month'][5:])}月「{c['category']}」要求{c['min_orders']}单，"
                 "欠的单数接着补" if c else "")
        return [f"考核指标：{v['m_zh']}货源类型是「{v['cat']}」的货必须接满{v['n']}单{carry}。",
                f"{v['m_zh']}KPI：「{v['cat']}」类订单至少{v['n']}单{carry}。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        c = v["carry"]
        carry = ""
        if c:
            carry = (f"; any shortfall on {en_month(c['month'])}'s quota of {c['min_orders']} "
                     f"「{c['category']}」 orders carries over")
        return [f"KPI for {v['m_en']}: at least {v['n']} 「{v['cat']}」 ({v['cat_en']}) "
                f"orders{carry}.",
                f"In {v['m_en']} I must haul {v['n']} or more 「{v['cat']}」 loads{carry}."]


def _months(ctx: DrawContext) -> list[str]:
    """The horizon's months, 'YYYY-MM', in order."""
    out: list[str] = []
    for i in range(ctx.days):
        m = (ctx.start + dt.timedelta(days=i)).strftime("%Y-%m")
        if m not in out:
            out.append(m)
    return out
