"""The text parser on the evaluation set (train and dev-d splits gated), on the English
phrasings a user types, on wordings of the kinds written beside the dev-d round, and on
arbitrary text (never an exception)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.preferences.schema import ParsedPreference, validate
from sim.preferences.text.evaluate import format_score, load_rows, score
from sim.preferences.text.reading import ReadingStatus, parse_preference, read_preference


def assert_reads_as(text: str, kind: str, params: dict) -> None:
    """Read with confidence, as `kind`, with these parameters (others not compared)."""
    r = read_preference(text)
    assert r.status is ReadingStatus.PARSED, r.reason
    assert r.best is not None
    assert r.best.kind == kind
    assert {k: r.best.params.get(k) for k in params} == params


def assert_best(text: str, kind: str, params: dict):
    """The best reading (parsed, or ambiguous with this one ranked first) is `kind` with these
    parameters; returned for its money."""
    r = read_preference(text)
    assert r.status is not ReadingStatus.UNPARSED, r.reason
    assert r.best is not None
    assert r.best.kind == kind
    assert {k: r.best.params.get(k) for k in params} == params
    return r.best


def misread_rules(name: str) -> list[tuple[str, str, dict]]:
    """(driver, gold kind, reading) for each rule of a blind drivers file read otherwise than
    its gold kind and stated parameters (a null gold is not compared); a must-take id token
    is filled as the set builder would."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "blind_drivers" / name
    wrong = []
    for row in json.loads(path.read_text(encoding="utf-8")):
        for p in row["preferences"]:
            gold = dict(p["structured"]["params"])
            text = p["content"]
            if gold.get("cargo_id") == "{CARGO}":
                text, gold["cargo_id"] = text.replace("{CARGO}", "C10000042"), "C10000042"
            r = read_preference(text)
            got = r.best.to_dict() if r.best is not None else {}
            if got.get("kind") != p["structured"]["kind"] or any(
                    v is not None and got["params"].get(k) != v for k, v in gold.items()):
                wrong.append((row["driver_id"], p["structured"]["kind"], got))
    return wrong

ROWS = load_rows()


def test_eval_set_has_both_splits_and_every_kind_in_train() -> None:
    from sim.preferences.schema import KINDS
    assert {r["split"] for r in ROWS} == {"train", "dev-d"}
    assert {r["kind"] for r in ROWS if r["split"] == "train"} == set(KINDS)


def test_gold_forms_fit_the_schema() -> None:
    for r in ROWS:
        assert validate(r).kind == r["kind"], r["id"]


def test_rules_parser_train_accuracy_at_least_95_percent() -> None:
    s = score(ROWS, "train")
    print("\n" + format_score(s))
    assert s.accuracy >= 0.95, [(r["id"], g and g.to_dict()) for r, g in s.misses]


def test_rules_parser_dev_d_accuracy() -> None:
    """dev-d: the 72 lines held out until round 3 (data/preference_eval.md), read from round 4
    on: the reader was changed against them, so they are gated like the other dev splits."""
    s = score(ROWS, "dev-d")
    print("\n" + format_score(s))
    assert s.total().n == 72
    assert s.accuracy >= 0.90, [(r["id"], g and g.to_dict()) for r, g in s.misses]
    assert s.kind_accuracy >= 0.95
    assert s.confident_wrong == []


# Wordings written beside the dev-d round, not taken from its lines: each exercises one of the
# general forms that round taught the reader (synonyms, bare bounds, clock words, indirect
# objects of a fine, a dwell written after 再, a span end with a day part).
@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("工作日每天得有不短于七小时的连续休整，周末随意。", "daily_continuous_rest",
     {"min_minutes": 420, "days": "weekdays"}, None),
    ("Every day I want a solid ten hours off the road, no exceptions.", "daily_continuous_rest",
     {"min_minutes": 600, "days": "all"}, None),
    ("拉货单程不超两百公里，从起运地到送达地算直线。", "max_haul_km", {"max_km": 200.0}, None),
    ("Each delivery leg must stay under 180 km from start point to end point.", "max_haul_km",
     {"max_km": 180.0}, None),
    ("从车辆当前位置去提货点的距离不能超过二十公里。", "max_pickup_deadhead_km",
     {"max_km": 20.0}, None),
    ("The drive to go and load should be 40 km at most.", "max_pickup_deadhead_km",
     {"max_km": 40.0}, None),
    ("整个月没拉货白跑的里程加一起最多八百，超了每公里扣两块。", "max_total_deadhead_km",
     {"max_km": 800.0}, 2.0),
    ("离(23.12, 113.25)不到3公里的范围都不能去，去一次罚两百。", "forbidden_circle",
     {"lat": 23.12, "lng": 113.25, "radius_km": 3.0, "mode": "per_step"}, 200.0),
    ("一个月三十来天，起码得有五天一单都不拉，不然扣五百。", "min_days_without_orders",
     {"min_days": 5}, 500.0),
    ("Three days a month the truck sits parked midnight to midnight with zero movement.",
     "min_full_off_days", {"min_days": 3}, None),
    ("有单的日子，首笔订单最晚九点出发。", "first_order_deadline", {"latest": "09:00"}, None),
    ("每天最晚十一点就得停车睡觉，睡到早上六点。", "rest_window_full_coverage",
     {"start": "23:00", "end": "06:00", "weekend_start": None}, None),
    ("每晚十点到次日六点必须睡觉，周六周日可以推迟一小时开始。", "rest_window_full_coverage",
     {"start": "22:00", "end": "06:00", "weekend_start": "23:00"}, None),
    ("4月9号先在上午十点前到(22.80,113.30)，呆半小时，然后下午三点以前到(23.10,113.40)，"
     "再呆两个钟头。", "route_stops_on_day",
     {"date": "2026-04-09", "radius_km": 2.0,
      "stops": [{"lat": 22.8, "lng": 113.3, "arrive_by": "10:00", "min_dwell_minutes": 30},
                {"lat": 23.1, "lng": 113.4, "arrive_by": "15:00", "min_dwell_minutes": 120}]},
     None),
    ("家事：5月3日上午九点开始，先到(22.70,113.10)接我爸，停二十分钟，然后回家(22.65,113.05)。"
     "从九点到下午两点，人不在家每分钟扣两元；回家后待到5月4日早上七点才出车。",
     "home_stay_event",
     {"w0": "2026-05-03 09:00:00", "w1": "2026-05-03 14:00:00", "w_end": "2026-05-04 07:00:00",
      "pickup_lat": 22.7, "pickup_lng": 113.1, "home_lat": 22.65, "home_lng": 113.05,
      "radius_km": 1.0, "min_pickup_dwell_minutes": 20, "rate_per_minute": 2.0}, None),
    ("答应了李总，他那票货（单号 882211）我必须拉走，没拉走赔他八百。", "must_take_cargo",
     {"cargo_id": "882211"}, 800.0),
    ("收车时间每晚21:00，收车时要在住所(23.05,113.75)一公里范围内，收车后到次日05:30不接单不空驶。",
     "home_by_curfew", {"lat": 23.05, "lng": 113.75, "radius_km": 1.0, "curfew": "21:00",
                        "quiet_until": "05:30"}, None),
])
def test_general_wordings_of_the_dev_d_round(text: str, kind: str, params: dict,
                                             amount: float | None) -> None:
    r = read_preference(text)
    assert r.status is ReadingStatus.PARSED, r.reason
    assert r.best is not None
    assert (r.best.kind, r.best.params, r.best.penalty_amount) == (kind, params, amount)


@pytest.mark.parametrize(("text", "kind", "params"), [
    # 周末可以晚一点 is "a bit later", not one o'clock (the weekend start was read as 01:00)
    ("晚上10点至次日早上5点是睡觉时间，车必须停着，周末可以晚一点，晚上11点半开始，每天扣钱150元，"
     "没有封顶。", "rest_window_full_coverage",
     {"start": "22:00", "end": "05:00", "weekend_start": "23:30"}),
    # a night span with no work is a quiet window, not whole days off
    ("晚上11点到第二天早上5点之间不出车干活，做不到一天扣300块，上不封顶。", "quiet_window",
     {"start": "23:00", "end": "05:00", "count": "per_day"}),
    # 只接...以内的活: the job itself is bounded
    ("只接200公里以内的活，违反一单扣200元。", "max_haul_km", {"max_km": 200.0}),
    # 别接 refuses as 不接 does
    ("尽量别接食品饮料的货。", "forbidden_cargo_category", {"categories": ["食品饮料"]}),
    # an id-shaped token with no id word before it
    ("Promised a customer I'd haul C00098470 (listed March 7); 3000 if I miss it.",
     "must_take_cargo", {"cargo_id": "C00098470"}),
    # the count before "(机械设备) orders", not the fine before "per missing order"
    ("The company wants 8 machinery (机械设备) orders from me this month; 500 per missing order.",
     "monthly_category_quota", {"category": "机械设备", "min_orders": 8}),
    # "March 15-17:" is three days (the colon after 17 is no clock)
    ("March 15-17: inspections in Dongguan, so no loads to or from there and don't drive into "
     "lat 22.71-23.33, lng 113.42-114.08.", "date_region_avoid",
     {"dates": ["2026-03-15", "2026-03-16", "2026-03-17"]}),
    # 违反一天扣200 / 做不到一天扣300 price a day broken: no count of days to visit a point
    ("每天晚上11点前要回到家（23.0742,113.3355）一公里内，到家后直到次日早上8点不再接单也不空跑，"
     "违反一天扣200元，一个月最多罚5000元。", "home_by_curfew",
     {"curfew": "23:00", "quiet_until": "08:00"}),
    ("老婆要求我每晚11点前到家（家在（22.5516,114.2360），一公里内都算），第二天早上6点之前不准出车，"
     "做不到一天扣300块，一个月最多罚5000元。", "home_by_curfew",
     {"curfew": "23:00", "quiet_until": "06:00"}),
    # 一天罚300: one day, then the fine, is "a day", no count of days to visit
    ("每天晚上9点前要回到家(22.5320, 114.0520)一公里内，到家后直到次日早上7点不再接单也不空跑，"
     "一天罚300，一个月最多罚5000元。", "home_by_curfew",
     {"curfew": "21:00", "quiet_until": "07:00"}),
    # a distance from where the driver is bounds the way to the pickup, not the haul ("each
    # order" is the fine's unit here, no haul wording)
    ("Pickup must be within 20 km of where I am, fine 200 each order.", "max_pickup_deadhead_km",
     {"max_km": 20.0}),
])
def test_wordings_a_fresh_draw_misread(text: str, kind: str, params: dict) -> None:
    """Wordings the parser misread on `make_drivers.py --fresh` sets (seeds 4242017, 99 and
    1-28) and on the tune split (docs/evaluation.md); each is read right now, by kind and by
    its parameters."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize(("text", "kind", "params"), [
    # "don't give me work, don't let the truck move" in a span: a quiet window
    ("中午12点到下午1点半是吃饭时间，这段时间别给我安排活，也别让车动，每次罚一百。",
     "quiet_window", {"start": "12:00", "end": "13:30", "count": "per_step"}),
    # the hemisphere letter before the number: N22.8190 E113.6730
    ("3月11号的路线：先去虎门（N22.8190 E113.6730），上午10点前到，待45分钟；再回长安镇仓库"
     "（N22.8050 E113.8020），下午4点前到，卸完停一个半小时。半径两公里。"
     "哪站没做到一次性罚两千五。",
     "route_stops_on_day",
     {"date": "2026-03-11", "radius_km": 2.0,
      "stops": [{"lat": 22.819, "lng": 113.673, "arrive_by": "10:00", "min_dwell_minutes": 45},
                {"lat": 22.805, "lng": 113.802, "arrive_by": "16:00",
                 "min_dwell_minutes": 90}]}),
    ("Keep out of 2 km around E113.9021, N22.5633, 300 each time.", "forbidden_circle",
     {"lat": 22.5633, "lng": 113.9021, "radius_km": 2.0}),
    # days of a place's loads (接台山的货, 在台山装或者卸) are order days, not visits
    ("这个月至少要有6天接台山的货（在台山装或者在台山卸都算），天数不够罚一千二。",
     "min_region_order_days", {"place": "台山", "min_days": 6}),
])
def test_wordings_the_blind_dev_file_misread(text: str, kind: str, params: dict) -> None:
    """Wordings the parser misread in benchmarks/blind_drivers/drivers_blind_a.json, the blind
    file the reader may be changed against (drivers_blind_b.json is measured, never read);
    each is read right now, by kind and by its parameters."""
    assert_reads_as(text, kind, params)


def test_rules_parser_dev_f_reads_every_line() -> None:
    """dev-f (data/preference_eval_blind3.jsonl): 72 lines written blind on 2026-12-06 by a
    writer who read neither the reader nor any evaluation row, measured once as `heldout-f`
    (66/72 exact, 68/72 kind, 1 confidently wrong), then read for misses and fixed in general
    ways: gated like the other dev splits from here on."""
    from pathlib import Path
    rows = load_rows((Path(__file__).resolve().parents[1] / "data" /
                      "preference_eval_blind3.jsonl").read_text(encoding="utf-8"))
    assert {r["split"] for r in rows} == {"dev-f"}
    s = score(rows, "dev-f")
    assert s.total().n == 72
    assert s.accuracy == 1.0, [(r["id"], g and g.to_dict()) for r, g in s.misses]
    assert s.confident_wrong == []


@pytest.mark.parametrize(("text", "kind", "params"), [
    # rest said to be optional (歇不歇、睡不睡随我; I don't have to sleep): no work, not rest
    ("凌晨一点到四点这个时间段我不揽活，也不放空瞎跑，歇不歇、睡不睡随我，就是别干活。",
     "quiet_window", {"start": "01:00", "end": "04:00", "count": "per_day"}),
    ("No loads and no empty driving between 9pm and 2am. I don't have to sleep then, just no "
     "work. 40 each night I break it, max 600 a month.",
     "quiet_window", {"start": "21:00", "end": "02:00", "count": "per_day"}),
    # rest allowed by the roadside: was ambiguous between the two windows
    ("晚上11点至次日早上6点不接单，也不空车赶路，路边停车休息没关系。",
     "quiet_window", {"start": "23:00", "end": "06:00", "count": "per_day"}),
    # "Sat/Sun": the weekend's later start
    ("Lights out 22:00 till 5am: truck parked and me resting the whole stretch, no exceptions. "
     "Sat/Sun the rest can start an hour later. 60 per broken night, capped at 1000.",
     "rest_window_full_coverage", {"start": "22:00", "end": "05:00", "weekend_start": "23:00"}),
    # 别要: refused
    ("汕头那边的货，不管是在那装还是往那卸，统统别要，那条路跑一趟亏一趟。",
     "forbidden_cargo_place", {"place": "汕头"}),
    # a bare bound after 不能过 in a km text, 加一块 = added together
    ("一个月下来，放空跑的公里数加一块不能过一千二，超出去的那部分按一公里两块扣。",
     "max_total_deadhead_km", {"max_km": 1200.0}),
    # a bare bound on km named earlier in the clause
    ("Total empty km over the whole month must stay at or below 600; every km beyond that "
     "costs 3 yuan.", "max_total_deadhead_km", {"max_km": 600.0}),
])
def test_wordings_the_sixth_blind_part_misread(text: str, kind: str, params: dict) -> None:
    """The six lines of dev-f read wrong when it was measured blind (and a generated quiet
    window the same fix reads with confidence); each general class is read right now, by
    kind and parameters."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize(("text", "kind", "params", "cap"), [
    # rest required stays a rest window, whatever the no-work words beside it
    ("每晚23点到次日6点必须停车睡觉，不接单不空跑，违反一次罚200。", "rest_window_full_coverage",
     {"start": "23:00", "end": "06:00", "weekend_start": None}, None),
    # where to rest is up to the driver, not whether: still a rest window
    ("每晚23点到次日6点必须停车休息，休息随便找个地方停，违反一次罚200。",
     "rest_window_full_coverage", {"start": "23:00", "end": "06:00", "weekend_start": None},
     None),
    # a fine's cap in a km text is a cap, not a km bound
    ("Keep the month's empty km under 900 km. 5 yuan per km over, capped at 1000.",
     "max_total_deadhead_km", {"max_km": 900.0}, 1000.0),
])
def test_the_sixth_rounds_fixes_leave_their_neighbours(text: str, kind: str, params: dict,
                                                        cap: float | None) -> None:
    r = read_preference(text)
    assert r.best is not None, r.reason
    assert r.best.kind == kind
    assert {k: r.best.params.get(k) for k in params} == params
    assert r.best.penalty_cap == cap


@pytest.mark.parametrize(("name", "rules"), [("drivers_blind_c.json", 70),
                                              ("drivers_blind_d.json", 72),
                                              ("drivers_blind_e.json", 70),
                                              ("drivers_blind_g.json", 70)])
def test_a_blind_drivers_file_read_for_misses_reads_every_rule(name: str, rules: int) -> None:
    """benchmarks/blind_drivers/drivers_blind_c.json (70 rules), drivers_blind_d.json (72),
    drivers_blind_e.json (70) and drivers_blind_g.json (70), written blind on 2026-12-06: each
    measured once before any change for it (C 61/70 exact, D 52/72, E 59/70, G 56/70), then
    read for misses and fixed in general ways (rounds 8, 9, 10 and 12), so all are dev files
    from here on. Every rule's kind and
    stated parameters (a null gold is not compared)."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "blind_drivers" / name
    rows = json.loads(path.read_text(encoding="utf-8"))
    assert sum(len(r["preferences"]) for r in rows) == rules
    assert misread_rules(name) == []


@pytest.mark.parametrize(("text", "kind", "params"), [
    # a day of the month without its month (２１号, 12、13号两天, 7号（礼拜六）)
    ("２１号我表弟在兴宁摆酒，当天中午11点前要到兴宁市区（24.140，115.731），起码待四个钟头喝喜酒，"
     "做不到罚一千。", "dwell_at_point_on_day",
     {"date": "2026-03-21", "lat": 24.14, "lng": 115.731, "min_dwell_minutes": 240,
      "arrive_by": "11:00"}),
    ("12、13号两天深圳大检查，唔好往深圳跑：深圳范围北纬22.45~22.86、东经113.75~114.62，呢两日唔准入，"
     "深圳装卸嘅货都唔接，违一次罚三百。", "date_region_avoid",
     {"dates": ["2026-03-12", "2026-03-13"],
      "bbox": {"lat_min": 22.45, "lat_max": 22.86, "lng_min": 113.75, "lng_max": 114.62}}),
    ("7号（礼拜六）阿妈由广州返嚟，下昼四点开始计：先去台山汽车总站（22.252，112.793）接佢，企喺度等够"
     "二十分钟，接到即刻返乡下屋企（22.198，112.851），一直留到8号朝早九点先好再出车。四点之后唔喺屋企"
     "每分钟扣一蚊，搞错次序、冇返屋企或者早走另罚六百，总共最多罚两千。", "home_stay_event",
     {"w0": "2026-03-07 16:00:00", "w1": "2026-03-08 09:00:00", "w_end": "2026-03-08 09:00:00",
      "home_lat": 22.198, "home_lng": 112.851, "min_pickup_dwell_minutes": 20}),
    # the day after an event's day, said without its month: the event's month
    ("3月14号（礼拜六）屋企有事：下昼两点起计，先去佛山西站（23.070, 113.040）接阿妈，喺度至少等够"
     "半个钟，接到人再直接返大良屋企（22.842, 113.256），之后留喺屋企，15号朝早8点前唔准再出车。"
     "两点之后唔喺屋企嘅时间每分钟罚两蚊；顺序搞错、冇返屋企或者提早走，另外再罚八百。",
     "home_stay_event", {"w0": "2026-03-14 14:00:00", "w_end": "2026-03-15 08:00:00"}),
    # home named by its place (返到蓬江屋企 = 回到蓬江家)
    ("夜晚八点前要返到蓬江屋企（２２．５８８，１１３．０８２）附近，一公里半以内都得，之后到第二朝六点半"
     "都唔出车。迟返或者半夜出车，每日罚一百五。", "home_by_curfew",
     {"lat": 22.588, "lng": 113.082, "radius_km": 1.5, "curfew": "20:00",
      "quiet_until": "06:30"}),
    # a count of days in digits after 起码有 (Cantonese 日 = days)
    ("每个月起码有6日要返清新老家（23.734，113.015）睇下阿爸阿妈，一公里以内都算到，同一日返几次都系算"
     "一日。唔够数罚六百。", "min_visit_days", {"min_days": 6, "lat": 23.734}),
    # 禁行: no entry
    ("万绿湖景区（23.880，114.580）方圆八公里货车禁行，进一次罚150。", "forbidden_circle",
     {"lat": 23.88, "lng": 114.58, "radius_km": 8.0}),
    # what the truck is for is carried, not refused
    ("No chemical / plastic goods (化工塑料) at all - my van is for food. 400 fine per order.",
     "forbidden_cargo_category", {"categories": ["化工塑料"]}),
    # 个把钟: about an hour
    ("3月27日车辆年审安排：上午9:30前抵达南海车管所（23.031，113.142），停留不少于2小时；随后下午3点前"
     "赶到三水维修厂（23.158，112.897），停个把钟。任一环节未完成，一次性罚款1000元。",
     "route_stops_on_day",
     {"stops": [{"lat": 23.031, "lng": 113.142, "arrive_by": "09:30", "min_dwell_minutes": 120},
                {"lat": 23.158, "lng": 112.897, "arrive_by": "15:00",
                 "min_dwell_minutes": 60}]}),
])
def test_wordings_the_third_blind_file_misread(text: str, kind: str, params: dict) -> None:
    """The nine rules of drivers_blind_c.json read wrong when it was measured blind; each
    general class is read right now, by kind and parameters."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize(("text", "isos"), [
    ("去5号仓库装货，3号线地铁口等人。", []),  # a number of a thing, not a day
    ("货源编号12号的单必须接。", []),
    ("3月6日和8号两天不出车。", ["2026-03-06", "2026-03-08"]),  # the month of the date before
    ("4月里12号要去医院。", ["2026-04-12"]),  # the month the text names
    ("12号到15号不出车。", ["2026-03-12", "2026-03-13", "2026-03-14", "2026-03-15"]),
])
def test_a_day_without_its_month_and_its_neighbours(text: str, isos: list[str]) -> None:
    from sim.preferences.text.extract import dates, number_view
    assert [d.iso for d in dates(number_view(text))] == isos


@pytest.mark.parametrize(("text", "cats"), [
    ("只拉水果，化工塑料的货一律不接，接一单罚300。", ["化工塑料"]),
    ("No fruit and no chemical goods (化工塑料), 300 per order.", ["水果", "化工塑料"]),
    ("专跑建材，煤炭矿产的不拉。", ["煤炭矿产"]),
])
def test_what_a_truck_carries_is_not_refused(text: str, cats: list[str]) -> None:
    r = read_preference(text)
    assert r.best is not None
    assert r.best.kind == "forbidden_cargo_category"
    assert r.best.params["categories"] == cats


