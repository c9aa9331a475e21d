"""K12: on the listed days, no order touching the place and no move into the box."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sim.geo import LAT_MAX, LAT_MIN, LNG_MAX, LNG_MIN, PREFECTURES_ZH
from sim.official.penalties import PenaltyModel
from sim.official.steps import ActionKind, StepLog
from sim.official.timebase import DAY, date_to_day
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn, counties
from sim.preferences.kinds.k10_stay_inside_bbox import BBox
from sim.preferences.kinds.params import Params, ParamsError
from sim.preferences.kinds.wording import en_date, zh_date
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text.common import ENTER, REFUSE, Claim, from_date, hit, rule_place
from sim.preferences.text.extract import Facts, distinct_isos
from sim.typed_values import Date


@dataclass(frozen=True)
class DateRegionParams(Params):
    dates: list[Date]
    bbox: BBox | None = None
    place: str | None = None

    def check(self, where: str) -> None:
        if not self.dates:
            raise ParamsError(f"{where}.dates: expected at least one date")
        if self.bbox is None and self.place is None:
            raise ParamsError(f"{where}.place: a place or a bbox is required")


class DateRegionAvoid(Kind):
    name = "date_region_avoid"
    number = 12
    family = "named place + dates"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"不|别|avoid|no |not|never|don't|stay out|keep out|away|禁止")
    model = PenaltyModel.COUNT
    Params = DateRegionParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        days = [date_to_day(x) for x in p.dates]
        bad = []
        for s in log.steps:
            if s.action is ActionKind.WAIT or not ctx.step_in_scope(s):
                continue
            a, b = s.action_start, s.action_end
            if not any(max(a, DAY * d) < min(b, DAY * d + DAY) for d in days):
                continue
            if s.accepted:
                cargo = log.cargo.get(s.cargo_id or "")
                hit = p.place is not None and cargo is not None and (
                    p.place in cargo.start_city or p.place in cargo.end_city)
            else:
                hit = p.bbox is not None and (p.bbox.contains(s.before)
                                              or p.bbox.contains(s.after))
            if hit:
                bad.append(s.index)
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: DateRegionParams) -> str:
        where = params.place or "the given box"
        return (f"On {', '.join(params.dates)} take no cargo loading or unloading in {where} and "
                f"do not drive into that area.")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if not f.dates or not (f.places or f.bbox):
            return None
        if not hit(f, ENTER + "|" + REFUSE + r"|查车|检查|限行|管制|封路|别往|别去|不往|严查|查|"
                                             r"别接"):
            return None
        score = 2.8
        if from_date(f):
            score -= 1.5  # from the 15th on: when a standing rule starts, not a day to avoid
        if f.durations and hit(f, r"停|待|留|呆|stay|spend|stop|wait|dwell"):
            score -= 1.0  # hours to spend at the place: a dwell (K22), not an avoidance
        return Claim("date_region_avoid", score,
                         {"dates": sorted(distinct_isos(f.dates)), "bbox": f.bbox,
                          "place": rule_place(f).name_zh if f.places else None})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "step"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[DateRegionParams]:
        en = ctx.other_prefecture()
        zh = PREFECTURES_ZH[en]
        first = ctx.day(0, max(1, ctx.days - 2))
        span = int(ctx.pick([1, 1, 2, 3]))
        dates = [first + dt.timedelta(days=i) for i in range(span)]
        dates = [d for d in dates if (d - ctx.start).days < ctx.days]
        bbox = _prefecture_bbox(en) if ctx.rng.random() < 0.5 else None
        params = DateRegionParams(dates=tuple(d.isoformat() for d in dates),
                                  bbox=None if bbox is None else BBox(**bbox), place=zh)
        return Drawn(params, {"p_zh": zh, "p_en": en, "bbox": bbox,
                              "d_zh": "、".join(zh_date(d) for d in dates),
                              "d_en": " and ".join(en_date(d) for d in dates)})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        b = v["bbox"]
        box = (f"（北纬{b['lat_min']:.2f}至{b['lat_max']:.2f}，东经{b['lng_min']:.2f}至"
               f"{b['lng_max']:.2f}）" if b else "")
        return [f"{v['d_zh']}不往{v['p_zh']}{box}跑，派进去的货都不接。",
                f"{v['d_zh']}{v['p_zh']}{box}查车，那边的货不接，车也不进去。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        b = v["bbox"]
        box = (f" (lat {b['lat_min']:.2f}-{b['lat_max']:.2f}, lng {b['lng_min']:.2f}-"
               f"{b['lng_max']:.2f})" if b else "")
        return [f"On {v['d_en']}, stay out of {v['p_en']}{box} and take no cargo to or from it.",
                f"{v['p_en']}{box} is closed to me on {v['d_en']}: no trips, no loads there."]


def _prefecture_bbox(city_en: str) -> dict[str, float]:
    """The box around a prefecture's counties (their radii included), clipped to the province."""
    cs = [c for c in counties() if c.city_en == city_en]
    pad = [c.radius_km / 111.0 for c in cs]
    return {
        "lat_min": round(max(LAT_MIN, min(c.lat - p for c, p in zip(cs, pad, strict=True))), 2),
        "lat_max": round(min(LAT_MAX, max(c.lat + p for c, p in zip(cs, pad, strict=True))), 2),
        "lng_min": round(max(LNG_MIN, min(c.lng - p for c, p in zip(cs, pad, strict=True))), 2),
        "lng_max": round(min(LNG_MAX, max(c.lng + p for c, p in zip(cs, pad, strict=True))), 2),
    }
