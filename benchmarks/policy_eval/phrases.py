"""How drivers say each of the 24 rule kinds (docs/competition.md §7.5), in Chinese and English.

Written from the kinds' definitions, as a driver or a fleet dispatcher would put them in a
chat: colloquial, several phrasings per kind, the fine sometimes in the text and sometimes
not. Each `say_<kind>(p, lang, rng)` returns the text for the params `p` (the gold reading
the scorer gets in `structured`) plus a few wording-only extras carried in `p["_say"]` (place
names for points). Nothing here is read back: the text is for agents and parsers to read.
"""

from __future__ import annotations

import random
from collections.abc import Callable

WEEKDAY_ZH = "一二三四五六日"


# --------------------------------------------------------------------------- clocks, dates

def zh_num(n: int) -> str:
    """Small counts the way people type them: 两 for 2, else digits or simple numerals."""
    words = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九",
             10: "十"}
    return words.get(n, str(n))


def zh_clock(hhmm: str, rng: random.Random | None = None) -> str:
    h, m = (int(x) for x in hhmm.split(":"))
    tail = "" if m == 0 else ("半" if m == 30 else f"{m}分")
    if h == 0 and m == 0:
        return (rng.choice(["零点", "半夜12点", "夜里12点"]) if rng else "零点")
    if h < 5:
        return f"凌晨{h}点{tail}"
    if h < 9:
        return f"早上{h}点{tail}"
    if h < 12:
        return f"上午{h}点{tail}"
    if h == 12:
        return f"中午12点{tail}"
    if h < 18:
        return f"下午{h - 12}点{tail}"
    return f"晚上{h - 12}点{tail}"


def en_clock(hhmm: str, rng: random.Random | None = None) -> str:
    h, m = (int(x) for x in hhmm.split(":"))
    if rng is not None and rng.random() < 0.4:
        return hhmm
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    if h == 0 and m == 0:
        return "midnight"
    if h == 12 and m == 0:
        return "noon"
    return f"{h12}{'' if m == 0 else f':{m:02d}'} {suffix}"


def zh_date(iso: str) -> str:
    _, mo, d = iso.split("-")
    return f"{int(mo)}月{int(d)}号"


def en_date(iso: str) -> str:
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    _, mo, d = iso.split("-")
    return f"{months[int(mo) - 1]} {int(d)}"


