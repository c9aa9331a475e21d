"""Geofence, named-place, visit and itinerary kinds (K10-K12, K17, K18, K22-K24)."""

from __future__ import annotations

import itertools
import re

from sim.preftext.common import MONTH, REFUSE, Candidate, hit, int_before
from sim.preftext.extract import Clock, Facts, distinct_isos

INSIDE = (r"范围内|之内|以内|不出|不要出|别出|不能出|不得出|不离开|始终|一直|只在|只跑|框内|内活动|"
          r"stay|inside|within|keep|remain|confined|never leave|not leave|don't leave|only (?:in|"
          r"within)")
ENTER = (r"不许进|不让进|不能进|anywhere near|away from|stay .{0,20}away|禁入|禁区|no-go|no go|"
         r"exclusion|禁止驶入|别开进|不开进|开进去|驶入|进去|进到|不得进入|"
         r"不进入|不想进入|不要进入|别进|不进|绕开|"
         r"避开|远离|不靠近|禁止进入|不能进入|"
         r"不准进入|"
         r"不去|不往|never enter|avoid|stay out|keep out|do not enter|don't enter|no entry|"
         r"not go into|"
         r"stay away|keep away|not (?:drive|go) (?:into|near)|never go|not enter|off-limits|"
         r"forbidden")
DAYS_N = (r"个不同的(?:自然)?日子?|个不同的?(?:自然)?日|个自然日|天|日子|次(?!性)|"
          r"(?:distinct|different|separate|unique|individual|calendar|other)?\s*(?:calendar\s+)?"
          r"days\b|times\b")


def stay_inside_bbox(f: Facts) -> Candidate | None:
    if f.bbox is None:
        return None
    score = 2.0 + 1.0 * hit(f, INSIDE)
    if f.dates:
        score -= 1.5
    return Candidate("stay_inside_bbox", score, dict(f.bbox))


def forbidden_circle(f: Facts) -> Candidate | None:
    if f.coords:
        lat, lng = f.coords[0].lat, f.coords[0].lng
        r = f.radius
    elif f.places and f.places[0].lat is not None:
        p = f.places[0]
        lat, lng, r = p.lat, p.lng, f.radius if f.radius is not None else p.radius_km
    else:
        return None
    if r is None or not hit(f, ENTER + "|" + REFUSE):
        return None
    score = 2.0 + 0.8 * hit(f, ENTER) + 0.4 * hit(f, r"半径|圆|radius|circle|区域|zone|area|为中心|"
                                                     r"方圆")
    if f.dates:
        score -= 1.5
    if len(f.coords) >= 2 or int_before(f, DAYS_N):
        score -= 1.0
    once = hit(f, r"最多扣一次|只扣一次|一次性|仅扣一次|只罚一次|只算一次|扣一次|罚一次|\bonce\b|"
                  r"one-time|"
                  r"one-off|single (?:fine|charge|penalty)|single\s+\d+\s*(?:yuan|元)\s+(?:fine|"
                  r"charge|penalty)|only one fine|one fine|fined once|"
                  r"just once")
    return Candidate("forbidden_circle", score,
                     {"lat": lat, "lng": lng, "radius_km": float(r),
                      "mode": "once" if once else "per_step"})


def date_region_avoid(f: Facts) -> Candidate | None:
    if not f.dates or not (f.places or f.bbox):
        return None
    if not hit(f, ENTER + "|" + REFUSE + r"|查车|检查|限行|管制|封路|别往|别去|不往|严查|查|别接"):
        return None
    score = 2.8
    return Candidate("date_region_avoid", score,
                     {"dates": distinct_isos(f.dates), "bbox": f.bbox,
                      "place": f.places[0].name_zh if f.places else None})


def min_visit_days(f: Facts) -> Candidate | None:
    ns = [v for v, _ in int_before(f, DAYS_N) if 0 < v <= 92]
    if not ns:
        return None
    if f.coords:
        lat, lng = f.coords[0].lat, f.coords[0].lng
    elif f.places and f.places[0].lat is not None and not hit(f, r"装货|卸货|loading|unloading|"
                                                                r"pickup|drop|orders?|单"):
        lat, lng = f.places[0].lat, f.places[0].lng
    else:
        return None
    score = 2.0 + 0.8 * hit(f, r"到过|去|回|到|visit|be at|go to|stop by|call at|check in|back|"
                              r"home|看望|探望|within|be near|near") + 0.3 * hit(f, MONTH)
    if any(k.before for k in f.clocks) and not hit(f, MONTH):
        score -= 1.2
    if hit(f, ENTER):
        score -= 1.0
    if f.dates:
        score -= 1.5
    if len(f.coords) >= 2:
        score -= 1.0
    return Candidate("min_visit_days", score,
                     {"lat": lat, "lng": lng, "radius_km": f.radius if f.radius else 1.0,
                      "min_days": ns[0]})


