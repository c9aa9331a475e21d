"""Write the evaluation drivers files (docs/evaluation.md): a `tune` and a `heldout` split.

Each driver gets 3-4 rules drawn so that every one of the 24 kinds (docs/competition.md §7.5)
appears in each split, with the kinds the brief names (rest, curfews, city boxes, off days,
quotas, errands, family events, must-take cargo) several times. Homes spread over busy and
quiet Guangdong cities. Texts come from `phrases.py`; the gold reading goes in `structured`
and is checked with the scorer's own reader before anything is written.

Must-take cargo (K19) names a real cargo id of the market the file is for, so there is one
drivers file per split and market: `drivers_<split>.json` for the calibrated market,
`drivers_<split>_<market>.json` for the others; they differ only in the K19 rules.

    python benchmarks/policy_eval/make_drivers.py          # rewrite every file (about 2 min)
    python benchmarks/policy_eval/make_drivers.py --check  # verify the files are up to date
    python benchmarks/policy_eval/make_drivers.py --fresh 4242017 --out runs/fresh
        # a fresh set: 22 new drivers on a new draw of the calibrated market, never tuned on
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from phrases import SAYERS  # noqa: E402

from sim.geo import PREFECTURES_ZH, County, haversine_km, load_counties  # noqa: E402
from sim.preferences.kinds import build_rule, kind_names  # noqa: E402
from sim.scenario import parse_scenario  # noqa: E402
from sim.world.cargo_stream import official_cargo_records  # noqa: E402

MONTH_START, MONTH_END = "2026-03-01 00:00:00", "2026-03-31 23:59:59"
SPLITS = {"tune": (32, 20261903, "T"), "heldout": (22, 20261977, "H")}
# market name -> scenario TOML of that market (any split: only the cargo matters here)
MARKETS = {"calibrated": "calibrated-tune.toml", "east": "east-tune.toml"}
# market name -> the TOML a fresh draw of it starts from (`--fresh`, blind_set.py): a split's
# market its held-out TOML; west and delta have no split, only fresh sets, so nothing was
# tuned on them
FRESH_MARKETS = {"calibrated": "calibrated-heldout.toml", "east": "east-heldout.toml",
                 "west": "west-fresh.toml", "delta": "delta-fresh.toml"}

# how many of each kind per split (tune); heldout scales these down, at least one each
KIND_COUNTS = {
    "daily_continuous_rest": 7, "rest_window_full_coverage": 6, "quiet_window": 7,
    "home_by_curfew": 5, "forbidden_cargo_category": 7, "forbidden_cargo_place": 4,
    "max_haul_km": 4, "max_pickup_deadhead_km": 5, "max_total_deadhead_km": 4,
    "stay_inside_bbox": 4, "forbidden_circle": 3, "date_region_avoid": 3,
    "min_days_without_orders": 3, "min_full_off_days": 3, "max_orders_per_day": 6,
    "first_order_deadline": 4, "min_visit_days": 3, "min_region_order_days": 3,
    "must_take_cargo": 5, "monthly_category_quota": 4, "monthly_long_haul_cap": 4,
    "dwell_at_point_on_day": 3, "route_stops_on_day": 2, "home_stay_event": 3,
}
# home cities: busy Pearl River Delta and quiet east/west/north Guangdong
HOME_CITIES = {"Shenzhen": 6, "Dongguan": 5, "Guangzhou": 5, "Foshan": 4, "Huizhou": 3,
               "Zhongshan": 1.5, "Jiangmen": 1.5, "Zhuhai": 1, "Jieyang": 2, "Shantou": 1.5,
               "Meizhou": 1.5, "Chaozhou": 1, "Shanwei": 1, "Heyuan": 1, "Zhanjiang": 1.5,
               "Maoming": 1, "Yangjiang": 1, "Zhaoqing": 1, "Qingyuan": 1, "Shaoguan": 1,
               "Yunfu": 1}
PLATE = {"Guangzhou": "A", "Shenzhen": "B", "Zhuhai": "C", "Shantou": "D", "Foshan": "E",
         "Shaoguan": "F", "Zhanjiang": "G", "Zhaoqing": "H", "Jiangmen": "J", "Maoming": "K",
         "Huizhou": "L", "Meizhou": "M", "Shanwei": "N", "Heyuan": "P", "Yangjiang": "Q",
         "Qingyuan": "R", "Dongguan": "S", "Zhongshan": "T", "Chaozhou": "U", "Jieyang": "V",
         "Yunfu": "W"}
CATEGORIES = {"蔬菜": "vegetables", "水果": "fruit", "建材": "building materials",
              "化工塑料": "chemicals and plastics", "煤炭矿产": "coal and minerals",
              "机械设备": "machinery", "食品饮料": "food and drinks",
              "鲜活水产品": "live seafood", "服饰纺织皮革": "clothing and textiles",
              "快递快运搬家": "parcels and moving"}
QUOTA_CATS = ["蔬菜", "建材", "食品饮料", "水果", "机械设备"]
DOWNTOWNS = [("广州天河中心区", "downtown Tianhe, Guangzhou", 23.1369, 113.3261),
             ("深圳福田中心区", "Futian CBD, Shenzhen", 22.5431, 114.0579),
             ("东莞南城", "Nancheng, Dongguan", 23.0207, 113.7518),
             ("佛山禅城老城区", "old Chancheng, Foshan", 23.0307, 113.1134),
             ("珠海拱北口岸", "Gongbei port, Zhuhai", 22.2174, 113.5522),
             ("汕头老市区", "old Shantou", 23.3541, 116.6819)]
ERRAND_NAMES = [("我妈家", "my mum's place"), ("车队停车场", "the fleet yard"),
                ("修理厂", "the repair shop"), ("物流园", "the logistics park"),
                ("老家", "my hometown house"), ("医院", "the hospital"),
                ("公司仓库", "the company warehouse"), ("老丈人家", "my in-laws")]
FAMILY = [("孩子学校", "the kids' school", "孩子", "the kids"),
          ("高铁站", "the train station", "我爸妈", "my parents"),
          ("医院", "the hospital", "老婆", "my wife"),
          ("汽车站", "the bus station", "老人", "grandma")]
SURNAMES = "陈李张王刘黄林吴周郑梁谢罗杨许何邓冯曾蔡"
GIVEN = ["建国", "志强", "国华", "海波", "伟", "俊杰", "明", "永红", "德胜", "小龙", "家豪",
         "锦荣", "振华", "文斌", "少锋", "桂林"]
PINYIN = {"陈": "Chen", "李": "Li", "张": "Zhang", "王": "Wang", "刘": "Liu", "黄": "Huang",
          "林": "Lin", "吴": "Wu", "周": "Zhou", "郑": "Zheng", "梁": "Liang", "谢": "Xie",
          "罗": "Luo", "杨": "Yang", "许": "Xu", "何": "He", "邓": "Deng", "冯": "Feng",
          "曾": "Zeng", "蔡": "Cai"}
TRUCKS = ["4.2米", "4.2米", "6.8米", "7.6米", "9.6米", "9.6米", "13米", "17.5米"]


@dataclass
class Home:
    county: County
    lat: float
    lng: float


def counties_by_city() -> dict[str, list[County]]:
    out: dict[str, list[County]] = {}
    for c in load_counties():
        out.setdefault(c.city_en, []).append(c)
    return out


def city_box(city: str, cbc: dict[str, list[County]]) -> dict[str, float]:
    """A box around a city's counties (seat +- radius, plus a margin), rounded outward."""
    lats, lngs = [], []
    for c in cbc[city]:
        dlat = c.radius_km / 111.0 + 0.05
        dlng = c.radius_km / (111.0 * math.cos(math.radians(c.lat))) + 0.05
        lats += [c.lat - dlat, c.lat + dlat]
        lngs += [c.lng - dlng, c.lng + dlng]
    def down(x: float) -> float:
        return math.floor(x * 100) / 100

    def up(x: float) -> float:
        return math.ceil(x * 100) / 100

    return {"lat_min": down(min(lats)), "lat_max": up(max(lats)),
            "lng_min": down(min(lngs)), "lng_max": up(max(lngs))}