@pytest.mark.parametrize(("text", "kind", "params"), [
    # traditional characters (三個整天, 罰款, 十時)
    ("本月至少要有三個整天完全停駛：不接單、也不空車跑動，車子一整天都靜止不動。做不到的話，月底一次性罰款"
     "一千元。", "min_full_off_days", {"min_days": 3}),
    ("有接單的日子，第一單必須在上午十時之前開始，逾時每日罰一百。", "first_order_deadline",
     {"latest": "10:00"}),
    # a reason is no category (车上没有打氧设备)
    ("鮮活水產品的貨不裝，車上沒有打氧設備。", "forbidden_cargo_category",
     {"categories": ["鲜活水产品"]}),
    # English clocks: 8.30am, half past ten every night, 22h-06h, 5.30 in the morning
    ("On any day you take work, the first job has to be under way before 8.30am. Late starts "
     "are fined ¥100 a day.", "first_order_deadline", {"latest": "08:30"}),
    ("Home rule: be parked within 1 km of home (N22.80 E114.46) by half past ten every night, "
     "and no jobs or empty runs until 6am the next morning. RMB 250 for each day this isn't "
     "kept.", "home_by_curfew", {"curfew": "22:30", "quiet_until": "06:00"}),
    ("Mandatory sleep: 22h-06h, parked with the engine off for the entire period. On Saturday "
     "and Sunday nights it may start at 23h instead. RMB 200 for each night that isn't fully "
     "covered.", "rest_window_full_coverage",
     {"start": "22:00", "end": "06:00", "weekend_start": "23:00"}),
    ("From the 10th onwards: no work between half past nine at night and 5.30 in the morning - "
     "no orders, no empty driving. RMB 120 a night.", "quiet_window",
     {"start": "21:30", "end": "05:30"}),
    # a window given by its start and its length
    ("Lunch: from noon, ninety minutes with no order-taking and no empty driving. Waiting at "
     "the roadside is fine. 80 RMB per violation.", "quiet_window",
     {"start": "12:00", "end": "13:30", "count": "per_step"}),
    # 23-6点: one 点 for a range; 三点一刻 = 15:15
    ("夜班禁：23-6点不接单不空跑，罚100/晚，月封顶1000", "quiet_window",
     {"start": "23:00", "end": "06:00"}),
    # dates: 3.20那天, 3/28、3/29两日, 10/03 (Tuesday) in the rule's month
    ("3.20那天车要回花都的修理厂（23.40, 113.22）做年审，上午十点前到，在那停够三个钟。"
     "没做到罚六百。",
     "dwell_at_point_on_day", {"date": "2026-03-20", "min_dwell_minutes": 180,
                               "arrive_by": "10:00"}),
    ("3/28、3/29两日市区嗰块（北纬23.20至23.50，东经116.55至116.85）封路，唔好入去，入一次罚两百。",
     "date_region_avoid", {"dates": ["2026-03-28", "2026-03-29"]}),
    # the month named (for the whole of March) makes a deadhead total, not a pickup bound
    ("Empty kms (driving to pickups plus repositioning) for the whole of March must stay within "
     "1,500 km in total. Every km over that costs fifty yuan.", "max_total_deadhead_km",
     {"max_km": 1500.0}),
    # English wordings of a haul bound, order-free days, a long-haul cap, a category quota
    ("The Driver shall not accept any consignment where the loading point and the unloading "
     "point are more than 180 km apart. Penalty: 300 CNY per consignment.", "max_haul_km",
     {"max_km": 180.0}),
    ("Keep at least five days in March free of orders - doesn't matter if you move the truck "
     "on those days.", "min_days_without_orders", {"min_days": 5}),
    ("Long-haul limit: jobs whose cost time is over 8 hours - no more than six of those in a "
     "month. Each one beyond six will be charged RMB 400.", "monthly_long_haul_cap",
     {"threshold_minutes": 480, "max_per_month": 6}),
    ("March KPI - fruit loads: minimum 6 for the month. Each load short of target is fined "
     "¥250.", "monthly_category_quota", {"category": "水果", "min_orders": 6}),
])
def test_wordings_the_fourth_blind_file_misread(text: str, kind: str, params: dict) -> None:
    """Rules of drivers_blind_d.json read wrong when it was measured blind (52/72), one or
    two for each general class fixed in round 9; each is read right now."""
    assert_reads_as(text, kind, params)


def test_a_window_by_its_start_and_length_in_chinese() -> None:
    r = read_preference("中午12点起两个小时不接单不空跑，路边停车休息没关系。")
    assert r.status is ReadingStatus.PARSED, r.reason
    assert r.best is not None
    assert r.best.kind == "quiet_window"
    assert (r.best.params["start"], r.best.params["end"]) == ("12:00", "14:00")


@pytest.mark.parametrize(("text", "hhmm"), [
    ("I must rest for the whole span 21:00 to 05:00 every night.", ["21:00", "05:00"]),
    ("rest 8h a day", []),  # a duration, not a clock
    ("from 9:30 at night to 6:00", ["21:30", "06:00"]),
])
def test_round_nine_clocks_and_their_neighbours(text: str, hhmm: list[str]) -> None:
    from sim.preferences.text.extract import clocks, number_view
    assert [c.hhmm for c in clocks(number_view(text))] == hhmm


@pytest.mark.parametrize(("text", "isos"), [
    ("28/3 no driving", ["2026-03-28"]),  # only day first reads
    ("3/15 no driving", ["2026-03-15"]),  # month first
    ("10/03 (Tuesday) no driving", ["2026-03-10"]),  # the day-first reading is the rule's month
    ("diesel at 3.20 yuan a litre", []),  # a price, not 20 March
])
def test_round_nine_dates_and_their_neighbours(text: str, isos: list[str]) -> None:
    from sim.preferences.text.extract import dates, number_view
    assert [d.iso for d in dates(number_view(text))] == isos


@pytest.mark.parametrize(("text", "kind", "params"), [
    # four-digit clocks in a range (2300-次日0600)
    ("规则：每晚2300-次日0600必须熄火睡觉，整段停着不许动；罚则：哪晚没做到扣300元，当月累计最多扣3000元",
     "rest_window_full_coverage", {"start": "23:00", "end": "06:00"}),
    # phone-IME typos: 公理 for 公里, 修息 for 休息, 空使 for 空驶
    ("单趟从装货到卸货别超过300公理，太远了吃不消，超一单扣伍佰", "max_haul_km", {"max_km": 300.0}),
    ("每日必须连续修息满七个半小时，不然按天扣200，上限2400", "daily_continuous_rest",
     {"min_minutes": 450, "days": "all"}),
    ("本月空使总里程限1000公里以内，超出的每公里扣50元，封顶两千", "max_total_deadhead_km",
     {"max_km": 1000.0}),
    # English inside a Chinese sentence (连续rest至少6h)
    ("mon-fri 每天连续rest至少6h, 不够的那天扣150", "daily_continuous_rest",
     {"min_minutes": 360, "days": "weekdays"}),
    # 10+ days, 1500m
    ("Need to check in at the depot N24.8040 E113.6110 (within 1500m) on 10+ separate days in "
     "March. fewer = one-off ¥900", "min_visit_days",
     {"lat": 24.804, "lng": 113.611, "radius_km": 1.5, "min_days": 10}),
    # "on the 22nd" (no month), and a per-minute fine with the currency before the number
    ("Family thing on the 22nd: from 09:00 go to the kindergarten at 23.7502, 114.6880 and wait "
     "there at least 30 mins to collect my kid, then head home (23.7298, 114.7023; within 1 km "
     "= home). Every minute not at home between 9am and 6pm costs ¥2, and don't leave again "
     "before 9pm. Pickup or getting home not done, or leaving early: +¥600 one-off. Total "
     "capped at ¥1500.", "home_stay_event",
     {"w0": "2026-03-22 09:00:00", "w1": "2026-03-22 18:00:00",
      "w_end": "2026-03-22 21:00:00", "rate_per_minute": 2.0}),
    # a date that opens a standing rule (3月15号以后) is no day to avoid
    ("3月15号以后湛江方向的货别派，装卸在湛江的一律不接，每单罚250，月封顶1000",
     "forbidden_cargo_place", {"place": "湛江"}),
    # 晚上21.30前: a dotted clock
    ("晚上21.30前回家（23.6752，116.6281，1公里内），之后到第二天早上7点不动车，违反一天扣250",
     "home_by_curfew", {"curfew": "21:30", "quiet_until": "07:00"}),
    # 3-18 (month-day with a hyphen) and a route written half in English
    ("3-18 route：先到坪山(22.6905, 114.3458) before 9am，停20min；then惠阳(22.7891, 114.4561) "
     "12点前到，停1h；最后回龙岗(22.7203, 114.2471) 6pm前。2km内算到。没完成罚1000",
     "route_stops_on_day", {"date": "2026-03-18"}),
    # a form: 禁拉品类
    ("规则类型: 禁拉品类 / 品类: 水果、蔬菜 / 原因: 冷链搞不了 / 扣款: 200元一单 / 封顶: 无",
     "forbidden_cargo_category", {"categories": ["水果", "蔬菜"]}),
])
def test_wordings_the_fifth_blind_file_misread(text: str, kind: str, params: dict) -> None:
    """The rules of drivers_blind_e.json read wrong when it was measured blind (59/70), one
    for each general class fixed in round 10; each is read right now."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize(("text", "isos"), [
    ("3-5天不接单", []),  # a range of counts, not 5 March
    ("3-5 days off a month", []),
    ("23-6点不接单", []),  # clocks, not 6 March
    ("From the 10th onwards", ["2026-03-10"]),
    ("on the 5th of April", ["2026-04-05"]),
])
def test_round_ten_dates_and_their_neighbours(text: str, isos: list[str]) -> None:
    from sim.preferences.text.extract import dates, normalise_text, number_view
    assert [d.iso for d in dates(number_view(normalise_text(text)))] == isos


@pytest.mark.parametrize(("text", "kind", "params"), [
    # a spoken self-correction: the second value stands
    ("嗯那个我家在禅城 北纬23.01 东经113.12 就是说每天晚上10点 不对 是10点30分之前要回到家 "
     "家附近1公里都算的 然后呢第二天早上6点之前就别再出车了对吧 哪天没做到罚200", "home_by_curfew",
     {"curfew": "22:30", "quiet_until": "06:00"}),
    ("我家在台山 北纬22.25 东经112.79 每天晚上9点前回家 那个家周围2公里内都算 早上7点 不对 "
     "6点30分前不出门 1次罚150", "home_by_curfew",
     {"curfew": "21:00", "quiet_until": "06:30", "radius_km": 2.0}),
    # second-language English clocks: "11 clock at night", "22 o'clock", "10 clock night"
    ("i am not want take order after 11 clock at night until 5 in morning. every order or "
     "empty drive in this time punish 100.", "quiet_window",
     {"start": "23:00", "end": "05:00", "count": "per_step"}),
    ("from 22 o'clock to 6 o'clock morning i must sleep whole time, no moving truck. weekend i "
     "start sleep from 20 o'clock. each night break pay 150.", "rest_window_full_coverage",
     {"start": "22:00", "end": "06:00", "weekend_start": "20:00"}),
    ("must be home before 10 clock night. my home lat 22.27, lng 113.54 in 珠海 zhuhai, inside 1 "
     "km is ok. next morning not go out before 7 clock. each days fail pay 250.",
     "home_by_curfew", {"curfew": "22:00", "quiet_until": "07:00"}),
    # "max 4 in this month"; a date written after its clock ("8 clock morning of march 9")
    ("long trip over 6 hour (loading + driving + unloading) i take max 4 in this month, more is "
     "fine 250 each.", "monthly_long_haul_cap", {"threshold_minutes": 360, "max_per_month": 4}),
    ("on march 8 from 5pm i go pick up my son at school lat 23.66 lng 116.64, wait there at "
     "least 30 minute, then bring him home lat 23.67 lng 116.63 (1 km around) and stay home, no "
     "driving until 8 clock morning of march 9. every minute i am not home before 21 o'clock on "
     "march 8 cost 3 yuan, and if whole plan fail pay 400 more.", "home_stay_event",
     {"w0": "2026-03-08 17:00:00", "w1": "2026-03-08 21:00:00",
      "w_end": "2026-03-09 08:00:00", "rate_per_minute": 3.0}),
])
def test_wordings_the_sixth_blind_file_misread(text: str, kind: str, params: dict) -> None:
    """Rules of drivers_blind_f.json (dictated speech, second-language English) read wrong
    when it was measured blind (61/70); each general class fixed in round 11 reads right."""
    assert_reads_as(text, kind, params)


def test_the_sixth_blind_file_reads_all_but_one_rule() -> None:
    """drivers_blind_f.json after round 11: 69 of 70 rules exact. The one left is BF07's family
    errand, whose absence span "从3点到20号晚上10点" takes its 3点 from an earlier 下午3点开始;
    the reader has no rule for a bare clock that repeats an earlier one."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_f.json")] == [
        ("BF07", "home_stay_event")]


@pytest.mark.parametrize(("text", "kind", "params"), [
    # unrelated numbers around the rule: a distance that is a rate's unit or a price is no bound
    ("13米的车空跑一公里油钱就要一块多，所以空车去装货的距离不能超过40公里，超过的单每单罚八十。",
     "max_pickup_deadhead_km", {"max_km": 40.0}),
    ("Empty kilometres are money burned; diesel is 7.4 a litre and I get about 4 km to the "
     "litre. Over the month, total empty driving (repositioning plus driving to pickups) must "
     "stay within 800 km. Every km beyond that costs 2 yuan, capped at 1500.",
     "max_total_deadhead_km", {"max_km": 800.0}),
    ("柴油七块二一升，我这车一百公里要烧三十五升。整个三月空驶总里程（空车调度加上去装货的空跑）不能超过1200公里，"
     "超出部分每公里罚一块五，最多罚两千。", "max_total_deadhead_km", {"max_km": 1200.0}),
    # the length a minimum word names, the threshold a comparison names
    ("My back has been bad since a crash on the Jingzhu expressway in 2021. The doctor wanted 8 "
     "hours, we settled on 7: on weekdays, Monday to Friday, I need one unbroken rest of at "
     "least 7 hours inside the same calendar day. Weekends I sort out myself. Fine me 150 for "
     "each weekday I miss it.", "daily_continuous_rest", {"min_minutes": 420, "days": "weekdays"}),
    ("My record was 22 hours straight back in 2015 and I'm not doing that again. At most 3 "
     "orders a month whose loading + driving + unloading time is over 10 hours; each one beyond "
     "the 3rd is 400.", "monthly_long_haul_cap", {"threshold_minutes": 600, "max_per_month": 3}),
    # keep clear of a point; 罚二百一单 (200 a load); 不干; "don't want any order"
    ("There's a weigh station near 东莞虎门 (Humen, Dongguan) at 22.8190, 113.6730 where they "
     "fined me twice last year. Keep 5 km clear of that point: any step that starts or ends "
     "within 5 km of it is 250, every time.", "forbidden_circle",
     {"lat": 22.819, "lng": 113.673, "radius_km": 5.0}),
    ("罚二百一单——这是少拉的。我跟东莞一家建材厂签了三年的协议，2026年3月份建材的单至少要拉6单。",
     "monthly_category_quota", {"category": "建材", "min_orders": 6}),
    ("快递快运搬家的活我不干，一车杂货装卸能把人累死，还老丢件。拉一单这种货罚三百。",
     "forbidden_cargo_category", {"categories": ["快递快运搬家"]}),
    ("I'm diabetic, diagnosed at 45, so lunch is not optional. Between 12:00 and 13:30 I don't "
     "want any order or empty move running; every single order or move that overlaps that "
     "window costs 100.", "quiet_window", {"start": "12:00", "end": "13:30"}),
    # the count said with its day, not the hours of the reason
    ("The 13-metre trailer takes an hour to load anyway, so cap it at 4 orders a day. Every "
     "order after the 4th on the same day is fined 150.", "max_orders_per_day",
     {"max_orders": 4}),
])
def test_wordings_the_seventh_blind_file_misread(text: str, kind: str, params: dict) -> None:
    """Rules of drivers_blind_g.json (each told as a story, with plates, prices, ages and years
    around it) read wrong when it was measured blind (56/70); each class fixed in round 12."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize(("text", "kind", "place"), [
    # the place the rule's clause names, not the story's
    ("我在梅州跑了十二年，老客户大多在揭阳。这个月至少要有6天接到在揭阳装货或卸货的单子，不然客户要跑，"
     "月底不够罚五百。", "min_region_order_days", "揭阳"),
    ("On March 8 and March 15, both Sundays, my cousin's shop in Jiangmen needs me and 广州 "
     "(Guangzhou) is jammed anyway. On those two days don't take any order that loads or "
     "unloads in 广州. 250 each time.", "date_region_avoid", "广州"),
])
def test_the_place_of_the_rules_clause(text: str, kind: str, place: str) -> None:
    assert_reads_as(text, kind, {"place": place})


@pytest.mark.parametrize(("text", "km"), [
    ("Deadhead budget for the month: 1500 km; 1 yuan per km over, max 3000.", 1500.0),
    ("这个月空跑的总数八百公里不能超过 超一公里扣三块 最多就扣一千", 800.0),
    ("一个月下来，放空跑的公里数加一块不能过一千二，超出去的那部分按一公里两块扣。", 1200.0),
])
def test_a_fines_cap_or_price_is_no_km_bound(text: str, km: float) -> None:
    r = read_preference(text)
    assert r.best is not None
    assert r.best.params["max_km"] == km


def test_english_phrasings() -> None:
    cases = {
        "Rest at least 8 hours in a row every day": ("daily_continuous_rest",
                                                     {"min_minutes": 480, "days": "all"}),
        "Never take cargo of category vegetables": ("forbidden_cargo_category",
                                                    {"categories": ["蔬菜"]}),
        "no more than 3 orders per day": ("max_orders_per_day", {"max_orders": 3}),
        "stay inside lat 22.5-23.5, lng 113-114.5": (
            "stay_inside_bbox", {"lat_min": 22.5, "lat_max": 23.5, "lng_min": 113.0,
                                 "lng_max": 114.5}),
        "Refuse any load picked up or delivered in Shenzhen.": ("forbidden_cargo_place",
                                                               {"place": "深圳"}),
    }
    for text, (kind, params) in cases.items():
        got = parse_preference(text)
        assert got is not None, text
        assert (got.kind, got.params) == (kind, params), text


def test_fine_and_cap_come_from_the_text() -> None:
    got = parse_preference("每天至少连续休息8小时，不满足扣钱200元，封顶3000元")
    assert got == ParsedPreference("daily_continuous_rest", {"min_minutes": 480, "days": "all"},
                                   200.0, 3000.0)
    uncapped = parse_preference("货源品类为「蔬菜」的一律不接，每接一次罚100元，上不封顶")
    assert uncapped is not None
    assert uncapped.penalty_cap is None
    assert uncapped.penalty_amount == 100.0


def test_unreadable_text_is_none() -> None:
    for t in ["", "   ", "今天天气不错", "hello world", "12345", "（22.5，113.2）", "罚100元",
              "x" * 5000]:
        assert parse_preference(t) is None, t


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_never_raises_on_arbitrary_unicode(text: str) -> None:
    got = parse_preference(text)
    assert got is None or isinstance(got, ParsedPreference)


_PIECES = st.sampled_from(["每天", "至少", "连续", "休息", "8小时", "晚上10点", "至", "次日", "6点",
                           "不接单", "（22.5，113.2）", "半径5公里", "3月5日", "深圳", "「蔬菜」",
                           "扣钱100元", "封顶", "上不封顶", "每分钟罚2元", "先到", "再", "回家",
                           "北纬22至23", "东经113至114", "rest", "hours", "then", "per day",
                           "km", "orders", "12:00", "前", "停留30分钟", "2026-03-05 08:00"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=14))
def test_never_raises_on_mixed_vocabulary(pieces: list[str]) -> None:
    got = parse_preference("".join(pieces))
    if got is not None:
        assert validate(got.to_dict()) == got


def misread_fines(name: str) -> list[tuple[str, float | None, float | None]]:
    """(driver, fine read, cap read) for each rule of a blind drivers file whose fine or cap
    is read otherwise than its gold `penalty_amount` / `penalty_cap`."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "blind_drivers" / name
    wrong = []
    for row in json.loads(path.read_text(encoding="utf-8")):
        for p in row["preferences"]:
            best = read_preference(p["content"].replace("{CARGO}", "C10000042")).best
            got = (best.penalty_amount, best.penalty_cap) if best else (None, None)
            if got != (p["penalty_amount"], p["penalty_cap"]):
                wrong.append((row["driver_id"], *got))
    return wrong


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # financial numerals, thousands in k and 千, a li (half a km)
    ("有机肥、化肥这类化工塑料的货不拉，派了每单罚贰佰伍拾元。", "forbidden_cargo_category",
     {"categories": ["化工塑料"]}, 250.0),
    ("Empty running over the whole month: 2.5k km at most; each km beyond costs ¥1.",
     "max_total_deadhead_km", {"max_km": 2500.0}, 1.0),
    ("整月空车跑的总里程别超过3千公里，超出的每公里罚1块2。", "max_total_deadhead_km",
     {"max_km": 3000.0}, 1.2),
    ("整个月空驶加起来控制在900千米以内，多跑一公里罚两块。", "max_total_deadhead_km",
     {"max_km": 900.0}, 2.0),
    ("去装货的空车路不超过六十里，超了每单罚1k。", "max_pickup_deadhead_km", {"max_km": 30.0},
     1000.0),
    # four-digit clocks on their own, a clock's half of the day in one letter
    ("每晚2300之前回到家(23.10, 113.30)一公里内，0630之前不出车，做不到一天罚120。",
     "home_by_curfew", {"curfew": "23:00", "quiet_until": "06:30"}, 120.0),
    ("Truck stays parked 10p-5a, the whole stretch, every night. Any night that isn't all rest "
     "costs ¥90.", "rest_window_full_coverage", {"start": "22:00", "end": "05:00"}, 90.0),
    # degrees and minutes; 半公里
    ("老家在 23°06.6'N 113°18.0'E，每晚十点前回到家半公里内，早上六点以后再出车。哪天没做到罚100。",
     "home_by_curfew", {"lat": 23.11, "lng": 113.3, "radius_km": 0.5}, 100.0),
    # the count a quiet window states; the hours allowed before the window kept
    ("中午12点到下午1点半吃饭午睡，别派单也别开车。被占了当天罚60，同一天不管占几次只算一次。",
     "quiet_window", {"start": "12:00", "end": "13:30", "count": "per_day"}, 60.0),
    ("晚上8点到10点陪孩子写作业，这段时间不开车不接单。按时段计，每占一个时段罚30。",
     "quiet_window", {"start": "20:00", "end": "22:00", "count": "per_step"}, 30.0),
    # days without orders when the truck may move; a refusal before the load verb
    ("这个月至少要有6天一单都不接（车照样可以开，去修车加油都行），不满6天罚500。",
     "min_days_without_orders", {"min_days": 6}, 500.0),
    ("他不准拉水果，也不准拉蔬菜，每拉一单罚120。", "forbidden_cargo_category",
     {"categories": ["水果", "蔬菜"]}, 120.0),
    # a circle fined once however often; what the driver carries, the rest refused
    ("麻将馆那一片（中心22.9100, 113.2500，半径1公里）不准去，"
     "这个月只要进去过就罚1500，进几次都是这个数。",
     "forbidden_circle", {"radius_km": 1.0, "mode": "once"}, 1500.0),
    ("我只拉水果和蔬菜，除此之外一概不接，接了每单罚80。", "forbidden_cargo_category",
     {"categories": ["建材", "化工塑料", "煤炭矿产", "机械设备", "食品饮料", "鲜活水产品",
                     "服饰纺织皮革", "快递快运搬家"]}, 80.0),
    # a box by its four edges; an example in brackets
    ("跑车范围：北至北纬23.40，南至22.50，东至东经114.30，西至113.20。出框每个时段罚40。",
     "stay_inside_bbox", {"lat_min": 22.5, "lat_max": 23.4, "lng_min": 113.2,
                          "lng_max": 114.3}, 40.0),
    ("每天至少要连续歇7个钟（比如夜里一点歇到早上八点就行），哪天不够罚70。",
     "daily_continuous_rest", {"min_minutes": 420}, 70.0),
    # the fined one named between verb and amount; a hyphened amount
    ("4月2号（周四）那单C10000042是老客户的，那天一定要接，不接罚他900。", "must_take_cargo",
     {"cargo_id": "C10000042"}, 900.0),
    ("Dad must visit grandma at 23.1200, 113.2800 (within 1 km) on at least 5 days this month, "
     "or it's a single 500-yuan fine.", "min_visit_days", {"min_days": 5}, 500.0),
])
def test_wordings_the_eighth_and_ninth_blind_files_misread(text: str, kind: str, params: dict,
                                                            amount: float) -> None:
    """Classes of drivers_blind_h.json (numbers, times and coordinates in every written form)
    and drivers_blind_i.json (rules written by others about the driver) read wrong when they
    were measured blind (H 48/73 exact, I 54/71); each fixed in rounds 13 and 14, here in
    wordings of our own."""
    assert_reads_as(text, kind, params)
    best = read_preference(text).best
    assert best is not None
    assert best.penalty_amount == amount


@pytest.mark.parametrize(("text", "params"), [
    # the event's opening span is the absence window; the stay-home end after a weekday
    ("3月16号（周一）下午5点到晚上9点之间去车站 (23.1000, 113.2600) 接我妈，"
     "在车站1公里内至少等20分钟；接完回家 (23.1300, 113.3000)，在家待到第二天（周二）早上七点。"
     "没接到罚400，回家后每少待一分钟扣2元。",
     {"w0": "2026-03-16 17:00:00", "w1": "2026-03-16 21:00:00",
      "w_end": "2026-03-17 07:00:00", "rate_per_minute": 2.0}),
    # the stay-home end's date after its clock, without "on"'s month
    ("On 18 March pick up your son at school (23.0500, 113.7400) some time between 16:00 and "
     "19:00, wait at least 15 minutes, bring him home (23.0200, 113.7500) and stay home until "
     "08:00 on the 19th. Miss it: 300 yuan, plus 2 yuan for every minute it's off.",
     {"w0": "2026-03-18 16:00:00", "w1": "2026-03-18 19:00:00",
      "w_end": "2026-03-19 08:00:00", "rate_per_minute": 2.0}),
])
def test_a_family_errand_written_by_someone_else(text: str, params: dict) -> None:
    assert_reads_as(text, "home_stay_event", params)