def min_region_order_days(f: Facts) -> Candidate | None:
    ns = [v for v, _ in int_before(f, DAYS_N) if 0 < v <= 92] or [
        int(m.group(1)) for m in re.finditer(
            r"(?:order days|接单日|days?|日子|天数)[^.;。；]{0,50}?(?:at least|至少|不少于|≥|>=)\s*"
            r"(\d+)(?!\d|\.\d)", f.low)]
    if not ns or not f.places:
        return None
    score = 2.0 + 1.0 * hit(f, r"装货|卸货|装卸|loading|unloading|pickup|drop|start or end|"
                              r"from or to|to or from|origin|destination|起点|终点|订单|单|orders?|"
                              r"jobs?|"
                              r"loads?|cargo")
    if f.coords:
        score -= 1.0
    if f.dates:
        score -= 1.5
    if hit(f, REFUSE) and not hit(f, r"至少|接够|不少于|at least|minimum"):
        score -= 1.0
    return Candidate("min_region_order_days", score,
                     {"place": f.places[0].name_zh, "min_days": ns[0]})


def _dwell_after(f: Facts, start: int, end: int) -> int | None:
    seg = f.num[start:end]
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:个)?\s*-?\s*(小时|钟头|hours?|hrs?|h\b|分钟|"
                  r"minutes?|mins?)",
                  seg, re.I)
    if not m:
        return None
    v = float(m.group(1))
    return round(v * 60) if m.group(2)[0] in "小钟hH" else round(v)


def dwell_at_point_on_day(f: Facts) -> Candidate | None:
    if len(distinct_isos(f.dates)) != 1 or not f.coords or not f.durations:
        return None
    c = f.coords[0]
    score = 2.5 + 0.5 * hit(f, r"停|待|留|呆|dwell|stay|park|wait|remain")
    if len(f.coords) >= 2:
        score -= 1.5
    arrive = next((k for k in f.clocks if k.before), None)
    return Candidate("dwell_at_point_on_day", score,
                     {"date": f.dates[0].iso, "lat": c.lat, "lng": c.lng,
                      "radius_km": f.radius if f.radius else 2.0,
                      "min_dwell_minutes": int(f.durations[0][0]),
                      "arrive_by": arrive.hhmm if arrive else None})


_STEP_SPLIT = re.compile(r"[;；。]|再|然后|接着|之后|随后|最后|\bthen\b|after that|afterwards|"
                         r"\bnext\b|\bfinally\b", re.I)


def route_stops_on_day(f: Facts) -> Candidate | None:
    """Stops split at 再/然后/then: each piece's coordinate, its deadline clock, and its dwell
    (a stated duration, or the span from the deadline to a later 待到/until clock)."""
    if not f.dates or len(f.coords) < 2:
        return None
    if hit(f, r"每分钟|per minute|a minute|each minute|every minute"):
        return None
    cuts = [0] + [m.start() for m in _STEP_SPLIT.finditer(f.num)] + [len(f.num)]
    segs = [(a, b) for a, b in itertools.pairwise(cuts) if b > a]
    stops: list[dict] = []
    for a, b in segs:
        cs = [c for c in f.coords if a <= c.start < b]
        ks = [k for k in f.clocks if a <= k.start < b]
        if len(cs) > 1:
            return None
        if not cs:
            if stops and ks and not stops[-1]["_dwell_set"]:
                later = ks[0]
                stops[-1]["min_dwell_minutes"] = (later.minutes - stops[-1]["_arr"]) % 1440
                stops[-1]["_dwell_set"] = True
            continue
        if not ks:
            return None
        arrive = next((k for k in ks if k.before), ks[0])
        dwell = _dwell_after(f, a, b)
        dset = dwell is not None
        if dwell is None:
            later = [k for k in ks if k.start > arrive.start]
            dwell = (later[0].minutes - arrive.minutes) % 1440 if later else 0
            dset = bool(later)
        stops.append({"lat": cs[0].lat, "lng": cs[0].lng, "arrive_by": arrive.hhmm,
                      "min_dwell_minutes": int(dwell), "_arr": arrive.minutes,
                      "_dwell_set": dset})
    if len(stops) < 2:
        return None
    each = re.search(r"(?:每个点|每个地方|每一站|每站|每处|each (?:stop|point|place)|every (?:stop|"
                     r"point))"
                     r"[^;；。]{0,12}", f.num, re.I)
    if each:
        d = _dwell_after(f, each.start(), min(len(f.num), each.end() + 12))
        if d is not None:
            for st in stops:
                if not st["_dwell_set"] or st["min_dwell_minutes"] == 0:
                    st["min_dwell_minutes"] = d
    score = 2.5 + 0.8 * hit(f, r"先|再|然后|接着|first|then|after that|next")
    clean = [{k: v for k, v in s.items() if not k.startswith("_")} for s in stops]
    return Candidate("route_stops_on_day", score,
                     {"date": f.dates[0].iso, "radius_km": f.radius if f.radius else 2.0,
                      "stops": clean})


