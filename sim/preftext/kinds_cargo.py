"""Cargo, mileage, order-count and KPI kinds (K5-K9, K15, K19, K20, K21)."""

from __future__ import annotations

import re

from sim.preftext.common import (
    AT_LEAST,
    DAILY,
    LIMIT,
    MONTH,
    REFUSE,
    Candidate,
    hit,
    int_before,
)
from sim.preftext.extract import Facts, cargo_ids, km_values, months

ORDERS = (r"个(?=单|订单|活|\s*$|\s*[，。,.；;])|(?:[a-z-]+\s+){1,2}(?:orders?|jobs?|loads?|trips?|"
          r"runs?|hauls?)\b|单|笔|趟|票|次|"
          r"个订单|个单|orders?|jobs?|loads?|trips?|runs?|shipments?|consignments?")
PLACE_ENDS = (r"装货地|卸货地|装货|卸货|装卸|起点|终点|发货地|收货地|目的地|始发|出发地|那一路|"
              r"进出|往返|来回|"
              r"发往|运往|去往|拉往|送往|到|从|来自|\bto\b|\bfrom\b|pickup|pick-up|drop|delivery|"
              r"loading|unloading|origin|destination|start|end|bound for|going to|coming from")


def forbidden_cargo_category(f: Facts) -> Candidate | None:
    if not f.categories or not hit(f, REFUSE):
        return None
    score = 2.5 + 0.5 * hit(f, r"品类|类别|类型|种类|这类|这种|category|categor|kind of|type of|"
                               r"goods|"
                              r"cargo|货")
    if hit(f, r"必须接满|接满|考核|kpi|指标|quota|至少接|at least \d+ (?:orders|jobs|loads)"):
        score -= 2.0
    return Candidate("forbidden_cargo_category", score,
                     {"categories": [c for c, _ in f.categories]})


def forbidden_cargo_place(f: Facts) -> Candidate | None:
    if not f.places or not hit(f, REFUSE):
        return None
    score = 1.8 + 0.8 * hit(f, PLACE_ENDS) + 0.4 * hit(f, r"货|cargo|loads?|orders?|jobs?|freight")
    if f.dates:
        score -= 1.5
    if int_before(f, r"个不同的日子|个不同的?(?:自然)?日|天|different days|days|个日子"):
        score -= 1.0
    if f.coords or f.radius is not None:
        score -= 1.0
    return Candidate("forbidden_cargo_place", score, {"place": f.places[0].name_zh})


_HAUL = (r"单笔|装货点至卸货点|装货点到卸货点|装货地到卸货地|装卸距离|装卸点距离|运距|运输距离|"
         r"一趟|单程|"
         r"货物运输|拉货距离|路程|全程|装货到卸货|起点到终点|haul|trip length|route length|"
         r"load(?:ed)? distance|pickup to (?:delivery|drop)|distance between (?:the )?pickup|"
         r"transport distance|loaded (?:leg|trip|run)|delivery distance|pickup-to-drop|"
         r"from pickup to|from loading to|door to door|each (?:order|job|load)|single (?:order|job|"
         r"load)|"
         r"long-haul|long haul|origin to destination|start to end|loading-to-unloading|"
         r"loading to unloading|pickup-to-delivery|pickup and delivery|装货到卸货|装到卸")
_PICKUP = (r"接单后|赴装货点|赶去装货|去装货|到装货点|去装货点|前往装货|空驶去|空车去|空跑去|"
           r"接货路上|去接货|"
           r"那一程|过去装|到装货地|pickup|pick-up|pick up|to the loading|empty (?:run|drive|"
           r"driving|leg) to|"
           r"deadhead to\b|drive empty to\b|reach the (?:pickup|loading)|to get to the|"
           r"to the (?:pickup|"
           r"shipper)|getting to the load")
_EMPTY = (r"空驶|空车|空跑|空载|放空跑|empty|deadhead|unloaded|without (?:a )?load|"
          r"with no load\b")
_RADIUS = r"半径|radius|圆心|circle"
_TOTAL = (r"together|all my|整个月|all of|里程|mileage|plus|加上|包括|including|总|累计|总和|合计|"
          r"加起来|加一起|一共|共计|总共|"
          r"总量|total|altogether|in total|sum|cumulative|"
          r"combined|overall|all together|added up")