@pytest.mark.parametrize(("text", "stops"), [
    # a numbered list (blind file I's broadcast)
    ("Job list for Thu 19 March:\n1. Depot A (22.6000, 113.9000) by 09:00, stay at least "
     "60 min\n2. Yard B (22.7000, 114.0500) by 14:00, stay at least 30 min\nIn that order, "
     "2 km at each. Not following it: 800 yuan.",
     [(22.6, 113.9, "09:00", 60), (22.7, 114.05, "14:00", 30)]),
    # a form of stops (BM14's, read blind as a long-haul cap of 30 one-hour orders a month,
    # which put BM14 6.8% of its gross below the floor)
    ("Itinerary - Thursday 19 March 2026\nStop 1: 23.1000, 113.2000 - arrive by 09:00, "
     "stay 45 min\nStop 2: 22.8000, 113.5000 - arrive by 15:00, stay 30 min\n"
     "Order: stop 1 then stop 2. Radius: 2 km\nFine: 600 yuan if the plan isn't kept",
     [(23.1, 113.2, "09:00", 45), (22.8, 113.5, "15:00", 30)]),
])
def test_a_route_written_as_a_list_or_a_form(text: str, stops: list) -> None:
    assert_reads_as(text, "route_stops_on_day", {"date": "2026-03-19", "stops": [
        {"lat": a, "lng": b, "arrive_by": by, "min_dwell_minutes": d} for a, b, by, d in stops]})


@pytest.mark.parametrize("text", [
    "No loads 10 at night to 5 in the morning, 120 yuan per night, capped at 1200 a month.",
    "Family matter on 2026-03-30 from 07:00: pick up my husband at (22.27, 113.54), at least 10 "
    "minutes there, then home to (22.21, 113.30). 5 yuan per minute away from home between "
    "07:00 and 10:00, stay home until 2026-03-30 20:00, extra 1000 yuan once if I leave early.",
])
def test_a_four_digit_number_after_at_or_until_is_no_clock(text: str) -> None:
    """"capped at 1200" is a cap and "until 2026-03-30" a year: only a clock word or a
    leading zero makes four digits a clock."""
    best = read_preference(text).best
    assert best is not None
    if best.kind == "home_stay_event":
        assert best.params["w_end"] == "2026-03-30 20:00:00"
    else:
        assert best.penalty_cap == 1200.0


def test_the_eighth_and_ninth_blind_files_read_every_rule_and_fine() -> None:
    """drivers_blind_h.json (73 rules) and drivers_blind_i.json (71), written blind on
    2026-12-07 and read for misses in rounds 13 and 14: every kind, parameter and fine. The
    one left is BI07's place, read 台山市 for 台山 ("Taishan (台山)"), which the scorer's
    substring test treats alike (the official place name is 广东省江门市台山市)."""
    assert misread_rules("drivers_blind_h.json") == []
    assert misread_fines("drivers_blind_h.json") == []
    wrong = misread_rules("drivers_blind_i.json")
    assert [(d, k) for d, k, _ in wrong] == [("BI07", "min_region_order_days")]
    assert wrong[0][2]["params"]["place"] == "台山市"
    assert misread_fines("drivers_blind_i.json") == []


def test_the_hours_allowed_before_the_window_kept() -> None:
    """"May only drive between 06:00 and 22:30. From 22:30 until 06:00 ...": the window is the
    span after the hours allowed (the first span read 06:00-22:30 as the rest window, a day
    without work). Still reported ambiguous beside a quiet window; the best reading is it."""
    best = read_preference(
        "He may only drive between 06:00 and 22:30. From 22:30 until 06:00 the next morning he "
        "has to be fully off the road, the whole stretch. Any night he drives in it: 150 yuan."
    ).best
    assert best is not None
    assert (best.kind, best.params["start"], best.params["end"]) == (
        "rest_window_full_coverage", "22:30", "06:00")


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # shorthand: symbols, a fine as a bare minus, a unit after a slash, r3km, emoji
    ("🏠23.10,113.30 ≤1km｜22:00前到家 次日06:30前不出车 违-150/天", "home_by_curfew",
     {"lat": 23.1, "lng": 113.3, "radius_km": 1.0, "curfew": "22:00", "quiet_until": "06:30"},
     150.0),
    ("max 2单/day, extra ¥120 ea", "max_orders_per_day", {"max_orders": 2}, 120.0),
    ("水果/蔬菜🚫 接1单罚200", "forbidden_cargo_category", {"categories": ["水果", "蔬菜"]},
     200.0),
    ("total empty km ≤800/mo, ¥2/km over", "max_total_deadhead_km", {"max_km": 800.0}, 2.0),
    ("3/15-17 佛山⛔ 每step-100", "date_region_avoid",
     {"dates": ["2026-03-15", "2026-03-16", "2026-03-17"], "place": "佛山"}, 100.0),
    ("长途>8hrs的单 max 2单/月 多1单-300", "monthly_long_haul_cap",
     {"threshold_minutes": 480, "max_per_month": 2}, 300.0),
    ("0-6点 全程停 ✗-120/天", "rest_window_full_coverage", {"start": "00:00", "end": "06:00"},
     120.0),
    ("01:00-05:00 不开车 违了-60/天(每天最多1次)", "quiet_window",
     {"start": "01:00", "end": "05:00", "count": "per_day"}, 60.0),
    ("本月≥3天不接单(空跑ok) 不够-500一次", "min_days_without_orders", {"min_days": 3}, 500.0),
    ("景区 24.77,113.67 r3km 进过就罚300 整月只罚1次", "forbidden_circle",
     {"radius_km": 3.0, "mode": "once"}, 300.0),
    # contract clauses and rambling: the rule's numbers among the story's
    ("第二条 乙方空车前往装货地的行驶距离，每单不得超过20公里。超过的，每单违约金人民币50元；"
     "本月本条违约金累计不超过人民币500元。", "max_pickup_deadhead_km", {"max_km": 20.0}, 50.0),
    ("Clause 2. The Carrier shall not operate the Vehicle between 01:00 and 05:00 on any day. "
     "Breaches are counted per day: any day with a breach attracts a single penalty of RMB 100.",
     "quiet_window", {"start": "01:00", "end": "05:00", "count": "per_day"}, 100.0),
    ("Last week I did a 500-yuan job after driving 90 km empty, never again. If the pickup is "
     "more than 30 kilometres from where I'm sitting, don't give it to me. Each order like "
     "that, knock 70 yuan off, and that goes for the whole month.", "max_pickup_deadhead_km",
     {"max_km": 30.0}, 70.0),
    ("The Carrier shall have orders in Foshan (佛山) on not fewer than ten (10) distinct "
     "calendar days. Should it fall short, a one-time penalty of RMB 600 applies.",
     "min_region_order_days", {"place": "佛山", "min_days": 10}, 600.0),
    ("前年跑了一趟韶关，三百公里，花了一千二。所以你就给我在这么一个框框里面排活：纬度从22.60到23.40，"
     "经度从113.50到114.20。出了这个框，每一步罚100。", "stay_inside_bbox",
     {"lat_min": 22.6, "lat_max": 23.4, "lng_min": 113.5, "lng_max": 114.2}, 100.0),
    ("第五条 本协议有效期内（2026年3月1日至2026年3月31日），乙方应当在不少于8个不同的日子里到达"
     "北纬23.0000度、东经113.5000度处，半径1公里以内视为到达。不足8日的，支付违约金人民币600元。",
     "min_visit_days", {"min_days": 8}, 600.0),
    ("我老婆说我上回一天跑了六单，晚上十二点才到家。就是一天最多给我排3单，多一单算200块罚款。",
     "max_orders_per_day", {"max_orders": 3}, 200.0),
    # a contract's curfew said again before its quiet time; a day broken as the fine's unit
    ("第一条 乙方应当于每日22:00前回到住所（住所坐标：北纬23.2000，东经113.3000；"
     "半径1公里范围内视为在家），并于当日22:00起至次日06:00止不得离开上述范围。"
     "乙方每违反一日，支付违约金人民币150元。",
     "home_by_curfew", {"curfew": "22:00", "quiet_until": "06:00"}, 150.0),
    # a story's clock and place beside the rule's; a point with N after its latitude
    ("My mother-in-law watches the kids until nine, then she catches the 9:40 bus home. I need "
     "to be home by 21:00 every night, home is 22.5000 north, 113.4000 east, within a km, and "
     "I'm not going anywhere until 07:00 the next morning. Any day I'm not, 200 yuan.",
     "home_by_curfew", {"lat": 22.5, "lng": 113.4, "curfew": "21:00", "quiet_until": "07:00"},
     200.0),
    ("The seafood there is great, I had crab for 90 yuan a kilo, but the consignees pay late. "
     "So anything loading in or delivering to Shantou (汕头), keep it away from me. 250 yuan "
     "penalty for every order like that.", "forbidden_cargo_place", {"place": "汕头"}, 250.0),
    ("Clause 4. The Restricted Zone means the circular area having a radius of 3 km centred at "
     "latitude 22.6000 N, longitude 114.1000 E. The Vehicle shall not enter it. A single sum "
     "of RMB 900 is payable upon the first breach, however many entries follow.",
     "forbidden_circle", {"lat": 22.6, "lng": 114.1, "radius_km": 3.0, "mode": "once"}, 900.0),
    ("没做到-300 另按2元/min：3/18 15:00后去23.05,112.47接老妈 停≥20min，回到🏠23.04,112.46 "
     "待到3/19 08:00", "home_stay_event", {"rate_per_minute": 2.0}, 300.0),
])
def test_wordings_the_tenth_and_eleventh_blind_files_misread(text: str, kind: str, params: dict,
                                                              amount: float) -> None:
    """Classes of drivers_blind_j.json (shorthand: symbols, emoji, slashes, a fine as a
    bare minus) and drivers_blind_k.json (contract clauses and rambling voice messages with
    the story's numbers around the rule) read wrong when measured blind (J 33/73 exact, K
    43/70); each fixed in rounds 15 and 16, here in wordings of our own."""
    best = read_preference(text).best
    assert best is not None
    assert best.kind == kind
    assert {k: best.params.get(k) for k in params} == params
    assert best.penalty_amount == amount


def test_a_cap_in_a_clause_of_its_own_is_read() -> None:
    got = read_preference(
        "Clause 3. The Vehicle shall not be present within 2 km of the point at latitude "
        "22.2000, longitude 113.5000. Each time step inside is a separate breach of RMB 100, "
        "provided that the aggregate liability under this Clause shall not exceed RMB 1,000 "
        "for the month.").best
    assert got is not None
    assert (got.kind, got.penalty_amount, got.penalty_cap) == ("forbidden_circle", 100.0, 1000.0)


def test_the_tenth_and_eleventh_blind_files_read_but_the_rules_listed() -> None:
    """drivers_blind_j.json (73 rules) after round 15: 69 exact; drivers_blind_k.json (70)
    after round 16: 63. The rules left, each named in docs/preferences.md (a home-by clock a
    writer meant as the errand's absence end, a day count without its unit, a place in a
    story beside the rule, a voice message's several clocks)."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_j.json")] == [
        ("BJ02", "min_region_order_days"), ("BJ12", "home_stay_event"),
        ("BJ16", "home_stay_event")]
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_k.json")] == [
        ("BK01", "dwell_at_point_on_day"), ("BK04", "quiet_window"),
        ("BK09", "forbidden_cargo_place"), ("BK09", "min_visit_days"),
        ("BK12", "min_full_off_days"), ("BK13", "home_stay_event"),
        ("BK19", "max_orders_per_day")]


@pytest.mark.parametrize(("text", "kind", "params"), [
    ("调度：李师傅，这个月要几天不接单？\n李师傅：最少6天。\n调度：月中活多，4天行不？\n"
     "李师傅：5天，不能再少了。\n调度：好，整个3月至少5天不接任何单，那几天车开不开随你。"
     "不够5天，月底罚一次700。\n李师傅：可以。", "min_days_without_orders", {"min_days": 5}),
    ("调度：潘师傅，去装货空车开多远能接受？\n潘师傅：山路多，空车最多15公里。\n"
     "调度：15太少了，有的厂四十来公里。\n潘师傅：那就25公里封顶。\n"
     "调度：好，空车去装货超过25公里的单，每单罚50。\n潘师傅：行。",
     "max_pickup_deadhead_km", {"max_km": 25.0}),
])
def test_a_rule_agreed_over_several_turns_reads_the_agreement(text: str, kind: str,
                                                              params: dict) -> None:
    """drivers_blind_m.json (dialogues and forms, measured blind 33/70 exact): the last turn
    that names a number restates what was agreed and is read first (`extract._dialogue`);
    the offers before it were read instead."""
    assert_reads_as(text, kind, params)


def test_the_twelfth_and_thirteenth_blind_files_misses_are_pinned() -> None:
    """drivers_blind_l.json (72 rules, values of the rule's own type beside it, rules that
    changed: 51 exact blind, 54 after round 17) and drivers_blind_m.json (70, dialogues and
    forms: 33 exact blind, 49 after round 17, 53 with the offers set aside in round 18). The
    rules listed are read wrong today; a change
    that reads one more right must shorten this list, and one that breaks another fails."""
    assert len(misread_rules("drivers_blind_l.json")) == 16
    assert len(misread_rules("drivers_blind_m.json")) == 17


@pytest.mark.parametrize(("text", "curfew", "quiet"), [
    # the home-by deadline, not the quiet time's end said with 前 as well
    ("调度：谭师傅，晚上有门禁吗？\n谭师傅：有，晚上8点半要到家。\n调度：8点半太早，9点半？\n"
     "谭师傅：9点吧，早上7点前不出门。\n调度：行，晚上9点前到家，第二天早上7点前不出门。"
     "家在21.6600, 110.9200，1公里内。违反1天罚120。\n谭师傅：好。", "21:00", "07:00"),
    ("调度：几点前回家？\n梁师傅：最好九点半。\n调度：十点行不行？\n梁师傅：行，那就十点。"
     "不过早上六点之前别叫我出车。家在23.0300, 113.1400，1.5公里内。\n"
     "调度：好。哪天晚上十点还没到家，或者第二天六点前就出车了，当天罚150。\n梁师傅：可以。",
     "22:00", "06:00"),
])
def test_a_curfew_agreed_in_a_dialogue(text: str, curfew: str, quiet: str) -> None:
    assert_reads_as(text, "home_by_curfew", {"curfew": curfew, "quiet_until": quiet})


@pytest.mark.parametrize(("text", "cats"), [
    # the categories refused, not those the driver hauls, nor a refusal lifted since
    ("Don't give me fruit - it rots in my box. Building materials are my bread and butter; I "
     "also took machinery loads last month. 300 yuan per fruit order.", ["水果"]),
    ("蔬菜不拉，放久了容易烂。我主要拉建材和机械设备。去年还不拉食品饮料，现在可以拉了。拉一单蔬菜罚200。",
     ["蔬菜"]),
    ("I mostly haul furniture. Until February I refused fruit as well, but fruit is fine again "
     "now. What I won't touch: chemicals and plastics. 250 yuan per such order.", ["化工塑料"]),
    # a list of the refused after a colon stays one sentence
    ("第四条 乙方不得承运下列两类货物：（一）鲜活水产品；（二）水果。违者每单罚200元。",
     ["鲜活水产品", "水果"]),
])
def test_only_the_categories_refused(text: str, cats: list[str]) -> None:
    assert_reads_as(text, "forbidden_cargo_category", {"categories": cats})


def test_the_fourteenth_and_fifteenth_blind_files_read_but_the_rules_listed() -> None:
    """drivers_blind_n.json (74 rules in written Cantonese and Mandarin with input-method slips:
    52 with their parameters blind, 73 after round 18) and drivers_blind_o.json (74 rules with
    days said by the calendar, rules by exception, second-language English: 55 blind, 68
    after). The rules left, each named in docs/preferences.md."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_n.json")] == [
        ("BN10", "max_pickup_deadhead_km")]
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_o.json")] == [
        ("BO01", "date_region_avoid"), ("BO02", "max_orders_per_day"),
        ("BO04", "quiet_window"), ("BO08", "date_region_avoid"), ("BO12", "home_stay_event"),
        ("BO15", "date_region_avoid")]


@pytest.mark.parametrize(("text", "kind", "params"), [
    # the offer answered with another value is set aside, and the answerer's own first value
    ("Dispatcher: Any area you don't want to drive into?\nHuang: Shekou port.\n"
     "Dispatcher: Give me a point.\nHuang: 22.4855, 113.9136. Keep me out of 3 km around it.\n"
     "Dispatcher: 3 km cuts off half of Nanshan. Can we do 2?\nHuang: OK, 2 km.\n"
     "Dispatcher: Then every time step you spend inside that 2 km circle costs 40 yuan.\n"
     "Huang: Every step? Fine, I just won't go in.", "forbidden_circle",
     {"lat": 22.4855, "lng": 113.9136, "radius_km": 2.0}),
    ("Q: How much empty driving can you live with over the whole month?\n"
     "A: Not more than 800 km in total.\nQ: With a 4.2 m you'll be hopping around town a lot. "
     "1,000?\nA: 900, final offer.\nQ: OK: 900 km of empty running in total for March. "
     "Every km beyond that is 2 yuan.\nA: OK.", "max_total_deadhead_km", {"max_km": 900.0}),
    ("调度：邓师傅，早上第一单最晚几点接？\n邓伟：九点半吧。\n调度：清远的货一般早上装，8点半前能接第一单吗？\n"
     "邓伟：8点半太赶，8点45。\n调度：好，有接单的日子，第一单不能晚于8:45，晚了当天罚60。\n邓伟：行。",
     "first_order_deadline", {"latest": "08:45"}),
    # a rate accepted as offered ("Make it 1.5 per minute?" / "OK, 1.5."), said with its unit
    ("Wu: On 10 March my father leaves hospital.\nDispatcher: What do you need?\n"
     "Wu: Between 2 pm and 6 pm that day I have to pick him up at the hospital, 22.5265, "
     "113.3760, and wait there at least 40 minutes for the discharge.\nDispatcher: Then?\n"
     "Wu: Then bring him home, 22.5170, 113.3925, and stay home until 8 am the next morning.\n"
     "Dispatcher: 1 km radius for both places?\nWu: Yes.\nDispatcher: Penalty: 600 yuan if you "
     "miss the pickup, and 2 yuan per minute you're away from home after it, until 8 am on the "
     "11th.\nWu: Make it 1.5 per minute?\nDispatcher: OK, 1.5.", "home_stay_event",
     {"rate_per_minute": 1.5, "min_pickup_dwell_minutes": 40}),
])
def test_an_offer_answered_with_another_value_is_set_aside(text: str, kind: str,
                                                           params: dict) -> None:
    """drivers_blind_m.json: the first offer of a negotiation was read (3 km, 800 km, 08:30,
    2 yuan a minute) where the agreement came later (`dialogue.agreed`)."""
    assert_best(text, kind, params)


def test_a_route_agreed_in_turns_keeps_each_stop_and_takes_the_dwell_countered() -> None:
    """Two stops said in turn by one speaker keep their own clocks and dwells; only the dwell
    the dispatcher questioned and the driver answered changes (半小时 -> 45 分钟)."""
    from sim.preferences.text.dialogue import agreed
    text = ("吴晓东：3月25号我要送孩子去珠海考试，然后去江门接我妈。\n调度：具体几点？\n"
            "吴晓东：先到珠海考点，早上8点前到，要待两个小时等孩子考完。考点是22.2735, 113.5430。\n"
            "调度：然后呢？\n吴晓东：然后去江门，下午3点前到，22.5790, 113.0810，待半小时吃个饭。\n"
            "调度：半小时够吗？\n吴晓东：那就45分钟吧。\n"
            "调度：好，两个点都按2公里范围算，先珠海后江门，哪一步没做到罚600。\n吴晓东：好的。")
    out = agreed(text)
    assert out.startswith("调度：好，两个点都按2公里范围算")
    assert "早上8点前到，要待两个小时" in out
    assert "下午3点前到" in out
    assert "半小时" not in out
    assert "待45分钟吃个饭" in out
    assert "22.2735, 113.5430" in out
    assert "22.5790, 113.0810" in out


def test_a_form_or_a_single_statement_is_no_dialogue() -> None:
    from sim.preferences.text.dialogue import agreed
    form = ("Event: warehouse inspection\nDate: Sat 14 March 2026\nPoint: 22.3580, 113.5860\n"
            "Fine: 350")
    assert agreed(form) == form
    assert agreed("晚上十点前到家，罚150") == "晚上十点前到家，罚150"


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("吉车去装货唔好超过廿五公里，超过嘅单每单罚60。", "max_pickup_deadhead_km", {"max_km": 25.0},
     60.0),
    ("吉车去装货嗰段路唔好超过卅公里，太远唔抵，超过嘅单一单罚120。", "max_pickup_deadhead_km",
     {"max_km": 30.0}, 120.0),
    ("超过200咪（公里）嘅单唔好派俾我，我只跑短途，一单罚250。", "max_haul_km", {"max_km": 200.0},
     250.0),
    ("一个月空车跑的总公理数不能超过1500，超出的每公理扣两块，最多扣1000。",
     "max_total_deadhead_km",
     {"max_km": 1500.0}, 2.0),
    ("开车超过8个钟头的长途单一个月最多接3单，再多的每单发300。", "monthly_long_haul_cap",
     {"threshold_minutes": 480, "max_per_month": 3}, 300.0),
    ("恩平啲单我每个月最少要做4日，唔够4日罚400。", "min_region_order_days",
     {"place": "恩平", "min_days": 4}, 400.0),
    ("乐从家具城（22.9740, 113.1080）每个月至少要去8日，去到一公里内先算，唔够8日罚600。",
     "min_visit_days", {"lat": 22.974, "lng": 113.108, "min_days": 8}, 600.0),
    ("广州市中心（23.1291, 113.2644）8公里范围我唔入，货车限行。"
     "成个月只要入过一次就罚1000，罚一次算数，"
     "唔会重复罚。", "forbidden_circle", {"radius_km": 8.0, "mode": "once"}, 1000.0),
    ("每个月要有3日完全off，唔接单、唔揸车，就咁停喺度唞。唔够3日罚500。", "min_full_off_days",
     {"min_days": 3}, 500.0),
    ("一个月起码要有4日唔接单（车可以照行，吉车去边度等货都得），唔够4日罚300。",
     "min_days_without_orders", {"min_days": 4}, 300.0),
    ("这个月最少要有6天零订单，空车跑去别的地方没关系，就是不要接单。少过6天罚400。",
     "min_days_without_orders", {"min_days": 6}, 400.0),
    ("下昼五点半到七点要接仔放学同煮饭，呢段时间唔好开工。一日犯咗就算一次，每次罚80蚊。",
     "quiet_window",
     {"start": "17:30", "end": "19:00", "count": "per_day"}, 80.0),
    ("廿五号礼拜三要去车管所验车（24.8000, 113.5900），两公里范围内留够三个钟，"
     "几点到都冇所谓。冇去罚600。",
     "dwell_at_point_on_day", {"date": "2026-03-25", "min_dwell_minutes": 180}, 600.0),
])
def test_cantonese_as_typed_on_a_phone(text: str, kind: str, params: dict,
                                       amount: float) -> None:
    """drivers_blind_n.json: 廿/卅 tens, 吉车 (an empty truck), 咪 for km, 公理 and 发 typed
    for 公里 and 罚, a count of days as N日, 唔入 (not going in), 开工 (working)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize(("text", "date"), [
    ("三月第三个星期六 (third Saturday of March) 要按顺序跑两个点，每个点2公里内算到："
     "① 珠海 22.2710, 113.5767，早上9点前到，停45分钟；"
     "② 然后江门 22.5790, 113.0815，下午两点半前到，停1小时。罚1200。",
     "2026-03-21"),
    ("Last Saturday of the month: I have to be at my brother's wedding hall, 22.8300, 113.6800, "
     "within 1 km, arriving by 3 in the afternoon and staying at least two hours. Otherwise 800.",
     "2026-03-28"),
    ("Monday after the 15th: I need 4 hours at the Lecong furniture market, 22.9520, 113.1130 "
     "(2 km radius counts). Any time that day, no set arrival. Miss it: 700.", "2026-03-16"),
])
def test_a_day_said_by_the_calendar(text: str, date: str) -> None:
    """drivers_blind_o.json: "the third Saturday", "the last Saturday of the month", "the
    Monday after the 15th" were read with no date (or as a circle to keep out of)."""
    r = read_preference(text).best
    assert r is not None
    assert r.params["date"] == date


