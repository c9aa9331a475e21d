"""K23: on a given day, visit the stops in order, each by its time, dwelling where required."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from sim.geo import Point, great_circle_km
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.official.timebase import DAY, date_to_day, hhmm_to_minutes
from sim.preferences.kinds.base import Counters, RuleContext
from sim.preferences.kinds.common import DatedStopKind, dwell_after
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock, counties
from sim.preferences.kinds.params import Km, Lat, Lng, Minutes, Params, ParamsError
from sim.preferences.kinds.wording import en_date, pt, zh_date
from sim.preferences.progress import Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text import rx
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts
from sim.typed_values import HHMM, Date


def _dwell_after(f: Facts, start: int, end: int) -> int | None:
    seg = f.num[start:end]
    m = rx.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:个)?\s*-?\s*(小时|钟头|hours?|hrs?|h\b|分钟|"
                  r"minutes?|mins?)",
                  seg, re.I)
    if not m:
        return None
    v = float(m.group(1))
    return round(v * 60) if m.group(2)[0] in "小钟hH" else round(v)


_STEP_SPLIT = re.compile(r"[;；。]|再|然后|接着|之后|随后|最后|\bthen\b|after that|afterwards|"
                         r"\bstop\s*\d+\b|第\s*[\d一二三四五六七八九十]+\s*站|"
                         # ①…②… (read as 1、…2、…): a numbered list's items
                         r"(?<![\d.])[1-9]\s*、|"
                         r"\bnext\b|\bfinally\b|\bon to\b|\bonward to\b|\bonto\b", re.I)


def _cut(f: Facts, m: re.Match[str]) -> int:
    """Where a stop's piece starts: at 再/然后, or at the deadline written right before it
    (中午十二点前再赶到B: 12:00 is B's deadline, not the end of a stay at A)."""
    if rx.match(r"[;；。]", m.group(0)):
        return m.start()
    k = next((k for k in reversed(f.clocks) if k.start < m.start()), None)
    if k is not None and rx.fullmatch(r"\s*(?:前|之前|以前)\s*", f.num[k.end:m.start()]):
        return k.start
    return m.start()


@dataclass(frozen=True)
class Stop(Params):
    tag = "stop"  # its name in the parsers' params table ("stops" for a list of them)

    lat: Lat
    lng: Lng
    arrive_by: HHMM
    min_dwell_minutes: Minutes = 0


@dataclass(frozen=True, kw_only=True)  # fields in docs/competition.md §7.5's order, defaults inside
class RouteStopsParams(Params):
    date: Date
    radius_km: Km = 2.0
    stops: list[Stop]

    def check(self, where: str) -> None:
        if not self.stops:
            raise ParamsError(f"{where}.stops: expected at least one stop")


class RouteStopsOnDay(DatedStopKind):
    name = "route_stops_on_day"
    number = 23
    family = "itinerary"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"先|再|然后|接着|路过|经过|途经|依次|按顺序|first|then|via|through|on to|after|"
               r"before|in (?:that|this|the given) order|\bstops?\b|停|待|到")
    model = PenaltyModel.ONCE
    Params = RouteStopsParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        s = DAY * date_to_day(p.date)
        t = 0
        arrivals: list[int | None] = []
        for i, stop in enumerate(p.stops):
            def near(pos: Point, stop: Stop = stop) -> bool:
                return pos.km_to(stop.lat, stop.lng) <= p.radius_km

            by = self.deadline(stop)
            arrival = next((x.step_end for x in log.steps
                            if x.step_end > t and s <= x.step_end <= by and near(x.after)), None)
            arrivals.append(arrival)
            if arrival is None:
                return {"arrivals": arrivals, "failed_stop": i + 1, "failed": True}
            if stop.min_dwell_minutes > 0:
                if dwell_after(log.steps, arrival, s + DAY, near) < stop.min_dwell_minutes:
                    return {"arrivals": arrivals, "failed_stop": i + 1, "failed": True}
                t = max(t, arrival + stop.min_dwell_minutes)
            else:
                t = max(t, arrival)
        return {"arrivals": arrivals, "failed_stop": None, "failed": False}

    @classmethod
    def hint(cls, params: RouteStopsParams) -> str:
        legs = "; then ".join(
            f"({x.lat}, {x.lng}) by {x.arrive_by}"
            + (f", waiting {x.min_dwell_minutes} min" if x.min_dwell_minutes else "")
            for x in params.stops)
        return f"On {params.date} visit, in this order, within {params.radius_km:g} km: {legs}."

    def next_stop(self, counters: Counters) -> tuple[float, float, int] | None:
        p, c = self.params, counters
        if not c["failed"]:
            return None
        stop = p.stops[(c.get("failed_stop") or 1) - 1]
        return stop.lat, stop.lng, self.deadline(stop)

    def deadline(self, stop: Stop) -> int:
        """The minute `stop` must be reached by on the route's day."""
        return DAY * date_to_day(self.params.date) + hhmm_to_minutes(stop.arrive_by)

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, c, now = self.params, counters, ctx.now
        day = date_to_day(p.date)
        if not c["failed"]:
            return Status.OK, f"route on {p.date}: done", None
        i = (c.get("failed_stop") or 1) - 1
        stop = p.stops[i]
        line = f"route on {p.date}: stop {c.get('failed_stop')} of {len(p.stops)} next"
        if now >= day * DAY + DAY:
            return Status.VIOLATED, line + ": missed", None
        by = self.deadline(stop)
        # the failed stop's arrival (None: not reached); a lost stop loses the route
        if self.stop_lost(ctx, c["arrivals"][i], stop.lat, stop.lng, p.radius_km, by):
            return Status.VIOLATED, line + ": missed", None
        due = self.drive_due(ctx, c)
        if due is not None and now >= due:
            if ctx.near(stop.lat, stop.lng, p.radius_km) and stop.min_dwell_minutes:
                return Status.DUE, line, Todo("wait", "route stop dwell",
                                              minutes=stop.min_dwell_minutes)
            return Status.DUE, line, Todo("go", "route stop", lat=stop.lat, lng=stop.lng)
        return Status.OK, line, None



    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        """Stops split at 再/然后/then: each piece's coordinate, its deadline clock, and its dwell
        (a stated duration, or the span from the deadline to a later 待到/until clock)."""
        # written points, or districts/counties by name (centre from the county table) when
        # fewer than two points are written
        pts = f.points if len(f.coords) < 2 else [p for p in f.points
                                                   if p.source == "coordinates"]
        if not f.dates or len(pts) < 2:
            return None
        if hit(f, r"每分钟|per minute|a minute|each minute|every minute"):
            return None
        cuts = [0] + [_cut(f, m) for m in _STEP_SPLIT.finditer(f.num)] + [len(f.num)]
        segs = [(a, b) for a, b in itertools.pairwise(cuts) if b > a]
        stops: list[dict] = []
        for a, b in segs:
            cs = [c for c in pts if a <= c.start < b]
            ks = [k for k in f.clocks if a <= k.start < b]
            if len(cs) > 1:
                return None
            if not cs:
                if stops and ks and not stops[-1]["_dwell_set"]:
                    later = ks[0]
                    stops[-1]["min_dwell_minutes"] = (later.minutes - stops[-1]["_arr"]) % 1440
                    stops[-1]["_dwell_set"] = True
                elif stops and not ks and not stops[-1]["_dwell_set"]:
                    # …到(22.81,113.29)，再呆一个钟头: the stay written after 再 is that stop's
                    d = _dwell_after(f, a, b)
                    if d is not None:
                        stops[-1]["min_dwell_minutes"] = d
                        stops[-1]["_dwell_set"] = True
                continue
            if not ks:  # no deadline of its own: the next stop's, else the previous one's
                stops.append({"lat": cs[0].lat, "lng": cs[0].lng, "arrive_by": None,
                              "min_dwell_minutes": _dwell_after(f, a, b) or 0, "_arr": None,
                              "_dwell_set": True, "_src": cs[0].source})
                continue
            arrive = next((k for k in ks if k.before), ks[0])
            dwell = _dwell_after(f, a, b)
            dset = dwell is not None
            if dwell is None:
                later = [k for k in ks if k.start > arrive.start]
                dwell = (later[0].minutes - arrive.minutes) % 1440 if later else 0
                dset = bool(later)
            stops.append({"lat": cs[0].lat, "lng": cs[0].lng, "arrive_by": arrive.hhmm,
                          "min_dwell_minutes": int(dwell), "_arr": arrive.minutes,
                          "_dwell_set": dset, "_src": cs[0].source})
        if len(stops) < 2:
            return None
        for i, st in enumerate(stops):
            if st["arrive_by"] is None:
                later = [x["arrive_by"] for x in stops[i + 1:] if x["arrive_by"]]
                earlier = [x["arrive_by"] for x in stops[:i] if x["arrive_by"]]
                tail = [k for k in f.clocks if k.start > max(c.start for c in pts)]
                st["arrive_by"] = (later[0] if later else earlier[-1] if earlier
                                   else tail[0].hhmm if tail else None)
                if st["arrive_by"] is None:
                    return None
        each = rx.search(r"(?:每个点|每个地方|每一站|每站|每处|each (?:stop|point|place)|"
                         r"every (?:stop|point))[^;；。]{0,12}", f.num, re.I)
        if each:
            d = _dwell_after(f, each.start(), min(len(f.num), each.end() + 12))
            if d is not None:
                for st in stops:
                    if not st["_dwell_set"] or st["min_dwell_minutes"] == 0:
                        st["min_dwell_minutes"] = d
        score = 2.5 + 0.8 * hit(f, r"先|再|然后|接着|first|then|after that|next")
        clean = [{k: v for k, v in s.items() if not k.startswith("_")} for s in stops]
        sources = {f"stops[{i}].lat,lng": st["_src"] for i, st in enumerate(stops)
                   if st["_src"] != "coordinates"}
        return Claim("route_stops_on_day", score,
                         {"date": f.dates[0].iso, "radius_km": f.radius if f.radius else 2.0,
                          "stops": clean}, sources)

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[RouteStopsParams]:
        d = ctx.day()
        stated = ctx.rng.random() < 0.4
        r = float(ctx.pick([1.0, 1.5, 3.0])) if stated else 2.0
        t = int(ctx.step(7 * 60, 10 * 60, 30))
        stops: list[Stop] = []
        for _ in range(int(ctx.pick([2, 2, 3]))):
            c = ctx.near_county(80.0)
            while any(great_circle_km(c.lat, c.lng, s.lat, s.lng) < 5 for s in stops):
                c = ctx.pick(counties())  # distinct stops; rare, so any county will do
            dwell = 0 if ctx.rng.random() < 0.25 else int(ctx.step(20, 90, 10))
            stops.append(Stop(lat=round(c.lat, 2), lng=round(c.lng, 2), arrive_by=clock(t),
                              min_dwell_minutes=dwell))
            t += int(ctx.step(120, 240, 30))
        return Drawn(RouteStopsParams(date=d.isoformat(), radius_km=r, stops=tuple(stops)),
                     {"d": d, "r": f"{r:g}" if stated else None,
                      "stops": [s.to_dict() for s in stops]})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        parts = []
        for i, s in enumerate(v["stops"]):
            head = "先到" if i == 0 else "再到"
            stay = f"，待{s['min_dwell_minutes']}分钟" if s["min_dwell_minutes"] else ""
            parts.append(f"{head}{pt(s['lat'], s['lng'], 'zh')}，{s['arrive_by']}前赶到{stay}")
        r = f"（每个点{v['r']}公里内算到）" if v["r"] else ""
        return [f"{zh_date(v['d'])}当天{r}" + "；".join(parts) + "。",
                f"{zh_date(v['d'])}行程{r}：" + "；".join(parts) + "。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        parts = []
        for i, s in enumerate(v["stops"]):
            head = "first" if i == 0 else "then"
            stay = f" and stay {s['min_dwell_minutes']} minutes" if s["min_dwell_minutes"] else ""
            parts.append(f"{head} reach {pt(s['lat'], s['lng'], 'en')} by {s['arrive_by']}{stay}")
        r = f" (each stop within {v['r']} km)" if v["r"] else ""
        return [f"On {en_date(v['d'])}{r}: " + "; ".join(parts) + ".",
                f"Route for {en_date(v['d'])}{r} — " + ", ".join(parts) + "."]