def _km(f: Facts) -> float | None:
    kms = km_values(f.num)
    return kms[0][0] if kms else None


def max_haul_km(f: Facts) -> Candidate | None:
    km = _km(f)
    if km is None or not hit(f, LIMIT):
        return None
    score = 1.2 + 1.2 * hit(f, _HAUL) + 0.6 * hit(
        f, r"距离|distance|trip|长途|long-distance|路程|两地")
    if hit(f, _EMPTY) or (hit(f, _PICKUP) and not hit(f, _HAUL)):
        score -= 1.0
    if f.coords or hit(f, _RADIUS):
        score -= 1.5
    return Candidate("max_haul_km", score, {"max_km": km})


def max_pickup_deadhead_km(f: Facts) -> Candidate | None:
    km = _km(f)
    if km is None or not (hit(f, _PICKUP) or hit(f, _EMPTY)):
        return None
    score = 1.2 + 1.0 * hit(f, _PICKUP) + 0.5 * hit(f, _EMPTY)
    if hit(f, _HAUL) and not hit(f, _EMPTY):
        score -= 1.0
    if hit(f, MONTH) and hit(f, _TOTAL):
        score -= 1.5
    if hit(f, r"按公里|per km|per kilometre|per kilometer|每超(?:出)?\s*1?\s*公里|超出部分|excess|"
              r"每公里"):
        score -= 0.8
    if hit(f, r"每单|每次|单次|一次|每一单|each (?:order|job|time)|per (?:order|job)|any single|"
              r"单趟"):
        score += 0.5
    if f.coords or hit(f, _RADIUS):
        score -= 1.5
    return Candidate("max_pickup_deadhead_km", score, {"max_km": km})


def max_total_deadhead_km(f: Facts) -> Candidate | None:
    km = _km(f)
    if km is None or not hit(f, _EMPTY):
        return None
    score = 1.0 + 0.8 * hit(f, MONTH) + 0.8 * hit(f, _TOTAL) + 0.6 * hit(
        f, r"按公里|per km|per kilometre|per kilometer|每超(?:出)?\s*1?\s*公里|超出部分|excess|"
           r"每公里|"
           r"every (?:extra|additional) (?:km|kilomet)|each (?:extra|additional) (?:km|kilomet)|"
           r"(?:every|each|per) km over|km over")
    if hit(f, DAILY) and not hit(f, MONTH):
        score -= 1.0
    if f.coords or hit(f, _RADIUS):
        score -= 1.5
    return Candidate("max_total_deadhead_km", score, {"max_km": km})


def max_orders_per_day(f: Facts) -> Candidate | None:
    vals = int_before(f, ORDERS) or [
        (int(m.group(1)), m.start()) for m in
        re.finditer(r"(?:cap|limit|max(?:imum)?|上限|最多)\s*(?:is|为|是|"
                    r":)?\s*(\d+)(?!\d|\.\d)", f.low)]
    if not vals or not hit(f, DAILY + r"|同一天|同日|单日|一天之内|in a single day|on any day"):
        return None
    score = 1.8 + 0.6 * hit(f, LIMIT)
    if hit(f, MONTH) and not hit(f, DAILY):
        score -= 1.5
    if f.categories or f.durations:
        score -= 1.0
    return Candidate("max_orders_per_day", score, {"max_orders": vals[0][0]})


def must_take_cargo(f: Facts) -> Candidate | None:
    ids = cargo_ids(f.text)
    if not ids:
        return None
    score = 3.0 + 0.5 * hit(f, r"必接|mandatory|必须|一定|指定|临时约定|熟货|老客户|must|have to|"
                               r"make sure|"
                              r"guarantee|promised|agreed")
    return Candidate("must_take_cargo", score, {"cargo_id": ids[0]})


_QUOTA_N = re.compile(r"(?<![\d.])(\d+)\s*(?:个|笔)?\s*(?:[「『“\"][^」』”\"]{1,12}[」』”\"]\s*|"
                      r"(?:[a-z-]+\s+){0,2})?(?:单|笔|票|趟|orders?|jobs?|loads?|trips?)", re.I)