def test_nth_weekday_counts_the_competition_month() -> None:
    from sim.preferences.text.calendar_days import as_dates, nth_weekday
    assert [nth_weekday(2026, 3, 6, n) for n in (1, 2, 5, -1)] == [1, 8, 29, 29]
    assert nth_weekday(2026, 3, 0, 5) == 30
    assert nth_weekday(2026, 3, 1, 5) == 31
    assert nth_weekday(2026, 3, 2, 5) is None  # March 2026 has four Wednesdays
    assert as_dates("本月最后一个周日") == "3月29日"
    assert as_dates("三月第二个星期三下午") == "3月11日下午"
    assert as_dates("the fifth Wednesday of March") == "the fifth Wednesday of March"


@pytest.mark.parametrize(("text", "amount", "cap"), [
    ("No single haul over 350 km. 250 per order that breaks it.", 250.0, None),
    ("Need at least 3 full days off this month: no orders AND the truck stays parked all day. "
     "Fewer than that, 900 once.", 900.0, None),
    ("need at least 6 days in march with no orders. otherwise 800 flat", 800.0, None),
    # the cap after a bare amount is a cap, not the amount
    ("rest rule: fully parked 10pm-6am every night, on sat & sun from 8pm instead. 250 per night "
     "broken, max 2500", 250.0, 2500.0),
    ("Stay inside lat 22.3–23.5, lng 112.6–113.8. Every step outside: 80, capped at 2000 for "
     "the month.", 80.0, 2000.0),
    # a coordinate before a "Fine:" label is no amount
    ("Box for work\nNorth edge: lat 23.30\nSouth edge: lat 22.55\nWest edge: lng 113.10\n"
     "East edge: lng 113.75\nFine: 55 yuan for each time step outside", 55.0, None),
    # digits before a numeral and its unit: 100 a load, not 1001
    ("去装货点的空车路程每单不超过60公里，超了罚100一单。", 100.0, None),
    ("本月最少6天有湛江的单，不够6天罚900一次。", 900.0, None),
])
def test_a_bare_amount_a_breach_names_is_the_fine(text: str, amount: float,
                                                  cap: float | None) -> None:
    """drivers_blind_o.json: 15 rules stated their fine as a bare number after the breach
    ("Otherwise 800.", "250 per order that breaks it"); they were read with no fine. Read
    only where no amount is found otherwise."""
    r = read_preference(text).best
    assert r is not None
    assert (r.penalty_amount, r.penalty_cap) == (amount, cap)


@pytest.mark.parametrize(("text", "kind", "params"), [
    ("除了食品饮料和快递快运搬家，其他货我都不碰。派别的货给我，每单罚400。",
     "forbidden_cargo_category",
     {"categories": ["蔬菜", "水果", "建材", "化工塑料", "煤炭矿产", "机械设备", "鲜活水产品",
                     "服饰纺织皮革"]}),
    ("Dinner with the family from half six in the evening, for an hour and a half — don't move "
     "the truck then. 60 for any day I do, however many times that day.", "quiet_window",
     {"start": "18:30", "end": "20:00", "count": "per_day"}),
    ("The yard of my boss at 23.0860, 112.4980, I must show up there at least 10 days this "
     "month, within half km (0.5 km). Less than 10 days, pay 1200 one time.", "min_visit_days",
     {"radius_km": 0.5, "min_days": 10}),
    ("Home is 22.7205, 114.2468 (inside 0.8 km is home). I must back home before 11 pm, then not "
     "go out until half past six next morning. Each night break it, 250.", "home_by_curfew",
     {"radius_km": 0.8, "curfew": "23:00", "quiet_until": "06:30"}),
    ("中午十二点半到两点午休，这段时间车不能动，每动一个时段罚40，累计算。", "quiet_window",
     {"start": "12:30", "end": "14:00", "count": "per_step"}),
    ("I want minimum 5 days in March with zero order (drive empty is ok). If not enough, 500 "
     "one time.", "min_days_without_orders", {"min_days": 5}),
])
def test_rules_by_exception_and_second_language_english(text: str, kind: str,
                                                        params: dict) -> None:
    """drivers_blind_o.json: every category but those named (除了…其他都不碰), "half six",
    "inside 0.8 km", 车不能动, "zero order"."""
    assert_best(text, kind, params)


def test_the_sixteenth_and_seventeenth_blind_files_read_but_the_rules_listed() -> None:
    """drivers_blind_p.json (70 rules typed on a dispatch app: key=value lines, city codes,
    four-digit clocks, 45', 1h30, /d: 43 with their parameters blind, 64 after round 19, 65
    after round 24 read its route's circled stop numbers, ①②③) and
    drivers_blind_q.json (74 rules in Traditional Chinese from Hong Kong, Macau and Taiwan
    drivers: 51 blind, 72 after). The rules left, each named in docs/preferences.md."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_p.json")] == [
        ("BP06", "min_region_order_days"),
        ("BP11", "route_stops_on_day"), ("BP16", "home_stay_event"),
        ("BP20", "home_stay_event")]
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_q.json")] == [
        ("BQ06", "quiet_window"), ("BQ20", "date_region_avoid")]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("home=22.816,113.805 (Chang'an DG) r=1.5km | curfew=2200 | no moving till 0600 next day | "
     "fine=250/night", "home_by_curfew",
     {"radius_km": 1.5, "curfew": "22:00", "quiet_until": "06:00"}, 250.0),
    ("JM home 22.579,113.082, r=0.8km — 2100 curfew, stay in till 0500 next day. 220/night",
     "home_by_curfew", {"radius_km": 0.8, "curfew": "21:00", "quiet_until": "05:00"}, 220.0),
    ("lunch 1130-1300 quiet. 40 per step (each order/move inside 1130-1300 counted separately)",
     "quiet_window", {"start": "11:30", "end": "13:00", "count": "per_step"}, 40.0),
    ("3/21 Sat 饮喜酒 (wedding): Shiqi ZS 22.5236,113.3811 r=2km, arrive ≤1100, stay ≥3h. "
     "miss → 800 once", "dwell_at_point_on_day",
     {"date": "2026-03-21", "arrive_by": "11:00", "min_dwell_minutes": 180}, 800.0),
    ("1st order/day starts ≤1100, else 70/d", "first_order_deadline", {"latest": "11:00"},
     70.0),
    ("days w/o orders ≥3 this month (no order taken that day). short → 450 once",
     "min_days_without_orders", {"min_days": 3}, 450.0),
    ("full off days ≥ 4 this month — whole day no orders AND no empty driving, truck parked. "
     "short → 600 once", "min_full_off_days", {"min_days": 4}, 600.0),
    ("≤4 orders/d, extra ones 80 each", "max_orders_per_day", {"max_orders": 4}, 80.0),
    ("Gongbei port 22.215,113.546 r=2km — keep out, 100 every step inside", "forbidden_circle",
     {"radius_km": 2.0, "mode": "per_step"}, 100.0),
    ("3/5–3/7 (Thu, Fri, Sat, all 3 days) avoid HZ 惠州 completely. 250 per step in 惠州 on those "
     "days", "date_region_avoid", {"dates": ["2026-03-05", "2026-03-06", "2026-03-07"]}, 250.0),
])
def test_rules_typed_on_a_dispatch_app(text: str, kind: str, params: dict,
                                       amount: float) -> None:
    """drivers_blind_p.json: key=value clocks (curfew=2200), a clock before its word (2100
    curfew), ≤1100, r=1.5km, /d, w/o, a count after its days (days ≥3), a bare amount after
    an arrow or "each", a date range with an en dash."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    # a year after "until" or "from" is no clock; ≤2000km is a distance; <= is no amount
    "Family errand: from 2026-04-14 17:00, first go to (23.02, 113.75) and pick up my wife, "
    "staying there at least 10 minutes, then return home to (23.05, 113.70). Every minute away "
    "from home between 17:00 and 21:00 that day costs 2 yuan; I must then stay home until "
    "2026-04-15 06:00, and leaving early costs 500 yuan.",
])
def test_a_year_after_a_clock_word_is_no_clock(text: str) -> None:
    r = read_preference(text).best
    assert r is not None
    assert (r.params["w0"], r.params["w_end"]) == ("2026-04-14 17:00:00", "2026-04-15 06:00:00")


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("空驶全月≤2000km 超1km罚1元", "max_total_deadhead_km", {"max_km": 2000.0}, 1.0),
    ("Geofence: 22.5<=lat<=23.5, 113<=lng<=114.", "stay_inside_bbox",
     {"lat_min": 22.5, "lng_max": 114.0}, None),
    ("Daily: one continuous rest >= 7 h.", "daily_continuous_rest", {"min_minutes": 420}, None),
    # "No." is a number word only with its capital; a bare number of four digits is no cargo id
    ("肇庆 (ZQ) loads: no. 180/order", "forbidden_cargo_place", {"place": "肇庆"}, 180.0),
])
def test_shorthand_numbers_keep_their_meaning(text: str, kind: str, params: dict,
                                              amount: float | None) -> None:
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("我屋企喺寶安，位置係 22.5553, 113.8836。每晚2230時前要返到屋企1.5公里範圍之內，"
     "一直留到第二朝0600時"
     "先可以再出車。做唔到嘅話，一晚罰２５０蚊。", "home_by_curfew",
     {"curfew": "22:30", "quiet_until": "06:00", "radius_km": 1.5}, 250.0),
    ("一日最多做３張單，第４張起每多一張罰１５０蚊。", "max_orders_per_day", {"max_orders": 3},
     150.0),
    ("揭陽的單這個月最少要有６天有跑到，少於６天罰450塊（罰一次）。", "min_region_order_days",
     {"place": "揭阳", "min_days": 6}, 450.0),
    ("車程超過８小時（480分鐘）的長途單，一個月最多只接３張；超過的，每多一張罰400元。",
     "monthly_long_haul_cap", {"threshold_minutes": 480, "max_per_month": 3}, 400.0),
    ("每天晚上8點半（20:30）以前要回到韶關的家（24.8108, 113.5972），800公尺內都算，"
     "一直待到隔天早上5點"
     "（05:00）。沒做到一晚罰150元。", "home_by_curfew",
     {"radius_km": 0.8, "curfew": "20:30", "quiet_until": "05:00"}, 150.0),
    ("星期一至五每日要有連續７個鐘（420分鐘）唔開工休息，星期六日唔計。邊日做唔到就罰200。",
     "daily_continuous_rest", {"min_minutes": 420, "days": "weekdays"}, 200.0),
    ("每晚2330時至翌日0630時要成段休息；週末就提早由2200時開始，一樣休息到0630時。冇做到一晚罰１８０元。",
     "rest_window_full_coverage", {"start": "23:30", "end": "06:30", "weekend_start": "22:00"},
     180.0),
    ("Fri 6 Mar: between 18:00 and 23:00 I need to pick up my wife at Guangzhou South Station "
     "(22.9885, 113.2690), be there at least 30 minutes, then go home to Panyu (22.9375, "
     "113.3840) and stay until 09:00 on Sat 7 Mar. 1 km radius for both. Fine RMB 400 if I "
     "fail, plus RMB 1 per minute short.", "home_stay_event",
     {"w_end": "2026-03-07 09:00:00", "rate_per_minute": 1.0}, 400.0),
])
def test_traditional_chinese_and_hong_kong_usage(text: str, kind: str, params: dict,
                                                 amount: float) -> None:
    """drivers_blind_q.json: 揭陽, 張 (orders counted in 張), 封頂 were outside the traditional
    characters we mapped; 2230時, 公尺, 隔天, 星期一至五, a clock or a duration said again in
    brackets, "RMB 1 per minute", a date after its clock with a weekday ("on Sat 7 Mar")."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


def test_the_eighteenth_and_nineteenth_blind_files_read_but_the_rules_listed() -> None:
    """drivers_blind_r.json (73 rules dictated with the numbers in words: 55 with their
    parameters blind, 67 after round 20) and drivers_blind_s.json (70 rules formatted in
    Markdown as a chat assistant writes them: 59 blind, 70 after). The rules left, each named
    in docs/preferences.md."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_r.json")] == [
        ("BR05", "home_stay_event"), ("BR07", "monthly_long_haul_cap"),
        ("BR11", "home_stay_event"), ("BR13", "route_stops_on_day"),
        ("BR17", "home_stay_event"), ("BR19", "monthly_long_haul_cap")]
    assert misread_rules("drivers_blind_s.json") == []


@pytest.mark.parametrize(("text", "kind", "params"), [
    ("Um, okay, so home for me is latitude twenty-three point one nine zero five, longitude one "
     "hundred thirteen point two seven one one. Every night I've got to be back within one "
     "point five kilometres of there by half past ten at night, and then the truck stays put "
     "till six the next morning. Three hundred yuan for each night I don't manage it.",
     "home_by_curfew", {"lat": 23.1905, "lng": 113.2711, "radius_km": 1.5, "curfew": "22:30",
                        "quiet_until": "06:00"}),
    ("Saturday the fourteenth of March is my son's school sports day, at latitude twenty-three "
     "point one two nine one, longitude one hundred thirteen point two six four four. I need to "
     "get within two kilometres of it by ten in the morning and stay at least three hours. If I "
     "don't, it's eight hundred yuan.", "dwell_at_point_on_day",
     {"date": "2026-03-14", "lat": 23.1291, "radius_km": 2.0, "arrive_by": "10:00"}),
    ("I stay within latitude twenty-two to twenty-four, longitude one hundred twelve to one "
     "hundred fourteen point five. Um, four hundred yuan every time I drive out of that box.",
     "stay_inside_bbox", {"lat_min": 22.0, "lat_max": 24.0, "lng_min": 112.0, "lng_max": 114.5}),
    ("Saturday the twenty-first of March, keep me out of Shenzhen completely. Five hundred yuan "
     "each time I go in that day.", "date_region_avoid", {"dates": ["2026-03-21"]}),
    ("If I'm working that day, the first job should start by ten a.m. Any later and it's sixty "
     "yuan for the day.", "first_order_deadline", {"latest": "10:00"}),
    ("Between nine thirty at night and five thirty in the morning I shouldn't be doing "
     "anything. Every single move I make in that window gets fined sixty yuan, each one counted "
     "on its own.", "quiet_window", {"start": "21:30", "end": "05:30", "count": "per_step"}),
])
def test_numbers_dictated_in_words(text: str, kind: str, params: dict) -> None:
    """drivers_blind_r.json: coordinates and distances said "twenty-three point one nine zero
    five", "one point five", whole degrees of a box in words, "the fourteenth of March",
    "ten a.m.", "nine thirty at night", "keep me out of"."""
    assert_best(text, kind, params)


def test_a_spoken_evening_span_gives_both_ends_its_half_of_the_day() -> None:
    from sim.preferences.text.extract import normalise_text, number_view
    said = number_view(normalise_text("sometime between four thirty and six thirty in the "
                                      "evening"))
    assert "4:30 pm and 6:30 pm" in said
    # a span whose day part is a habit ("every night") keeps its clocks as written
    assert "0:00-6:00" in number_view(normalise_text("Stay parked 0:00-6:00 every night."))


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("Sure! Here's the itinerary for **Sunday 22 March 2026** 👇\n\n"
     "| # | stop | lat, lng | arrive by | stay at least |\n|---|---|---|---|---|\n"
     "| 1 | Songshan Lake, Dongguan | 22.9210, 113.8880 | 08:30 | 30 min |\n"
     "| 2 | Huizhou city | 23.1115, 114.4152 | 12:00 | 90 min |\n"
     "| 3 | Longgang, Shenzhen | 22.7206, 114.2468 | 17:00 | 20 min |\n\n"
     "Stops in this order; being within **2 km** of a point counts as being there.\n\n"
     "**Penalty:** ¥1,500 once if any stop is missed.", "route_stops_on_day",
     {"date": "2026-03-22", "stops": [
         {"lat": 22.921, "lng": 113.888, "arrive_by": "08:30", "min_dwell_minutes": 30},
         {"lat": 23.1115, "lng": 114.4152, "arrive_by": "12:00", "min_dwell_minutes": 90},
         {"lat": 22.7206, "lng": 114.2468, "arrive_by": "17:00", "min_dwell_minutes": 20}]},
     1500.0),
    ("## 📍 活动范围：粤东\n\n| 项目 | 内容 |\n|---|---|\n| 纬度范围 | 23.2 – 24.9 |\n"
     "| 经度范围 | 115.3 – 116.9 |\n| 罚款 | 车在框外每一步罚 200 元 |\n"
     "| 封顶 | 整月最多罚 4000 元 |",
     "stay_inside_bbox", {"lat_min": 23.2, "lat_max": 24.9, "lng_min": 115.3, "lng_max": 116.9},
     200.0),
    ("## 🏠 Visit my mum's place\n\n- 📍 Location: Futian, lat **22.5431**, lng **114.0579**\n"
     "- 📏 Counts if I'm within **1 km** of it\n- 📅 At least **10 different days** in March\n\n"
     "**Penalty:** one-off ¥1,500 if I end the month short of 10 days.", "min_visit_days",
     {"lat": 22.5431, "lng": 114.0579, "radius_km": 1.0, "min_days": 10}, 1500.0),
    # a bullet at a line's start is no fine as a bare minus
    ("## 回阳春看看\n\n- 地点：阳春 (22.1705, 111.7915)\n- 半径：2 公里\n- 3月至少去 **4 天**\n"
     "- 罚款：不够，一次罚 600 元", "min_visit_days", {"radius_km": 2.0, "min_days": 4}, 600.0),
    ("## ⛔ 福田中心区禁行\n\n- 圆心：(22.5405, 114.0555)\n- 半径：4 km\n"
     "- 罚款：按次计，车在圈内的每一步都罚 200 元（不是一次性）", "forbidden_circle",
     {"radius_km": 4.0, "mode": "per_step"}, 200.0),
    ("Summary：本月至少 **6 天** 不接任何单（可以空车挪位置，只是不接单）。\n"
     "Penalty：不足 6 天，一次性罚 1100 元。", "min_days_without_orders", {"min_days": 6}, 1100.0),
])
def test_a_rule_pasted_from_a_chat_assistant(text: str, kind: str, params: dict,
                                             amount: float) -> None:
    """drivers_blind_s.json: Markdown tables (a row's cells named by the header), bold values
    (**22.5431**, **10:00**), headings, quotes and bullets."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


def test_the_twentieth_and_twenty_first_blind_files_read_but_the_rules_listed() -> None:
    """drivers_blind_t.json (72 rules in colloquial northern and central Mandarin with the
    trade's words: 56 with their parameters blind, 67 after round 21) and
    drivers_blind_u.json (71 rules exported by a fleet system in other units: metres,
    seconds, fen, ISO times, enum values: 39 blind, 64 after, 65 since round 36 read BU06's
    visit quota as a config snippet's keys). The rules left, each named in
    docs/preferences.md."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_t.json")] == [
        ("BT06", "dwell_at_point_on_day"), ("BT08", "home_stay_event"),
        ("BT14", "quiet_window"), ("BT14", "home_stay_event"), ("BT20", "home_stay_event")]
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_u.json")] == [
        ("BU05", "home_stay_event"), ("BU06", "forbidden_cargo_category"),
        ("BU14", "min_region_order_days"),
        ("BU16", "min_full_off_days"), ("BU20", "max_orders_per_day"),
        ("BU20", "home_stay_event")]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("晌午饭点十二点到一点半（12:00—13:30）我要吃饭眯一下，莫给我排活儿。哪天这段时间里车子动了，不管动了几回，"
     "那天只算一回，罚一百块。", "quiet_window",
     {"start": "12:00", "end": "13:30", "count": "per_day"}, 100.0),
    ("后半夜零点到五点（00:00—05:00）莫派活。这段时间里车子每动一步都单独算一回罚，一回八十块，"
     "一个月最多罚八百。",
     "quiet_window", {"start": "00:00", "end": "05:00", "count": "per_step"}, 80.0),
    ("我屋在肇庆端州，北纬23.0472、东经112.4651，四里地（2公里）以内都算到屋。每天天擦黑，最迟晚上九点（21:00）"
     "要收车回屋，第二天早上五点半（05:30）之前不出门。哪天冇做到罚两百。", "home_by_curfew",
     {"radius_km": 2.0, "curfew": "21:00", "quiet_until": "05:30"}, 200.0),
    ("21号22号（礼拜六礼拜天）东莞我不去，那两天车子在东莞境内每跑一步罚250。", "date_region_avoid",
     {"dates": ["2026-03-21", "2026-03-22"], "place": "东莞"}, 250.0),
    ("广州市中心（北纬23.1291、东经113.2644）方圆15公里我不想进，大车进城太麻烦。这个月只要进去过，不管进几回，"
     "总共只罚一次，八百块。", "forbidden_circle", {"radius_km": 15.0, "mode": "once"}, 800.0),
])
def test_colloquial_mandarin_with_the_trades_words(text: str, kind: str, params: dict,
                                                   amount: float) -> None:
    """drivers_blind_t.json: 后晌/后半夜/天擦黑/一大早, 莫 (别), 屋 (家), 派活/排活, a clock in
    numerals said again in digits, 四里地（2公里）, 21号22号, 只算一回, 每动一步都单独算, an
    amount in 块 alone."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    # 块 as "together" or a litre's price is no amount
    "一个月下来，放空跑的公里数加一块不能过一千二，超出去的那部分按一公里两块扣。",
    "柴油现在七块六一升，跑太多单人也吃不消，我一天最多接三单，第四单起每多接一单罚一百二。",
])
def test_kuai_as_an_amount_only_where_no_fine_is_said(text: str) -> None:
    r = read_preference(text).best
    assert r is not None
    assert r.penalty_amount in (None, 2.0, 120.0)


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("rule_type=MAX_ORDERS_PER_DAY; max_orders=2; count_unit=calendar day; penalty_cny=120.00 "
     "for each order above the 2nd on the same day; penalty_cap=NONE", "max_orders_per_day",
     {"max_orders": 2}, 120.0),
    ("rule_type=ROUTE_STOPS; date=2026-03-18 (Wed); match_radius_m=1500; stop_1: "
     "lat/lon=22.97130/113.12830 (乐从), arrive_by=09:00:00, min_dwell_s=3600; stop_2: "
     "lat/lon=22.67230/113.25080 (小榄), arrive_by=14:30:00, min_dwell_s=2700; stops in this "
     "order; penalty_cny=600.00 once if the itinerary is not completed", "route_stops_on_day",
     {"radius_km": 1.5, "stops": [
         {"lat": 22.9713, "lng": 113.1283, "arrive_by": "09:00", "min_dwell_minutes": 60},
         {"lat": 22.6723, "lng": 113.2508, "arrive_by": "14:30", "min_dwell_minutes": 45}]}, 600.0),
    ("回家规定：家在北纬23.02900、东经113.14300，以800米为半径。每晚21:30:00之前必须到家，并一直待到第二天"
     "07:00:00才能出车。哪天没做到，当天罚款20000分。", "home_by_curfew",
     {"radius_km": 0.8, "curfew": "21:30", "quiet_until": "07:00"}, 200.0),
    ("Lunch quiet window 12:00:00–13:30:00 daily: no orders, no driving. count_mode: PER_STEP "
     "(every step that falls inside the window is fined separately, not once per day). Fine "
     "CNY 40.00 per step.", "quiet_window", {"count": "per_step"}, 40.0),
    ("rule_type=HOME_CURFEW; home_lat=23.15770; home_lon=113.27300; radius_m=1200; "
     "must_be_home_by=22:00:00; stay_until=06:00:00 (next morning); penalty_cny=250.00 per day "
     "violated", "home_by_curfew",
     {"lat": 23.1577, "lng": 113.273, "radius_km": 1.2, "curfew": "22:00", "quiet_until": "06:00"},
     250.0),
    ("Keep inside box — S 21.950000, N 22.600000, W 113.000000, E 113.700000 (decimal degrees). "
     "Fine per step spent outside: CNY 60.00.", "stay_inside_bbox",
     {"lat_min": 21.95, "lat_max": 22.6, "lng_min": 113.0, "lng_max": 113.7}, 60.0),
    ("Long trips (trip time strictly greater than 28800 s, i.e. over 8 h): max 2 in March "
     "2026. Each extra long trip: CNY 350.00.", "monthly_long_haul_cap",
     {"threshold_minutes": 480, "max_per_month": 2}, 350.0),
    ("Daily order cap = 3 | penalty_cny per order above 3 on the same day = 150.00 | no upper "
     "limit on the total", "max_orders_per_day", {"max_orders": 3}, 150.0),
    ("{type: GEOFENCE_INSIDE, lat_min: 22.100000, lat_max: 22.900000, lon_min: 112.900000, "
     "lon_max: 113.700000, counted: PER_STEP_OUTSIDE, penalty: \"CNY 70.00\"}",
     "stay_inside_bbox", {"lat_min": 22.1, "lat_max": 22.9, "lng_min": 112.9, "lng_max": 113.7},
     70.0),
])
def test_a_rule_exported_in_other_units(text: str, kind: str, params: dict,
                                        amount: float) -> None:
    """drivers_blind_u.json: metres, seconds and fen where the kinds read km, minutes and
    yuan; clocks with seconds; snake_case keys and enum values; lat/lon pairs; a box by its
    min and max fields (`sim/preferences/text/units.py`)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize(("text", "radius", "amount"), [
    # minutes after an hour (21时30分) and a clock's 分 are no fen; a km text keeps its metres
    ("第七条 乙方应于每日21时30分前返回番禺住所（22.940，113.380）一公里以内，"
     "至次日七时止不得接单或空驶，"
     "每违反一日罚款三百元。", 1.0, 300.0),
    ("On April 9, 2026, park within 500 m... no: within 1 km of (23.05, 113.70) for at least 2 "
     "hours, arriving before 15:00.", 1.0, None),
])
def test_other_units_leave_the_kinds_units_alone(text: str, radius: float,
                                                 amount: float | None) -> None:
    r = read_preference(text).best
    assert r is not None
    assert (r.params["radius_km"], r.penalty_amount) == (radius, amount)


