"""K2: the whole nightly window [start, end) must be rest, every scored day."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog, covered
from sim.official.timebase import weekday
from sim.preferences.kinds.base import Counters, RuleContext
from sim.preferences.kinds.common import WindowKind, daily_window
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock
from sim.preferences.kinds.params import Params
from sim.preferences.progress import Scope
from sim.preferences.text import rx
from sim.preferences.text.common import (
    CONTINUOUS,
    REST,
    REST_OPTIONAL,
    REST_REQUIRED,
    SLEEP,
    Claim,
    fmt,
    hit,
    span,
)
from sim.preferences.text.extract import Facts
from sim.typed_values import HHMM

_WEEKEND = r"(?:周末|星期六|周六|礼拜六|双休|weekends?|saturdays?|\bsat\b)"


def _weekend_start(f: Facts, start: int) -> str | None:
    words = list(rx.finditer(_WEEKEND, f.low, re.I))
    if not words:
        return None
    m = words[0]
    tail = f.num[m.start():]
    later = rx.search(r"(?:晚|推迟|推后|延后|往后)\s*(\d+(?:\.\d+)?)\s*(?:个)?(?:小时|钟头)|"
                      r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*later|later by\s*(\d+(?:\.\d+)?)",
                      tail, re.I)
    if later:
        h = float(next(g for g in later.groups() if g))
        return fmt(start + round(h * 60))
    earlier = rx.search(r"(?:早|提前)\s*(\d+(?:\.\d+)?)\s*(?:个)?(?:小时|钟头)|"
                        r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*earlier", tail, re.I)
    if earlier:
        h = float(next(g for g in earlier.groups() if g))
        return fmt(start - round(h * 60))
    # the clock nearest after a weekend word (a calendar's title "Night rest - weekend" over
    # "Mon-Fri 22:00-05:00, Sat and Sun 23:30-05:00": not the weekdays' 22:00)
    firsts = [(c.start - w.end(), c) for w in words
              for c in [next((c for c in f.clocks if c.start > w.start()), None)] if c]
    if not firsts:
        return None
    c = min(firsts, key=lambda x: x[0])[1]
    # 周六周日晚上改成从11点半开始 beside a window from 22:00: a bare clock is the evening's,
    # as the window's start is
    if c.bare and c.minutes < 720 and start >= 720:
        return fmt(c.minutes + 720)
    return c.hhmm


@dataclass(frozen=True)
class RestWindowParams(Params):
    start: HHMM
    end: HHMM
    weekend_start: HHMM | None = None


class RestWindowFullCoverage(WindowKind):
    name = "rest_window_full_coverage"
    number = 2
    family = "night window"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"休息|歇|睡|停车|熄火|停着|躺|rest|sleep|asleep|bed|park|stop|engine off|off duty|"
               r"idle")
    model = PenaltyModel.COUNT
    Params = RestWindowParams
    scope = Scope.DAY
    doing = "rest"

    def window(self, day: int) -> tuple[int, int]:
        p = self.params
        start = p.weekend_start if p.weekend_start and weekday(day) >= 5 else p.start
        return daily_window(day, start, p.end)

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        bad = []
        for d in ctx.days:
            a, b = self.window(d)
            if covered(log.merged_rest, a, b) < b - a:
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: RestWindowParams) -> str:
        wk = f" ({params.weekend_start} on Saturday and Sunday)" if params.weekend_start else ""
        return (f"Be resting (waiting) for the whole span {params.start}{wk} to {params.end} "
                f"every night; any gap, work or empty drive in it breaks the rule for that night.")

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        sp = span(f)
        if sp is not None and sp[0].minutes == sp[1].minutes:  # 零点到二十四点: a whole day
            return None
        if sp is None or not hit(f, REST):
            return None
        score = 2.0 + 0.7 * hit(f, REST_REQUIRED) + 0.7 * hit(f, SLEEP)
        # the whole window kept at rest ("fully off the road, the whole stretch"): coverage
        score += 0.5 * (hit(f, REST_REQUIRED) and hit(f, CONTINUOUS))
        if hit(f, r"不算违规|可以停|停车.{0,6}(?:可以|没事|不算)|吃饭|午饭|午休|饭点|lunch|meal|"
                  r"dinner|(?:is|are) (?:fine|allowed|ok|okay)|停着等可以|没问题|"
                  r"(?:waiting|parking|resting|stopping) (?:is|are) (?:fine|allowed|ok)|"
                  r"may (?:wait|park|stop|rest)|can (?:wait|park|stop|rest)|"
                  r"allowed to (?:wait|park)"):
            score -= 1.0
        if f.coords or hit(f, r"回家|到家|home"):
            score -= 1.5
        # a dated trip's stops ("arrive by 08:00, dwell 40 min; arrive by 11:30"): its clocks
        # are arrival times, not a window kept every day (failure class "a day's itinerary
        # read as a daily rest": a blind driver rested 08:00-11:30 every morning, 10% of its
        # gross below the greedy's, when its stops' coordinates went unread)
        if hit(f, r"arriv|itinerar|\bstops?\s*\d|dwell|到达|停留|待够|行程|站点"):
            score -= 1.5
        if hit(f, REST_OPTIONAL):  # rest not asked for: a window without work (K3)
            score -= 2.0
        a, b = sp
        ws = _weekend_start(f, a.minutes)
        return Claim("rest_window_full_coverage", score,
                         {"start": a.hhmm, "end": b.hhmm, "weekend_start": ws})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "day"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[RestWindowParams]:
        start = int(ctx.pick([21 * 60, 21 * 60 + 30, 22 * 60, 22 * 60 + 30, 23 * 60, 0]))
        end = (start + int(ctx.step(5, 8, 1)) * 60) % 1440
        ws = clock(start + 60) if ctx.rng.random() < 0.3 else None
        return Drawn(RestWindowParams(start=clock(start), end=clock(end), weekend_start=ws),
                     {"s": clock(start), "e": clock(end), "ws": ws,
                      "next": "次日" if end <= start else ""})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        w = f"；周六周日从{v['ws']}开始" if v["ws"] else ""
        return [f"每天{v['s']}到{v['next']}{v['e']}是我的睡觉时间，必须停车熄火休息{w}。",
                f"每晚{v['s']}至{v['next']}{v['e']}全程停车休息，雷打不动{w}。",
                f"夜间{v['s']}—{v['next']}{v['e']}须在车上休息，不得行驶{w}。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        w = f" On Saturdays and Sundays it starts at {v['ws']}." if v["ws"] else ""
        return [f"I sleep every night from {v['s']} to {v['e']}: the truck must be parked the "
                f"whole time.{w}",
                f"Mandatory rest window {v['s']}-{v['e']} each night, fully parked.{w}"]
