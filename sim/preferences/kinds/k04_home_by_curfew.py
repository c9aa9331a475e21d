"""K4: be within r of home at the curfew and stay inactive until quiet_until the next day."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sim.geo import Point
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.official.timebase import DAY, hhmm_to_minutes
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock
from sim.preferences.kinds.params import Km, Lat, Lng, Params
from sim.preferences.kinds.wording import pt
from sim.preferences.progress import DUE_SLACK, Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text import rx
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Clock, Facts
from sim.typed_values import HHMM


@dataclass(frozen=True, kw_only=True)  # fields in docs/competition.md §7.5's order, defaults inside
class HomeByCurfewParams(Params):
    lat: Lat
    lng: Lng
    radius_km: Km = 1.0
    curfew: HHMM
    quiet_until: HHMM


class HomeByCurfew(Kind):
    name = "home_by_curfew"
    number = 4
    family = "homing"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"家|住所|住处|home|house|residence")
    model = PenaltyModel.COUNT
    Params = HomeByCurfewParams
    scope = Scope.DAY

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = []
        for d in ctx.days:
            t, quiet_end = self.night(d)
            ended = [s for s in log.steps if s.step_end <= t]
            if ended:
                pos = ended[-1].after
            elif log.steps:
                pos = log.steps[0].before
            else:
                pos = ctx.initial
            away = pos is None or pos.km_to(p.lat, p.lng) > p.radius_km
            if away or log.active_overlaps(t, quiet_end):
                bad.append(d)
        return {"violations": len(bad), "violating_days": bad}

    @classmethod
    def hint(cls, params: HomeByCurfewParams) -> str:
        return (f"Be within {params.radius_km:g} km of home ({params.lat}, {params.lng}) by "
                f"{params.curfew} every day and take no order nor empty move until "
                f"{params.quiet_until} the next morning.")

    def rest_point(self) -> Point:
        return Point(self.params.lat, self.params.lng)

    def night(self, day: int) -> tuple[int, int]:
        """Day `day`'s curfew night: from the curfew to the end of the next morning's quiet."""
        p = self.params
        return (DAY * day + hhmm_to_minutes(p.curfew),
                DAY * (day + 1) + hhmm_to_minutes(p.quiet_until))

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p = self.params
        status, fined = self.fined(penalty)
        now, today = ctx.now, ctx.today
        home = ctx.near(p.lat, p.lng, p.radius_km)
        for d in (today - 1, today):  # the curfew night of yesterday or of today
            a, b = self.night(d)
            if a <= now < b:
                if not home:  # away at the curfew: that night is lost, waiting saves nothing
                    return (Status.VIOLATED, f"away from home after the {p.curfew} curfew{fined}",
                            None)
                return (Status.DUE, f"home quiet time until {p.quiet_until}{fined}",
                        Todo("wait", "home quiet time", minutes=b - now))
        cur, _ = self.night(today)
        go = ctx.go_minutes(p.lat, p.lng)
        line = f"home by {p.curfew}: {'at home' if home else f'{go} min drive away'}{fined}"
        todo = None
        if not home and cur - now - go <= DUE_SLACK:
            if now + go <= cur:  # still reachable in time
                status, todo = Status.DUE, Todo("go", "home by curfew", lat=p.lat, lng=p.lng)
            else:
                status = Status.AT_RISK if status is Status.OK else status
        elif home and cur - now <= DUE_SLACK:  # at home close to the curfew: stay
            status, todo = Status.DUE, Todo("wait", "home by curfew", minutes=cur - now)
        return status, line, todo

    def rest_ends(self, ctx: ProgressContext) -> tuple[int, ...]:
        """At home: to the end of the quiet time of the night the driver is in, or of
        tonight's when the curfew falls within half a day."""
        p = self.params
        if not ctx.near(p.lat, p.lng, p.radius_km):
            return ()
        return tuple(b for d in (ctx.today - 1, ctx.today) for a, b in [self.night(d)]
                     if b > ctx.now and a - ctx.now <= DAY // 2)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        home = (r"回家|到家|家里|家附近|自家|家门|在家|老家|离家|家中|住所|住处|住的地方|"
                # 返到蓬江家: home named by its place
                r"(?:回|返)到?[^,，。;；]{1,6}家(?![具电政属])|"
                # 家(23.68,113.05) 0.8km以内 23:00前回: the home named, then 前回
                r"家[^。;；]{0,40}前回(?![复应])|"
                r"\bhome\b|\bhouse\b|\bresidence\b|"
                # a yard the truck returns to for the night (a contract's 停车场, "base")
                r"(?:回到|返回|回)(?:停车场|车场|场站)|"
                r"(?:return(?:ed)?|back) to (?:the )?(?:base|yard|depot)\b")
        if not hit(f, home) or not f.clocks:
            return None
        if hit(f, r"每分钟|/\s*分钟|按分钟|每(?:迟到|晚到|晚|离开|不在家)\s*\S{0,2}分钟|"
                  r"per minute|a minute|each minute|every minute"):
            return None  # per-minute fines: the family event (K24), never a nightly curfew
        pt = f.coords[0] if f.coords else None
        lat = pt.lat if pt else (f.places[0].lat if f.places else None)
        lng = pt.lng if pt else (f.places[0].lng if f.places else None)
        if lat is None or lng is None:
            return None
        # a home given as a district/county: its centre and radius from the county table
        county = None if pt else next((p for p in f.points if p.radius_km), None)
        sources = {"lat,lng,radius_km": county.source} if county and not f.radius else {}
        score = 2.0 + 0.5 * hit(f, r"前|before|by|no later") + 0.5 * hit(f, r"次日|第二天|翌日|"
                                                                            r"next|"
                                                                            r"morning|until|直到")
        until = (r"(?:until|till|直到|一直到|到|至)\s*(?:次日|第二天|翌日|the next day|"
                 r"next morning)?\s*(?:早上|凌晨|上午)?\s*$")
        firsts = [c for c in f.clocks
                  if not rx.search(until, f.low[max(0, c.start - 16):c.start], re.I)]
        # the clock said as the deadline to be home by (home by 21:00, 9点前到家), before one of
        # the story's (the 9:40 bus); not the quiet time's end (6点前别出车)
        def homeward(c: Clock) -> bool:
            return c.before and (
                rx.match(r"\s*(?:之前|以前|前)?\s*(?:要|得|必须)?\s*(?:回|到|返)\s*(?:到)?\s*(?:家|住)",
                         f.low[c.end:c.end + 10]) is not None
                or rx.search(r"(?:home|back)\s+(?:\w+\s+){0,2}(?:by|before)\s*$",
                             f.low[max(0, c.start - 24):c.start], re.I) is not None)

        cur = next((c for c in firsts if homeward(c)), None) or (firsts[0] if firsts
                                                                 else f.clocks[0])
        # the quiet time's end: the first later clock that is another time of day (…23:00前回到
        # 住所 … 于当日23:00起至次日05:30止: the curfew said again, then its end)
        rest = [c for c in f.clocks if c.start > cur.start and c.minutes != cur.minutes] or [
            c for c in f.clocks if c.start > cur.start]
        quiet = rest[0] if rest else cur
        curfew = cur.hhmm
        if cur.bare and 5 * 60 <= cur.minutes < 12 * 60:  # 九点半前到家: a curfew is evening
            curfew = f"{cur.minutes // 60 + 12:02d}:{cur.minutes % 60:02d}"
        return Claim("home_by_curfew", score,
                         {"lat": lat, "lng": lng,
                          "radius_km": f.radius or (county.radius_km if county else 1.0),
                          "curfew": curfew, "quiet_until": quiet.hhmm}, sources)

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "day"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[HomeByCurfewParams]:
        lat, lng = round(ctx.home[0], 2), round(ctx.home[1], 2)
        r = 1.0 if ctx.rng.random() < 0.6 else float(ctx.pick([0.5, 1.5, 2.0]))
        curfew = clock(int(ctx.step(20 * 60, 23 * 60, 30)))
        quiet = clock(int(ctx.step(5 * 60, 7 * 60 + 30, 30)))
        return Drawn(HomeByCurfewParams(lat=lat, lng=lng, radius_km=r, curfew=curfew,
                                        quiet_until=quiet),
                     {"lat": lat, "lng": lng, "r": f"{r:g}", "c": curfew, "q": quiet})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "zh")
        r = "一公里" if v["r"] == "1" else f"{v['r']}公里"
        return [f"每天{v['c']}前回到家{p}{r}内，到家后直到次日{v['q']}不再接单、不空跑。",
                f"家在{p}，每晚{v['c']}之前必须到家附近{r}以内，之后到第二天{v['q']}不接单不空驶。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "en")
        return [f"Be home, within {v['r']} km of {p}, by {v['c']} each day; after that no orders "
                f"and no empty driving until {v['q']} the next morning.",
                f"Home {p}: back within {v['r']} km by {v['c']}, then stay off work until "
                f"{v['q']} next day."]
