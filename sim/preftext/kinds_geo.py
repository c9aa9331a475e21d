"""Geofence, named-place, visit and itinerary kinds (K10-K12, K17, K18, K22-K24)."""

from __future__ import annotations

import re

from sim.preftext.common import MONTH, REFUSE, Candidate, hit, int_before
from sim.preftext.extract import Clock, Facts

INSIDE = (r"范围内|之内|以内|不出|不要出|别出|不能出|不得出|不离开|始终|一直|只在|只跑|框内|内活动|"
          r"stay|inside|within|keep|remain|confined|never leave|not leave|don't leave|only (?:in|within)")
ENTER = (r"不得进入|不进入|不想进入|不要进入|别进|不进|绕开|避开|远离|不靠近|禁止进入|不能进入|不准进入|"
         r"不去|不往|never enter|avoid|stay out|keep out|do not enter|don't enter|no entry|not go into|"
         r"stay away|keep away|not (?:drive|go) (?:into|near)|never go|not enter|off-limits|"
         r"forbidden")
DAYS_N = r"个不同的(?:自然)?日子?|个不同的?(?:自然)?日|个自然日|天|日子|different days|separate days|days|次|times"


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
    score = 2.0 + 0.8 * hit(f, ENTER) + 0.4 * hit(f, r"半径|圆|radius|circle|区域|zone|area")
    if f.dates:
        score -= 1.5
    if len(f.coords) >= 2 or int_before(f, DAYS_N):
        score -= 1.0
    once = hit(f, r"最多扣一次|只扣一次|一次性|仅扣一次|只罚一次|只算一次|扣一次|罚一次|\bonce\b|one-time|"
                  r"one-off|single (?:fine|charge|penalty)|only one fine")
    return Candidate("forbidden_circle", score,
                     {"lat": lat, "lng": lng, "radius_km": float(r),
                      "mode": "once" if once else "per_step"})


def date_region_avoid(f: Facts) -> Candidate | None:
    if not f.dates or not (f.places or f.bbox):
        return None
    if not hit(f, ENTER + "|" + REFUSE + r"|查车|检查|限行|管制|封路"):
        return None
    score = 2.8
    return Candidate("date_region_avoid", score,
                     {"dates": [d.iso for d in f.dates], "bbox": f.bbox,
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
                              r"home|看望|探望") + 0.3 * hit(f, MONTH)
    if f.dates:
        score -= 1.5
    if len(f.coords) >= 2:
        score -= 1.0
    return Candidate("min_visit_days", score,
                     {"lat": lat, "lng": lng, "radius_km": f.radius if f.radius else 1.0,
                      "min_days": ns[0]})


def min_region_order_days(f: Facts) -> Candidate | None:
    ns = [v for v, _ in int_before(f, DAYS_N) if 0 < v <= 92]
    if not ns or not f.places:
        return None
    score = 2.0 + 1.0 * hit(f, r"装货|卸货|装卸|loading|unloading|pickup|drop|start or end|"
                              r"from or to|to or from|origin|destination|起点|终点|订单|单|orders?|jobs?|"
                              r"loads?|cargo")
    if f.coords:
        score -= 1.0
    if hit(f, REFUSE) and not hit(f, r"至少|接够|不少于|at least|minimum"):
        score -= 1.0
    return Candidate("min_region_order_days", score,
                     {"place": f.places[0].name_zh, "min_days": ns[0]})


def _dwell_after(f: Facts, start: int, end: int) -> int | None:
    seg = f.num[start:end]
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:个)?\s*(小时|钟头|hours?|hrs?|h\b|分钟|minutes?|mins?)",
                  seg, re.I)
    if not m:
        return None
    v = float(m.group(1))
    return round(v * 60) if m.group(2)[0] in "小钟hH" else round(v)


def dwell_at_point_on_day(f: Facts) -> Candidate | None:
    if len(f.dates) != 1 or not f.coords or not f.durations:
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


def route_stops_on_day(f: Facts) -> Candidate | None:
    if not f.dates or len(f.coords) < 2:
        return None
    if hit(f, r"每分钟|per minute|a minute|each minute"):
        return None
    stops = []
    cs = f.coords
    for i, c in enumerate(cs):
        seg_end = cs[i + 1].start if i + 1 < len(cs) else len(f.num)
        seg_start = c.start
        if i == 0:
            seg_start = max(0, c.start - 30)
        ks: list[Clock] = [k for k in f.clocks if seg_start <= k.start < seg_end
                           and not (i == 0 and k.start < c.start and k.start < (f.dates[0].end))]
        if i > 0:
            # clocks written just before this stop's coordinate and after the previous one's
            ks = [k for k in f.clocks if cs[i - 1].end <= k.start < seg_end and
                  not any(k in s["_k"] for s in stops)]
        if not ks:
            return None
        arrive = next((k for k in ks if k.before), ks[0])
        dwell = _dwell_after(f, c.end, seg_end)
        if dwell is None:
            later = [k for k in ks if k.start > arrive.start]
            dwell = (later[0].minutes - arrive.minutes) % 1440 if later else 0
        stops.append({"lat": c.lat, "lng": c.lng, "arrive_by": arrive.hhmm,
                      "min_dwell_minutes": int(dwell), "_k": ks})
    score = 2.5 + 0.8 * hit(f, r"先|再|然后|接着|first|then|after that|next")
    for s in stops:
        del s["_k"]
    return Candidate("route_stops_on_day", score,
                     {"date": f.dates[0].iso, "radius_km": f.radius if f.radius else 2.0,
                      "stops": stops})


def _walls(f: Facts) -> list[tuple[str, int, Clock]]:
    """Wall times (date + clock): each clock takes the latest date written before it."""
    out = []
    for k in f.clocks:
        ds = [d for d in f.dates if d.start < k.start]
        if not ds:
            continue
        d = ds[-1]
        day = d.day
        iso = d.iso
        if k.next_day and d.end < k.start:
            from datetime import date, timedelta
            nd = date(d.year, d.month, day) + timedelta(days=1)
            iso = nd.isoformat()
        out.append((f"{iso} {k.hhmm}:00", k.start, k))
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
    rest = walls[1:]
    w1 = rest[0][0]
    w_end = rest[1][0] if len(rest) >= 2 else rest[0][0]
    for w, pos, _ in rest:
        ctx = f.low[max(0, pos - 20):pos + 24]
        if re.search(r"不在家|缺席|absen|not (?:at )?home|每分钟|per minute|迟到|late", ctx):
            w1 = w
        if re.search(r"方可|才能|再出车|离家|离开|leave|待到|stay (?:until|till)|before leaving", ctx):
            w_end = w
    dw = [m for m, p in f.durations if pk.start - 40 <= p]
    return Candidate("home_stay_event", 3.5,
                     {"w0": w0, "w1": w1, "w_end": w_end, "pickup_lat": pk.lat,
                      "pickup_lng": pk.lng, "home_lat": hm.lat, "home_lng": hm.lng,
                      "radius_km": f.radius if f.radius else 1.0,
                      "min_pickup_dwell_minutes": int(dw[0]) if dw else 0,
                      "rate_per_minute": rate})


RECOGNISERS = (stay_inside_bbox, forbidden_circle, date_region_avoid, min_visit_days,
               min_region_order_days, dwell_at_point_on_day, route_stops_on_day, home_stay_event)