def test_the_twenty_second_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_v.json (73 rules of English typed fast by second-language speakers:
    lowercase, SMS words, misspellings, Canton and Swatow: 57 with their parameters blind, 67
    after round 22). BV06's and BV09's places are read 博罗县 and 开平市 (alike to the
    scorer's substring test)."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_v.json")] == [
        ("BV06", "home_stay_event"), ("BV06", "min_region_order_days"),
        ("BV09", "min_region_order_days"), ("BV13", "quiet_window"),
        ("BV15", "home_stay_event"), ("BV18", "home_by_curfew")]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("empty run to reach a pickup cant be more than 25 kilomter. 100 per order that breaks it",
     "max_pickup_deadhead_km", {"max_km": 25.0}, 100.0),
    ("3/4 3/5 3/6 no going to swatow, festival there jams everything. 300 ¥ every time im there "
     "on those days", "date_region_avoid",
     {"dates": ["2026-03-04", "2026-03-05", "2026-03-06"], "place": "汕头"}, 300.0),
    ("siesta 1230 to 2pm, i dont work. 50 yuan for EACH step im driving or working in that "
     "window, counted every time not just once a day", "quiet_window",
     {"start": "12:30", "end": "14:00", "count": "per_step"}, 50.0),
    ("cement plant 23.7350,113.0120: need to be there (1.5km) on min 10 days in march. less than "
     "10 -> 1000 rmb once", "min_visit_days", {"radius_km": 1.5, "min_days": 10}, 1000.0),
    ("home jiangmen pengjiang 22.5789,113.0819 - whith in 2km. be back by 2300, dont leave till "
     "0630 next day. 220 yaun/nite", "home_by_curfew",
     {"radius_km": 2.0, "curfew": "23:00", "quiet_until": "06:30"}, 220.0),
    ("chaozhou old town 23.6618,116.6427 radius 2.5km, dont drive in there narrow streets. 180 "
     "every step inside", "forbidden_circle", {"radius_km": 2.5, "mode": "per_step"}, 180.0),
    ("tue mar3 be at 23.7000,114.7500 (2km) by 3pm and stay 1.5 hrs min. 350 if not",
     "dwell_at_point_on_day", {"date": "2026-03-03", "radius_km": 2.0, "arrive_by": "15:00",
                               "min_dwell_minutes": 90}, None),
])
def test_english_typed_fast(text: str, kind: str, params: dict, amount: float | None) -> None:
    """drivers_blind_v.json: kilomter, yaun, kuai, whith in, nite; Swatow and Canton (older
    English names of prefectures, `sim.geo.PREFECTURE_ALIASES_EN`); an amount before ¥;
    "1230 to 2pm"; "mar3"; a bracketed distance after a point's words as its radius; "dont
    drive in"; "not just once a day"."""
    got = assert_best(text, kind, params)
    if amount is not None:
        assert got.penalty_amount == amount


def test_the_twenty_third_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_w.json (74 rules dictated by voice through a phone's speech recognition,
    uncorrected: 44 with their parameters blind, 67 after round 23). Left: two errands read
    as a route and a curfew, two quiet windows whose clock is said again ("十一点半到一点 …
    呃就是中午十一点半到下午一点", "late at night from half past eleven"), full off days for days
    without orders, a correction whose first value keeps the rule's "a day", a date range said
    twice."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_w.json")] == [
        ("BW03", "home_stay_event"), ("BW07", "max_orders_per_day"),
        ("BW10", "min_days_without_orders"), ("BW11", "date_region_avoid"),
        ("BW11", "quiet_window"), ("BW13", "home_stay_event"), ("BW16", "quiet_window")]


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    # homophones: 工里 for 公里, 两白 for 两百, 修息 for 休息, 担 for 单, 店 for 点, 发 for 罚
    ("这个月空跑的总里程 最多八百工里 就是空车开的 加起来 超了 一公里罚三块",
     "max_total_deadhead_km", {"max_km": 800.0}, 3.0, None),
    ("嗯 每天都要睡够六个钟头 就是连续的 中间不能断的 少了就罚两白",
     "daily_continuous_rest", {"min_minutes": 360}, 200.0, None),
    ("每天第一担货 最迟上午十点半就要开始做了 晚过十店半 那天罚六十",
     "first_order_deadline", {"latest": "10:30"}, 60.0, None),
    ("服装纺织皮革这类的货 这个月要拉够十五担 少一单罚一百五",
     "monthly_category_quota", {"category": "服饰纺织皮革", "min_orders": 15}, 150.0, None),
    # a value taken back mid-sentence: the second one is the rule
    ("一天最多跑四单 呃不对不对 是三单 三单就够了 超出来的 每多一单罚两白块",
     "max_orders_per_day", {"max_orders": 3}, 200.0, None),
    ("这个月至少三天 不对不对 两天就行 两天全天修息 不开车也不接单 车不动 少了罚八百",
     "min_full_off_days", {"min_days": 2}, 800.0, None),
    ("my first job every day has to start by seven no sorry eight a.m. at the latest so if the "
     "first one starts after eight that day is fifty bucks",
     "first_order_deadline", {"latest": "08:00"}, 50.0, None),
    # coordinates read out with 点 for the point, digit by digit or as numerals
    ("梅州市区 中心是二十四点二八八六 一百一十六点一二二五 四公里以内我不想进去 "
     "在里面每一步罚一百 嗯 "
     "一个月最多罚一千", "forbidden_circle", {"lat": 24.2886, "lng": 116.1225, "radius_km": 4.0},
     100.0, 1000.0),
    ("三月八号 我要去江门那个厂 二十二点五九 一百一十三点零八 下午三点之前要到 "
     "在那附近两公里 要呆够两个小时 "
     "不然罚六百", "dwell_at_point_on_day",
     {"date": "2026-03-08", "lat": 22.59, "lng": 113.08, "min_dwell_minutes": 120}, 600.0,
     None),
    ("嗯那个 我家就在白云这边 位置是北纬23点2105 东经113点2731 就是说 晚上十点半以前一定要回到家 "
     "家附近一点五工里以内都算到家了 然后呢在家呆到第二天早上六点钟才出车 哪天做不到 就发三百块",
     "home_by_curfew", {"lat": 23.2105, "lng": 113.2731, "radius_km": 1.5, "curfew": "22:30",
                        "quiet_until": "06:00"}, 300.0, None),
    # digits before a numeral's unit; a cap said "fined up to"; two dates one after the other
    ("整个月 空车跑的里程加起来 不能超过1千5百工里 超出来的部分 每公里罚两块",
     "max_total_deadhead_km", {"max_km": 1500.0}, 2.0, None),
    ("我只在珠三角这一块跑 就是北纬二十二点三到二十三点六 东经一百一十二点八到一百一十四点六 "
     "这个框框里面 "
     "出了框 每一步罚一百 然后一个月最多罚到两千 封顶了", "stay_inside_bbox",
     {"lat_min": 22.3, "lat_max": 23.6, "lng_min": 112.8, "lng_max": 114.6}, 100.0, 2000.0),
    ("三月八号九号这两天 广州我是不去的 那两天只要在广州 每一步罚3百", "date_region_avoid",
     {"dates": ["2026-03-08", "2026-03-09"], "place": "广州"}, 300.0, None),
    ("海鲜那些活的 就是鲜活水产品 我车子没有水箱 拉不了 接到一单就罚三百五",
     "forbidden_cargo_category", {"categories": ["鲜活水产品"]}, 350.0, None),
    # a quiet window said by what is fined: any work in it, once a day
    ("晚上六点半到七点半 要回去陪小孩吃饭 这一个钟头里面 嗯 只要那天有干活 就罚五十 "
     "一天最多罚一次 不管干了几趟", "quiet_window",
     {"start": "18:30", "end": "19:30", "count": "per_day"}, 50.0, None),
    ("中午十二点到两点 我要吃饭午睡的 这段时间不想干活 那个 只要当天这个时间段里面有在干活 "
     "就罚八十 一天最多就罚一次", "quiet_window",
     {"start": "12:00", "end": "14:00", "count": "per_day"}, 80.0, None),
    # English said aloud: hundreds and tens, K for km, "for hundred", a coordinate's hundreds
    ("I don't take any load going to or coming from Shantou like the Chaoshan area Shantou any "
     "order that touches Shantou is a for hundred fine per order",
     "forbidden_cargo_place", {"place": "汕头"}, 400.0, None),
    ("um the empty drive to go pick up a load can't be more than twenty five K like from "
     "wherever I am to the pickup point and if it's longer it's one twenty per order",
     "max_pickup_deadhead_km", {"max_km": 25.0}, 120.0, None),
    ("and stay away from the Daya Bay petrochemical zone the centre is twenty two point seven "
     "three five north one fourteen point five four two east anywhere within five K of that if "
     "I go in there even once it's a one time fine of two thousand just once for the whole "
     "month not every time", "forbidden_circle",
     {"lat": 22.735, "lng": 114.542, "radius_km": 5.0, "mode": "once"}, 2000.0, None),
])
def test_rules_dictated_by_voice(text: str, kind: str, params: dict, amount: float,
                                 cap: float | None) -> None:
    """drivers_blind_w.json's voice-to-text classes (`sim/preferences/text/speech.py`)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


@pytest.mark.parametrize(("text", "expected"), [
    # a clock said as hours and minutes is no amount; a decimal point ends no clause
    ("Somewhere between three thirty and seven in the evening I have to be there",
     "Somewhere between three thirty and seven in the evening I have to be there"),
    ("Home is 22.7205, 114.2468. Each night break it, 250.",
     "Home is 22.7205, 114.2468. Each night break it, 250."),
    ("200 per day I miss, max 2500 a month", "200 per day I miss, max 2500 a month"),
    # a latitude's whole degrees are a clock's hours: 二十二点零五 alone is 22:05
    ("晚上二十二点零五以后不接单", "晚上二十二点零五以后不接单"),
    ("by long I mean any order over 6 hours", "by long I mean any order over 6 hours"),
    ("出发前三天", "出发前三天"),
    # and what is rewritten
    ("二十二点零五 一百一十三点零八", "22.05 113.08"),
    ("罚1百5，最多2千", "罚150，最多2千"),
    ("it is two fifty", "it is 250 yuan"),
    ("sixty a step", "60 yuan a step"),
])
def test_speech_rewrites_only_what_it_names(text: str, expected: str) -> None:
    from sim.preferences.text.speech import plain_speech
    assert plain_speech(text) == expected


def test_the_twenty_fourth_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_x.json (70 rules from paper through a phone photo and OCR: contracts,
    notices, notebooks, cab cards; 51 with their parameters blind, 68 after round 24). Left:
    a radius said as a point's third number "(23.6570, 116.6220, 1.5 km)", a lunch window
    said "要休息 … 跑了车当天罚一次" read as a rest window."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_x.json")] == [
        ("BX11", "min_visit_days"), ("BX13", "quiet_window")]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # look-alike characters (曰 夭 罸 単 体息), a word spaced out (公 里), a clause run on to the
    # next line, the page's header, footer, blank and stamp
    ("货物运输承运协议（司机联） 第1页 共3页\n第三条 收 车 规 定\n"
     "３.1 乙方车辆每曰须于 22:30 前回到停车场"
     "（北纬23.2150，东经113.2730，以此为中\n心半径1.5公 里范围内），"
     "并在场内停放至次曰06:00 后方可出车。\n"
     "３.2 违反上款的，每发生一夭罸款 150 元。 ____ 已审核", "home_by_curfew",
     {"lat": 23.215, "lng": 113.273, "radius_km": 1.5, "curfew": "22:30",
      "quiet_until": "06:00"}, 150.0),
    ("第七条 接单数量\n乙方每曰承接订单不得超过 ３ 单；超出部分按每单 200 元罸款，多\n"
     "接几单罚几单。 □ "
     "甲方（盖章）：已审核 ________", "max_orders_per_day", {"max_orders": 3}, 200.0),
    ("2．空车去装货点的距离每单不得超过２５公 里，超过的每単罚50元。", "max_pickup_deadhead_km",
     {"max_km": 25.0}, 50.0),
    ("第三条 工作曰（周一至周五）每天须有连续不少于540分钟（9小 时）的体息，\n"
     "周末不作要求，违者每天罚90元。 "
     "乙方签字：________", "daily_continuous_rest", {"min_minutes": 540, "days": "weekdays"},
     90.0),
    # English: l read as I, m as rn and rn as m, a word hyphenated at the line's end, a page
    # number after the fine
    ("2. HauI length: no single order may have a Ioaded distance of more than 300 kilo-\n"
     "rnetres. Fine RMB 250 per orcIer. |", "max_haul_km", {"max_km": 300.0}, 250.0),
    ("Daily rest: at Ieast 7 hours (420 minutes) of continuous rest every day.\nRMB 120 per "
     "day not compIied with.   - 2 -", "daily_continuous_rest", {"min_minutes": 420}, 120.0),
    ("Curfew: return to base at 22.8160 N, 113.8050 E (within 1 km) by 20:30 each\nday and "
     "remain there untiI 05:00 next moming. RMB 90 per day of breach.", "home_by_curfew",
     {"lat": 22.816, "lng": 113.805, "curfew": "20:30", "quiet_until": "05:00"}, 90.0),
    # circled clause numbers: a route's stops in order
    ("□ 3月25日线路（到达以2公 里为准，按顺序）：\n"
     "①乐昌 25.1280,113.3480 08:30前到 停30分钟\n②仁化 "
     "25.0850,113.7490 12:00前到 停40分钟\n③回韶关 24.8100,113.5970 17:00前到 停60分钟\n—— "
     "少一站或晚到 整条罚900", "route_stops_on_day",
     {"date": "2026-03-25", "radius_km": 2.0}, 900.0),
    # a letterhead's place is the company's, not the rule's; a table flattened with its
    # header on a line of its own, or with bars and no |---| row
    ("清远市某运输队 司机守则（2026年3月）\n"
     "1．本月应安排不少于３天的全天休息（当天不行驶、不接单），\n不足者一次性处罚600元。",
     "min_full_off_days", {"min_days": 3}, 600.0),
    ("茂名XX运输公司 三月份安排\n日期 | 禁入地区 | 罚则\n"
     "3月3日、3月4日 | 阳江 | 在阳江每一步罚100元",
     "date_region_avoid", {"dates": ["2026-03-03", "2026-03-04"], "place": "阳江"}, 100.0),
    ("惠州XX物流有限公司 车辆运营范围通知\n项目 纬度范围 经度范围 罚则\n"
     "| 运营区 | 22.50-23.60 | 113.60-114.90 | 出界每步罚50元，当月封顶1000元 |\n"
     "车辆须在上述矩形区域內行驶。", "stay_inside_bbox",
     {"lat_min": 22.5, "lat_max": 23.6, "lng_min": 113.6, "lng_max": 114.9}, 50.0),
])
def test_rules_from_paper_through_ocr(text: str, kind: str, params: dict, amount: float) -> None:
    """drivers_blind_x.json's OCR classes (`sim/preferences/text/ocr.py`)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    "I can take 2 orders a day. Include weekends.",  # I as a word, not l
    "一天最多接3单\n超过罚200",  # a clause on its own line, no OCR mark: as it was
    "回 家 吃 饭",  # characters spaced out, but nothing says a photo
    "Page one: max 300 km",
    "广州XX物流公司规定：每天最多接3单，超过罚200",  # the rule on the title's own line
])
def test_ocr_leaves_a_text_without_its_marks_alone(text: str) -> None:
    from sim.preferences.text.ocr import plain_ocr
    assert plain_ocr(text) == text


def test_the_twenty_fifth_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_y.json (72 rules typed in toneless pinyin, or mixing Cantonese or
    Mandarin with English as Shenzhen and Hong Kong office staff write: 29 with their
    parameters blind, 65 after round 25). Left: three errands read as a route, a curfew and a
    window ending the next morning, two lunch windows said "唔好 schedule 任何 driving" and
    "唔做嘢" over a step count, full rest days "成日唔开车, 唔接单" read as days without orders,
    and a month's deadhead said "kongpao zong gongli 1200 yinei"."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_y.json")] == [
        ("BY04", "quiet_window"), ("BY07", "home_stay_event"), ("BY13", "min_full_off_days"),
        ("BY14", "home_stay_event"), ("BY15", "quiet_window"),
        ("BY16", "max_total_deadhead_km"), ("BY19", "home_stay_event")]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("wanshang 10 dian ban (22:30) qian yao huidao jia, jia zai 23.1875,113.2631, 1.5 gongli "
     "nei suan dao jia; dier tian zaoshang 6 dian qian bu chumen. mei fan yi tian fa 200 kuai",
     "home_by_curfew", {"lat": 23.1875, "lng": 113.2631, "radius_km": 1.5, "curfew": "22:30",
                        "quiet_until": "06:00"}, 200.0),
    ("yi tian bu chao 3 dan. mei duo jie yi dan kou 180 yuan", "max_orders_per_day",
     {"max_orders": 3}, 180.0),
    ("huagong suliao he meitan kuangchan de huo dou bu la!! la yi dan fa 500",
     "forbidden_cargo_category", {"categories": ["化工塑料", "煤炭矿产"]}, 500.0),
    ("mei tian di yi dan zui wan shangwu 10:30 kaishi, wan le dang tian fa 90",
     "first_order_deadline", {"latest": "10:30"}, 90.0),
    ("zhou yi dao zhou wu meitian zhishao lianxu xiu 7 xiaoshi, weekend 唔计; "
     "做唔到 嗰日 fine 120",
     "daily_continuous_rest", {"min_minutes": 420, "days": "weekdays"}, 120.0),
    ("3月20号 route: xian qu 22.3542,113.5321 (Zhuhai fangxiang), 09:30 前到, ting zhishao 45 "
     "fenzhong; zai qu 22.6105,113.2810, 14:00 前到, stay 90 min. 两个点 2km 内都算. "
     "冇做到 fine 1000",
     "route_stops_on_day", {"date": "2026-03-20", "radius_km": 2.0, "stops": [
         {"lat": 22.3542, "lng": 113.5321, "arrive_by": "09:30", "min_dwell_minutes": 45},
         {"lat": 22.6105, "lng": 113.281, "arrive_by": "14:00", "min_dwell_minutes": 90}]},
     1000.0),
    # dates in any order are one set, written in order
    ("Mar 5 到 Mar 7 (5、6、7号) 唔入 Dongguan 东莞, 嗰几日 喺 Dongguan 每个 step fine 300",
     "date_region_avoid", {"dates": ["2026-03-05", "2026-03-06", "2026-03-07"]}, 300.0),
])
def test_rules_typed_in_pinyin(text: str, kind: str, params: dict, amount: float) -> None:
    """drivers_blind_y.json's pinyin classes (`sim/preferences/text/pinyin.py`)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    "Dan will fa-la-la at the party",  # two pinyin-looking words are no pinyin text
    "No orders after 10 pm; 200 per day I break it",
    "Mei and Dan drive to Dongguan by 8 am",
])
def test_an_english_text_is_no_pinyin(text: str) -> None:
    from sim.preferences.text.pinyin import plain_pinyin
    assert plain_pinyin(text) == text


@pytest.mark.parametrize("text", [
    # 差一分钟就罚两块钱: the minute short said without 每 (W, voice)
    "三月十号那天呢 下午四点以后我要去接我老婆下班 她厂在北纬22点9862 东经113点7204 "
    "到了以后至少要在那等她二十分钟 然后晚上十点之前要回到家 我家是 23点0207 113点7518 "
    "回家以后要一直待到十一号早上七点 "
    "接人和在家都是按一公里以内算 嗯 差一分钟就罚两块钱",
    # "mei chao yi fenzhong zai fa 2 kuai": in pinyin, 再 heard as 在 (Y)
    "3 yue 17 hao 17:30 zhihou qu xuexiao 23.6935,113.0432 jie haizi, tingliu zhishao 20 "
    "fenzhong, 21:00 qian hui dao jia (23.6818,113.0560), yizhi dai dao 18 hao zaoshang 6:30. "
    "fanwei dou shi 1 gongli. zuo bu dao fa 500, mei chao yi fenzhong zai fa 2 kuai",
])
def test_an_errand_priced_by_the_minute_short_is_an_errand(text: str) -> None:
    """Failure class "an errand read as a nightly curfew": with its per-minute price unread,
    BW13's and BY14's errands were read as curfews kept every night of the month, BW03's as a
    route. The errand's window end follows the reader's convention (a home-by deadline is no
    parameter of its own: absence runs to the stay-home end), which the writers' gold does
    not, so these stay on the files' lists of misreads."""
    r = read_preference(text).best
    assert r is not None
    assert r.kind == "home_stay_event"
    assert r.params["rate_per_minute"] == 2.0
    assert r.params["min_pickup_dwell_minutes"] == 20


def test_the_twenty_sixth_blind_file_reads_every_rule() -> None:
    """drivers_blind_ca.json (74 rules in North-Eastern, Shandong, Henan and Sichuan speech,
    days named by the weekday of the month or counted from another day: 59 with their
    parameters blind, all 74 after round 26). The errand priced only by the minute
    ("按一分钟两块钱罚") is read with no flat fine (its writer's gold puts the rate there too:
    2 yuan more on failure)."""
    assert misread_rules("drivers_blind_ca.json") == []
    assert misread_fines("drivers_blind_ca.json") == [("CA09", None, None)]


@pytest.mark.parametrize(("text", "kind", "params"), [
    # a day counted from a weekday of the month, forward or back
    ("三月第一个礼拜五再往后两天，俺得去北纬24.3000、东经116.0900那儿帮忙，一公里以内待够三个钟头，"
     "没待够罚四百。", "dwell_at_point_on_day", {"date": "2026-03-08", "min_dwell_minutes": 180}),
    ("三月第四个礼拜三的前一天，先到（北纬23.5480，东经113.5860），头晌九点半前到，待一个钟头；"
     "再到（北纬23.2900，东经113.8100），后晌三点半前到，待四十分钟。没跑全罚八百。",
     "route_stops_on_day", {"date": "2026-03-24"}),
    # 头一个 (the first), 月底最后一个 (the last), and a day with the one after it
    ("三月头一个礼拜五跟月底最后一个礼拜五，这两天甭往广州派活，在广州每跑一步罚二百。",
     "date_region_avoid", {"dates": ["2026-03-06", "2026-03-27"], "place": "广州"}),
    ("三月第二个礼拜六，再加上它第二天那个礼拜天，俺得搁家待着。那两天甭往佛山派活，在佛山每跑一步罚三百。",
     "date_region_avoid", {"dates": ["2026-03-14", "2026-03-15"]}),
    # 阳历三月初五: the solar calendar's fifth
    ("阳历三月初五俺要跑两个点：北纬23.7300、东经114.6900，早上八点前到，待半个钟头；"
     "北纬23.0800、东经114.4000，后晌一点前到，待一个钟头。少一个点罚九百。",
     "route_stops_on_day", {"date": "2026-03-05"}),
    # dialect words: 果子 fruit, 莫得兴趣 a refusal, 有活 orders there, 倒没啥 allowed
    ("蔬菜和果子都不拉，拉一单罚两百。", "forbidden_cargo_category",
     {"categories": ["蔬菜", "水果"]}),
    ("建材，还有煤啊矿啊，我都莫得兴趣，拉一单罚三百。", "forbidden_cargo_category",
     {"categories": ["建材", "煤炭矿产"]}),
    ("这个月至少得有六天在中山有活儿，不够六天罚五百", "min_region_order_days",
     {"place": "中山", "min_days": 6}),
    ("一个月里起码得有五天一单都不接，空车挪挪窝倒没啥。不够五天罚四百。",
     "min_days_without_orders", {"min_days": 5}),
    # the count said with 回 and 道: once a day, once a move, once for good
    ("后晌五点半到擦黑七点这一个半钟头不干活。哪天在这段里干了活就罚五十，一天顶多罚一回。",
     "quiet_window", {"start": "17:30", "end": "19:00", "count": "per_day"}),
    ("夜里十点半到第二天早上五点俺不跑车。这段时间里每动一回都罚八十。",
     "quiet_window", {"start": "22:30", "end": "05:00", "count": "per_step"}),
    ("北纬21.7500、东经111.8000周围4公里我不想去。只要进去过一回就罚五百，只罚一道，再进也不加。",
     "forbidden_circle", {"radius_km": 4.0, "mode": "once"}),
    # an errand priced "按一分钟两块钱"
    ("三月第三个礼拜二后晌四点到夜里九点之间，先去火车站（北纬24.7837，东经113.6246）接她，"
     "在站上等起至少二十分钟，再回屋头（北纬24.8108，东经113.5972）；九点以后就一直待在屋头，"
     "待到第二天早上八点。离这两个地方一公里以内都算。差好多分钟就按一分钟两块钱罚。",
     "home_stay_event", {"w0": "2026-03-17 16:00:00", "rate_per_minute": 2.0,
                         "min_pickup_dwell_minutes": 20}),
])
def test_dialect_speech_and_days_counted_by_the_week(text: str, kind: str, params: dict) -> None:
    """drivers_blind_ca.json's classes (docs/preferences.md round 26)."""
    assert_best(text, kind, params)


