"""Rest, night-window, homing, off-day and order-timing kinds (K1-K4, K13, K14, K16)."""

from __future__ import annotations

import re

from sim.preftext.common import (
    AT_LEAST,
    CONTINUOUS,
    DAILY,
    MONTH,
    NO_WORK,
    REST,
    REST_REQUIRED,
    SLEEP,
    WEEKDAYS,
    Candidate,
    fmt,
    hit,
    int_before,
    span,
)
from sim.preftext.extract import Facts

DAYS_UNIT = (r"个整天|整天|个自然日|自然日|天|日(?!期)|个[^\d,，。;；:]{0,5}?(?:日|天)|"
             r"(?:[a-z-]+\s+){0,3}days?\b")


def daily_continuous_rest(f: Facts) -> Candidate | None:
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
    return Candidate("daily_continuous_rest", score, {"min_minutes": int(ds[0]), "days": days})


def _weekend_start(f: Facts, start: int) -> str | None:
    m = re.search(r"(?:周末|星期六|周六|礼拜六|双休|weekends?|saturdays?)", f.low, re.I)
    if not m:
        return None
    tail = f.num[m.start():]
    later = re.search(r"(?:晚|推迟|推后|延后|往后)\s*(\d+(?:\.\d+)?)\s*(?:个)?(?:小时|钟头)|"
                      r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*later|later by\s*(\d+(?:\.\d+)?)",
                      tail, re.I)
    if later:
        h = float(next(g for g in later.groups() if g))
        return fmt(start + round(h * 60))
    earlier = re.search(r"(?:早|提前)\s*(\d+(?:\.\d+)?)\s*(?:个)?(?:小时|钟头)|"
                        r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*earlier", tail, re.I)
    if earlier:
        h = float(next(g for g in earlier.groups() if g))
        return fmt(start - round(h * 60))
    for c in f.clocks:
        if c.start > m.start():
            return c.hhmm
    return None


def rest_window_full_coverage(f: Facts) -> Candidate | None:
    sp = span(f)
    if sp is None or not hit(f, REST):
        return None
    score = 2.0 + 0.7 * hit(f, REST_REQUIRED) + 0.7 * hit(f, SLEEP)
    if hit(f, r"不算违规|可以停|停车.{0,6}(?:可以|没事|不算)|吃饭|午饭|午休|饭点|lunch|meal|dinner|"
              r"(?:is|are) (?:fine|allowed|ok|okay)|停着等可以|没问题|"
              r"(?:waiting|parking|resting|stopping) (?:is|are) (?:fine|allowed|ok)|"
              r"may (?:wait|park|stop|rest)|can (?:wait|park|stop|rest)|allowed to (?:wait|park)"):
        score -= 1.0
    if f.coords or hit(f, r"回家|到家|home"):
        score -= 1.5
    a, b = sp
    ws = _weekend_start(f, a.minutes)
    return Candidate("rest_window_full_coverage", score,
                     {"start": a.hhmm, "end": b.hhmm, "weekend_start": ws})


def quiet_window(f: Facts) -> Candidate | None:
    sp = span(f)
    if sp is None or not hit(f, NO_WORK):
        return None
    score = 2.2
    if hit(f, r"不算违规|可以停|吃饭|午饭|午休|饭点|lunch|meal|dinner|may (?:wait|park|stop|rest)|"
              r"(?:is|are) (?:fine|allowed|ok|okay)|停着等可以|"
              r"can (?:wait|park|stop|rest)|(?:waiting|parking) (?:is|are) (?:fine|allowed|ok)|"
              r"空驶|空车|空跑|empty|deadhead"):
        score += 0.8
    if f.coords or hit(f, r"回家|到家|\bhome\b"):
        score -= 1.5
    if hit(f, r"首单|第一单|first (?:order|job|load)"):
        score -= 1.5
    a, b = sp
    daytime = 6 * 60 <= a.minutes < b.minutes <= 20 * 60
    meal = hit(f, r"吃饭|午饭|午休|饭点|晚饭|lunch|meal|dinner")
    return Candidate("quiet_window", score,
                     {"start": a.hhmm, "end": b.hhmm,
                      "count": "per_step" if daytime or meal else "per_day"})


def home_by_curfew(f: Facts) -> Candidate | None:
    if not hit(f, r"回家|到家|家里|家附近|自家|家门|在家|老家|\bhome\b|\bhouse\b") or not f.clocks:
        return None
    if hit(f, r"每分钟|per minute|a minute|each minute"):
        return None
    pt = f.coords[0] if f.coords else None
    lat = pt.lat if pt else (f.places[0].lat if f.places else None)
    lng = pt.lng if pt else (f.places[0].lng if f.places else None)
    if lat is None or lng is None:
        return None
    score = 2.0 + 0.5 * hit(f, r"前|before|by|no later") + 0.5 * hit(f, r"次日|第二天|翌日|next|"
                                                                        r"morning|until|直到")
    until = (r"(?:until|till|直到|一直到|到|至)\s*(?:次日|第二天|翌日|the next day|"
             r"next morning)?\s*(?:早上|凌晨|上午)?\s*$")
    firsts = [c for c in f.clocks
              if not re.search(until, f.low[max(0, c.start - 16):c.start], re.I)]
    cur = firsts[0] if firsts else f.clocks[0]
    rest = [c for c in f.clocks if c.start > cur.start]
    quiet = rest[0] if rest else cur
    return Candidate("home_by_curfew", score,
                     {"lat": lat, "lng": lng, "radius_km": f.radius if f.radius else 1.0,
                      "curfew": cur.hhmm, "quiet_until": quiet.hhmm})


def _min_days(f: Facts) -> int | None:
    vals = [v for v, _ in int_before(f, DAYS_UNIT) if 0 < v <= 31]
    return vals[0] if vals else None


_OFF_FULL = (r"空驶|空车|空跑|出车|静止|停驶|不动|检修|保养|完全歇|彻底歇|完全休息|完全停|一动不动|"
             r"00:00\s*(?:~|-|至|到)\s*24:00|0点到24点|全天|趴窝|"
             r"not move|no driving|stationary|parked all day|completely off|fully off|"
             r"no (?:movement|moving|repositioning)|truck (?:stays|remains|doesn't move)|idle|"
             r"not (?:drive|driving|run|running)|no empty|deadhead|neither|nor|whole day|"
             r"entire day|full day off|off the road|maintenance|rest completely")
_NO_ORDERS = (r"什么活都不接|啥活都不接|什么单都不接|都不接|no-order|无单日|without orders|零接单|"
              r"\brest\b|\bdays? off\b|不接任何|放假|休假|"
              r"放.{0,3}天假|一单(?:都|也)?不接|"
              r"一单都没有|zero orders|not a single order|无订单|无单|没单|没有单|不接单|不接活|"
              r"没有订单|没接单|零单|放空|不拉货|不干活|歇|"
              r"休息|停工|no orders?|without (?:any )?orders|"
              r"order-free|not take any|no jobs?|no loads?|take nothing|not accept|days? off|"
              r"rest days?|"
              r"without work|don't work|not work|free days?")


def min_days_without_orders(f: Facts) -> Candidate | None:
    n = _min_days(f)
    if n is None or not hit(f, _NO_ORDERS):
        return None
    score = 1.8 + 0.5 * hit(f, MONTH) + 0.3 * hit(f, AT_LEAST)
    if hit(f, _OFF_FULL):
        score -= 1.0
    if f.coords or f.places or f.categories or f.dates:
        score -= 1.0
    if span(f) is not None:
        score -= 1.0
    return Candidate("min_days_without_orders", score, {"min_days": n})


def min_full_off_days(f: Facts) -> Candidate | None:
    n = _min_days(f)
    if n is None or not (hit(f, _OFF_FULL) or hit(f, _NO_ORDERS)):
        return None
    score = 1.6 + 0.5 * hit(f, MONTH) + (0.8 if hit(f, _OFF_FULL) else -0.5)
    if f.coords or f.places or f.categories or f.dates:
        score -= 1.0
    return Candidate("min_full_off_days", score, {"min_days": n})


def first_order_deadline(f: Facts) -> Candidate | None:
    if not f.clocks or not hit(f, r"first-order|first[\s-]+(?:order|job|load)|首单|第一单|第一笔|"
                                  r"头一单|第一个单|开工|开张|出第一|"
                                  r"first (?:order|job|load|"
                                  r"pickup|take|booking|one)|start work|begin work|start the day|"
                                  r"earliest order|first .{0,10}of the day"):
        return None
    score = 2.5 + 0.5 * hit(f, r"不得晚于|不晚于|之前|以前|前|before|by|no later|not later|latest")
    c = next((c for c in f.clocks if c.before), f.clocks[0])
    return Candidate("first_order_deadline", score, {"latest": c.hhmm})


RECOGNISERS = (daily_continuous_rest, rest_window_full_coverage, quiet_window, home_by_curfew,
               min_days_without_orders, min_full_off_days, first_order_deadline)
