"""K24: a family errand: wait at a pickup point, then go home and stay; absence is fined.

w0 starts the event, w1 ends the absence count and w_end ends the leave-early check; they are
independent parameters. Penalty = rate * absence minutes + A if the sequence fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sim.preftext import rx
from sim.preftext.common import Candidate, hit
from sim.preftext.extract import Clock, Facts, rate_per_minute
from sim.scoring.kinds.base import (
    Counters,
    Kind,
    Km,
    Lat,
    Lng,
    Minutes,
    Params,
    ParamsError,
    RuleContext,
    Wall,
)
from sim.scoring.penalties import PenaltyModel
from sim.scoring.progress import DUE_SLACK, Progress, ProgressContext, Scope, Status, Todo
from sim.scoring.steps import ActionKind, Pos, StepLog
from sim.scoring.timebase import wall_to_minutes


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
        if prev and d.end <= prev[1].start and len(between) <= 8 and rx.search(
                r"至|到|~|-|and|to|until|till", between, re.I):
            day = prev[0]
        if k.next_day:
            day += timedelta(days=1)
        out.append((f"{day.isoformat()} {k.hhmm}:00", k))
        prev = (day, k)
    return out


@dataclass(frozen=True, kw_only=True)  # fields in docs/competition.md §7.5's order, defaults inside
class HomeStayEventParams(Params):
    w0: Wall
    w1: Wall
    w_end: Wall
    pickup_lat: Lat
    pickup_lng: Lng
    home_lat: Lat
    home_lng: Lng
    radius_km: Km = 1.0
    min_pickup_dwell_minutes: Minutes
    rate_per_minute: Km  # yuan per minute, >= 0

    def check(self, where: str) -> None:
        if wall_to_minutes(self.w1) < wall_to_minutes(self.w0):
            raise ParamsError(f"{where}.w1: earlier than w0")
        if wall_to_minutes(self.w_end) < wall_to_minutes(self.w0):
            raise ParamsError(f"{where}.w_end: earlier than w0")


class HomeStayEvent(Kind):
    name = "home_stay_event"
    number = 24
    family = "itinerary"
    model = PenaltyModel.EVENT
    Params = HomeStayEventParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        w0, w1, w_end = (wall_to_minutes(x) for x in (p.w0, p.w1, p.w_end))

        def near_pk(pos: Pos) -> bool:
            return pos.km_to(p.pickup_lat, p.pickup_lng) <= p.radius_km

        def near_hm(pos: Pos) -> bool:
            return pos.km_to(p.home_lat, p.home_lng) <= p.radius_km

        pickup_done, run = None, 0
        for s in log.steps:
            if s.step_end <= w0:
                continue
            if s.action is ActionKind.WAIT:
                if near_pk(s.after):
                    run += s.exec
                    if run >= p.min_pickup_dwell_minutes:
                        pickup_done = s.step_end
                        break
                else:
                    run = 0
            elif not (near_pk(s.before) and near_pk(s.after)):
                run = 0
        home = next((s.step_end for s in log.steps if s.step_end >= w0 and near_hm(s.after)),
                    None)
        sequence_ok = pickup_done is not None and home is not None and pickup_done < home
        absence = sum(
            max(0, min(s.step_end, w1) - max(s.step_start, w0)) for s in log.steps
            if not (s.action is ActionKind.WAIT and near_hm(s.before) and near_hm(s.after)))
        left_early = home is not None and any(
            s.is_active and home <= s.step_start < w_end for s in log.steps)
        return {
            "pickup_done": pickup_done, "home_arrival": home, "sequence_ok": sequence_ok,
            "left_early": left_early, "absence_minutes": absence,
            "rate_per_minute": p.rate_per_minute,
            "failed": (not sequence_ok) or home is None or left_early,
        }

    @classmethod
    def hint(cls, params: HomeStayEventParams) -> str:
        return (f"From {params.w0}: first wait at least {params.min_pickup_dwell_minutes} min "
                f"within {params.radius_km:g} km of ({params.pickup_lat}, {params.pickup_lng}), "
                f"then go home ({params.home_lat}, {params.home_lng}) and stay without any move "
                f"or order until {params.w_end}; every minute away from home before {params.w1} "
                f"costs {params.rate_per_minute:g} yuan.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, c, now = self.params, counters, ctx.now
        w0, w_end = wall_to_minutes(p.w0), wall_to_minutes(p.w_end)
        away = c["absence_minutes"]
        line = f"errand from {p.w0}: " + (
            "home, stay" if c["home_arrival"] is not None and c["pickup_done"] is not None
            else "pickup done" if c["pickup_done"] is not None else "pickup not yet")
        line += f", {away} min away so far"
        if now >= w_end or now < w0 - DUE_SLACK:
            return (Status.OK if not c["failed"] else Status.AT_RISK), line, None
        if c["pickup_done"] is None:
            if ctx.near(p.pickup_lat, p.pickup_lng, p.radius_km):
                return Status.DUE, line, Todo("wait", "errand pickup",
                                              minutes=max(1, p.min_pickup_dwell_minutes))
            return Status.DUE, line, Todo("go", "errand pickup", lat=p.pickup_lat,
                                          lng=p.pickup_lng)
        if not ctx.near(p.home_lat, p.home_lng, p.radius_km):
            return Status.DUE, line, Todo("go", "errand: home", lat=p.home_lat, lng=p.home_lng)
        return Status.DUE, line, Todo("wait", "errand: stay home", minutes=w_end - now)

    @staticmethod
    def recognise(f: Facts) -> Candidate | None:
        if len(f.coords) < 2 or not hit(f, r"家|home|house"):
            return None
        rate = rate_per_minute(f.num)
        walls = _walls(f)
        if rate is None or len(walls) < 2:
            return None
        pk, hm = f.coords[0], f.coords[1]
        if rx.search(r"家|home", f.low[max(0, pk.start - 12):pk.start]) and not rx.search(
                r"家|home", f.low[max(0, hm.start - 12):hm.start]):
            pk, hm = hm, pk
        w0 = walls[0][0]
        w1 = w_end = None
        absent = r"不在家|缺席|absen|away|not (?:at )?home|每分钟|per minute|every minute|迟到|late"
        for w, k in walls[1:]:
            stop = r"[;；。]|\.(?=\s|$)"
            a = max([m.end() for m in rx.finditer(stop, f.num[:k.start])] or [0])
            b = min([m.start() for m in rx.finditer(stop, f.num[k.end:])] or [len(f.num)],
                    default=len(f.num))
            clause = f.low[a:k.end + b]
            pre = f.low[max(a, k.start - 16):k.start]
            if rx.search(absent, clause, re.I):
                if w1 is None or f.low.rfind(";", 0, k.start) < a:
                    w1 = w
            elif w_end is None and rx.search(r"待到|待至|留到|呆到|住到|until|till|方可|"
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