def offset(lat: float, lng: float, km: float, rng: random.Random) -> tuple[float, float]:
    a = rng.uniform(0, 2 * math.pi)
    return (round(lat + km * math.sin(a) / 111.0, 4),
            round(lng + km * math.cos(a) / (111.0 * math.cos(math.radians(lat))), 4))


def pick_home(rng: random.Random, cbc: dict[str, list[County]]) -> Home:
    city = rng.choices(list(HOME_CITIES), weights=list(HOME_CITIES.values()))[0]
    cs = cbc[city]
    county = rng.choices(cs, weights=[c.population for c in cs])[0]
    lat, lng = offset(county.lat, county.lng, rng.uniform(0, max(1.0, county.radius_km * 0.6)),
                      rng)
    return Home(county, lat, lng)


def deal_kinds(n_drivers: int, counts: dict[str, int], rng: random.Random) -> list[list[str]]:
    """Each kind to the driver holding the fewest rules that lacks it (3-4 rules each)."""
    bag = [k for k, n in counts.items() for _ in range(n)]
    rng.shuffle(bag)
    # the rarest kinds first so they always find a driver
    bag.sort(key=lambda k: counts[k])
    out: list[list[str]] = [[] for _ in range(n_drivers)]
    for k in bag:
        free = [i for i in range(n_drivers) if k not in out[i] and len(out[i]) < 4]
        low = min(len(out[i]) for i in free)
        out[rng.choice([i for i in free if len(out[i]) == low])].append(k)
    assert all(3 <= len(x) <= 4 for x in out), [len(x) for x in out]
    order = {k: i for i, k in enumerate(kind_names())}
    return [sorted(x, key=order.__getitem__) for x in out]