@pytest.mark.parametrize(("text", "count"), [
    # "每走一步就罚一回": a fine each step, not once
    ("北纬22.541、东经114.055周围5公里以内俺不进。车在这个圈里头每走一步就罚一回，一回二百。",
     "per_step"),
    # "单独算一回罚": each step on its own
    ("后半夜零点到五点莫派活。这段时间里车子每动一步都单独算一回罚，一回八十块。", "per_step"),
])
def test_a_fine_said_per_time_is_not_once(text: str, count: str) -> None:
    r = read_preference(text).best
    assert r is not None
    key = "mode" if r.kind == "forbidden_circle" else "count"
    assert r.params[key] == count


def test_the_twenty_seventh_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_z.json (72 rules written in Chinese and sent through a phone's translation
    app, uncorrected: 27 with their parameters blind, 69 after round 27). Left: two errands
    whose home-by time the reader's convention does not keep as a parameter (absence runs to
    the stay-home end), and a lunch window said "sleep nap, do not carry goods not drive",
    read as a rest window."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_z.json")] == [
        ("BZ08", "home_stay_event"), ("BZ16", "home_stay_event"), ("BZ16", "quiet_window")]
    assert misread_fines("drivers_blind_z.json") == []


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    ("Every day night 10 point half before must return home. Home in Canton Baiyun district, "
     "latitude 23.1985, longitude 113.2716, 1.5 kilometer inside count arrive home. Return "
     "home after, until second day morning 6 point not go out again. One day not do arrive "
     "fine money 300 yuan.", "home_by_curfew",
     {"radius_km": 1.5, "curfew": "22:30", "quiet_until": "06:00"}, 300.0, None),
    ("One day most receive 3 single order, many out one single deduct 200 yuan/single.",
     "max_orders_per_day", {"max_orders": 3}, 200.0, None),
    ("Chemical industry plastic goods I not pull, smell too big, head pain. Pull one single "
     "fine money 800 yuan.", "forbidden_cargo_category", {"categories": ["化工塑料"]}, 800.0,
     None),
    ("Only in Shen Zhen Dong Guan one piece run. Latitude from 22.45 to 23.15, longitude from "
     "113.70 to 114.60, run out this frame each time fine 120 yuan, the month accumulate fine "
     "most 1500 yuan sealing top.", "stay_inside_bbox",
     {"lat_min": 22.45, "lat_max": 23.15}, 120.0, 1500.0),
    ("3 month 8 day, 9 day these two day, Guangzhou not go, home have matter (有事). These 2 "
     "day if in Guangzhou each time fine 300 yuan.", "date_region_avoid",
     {"dates": ["2026-03-08", "2026-03-09"], "place": "广州"}, 300.0, None),
    ("Hui Zhou City the month at least 4 day have order. Not enough fine 700 yuan one time.",
     "min_region_order_days", {"place": "惠州", "min_days": 4}, 700.0, None),
    ("The month want at least 3 day empty single day (no pull any goods, car can move). Not "
     "enough fine 1000 yuan.", "min_days_without_orders", {"min_days": 3}, 1000.0, None),
    ("Daily first order latest 11 point in the morning to start, later than that 120 yuan "
     "fine each day.", "first_order_deadline", {"latest": "11:00"}, 120.0, None),
    ("Zhan Jiang Chikan old street, center north latitude 21.2730 east longitude 110.3580, "
     "radius 1.5 kilometer, road narrow, big car not go in. Each step in inside fine 60 yuan.",
     "forbidden_circle", {"lat": 21.273, "lng": 110.358, "radius_km": 1.5,
                          "mode": "per_step"}, 60.0, None),
])
def test_rules_sent_through_a_translation_app(text: str, kind: str, params: dict,
                                              amount: float, cap: float | None) -> None:
    """drivers_blind_z.json's classes (`sim/preferences/text/translated.py`)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


@pytest.mark.parametrize("text", [
    "Never come within 10 km of the point 22.27, 113.54; a single 500 yuan fine if I do.",
    "No single haul over 350 km. 250 per order that breaks it.",
    "At most 3 orders a day, 200 for each extra order.",
    "I do not do night runs: nothing moves between 22:00 and 06:00.",
])
def test_plain_english_is_no_translation(text: str) -> None:
    from sim.preferences.text.translated import plain_translation
    assert plain_translation(text) == text


def test_the_twenty_eighth_blind_file_reads_but_the_rule_listed() -> None:
    """drivers_blind_cb.json (72 rules machine-translated by a fluent online translator, by a
    second writer: 59 with their parameters blind on round 27's code, whose literal renderings
    it never uses; 71 after round 28). Left: "Kaiping (开平)" read as 开平市, the same county."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_cb.json")] == [
        ("CB06", "min_region_order_days")]
    assert misread_fines("drivers_blind_cb.json") == []


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    ("The total no-load running mileage for the whole month shall not exceed 1500 kilometers. "
     "For each kilometer exceeding, a fine of 2 yuan.", "max_total_deadhead_km",
     {"max_km": 1500.0}, 2.0, None),
    ("Idle driving (driving without goods) in the month totals not more than 2000 km. For the "
     "part exceeding, a penalty of 1.5 yuan per km.", "max_total_deadhead_km",
     {"max_km": 2000.0}, 1.5, None),
    ("I only run inside the Dongguan-Shenzhen area, i.e. latitude between 22.50 and 23.20 "
     "degrees north and longitude between 113.60 and 114.30 degrees east. Every time step the "
     "truck is found outside this range counts once, with a forfeit of 80 yuan each time, but "
     "the total forfeit for the month is no more than 2,400 yuan.", "stay_inside_bbox",
     {"lat_min": 22.5, "lat_max": 23.2}, 80.0, 2400.0),
    ("Single tickets with a transport distance of more than 180 kilometers are not accepted. "
     "For each such ticket taken, punishment of 250.", "max_haul_km", {"max_km": 180.0},
     250.0, None),
    ("Live aquatic products (fish, shrimp, crabs and other fresh and live seafood) are not "
     "transported by me. For each bill of such goods, 350 yuan is deducted.",
     "forbidden_cargo_category", {"categories": ["鲜活水产品"]}, 350.0, None),
    ("Do not enter the old urban area of Guangzhou, namely the circle with a radius of 5 km "
     "centered on 23.1290 N, 113.2640 E. Each time step the truck is found inside the circle "
     "is counted once, a fine of 60 yuan each time, and the maximum cumulative fine is 1800 "
     "yuan.", "forbidden_circle", {"radius_km": 5.0, "mode": "per_step"}, 60.0, 1800.0),
    ("From 22 o'clock at night to 6 o'clock the next morning the car should be quiet: no "
     "driving and no orders. It is counted per step: every time step in which the car is "
     "active in this period counts one time, punished with 50 yuan per time.", "quiet_window",
     {"start": "22:00", "end": "06:00", "count": "per_step"}, 50.0, None),
    ("On 5 March and 6 March there is an event in Shenzhen and traffic is controlled. On these "
     "two days the truck must not be in Shenzhen. Every time step found in Shenzhen on those "
     "two days, a penalty of RMB 200.", "date_region_avoid",
     {"dates": ["2026-03-05", "2026-03-06"], "place": "深圳"}, 200.0, None),
    ("At least 5 days in the month without taking orders. If not reached, be fined 1000 RMB "
     "once.", "min_days_without_orders", {"min_days": 5}, 1000.0, None),
    ("My home is in Baiyun District, Guangzhou. The location of the home is north latitude "
     "23.1960, east longitude 113.2650. Every night before 10:30 p.m., I must return to within "
     "1.5 kilometers of the home. After returning, the vehicle does not go out again until 6 "
     "o'clock in the morning of the next day. If this is not done on one day, a penalty of "
     "RMB 300 is imposed for that day.", "home_by_curfew",
     {"lat": 23.196, "lng": 113.265, "curfew": "22:30", "quiet_until": "06:00"}, 300.0, None),
    # "3 p.m." was rewritten "3 pm.m." (a clock's one-letter half of the day read in "p.m.")
    ("On March 18th my wife comes back by high-speed rail. Between 3 p.m. and 9 p.m. that day "
     "I must go to the pickup point at the station (23.3620 N, 116.6880 E) and wait within 1 "
     "km of it for at least 20 minutes to pick her up, then be at home (23.3710 N, 116.7030 E, "
     "within 1 km) by 9 p.m. and stay home until 7:30 a.m. on March 19th. If she is not picked "
     "up, be fined 500 RMB; in addition, for every minute not at home between 9 p.m. and 7:30 "
     "the next morning, 2 RMB.", "home_stay_event",
     {"w0": "2026-03-18 15:00:00", "w1": "2026-03-18 21:00:00", "rate_per_minute": 2.0},
     500.0, None),
])
def test_rules_a_fluent_translator_wrote(text: str, kind: str, params: dict, amount: float,
                                         cap: float | None) -> None:
    """drivers_blind_cb.json's classes (`translated.plain_terms`, docs/preferences.md round
    28)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


def test_a_clock_in_p_m_keeps_its_letters() -> None:
    from sim.preferences.text.extract import normalise_text
    assert "3 pm.m." not in normalise_text("Between 3 p.m. and 9 p.m.")
    assert "11 pm-6 am" in normalise_text("quiet 11p-6a")


def test_the_twenty_ninth_blind_file_reads_but_the_rules_listed() -> None:
    """drivers_blind_cc.json (71 rules, each of its 20 drivers writing another way: voice
    with corrections, platform notices with financial numerals, a sheet's rows, fast English,
    Traditional Chinese mixed with English, Q and A, degrees-minutes-seconds...: 58 with their
    parameters blind on round 28's code, 68 after round 29). Left: an errand's home-by time
    (the reader's convention), "惠州市" for 惠州 (the same city) and a sheet row of a region's
    order days ("顺德出单天数 | 顺德 | 8 | 600")."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_cc.json")] == [
        ("CC02", "home_stay_event"), ("CC03", "forbidden_cargo_place"),
        ("CC04", "min_region_order_days")]


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    # degrees, minutes and seconds: NFKC writes ″ as two primes
    ("HOME: 22°16′12″N, 113°34′48″E, radius 1.2 km. Must be inside by 21:00 every night; no "
     "departure before 05:30 next morning. Fine: RMB 220 per night.", "home_by_curfew",
     {"lat": 22.27, "lng": 113.58, "curfew": "21:00", "quiet_until": "05:30"}, 220.0, None),
    ("【平台通知】司机每日首个订单须于08:30之前开始执行，超过该时间的，每日扣罚捌拾元。",
     "first_order_deadline", {"latest": "08:30"}, 80.0, None),
    ("【平台通知】根据司机本人申请，本月不向其派发装货地或卸货地位于惠州市的订单；司机自行承接此类订单的，"
     "每单扣罚叁佰元。", "forbidden_cargo_place", {}, 300.0, None),
    # 陆 alone before a count; 无订单当日可空车行驶: empty moves allowed
    ("第三条　本月乙方无订单的天数不得少于陆天（无订单当日可空车行驶），"
     "不足的，一次性罚款人民币伍佰元。",
     "min_days_without_orders", {"min_days": 6}, 500.0, None),
    ("午飯時間 13:00 至 14:00 請勿安排任何 job。此時段內每個 timeslot 有開工都會獨立計算一次，"
     "每次罰款人民幣 50 元。", "quiet_window",
     {"start": "13:00", "end": "14:00", "count": "per_step"}, 50.0, None),
    ("每天头一单最晚八点一刻要开始，晚了当天罚个五十。", "first_order_deadline",
     {"latest": "08:15"}, 50.0, None),
    # a correction "啊不是"; a part of the day, fillers, then the corrected clock
    ("我每天要连续睡够，嗯，七个钟头，啊不是，七个半钟头，连续的哈。哪天没睡够就罚一百八。",
     "daily_continuous_rest", {"min_minutes": 450}, 180.0, None),
    # a sheet's header and row on one line; a unit in the header's brackets
    ("规则类型 | 时段 | 罚款(元) | 计罚方式 | 封顶 / 午休不派单 | 12:00-13:30 | 40 | "
     "每个调度时段单独计一次 | 全月600", "quiet_window",
     {"start": "12:00", "end": "13:30", "count": "per_step"}, 40.0, 600.0),
    ("规则类型 | 限制值 | 罚款(元) | 计罚方式 | 备注 / 单趟运距上限 | 280 km | 220 | 每单 | "
     "装货点到卸货点的距离", "max_haul_km", {"max_km": 280.0}, 220.0, None),
    ("问：一天最多接几单？ / 答：四单。从第五单起每单罚80。", "max_orders_per_day",
     {"max_orders": 4}, 80.0, None),
    ("this month atleast 3 days totaly off - no order and truck dont move at all. if less "
     "then 3 days, one time fine 1000", "min_full_off_days", {"min_days": 3}, 1000.0, None),
    ("3/20(五) 16:00~21:00 → 幼儿园 23.5612,116.3890 接娃(待≥15min) → 回家 23.5497,116.3727 "
     "(r=0.8km) → 家里待到 3/21 06:30 | ✗罚200，另每差1min +1元", "home_stay_event",
     {"w0": "2026-03-20 16:00:00", "rate_per_minute": 1.0}, 200.0, None),
])
def test_each_driver_writing_another_way(text: str, kind: str, params: dict, amount: float,
                                         cap: float | None) -> None:
    """drivers_blind_cc.json's classes (docs/preferences.md round 29)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


@pytest.mark.parametrize(("text", "kind"), [
    # "包括空车行驶": empty driving counted, not allowed (a full rest day)
    ("本协议有效期间，乙方于2026年3月内应当享有不少于3个完整休息日，是指乙方当日既不承接任何订单、"
     "车辆亦不发生任何行驶（包括空车行驶）的自然日。不足3日的，一次性支付违约金人民币1000元。",
     "min_full_off_days"),
    ("每月至少3个整天完全停驶（不接单、不空驶），不满足一次性罚1000元。", "min_full_off_days"),
    ("本月至少 6 天不接任何单（可以空车挪位置，只是不接单）。不足 6 天，一次性罚 1100 元。",
     "min_days_without_orders"),
])
def test_empty_driving_allowed_only_where_said(text: str, kind: str) -> None:
    r = read_preference(text).best
    assert r is not None
    assert r.kind == kind


def test_a_days_itinerary_is_no_daily_rest() -> None:
    """Failure class "a day's itinerary read as a daily rest": CC20's stops, their
    coordinates unread (degrees, minutes and seconds, before round 29), were read as a rest
    window from the first arrival time to the second, kept every morning of the month (10% of
    the driver's gross below the greedy's on east, 5% on the calibrated month, S2). Unread,
    such a rule costs at most its one fine."""
    r = read_preference("ITINERARY 26 MAR (THU), arrival radius 1.5 km: STOP 1 at the old "
                        "depot, arrive by 08:00, dwell 40 min; STOP 2 at the market, arrive "
                        "by 11:30, dwell 60 min. Any stop missed = RMB 650.").best
    assert r is None or r.kind != "rest_window_full_coverage"


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # "is not to enter": an instruction said in the passive of a clerk
    ("Driver is not to go into the 2 km circle around the depot (23.10, 113.30). RMB 90 for "
     "every time step inside.", "forbidden_circle",
     {"lat": 23.1, "lng": 113.3, "radius_km": 2.0, "mode": "per_step"}, 90.0),
    # 不想出车 is no work; 每动一次 and 不是一天只算一次: counted by the time step
    ("晚上12点到早上5点我不想出车，这段时间车每动一次罚60，不是一天只算一次。", "quiet_window",
     {"start": "00:00", "end": "05:00", "count": "per_step"}, 60.0),
    # 空车不限 allows empty moves (K13); 罚: 350 is the fine; 月结 names the month
    ("项: 休息日 / 值: ≥4天 (不接单即可, 空车不限) / 罚: 350 (月结一次)",
     "min_days_without_orders", {"min_days": 4}, 350.0),
    ("本月须有不少于5天不接任何订单（当日可空车调度），不足5天罚款600元。",
     "min_days_without_orders", {"min_days": 5}, 600.0),
    # "on 12 or 13 March": either day
    ("Stay out of Dongguan (东莞) on 12 or 13 March. RMB 150 for each time step there.",
     "date_region_avoid", {"dates": ["2026-03-12", "2026-03-13"], "place": "东莞"}, 150.0),
    # "RMB 60 for every order short": a fine, not the quota
    ("KPI: no fewer than 9 fruit orders in March. RMB 60 for every order short.",
     "monthly_category_quota", {"category": "水果", "min_orders": 9}, 60.0),
    # ①② are a list's items: one stop each
    ("①23.10,113.30 3/18 最迟09:00到 停≥20min ②23.20,113.40 最迟12:00到 停≥30min 罚: 800",
     "route_stops_on_day",
     {"date": "2026-03-18", "stops": [
         {"lat": 23.1, "lng": 113.3, "arrive_by": "09:00", "min_dwell_minutes": 20},
         {"lat": 23.2, "lng": 113.4, "arrive_by": "12:00", "min_dwell_minutes": 30}]}, 800.0),
    # 进多少次都只罚这一回: once
    ("机场那一片（中心23.39, 113.30）方圆三公里别进，进多少次都只罚这一回，罚400。",
     "forbidden_circle", {"radius_km": 3.0, "mode": "once"}, 400.0),
    # 每分钟另外扣: the errand's rate after 另外
    ("3月10号下午4点到6点之间去学校接孩子（22.52，113.38），至少等20分钟，接到就回家（22.51，"
     "113.39），在家待到第二天早上7点。没接成罚300，在家少待的每分钟另外扣2块。",
     "home_stay_event", {"rate_per_minute": 2.0, "min_pickup_dwell_minutes": 20}, 300.0),
])
def test_a_company_sheet_read_whole(text: str, kind: str, params: dict, amount: float) -> None:
    """drivers_blind_cd.json's classes (docs/preferences.md round 30), each in a wording of
    our own beside the file's."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


def test_the_thirtieth_blind_file_reads_whole_after_its_round() -> None:
    """drivers_blind_cd.json was held out for a session (62 of 71 read on the code of round
    29, its misreads listed here then); round 30 reads all 71 with their fines. The held-out
    file is now drivers_blind_ce.json (test_the_thirty_first_blind_file_is_held_out)."""
    assert misread_rules("drivers_blind_cd.json") == []
    assert misread_fines("drivers_blind_cd.json") == []


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # a box's ranges with the letter before each number
    ("师傅只在佛山一带跑，范围 N22.80–N23.30、E112.90–E113.30 这个框内，出框每次罚80。",
     "stay_inside_bbox", {"lat_min": 22.8, "lat_max": 23.3, "lng_min": 112.9, "lng_max": 113.3},
     80.0),
    # month.day listed (3.14、3.15) or before a part of the day (3.21早上)
    ("3.14、3.15 两天不进东莞，在东莞范围每跑一段罚300。", "date_region_avoid",
     {"dates": ["2026-03-14", "2026-03-15"], "place": "东莞"}, 300.0),
    # "needs a full rest block": rest required (K2), not a quiet window
    ("Driver needs a full rest block 22:30-06:00 every night. Each night the window is "
     "broken: RMB180.", "rest_window_full_coverage", {"start": "22:30", "end": "06:00"}, 180.0),
    # a note opening with its date; the window's clocks again in brackets; 晚6点 ends the span
    ("3.20 师傅要在下午2点到晚6点（1400-1800）之间去医院（23.12,113.26）接老婆，至少停15分钟，"
     "再回家（23.10,113.30）一直待到3.21早上7点。没做到罚300；不在家的每分钟罚1元。",
     "home_stay_event", {"w0": "2026-03-20 14:00:00", "w1": "2026-03-20 18:00:00",
                         "w_end": "2026-03-21 07:00:00", "rate_per_minute": 1.0}, 300.0),
    # 两点半径: the two points' radius, not half past two
    ("3/18 先到A仓（23.10,113.30）09:00前到，停20min；再到B仓（23.20,113.40）12:00前到，"
     "停30min。两点半径都按1km。没做到罚600。", "route_stops_on_day", {"radius_km": 1.0}, 600.0),
    # "only 2 allowed this month": the cap's count
    ("Orders taking over 10 hrs: only 2 allowed this month. Each extra one: RMB300.",
     "monthly_long_haul_cap", {"threshold_minutes": 600, "max_per_month": 2}, 300.0),
])
def test_customer_service_notes(text: str, kind: str, params: dict, amount: float) -> None:
    """drivers_blind_ce.json's classes (docs/preferences.md round 31)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize(("text", "days"), [
    ("半径3.5公里，每公里罚1.2。", []), ("1.5、2.5公里以内", []), ("每单罚3.5 元", []),
    ("超过3.5 小时", []), ("3.7、3.8 两天", ["2026-03-07", "2026-03-08"]),
    ("3.27 老人复诊", ["2026-03-27"]), ("一直待到3.28早上8点", ["2026-03-28"]),
])
def test_a_month_day_with_a_dot_is_a_date_only_where_a_word_makes_it_one(
        text: str, days: list[str]) -> None:
    from sim.preferences.text.extract import dates
    assert [d.iso for d in dates(text)] == days


def test_the_thirty_first_blind_file_reads_whole_after_its_round() -> None:
    """drivers_blind_ce.json was held out (66 of 72 read on the code of round 30, measured
    over 31 days before any change: docs/evaluation.md); round 31 reads all 72 with their
    fines. The held-out file is now drivers_blind_cf.json."""
    assert misread_rules("drivers_blind_ce.json") == []
    assert misread_fines("drivers_blind_ce.json") == []


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # a set of cargo in the condition: those cargo refused
    ("若 货物类别 ∈ {水果, 蔬菜} ; 则 每接一单罚款 200 元 ; 无上限", "forbidden_cargo_category",
     {"categories": ["水果", "蔬菜"]}, 200.0),
    ("IF cargo = 建材 THEN 150 元 per order", "forbidden_cargo_category",
     {"categories": ["建材"]}, 150.0),
    # a count over its bound (the condition's first counted noun); a quota under it
    ("IF orders taken in one day > 3 ; THEN 100 元 for each order beyond 3",
     "max_orders_per_day", {"max_orders": 3}, 100.0),
    ("如果 本月没有接单的天数 < 5 天 就 一次性罚 400 元", "min_days_without_orders",
     {"min_days": 5}, 400.0),
    ("IF full days off (no orders and no driving at all) in March < 3 THEN 500 元 one-time",
     "min_full_off_days", {"min_days": 3}, 500.0),
    # a duration over its bound names the long hauls; the count after it is the cap
    ("IF number of orders with drive time > 600 min (10 h) in the month > 2 THEN 300 元 per "
     "extra order", "monthly_long_haul_cap", {"threshold_minutes": 600, "max_per_month": 2},
     300.0),
    ("IF loaded distance of an order > 250 km | THEN penalty 200 元 per order", "max_haul_km",
     {"max_km": 250.0}, 200.0),
    # a clock over a clock: later than it
    ("若 当天第一单开始时间 > 09:00 则 罚 70 元/天", "first_order_deadline", {"latest": "09:00"},
     70.0),
    # driving in a window is what is fined: no driving in it
    ("当 12:30-13:30 午休时段内有行车 时, 罚 60 元, 每天最多计 1 次", "quiet_window",
     {"start": "12:30", "end": "13:30", "count": "per_day"}, 60.0),
    ("IF 02:00-05:00 moving THEN 30 元 per step", "quiet_window",
     {"start": "02:00", "end": "05:00", "count": "per_step"}, 30.0),
    # a place or a point the condition names: kept out of
    ("IF truck position within 2 km of (23.1, 113.3) | THEN penalty 90 元 per time step inside",
     "forbidden_circle", {"lat": 23.1, "lng": 113.3, "radius_km": 2.0}, 90.0),
    ("IF pickup or delivery address contains 云浮 ; THEN penalty 350 元 per order",
     "forbidden_cargo_place", {"place": "云浮"}, 350.0),
    # a box outside which the truck is fined, written as intervals
    ("当 车辆位置 ∉ {lat∈[22.5, 23.5] AND lng∈[113.0, 114.0]} 时, 每个时段罚 100 元",
     "stay_inside_bbox", {"lat_min": 22.5, "lat_max": 23.5, "lng_min": 113.0, "lng_max": 114.0},
     100.0),
    # a four-digit clock after "at"
    ("IF not within 1 km of home (23.7, 114.7) at 2100, or leaves before 0500 next morning ; "
     "THEN 100 元 per day", "home_by_curfew", {"curfew": "21:00", "quiet_until": "05:00"}, 100.0),
])
def test_a_rule_written_as_the_condition_that_breaks_it(text: str, kind: str, params: dict,
                                                          amount: float) -> None:
    """drivers_blind_cf.json's classes (docs/preferences.md round 32: a dispatch system's rule
    editor, sim/preferences/text/conditions.py)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    "如果晚上11点前不回家就罚200。",  # natural Chinese: no sign, no space after the opener
    "If I am not home by 22:00, fine me 200 a night.",  # "If" and "then" not in capitals
    "每天接单不超过3单，超过的每单罚100元。",  # no opening word
])
def test_a_plain_conditional_is_left_as_written(text: str) -> None:
    from sim.preferences.text.conditions import plain_conditions
    assert plain_conditions(text) == text