def zh_hours(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    if h == 0:
        return "半个小时" if m == 30 else f"{m}分钟"
    if m == 0:
        return f"{zh_num(h)}个小时" if h <= 10 else f"{h}个小时"
    if m == 30:
        return f"{zh_num(h)}个半小时"
    return f"{minutes}分钟"


def en_hours(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    if m == 0:
        return f"{h} hour{'s' if h != 1 else ''}"
    if m == 30:
        return f"{h}.5 hours"
    return f"{minutes} minutes"


def coord(lat: float, lng: float, rng: random.Random) -> str:
    return rng.choice([f"（{lat:.4f}，{lng:.4f}）", f"({lat:.4f}, {lng:.4f})",
                       f"（{lat:.4f},{lng:.4f}）"])


def money(amount: float) -> str:
    return f"{amount:g}"


# --------------------------------------------------------------------------- fine clauses

def zh_fine(a: float, cap: float | None, unit: str, rng: random.Random) -> str:
    """An optional fine clause; `unit` is what one violation is (次, 天, 单, 步)."""
    r = rng.random()
    if r < 0.3:
        return ""
    head = rng.choice([f"，违反一{unit}扣{money(a)}元", f"，一{unit}罚{money(a)}",
                       f"，每{unit}扣钱{money(a)}元", f"，做不到一{unit}扣{money(a)}块"])
    if cap is None:
        return head + rng.choice(["", "，上不封顶", "，没有封顶"])
    return head + rng.choice([f"，累计最多扣{money(cap)}", f"，{money(cap)}封顶",
                              f"，一个月最多罚{money(cap)}元"])


def en_fine(a: float, cap: float | None, unit: str, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return ""
    head = rng.choice([f"; {money(a)} yuan off per {unit}", f", fine {money(a)} each {unit}",
                       f" ({money(a)} per {unit})"])
    if cap is None:
        return head + rng.choice(["", ", no cap"])
    return head + rng.choice([f", capped at {money(cap)}", f", at most {money(cap)} a month"])


def zh_once(a: float, rng: random.Random) -> str:
    return rng.choice(["", f"，做不到一次性罚{money(a)}元", f"，整月不满足扣{money(a)}",
                       f"，不然罚{money(a)}"])


def en_once(a: float, rng: random.Random) -> str:
    return rng.choice(["", f" or a one-off fine of {money(a)}", f"; miss it and it's {money(a)}"])


# --------------------------------------------------------------------------- kinds

Sayer = Callable[[dict, float, float | None, str, random.Random], str]


def k01(p, a, c, lang, rng):
    h = zh_hours(p["min_minutes"])
    if lang == "zh":
        if p.get("days") == "weekdays":
            s = rng.choice([f"平日（周一到周五）每天至少连续歇{h}，周末随意",
                            f"工作日每天要有一段连着的{h}停车休息"])
        else:
            s = rng.choice([f"每天至少连续休息{h}，不能连轴转",
                            f"每天得有一段完整的{h}停车熄火歇着",
                            f"一天里起码要连着睡够{h}",
                            f"每天至少歇满{h}（要连续的）"])
        return s + zh_fine(a, c, "天", rng) + "。"
    h = en_hours(p["min_minutes"])
    if p.get("days") == "weekdays":
        s = rng.choice([f"On weekdays I need one unbroken rest of at least {h} a day",
                        f"Mon-Fri: at least {h} of continuous rest every day"])
    else:
        s = rng.choice([f"At least {h} of continuous rest every day, no back-to-back driving",
                        f"I have to park and sleep {h} straight each day"])
    return s + en_fine(a, c, "day", rng) + "."


def k02(p, a, c, lang, rng):
    ws = p.get("weekend_start")
    if lang == "zh":
        s0, s1 = zh_clock(p["start"], rng), zh_clock(p["end"], rng)
        nxt = ("第二天", "次日") if p["end"] <= p["start"] else ("", "")  # a window past midnight
        s = rng.choice([f"每晚{s0.removeprefix('晚上')}到{nxt[0]}{s1}必须停车熄火睡觉，雷打不动",
                        f"{s0}至{nxt[1]}{s1}是睡觉时间，车必须停着",
                        f"晚上{s0.replace('晚上', '')}以后到{s1}一定要休息，不能开车"
                        if s0.startswith("晚上") else f"{s0}到{s1}必须停车休息"])
        if ws:
            s += f"，周末可以晚一点，{zh_clock(ws)}开始"
        return s + zh_fine(a, c, "天", rng) + "。"
    s0, s1 = en_clock(p["start"], rng), en_clock(p["end"], rng)
    s = rng.choice([f"Every night from {s0} to {s1} I must be parked and asleep, no exceptions",
                    f"Required sleep {s0}-{s1} each night, truck off"])
    if ws:
        s += f" (weekends it starts at {en_clock(ws)})"
    return s + en_fine(a, c, "night", rng) + "."


def k03(p, a, c, lang, rng):
    lunch = p["count"] == "per_step"
    if lang == "zh":
        s0, s1 = zh_clock(p["start"], rng), zh_clock(p["end"], rng)
        if lunch:
            s = rng.choice([f"{s0}到{s1}是吃饭歇脚的时间，这段不接单，也不空车跑",
                            f"{s0}至{s1}不接单、不空驶，路边停车歇着不算违规"])
            return s + zh_fine(a, c, "次", rng) + "。"
        s = rng.choice([f"{s0}至次日{s1}不接单，也不空车赶路，路边停车休息没关系",
                        f"夜里{s0}以后到{s1}别接单别空跑，停着就行",
                        f"{s0}到第二天{s1}之间不出车干活"])
        return s + zh_fine(a, c, "天", rng) + "。"
    s0, s1 = en_clock(p["start"], rng), en_clock(p["end"], rng)
    if lunch:
        s = rng.choice([f"Lunch break {s0}-{s1}: no orders and no empty driving then",
                        f"Between {s0} and {s1} I eat, so don't take orders or drive around"])
        return s + en_fine(a, c, "time", rng) + "."
    s = rng.choice([f"No orders and no empty runs from {s0} to {s1} next morning; "
                    f"waiting by the road is fine",
                    f"Nothing moves between {s0} and {s1}"])
    return s + en_fine(a, c, "night", rng) + "."


def k04(p, a, c, lang, rng):
    home = coord(p["lat"], p["lng"], rng)
    r = p.get("radius_km", 1.0)
    if lang == "zh":
        cf, q = zh_clock(p["curfew"], rng), zh_clock(p["quiet_until"], rng)
        rr = "一公里内" if r == 1 else f"{r:g}公里内"
        s = rng.choice([f"每天{cf}前要回到家{home}{rr}，到家后直到次日{q}不再接单也不空跑",
                        f"老婆要求我每晚{cf.removeprefix('晚上')}前到家（家在{home}，{rr}都算），"
                        f"第二天{q}之前不准出车",
                        f"家在{home}。每天{cf}前必须到家附近{rr}，到家后一直停到第二天{q}"])
        return s + zh_fine(a, c, "天", rng) + "。"
    cf, q = en_clock(p["curfew"], rng), en_clock(p["quiet_until"], rng)
    s = rng.choice([f"Home {home} by {cf} every night (within {r:g} km), and no orders or "
                    f"empty driving until {q} the next day",
                    f"Be back within {r:g} km of my home {home} by {cf}; stay put till {q}"])
    return s + en_fine(a, c, "day", rng) + "."


def k05(p, a, c, lang, rng):
    cats = p["categories"]
    if lang == "zh":
        names = "和".join(f"「{x}」" for x in cats) if rng.random() < 0.5 else "、".join(cats)
        s = rng.choice([f"货源品类为{names}的一律不接", f"{names}这类活儿干不了，推掉",
                        f"不拉{names}", f"尽量别接{names}的货"])
        return s + zh_fine(a, c, "单", rng) + "。"
    names = " or ".join(f"{en} ({zh})" for en, zh in zip(p["_say"]["cats_en"], cats, strict=True))
    s = rng.choice([f"No {names} loads", f"I don't haul {names}, skip those",
                    f"Please avoid {names} cargo"])
    return s + en_fine(a, c, "order", rng) + "."


def k06(p, a, c, lang, rng):
    pl = p["place"]
    if lang == "zh":
        s = rng.choice([f"装货地或卸货地在{pl}的单不接", f"{pl}那一路的货不接",
                        f"不去{pl}，装卸在{pl}的都推掉"])
        return s + zh_fine(a, c, "单", rng) + "。"
    s = rng.choice([f"No loads picking up or dropping in {p['_say']['place_en']}",
                    f"Stay off {p['_say']['place_en']}: no orders that load or unload there"])
    return s + en_fine(a, c, "order", rng) + "."


def k07(p, a, c, lang, rng):
    km = int(p["max_km"])
    if lang == "zh":
        s = rng.choice([f"单笔装货点至卸货点不得超过{km}公里",
                        f"太远的不跑，装卸距离超过{km}公里的不接", f"只接{km}公里以内的活"])
        return s + zh_fine(a, c, "单", rng) + "。"
    s = rng.choice([f"No hauls longer than {km} km from pickup to drop",
                    f"Keep each load under {km} km"])
    return s + en_fine(a, c, "order", rng) + "."


def k08(p, a, c, lang, rng):
    km = int(p["max_km"])
    if lang == "zh":
        s = rng.choice([f"接单后赶去装货点那一程空驶不能超过{km}公里",
                        f"去装货的空车距离超过{km}公里的单别接",
                        f"赴装货点的空驶距离最多{km}公里"])
        return s + zh_fine(a, c, "单", rng) + "。"
    s = rng.choice([f"Don't drive more than {km} km empty to a pickup",
                    f"Pickup must be within {km} km of where I am"])
    return s + en_fine(a, c, "order", rng) + "."


def k09(p, a, c, lang, rng):
    km = int(p["max_km"])
    if lang == "zh":
        s = rng.choice([f"一个月空驶里程总和不超过{km}公里", f"本月空车跑的里程加起来最多{km}公里",
                        f"月度空驶(赶路)总里程控制在{km}公里内"])
        tail = f"，超出部分每公里罚{money(a)}元"
        tail += "" if c is None else rng.choice([f"，最多{money(c)}元", f"，封顶{money(c)}"])
        return s + (tail if rng.random() < 0.8 else "") + "。"
    s = rng.choice([f"Total empty driving this month must stay under {km} km",
                    f"Deadhead budget for the month: {km} km"])
    tail = f"; {money(a)} yuan per km over" + ("" if c is None else f", max {money(c)}")
    return s + (tail if rng.random() < 0.8 else "") + "."


def k10(p, a, c, lang, rng):
    box = (f"北纬{p['lat_min']:.2f}至{p['lat_max']:.2f}、东经{p['lng_min']:.2f}至"
           f"{p['lng_max']:.2f}")
    city = p["_say"]["city_zh"]
    if lang == "zh":
        s = rng.choice([f"车只在{city}范围内跑，不出市（{box}），位置始终要在这个框里",
                        f"我只跑{city}本地，车辆位置不能出{box}这个范围",
                        f"老板说了不出{city}：{box}以内"])
        return s + zh_fine(a, c, "次", rng) + "。"
    s = rng.choice([f"Stay inside {p['_say']['city_en']}: lat {p['lat_min']:.2f}-"
                    f"{p['lat_max']:.2f}, lng {p['lng_min']:.2f}-{p['lng_max']:.2f}, always",
                    f"The truck never leaves the box lat {p['lat_min']:.2f} to "
                    f"{p['lat_max']:.2f}, lng {p['lng_min']:.2f} to {p['lng_max']:.2f} "
                    f"({p['_say']['city_en']})"])
    return s + en_fine(a, c, "step", rng) + "."


def k11(p, a, c, lang, rng):
    ctr = coord(p["lat"], p["lng"], rng)
    r = p["radius_km"]
    name = p["_say"]["name_zh" if lang == "zh" else "name_en"]
    once = p.get("mode") == "once"
    if lang == "zh":
        s = rng.choice([f"不想进{name}，以{ctr}为圆心、半径{r:g}公里的区域不要进",
                        f"{name}一带限行，圆心{ctr}，半径{r:g}km以内不得进入"])
        if once:
            return s + rng.choice([f"，进去过就罚{money(a)}，最多扣一次。",
                                   f"，违反一次性扣{money(a)}元，最多扣一次。"])
        return s + zh_fine(a, c, "次", rng) + "。"
    s = f"Keep out of {name}: nothing within {r:g} km of {ctr}"
    if once:
        return s + f"; a one-off {money(a)} if I ever go in."
    return s + en_fine(a, c, "time", rng) + "."


def k12(p, a, c, lang, rng):
    dates = p["dates"]
    b = p["bbox"]
    if lang == "zh":
        when = (zh_date(dates[0]) if len(dates) == 1
                else f"{zh_date(dates[0])}到{zh_date(dates[-1]).replace('3月', '')}")
        pl = p["place"]
        box = (f"北纬{b['lat_min']:.2f}至{b['lat_max']:.2f}，东经{b['lng_min']:.2f}至"
               f"{b['lng_max']:.2f}")
        s = rng.choice([f"{when}{pl}那边查车严，别往{pl}跑，去那边的货也别接（范围大概{box}）",
                        f"{when}不往{pl}跑：派进去的单不接，空车也别进{box}"])
        return s + zh_fine(a, c, "次", rng) + "。"
    when = en_date(dates[0]) if len(dates) == 1 else f"{en_date(dates[0])}-{dates[-1][-2:]}"
    s = (f"{when}: inspections in {p['_say']['place_en']}, so no loads to or from there and "
         f"don't drive into lat {b['lat_min']:.2f}-{b['lat_max']:.2f}, "
         f"lng {b['lng_min']:.2f}-{b['lng_max']:.2f}")
    return s + en_fine(a, c, "time", rng) + "."


def k13(p, a, c, lang, rng):
    n = p["min_days"]
    if lang == "zh":
        s = rng.choice([f"这个自然月至少要有{zh_num(n)}天不接单，放空歇歇",
                        f"一个月里起码{zh_num(n)}天一单不接", f"每月至少{n}天不接单陪家里人"])
        return s + zh_once(a, rng) + "。"
    s = rng.choice([f"At least {n} days this month with no orders at all",
                    f"I want {n} order-free days in the month"])
    return s + en_once(a, rng) + "."


def k14(p, a, c, lang, rng):
    n = p["min_days"]
    if lang == "zh":
        s = rng.choice([f"每个月至少留{zh_num(n)}个整天完全歇着：不接单，也不空车乱跑",
                        f"本月要有{n}天整天停驶（00:00~24:00车不动），车要检修保养",
                        f"一个月里至少{zh_num(n)}天不出车，既不接单也不空驶"])
        return s + zh_once(a, rng) + "。"
    s = rng.choice([f"{n} full days off this month: truck doesn't move at all, no orders, "
                    f"no empty driving",
                    f"At least {n} whole days parked for maintenance"])
    return s + en_once(a, rng) + "."


def k15(p, a, c, lang, rng):
    n = p["max_orders"]
    if lang == "zh":
        s = rng.choice([f"同一天接单不得超过{zh_num(n)}单", f"一天最多接{n}单，太累了",
                        f"每天顶多{zh_num(n)}单"])
        tail = rng.choice(["", f"，每多一单扣{money(a)}元", f"，多一单罚{money(a)}"])
        return s + tail + "。"
    s = rng.choice([f"No more than {n} orders a day", f"Max {n} loads per day"])
    return s + rng.choice(["", f"; {money(a)} for each extra one"]) + "."


def k16(p, a, c, lang, rng):
    t = p["latest"]
    if lang == "zh":
        s = rng.choice([f"这天要是接了单，首单开工不得晚于{zh_clock(t)}",
                        f"每天第一单要在{zh_clock(t)}前开始，晚了就别干了",
                        f"开工要早，当天{zh_clock(t)}以后才开始的首单算违规"])
        return s + zh_fine(a, c, "天", rng) + "。"
    s = rng.choice([f"On days I work, the first order has to start before {en_clock(t)}",
                    f"First load of the day must begin by {en_clock(t)}"])
    return s + en_fine(a, c, "day", rng) + "."


def k17(p, a, c, lang, rng):
    pt = coord(p["lat"], p["lng"], rng)
    n = p["min_days"]
    name = p["_say"]["name_zh" if lang == "zh" else "name_en"]
    if lang == "zh":
        s = rng.choice([f"这个月要有{n}个不同的自然日到过{name}{pt}一公里内，同日去几次只算一天",
                        f"每月至少{n}天回{name}{pt}报个到（一公里内就算）"])
        return s + zh_once(a, rng) + "。"
    s = f"Be within 1 km of {name} {pt} on at least {n} different days this month"
    return s + en_once(a, rng) + "."


def k18(p, a, c, lang, rng):
    pl = p["place"]
    n = p["min_days"]
    if lang == "zh":
        s = rng.choice([f"装货或卸货在{pl}的货，这个月要接够{zh_num(n)}个不同的日子，"
                        f"同一天几单只算一天",
                        f"{pl}的老客户要照顾，本月至少{n}天接{pl}装或卸的单"])
        return s + zh_once(a, rng) + "。"
    s = (f"Loads that start or end in {p['_say']['place_en']} on at least {n} different days "
         f"this month (several on one day count once)")
    return s + en_once(a, rng) + "."


def k19(p, a, c, lang, rng):
    cid = p["cargo_id"]
    when = p["_say"]["listed"]  # 'YYYY-MM-DD HH:MM'
    day, hm = when.split(" ")
    if lang == "zh":
        s = rng.choice([f"老客户临时约了一票熟货，货源编号{cid}，"
                        f"{zh_date(day)}{zh_clock(hm)}左右上架，一定要接",
                        f"指定要接货源编号{cid}这一单（{zh_date(day)}挂出来的），"
                        f"不接则老客户那边损失大",
                        f"临时约定：{zh_date(day)}那票{cid}必须我来拉"])
        return s + rng.choice(["", f"，漏了罚{money(a)}"]) + "。"
    s = rng.choice([f"Must take cargo {cid} for a regular customer; it goes up around "
                    f"{en_date(day)} {hm}",
                    f"Promised a customer I'd haul {cid} (listed {en_date(day)})"])
    return s + rng.choice(["", f"; {money(a)} if I miss it"]) + "."


def k20(p, a, c, lang, rng):
    cat, n = p["category"], p["min_orders"]
    mo = int(p["month"].split("-")[1])
    if lang == "zh":
        s = rng.choice([f"公司考核指标：{mo}月货源类型是「{cat}」的货必须接满{n}单",
                        f"这个月{cat}的单至少要接{zh_num(n)}单，KPI",
                        f"{mo}月要完成{cat}{n}单的任务"])
        return s + rng.choice(["", f"，少一单扣{money(a)}元", f"，差一单罚{money(a)}"]) + "。"
    name = f"{p['_say']['cat_en']} ({cat})"
    s = rng.choice([f"KPI: at least {n} {name} loads in March",
                    f"The company wants {n} {name} orders from me this month"])
    return s + rng.choice(["", f"; {money(a)} per missing order"]) + "."


def k21(p, a, c, lang, rng):
    h = p["threshold_minutes"] / 60
    n = p["max_per_month"]
    if lang == "zh":
        s = rng.choice([f"超过{h:g}小时的大半天远活，每个月最多接{zh_num(n)}单",
                        f"长途（单子要跑{h:g}个钟头以上的）一个月不超过{n}单，身体吃不消"])
        return s + rng.choice(["", f"，多一单扣{money(a)}"]) + "。"
    s = f"At most {n} long jobs a month (anything over {h:g} hours)"
    return s + rng.choice(["", f"; {money(a)} for each extra"]) + "."


def k22(p, a, c, lang, rng):
    pt = coord(p["lat"], p["lng"], rng)
    name = p["_say"]["name_zh" if lang == "zh" else "name_en"]
    by = p.get("arrive_by")
    dw = p["min_dwell_minutes"]
    if lang == "zh":
        arrive = f"{zh_clock(by)}前到" if by else "当天去"
        s = rng.choice([f"{zh_date(p['date'])}当天要到{name}{pt}停一趟，{arrive}，"
                        f"至少停{zh_hours(dw)}",
                        f"{zh_date(p['date'])}{arrive}{name}{pt}，在那留{zh_hours(dw)}以上"])
        return s + zh_once(a, rng) + "。"
    arrive = f"by {en_clock(by)}" if by else "some time that day"
    s = f"On {en_date(p['date'])} I need to be at {name} {pt} {arrive} and stay {en_hours(dw)}"
    return s + en_once(a, rng) + "."


def k23(p, a, c, lang, rng):
    st = p["stops"]
    names = p["_say"]["names_zh" if lang == "zh" else "names_en"]
    if lang == "zh":
        parts = []
        for i, (s, nm) in enumerate(zip(st, names, strict=True)):
            lead = "先到" if i == 0 else "再去"
            part = f"{lead}{nm}{coord(s['lat'], s['lng'], rng)}，{zh_clock(s['arrive_by'])}前赶到"
            if s.get("min_dwell_minutes"):
                part += f"，待{zh_hours(s['min_dwell_minutes'])}"
            parts.append(part)
        return f"{zh_date(p['date'])}当天：" + "；".join(parts) + zh_once(a, rng) + "。"
    parts = []
    for i, (s, nm) in enumerate(zip(st, names, strict=True)):
        lead = "first" if i == 0 else "then"
        part = f"{lead} {nm} {coord(s['lat'], s['lng'], rng)} by {en_clock(s['arrive_by'])}"
        if s.get("min_dwell_minutes"):
            part += f" for {en_hours(s['min_dwell_minutes'])}"
        parts.append(part)
    return f"On {en_date(p['date'])}: " + ", ".join(parts) + en_once(a, rng) + "."


def k24(p, a, c, lang, rng):
    pk = coord(p["pickup_lat"], p["pickup_lng"], rng)
    hm = coord(p["home_lat"], p["home_lng"], rng)
    d0, t0 = p["w0"][:10], p["w0"][11:16]
    d1, t1 = p["w1"][:10], p["w1"][11:16]
    who = p["_say"]["who_zh" if lang == "zh" else "who_en"]
    place = p["_say"]["place_zh" if lang == "zh" else "place_en"]
    dw = p["min_pickup_dwell_minutes"]
    rate = p["rate_per_minute"]
    if lang == "zh":
        nxt = "第二天" if d1 != d0 else ""
        s = (f"家里有急事：{zh_date(d0)}{zh_clock(t0)}起，先到{place}{pk}接{who}，"
             f"原地停留不少于{dw}分钟，接上后回家{hm}，进家门后至少待到{nxt}{zh_clock(t1)}"
             f"才能再出车。")
        s += rng.choice([f"{zh_clock(t0)}以后不在家的每分钟罚{rate:g}元，"
                         f"没接上人、没回家或提前离家，额外一次性罚{money(a)}",
                         f"迟到或不在家按每分钟{rate:g}元算，提前离家另罚{money(a)}"])
        if c is not None:
            s += f"，总共最多{money(c)}"
        return s + "。"
    s = (f"Family thing on {en_date(d0)}: from {en_clock(t0)} go to {place} {pk}, wait there "
         f"at least {dw} minutes to pick up {who}, then straight home {hm} and stay until "
         f"{en_clock(t1)}{' the next day' if d1 != d0 else ''}. {rate:g} yuan for every minute "
         f"I'm not home, plus {money(a)} once if I skip the pickup, never get home or leave early")
    if c is not None:
        s += f" (at most {money(c)} in all)"
    return s + "."


SAYERS: dict[str, Sayer] = {
    "daily_continuous_rest": k01, "rest_window_full_coverage": k02, "quiet_window": k03,
    "home_by_curfew": k04, "forbidden_cargo_category": k05, "forbidden_cargo_place": k06,
    "max_haul_km": k07, "max_pickup_deadhead_km": k08, "max_total_deadhead_km": k09,
    "stay_inside_bbox": k10, "forbidden_circle": k11, "date_region_avoid": k12,
    "min_days_without_orders": k13, "min_full_off_days": k14, "max_orders_per_day": k15,
    "first_order_deadline": k16, "min_visit_days": k17, "min_region_order_days": k18,
    "must_take_cargo": k19, "monthly_category_quota": k20, "monthly_long_haul_cap": k21,
    "dwell_at_point_on_day": k22, "route_stops_on_day": k23, "home_stay_event": k24,
}