def split_counts(split: str, n_drivers: int) -> dict[str, int]:
    if split == "tune":
        return dict(KIND_COUNTS)
    scale = n_drivers * 3.3 / sum(KIND_COUNTS.values())
    return {k: max(1, round(n * scale)) for k, n in KIND_COUNTS.items()}


# --------------------------------------------------------------------------- params per kind

def draw(kind: str, home: Home, others: list[str], rng: random.Random,
         cbc: dict[str, list[County]]) -> tuple[dict, float, float | None]:
    """-> (params with wording extras under '_say', amount A, cap C)."""
    pick = rng.choice
    city = home.county.city_en
    other_cities = [c for c in PREFECTURES_ZH if c != city]
    if kind == "daily_continuous_rest":
        p = {"min_minutes": pick([360, 420, 480, 480, 540, 600]),
             "days": "weekdays" if rng.random() < 0.2 else "all"}
        return p, pick([100, 150, 200, 300]), pick([None, None, 3000])
    if kind == "rest_window_full_coverage":
        s = pick(["22:00", "22:30", "23:00", "23:00", "00:00"])
        e = pick(["05:00", "06:00", "06:00", "07:00"])
        ws = pick([None, None, None, "23:30" if s < "23:30" and s > "12:00" else None])
        return {"start": s, "end": e, "weekend_start": ws}, pick([150, 200, 300, 400]), None
    if kind == "quiet_window":
        if rng.random() < 0.35:
            s, e = pick([("12:00", "13:30"), ("11:30", "13:00"), ("12:00", "13:00")])
            return ({"start": s, "end": e, "count": "per_step"}, pick([50, 80, 100]),
                    pick([None, 1500, 2000]))
        s, e = pick([("22:00", "06:00"), ("23:00", "05:00"), ("23:00", "06:00"),
                  ("21:30", "06:30")])
        return {"start": s, "end": e, "count": "per_day"}, pick([100, 200, 300]), None
    if kind == "home_by_curfew":
        return ({"lat": home.lat, "lng": home.lng, "radius_km": 1.0,
                 "curfew": pick(["21:00", "22:00", "22:00", "23:00"]),
                 "quiet_until": pick(["06:00", "07:00", "08:00"])},
                pick([200, 300, 500]), pick([None, None, 5000]))
    if kind == "forbidden_cargo_category":
        cats = rng.sample(list(CATEGORIES), pick([1, 1, 2, 2, 3]))
        return ({"categories": cats, "_say": {"cats_en": [CATEGORIES[c] for c in cats]}},
                pick([100, 200, 300, 500]), None)
    if kind == "forbidden_cargo_place":
        oc = pick(other_cities)
        return ({"place": PREFECTURES_ZH[oc], "_say": {"place_en": oc}},
                pick([200, 300, 400, 500]), None)
    if kind == "max_haul_km":
        return {"max_km": float(pick([80, 100, 150, 200, 250]))}, pick([100, 200, 300]), None
    if kind == "max_pickup_deadhead_km":
        return {"max_km": float(pick([20, 30, 40, 50, 60]))}, pick([50, 100, 150, 200]), None
    if kind == "max_total_deadhead_km":
        return ({"max_km": float(pick([300, 500, 800, 1000, 1500]))}, pick([1, 2, 2, 3]),
                pick([None, 1000, 2000, 3000]))
    if kind == "stay_inside_bbox":
        box = city_box(city, cbc)
        a = pick([500, 1000, 2000])
        return ({**box, "_say": {"city_zh": PREFECTURES_ZH[city] + "市", "city_en": city}}, a,
                pick([a, 2000, 3000, None]))
    if kind == "forbidden_circle":
        near = sorted(DOWNTOWNS, key=lambda d: (d[2] - home.lat) ** 2 + (d[3] - home.lng) ** 2)
        zh, en, lat, lng = near[0]
        once = rng.random() < 0.4
        p = {"lat": lat, "lng": lng, "radius_km": float(pick([3, 5, 8, 10])),
             "mode": "once" if once else "per_step", "_say": {"name_zh": zh, "name_en": en}}
        if once:
            return p, pick([1000, 2000]), None
        return p, pick([200, 300]), pick([None, 3000])
    if kind == "date_region_avoid":
        big = ("Guangzhou", "Shenzhen", "Dongguan", "Foshan", "Huizhou")
        oc = pick([c for c in big if c != city])
        d0 = rng.randint(4, 26)
        dates = [f"2026-03-{d:02d}" for d in range(d0, d0 + pick([1, 2, 3]))]
        return ({"dates": dates, "bbox": city_box(oc, cbc),
                 "place": PREFECTURES_ZH[oc], "_say": {"place_en": oc}},
                pick([300, 500, 800]), None)
    if kind == "min_days_without_orders":
        a = pick([1000, 2000, 3000, 5000])
        return {"min_days": pick([3, 4, 4, 6, 8])}, a, a
    if kind == "min_full_off_days":
        a = pick([2000, 3000, 5000])
        return {"min_days": pick([2, 3, 4])}, a, a
    if kind == "max_orders_per_day":
        return {"max_orders": pick([2, 3, 3, 4])}, pick([100, 200, 300]), None
    if kind == "first_order_deadline":
        return {"latest": pick(["08:00", "09:00", "10:00", "11:00"])}, pick([100, 150, 200]), None
    if kind == "min_visit_days":
        lat, lng = offset(home.lat, home.lng, rng.uniform(3, 15), rng)
        zh, en = pick(ERRAND_NAMES)
        a = pick([1000, 2000, 3000])
        return ({"lat": lat, "lng": lng, "radius_km": 1.0, "min_days": pick([4, 6, 8, 10, 12]),
                 "_say": {"name_zh": zh, "name_en": en}}, a, a)
    if kind == "min_region_order_days":
        oc = city if rng.random() < 0.6 or "stay_inside_bbox" in others else pick(
            ["Guangzhou", "Shenzhen", "Dongguan", "Foshan"])
        a = pick([1000, 2000, 3000])
        return ({"place": PREFECTURES_ZH[oc], "min_days": pick([3, 4, 5, 6, 8]),
                 "_say": {"place_en": oc}}, a, a)
    if kind == "must_take_cargo":
        a = pick([1000, 2000, 3000, 5000])  # the cargo id is filled in per market
        return {"cargo_id": "", "_say": {"day": rng.randint(2, 24)}}, a, a
    if kind == "monthly_category_quota":
        cat = pick(QUOTA_CATS)
        return ({"category": cat, "month": "2026-03", "min_orders": pick([3, 4, 5, 6, 8]),
                 "carry_from": None, "_say": {"cat_en": CATEGORIES[cat]}},
                pick([200, 300, 500]), None)
    if kind == "monthly_long_haul_cap":
        return ({"threshold_minutes": pick([480, 600, 720]), "max_per_month": pick([3, 4, 6, 8])},
                pick([200, 300, 500]), None)
    if kind == "dwell_at_point_on_day":
        lat, lng = offset(home.lat, home.lng, rng.uniform(5, 25), rng)
        zh, en = pick(ERRAND_NAMES)
        a = pick([1000, 2000, 3000])
        return ({"date": f"2026-03-{rng.randint(3, 27):02d}", "lat": lat, "lng": lng,
                 "radius_km": 2.0, "min_dwell_minutes": pick([60, 90, 120, 180]),
                 "arrive_by": pick(["10:00", "14:00", "16:00", None]),
                 "_say": {"name_zh": zh, "name_en": en}}, a, a)
    if kind == "route_stops_on_day":
        (z1, e1), (z2, e2) = rng.sample(ERRAND_NAMES, 2)
        s1 = offset(home.lat, home.lng, rng.uniform(5, 20), rng)
        s2 = offset(s1[0], s1[1], rng.uniform(5, 25), rng)
        t1 = pick(["09:00", "10:00", "11:00"])
        t2 = pick(["14:00", "15:00", "17:00"])
        a = pick([1500, 2000, 3000, 4000])
        return ({"date": f"2026-03-{rng.randint(3, 27):02d}", "radius_km": 2.0,
                 "stops": [{"lat": s1[0], "lng": s1[1], "arrive_by": t1,
                            "min_dwell_minutes": pick([30, 60, 90])},
                           {"lat": s2[0], "lng": s2[1], "arrive_by": t2,
                            "min_dwell_minutes": pick([0, 60, 120])}],
                 "_say": {"names_zh": [z1, z2], "names_en": [e1, e2]}}, a, a)
    if kind == "home_stay_event":
        pz, pe, wz, we = pick(FAMILY)
        plat, plng = offset(home.lat, home.lng, rng.uniform(4, 20), rng)
        d = rng.randint(4, 27)
        w0 = f"2026-03-{d:02d} {pick(['16:00', '17:00', '18:00'])}:00"
        w1 = f"2026-03-{d + 1:02d} {pick(['07:00', '08:00', '09:00'])}:00"
        return ({"w0": w0, "w1": w1, "w_end": w1, "pickup_lat": plat, "pickup_lng": plng,
                 "home_lat": home.lat, "home_lng": home.lng, "radius_km": 1.0,
                 "min_pickup_dwell_minutes": pick([10, 15, 20, 30]),
                 "rate_per_minute": float(pick([1, 2, 3, 5])),
                 "_say": {"place_zh": pz, "place_en": pe, "who_zh": wz, "who_en": we}},
                pick([1000, 2000, 3000]), pick([None, 5000, 10000]))
    raise ValueError(f"no draw for kind {kind}")


