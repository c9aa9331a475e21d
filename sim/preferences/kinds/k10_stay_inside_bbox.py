"""K10: every step's logged before and after must lie inside the (inclusive) box."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.geo import LAT_MAX, LAT_MIN, LNG_MAX, LNG_MIN, Point
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Lat, Lng, Params, ParamsError
from sim.preferences.progress import Progress, ProgressContext, Scope, Status, Todo
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts

INSIDE = (r"范围内|之内|以内|不出|不要出|别出|不能出|不得出|不离开|始终|一直|只在|只跑|框内|内活动|"
          r"框框?里面?|出了这个框|"
          r"stay|inside|within|keep|remain|confined|never leave|not leave|don't leave|only (?:in|"
          r"within)")


@dataclass(frozen=True)
class BBox(Params):
    tag = "bbox"  # its name in the parsers' params table (sim/preferences/schema.py)

    lat_min: Lat
    lat_max: Lat
    lng_min: Lng
    lng_max: Lng

    def check(self, where: str) -> None:
        if self.lat_min > self.lat_max:
            raise ParamsError(f"{where}.lat_min: greater than lat_max")
        if self.lng_min > self.lng_max:
            raise ParamsError(f"{where}.lng_min: greater than lng_max")

    def contains(self, p: Point) -> bool:
        return self.lat_min <= p.lat <= self.lat_max and self.lng_min <= p.lng <= self.lng_max

    def nearest_inside(self, p: Point, margin: float = 0.01) -> Point:
        """The point just inside the box nearest to `p` (`margin` degrees in from an edge,
        so that rounded log coordinates stay inside)."""
        return Point(min(max(p.lat, self.lat_min + margin), self.lat_max - margin),
                     min(max(p.lng, self.lng_min + margin), self.lng_max - margin))


class StayInsideBBox(Kind):
    name = "stay_inside_bbox"
    number = 10
    family = "geofence inside"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"纬|经|lat|lng|lon|box|框|范围|区域|inside|within|area|bound|corner|角|"
               r"degrees? (?:north|east)|at all times|始终")
    model = PenaltyModel.COUNT
    Params = BBox
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        box = self.params
        bad = [s.index for s in log.steps if ctx.step_in_scope(s)
               and not (box.contains(s.before) and box.contains(s.after))]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: BBox) -> str:
        return (f"Keep the truck inside latitude {params.lat_min}-{params.lat_max}, longitude "
                f"{params.lng_min}-{params.lng_max} (every step ending or starting outside is "
                f"fined).")

    def allows_place(self, p: Point) -> bool:
        return self.params.contains(p)

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        p, pos = self.params, ctx.position
        if pos is None or p.contains(pos):
            return self.times_broken(counters, penalty)
        # every step starting or ending outside is fined: back to the nearest point inside
        _, fined = self.fined(penalty)
        back = p.nearest_inside(pos)
        return (Status.DUE, f"outside the allowed box; {counters.get('violations', 0)} steps fined"
                f"{fined}", Todo("go", "back inside the box", lat=back.lat, lng=back.lng))

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        if f.bbox is None:
            return None
        score = 2.0 + 1.0 * hit(f, INSIDE) + 0.5 * hit(f, r"框|\bbox\b|bounded|boundar")
        if f.dates:
            score -= 1.5
        return Claim("stay_inside_bbox", score, dict(f.bbox))

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "step"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[BBox]:
        lat, lng = ctx.home
        dlat, dlng = ctx.step(0.3, 0.8, 0.05), ctx.step(0.3, 0.9, 0.05)
        lat_min = round(max(LAT_MIN, lat - dlat * ctx.rng.uniform(0.3, 0.7)), 2)
        lng_min = round(max(LNG_MIN, lng - dlng * ctx.rng.uniform(0.3, 0.7)), 2)
        box = BBox(lat_min=lat_min, lat_max=round(min(LAT_MAX, lat_min + dlat), 2),
                   lng_min=lng_min, lng_max=round(min(LNG_MAX, lng_min + dlng), 2))
        return Drawn(box, {f"b_{k}": f"{v:.2f}" for k, v in box.to_dict().items()})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        b = (f"北纬{v['b_lat_min']}至{v['b_lat_max']}、东经{v['b_lng_min']}至{v['b_lng_max']}")
        return [f"车辆位置始终在{b}范围内。", f"只在{b}之间跑车，不出这个范围。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"Stay inside lat {v['b_lat_min']}-{v['b_lat_max']}, lng "
                f"{v['b_lng_min']}-{v['b_lng_max']} at all times.",
                f"Operating area: latitude {v['b_lat_min']} to {v['b_lat_max']}, longitude "
                f"{v['b_lng_min']} to {v['b_lng_max']}; never leave it."]