def monthly_category_quota(f: Facts) -> Candidate | None:
    """Each month mention opens a segment holding its category and count; with carry wording
    the latest month is the rule and an earlier one is carry_from."""
    if not f.categories:
        return None
    counts = [(int(m.group(1)), m.start()) for m in _QUOTA_N.finditer(f.low)]
    counts += [(int(m.group(1)), m.start()) for m in
               re.finditer(r"(?:quota|target|kpi)\s*(?:of|:)?\s*(\d+)", f.low)]
    if not counts:
        return None
    score = 1.5 + 1.0 * hit(f, r"考核|kpi|指标|必须接满|接满|至少|不少于|起码|quota|target|"
                               r"at least|"
                              r"minimum|no fewer|完成|达到") + 0.3 * hit(f, MONTH)
    if hit(f, REFUSE) and not hit(f, AT_LEAST + r"|考核|kpi|quota"):
        score -= 1.5
    mentions = [(c, p) for c, p in _all_categories(f)]
    ms = months(f.num)
    bounds = [p for _, p in ms] + [len(f.low)]
    segs = []
    for i, (mo, p) in enumerate(ms):
        lo, hi = (0 if i == 0 else p), bounds[i + 1]
        cat = next((c for c, q in mentions if lo <= q < hi), None)
        if cat is None:  # "the 「建材」 orders I fell short on in May (May quota: 4)"
            before = [c for c, q in mentions if q < lo]
            cat = before[-1] if before else None
        cnt = next((v for v, q in counts if lo <= q < hi), None)
        if cat is not None and cnt is not None:
            segs.append((mo, cat, cnt))
    carry_words = hit(f, r"欠|补|carry|shortfall|make up|owed|owe|结转|顺延|累加|叠加|带到|backlog|"
                          r"\bleft\b|fell short|short on|on top|remaining|leftover|remainder|"
                          r"unfinished|没完成|未完成|没接够")
    if not segs:
        main = (ms[0][0] if ms else "2026-03", mentions[0][0], counts[0][0])
        return Candidate("monthly_category_quota", score - 0.3,
                         {"category": main[1], "month": main[0], "min_orders": main[2],
                          "carry_from": None})
    main = max(segs, key=lambda g: g[0])
    carry = None
    earlier = [g for g in segs if g[0] < main[0]]
    if carry_words and earlier:
        prev = max(earlier, key=lambda g: g[0])
        carry = {"category": prev[1], "month": prev[0], "min_orders": prev[2]}
    elif not carry_words:
        main = segs[0]
    return Candidate("monthly_category_quota", score,
                     {"category": main[1], "month": main[0], "min_orders": main[2],
                      "carry_from": carry})


def _all_categories(f: Facts) -> list[tuple[str, int]]:
    from sim.preftext.extract import canonical_category
    out = []
    for m in re.finditer(r"[「『“\"]([^」』”\"]{1,20})[」』”\"]", f.num):
        c = canonical_category(m.group(1))
        if c:
            out.append((c, m.start()))
    if out:
        return out
    return f.categories


def _prev_month(m: str) -> str:
    y, mo = int(m[:4]), int(m[5:7])
    return f"{y - 1}-12" if mo == 1 else f"{y}-{mo - 1:02d}"


def monthly_long_haul_cap(f: Facts) -> Candidate | None:
    hs = list(f.durations)
    counts = int_before(f, ORDERS + r"|(?:a|per|each|every)\s+month|每月|每个月|/\s*月|/\s*month")
    if not hs or not counts or not hit(f, MONTH):
        return None
    score = 2.0 + 0.6 * hit(f, r"远活|长途|大半天|长活|long|far|big job|超过|大于|超出|more than|"
                               r"over|exceed|"
                               r"longer than") + 0.3 * hit(f, LIMIT)
    if f.categories:
        score -= 1.0
    after = [v for v, p in counts if p > hs[0][1]] or [counts[-1][0]]
    return Candidate("monthly_long_haul_cap", score,
                     {"threshold_minutes": int(hs[0][0]), "max_per_month": after[0]})


RECOGNISERS = (forbidden_cargo_category, forbidden_cargo_place, max_haul_km,
               max_pickup_deadhead_km, max_total_deadhead_km, max_orders_per_day, must_take_cargo,
               monthly_category_quota, monthly_long_haul_cap)
_ = re