# --------------------------------------------------------------------------- must-take cargo

def pick_must_take(market_toml: Path, wants: list[tuple[str, Home, dict, int]]
                   ) -> dict[str, dict]:
    """For each (driver id, home, other rules' params by kind, day), the first cargo listed that
    day between 07:00 and 15:00 that picks up within 30 km of home, stays listed (and loadable,
    if it has a window) at least 3 h, pays at least 300 yuan, and breaks none of the driver's
    place rules. Deterministic."""
    # the market alone: the drivers file this run is writing may not exist yet
    text = re.sub(r'(?m)^file = "drivers_[a-z_]+\.json"$', "count = 1",
                  market_toml.read_text(encoding="utf-8"))
    sc = parse_scenario(text, market_toml)
    last_day = max(d for *_, d in wants)
    sc = sc.with_overrides(scenario={"days": last_day + 1})
    todo = {w[0]: w for w in wants}
    found: dict[str, dict] = {}
    for r in official_cargo_records(sc):
        if not todo:
            break
        day = int(r["create_time"][8:10]) - 1
        hour = int(r["create_time"][11:13])
        for did, (_, home, rules, want_day) in list(todo.items()):
            if day != want_day or not 7 <= hour < 15 or r["price"] < 30000:
                continue
            if haversine_km(home.lat, home.lng, r["start"]["lat"], r["start"]["lng"]) > 30:
                continue
            listed = minutes(r["create_time"])
            if minutes(r["remove_time"]) - listed < 180:
                continue
            if r["load_time"] and minutes(r["load_time"][1]) - listed < 180:
                continue  # a loading window must leave time to drive there
            if not fits(r, rules):
                continue
            found[did] = r
            del todo[did]
    if todo:
        raise RuntimeError(f"{market_toml}: no must-take cargo found for {sorted(todo)}")
    return found


