"""K1: every (week)day needs one continuous rest of at least min_minutes within that day."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.official.timebase import DAY, weekday
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Minutes, Params
from sim.preferences.kinds.wording import hours
from sim.preferences.progress import DUE_SLACK, Progress, ProgressContext, Scope, Status, Todo, hm
from sim.preferences.text import rx
from sim.preferences.text.common import (
    AT_LEAST,
    CONTINUOUS,
    DAILY,
    MONTH,
    REST,
    WEEKDAYS,
    Claim,
    hit,
    span,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class DailyContinuousRestParams(Params):
    min_minutes: Minutes
    days: Literal["all", "weekdays"] = "all"


class DailyContinuousRest(Kind):
    name = "daily_continuous_rest"
    number = 1
    family = "rest"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"休息|歇|睡|停车|熄火|躺|rest|break|sleep|off duty|downtime|stop|park|idle|觉|"
               r"stretch")
    model = PenaltyModel.COUNT
    Params = DailyContinuousRestParams
    scope = Scope.DAY

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = []
        for d in ctx.days:
            if p.days == "weekdays" and weekday(d) >= 5:
                continue
            longest = max((b - a for a, b in log.day_rest(d)), default=0)
            if longest < p.min_minutes:
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: DailyContinuousRestParams) -> str:
        which = "each weekday" if params.days == "weekdays" else "each calendar day"
        return (f"Rest (wait) at least {params.min_minutes} minutes in one continuous stretch "
                f"within {which}; a rest crossing midnight counts separately on each day.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        status, fined = self.fined(penalty)
        left = ctx.left_today
        best = self.longest_today(ctx)
        line = f"rest today {hm(best)} of {hm(p.min_minutes)} in one stretch{fined}"
        todo = None
        if best < p.min_minutes:
            need = p.min_minutes - ctx.resting_run()
            if need <= left and left - need <= DUE_SLACK:
                status, todo = Status.DUE, Todo("wait", "daily rest due", minutes=need)
            elif need > left:
                status = Status.AT_RISK if status is Status.OK else status
                line += " (too late today)"
        return status, line, todo

    @staticmethod
    def longest_today(ctx: ProgressContext) -> int:
        """Today's longest rest so far, clipped to the day (the test's L_d)."""
        return max((b - a for a, b in ctx.tail(ctx.today).day_rest(ctx.today)), default=0)

    def rest_ends(self, ctx: ProgressContext) -> tuple[int, ...]:
        """Today's stretch made up while it still fits before midnight; else, in the evening,
        tomorrow's whole stretch from midnight on (a rest crossing midnight counts on each
        day apart)."""
        p = self.params
        best = self.longest_today(ctx)
        need = p.min_minutes - ctx.resting_run()
        if best < p.min_minutes and need <= ctx.left_today:
            return (ctx.now + need,)
        if ctx.left_today <= DAY // 2:
            return ((ctx.today + 1) * DAY + p.min_minutes,)
        return ()

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if not f.durations or not hit(f, REST):
            return None
        score = 1.0 + hit(f, CONTINUOUS) + 0.5 * hit(f, DAILY) + 0.3 * hit(f, AT_LEAST)
        if span(f) is not None:
            score -= 1.5
        if hit(f, MONTH) and not hit(f, DAILY):
            score -= 1.0
        if f.coords or f.dates:
            score -= 1.0
        days = "weekdays" if hit(f, WEEKDAYS) else "all"
        # "每天24小时里" frames the day; it is not the rest length
        ds = [d for d, _ in f.durations if d < 1440] or [f.durations[0][0]]
        # "the doctor wanted 8 hours, we settled on 7: ... at least 7 hours": the length a
        # minimum word names, where one does
        least = [d for d, p in f.durations if d < 1440 and rx.search(
            AT_LEAST + r"|不少于|不低于", f.low[max(0, p - 14):p], re.I)]
        ds = least or ds
        return Claim("daily_continuous_rest", score, {"min_minutes": int(ds[0]), "days": days})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "day"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[DailyContinuousRestParams]:
        m = int(ctx.step(4, 10, 1)) * 60
        days = "weekdays" if ctx.rng.random() < 0.25 else "all"
        return Drawn(DailyContinuousRestParams(min_minutes=m, days=days),
                     {"h": hours(m), "weekdays": days == "weekdays"})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        wd = "工作日（周一至周五）" if v["weekdays"] else ""
        return [f"{wd or '每天'}我得有一整段不少于{v['h']}小时的连续休息，"
                "停车熄火，中间不能被打断。",
                f"{wd}每日连续停车休息时长不低于{v['h']}小时。",
                f"{wd}跑车再忙，一天里也要连着歇够{v['h']}个小时。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        when = "every weekday (Monday to Friday)" if v["weekdays"] else "every day"
        return [f"I need one continuous rest of at least {v['h']} hours {when}.",
                f"Rest rule: {when}, one uninterrupted stop of {v['h']} hours or more."]