def _walls(f: Facts) -> list[tuple[str, Clock]]:
    """Wall times (date + clock). A clock takes the latest date written before it, except that
    the end of a span (18:00至22:00) takes its start's date, plus a day when 次日."""
    from datetime import date, timedelta
    out: list[tuple[str, Clock]] = []
    prev: tuple[date, Clock] | None = None
    for k in f.clocks:
        ds = [d for d in f.dates if d.start < k.start]
        if not ds:
            continue
        d = ds[-1]
        day = date(d.year, d.month, d.day)
        between = f.num[prev[1].end:k.start] if prev else ""
        if prev and d.end <= prev[1].start and len(between) <= 8 and re.search(
                r"至|到|~|-|and|to|until|till", between, re.I):
            day = prev[0]
        if k.next_day:
            day += timedelta(days=1)
        out.append((f"{day.isoformat()} {k.hhmm}:00", k))
        prev = (day, k)
    return out


def home_stay_event(f: Facts) -> Candidate | None:
    if len(f.coords) < 2 or not hit(f, r"家|home|house"):
        return None
    from sim.preftext.extract import rate_per_minute
    rate = rate_per_minute(f.num)
    walls = _walls(f)
    if rate is None or len(walls) < 2:
        return None
    pk, hm = f.coords[0], f.coords[1]
    if re.search(r"家|home", f.low[max(0, pk.start - 12):pk.start]) and not re.search(
            r"家|home", f.low[max(0, hm.start - 12):hm.start]):
        pk, hm = hm, pk
    w0 = walls[0][0]
    w1 = w_end = None
    absent = r"不在家|缺席|absen|away|not (?:at )?home|每分钟|per minute|every minute|迟到|late"
    for w, k in walls[1:]:
        stop = r"[;；。]|\.(?=\s|$)"
        a = max([m.end() for m in re.finditer(stop, f.num[:k.start])] or [0])
        b = min([m.start() for m in re.finditer(stop, f.num[k.end:])] or [len(f.num)],
                default=len(f.num))
        clause = f.low[a:k.end + b]
        pre = f.low[max(a, k.start - 16):k.start]
        if re.search(absent, clause, re.I):
            if w1 is None or f.low.rfind(";", 0, k.start) < a:
                w1 = w
        elif w_end is None and re.search(r"待到|待至|留到|呆到|住到|until|till|方可|"
                                         r"出车", pre + clause):
            w_end = w
    rest = [w for w, _ in walls[1:]]
    w1 = w1 or (rest[0] if rest else w0)
    w_end = w_end or rest[-1]
    dw = [m for m, p in f.durations if pk.start - 40 <= p]
    return Candidate("home_stay_event", 3.5,
                     {"w0": w0, "w1": w1, "w_end": w_end, "pickup_lat": pk.lat,
                      "pickup_lng": pk.lng, "home_lat": hm.lat, "home_lng": hm.lng,
                      "radius_km": f.radius if f.radius else 1.0,
                      "min_pickup_dwell_minutes": int(dw[0]) if dw else 0,
                      "rate_per_minute": rate})


RECOGNISERS = (stay_inside_bbox, forbidden_circle, date_region_avoid, min_visit_days,
               min_region_order_days, dwell_at_point_on_day, route_stops_on_day, home_stay_event)