def fits(r: dict, rules: dict[str, dict]) -> bool:
    b = rules.get("stay_inside_bbox")
    for end in (r["start"], r["end"]):
        if b and not (b["lat_min"] <= end["lat"] <= b["lat_max"]
                      and b["lng_min"] <= end["lng"] <= b["lng_max"]):
            return False
        if "forbidden_cargo_place" in rules and \
                rules["forbidden_cargo_place"]["place"] in end["city"]:
            return False
    if r["cargo_name"] in rules.get("forbidden_cargo_category", {}).get("categories", []):
        return False
    km = haversine_km(r["start"]["lat"], r["start"]["lng"], r["end"]["lat"], r["end"]["lng"])
    return km <= rules.get("max_haul_km", {}).get("max_km", 200.0)



def minutes(wall: str) -> int:
    d, h, m = int(wall[8:10]), int(wall[11:13]), int(wall[14:16])
    return (d - 1) * 1440 + h * 60 + m


# --------------------------------------------------------------------------- drivers

@dataclass
class Draft:
    row: dict
    home: Home
    lang: str
    rules: list[tuple[str, dict, float, float | None, int]]  # kind, params, A, C, text seed


def drafts(split: str, plan: tuple[int, int, str] | None = None) -> list[Draft]:
    """The split's drivers; `plan` (count, seed, id prefix) overrides SPLITS[split]."""
    n, seed, prefix = plan or SPLITS[split]
    rng = random.Random(seed)
    cbc = counties_by_city()
    kinds = deal_kinds(n, split_counts(split, n), rng)
    out = []
    langs = ["en" if rng.random() < 0.25 else "zh" for _ in range(n)]
    langs[1], langs[2] = "zh", "en"  # both languages in every split, whatever the draw
    for i in range(n):
        home = pick_home(rng, cbc)
        sur = rng.choice(SURNAMES)
        name = (f"{PINYIN[sur]} {rng.choice(['Wei', 'Jun', 'Hao', 'Ming', 'Qiang', 'Bin'])}"
                if langs[i] == "en" else sur + rng.choice(GIVEN))
        row = {"driver_id": f"{prefix}{i + 1:02d}", "name": name,
               "vehicle_no": f"粤{PLATE[home.county.city_en]}{rng.randint(10000, 99999)}",
               "truck_length": rng.choice(TRUCKS),
               "cost_per_km": round(rng.uniform(1.1, 1.8), 2),
               "current_lat": home.lat, "current_lng": home.lng, "preferences": []}
        rules = []
        for k in kinds[i]:
            p, a, c = draw(k, home, kinds[i], rng, cbc)
            rules.append((k, p, float(a), None if c is None else float(c),
                          rng.getrandbits(32)))
        out.append(Draft(row, home, langs[i], rules))
    return out


