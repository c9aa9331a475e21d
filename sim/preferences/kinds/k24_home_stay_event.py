"""K24: a family errand: wait at a pickup point, then go home and stay; absence is fined.

w0 starts the event, w1 ends the absence count and w_end ends the leave-early check; they are
independent parameters. Penalty = rate * absence minutes + A if the sequence fails.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sim.geo import Point
from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import ActionKind, Step, StepLog
from sim.official.timebase import drive_minutes, wall_to_minutes
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock, wall_at
from sim.preferences.kinds.params import Km, Lat, Lng, Minutes, Params, ParamsError
from sim.preferences.kinds.wording import en_date, pt, zh_date
from sim.preferences.progress import DUE_SLACK, Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text import rx
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Clock, Facts, rate_per_minute
from sim.typed_values import Wall


def _walls(f: Facts) -> list[tuple[str, Clock]]:
    """Wall times (date + clock). A clock takes the latest date written before it, except that
    the end of a span (18:00至22:00) takes its start's date, plus a day when 次日."""
    from datetime import date, timedelta
    out: list[tuple[str, Clock]] = []
    prev: tuple[date, Clock] | None = None
    for k in f.clocks:
        ds = [d for d in f.dates if d.start < k.start]
        on = [d for d in f.dates if d.start >= k.end and rx.fullmatch(
            r"\s*(?:(?:on|of|,)\s*)?(?:the\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*)?",
            f.num[k.end:d.start], re.I)]
        if on:  # "5 pm on March 14": the date written after its clock
            ds = [on[0]]
        elif ds and rx.search(_STOP, f.num[ds[-1].end - 1:k.start]):
            # an undated clock in a later sentence (…待到4月5日09:00。17:00至21:00不在家…,
            # "stay until 07:00 on 28 Mar. Every minute away between 17:00 and 22:00": the
            # date took the sentence's stop as its abbreviation's): the event's day, not the
            # stay-home end's
            ds = [f.dates[0]]
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
        if k.bare and prev and day == prev[0] and k.minutes + 720 >= prev[1].minutes > k.minutes:
            # 晚上七点 … 七点到十点: a bare clock earlier than the one before it on the same
            # day is in the same half of the day (19:00, 22:00), not the morning
            k = dataclasses.replace(k, minutes=k.minutes + 720)
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
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"家|home|house")
    model = PenaltyModel.EVENT
    Params = HomeStayEventParams
    scope = Scope.MONTH
    judged_at_end = True

    @cached_property
    def span(self) -> tuple[int, int, int]:
        """(w0, w1, w_end) in minutes from the epoch, read once (every test asks)."""
        p = self.params
        return wall_to_minutes(p.w0), wall_to_minutes(p.w1), wall_to_minutes(p.w_end)

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        w0, w1, w_end = self.span

        def near_pk(pos: Point) -> bool:
            return pos.km_to(p.pickup_lat, p.pickup_lng) <= p.radius_km

        def near_hm(pos: Point) -> bool:
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
        absence = 0  # minutes of [w0, w1) not spent waiting at home (the overlap first:
        for s in log.steps:  # a month of steps outside the span needs no distance)
            overlap = min(s.step_end, w1) - max(s.step_start, w0)
            if overlap > 0 and not (s.action is ActionKind.WAIT and near_hm(s.before)
                                    and near_hm(s.after)):
                absence += overlap
        left_early = home is not None and any(
            s.is_active and home <= s.step_start < w_end for s in log.steps)
        return {
            "pickup_done": pickup_done, "home_arrival": home, "sequence_ok": sequence_ok,
            "left_early": left_early, "absence_minutes": absence,
            "rate_per_minute": p.rate_per_minute,
            "failed": (not sequence_ok) or home is None or left_early,
        }

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        """Steps ending before the event starts are never read; steps starting after its
        absence and stay spans cannot change a pickup and a homecoming already found."""
        w0, w1, w_end = self.span
        if all(s.step_end < w0 for s in steps):
            return True
        return (base["pickup_done"] is not None and base["home_arrival"] is not None
                and all(s.step_start >= max(w1, w_end) for s in steps))

    @classmethod
    def hint(cls, params: HomeStayEventParams) -> str:
        return (f"From {params.w0}: first wait at least {params.min_pickup_dwell_minutes} min "
                f"within {params.radius_km:g} km of ({params.pickup_lat}, {params.pickup_lng}), "
                f"then go home ({params.home_lat}, {params.home_lng}) and stay without any move "
                f"or order until {params.w_end}; every minute away from home before {params.w1} "
                f"costs {params.rate_per_minute:g} yuan.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, c, now = self.params, counters, ctx.now
        w0, w1, w_end = self.span
        away = c["absence_minutes"]
        line = f"errand from {p.w0}: " + (
            "home, stay" if c["home_arrival"] is not None and c["pickup_done"] is not None
            else "pickup done" if c["pickup_done"] is not None else "pickup not yet")
        line += f", {away} min away so far"
        # due once the drive to the pickup, with the slack, would reach it by the start: a
        # driver far away at the start pays every minute of the drive (P24, 250 km off)
        lead = ctx.go_minutes(p.pickup_lat, p.pickup_lng) if c["pickup_done"] is None else 0
        if now >= w_end or now < w0 - DUE_SLACK - lead:
            return (Status.OK if not c["failed"] else Status.AT_RISK), line, None
        if self.sequence_lost(c):
            # only the minutes away are left to save, until w1
            if now >= w1:
                return Status.AT_RISK, line, None
            if not ctx.near(p.home_lat, p.home_lng, p.radius_km):
                return Status.DUE, line, Todo("go", "errand lost: home", lat=p.home_lat,
                                              lng=p.home_lng)
            return Status.DUE, line, Todo("wait", "errand lost: stay home", minutes=w1 - now)
        if c["pickup_done"] is None:
            if ctx.near(p.pickup_lat, p.pickup_lng, p.radius_km):
                # a wait there counts once it ends after the start: one wait until then
                return Status.DUE, line, Todo("wait", "errand pickup", minutes=max(
                    1, p.min_pickup_dwell_minutes, w0 + 1 - now))
            return Status.DUE, line, Todo("go", "errand pickup", lat=p.pickup_lat,
                                          lng=p.pickup_lng)
        if not ctx.near(p.home_lat, p.home_lng, p.radius_km):
            return Status.DUE, line, Todo("go", "errand: home", lat=p.home_lat, lng=p.home_lng)
        return Status.DUE, line, Todo("wait", "errand: stay home", minutes=w_end - now)

    @staticmethod
    def sequence_lost(counters: Counters) -> bool:
        """The once-fine can no longer be avoided: the first homecoming after the start came
        before the pickup (the official test takes the first), or the driver left home early
        after it."""
        c = counters
        return bool(c["left_early"]) or (c["home_arrival"] is not None
                                         and not c["sequence_ok"])

    def follow_counters(self, counters: Counters, ctx: ProgressContext
                        ) -> tuple[Counters, Counters] | None:
        """Followed from now: the pickup (after the drive there and its dwell, not before the
        start), then the drive home, each minute of [w0, w1) until then away; given up: taken
        to be away until w1, and failed. Only the once-fine was at stake before, so a driver
        250 km off at the start weighed 1,000 against the drive and put it off hour by hour
        while the minutes away cost 3 each (P24 of a fresh set: 626 minutes away, failure
        class "an errand priced at its once-fine"). Once the sequence is lost
        (`sequence_lost`), following is going home, and only the minutes away differ. None
        from w1 on (no minute away is counted any more: the once-fine is one more break's),
        near home with the pickup done (the stay is a wait, priced as one) or where the
        driver is not known."""
        p, c, now = self.params, counters, ctx.now
        w0, w1, _ = self.span
        if ctx.position is None or now >= w1:
            return None
        lost_already = self.sequence_lost(c)
        if lost_already:
            home = (now if ctx.near(p.home_lat, p.home_lng, p.radius_km)
                    else now + ctx.go_minutes(p.home_lat, p.home_lng))
        elif c["pickup_done"] is None:
            done = max(now + ctx.go_minutes(p.pickup_lat, p.pickup_lng)
                       + p.min_pickup_dwell_minutes, w0 + 1)
            home = done + drive_minutes(Point(p.pickup_lat, p.pickup_lng).km_to(
                p.home_lat, p.home_lng), ctx.speed_kmh)
        elif not ctx.near(p.home_lat, p.home_lng, p.radius_km):
            home = now + ctx.go_minutes(p.home_lat, p.home_lng)
        else:
            return None
        start = max(now, w0)
        kept = {**c, "absence_minutes": c["absence_minutes"] + max(0, min(home, w1) - start),
                "failed": lost_already}
        lost = {**c, "absence_minutes": c["absence_minutes"] + max(0, w1 - start),
                "failed": True}
        return kept, lost

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if not hit(f, r"家|屋企|home|house"):
            return None
        rate = rate_per_minute(f.num)
        walls = _walls(f)
        pts = f.points if len(f.coords) < 2 else [p for p in f.points if p.source == "coordinates"]
        event = hit(f, EVENT)
        if rate is None or len(walls) < 2 or len(pts) < 2:
            if event and (rate is not None or hit(f, r"一次性|one-off|one-time|额外")):
                # the family event, but a time, a point or the rate is missing: claim it with
                # the gaps open, so the reading is reported ambiguous, never read as a curfew
                pk = hm = None
                if len(pts) >= 2:
                    pk, hm = pts[0], pts[1]
                elif pts and rx.search(r"家|屋企|home", f.low[max(0, pts[0].start - 12):
                                                            pts[0].start]):
                    hm = pts[0]
                elif pts:
                    pk = pts[0]
                w0, w1, w_end = (_times(f, walls) if len(walls) >= 2
                                 else (walls[0][0] if walls else None, None, None))
                return Claim("home_stay_event", 4.0, {
                    "w0": w0, "w1": w1, "w_end": w_end,
                    "pickup_lat": pk and pk.lat, "pickup_lng": pk and pk.lng,
                    "home_lat": hm and hm.lat, "home_lng": hm and hm.lng,
                    "radius_km": f.radius or 1.0, "min_pickup_dwell_minutes": 0,
                    "rate_per_minute": rate})
            return None
        pk, hm = pts[0], pts[1]
        home = r"家|屋企|home"
        if rx.search(home, f.low[max(0, pk.start - 12):pk.start]) and not rx.search(
                home, f.low[max(0, hm.start - 12):hm.start]):
            pk, hm = hm, pk
        w0, w1, w_end = _times(f, walls)
        dw = [m for m, p in f.durations if pk.start - 40 <= p]
        sources = {f"{k}_lat,{k}_lng": p.source for k, p in (("pickup", pk), ("home", hm))
                   if p.source != "coordinates"}
        # one radius for both points: the home's county radius when the home is a county,
        # else the default (a pickup county's radius would make "home" a whole district)
        radius = f.radius or hm.radius_km or 1.0
        if not f.radius and hm.radius_km:
            sources["radius_km"] = hm.source
        return Claim("home_stay_event", 3.5 + 0.5 * event,
                         {"w0": w0, "w1": w1, "w_end": w_end, "pickup_lat": pk.lat,
                          "pickup_lng": pk.lng, "home_lat": hm.lat, "home_lng": hm.lng,
                          "radius_km": radius,
                          "min_pickup_dwell_minutes": int(dw[0]) if dw else 0,
                          "rate_per_minute": rate}, sources)

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[HomeStayEventParams]:
        d = ctx.day(0, max(1, ctx.days - 1))
        w0 = int(ctx.step(8 * 60, 18 * 60, 30))
        w1 = w0 + int(ctx.step(180, 300, 60))
        w_end = 1440 + int(ctx.step(6 * 60, 9 * 60, 30))
        pk = ctx.near_county(60.0, min_km=5.0)
        home = (round(ctx.home[0], 2), round(ctx.home[1], 2))
        dwell = int(ctx.step(10, 30, 5))
        rate = float(ctx.step(1, 10, 0.5))
        params = HomeStayEventParams(
            w0=wall_at(d, w0), w1=wall_at(d, w1), w_end=wall_at(d, w_end),
            pickup_lat=round(pk.lat, 2), pickup_lng=round(pk.lng, 2),
            home_lat=home[0], home_lng=home[1], radius_km=1.0,
            min_pickup_dwell_minutes=dwell, rate_per_minute=rate)
        return Drawn(params, {"d": d, "d1": d + dt.timedelta(days=1), "w0": clock(w0),
                              "w1": clock(w1), "we": clock(w_end),
                              "pk": (round(pk.lat, 2), round(pk.lng, 2)), "hm": home, "dw": dwell,
                              "rate": f"{rate:g}"})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        pk, hm = pt(*v["pk"], "zh"), pt(*v["hm"], "zh")
        d, d1 = zh_date(v["d"]), zh_date(v["d1"])
        return [f"临时约定：{d}{v['w0']}起家里有急事，先到{pk}接上家人，"
                f"原地停留不少于{v['dw']}分钟，"
                f"再返回老家{hm}，至少待到{d1}{v['we']}方可再出车。{d}{v['w0']}至{v['w1']}"
                f"不在家每分钟罚{v['rate']}元",
                f"家事：{d}{v['w0']}开始，先去{pk}接人（停留不少于{v['dw']}分钟），然后回家{hm}，"
                f"到家后待到{d1}{v['we']}。{v['w0']}到{v['w1']}不在家每分钟罚{v['rate']}元"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        pk, hm = pt(*v["pk"], "en"), pt(*v["hm"], "en")
        d, d1 = en_date(v["d"]), en_date(v["d1"])
        return [f"Family matter from {d} {v['w0']}: pick up a relative at {pk} (wait at least "
                f"{v['dw']} minutes), then go home to {hm} and stay until {d1} {v['we']}. Every "
                f"minute away from home between {v['w0']} and {v['w1']} costs {v['rate']} yuan",
                f"Errand on {d}: from {v['w0']}, collect family at {pk} ({v['dw']}+ minutes "
                "there), "
                f"return home {hm}, remain until {v['we']} on {d1}; {v['rate']} yuan per minute "
                f"away from home until {v['w1']}"]


# §8: "a home point plus spouse or family-event wording with per-minute fines means K24"
EVENT = (r"家事|急事|家里有事|屋企有事|临时约定|接上|接人|配偶|老婆|老公|妻子|丈夫|爱人|媳妇|"
         r"家人|家属|spouse|wife|husband|family|relative|errand")
_STOP = r"[;；。]|\.(?=\s|$)"
_ABSENT = (r"不在家|唔喺屋企|缺席|absen|away|not (?:at )?home|每分钟|/\s*分钟|按分钟|per minute|"
           r"every minute|each minute|a minute|迟到|晚到|晚了|\blate\b")
_STAY = (r"(?:待到|待至|留到|留至|呆到|呆至|住到|停留至|停留到|一直到|直到|"
         r"在家(?:里)?(?:待|呆|留)?(?:到|至)|"
         r"stay(?:s|ing)?\b[^.;,]{0,24}?(?:until|till)|remain[^.;,]{0,24}?(?:until|till)|"
         r"until|till)\s*$")
# the end of a span, a day part allowed before it (从十点到下午三点)
_SPAN = (r"^\s*(?:至|到|~|-|and|to|until|till)\s*(?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里|晚|早)?"
         r"\s*$")


def _clause(f: Facts, k: Clock) -> str:
    a = max([m.end() for m in rx.finditer(_STOP, f.num[:k.start])] or [0])
    b = rx.search(_STOP, f.num[k.end:])
    return f.low[a:k.end + (b.start() if b else len(f.num))]


def _times(f: Facts, walls: list[tuple[str, Clock]]) -> tuple[str, str, str]:
    """(w0, w1, w_end): w0 the first wall time; w1 the end of the span (or the `until`) of a
    clause about absence or per-minute fines; w_end the `stay/待到 … until` time. With no
    absence window written, absence runs to the stay-home end (w1 = w_end); a home-by
    deadline (20:00前到家) is no parameter of its own: lateness is absence from w0."""
    w0 = walls[0][0]
    w1 = w_end = None
    prev: Clock | None = walls[0][1]
    for w, k in walls[1:]:
        head = max([d.start for d in f.dates if d.end <= k.start and k.start - d.end <= 6
                    and not rx.search(r"\d|" + _STOP, f.num[d.end:k.start])] or [k.start])
        pre = f.low[max(0, head - 16):head]
        span_end = prev is not None and rx.search(_SPAN, f.low[prev.end:head], re.I)
        absent = rx.search(_ABSENT, _clause(f, k), re.I)
        ends = rx.search(r"(?:until|till|before|到|至)\s*$", pre)
        opening = span_end and prev is walls[0][1] and not rx.search(_STAY, pre, re.I)
        if w1 is None and ((absent and (span_end or ends)) or opening):
            # the span's end: of a clause about absence, or of the event's own opening span
            # (下午4点到晚上10点之间 … 接孩子 … 待到次日早上7点: absence counts 16:00-22:00)
            w1 = w
        elif w_end is None and (rx.search(_STAY, pre, re.I) or rx.match(
                r"\s*(?:方可|才能|才可以|才可|才)?\s*(?:再)?出车", f.num[k.end:])):
            w_end = w
        prev = k
    w_end = w_end or max(w for w, _ in walls)
    return w0, w1 or w_end, w_end