def test_a_condition_of_something_missed_is_not_marked_forbidden() -> None:
    from sim.preferences.text.conditions import plain_conditions
    out = plain_conditions("IF rest does not fully cover 23:30-05:30 | THEN penalty 200 元 per day")
    assert "not allowed" not in out
    assert "禁止" not in plain_conditions("若 3月5日 未接订单 C1 则 罚款 1200 元")


def test_the_thirty_second_blind_file_reads_after_its_round() -> None:
    """drivers_blind_cf.json (74 rules from a dispatch system's rule editor: IF/THEN, 若/则,
    signs of comparison, sets and intervals) read 49 of 74 with their parameters on the code
    of round 31, measured over 31 days before any change (docs/evaluation.md); round 32
    reads all 74. Two errands state no flat fine, only a per-minute rate under a cap: the
    writer set the fine to the cap, the reader reads none (docs/preferences.md)."""
    assert misread_rules("drivers_blind_cf.json") == []
    assert misread_fines("drivers_blind_cf.json") == [("CF06", None, 800.0), ("CF14", None, 600.0)]


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # words typed apart, joined; the verb after its number (200公里 超过 的话)
    ("一 单 200公里 超过 的话 不 拉. 拉 了 一单 罚 120.", "max_haul_km", {"max_km": 200.0},
     120.0),
    ("我 家 在 佛山 晚上 11点 以前 回家 要. 车 7点 以前 不 出. 一 天 没 做到 罚 100.",
     "home_by_curfew", {"curfew": "23:00", "quiet_until": "07:00"}, 100.0),
    # a measure word before the unit (2个公里), 里面 after a distance (within)
    ("中心 23.05, 113.75, 2个公里里面 我 不 进去. 进去 一次 罚 80, 每次 都 罚.",
     "forbidden_circle", {"lat": 23.05, "lng": 113.75, "radius_km": 2.0, "mode": "per_step"},
     80.0),
    # "rest" for 休息 in a Chinese sentence; fined for not resting: rest asked for
    ("晚上 11点 到 早上 6点 我 rest, 不 开车, 不 接单. 哪天 没有 rest 好, 罚 150.",
     "rest_window_full_coverage", {"start": "23:00", "end": "06:00"}, 150.0),
    ("星期一 到 星期五, 每天 连续 rest 8个小时 要. 星期六 星期天 不 算. 不够 的 那天 罚 100.",
     "daily_continuous_rest", {"min_minutes": 480, "days": "weekdays"}, 100.0),
    # orders counted in 个; 车也不开 (full days off)
    ("3月 蔬菜 的 单 要 拉 10个 以上. 少 一个 单 罚 60.", "monthly_category_quota",
     {"category": "蔬菜", "min_orders": 10}, 60.0),
    ("3月 要 4天 的 全休息: 不 拉货, 车 也 不 开. 不够 4天 罚 800, 罚 一次.",
     "min_full_off_days", {"min_days": 4}, 800.0),
    # driving or an order in the window is what is fined
    ("中午12点到下午1点半我吃饭。这个时间开车或者做单,每一次罚40(不是一天一次,是每次都罚)。",
     "quiet_window", {"start": "12:00", "end": "13:30", "count": "per_step"}, 40.0),
    ("12:00 to 13:00 is my prayer time, no driving. If I work in that time, fine 60 for that "
     "day. Only one fine per day.", "quiet_window",
     {"start": "12:00", "end": "13:00", "count": "per_day"}, 60.0),
    # 差一分钟再加3块: the errand's rate after 再加
    ("3月13号下午5点到晚上8点之间我去车站接她（22.80, 113.66），等20分钟以上，然后回家（22.82, "
     "113.67），在家待到14号早上6:30。没做到罚250，还有差一分钟再加3块。", "home_stay_event",
     {"rate_per_minute": 3.0, "min_pickup_dwell_minutes": 20}, 250.0),
])
def test_a_second_language_read(text: str, kind: str, params: dict, amount: float) -> None:
    """drivers_blind_cg.json's classes (docs/preferences.md round 33)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize("text", [
    # speech recognition's pauses between phrases: not words typed apart
    "晚上六点半到七点半 要回去陪小孩吃饭 这一个钟头里面 嗯 只要那天有干活 就罚五十 一天最多罚一次",
])
def test_phrases_spaced_apart_are_not_joined(text: str) -> None:
    got = read_preference(text).best
    assert got is not None
    assert got.penalty_amount == 50.0  # not 五十一 (51), as joining 五十 一天 would read


def test_the_thirty_third_blind_file_reads_after_its_round() -> None:
    """drivers_blind_cg.json was held out (54 of 72 read on the code of round 32, measured
    over 31 days before any change: docs/evaluation.md); round 33 reads 71 of 72. Left:
    CG12's curfew, its verb at the end ("晚上 8点半 以前 家 到 要")."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_cg.json")] == [
        ("CG12", "home_by_curfew")]
    assert misread_fines("drivers_blind_cg.json") == [("CG12", None, None)]


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    # a reward beside the fine: the reward's amount is no fine
    ("每晚11点前回到家（23.10, 113.30，1公里内），第二天早上6点前不出车。全月做到的发全勤奖200元；"
     "哪天没做到，那天扣150。", "home_by_curfew", {"curfew": "23:00", "quiet_until": "06:00"},
     150.0, None),
    ("Lunch 12:30-13:30 every day. Keep it clean and get a 200 bonus; every time step you drive "
     "inside that hour costs 40 yuan.", "quiet_window",
     {"start": "12:30", "end": "13:30", "count": "per_step"}, 40.0, None),
    # a bonus's threshold is no parameter of the rule (12 days for the bonus, 8 the floor)
    ("A 500 bonus if you reach 12 days or more, but the floor is 8: on at least 8 different "
     "days this month carry an order that loads or unloads in Foshan (佛山). Fewer than 8 days "
     "= a 900 yuan fine.", "min_region_order_days", {"place": "佛山", "min_days": 8}, 900.0,
     None),
    ("本月不接单的天数不得少于4天（当天没有任何运单即算，空驶调车不影响）。达到者发放补贴100元；"
     "未达到者一次性罚款600元。", "min_days_without_orders", {"min_days": 4}, 600.0, None),
    # fines said "off your pay", "Fine if you don't: 700"; a cap "罚满1000就不再罚了"
    ("No more than 3 orders a day. Every order past the third one is 150 off your pay.",
     "max_orders_per_day", {"max_orders": 3}, 150.0, None),
    ("March 18 (Wednesday): cargo C123 is ours - take it. Fine if you don't: 700. Take it and "
     "there's a 100 tip.", "must_take_cargo", {"cargo_id": "C123"}, 700.0, None),
    ("每天晚上十点前回家，家在23.10, 113.30，1公里以内算到家，待到第二天早上六点。晚回一天罚100，"
     "一个月罚满1000就不再罚了。", "home_by_curfew", {"curfew": "22:00"}, 100.0, 1000.0),
    # a period named for not driving (停驶时段): no work, not rest
    ("每日23:00至次日05:00为停驶时段，该时段内不得行车。全月无违规者奖励200元；当日违规的计罚120元"
     "一次（同一天内不重复计罚）。", "quiet_window",
     {"start": "23:00", "end": "05:00", "count": "per_day"}, 120.0, None),
    # "until 07:00 on Saturday the 21st": a day of the month after a weekday
    ("Friday 20 March: between 16:00 and 20:00 pick up my daughter at school, 22.94, 113.37, "
     "and wait at least 10 minutes within 1 km. Then go home (22.93, 113.38, 1 km) and stay "
     "there until 07:00 on Saturday the 21st. Miss it and it's a 300 fine; plus 2 yuan for "
     "each minute you are not at home.", "home_stay_event",
     {"w_end": "2026-03-21 07:00:00", "rate_per_minute": 2.0}, 300.0, None),
])
def test_a_reward_beside_the_fine(text: str, kind: str, params: dict, amount: float,
                                  cap: float | None) -> None:
    """drivers_blind_ch.json's classes (docs/preferences.md round 34,
    sim/preferences/text/rewards.py)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


def test_the_thirty_fourth_blind_file_reads_after_its_round() -> None:
    """drivers_blind_ch.json was held out (67 of 74 read on the code of round 33, measured
    over 31 days before any change: docs/evaluation.md); round 34 reads 73 of 74. Left:
    CH13's 茂名市 for 茂名, the same city."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_ch.json")] == [
        ("CH13", "date_region_avoid")]
    assert misread_fines("drivers_blind_ch.json") == []


@pytest.mark.parametrize("text", [
    "每天接单不超过3单，超过的每单罚100元。",  # no reward word
    "奖罚分明：晚上11点后还在跑的，每次罚50。",  # a reward word with no amount of its own
])
def test_a_text_without_a_rewards_amount_is_left_as_written(text: str) -> None:
    from sim.preferences.text.rewards import without_rewards
    assert without_rewards(text) == text


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    # a sheet's header and row as CSV: commas (a quoted cell holding one; a note whose ，and ；
    # NFKC turns into separators), tabs, semicolons; units in the header's brackets
    ("规则,最晚到家,次日出车不早于,\"家(纬度, 经度)\",罚款(元/天),封顶,备注\n晚上回家,21:30,06:30,"
     "\"23.10, 113.30\",150,,每晚21:30前回家1公里内，待到次日06:30；没做到罚那天150",
     "home_by_curfew", {"lat": 23.1, "lng": 113.3, "curfew": "21:30", "quiet_until": "06:30"},
     150.0, None),
    ("rule\tmax_orders\tfine_cny\tcap\tnote\ndaily orders\t4 per day\t120\t\tno more than 4 "
     "orders in one day; 120 for each order above 4", "max_orders_per_day", {"max_orders": 4},
     120.0, None),
    ("规则;南界;北界;西界;东界;罚款(元/步);封顶;备注\n只跑粤西;北纬21.00;北纬22.50;东经110.00;东经112.00;"
     "100;1500;车不能开出这个框；每一步出框罚100", "stay_inside_bbox",
     {"lat_min": 21.0, "lat_max": 22.5, "lng_min": 110.0, "lng_max": 112.0}, 100.0, 1500.0),
    # a point's latitude and longitude in cells of their own ("home lat …, home lng …")
    ("rule;home_lat;home_lng;radius;be_home_by;stay_until;fine_cny;cap;note\ncurfew;23.0500;"
     "113.2000;1 km;21:00;06:00;200;2000;\"home by 21:00 each evening, stay until 06:00; 200 "
     "per day broken\"", "home_by_curfew",
     {"lat": 23.05, "lng": 113.2, "curfew": "21:00", "quiet_until": "06:00"}, 200.0, 2000.0),
    # a range under a header naming its bounds in brackets ("纬度(最小-最大)")
    ("规则\t纬度(最小-最大)\t经度(最小-最大)\t罚款(元/步)\t封顶\t备注\n不出框\t22.50-23.20\t"
     "113.00-113.80\t90\t\t车始终在框里；每一步出框罚90", "stay_inside_bbox",
     {"lat_min": 22.5, "lat_max": 23.2, "lng_min": 113.0, "lng_max": 113.8}, 90.0, None),
])
def test_a_sheet_row_exported_as_csv(text: str, kind: str, params: dict, amount: float,
                                     cap: float | None) -> None:
    """drivers_blind_ci.json's classes (docs/preferences.md round 35, markdown._csv_rows)."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


def test_two_lines_of_a_rule_are_no_csv_table() -> None:
    """Two lines of prose with commas (an OCR'd clause split at a line end) are no header and
    row: the first try read them as one and left the rule unread (caught on the snapshot)."""
    from sim.preferences.text.markdown import plain
    text = ("第五条 3月9日乙方须到汕头客户仓库(23.3720, 116.7080,半径1公 里)\n"
            "停留至少90分钟,到达时间不限,未做到罚500元。")
    assert plain(text) == text


def test_the_thirty_fifth_blind_file_reads_after_its_round() -> None:
    """drivers_blind_ci.json was held out (61 of 71 read on the code of round 34, measured
    over 31 days before any change: docs/evaluation.md); round 35 reads 66 of 71. Left: two
    routes whose stops are each spread over three columns ("Stop 1 (lat, lng)", "Stop 1
    Arrive By", "Stop 1 Stay"), two errands' home-by times (the reader's convention) and an
    English night rest read as a quiet window."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_ci.json")] == [
        ("CI02", "rest_window_full_coverage"), ("CI07", "home_stay_event"),
        ("CI08", "route_stops_on_day"), ("CI17", "home_stay_event"),
        ("CI18", "route_stops_on_day")]


@pytest.mark.parametrize(("text", "kind", "params", "amount", "cap"), [
    # YAML with keys in Chinese: a point as [lat, lng], a unit in the value, a fine per day
    ("收车:\n  家: [23.05, 113.20]\n  半径: 1.5km\n  最晚到家: \"21:30\"\n  早上不早于: \"06:00\"\n"
     "  罚款: 150/天", "home_by_curfew",
     {"lat": 23.05, "lng": 113.2, "radius_km": 1.5, "curfew": "21:30", "quiet_until": "06:00"},
     150.0, None),
    # INI: a bare bound under a section naming what it bounds; a comment kept as a clause
    ("[max_daily_jobs]\nmax = 5          ; orders per day\nfine_each_extra = 90",
     "max_orders_per_day", {"max_orders": 5}, 90.0, None),
    # JSON keys in snake_case: the bound and the unit in the key (…_max_km)
    ('{"deadhead_to_pickup_max_km": 25, "fine_per_order": 120}', "max_pickup_deadhead_km",
     {"max_km": 25.0}, 120.0, None),
    ('{"bbox": {"lat_min": 22.3, "lat_max": 23.1, "lng_min": 113.0, "lng_max": 114.2}, '
     '"fine_per_step_outside": 90}', "stay_inside_bbox",
     {"lat_min": 22.3, "lat_max": 23.1, "lng_min": 113.0, "lng_max": 114.2}, 90.0, None),
    ('{"cargo_quota": {"category": "水果", "month": "2026-03", "min_orders": 12}, '
     '"fine_per_order_short": 80}', "monthly_category_quota",
     {"category": "水果", "month": "2026-03", "min_orders": 12}, 80.0, None),
    # TOML: an inline table for the centre; a range written a..b; a cap beside the fine
    ("[keep_out]\ncenter = {lat = 22.80, lng = 113.95}\nradius_km = 2.5\nfine_per_step = 70",
     "forbidden_circle", {"lat": 22.8, "lng": 113.95, "radius_km": 2.5, "mode": "per_step"},
     70.0, None),
    ("[zone]\nlat = 22.10..22.95\nlng = 113.05..113.90\nfine = 60 per step outside\ncap = 1800",
     "stay_inside_bbox", {"lat_min": 22.1, "lat_max": 22.95, "lng_min": 113.05, "lng_max": 113.9},
     60.0, 1800.0),
    # keys in pinyin (kongshi empty, zong total, fakuan fine)
    ("kongshi_zong_max_km: 1500\nfakuan_per_km: 2", "max_total_deadhead_km", {"max_km": 1500.0},
     2.0, None),
    # a trailing _min after what is timed is minutes (stay_min); a leading min_ a minimum
    ("visit_0318:\n  date: 2026-03-18\n  at: [22.71, 114.05]\n  radius_km: 1\n  arrive_by: "
     "\"11:00\"\n  stay_min: 75\n  fine: 450   # once", "dwell_at_point_on_day",
     {"date": "2026-03-18", "lat": 22.71, "lng": 114.05, "radius_km": 1.0,
      "min_dwell_minutes": 75, "arrive_by": "11:00"}, 450.0, None),
    ("daily_rest:\n  min_hours: 8\n  days: all\n  fine: 100/day", "daily_continuous_rest",
     {"min_minutes": 480, "days": "all"}, 100.0, None),
    ("[days_off]\nmin_full_days = 3   # truck parked all day, no orders\nfine_once = 700",
     "min_full_off_days", {"min_days": 3}, 700.0, None),
    ("long_trip:\n  over_hours: 9\n  max_per_month: 2\n  fine_each_extra: 400",
     "monthly_long_haul_cap", {"threshold_minutes": 540, "max_per_month": 2}, 400.0, None),
    # a window's two keys (from/to, 开始/结束) as one range; a meal break keyed with its window
    ("[晚饭]\n开始=18:00\n结束=19:00\n罚款=30   ; 每一步都罚", "quiet_window",
     {"start": "18:00", "end": "19:00", "count": "per_step"}, 30.0, None),
    ('{"meal_break": {"from": "12:30", "to": "13:15"}, "fine": 35, "counted": "once per day"}',
     "quiet_window", {"start": "12:30", "end": "13:15", "count": "per_day"}, 35.0, None),
    # the value of a place's key is the rule's place, before a name in a comment
    ("jiangmen_orders:\n  place: 江门\n  min_days: 7   # days with an order in Jiangmen\n"
     "  fine: 650", "min_region_order_days", {"place": "江门", "min_days": 7}, 650.0, None),
    # a comment on a nesting key's line kept ("keep out"); a window as one value, "per: day"
    ("no_go:   # the container port, keep out\n  center: {lat: 22.48, lng: 113.87}\n"
     "  radius_km: 2\n  fine: 50\n  count: every step inside", "forbidden_circle",
     {"lat": 22.48, "lng": 113.87, "radius_km": 2.0, "mode": "per_step"}, 50.0, None),
    ("quiet_hours:\n  window: \"02:00-05:00\"   # no driving, no orders\n  fine: 45\n  per: day",
     "quiet_window", {"start": "02:00", "end": "05:00", "count": "per_day"}, 45.0, None),
    # items numbered by their keys (stop1, stop2)
    ("[route 2026-03-22]\nradius=1km\nstop1=23.020,113.110 by 09:30 stay 30min\n"
     "stop2=22.540,114.060 by 15:00 stay 45min\nfine=800   ; once", "route_stops_on_day",
     {"date": "2026-03-22", "radius_km": 1.0,
      "stops": [{"lat": 23.02, "lng": 113.11, "arrive_by": "09:30", "min_dwell_minutes": 30},
                {"lat": 22.54, "lng": 114.06, "arrive_by": "15:00", "min_dwell_minutes": 45}]},
     800.0, None),
])
def test_a_rule_typed_into_a_config_file(text: str, kind: str, params: dict, amount: float,
                                         cap: float | None) -> None:
    """drivers_blind_cj.json's classes (docs/preferences.md round 36,
    sim/preferences/text/config.py): a key names what its value is, as a header cell does."""
    got = assert_best(text, kind, params)
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)


@pytest.mark.parametrize("text", [
    "备注: 晚上11点前回家，每晚没做到罚200。",  # one key-value line of prose
    "Note: no more than 3 orders a day; 100 for each extra.",
    "每天接单不超过3单，超过的每单罚100元。",
    "rule;max_orders;fine\ndaily;3;100",  # a CSV sheet (markdown._csv_rows)
])
def test_prose_with_a_colon_is_no_config(text: str) -> None:
    from sim.preferences.text.config import plain_config
    assert plain_config(text) == text


def test_the_thirty_sixth_blind_file_reads_whole_after_its_round() -> None:
    """drivers_blind_cj.json (73 rules a dispatcher typed into the fleet's config files:
    YAML-, JSON-, INI- and TOML-like snippets with keys of his own in English, pinyin or
    Chinese) was held out (34 of 73 read with their parameters, 27 with their fines too, on
    the code of round 35, measured over 31 days before any change: docs/evaluation.md); round
    36 reads all 73 with their fines. Its held-out misreads were CJ02-CJ20's 39 rules now
    read."""
    assert misread_rules("drivers_blind_cj.json") == []
    assert misread_fines("drivers_blind_cj.json") == []


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    ("[2026-02-26 07:30] 老钟(调度): 3月份你就在粤西跑，范围是纬度21.00到22.50、经度110.00到112.00"
     "这个框\n[07:33] 阿强: 出了框呢？\n[07:34] 老钟(调度): 在框外面每一步罚150",
     "stay_inside_bbox", {"lat_min": 21.0, "lat_max": 22.5, "lng_min": 110.0, "lng_max": 112.0},
     150.0),
    ("[2026-02-27 20:15] Ah Keung: boss, I want 8 hours of unbroken sleep every day\n"
     "[20:17] Dispatcher Lam: ok, at least 8 hours of continuous rest each day, fine 100 for "
     "any day short", "daily_continuous_rest", {"min_minutes": 480}, 100.0),
])
def test_a_chat_messages_send_time_is_no_rule_clock(text: str, kind: str, params: dict,
                                                   amount: float) -> None:
    """Failure class "a message's send time read as the rule's clock" (drivers_blind_ck.json,
    held out: CK13's box read as a rest window 07:30-07:33 from two messages' stamps, the box
    unpriced; 15-17% of its gross below the greedy on the east month)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


def test_the_thirty_seventh_blind_file_after_the_send_times() -> None:
    """drivers_blind_ck.json (70 rules, each an excerpt of a fleet's WeChat group chat: two to
    four messages, each stamped with its send time and sender, the driver asking and the
    dispatcher answering, some numbers corrected by a later message), written after round 35
    and read by that code with no change: 40 of 70 with their parameters (measured over 31
    days: docs/evaluation.md). With the messages' stamps dropped (the one change made for
    it, to a class that put CK13 below the floor) it reads 63 of 70, 64 since round 37 read
    stops numbered 第一站 (CK15's route); these are the misreads left, for its round."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_ck.json")] == [
        ("CK03", "daily_continuous_rest"), ("CK08", "route_stops_on_day"),
        ("CK09", "first_order_deadline"), ("CK15", "home_by_curfew"),
        ("CK18", "monthly_long_haul_cap"), ("CK18", "date_region_avoid")]


@pytest.mark.parametrize(("text", "kind", "params"), [
    ("日程：别靠近 东莞东站\n地点：GEO 22.9650;114.0480，半径 2 公里\n重复：每天\n"
     "备注：每一步（接单、调车、等待）起点或终点在圈里罚 120", "forbidden_circle",
     {"lat": 22.965, "lng": 114.048, "radius_km": 2.0, "mode": "per_step"}),
    ("Reminder: drop in at the depot\nLocation: Jiangmen depot, GEO:22.5800;113.0800 (within "
     "1 km)\nOn at least 5 different days in March the truck has to stop at the depot. Short "
     "of that: 900", "min_visit_days", {"lat": 22.58, "lng": 113.08, "min_days": 5}),
    ("收车提醒 每天 22:30\n地点：家 GEO 22.7800;115.3700\n22:30 前车停到家 1 公里以内，到第二天 "
     "06:00 前不出车，违反一天罚 180", "home_by_curfew",
     {"lat": 22.78, "lng": 115.37, "curfew": "22:30", "quiet_until": "06:00"}),
])
def test_a_geo_property_is_a_point(text: str, kind: str, params: dict) -> None:
    """iCalendar writes a point as GEO:lat;lng and a calendar's notes copy the form. Its ";"
    with no space was no separator of a pair, so the rule took a county named beside it, or
    another pair, for its point, and the readers that split clauses at ";" cut a stop from
    its deadline (class found on CL: nine rules; sim/preferences/text/icalendar.py)."""
    assert read_preference(text).status is ReadingStatus.PARSED
    assert_best(text, kind, params)


