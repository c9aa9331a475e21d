"""K11: steps starting or ending within r of a centre are fined (per step, or A once)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sim.geo import Point, great_circle_km
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn, counties
from sim.preferences.kinds.params import Km, Lat, Lng, Params
from sim.preferences.kinds.wording import pt
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text import rx
from sim.preferences.text.common import DAYS_N, ENTER, REFUSE, Claim, hit, int_before
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class ForbiddenCircleParams(Params):
    lat: Lat
    lng: Lng
    radius_km: Km
    mode: Literal["per_step", "once"] = "per_step"


class ForbiddenCircle(Kind):
    name = "forbidden_circle"
    number = 11
    family = "geofence outside"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"半径|圆|周围|方圆|附近|公里|km|radius|circle|around|within|near|away")
    model = PenaltyModel.COUNT
    Params = ForbiddenCircleParams
    scope = Scope.STEP

    @property
    def penalty_model(self) -> PenaltyModel:
        return PenaltyModel.FLAT if self.params.mode == "once" else PenaltyModel.COUNT

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        bad = [s.index for s in log.steps if ctx.step_in_scope(s) and (
            s.before.km_to(p.lat, p.lng) <= p.radius_km
            or s.after.km_to(p.lat, p.lng) <= p.radius_km)]
        return {"violations": len(bad), "failed": bool(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenCircleParams) -> str:
        how = "once" if params.mode == "once" else "per step"
        return (f"Never start or end a step within {params.radius_km:g} km of "
                f"({params.lat}, {params.lng}) "
                f"(fined {how}).")

    def allows_place(self, p: Point) -> bool:
        return p.km_to(self.params.lat, self.params.lng) > self.params.radius_km

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
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
        score = 2.0 + 0.8 * hit(f, ENTER) + 0.4 * hit(f, r"半径|圆|radius|circle|区域|zone|area|"
                                                         r"为中心|方圆")
        if f.dates:
            score -= 1.5
        if hit(f, r"回家|到家|离家|在家|住所|住处|\bhome\b"):  # the point is home: K4 or K24
            score -= 1.0
        # a count of days or visits (not of fines: 去一次罚两百)
        counts = [p for _, p in int_before(f, DAYS_N)
                  if not rx.match(r"\d+\s*次\s*(?:就|都)?\s*(?:罚|扣|赔)", f.low[p:])]
        if len(f.coords) >= 2 or counts:
            score -= 1.0
        once = hit(f, r"最多扣一次|只扣一次|一次性|仅扣一次|只罚一次|只算一次|扣一次|罚一次|"
                      r"\bonce\b|one-time|one-off|single (?:fine|charge|penalty)|"
                      r"single\s+\d+\s*(?:yuan|元)\s+(?:fine|charge|penalty)|only one fine|"
                      r"one fine|fined once|just once|只罚\s*1\s*次|整月只罚|进几次都|进多少次都|"
                      r"只罚这\s*[一1]\s*[回次]|不会多罚|"
                      r"不管进几次|无论进几次|single sum|upon the first breach|"
                      r"(?:notwithstanding|regardless of|irrespective of) the number of entries|"
                      r"however many times|no matter how many times")
        # "每一步都罚 200 元（不是一次性）", "not a one-off": the once words negated
        if once and hit(f, r"不是一次性|并非一次性|不是只罚一次|"
                            r"not (?:a )?(?:one-off|one-time|once)"):
            once = False
        return Claim("forbidden_circle", score,
                         {"lat": lat, "lng": lng, "radius_km": float(r),
                          "mode": "once" if once else "per_step"})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "step"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[ForbiddenCircleParams]:
        lat, lng = ctx.home
        far = [c for c in counties() if great_circle_km(lat, lng, c.lat, c.lng) > 25]
        c = ctx.pick(far)
        r = float(ctx.step(3, 20, 1))
        mode = "once" if ctx.rng.random() < 0.3 else "per_step"
        at = round(c.lat, 2), round(c.lng, 2)
        return Drawn(ForbiddenCircleParams(lat=at[0], lng=at[1], radius_km=r, mode=mode),
                     {"lat": at[0], "lng": at[1], "r": f"{r:g}", "once": mode == "once",
                      "name_zh": c.name_zh, "name_en": c.name_en})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "zh")
        return [f"不得进入以{p}为圆心、半径{v['r']}公里的区域。",
                f"{v['name_zh']}一带，圆心{p}半径{v['r']}公里内不去。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        p = pt(v["lat"], v["lng"], "en")
        return [f"Never enter the area within {v['r']} km of {p}.",
                f"Avoid {v['name_en']}: no stops or passes within {v['r']} km of {p}."]
