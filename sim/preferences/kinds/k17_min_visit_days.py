"""K17: end a step within r of the point on at least min_days distinct days (P-once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.official.timebase import DAY
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Count, Km, Lat, Lng, Params
from sim.preferences.kinds.wording import pt
from sim.preferences.progress import Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text.common import (
    DAYS_N,
    ENTER,
    MONTH,
    PLACE_LOADS,
    Claim,
    hit,
    int_before,
    names_a_day,
)
from sim.preferences.text.extract import Facts


@dataclass(frozen=True, kw_only=True)  # fields in docs/competition.md §7.5's order, defaults inside
class MinVisitDaysParams(Params):
    lat: Lat
    lng: Lng
    radius_km: Km = 1.0
    min_days: Count


class MinVisitDays(Kind):
    name = "min_visit_days"
    number = 17
    family = "visit quota"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"到|去|来|回|访|看|转|露|visit|be at|go|stop|drop|show|call|check|back|come|"
               r"swing|pop|near|within|抵达|arrive|reach")
    model = PenaltyModel.ONCE
    Params = MinVisitDaysParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        # Over all steps of any action, not just D (§7.6); only a version that applies the
        # rule's window to this kind restricts the visit days to it.
        visit = sorted({s.step_end // DAY for s in log.steps
                        if s.after.km_to(p.lat, p.lng) <= p.radius_km
                        and (ctx.whole_log or ctx.in_window(s.step_end // DAY * DAY,
                                                            s.step_end // DAY * DAY + DAY))})
        return {"visit_days": visit, "failed": len(visit) < p.min_days}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        p, known = self.params, set(base["visit_days"])
        return all(s.step_end // DAY in known or s.after.km_to(p.lat, p.lng) > p.radius_km
                   for s in steps)  # no visit, or on a day already counted

    @classmethod
    def hint(cls, params: MinVisitDaysParams) -> str:
        return (f"Be within {params.radius_km:g} km of ({params.lat}, {params.lng}) on at least "
                f"{params.min_days} different days (several visits on one day count once).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        have = len(counters["visit_days"])
        line = f"visit days {have} of {p.min_days}"
        need = p.min_days - have
        if need <= 0:
            return Status.OK, line, None
        if ctx.today not in counters["visit_days"] and need >= ctx.days_left - 1:
            return Status.DUE, line, Todo("go", "visit day due", lat=p.lat, lng=p.lng)
        return (Status.AT_RISK if need > ctx.days_left else Status.OK), line, None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        ns = [v for v, _ in int_before(f, DAYS_N) if 0 < v <= 92]
        if not ns:
            return None
        county = None
        if f.coords:
            lat, lng = f.coords[0].lat, f.coords[0].lng
        elif f.places and f.places[0].lat is not None and not hit(f, r"装货|卸货|loading|unloading|"
                                                                    r"pickup|orders?|单|"
                                                                    + PLACE_LOADS):
            lat, lng = f.places[0].lat, f.places[0].lng
            county = next((p for p in f.points if p.radius_km), None)
            if county is not None:  # a district/county: its centre and radius
                lat, lng = county.lat, county.lng
        else:
            return None
        score = 2.0 + 0.8 * hit(f, r"到过|去|回|到|visit|be at|go to|stop by|call at|check in|back|"
                                  r"home|看望|探望|within|be near|near|drop by|drop in|show up|"
                                  r"swing by|pop in|come by|转转|露面|走一趟|跑一趟") \
            + 0.3 * hit(f, MONTH)
        if any(k.before for k in f.clocks) and not hit(f, MONTH):
            score -= 1.2
        if hit(f, ENTER):
            score -= 1.0
            if f.radius is not None and hit(f, r"半径|圆心|周围|方圆|附近|以内|之内|radius|"
                                               r"circle|around"):
                score -= 1.0  # a circle not to enter: K11, its "一次" a count of entries
        if names_a_day(f):
            score -= 1.5
        if len(f.coords) >= 2:
            score -= 1.0
        radius = f.radius or (county.radius_km if county else None) or 1.0
        sources = {"lat,lng,radius_km": county.source} if county and not f.radius else {}
        return Claim("min_visit_days", score,
                         {"lat": lat, "lng": lng, "radius_km": radius, "min_days": ns[0]},
                         sources)

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MinVisitDaysParams]:
        c = ctx.near_county()
        r = 1.0 if ctx.rng.random() < 0.7 else float(ctx.pick([0.5, 2.0, 3.0]))
        n = int(ctx.step(2, min(8, max(2, ctx.days // 3)), 1))
        lat, lng = round(c.lat, 2), round(c.lng, 2)
        return Drawn(MinVisitDaysParams(lat=lat, lng=lng, radius_km=r, min_days=n),
                     {"lat": lat, "lng": lng, "r": f"{r:g}", "n": n, "name_zh": c.name_zh})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "zh")
        return [f"每月至少{v['n']}个不同的自然日到过{p}{v['r']}公里内，同日多次只算一天。",
                f"每个月要去{v['name_zh']}的固定地点{p}方圆{v['r']}公里内{v['n']}次以上，"
                "一天去几次只算一天。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "en")
        return [f"Be within {v['r']} km of {p} on at least {v['n']} different days each month.",
                f"Visit {p} (within {v['r']} km) on {v['n']} or more separate days a month."]
