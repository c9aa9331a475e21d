"""Preferences for generated drivers: every competition kind (docs/competition.md §7.5), drawn with
realistic numbers, fines and caps, and rendered as driver prose in Chinese or English.

Generated drivers need preferences that exercise the same kinds the real competition files do,
but our scorer must not depend on a parser to know what was drawn: each draw keeps its structured
form (docs/competition.md §7.5) beside the text, and `to_official` writes it into the drivers-file
object as the `structured` extension. Texts come from several templates per kind and language,
worded differently from the evaluation set (data/preference_eval.jsonl), so parser accuracy is not
inflated by generated drivers. Every random choice comes from the caller's numpy Generator.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np

from sim.geo import LAT_MAX, LAT_MIN, LNG_MAX, LNG_MIN, County, great_circle_km, load_counties
from sim.scoring.kinds import kind_names

# the scoring registry's kinds, in K-number order (the order draws pick from, so seeded draws
# stay as they were); a test checks _SPEC covers exactly them
KINDS: tuple[str, ...] = tuple(kind_names())

# The competition's cargo categories (Chinese names are what cargo records carry).
CATEGORIES: dict[str, str] = {
    "蔬菜": "vegetables", "水果": "fruit", "建材": "building materials",
    "化工塑料": "chemicals and plastics", "煤炭矿产": "coal and minerals",
    "机械设备": "machinery", "食品饮料": "food and drink", "鲜活水产品": "live seafood",
    "服饰纺织皮革": "clothing, textiles and leather", "快递快运搬家": "parcels and house moves",
}

# Prefecture-level cities: the county table names only their English form.
PREFECTURES_ZH: dict[str, str] = {
    "Guangzhou": "广州", "Shaoguan": "韶关", "Shenzhen": "深圳", "Zhuhai": "珠海",
    "Shantou": "汕头", "Foshan": "佛山", "Jiangmen": "江门", "Zhanjiang": "湛江",
    "Maoming": "茂名", "Zhaoqing": "肇庆", "Huizhou": "惠州", "Meizhou": "梅州",
    "Shanwei": "汕尾", "Heyuan": "河源", "Yangjiang": "阳江", "Qingyuan": "清远",
    "Dongguan": "东莞", "Zhongshan": "中山", "Chaozhou": "潮州", "Jieyang": "揭阳",
    "Yunfu": "云浮",
}

Lang = Literal["zh", "en", "mixed"]


@dataclass(frozen=True)
class DrawnPreference:
    """One drawn preference: its text and the structured form the text was rendered from."""

    text: str
    kind: str
    params: dict[str, Any]
    penalty_amount: float
    penalty_cap: float | None
    start_time: str | None
    end_time: str | None


def to_official(dp: DrawnPreference) -> dict[str, Any]:
    """The drivers-file preference object (S2-S4 form) plus our `structured` extension."""
    return {
        "content": dp.text,
        "start_time": dp.start_time,
        "end_time": dp.end_time,
        "penalty_amount": dp.penalty_amount,
        "penalty_cap": dp.penalty_cap,
        "structured": {"kind": dp.kind, "params": dp.params},
    }


# ---------------------------------------------------------------------------------------------
# Context and small helpers


@dataclass(frozen=True)
class _Ctx:
    rng: np.random.Generator
    home: tuple[float, float]
    start: dt.date
    days: int
    lang: str

    def pick(self, seq: Sequence[Any]) -> Any:
        return seq[int(self.rng.integers(len(seq)))]

    def step(self, lo: float, hi: float, step: float) -> float:
        """A multiple of `step` in [lo, hi], uniformly."""
        k = int(self.rng.integers(round((hi - lo) / step) + 1))
        return round(lo + k * step, 6)

    def day(self, lo: int = 0, hi_excl: int | None = None) -> dt.date:
        hi = self.days if hi_excl is None else hi_excl
        return self.start + dt.timedelta(days=int(self.rng.integers(lo, max(lo + 1, hi))))

    def near_county(self, max_km: float = 120.0, min_km: float = 0.0) -> County:
        lat, lng = self.home
        near = [c for c in _counties()
                if min_km <= great_circle_km(lat, lng, c.lat, c.lng) <= max_km]
        return self.pick(near or _counties())


@cache
def _counties() -> tuple[County, ...]:
    return tuple(load_counties())


def _hm(minutes: int) -> str:
    minutes %= 1440
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _wall(day: dt.date, minutes: int) -> str:
    t = dt.datetime.combine(day, dt.time()) + dt.timedelta(minutes=minutes)
    return t.strftime("%Y-%m-%d %H:%M:%S")


def _zh_date(d: dt.date) -> str:
    return f"{d.month}月{d.day}日"


_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December")  # not strftime: locale-free


def _en_date(d: dt.date) -> str:
    return f"{_MONTHS_EN[d.month - 1]} {d.day}, {d.year}"


def _en_month(ym: str) -> str:
    return f"{_MONTHS_EN[int(ym[5:]) - 1]} {ym[:4]}"


def _hours(minutes: int) -> str:
    h = minutes / 60
    return f"{h:g}"


def _pt(lat: float, lng: float, lang: str) -> str:
    return f"（{lat:.2f}，{lng:.2f}）" if lang == "zh" else f"({lat:.2f}, {lng:.2f})"


def _prefecture_bbox(city_en: str) -> dict[str, float]:
    cs = [c for c in _counties() if c.city_en == city_en]
    pad = [c.radius_km / 111.0 for c in cs]
    return {
        "lat_min": round(max(LAT_MIN, min(c.lat - p for c, p in zip(cs, pad, strict=True))), 2),
        "lat_max": round(min(LAT_MAX, max(c.lat + p for c, p in zip(cs, pad, strict=True))), 2),
        "lng_min": round(max(LNG_MIN, min(c.lng - p for c, p in zip(cs, pad, strict=True))), 2),
        "lng_max": round(min(LNG_MAX, max(c.lng + p for c, p in zip(cs, pad, strict=True))), 2),
    }


def _other_prefecture(ctx: _Ctx) -> str:
    """A prefecture (English key) that is not the one the driver lives in."""
    lat, lng = ctx.home
    home_city = min(_counties(), key=lambda c: great_circle_km(lat, lng, c.lat, c.lng)).city_en
    return ctx.pick([k for k in PREFECTURES_ZH if k != home_city])


# ---------------------------------------------------------------------------------------------
# Per-kind parameter draws. Each returns (params, vars for the text templates).

Draw = tuple[dict[str, Any], dict[str, Any]]


def _k1(ctx: _Ctx) -> Draw:
    m = int(ctx.step(4, 10, 1)) * 60
    days = "weekdays" if ctx.rng.random() < 0.25 else "all"
    return {"min_minutes": m, "days": days}, {"h": _hours(m), "weekdays": days == "weekdays"}


def _k2(ctx: _Ctx) -> Draw:
    start = int(ctx.pick([21 * 60, 21 * 60 + 30, 22 * 60, 22 * 60 + 30, 23 * 60, 0]))
    end = (start + int(ctx.step(5, 8, 1)) * 60) % 1440
    ws = _hm(start + 60) if ctx.rng.random() < 0.3 else None
    return ({"start": _hm(start), "end": _hm(end), "weekend_start": ws},
            {"s": _hm(start), "e": _hm(end), "ws": ws, "next": "次日" if end <= start else ""})


def _k3(ctx: _Ctx) -> Draw:
    if ctx.rng.random() < 0.6:
        start = int(ctx.pick([22 * 60, 23 * 60, 0, 60]))
        end = (start + int(ctx.step(3, 6, 1)) * 60) % 1440
        count = "per_day"
    else:
        start = int(ctx.pick([11 * 60 + 30, 12 * 60, 12 * 60 + 30, 17 * 60 + 30, 18 * 60]))
        end = start + int(ctx.pick([60, 90]))
        count = "per_step"
    return ({"start": _hm(start), "end": _hm(end), "count": count},
            {"s": _hm(start), "e": _hm(end), "meal": count == "per_step",
             "next": "次日" if end <= start else ""})


def _k4(ctx: _Ctx) -> Draw:
    lat, lng = round(ctx.home[0], 2), round(ctx.home[1], 2)
    r = 1.0 if ctx.rng.random() < 0.6 else float(ctx.pick([0.5, 1.5, 2.0]))
    curfew = _hm(int(ctx.step(20 * 60, 23 * 60, 30)))
    quiet = _hm(int(ctx.step(5 * 60, 7 * 60 + 30, 30)))
    return ({"lat": lat, "lng": lng, "radius_km": r, "curfew": curfew, "quiet_until": quiet},
            {"lat": lat, "lng": lng, "r": f"{r:g}", "c": curfew, "q": quiet})


def _k5(ctx: _Ctx) -> Draw:
    k = int(ctx.pick([1, 1, 2, 3]))
    cats = [str(c) for c in ctx.rng.choice(list(CATEGORIES), size=k, replace=False)]
    return ({"categories": cats},
            {"cats_zh": "、".join(f"「{c}」" for c in cats),
             "cats_en": " or ".join(f"「{c}」 ({CATEGORIES[c]})" for c in cats)})


def _place(ctx: _Ctx) -> tuple[str, str, str]:
    """(param, zh text name, en text name) of a prefecture. The param is the Chinese name as
    written in a Chinese text (with or without 市), the short Chinese name for an English one."""
    en = _other_prefecture(ctx)
    zh = PREFECTURES_ZH[en] + ("市" if ctx.lang == "zh" and ctx.rng.random() < 0.3 else "")
    return zh, zh, en


def _k6(ctx: _Ctx) -> Draw:
    p, zh, en = _place(ctx)
    return {"place": p}, {"p_zh": zh, "p_en": en}


def _km(lo: float, hi: float, step: float) -> Callable[[_Ctx], Draw]:
    def draw(ctx: _Ctx) -> Draw:
        km = float(ctx.step(lo, hi, step))
        return {"max_km": km}, {"km": f"{km:g}"}
    return draw


def _k10(ctx: _Ctx) -> Draw:
    lat, lng = ctx.home
    dlat, dlng = ctx.step(0.3, 0.8, 0.05), ctx.step(0.3, 0.9, 0.05)
    box = {
        "lat_min": round(max(LAT_MIN, lat - dlat * ctx.rng.uniform(0.3, 0.7)), 2),
        "lat_max": 0.0,
        "lng_min": round(max(LNG_MIN, lng - dlng * ctx.rng.uniform(0.3, 0.7)), 2),
        "lng_max": 0.0,
    }
    box["lat_max"] = round(min(LAT_MAX, box["lat_min"] + dlat), 2)
    box["lng_max"] = round(min(LNG_MAX, box["lng_min"] + dlng), 2)
    return box, {f"b_{k}": f"{v:.2f}" for k, v in box.items()}


def _k11(ctx: _Ctx) -> Draw:
    lat, lng = ctx.home
    far = [c for c in _counties() if great_circle_km(lat, lng, c.lat, c.lng) > 25]
    c = ctx.pick(far)
    r = float(ctx.step(3, 20, 1))
    mode = "once" if ctx.rng.random() < 0.3 else "per_step"
    return ({"lat": round(c.lat, 2), "lng": round(c.lng, 2), "radius_km": r, "mode": mode},
            {"lat": round(c.lat, 2), "lng": round(c.lng, 2), "r": f"{r:g}", "once": mode == "once",
             "name_zh": c.name_zh, "name_en": c.name_en})


def _k12(ctx: _Ctx) -> Draw:
    en = _other_prefecture(ctx)
    zh = PREFECTURES_ZH[en]
    first = ctx.day(0, max(1, ctx.days - 2))
    span = int(ctx.pick([1, 1, 2, 3]))
    dates = [first + dt.timedelta(days=i) for i in range(span)]
    dates = [d for d in dates if (d - ctx.start).days < ctx.days]
    bbox = _prefecture_bbox(en) if ctx.rng.random() < 0.5 else None
    return ({"dates": [d.isoformat() for d in dates], "bbox": bbox, "place": zh},
            {"p_zh": zh, "p_en": en, "bbox": bbox,
             "d_zh": "、".join(_zh_date(d) for d in dates),
             "d_en": " and ".join(_en_date(d) for d in dates)})


def _days(lo: int, hi: int) -> Callable[[_Ctx], Draw]:
    def draw(ctx: _Ctx) -> Draw:
        n = int(ctx.step(lo, min(hi, max(lo, ctx.days // 3)), 1))
        return {"min_days": n}, {"n": n}
    return draw


def _k15(ctx: _Ctx) -> Draw:
    n = int(ctx.step(1, 5, 1))
    return {"max_orders": n}, {"n": n}


def _k16(ctx: _Ctx) -> Draw:
    t = _hm(int(ctx.step(7 * 60, 12 * 60, 30)))
    return {"latest": t}, {"t": t}


def _k17(ctx: _Ctx) -> Draw:
    c = ctx.near_county()
    r = 1.0 if ctx.rng.random() < 0.7 else float(ctx.pick([0.5, 2.0, 3.0]))
    n = int(ctx.step(2, min(8, max(2, ctx.days // 3)), 1))
    lat, lng = round(c.lat, 2), round(c.lng, 2)
    return ({"lat": lat, "lng": lng, "radius_km": r, "min_days": n},
            {"lat": lat, "lng": lng, "r": f"{r:g}", "n": n, "name_zh": c.name_zh})


def _k18(ctx: _Ctx) -> Draw:
    p, zh, en = _place(ctx)
    n = int(ctx.step(2, min(6, max(2, ctx.days // 4)), 1))
    return {"place": p, "min_days": n}, {"p_zh": zh, "p_en": en, "n": n}


def _k19(ctx: _Ctx, cargo_ids: Sequence[str] | None) -> Draw:
    cid = str(ctx.pick(cargo_ids)) if cargo_ids else str(int(ctx.rng.integers(100000, 999999)))
    return {"cargo_id": cid}, {"id": cid}


def _months(ctx: _Ctx) -> list[str]:
    out: list[str] = []
    for i in range(ctx.days):
        m = (ctx.start + dt.timedelta(days=i)).strftime("%Y-%m")
        if m not in out:
            out.append(m)
    return out


def _k20(ctx: _Ctx) -> Draw:
    months = _months(ctx)
    cat = ctx.pick(list(CATEGORIES))
    n = int(ctx.step(2, 8, 1))
    carry = None
    i = int(ctx.rng.integers(len(months)))
    if i > 0 and ctx.rng.random() < 0.5:
        carry = {"category": cat, "month": months[i - 1], "min_orders": int(ctx.step(2, 6, 1))}
    month = months[i]
    return ({"category": cat, "month": month, "min_orders": n, "carry_from": carry},
            {"cat": cat, "cat_en": CATEGORIES[cat], "n": n, "carry": carry,
             "m_zh": f"{month[:4]}年{int(month[5:])}月",
             "m_en": _en_month(month)})


def _k21(ctx: _Ctx) -> Draw:
    t = int(ctx.step(5, 12, 1)) * 60
    n = int(ctx.step(1, 5, 1))
    return {"threshold_minutes": t, "max_per_month": n}, {"h": _hours(t), "n": n}


def _k22(ctx: _Ctx) -> Draw:
    c = ctx.near_county()
    d = ctx.day()
    stated = ctx.rng.random() < 0.4
    r = float(ctx.pick([0.5, 1.0, 3.0])) if stated else 2.0
    dwell = int(ctx.step(30, 240, 30))
    by = _hm(int(ctx.step(8 * 60, 16 * 60, 30))) if ctx.rng.random() < 0.6 else None
    lat, lng = round(c.lat, 2), round(c.lng, 2)
    return ({"date": d.isoformat(), "lat": lat, "lng": lng, "radius_km": r,
             "min_dwell_minutes": dwell, "arrive_by": by},
            {"d": d, "lat": lat, "lng": lng, "r": f"{r:g}" if stated else None, "dw": dwell,
             "by": by})


def _k23(ctx: _Ctx) -> Draw:
    d = ctx.day()
    stated = ctx.rng.random() < 0.4
    r = float(ctx.pick([1.0, 1.5, 3.0])) if stated else 2.0
    t = int(ctx.step(7 * 60, 10 * 60, 30))
    stops: list[dict[str, Any]] = []
    for _ in range(int(ctx.pick([2, 2, 3]))):
        c = ctx.near_county(80.0)
        while any(great_circle_km(c.lat, c.lng, s["lat"], s["lng"]) < 5 for s in stops):
            c = ctx.pick(_counties())  # distinct stops; rare, so any county will do
        dwell = 0 if ctx.rng.random() < 0.25 else int(ctx.step(20, 90, 10))
        stops.append({"lat": round(c.lat, 2), "lng": round(c.lng, 2), "arrive_by": _hm(t),
                      "min_dwell_minutes": dwell})
        t += int(ctx.step(120, 240, 30))
    return ({"date": d.isoformat(), "radius_km": r, "stops": stops},
            {"d": d, "r": f"{r:g}" if stated else None, "stops": stops})


def _k24(ctx: _Ctx) -> Draw:
    d = ctx.day(0, max(1, ctx.days - 1))
    w0 = int(ctx.step(8 * 60, 18 * 60, 30))
    w1 = w0 + int(ctx.step(180, 300, 60))
    w_end = 1440 + int(ctx.step(6 * 60, 9 * 60, 30))
    pk = ctx.near_county(60.0, min_km=5.0)
    hm = (round(ctx.home[0], 2), round(ctx.home[1], 2))
    dwell = int(ctx.step(10, 30, 5))
    rate = float(ctx.step(1, 10, 0.5))
    params = {"w0": _wall(d, w0), "w1": _wall(d, w1), "w_end": _wall(d, w_end),
              "pickup_lat": round(pk.lat, 2), "pickup_lng": round(pk.lng, 2),
              "home_lat": hm[0], "home_lng": hm[1], "radius_km": 1.0,
              "min_pickup_dwell_minutes": dwell, "rate_per_minute": rate}
    d1 = d + dt.timedelta(days=1)
    return params, {"d": d, "d1": d1, "w0": _hm(w0), "w1": _hm(w1), "we": _hm(w_end),
                    "pk": (round(pk.lat, 2), round(pk.lng, 2)), "hm": hm, "dw": dwell,
                    "rate": f"{rate:g}"}


# ---------------------------------------------------------------------------------------------
# Text templates. Each is a function of (vars) so conditional pieces stay readable.

T = Callable[[dict[str, Any]], str]


def _zh_k1(v: dict[str, Any]) -> list[str]:
    wd = "工作日（周一至周五）" if v["weekdays"] else ""
    return [f"{wd or '每天'}我得有一整段不少于{v['h']}小时的连续休息，停车熄火，中间不能被打断。",
            f"{wd}每日连续停车休息时长不低于{v['h']}小时。",
            f"{wd}跑车再忙，一天里也要连着歇够{v['h']}个小时。"]


def _en_k1(v: dict[str, Any]) -> list[str]:
    when = "every weekday (Monday to Friday)" if v["weekdays"] else "every day"
    return [f"I need one continuous rest of at least {v['h']} hours {when}.",
            f"Rest rule: {when}, one uninterrupted stop of {v['h']} hours or more."]


def _zh_k2(v: dict[str, Any]) -> list[str]:
    w = f"；周六周日从{v['ws']}开始" if v["ws"] else ""
    return [f"每天{v['s']}到{v['next']}{v['e']}是我的睡觉时间，必须停车熄火休息{w}。",
            f"每晚{v['s']}至{v['next']}{v['e']}全程停车休息，雷打不动{w}。",
            f"夜间{v['s']}—{v['next']}{v['e']}须在车上休息，不得行驶{w}。"]


def _en_k2(v: dict[str, Any]) -> list[str]:
    w = f" On Saturdays and Sundays it starts at {v['ws']}." if v["ws"] else ""
    return [f"I sleep every night from {v['s']} to {v['e']}: the truck must be parked the whole "
            f"time.{w}",
            f"Mandatory rest window {v['s']}-{v['e']} each night, fully parked.{w}"]


def _zh_k3(v: dict[str, Any]) -> list[str]:
    if v["meal"]:
        return [f"每天{v['s']}到{v['e']}吃饭歇脚，这段时间不接单、不空驶。",
                f"{v['s']}至{v['e']}是饭点，不接单也不空车跑，停车等着可以。"]
    return [f"每天{v['s']}至{v['next']}{v['e']}不接单，也不空车赶路，路边停车不算违规。",
            f"{v['s']}到{v['next']}{v['e']}这段时间不接单、不空跑。",
            f"夜里{v['s']}至{v['next']}{v['e']}车不动：不接单，不空驶。"]


def _en_k3(v: dict[str, Any]) -> list[str]:
    what = "meal break" if v["meal"] else "quiet hours"
    return [f"{what.capitalize()} {v['s']}-{v['e']}: no orders and no empty driving; parking "
            "is fine.",
            f"Between {v['s']} and {v['e']} ({what}) I take no orders and do not drive empty."]


def _zh_k4(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "zh")
    r = "一公里" if v["r"] == "1" else f"{v['r']}公里"
    return [f"每天{v['c']}前回到家{p}{r}内，到家后直到次日{v['q']}不再接单、不空跑。",
            f"家在{p}，每晚{v['c']}之前必须到家附近{r}以内，之后到第二天{v['q']}不接单不空驶。"]


def _en_k4(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "en")
    return [f"Be home, within {v['r']} km of {p}, by {v['c']} each day; after that no orders "
            f"and no empty driving until {v['q']} the next morning.",
            f"Home {p}: back within {v['r']} km by {v['c']}, then stay off work until "
            f"{v['q']} next day."]


def _zh_k5(v: dict[str, Any]) -> list[str]:
    return [f"货源品类为{v['cats_zh']}的货一律不接。",
            f"{v['cats_zh']}这类活儿我不拉，推掉。",
            f"本车不承接{v['cats_zh']}品类的订单。"]


def _en_k5(v: dict[str, Any]) -> list[str]:
    return [f"I refuse cargo of category {v['cats_en']}.",
            f"No {v['cats_en']} loads on my truck."]


def _zh_k6(v: dict[str, Any]) -> list[str]:
    return [f"装货地或卸货地在{v['p_zh']}的货不接。",
            f"{v['p_zh']}那一路的货我不拉，装货卸货哪头在{v['p_zh']}都不行。"]


def _en_k6(v: dict[str, Any]) -> list[str]:
    return [f"I do not take cargo whose loading or unloading city is {v['p_en']}.",
            f"No loads that start or end in {v['p_en']}."]


def _zh_k7(v: dict[str, Any]) -> list[str]:
    return [f"单笔订单装货点至卸货点不得超过{v['km']}公里。",
            f"装卸距离超过{v['km']}公里的单子不接。"]


def _en_k7(v: dict[str, Any]) -> list[str]:
    return [f"No single order with a haul longer than {v['km']} km from loading to unloading.",
            f"Maximum haul per order: {v['km']} km."]


def _zh_k8(v: dict[str, Any]) -> list[str]:
    return [f"接单后赶去装货点的空驶距离不能超过{v['km']}公里。",
            f"去装货那一程空车超过{v['km']}公里的单不接。"]


def _en_k8(v: dict[str, Any]) -> list[str]:
    return [f"The empty drive to a pickup must not exceed {v['km']} km.",
            f"Skip orders whose loading point is more than {v['km']} km away."]


def _zh_k9(v: dict[str, Any]) -> list[str]:
    return [f"月度空驶（赶路）里程总和不得超过{v['km']}公里。",
            f"一个月空车跑的里程加起来不超过{v['km']}公里。"]


def _en_k9(v: dict[str, Any]) -> list[str]:
    return [f"Keep the month's total empty mileage at or below {v['km']} km.",
            f"Monthly deadhead budget: {v['km']} km."]


def _zh_k10(v: dict[str, Any]) -> list[str]:
    b = (f"北纬{v['b_lat_min']}至{v['b_lat_max']}、东经{v['b_lng_min']}至{v['b_lng_max']}")
    return [f"车辆位置始终在{b}范围内。", f"只在{b}之间跑车，不出这个范围。"]


def _en_k10(v: dict[str, Any]) -> list[str]:
    return [f"Stay inside lat {v['b_lat_min']}-{v['b_lat_max']}, lng "
            f"{v['b_lng_min']}-{v['b_lng_max']} at all times.",
            f"Operating area: latitude {v['b_lat_min']} to {v['b_lat_max']}, longitude "
            f"{v['b_lng_min']} to {v['b_lng_max']}; never leave it."]


def _zh_k11(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "zh")
    return [f"不得进入以{p}为圆心、半径{v['r']}公里的区域。",
            f"{v['name_zh']}一带，圆心{p}半径{v['r']}公里内不去。"]


def _en_k11(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "en")
    return [f"Never enter the area within {v['r']} km of {p}.",
            f"Avoid {v['name_en']}: no stops or passes within {v['r']} km of {p}."]


def _zh_k12(v: dict[str, Any]) -> list[str]:
    b = v["bbox"]
    box = (f"（北纬{b['lat_min']:.2f}至{b['lat_max']:.2f}，东经{b['lng_min']:.2f}至"
           f"{b['lng_max']:.2f}）" if b else "")
    return [f"{v['d_zh']}不往{v['p_zh']}{box}跑，派进去的货都不接。",
            f"{v['d_zh']}{v['p_zh']}{box}查车，那边的货不接，车也不进去。"]


def _en_k12(v: dict[str, Any]) -> list[str]:
    b = v["bbox"]
    box = (f" (lat {b['lat_min']:.2f}-{b['lat_max']:.2f}, lng {b['lng_min']:.2f}-"
           f"{b['lng_max']:.2f})" if b else "")
    return [f"On {v['d_en']}, stay out of {v['p_en']}{box} and take no cargo to or from it.",
            f"{v['p_en']}{box} is closed to me on {v['d_en']}: no trips, no loads there."]


def _zh_k13(v: dict[str, Any]) -> list[str]:
    return [f"每个自然月至少{v['n']}个整天不接单。", f"一个月里要有{v['n']}天放空不接单。"]


def _en_k13(v: dict[str, Any]) -> list[str]:
    return [f"At least {v['n']} days a month without any orders.",
            f"Leave {v['n']} order-free days in each month."]


def _zh_k14(v: dict[str, Any]) -> list[str]:
    return [f"每月至少{v['n']}个整天完全停驶，既不接单也不空车乱跑。",
            f"一个月要有{v['n']}天车处于静止，不出车，检修保养。"]


def _en_k14(v: dict[str, Any]) -> list[str]:
    return [f"At least {v['n']} full days a month with the truck not moving at all: no orders, "
            "no empty driving.",
            f"{v['n']} complete days off per month, truck parked from 00:00 to 24:00."]


def _zh_k15(v: dict[str, Any]) -> list[str]:
    return [f"同一天接单不得超过{v['n']}单。", f"每天最多接{v['n']}单。"]


def _en_k15(v: dict[str, Any]) -> list[str]:
    o = "order" if v["n"] == 1 else "orders"
    return [f"No more than {v['n']} {o} on any one day.",
            f"Daily limit: {v['n']} {o}."]


def _zh_k16(v: dict[str, Any]) -> list[str]:
    return [f"这天接了单的话，首单开工不得晚于当天{v['t']}。",
            f"有活的日子，第一单要在{v['t']}之前开始。"]


def _en_k16(v: dict[str, Any]) -> list[str]:
    return [f"On days with orders, the first one starts before {v['t']}.",
            f"First order of a working day must begin earlier than {v['t']}."]


def _zh_k17(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "zh")
    return [f"每月至少{v['n']}个不同的自然日到过{p}{v['r']}公里内，同日多次只算一天。",
            f"每个月要去{v['name_zh']}的固定地点{p}方圆{v['r']}公里内{v['n']}次以上，"
            "一天去几次只算一天。"]


def _en_k17(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "en")
    return [f"Be within {v['r']} km of {p} on at least {v['n']} different days each month.",
            f"Visit {p} (within {v['r']} km) on {v['n']} or more separate days a month."]


def _zh_k18(v: dict[str, Any]) -> list[str]:
    return [f"装货或卸货在{v['p_zh']}的货，每月要接够{v['n']}个不同的日子，同一天几单只算一天。",
            f"每月至少{v['n']}天接到装货地或卸货地在{v['p_zh']}的单。"]


def _en_k18(v: dict[str, Any]) -> list[str]:
    return [f"Take orders loading or unloading in {v['p_en']} on at least {v['n']} different "
            "days a month.",
            f"{v['p_en']} cargo (either end) on {v['n']}+ distinct days per month."]


def _zh_k19(v: dict[str, Any]) -> list[str]:
    return [f"临时约定：老客户的熟货，货源编号{v['id']}，必须接。",
            f"指定货源编号{v['id']}的单子一定要拉。"]


def _en_k19(v: dict[str, Any]) -> list[str]:
    return [f"Promised to an old customer: take cargo {v['id']}.",
            f"Cargo ID {v['id']} is a must-take order."]


def _zh_k20(v: dict[str, Any]) -> list[str]:
    c = v["carry"]
    carry = (f"；{int(c['month'][5:])}月「{c['category']}」要求{c['min_orders']}单，欠的单数接着补"
             if c else "")
    return [f"考核指标：{v['m_zh']}货源类型是「{v['cat']}」的货必须接满{v['n']}单{carry}。",
            f"{v['m_zh']}KPI：「{v['cat']}」类订单至少{v['n']}单{carry}。"]


def _en_k20(v: dict[str, Any]) -> list[str]:
    c = v["carry"]
    carry = ""
    if c:
        carry = (f"; any shortfall on {_en_month(c['month'])}'s quota of {c['min_orders']} "
                 f"「{c['category']}」 orders carries over")
    return [f"KPI for {v['m_en']}: at least {v['n']} 「{v['cat']}」 ({v['cat_en']}) orders{carry}.",
            f"In {v['m_en']} I must haul {v['n']} or more 「{v['cat']}」 loads{carry}."]


def _zh_k21(v: dict[str, Any]) -> list[str]:
    return [f"耗时超过{v['h']}小时的长途远活，每个月最多接{v['n']}单。",
            f"单笔超过{v['h']}小时的大半天活，一个月不超过{v['n']}单。"]


def _en_k21(v: dict[str, Any]) -> list[str]:
    return [f"At most {v['n']} orders a month that take longer than {v['h']} hours.",
            f"Long hauls (over {v['h']} hours): no more than {v['n']} per month."]


def _zh_k22(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "zh")
    r = f"{v['r']}公里内" if v["r"] else ""
    by = f"{v['by']}前到，" if v["by"] else ""
    return [f"{_zh_date(v['d'])}当天要到{p}{r}停一趟，{by}停够{v['dw']}分钟。",
            f"{_zh_date(v['d'])}当天去{p}{r}，{by}在那里停留不少于{v['dw']}分钟。"]


def _en_k22(v: dict[str, Any]) -> list[str]:
    p = _pt(v["lat"], v["lng"], "en")
    r = f" (within {v['r']} km)" if v["r"] else ""
    by = f", arriving by {v['by']}" if v["by"] else ""
    by2 = f" by {v['by']}" if v["by"] else ""
    return [f"On {_en_date(v['d'])}, stop at {p}{r} for at least {v['dw']} minutes{by}.",
            f"{_en_date(v['d'])}: be at {p}{r}{by2} and stay {v['dw']} minutes."]


def _zh_k23(v: dict[str, Any]) -> list[str]:
    parts = []
    for i, s in enumerate(v["stops"]):
        head = "先到" if i == 0 else "再到"
        stay = f"，待{s['min_dwell_minutes']}分钟" if s["min_dwell_minutes"] else ""
        parts.append(f"{head}{_pt(s['lat'], s['lng'], 'zh')}，{s['arrive_by']}前赶到{stay}")
    r = f"（每个点{v['r']}公里内算到）" if v["r"] else ""
    return [f"{_zh_date(v['d'])}当天{r}" + "；".join(parts) + "。",
            f"{_zh_date(v['d'])}行程{r}：" + "；".join(parts) + "。"]


def _en_k23(v: dict[str, Any]) -> list[str]:
    parts = []
    for i, s in enumerate(v["stops"]):
        head = "first" if i == 0 else "then"
        stay = f" and stay {s['min_dwell_minutes']} minutes" if s["min_dwell_minutes"] else ""
        parts.append(f"{head} reach {_pt(s['lat'], s['lng'], 'en')} by {s['arrive_by']}{stay}")
    r = f" (each stop within {v['r']} km)" if v["r"] else ""
    return [f"On {_en_date(v['d'])}{r}: " + "; ".join(parts) + ".",
            f"Route for {_en_date(v['d'])}{r} — " + ", ".join(parts) + "."]


def _zh_k24(v: dict[str, Any]) -> list[str]:
    pk, hm = _pt(*v["pk"], "zh"), _pt(*v["hm"], "zh")
    d, d1 = _zh_date(v["d"]), _zh_date(v["d1"])
    return [f"临时约定：{d}{v['w0']}起家里有急事，先到{pk}接上家人，原地停留不少于{v['dw']}分钟，"
            f"再返回老家{hm}，至少待到{d1}{v['we']}方可再出车。{d}{v['w0']}至{v['w1']}"
            f"不在家每分钟罚{v['rate']}元",
            f"家事：{d}{v['w0']}开始，先去{pk}接人（停留不少于{v['dw']}分钟），然后回家{hm}，"
            f"到家后待到{d1}{v['we']}。{v['w0']}到{v['w1']}不在家每分钟罚{v['rate']}元"]


def _en_k24(v: dict[str, Any]) -> list[str]:
    pk, hm = _pt(*v["pk"], "en"), _pt(*v["hm"], "en")
    d, d1 = _en_date(v["d"]), _en_date(v["d1"])
    return [f"Family matter from {d} {v['w0']}: pick up a relative at {pk} (wait at least "
            f"{v['dw']} minutes), then go home to {hm} and stay until {d1} {v['we']}. Every "
            f"minute away from home between {v['w0']} and {v['w1']} costs {v['rate']} yuan",
            f"Errand on {d}: from {v['w0']}, collect family at {pk} ({v['dw']}+ minutes there), "
            f"return home {hm}, remain until {v['we']} on {d1}; {v['rate']} yuan per minute "
            f"away from home until {v['w1']}"]


# kind -> (draw, zh templates, en templates, penalty model, unit)
_SPEC: dict[str, tuple[Callable[..., Draw], T, T, str, str]] = {
    "daily_continuous_rest": (_k1, _zh_k1, _en_k1, "count", "day"),
    "rest_window_full_coverage": (_k2, _zh_k2, _en_k2, "count", "day"),
    "quiet_window": (_k3, _zh_k3, _en_k3, "count", "step"),
    "home_by_curfew": (_k4, _zh_k4, _en_k4, "count", "day"),
    "forbidden_cargo_category": (_k5, _zh_k5, _en_k5, "count", "order"),
    "forbidden_cargo_place": (_k6, _zh_k6, _en_k6, "count", "order"),
    "max_haul_km": (_km(100, 400, 10), _zh_k7, _en_k7, "count", "order"),
    "max_pickup_deadhead_km": (_km(15, 80, 5), _zh_k8, _en_k8, "count", "order"),
    "max_total_deadhead_km": (_km(500, 2500, 100), _zh_k9, _en_k9, "km", "km"),
    "stay_inside_bbox": (_k10, _zh_k10, _en_k10, "count", "step"),
    "forbidden_circle": (_k11, _zh_k11, _en_k11, "count", "step"),
    "date_region_avoid": (_k12, _zh_k12, _en_k12, "count", "step"),
    "min_days_without_orders": (_days(2, 8), _zh_k13, _en_k13, "once", ""),
    "min_full_off_days": (_days(2, 6), _zh_k14, _en_k14, "once", ""),
    "max_orders_per_day": (_k15, _zh_k15, _en_k15, "extra", "order"),
    "first_order_deadline": (_k16, _zh_k16, _en_k16, "count", "day"),
    "min_visit_days": (_k17, _zh_k17, _en_k17, "once", ""),
    "min_region_order_days": (_k18, _zh_k18, _en_k18, "once", ""),
    "must_take_cargo": (_k19, _zh_k19, _en_k19, "once", ""),
    "monthly_category_quota": (_k20, _zh_k20, _en_k20, "short", "order"),
    "monthly_long_haul_cap": (_k21, _zh_k21, _en_k21, "extra", "order"),
    "dwell_at_point_on_day": (_k22, _zh_k22, _en_k22, "once", ""),
    "route_stops_on_day": (_k23, _zh_k23, _en_k23, "once", ""),
    "home_stay_event": (_k24, _zh_k24, _en_k24, "event", ""),
}

_UNIT_ZH = {"day": "每天不满足", "order": "每接一单", "step": "每违反一次"}
_UNIT_EN = {"day": "per day missed", "order": "per order", "step": "per violation"}


def _amounts(ctx: _Ctx, model: str) -> tuple[float, float | None]:
    """(A, C) by penalty model: per day/order/step 50-300 yuan, per km 1-5, one-shot
    500-3000 (C = A as in all known data, sometimes null), per-minute events 500-3000 extra."""
    if model == "count":
        a = ctx.step(50, 300, 10)
        return a, None if ctx.rng.random() < 0.3 else a * float(ctx.pick([5, 10, 15, 20, 30]))
    if model == "km":
        a = ctx.step(1, 5, 0.5)
        return a, None if ctx.rng.random() < 0.4 else ctx.step(1000, 5000, 500)
    if model == "once":
        a = ctx.step(500, 3000, 100)
        return a, a if ctx.rng.random() < 0.7 else None
    if model in ("extra", "short"):
        return ctx.step(50, 300, 10), None
    a = ctx.step(500, 3000, 100)
    return a, None if ctx.rng.random() < 0.5 else ctx.step(2000, 6000, 500)


def _fine_text(lang: str, model: str, unit: str, a: float, c: float | None) -> str:
    """The fine as drivers write it (S1 strings carry it in the text)."""
    A = f"{a:g}"  # noqa: N806 - the spec's names for amount and cap
    C = None if c is None else f"{c:g}"  # noqa: N806
    if lang == "zh":
        s = {"count": f"{_UNIT_ZH.get(unit, '每次')}扣钱{A}元", "km": f"超出部分每公里扣{A}元",
             "once": f"不满足一次性罚{A}元", "once_in": f"进入的话最多扣一次，罚{A}元",
             "extra": f"每多一单扣{A}元",
             "short": f"少一单扣{A}元", "event": f"提前离家或未按约定完成额外一次性罚{A}元"}[model]
        if model in ("count", "km", "event"):
            s += "，上不封顶" if C is None else f"，累计上限{C}元"
        return s + "。"
    s = {"count": f"{A} yuan {_UNIT_EN.get(unit, 'each time')}",
         "km": f"{A} yuan per km over", "once": f"{A} yuan once if missed",
         "once_in": f"entering costs {A} yuan, charged once at most",
         "extra": f"{A} yuan per extra order", "short": f"{A} yuan per missing order",
         "event": f"leaving early or missing the plan costs an extra {A} yuan once"}[model]
    if model in ("count", "km", "event"):
        s += ", no cap" if C is None else f", capped at {C} yuan"
    return s[0].upper() + s[1:] + "."


def _window(ctx: _Ctx, kind: str) -> tuple[str, str]:
    """Validity window (both bounds inclusive): the whole horizon, except a must-take cargo's
    window of one to three days."""
    first, last = ctx.start, ctx.start + dt.timedelta(days=ctx.days - 1)
    if kind == "must_take_cargo":
        first = ctx.day()
        last = min(last, first + dt.timedelta(days=int(ctx.rng.integers(0, 3))))
    return f"{first.isoformat()} 00:00:00", f"{last.isoformat()} 23:59:59"


def draw_preferences(rng: np.random.Generator, n: int, *, lang: Lang = "zh",
                     kinds: set[str] | None = None, home: tuple[float, float],
                     start_day: dt.date, days: int,
                     cargo_ids: Sequence[str] | None = None) -> list[DrawnPreference]:
    """`n` preferences for one driver living at `home`, over `days` days from `start_day`.

    Kinds are drawn without repetition while `n` allows (one driver rarely states two rules of
    the same kind); `cargo_ids` lets a scenario point must-take rules at cargo that exists.
    """
    pool = [k for k in KINDS if kinds is None or k in kinds]
    unknown = set(kinds or ()) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown preference kinds: {sorted(unknown)}")
    if n < 0 or days < 1 or not pool:
        raise ValueError("need n >= 0, days >= 1 and at least one kind")
    picks = [str(k) for k in rng.choice(pool, size=n, replace=n > len(pool))]
    out = []
    for kind in picks:
        lg = lang if lang != "mixed" else ("zh" if rng.random() < 0.5 else "en")
        ctx = _Ctx(rng, (float(home[0]), float(home[1])), start_day, int(days), lg)
        draw, zh, en, model, unit = _SPEC[kind]
        params, v = draw(ctx, cargo_ids) if kind == "must_take_cargo" else draw(ctx)
        always = model == "event"  # the per-minute errand states its fines in its own wording
        if kind == "forbidden_circle" and params["mode"] == "once":
            model, always = "once", True  # without the fine sentence the mode would be unsaid
        if kind == "quiet_window" and params["count"] == "per_day":
            unit = "day"
        a, c = _amounts(ctx, model)
        text = str(ctx.pick((zh if lg == "zh" else en)(v)))
        if always or rng.random() < 0.5:
            fine_model = "once_in" if kind == "forbidden_circle" and model == "once" else model
            sep = {("zh", True): "，", ("en", True): ". ", ("zh", False): "", ("en", False): " "}
            text += sep[lg, model == "event"] + _fine_text(lg, fine_model, unit, a, c)
        s, e = _window(ctx, kind)
        out.append(DrawnPreference(text, kind, params, float(a), None if c is None else float(c),
                                   s, e))
    return out