def render(d: Draft, must_take: dict | None) -> dict:
    row = json.loads(json.dumps(d.row))
    for kind, p0, a, c, text_seed in d.rules:
        p = json.loads(json.dumps(p0))
        start, end = MONTH_START, MONTH_END
        if kind == "must_take_cargo":
            assert must_take is not None
            p["cargo_id"] = must_take["cargo_id"]
            p["_say"]["listed"] = must_take["create_time"][:16]
            start = must_take["create_time"]
            end = must_take["create_time"][:10] + " 23:59:59"
        text = SAYERS[kind](p, a, c, d.lang, random.Random(text_seed))
        params = {k: v for k, v in p.items() if k != "_say"}
        build_rule(kind, params)  # the scorer's own reader: raises on a bad structured form
        row["preferences"].append({"content": text, "start_time": start, "end_time": end,
                                   "penalty_amount": a, "penalty_cap": c,
                                   "structured": {"kind": kind, "params": params}})
    return row


def file_name(split: str, market: str) -> str:
    return f"drivers_{split}.json" if market == "calibrated" else f"drivers_{split}_{market}.json"


def must_take_wants(ds: list[Draft]) -> list[tuple[str, Home, dict, int]]:
    """What `pick_must_take` looks for: each driver with a must-take rule, its home, its
    rules by kind and the rule's day."""
    wants = []
    for d in ds:
        rules = {k: p for k, p, *_ in d.rules}
        if "must_take_cargo" in rules:
            wants.append((d.row["driver_id"], d.home, rules,
                          rules["must_take_cargo"]["_say"]["day"]))
    return wants


