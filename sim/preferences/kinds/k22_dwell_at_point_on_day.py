"""K22: on a given day, reach the point (by arrive_by) and wait there min_dwell minutes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.geo import Point
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.official.timebase import DAY, date_to_day, hhmm_to_minutes
from sim.preferences.kinds.base import Counters, RuleContext
from sim.preferences.kinds.common import DatedStopKind, dwell_after
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock
from sim.preferences.kinds.params import Km, Lat, Lng, Minutes, Params
from sim.preferences.kinds.wording import en_date, pt, zh_date
from sim.preferences.progress import Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts, distinct_isos
from sim.typed_values import HHMM, Date


@dataclass(frozen=True, kw_only=True)  # fields in docs/competition.md §7.5's order, defaults inside
class DwellAtPointParams(Params):
    date: Date
    lat: Lat
    lng: Lng
    radius_km: Km = 2.0
    min_dwell_minutes: Minutes
    arrive_by: HHMM | None = None


class DwellAtPointOnDay(DatedStopKind):
    name = "dwell_at_point_on_day"
    number = 22
    family = "itinerary"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"停|待|留|呆|办|逗留|dwell|stay|stop|park|wait|remain|spend|be at|visit")
    model = PenaltyModel.ONCE
    Params = DwellAtPointParams
    scope = Scope.MONTH
    judged_at_end = True

    def deadline(self) -> int:
        """The minute the point must be reached by: arrive_by on the day, else its end."""
        p = self.params
        return DAY * date_to_day(p.date) + (hhmm_to_minutes(p.arrive_by) if p.arrive_by else DAY)

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        s = DAY * date_to_day(p.date)
        deadline = self.deadline()

        def near(pos: Point) -> bool:
            return pos.km_to(p.lat, p.lng) <= p.radius_km

        arrival = next((x.step_end for x in log.steps
                        if s <= x.step_end <= deadline and near(x.after)), None)
        if arrival is None:
            return {"arrival": None, "dwell_minutes": 0, "failed": True}
        dwell = dwell_after(log.steps, arrival, s + DAY, near)
        return {"arrival": arrival, "dwell_minutes": dwell,
                "failed": dwell < p.min_dwell_minutes}

    @classmethod
    def hint(cls, params: DwellAtPointParams) -> str:
        by = f" by {params.arrive_by}" if params.arrive_by else ""
        return (f"On {params.date} reach ({params.lat}, {params.lng}) within "
                f"{params.radius_km:g} km{by} and then wait there at least "
                f"{params.min_dwell_minutes} minutes in one go.")

    def next_stop(self, counters: Counters) -> tuple[float, float, int] | None:
        p = self.params
        return (p.lat, p.lng, self.deadline()) if counters["failed"] else None

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, now = self.params, ctx.now
        day = date_to_day(p.date)
        by = self.deadline()
        if not counters["failed"]:
            return Status.OK, f"dwell on {p.date}: done", None
        line = f"dwell {p.min_dwell_minutes} min at ({p.lat}, {p.lng}) on {p.date}"
        if now >= day * DAY + DAY:
            return Status.VIOLATED, line + ": missed", None
        if self.stop_lost(ctx, counters["arrival"], p.lat, p.lng, p.radius_km, by):
            return Status.VIOLATED, line + ": missed", None
        if ctx.near(p.lat, p.lng, p.radius_km) and now >= day * DAY:
            run = ctx.resting_run()
            return Status.DUE, line, Todo("wait", "dwell",
                                          minutes=max(1, p.min_dwell_minutes - run))
        due = self.drive_due(ctx, counters)
        if due is not None and now >= due:
            return Status.DUE, line, Todo("go", "dwell point", lat=p.lat, lng=p.lng)
        return Status.OK, line, None



    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        # a written point, else a district/county (its centre and radius, from the county table)
        pts = [p for p in f.points if p.source == "coordinates"] or \
            [p for p in f.points if p.radius_km]
        if len(distinct_isos(f.dates)) != 1 or not pts or not f.durations:
            return None
        c = pts[0]
        score = 2.5 + 0.5 * hit(f, r"停|待|留|呆|dwell|stay|park|wait|remain|stop|spend|办")
        if len(pts) >= 2:
            score -= 1.5
        arrive = next((k for k in f.clocks if k.before), None)
        return Claim("dwell_at_point_on_day", score,
                         {"date": f.dates[0].iso, "lat": c.lat, "lng": c.lng,
                          "radius_km": f.radius or c.radius_km or 2.0,
                          "min_dwell_minutes": int(f.durations[0][0]),
                          "arrive_by": arrive.hhmm if arrive else None},
                         {} if f.radius or c.radius_km is None
                         else {"lat,lng,radius_km": c.source})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[DwellAtPointParams]:
        c = ctx.near_county()
        d = ctx.day()
        stated = ctx.rng.random() < 0.4
        r = float(ctx.pick([0.5, 1.0, 3.0])) if stated else 2.0
        dwell = int(ctx.step(30, 240, 30))
        by = clock(int(ctx.step(8 * 60, 16 * 60, 30))) if ctx.rng.random() < 0.6 else None
        lat, lng = round(c.lat, 2), round(c.lng, 2)
        return Drawn(DwellAtPointParams(date=d.isoformat(), lat=lat, lng=lng, radius_km=r,
                                        min_dwell_minutes=dwell, arrive_by=by),
                     {"d": d, "lat": lat, "lng": lng, "r": f"{r:g}" if stated else None,
                      "dw": dwell, "by": by})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "zh")
        r = f"{v['r']}公里内" if v["r"] else ""
        by = f"{v['by']}前到，" if v["by"] else ""
        return [f"{zh_date(v['d'])}当天要到{p}{r}停一趟，{by}停够{v['dw']}分钟。",
                f"{zh_date(v['d'])}当天去{p}{r}，{by}在那里停留不少于{v['dw']}分钟。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "en")
        r = f" (within {v['r']} km)" if v["r"] else ""
        by = f", arriving by {v['by']}" if v["by"] else ""
        by2 = f" by {v['by']}" if v["by"] else ""
        return [f"On {en_date(v['d'])}, stop at {p}{r} for at least {v['dw']} minutes{by}.",
                f"{en_date(v['d'])}: be at {p}{r}{by2} and stay {v['dw']} minutes."]