@pytest.mark.parametrize("text", [
    "事项;开始;接人点;家\n接孩子;2026-03-21 15:00;22.9951, 113.3305;22.9376, 113.3840",
    "lat;lng;radius\n22.5400;113.9500;2",
    "Location: (22.54, 113.95); radius 2 km",
])
def test_a_semicolon_between_cells_is_no_geo_pair(text: str) -> None:
    """Only GEO's own pair is joined: a sheet's cells split at ";" keep their cells."""
    from sim.preferences.text.icalendar import plain_calendar
    assert plain_calendar(text) == text


@pytest.mark.parametrize(("text", "kind", "params", "amount"), [
    # a repeat's end date (UNTIL=) is the rule's validity, no fine of 20,260,331
    ("BEGIN:VEVENT\nSUMMARY:Night rest\nDTSTART:20260301T220000\nDTEND:20260302T050000\n"
     "RRULE:FREQ=DAILY;UNTIL=20260331T235959\nDESCRIPTION:Full rest every night from 22:00 to "
     "05:00\\, truck parked. 300 per night not fully rested.\nEND:VEVENT",
     "rest_window_full_coverage", {"start": "22:00", "end": "05:00"}, 300.0),
    # the app's bookkeeping (UID, DTSTAMP, an alarm) dropped; GEO the point
    ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:abc-123@phone\nDTSTAMP:20260220T101500Z\n"
     "SUMMARY:Tyre change at Shantou garage\nDTSTART;VALUE=DATE:20260319\nGEO:23.3500;116.6800\n"
     "DESCRIPTION:Thu 19 Mar 2026 - be within 2 km of the garage by 09:30 and stay at least 2 "
     "hours\\, 700 fine if not.\nBEGIN:VALARM\nTRIGGER:-PT30M\nACTION:DISPLAY\nEND:VALARM\n"
     "END:VEVENT\nEND:VCALENDAR", "dwell_at_point_on_day",
     {"date": "2026-03-19", "lat": 23.35, "lng": 116.68, "min_dwell_minutes": 120,
      "arrive_by": "09:30"}, 700.0),
    # the event's day from DTSTART where its notes name none
    ("BEGIN:VEVENT\nSUMMARY:送货两站\nDTSTART;VALUE=DATE:20260312\nDESCRIPTION:先到 GEO "
     "23.0500;113.7500，10:00 前到，停 30 分钟；再到 GEO 22.9700;113.3600，15:00 前到，停 20 分钟。"
     "2 公里内算到，没做到罚 900\nEND:VEVENT", "route_stops_on_day",
     {"date": "2026-03-12", "stops": [
         {"lat": 23.05, "lng": 113.75, "arrive_by": "10:00", "min_dwell_minutes": 30},
         {"lat": 22.97, "lng": 113.36, "arrive_by": "15:00", "min_dwell_minutes": 20}]}, 900.0),
])
def test_an_icalendar_block_reads_as_prose(text: str, kind: str, params: dict,
                                           amount: float) -> None:
    """A VEVENT/VTODO block written as the lines a person would type (class found on CL:
    CL02's RRULE end date read as its fine, CL08's and CL18's blocks unread or read as a
    dated keep-out; sim/preferences/text/icalendar.py)."""
    got = assert_best(text, kind, params)
    assert got.penalty_amount == amount


@pytest.mark.parametrize(("text", "rate"), [
    ("Every minute away from home between 16:00 and 20:00 costs 2; 400 more if late.", 2.0),
    ("Each minute not at home between 15:30 and 19:30 is fined 1.5, plus 300.", 1.5),
    ("per minute I'm out of the house after 18:00 I'm charged 0.5", 0.5),
])
def test_a_per_minute_price_without_a_currency(text: str, rate: float) -> None:
    """"Every minute away … costs 1.5": a price's verb says the number is money where no
    currency does (class found on CL14's family event, read as a dated keep-out)."""
    from sim.preferences.text.extract import facts, rate_per_minute
    assert rate_per_minute(facts(text).num) == rate


@pytest.mark.parametrize(("text", "params"), [
    ("Pick up Dad at the bus station from 16:00 on 20 Mar (wait there at least 10 min, within "
     "1 km: 21.6600, 110.9200), then home (21.6800, 110.9400) and stay until 08:00 on 21 Mar. "
     "Every minute away from home between 16:00 and 20:00 costs 2; missing the pickup or "
     "leaving early: 400 more.",
     {"w0": "2026-03-20 16:00:00", "w1": "2026-03-20 20:00:00", "w_end": "2026-03-21 08:00:00",
      "rate_per_minute": 2.0, "min_pickup_dwell_minutes": 10}),
    ("Family errand on 9 Mar: from 15:30 collect my wife at the clinic (22.2600, 113.5400), "
     "waiting 20 min or more, then go home (22.2800, 113.5700) and remain there until 07:30 on "
     "10 Mar. Each minute not at home between 15:30 and 19:30 is fined 1.5, plus 300 if the "
     "order is broken.",
     {"w0": "2026-03-09 15:30:00", "w1": "2026-03-09 19:30:00", "w_end": "2026-03-10 07:30:00",
      "rate_per_minute": 1.5}),
])
def test_an_abbreviated_month_ends_its_sentence(text: str, params: dict) -> None:
    """"stay until 07:00 on 28 Mar. Every minute away between 17:00 and 22:00": the date took
    the sentence's stop as its abbreviation's, so the absence window's clocks took the
    stay-home day and the window ran a day long (CL14)."""
    assert read_preference(text).status is ReadingStatus.PARSED
    assert_best(text, "home_stay_event", params)


@pytest.mark.parametrize(("text", "stops"), [
    ("3月22日 跑两站\n第一站：江门 客户 (22.5800, 113.0800)，10:00 前到，停 30 分钟\n"
     "第二站：开平 客户 (22.3800, 112.7000)，15:00 前到，停 20 分钟\n"
     "2 公里内算到，有一站没到罚 1000",
     [(22.58, 113.08, "10:00", 30), (22.38, 112.7, "15:00", 20)]),
    ("3月8日送货：第一站 惠州仓库 23.1100,114.4100，早上9点前到，待40分钟，第二站 河源客户 "
     "23.7400,114.7000，下午2点前到，待半小时，第三站 龙川 24.1000,115.2600，下午6点前到，"
     "每站2公里内算到，漏一站罚1500",
     [(23.11, 114.41, "09:00", 40), (23.74, 114.7, "14:00", 30), (24.1, 115.26, "18:00", 0)]),
])
def test_stops_numbered_in_chinese_numerals(text: str, stops: list) -> None:
    """第一站 … 第二站: a stop numbered in Chinese numerals starts its piece as 第2站 does
    (CL15's two stops were read as one dwell; CK15's three-stop route reads with it)."""
    assert_best(text, "route_stops_on_day", {"stops": [
        {"lat": a, "lng": b, "arrive_by": c, "min_dwell_minutes": d} for a, b, c, d in stops]})


@pytest.mark.parametrize(("text", "days"), [
    ("3月里至少留 5 天不跑单（当天没有一单送完就算），不够罚 800", 5),
    ("月度目标：起码 4 天不跑单\n到期：3月31日\n少了罚 600", 4),
    ("备忘：这个月要有 2 天没跑单，到期 2026-03-31，罚 500", 2),
])
def test_days_without_running_an_order(text: str, days: int) -> None:
    """不跑单, 没跑单 ("run no order") say 不接单, in the kind's wording and in its evidence
    (CL16's quota was unread)."""
    assert read_preference(text).status is ReadingStatus.PARSED
    assert_best(text, "min_days_without_orders", {"min_days": days})


@pytest.mark.parametrize(("text", "kind", "days"), [
    ("这个月要有 3 天不接单，到期 3月31日，罚 500", "min_days_without_orders", 3),
    ("To-do: 4 days this month with no orders. Due 31 Mar. 600 if missed.",
     "min_days_without_orders", 4),
    ("待办：月内要有 2 天整天不动车（不接单也不空跑），到期：2026-03-31，罚 700",
     "min_full_off_days", 2),
])
def test_a_month_end_due_date_on_a_days_off_quota(text: str, kind: str, days: int) -> None:
    """A to-do's due date at the month's end is no dated rule for the days-off quotas either
    (as for the region quota, test_a_month_end_due_date_is_no_dated_rule): it cost K13 the
    score to be read at all. K14 takes it too, so a day-off quota with its due date keeps its
    margin over K13."""
    assert read_preference(text).status is ReadingStatus.PARSED
    assert_best(text, kind, {"min_days": days})


@pytest.mark.parametrize(("text", "params"), [
    ("Night rest (weekend rule below)\nWeekdays: rest 22:30-05:30 in full. Saturdays and "
     "Sundays: 23:30-05:30. 150 per night not fully rested.",
     {"start": "22:30", "end": "05:30", "weekend_start": "23:30"}),
    ("夜间休息（周末另算）\n平日 22:00-06:00 整段休息，周六周日 23:00-06:00，没休够一晚罚 200",
     {"start": "22:00", "end": "06:00", "weekend_start": "23:00"}),
])
def test_the_weekend_start_is_the_clock_nearest_its_word(text: str, params: dict) -> None:
    """A title's "weekend" far from any clock is not the weekend's window: the clock nearest
    after a weekend word is (CL06's calendar, once its blocks read as prose, took the
    weekdays' 22:00 for the weekend's 23:30)."""
    assert_best(text, "rest_window_full_coverage", params)


def test_the_thirty_eighth_blind_file_reads_whole_after_its_round() -> None:
    """drivers_blind_cl.json (71 rules exported from calendar and reminder apps: iCalendar
    VEVENT/VTODO blocks with RRULE, DUE and GEO, Outlook and Google text exports, phone
    reminders, to-do items) was written blind and measured over 31 days held out
    (docs/evaluation.md): 56 of 71 read with their parameters, 57 after the one change made
    for CL14 (test_a_month_end_due_date_is_no_dated_rule). Round 37 reads all 71 with their
    parameters. Its held-out misreads were CL05, CL08, CL09, CL10, CL13 (two), CL14, CL15
    (two), CL16, CL18, CL19 and CL20 (three). Its fines differ from the file's in two ways
    the text cannot settle: a once-charged rule's cap is its fine there (null in every other
    file), and a rule that states no fine has one; and English fines with no currency or
    fine word ("Skipping it: 800.", "300 per such order") are left unread."""
    assert misread_rules("drivers_blind_cl.json") == []


@pytest.mark.parametrize(("text", "max_km"), [
    ("total empty km ≤1200 kilometers per month, fine 2/km", 1200.0),
    ("deadhead ≤ 1500 kilometres in March, 2 yuan per km over", 1500.0),
    ("empty≤1800 kilometers/month -2/km", 1800.0),
])
def test_a_four_digit_distance_in_kilometres_is_no_clock(text: str, max_km: float) -> None:
    """extract.py held two constants of one name (`_NO_UNIT`): the units that stop a
    four-digit number being read as a clock, and those after a month.day. The second bound
    the name, so the shorthand reader's clocks lost "kilometres" among their units and
    "≤1200 kilometers" became ≤12:00, a deadhead budget of 0 km. Each now has its own name."""
    assert_best(text, "max_total_deadhead_km", {"max_km": max_km})


@pytest.mark.parametrize(("text", "place", "days"), [
    ("待办：3月里至少 5 天接到 湛江 的单（一天只算一次）\n到期：3月31日\n没做到罚 800", "湛江", 5),
    ("3月31日前至少有6天接到佛山的单，一天算一次，不够罚500", "佛山", 6),
    ("To-do: orders starting or ending in Shaoguan on at least 3 days (one a day counts once)\n"
     "Due: 31 Mar\nFine 600 if short", "韶关", 3),
])
def test_a_month_end_due_date_is_no_dated_rule(text: str, place: str, days: int) -> None:
    """A to-do's due date at the month's end ("到期：3月31日") bounds the rule, as a month's
    first and last day do; read as a dated rule it cost the region quota its reading, and
    "一天算一次" made the text a cap of one order a day (class found on the held-out file CL,
    where the misreading took one driver 19-25% of its gross below the greedy under S4)."""
    assert_reads_as(text, "min_region_order_days", {"place": place, "min_days": days})


@pytest.mark.parametrize(("text", "kind", "params"), [
    # two send times (the header's, the quote's) are no window of the rule
    ("发件人: 调度组 <dd@hengda-wl.com>\n发送时间: 2026年3月1日 周日 08:40\n收件人: 钟师傅\n"
     "主题: 回复：不接单的日子\n\n钟师傅：\n同意。3月份里至少要有5天一单都不接，"
     "整月不够5天一次性罚1000元。\n\n> 钟师傅 2026年2月28日 21:15 写道：\n> 3月我想留几天不接活。",
     "min_days_without_orders", {"min_days": 5}),
    ("From: HR <hr@eastpoint.cn>\nSent: Sunday, 1 March 2026 07:20\nTo: Ho Chi-wai\n"
     "Subject: RE: days off\n\nChi-wai,\nConfirmed: in March you must have at least 3 days "
     "with no orders at all. Fewer than 3 such days: a one-time penalty of CNY 900.\n\n"
     "> From: Ho Chi-wai\n> Sent: 28 February 2026 22:05\n> Can I keep a few days free in March?",
     "min_days_without_orders", {"min_days": 3}),
    # the reply corrects the quoted rule: the reply's number is the rule's
    ("发件人: 车队 <cd@xx.com>\n发送时间: 2026年2月27日 11:30\n收件人: 罗师傅\n"
     "主题: 回复：空车里程\n\n"
     "罗师傅，按你说的改成1000公里：3月份空车跑的总里程不超过1000公里，超出部分每公里扣2元。\n\n"
     "-----原始邮件-----\n发件人: 车队\n发送时间: 2026年2月26日 09:00\n主题: 空车里程\n"
     "3月份空驶总里程不超过800公里，超出每公里扣2元。",
     "max_total_deadhead_km", {"max_km": 1000.0}),
    # send dates and a street's 18号 are no dates of the rule; a signature's numbers no id
    ("发件人: 物流园客服 <kf@park.com>\n发送时间: 2026年2月26日 16:05\n收件人: 温师傅\n"
     "主题: 不去的地方\n\n温师傅：3月份装货地或卸货地在惠州的单子都不要接，接一单罚300元。\n\n"
     "物流园客服部\n东莞市长安镇振安中路18号 523850\n统一社会信用代码 91441900MA51X3KQ8R\n"
     "手机 139 2233 4455",
     "forbidden_cargo_place", {"place": "惠州"}),
])
def test_an_email_thread_reads_as_its_newest_message(text: str, kind: str, params: dict) -> None:
    """A rule pasted from an email (sim/preferences/text/email_thread.py): its headers' send
    times and dates, its quoted older versions, its signature's phone, address and
    registration numbers are no part of the rule. Class found on the held-out file CM, where
    send times made rest windows of 09:30-22:10 and 19:36-16:02 and put two drivers 33-44% of
    their gross below the greedy under S4."""
    assert_best(text, kind, params)


def test_an_agreement_above_the_quote_keeps_the_quoted_rule() -> None:
    """"OK, agreed" with no number of its own above the message it quotes: the rule is the
    quoted one (its header lines still dropped)."""
    text = ("From: Lee Siu-ming\nSent: 2 March 2026 08:03\nTo: Dispatch\nSubject: Re: cap\n\n"
            "OK, agreed.\n\n-----Original Message-----\nFrom: Dispatch\n"
            "Sent: 1 March 2026 21:40\nSubject: cap\nIn March take at most 4 orders a day; "
            "each order over that is fined CNY 120.")
    assert_best(text, "max_orders_per_day", {"max_orders": 4})


def test_a_text_without_an_emails_headers_is_left_as_it_is() -> None:
    from sim.preferences.text.email_thread import is_email, plain_email

    text = "时间：每天 22:30\n地点：家\n备注：22:30 以后不出车，扣 300"
    assert not is_email(text)
    assert plain_email(text) == text
    assert is_email("From: a\nTo: b\n\nhello")


def test_the_thirty_ninth_blind_file_is_held_out() -> None:
    """drivers_blind_cm.json (70 rules pasted as email threads: headers, quoted older versions
    of the rule, signatures) was written blind and measured over 31 days held out
    (docs/evaluation.md): 34 of 70 read, four drivers below the floor under S4. Two changes
    were made for it, to the classes that put them there (test_an_email_thread_reads_as_its_
    newest_message, test_a_numbered_platform_is_no_day): 62 of 70 read. Read in round 38:
    the eight left were fixed by class (test_a_correction_drops_the_dates_it_replaces,
    test_a_category_said_fine_to_haul_is_not_refused, test_a_food_grade_lining_is_no_food_load,
    test_a_company_named_after_its_city_is_no_place,
    test_one_day_as_a_rates_unit_is_no_count_of_days,
    test_rest_not_asked_for_reads_as_a_quiet_window,
    test_a_long_haul_cap_limited_to_n_for_the_month): 70 of 70."""
    assert misread_rules("drivers_blind_cm.json") == []


@pytest.mark.parametrize("place", ["3号月台", "五号月台", "2号车间", "12号泊位"])
def test_a_numbered_platform_is_no_day(place: str) -> None:
    """"3号月台" is platform 3, not the 3rd of the month: read as a day it made a visit quota a
    dated rule, and the text fell to a cap of one order a day from its numbers alone (CM06,
    14% of its gross below the greedy under S4 on the held-out file CM)."""
    assert_reads_as(f"3月里至少6天到过仓库的{place}（坐标 22.80, 113.95）一公里内，"
                    "一天去几次都只算一天，不够6天一次性罚800元", "min_visit_days", {"min_days": 6})


@pytest.mark.parametrize(("text", "dates"), [
    ("通知更正：江门那边3月20号、21号查超载（不是18、19号），这两天装货或卸货在江门的单子都别接，"
     "每单罚300元。", ["2026-03-20", "2026-03-21"]),
    ("更正：惠州封路定在3月9号，不是3月7号。那天不要去惠州，惠州装卸的货都不接，违者每次罚200元。",
     ["2026-03-09"]),
    ("Update: the Zhuhai road checks moved to 11 and 12 March, instead of 5-6 March. Do not take "
     "orders loading or unloading in Zhuhai on those two days; RMB 250 each time.",
     ["2026-03-11", "2026-03-12"]),
])
def test_a_correction_drops_the_dates_it_replaces(text: str, dates: list[str]) -> None:
    """"3月20号、21号（不是18、19号）", "on 11 and 12 March, instead of 5-6 March": the dates
    a correction replaces are no days of the rule (sim/preferences/text/corrections.py). Read
    as days they doubled two dated keep-outs of the held-out file CM (CM06, CM20)."""
    assert_reads_as(text, "date_region_avoid", {"dates": dates})


@pytest.mark.parametrize(("text", "cats"), [
    ("登记表上「水果」「蔬菜」两类都写着不拉，要改一下：蔬菜照样可以接。只有水果不拉，拉了每单扣150元。",
     ["水果"]),
    ("建材和机械设备两类原先都不接，机械设备我能拉，没问题；建材还是不接，接一单罚200元。",
     ["建材"]),
    ("My list changes: fruit is fine, but no chemicals or plastics and no fruit from the old "
     "list, RMB 100 for each such order.", ["化工塑料"]),
])
def test_a_category_said_fine_to_haul_is_not_refused(text: str, cats: list[str]) -> None:
    """A category said to be fine in its own clause ("蔬菜照样可以接", "机械设备我能拉") is a
    refusal lifted, though the old list that refused it stands beside it (CM01 on the held-out
    file CM kept 煤炭矿产 from "煤炭矿产我可以拉")."""
    assert_reads_as(text, "forbidden_cargo_category", {"categories": cats})


@pytest.mark.parametrize("text", [
    "车厢刚换了食品级的内衬，所以「化工塑料」的货一律不接，接一单罚300元。",
    "我这车是食品级不锈钢罐，化工的活不拉，拉了每单扣200。",
    "My tank has a food-grade lining now, so no chemicals at all; RMB 300 per order.",
])
def test_a_food_grade_lining_is_no_food_load(text: str) -> None:
    """食品级 / food-grade names the grade of a truck's lining or tank, not a load of food
    (CM01 on the held-out file CM refused 食品饮料 from "食品级内衬")."""
    assert_reads_as(text, "forbidden_cargo_category", {"categories": ["化工塑料"]})


@pytest.mark.parametrize("text", [
    "3月份至少要有5个整天完全停驶，那天不接单也不开空车。不够5天一次性罚800元。\n"
    "江门顺通货运有限公司 车队管理部",
    "3月份至少3个整天车辆全天不动，不接单、不空驶，少1天罚500元。——广州恒达运输集团 安全科",
    "In March keep at least 4 whole days fully off: no orders and no empty driving all day. "
    "Short of 4 days: RMB 900 once.\nDongguan Hengfeng Transport Co., Ltd.",
])
def test_a_company_named_after_its_city_is_no_place(text: str) -> None:
    """A signature's company name that starts with its city (江门顺通货运有限公司, Dongguan …
    Co., Ltd.) names no place of the rule: read as one it made CM12's days off a region quota
    of 肇庆 on the held-out file CM."""
    assert_reads_as(text, "min_full_off_days", {})


@pytest.mark.parametrize(("text", "kind", "params"), [
    ("3月份我爱人要做手术。每天晚上9点前回到家（坐标22.95，113.38），离家1公里内算到家；"
     "到家后到第二天早上6点不接单不空跑。做不到按规定扣200元一天。",
     "home_by_curfew", {"curfew": "21:00", "quiet_until": "06:00"}),
    ("佛山到湛江来回要一整天，3月份一天最多接3单，多接1单罚150元。",
     "max_orders_per_day", {"max_orders": 3}),
    ("清远山路多，3月份每天接单不超过2单，同一天多接的每单罚120元。",
     "max_orders_per_day", {"max_orders": 2}),
])
def test_one_day_as_a_rates_unit_is_no_count_of_days(text: str, kind: str, params: dict) -> None:
    """"扣200元一天" (a fine a day), "一天最多接3单" (a cap a day), "同一天" (the same day): one
    day as a rate's unit is no count of days. Read as "at least 1 day" it made a curfew a
    visit quota and a daily cap a region quota (CM04, CM09 on the held-out file CM)."""
    assert_reads_as(text, kind, params)


@pytest.mark.parametrize("text", [
    "每天凌晨2点到4点半之间不接单、不空驶，车停着就行，不要求大家睡觉。哪天违反罚100元。",
    "夜里0点到5点这段不准派单也不准空车跑，不强求休息。每天有一次罚120元。",
    "Every night from 01:00 to 04:00 no orders and no empty driving; sleeping is not required. "
    "RMB 100 for each night broken.",
])
def test_rest_not_asked_for_reads_as_a_quiet_window(text: str) -> None:
    """"不要求睡觉", "不强求休息", "sleeping is not required": a window without work, rest not
    asked for, is a quiet window, not a rest window (CM13 on the held-out file CM)."""
    assert_reads_as(text, "quiet_window", {})


@pytest.mark.parametrize(("text", "minutes", "n"), [
    ("For March, jobs that take more than 8 hours are limited to 3 for the whole month; each "
     "one beyond that costs RMB 300.", 480, 3),
    ("Orders longer than 12 hours are capped at 1 over the month, RMB 500 for every extra one.",
     720, 1),
    ("Long orders (over 9 hours) are restricted to 2 for the entire month in March; a fine of CNY "
     "350 for each one beyond.", 540, 2),
])
def test_a_long_haul_cap_limited_to_n_for_the_month(text: str, minutes: int, n: int) -> None:
    """"limited to 2 for the whole month", "capped at 1 over the month": a monthly bound on
    long orders said after its orders (CM17 on the held-out file CM read nothing)."""
    assert_reads_as(text, "monthly_long_haul_cap",
                    {"threshold_minutes": minutes, "max_per_month": n})


def test_the_fortieth_blind_file_is_held_out() -> None:
    """drivers_blind_cn.json (72 rules as notes from the driver's family: relative dates,
    dialect clock words, numbers of other things beside the rule's) was written blind and
    measured over 31 days held out (docs/evaluation.md): 59 of 72 read, no driver below the
    greedy. Its misreads, left for its round."""
    assert [(d, k) for d, k, _ in misread_rules("drivers_blind_cn.json")] == [
        ("CN02", "dwell_at_point_on_day"), ("CN03", "min_visit_days"),
        ("CN04", "min_days_without_orders"), ("CN05", "home_stay_event"),
        ("CN07", "date_region_avoid"), ("CN07", "max_orders_per_day"),
        ("CN08", "route_stops_on_day"), ("CN10", "home_by_curfew"),
        ("CN11", "daily_continuous_rest"), ("CN15", "home_stay_event"),
        ("CN16", "date_region_avoid"), ("CN18", "min_days_without_orders"),
        ("CN19", "route_stops_on_day")]