def file_text(ds: list[Draft], picks: dict[str, dict]) -> str:
    """A drivers file's JSON text: the drafts rendered with their must-take cargo."""
    rows = [render(d, picks.get(d.row["driver_id"])) for d in ds]
    return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"


def build_all() -> dict[str, str]:
    """-> file name -> JSON text, for every split and market."""
    texts: dict[str, str] = {}
    plans = {s: drafts(s) for s in SPLITS}
    wants = must_take_wants([d for ds in plans.values() for d in ds])
    for market, toml in MARKETS.items():
        picks = pick_must_take(HERE / toml, wants)
        for s, ds in plans.items():
            texts[file_name(s, market)] = file_text(ds, picks)
    return texts


FRESH = "fresh"  # the split name of a fresh set (`--fresh`)
FRESH_TRIES = 20  # market seeds tried for a fresh set before giving up
FRESH_MIN_DRIVERS = 6  # all 24 kinds, at most 4 rules a driver


def set_market_seed(toml: str, seed: int, drivers: str) -> str:
    """A market TOML with its [scenario] seed and its drivers file replaced."""
    out, n = re.subn(r"(?m)^seed = \d+$", f"seed = {seed}", toml, count=1)
    out, m = re.subn(r'(?m)^file = "drivers_[a-z_]+\.json"$', f'file = "{drivers}"', out,
                     count=1)
    if n != 1 or m != 1:
        raise RuntimeError("market TOML without a `seed = N` line or a drivers `file` line")
    return re.sub(r'(?m)^name = "(policy-eval-[a-z]+)-[a-z]+"$', rf'name = "\1-{FRESH}"', out,
                  count=1)


def build_fresh(seed: int, market: str, n_drivers: int, out_dir: Path) -> tuple[Path, Path]:
    """A set nobody has tuned on: `n_drivers` drivers drawn like the held-out split from
    `seed` (ids P01...), on a new draw of `market` (the held-out market's TOML with another
    [scenario] seed, derived from `seed`). Must-take cargo names a cargo of that draw; a draw
    without one for some driver is skipped for the next seed (deterministic). -> (TOML,
    drivers file), both written to `out_dir`."""
    plan = drafts("heldout", (n_drivers, seed, "P"))
    wants = must_take_wants(plan)
    base = (HERE / FRESH_MARKETS[market]).read_text(encoding="utf-8")
    name = file_name(FRESH, market)
    out_dir.mkdir(parents=True, exist_ok=True)
    toml = out_dir / f"{market}-{FRESH}.toml"
    for k in range(FRESH_TRIES):
        market_seed = seed + k
        toml.write_text(set_market_seed(base, market_seed, name), encoding="utf-8")
        try:
            picks = pick_must_take(toml, wants) if wants else {}
        except RuntimeError:
            continue
        drivers = out_dir / name
        drivers.write_text(file_text(plan, picks), encoding="utf-8")
        return toml, drivers
    toml.unlink()
    raise RuntimeError(f"no market seed in {seed}..{seed + FRESH_TRIES - 1} lists a must-take "
                       f"cargo for every driver that needs one; try another --fresh seed")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if a file differs")
    ap.add_argument("--fresh", type=int, metavar="SEED",
                    help="write a fresh set instead (new drivers, a new draw of the market) to "
                         "--out, for policy_eval.py --set-dir OUT --split fresh")
    ap.add_argument("--market", choices=sorted(FRESH_MARKETS), default="calibrated",
                    help="the market a fresh set redraws (default calibrated)")
    ap.add_argument("--drivers", type=int, default=SPLITS["heldout"][0],
                    help="drivers in a fresh set (default as many as the held-out split)")
    ap.add_argument("--out", type=Path, help="the folder a fresh set is written to")
    args = ap.parse_args(argv)
    if args.fresh is not None:
        if args.out is None or args.drivers < FRESH_MIN_DRIVERS:
            ap.error(f"--fresh needs --out and --drivers of at least {FRESH_MIN_DRIVERS} "
                     f"(every kind in the set, at most 4 rules a driver)")
        try:
            toml, drivers = build_fresh(args.fresh, args.market, args.drivers, args.out)
        except RuntimeError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {toml}\nwrote {drivers}")
        return 0
    stale = []
    for name, text in build_all().items():
        path = HERE / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
