"""A rule exported by a fleet system or filled into a form, in the units the kinds read.

"radius_m=1200; min_continuous_rest_s=28800; penalty_cny=250.00; count_mode: PER_STEP;
valid_from=2026-03-01T00:00:00+08:00": the kinds read km, minutes, yuan, clocks without
seconds and words. Metres become km (from 100 m, in a text that says no km: a 9.6 m truck
stays a truck, and "500 m... no: within 1 km" keeps its km first), seconds become minutes
(from 60 s), fen become yuan (never a clock's 分), ISO times lose their seconds and zone, enum
values (PER_STEP, ONCE_AT_MONTH_END) and snake_case keys become words; a point or a box said by
its fields (lat=, lng=, lat min/max, S/N/W/E edges) and an errand by the competition's own
fields (w0=, w1=, w_end=) are written as the kinds read them. Any other text is returned
unchanged.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

_CUE = (r"(?i)_[a-z]+\s*[=:]|\b[A-Z]{3,}(?:_[A-Z]+)+\b|\bT\d{2}:\d{2}|\d{1,2}:\d{2}:\d{2}|"
        r"\d\s*(?:米|秒|fen\b|分(?!钟))|\d\s*(?:m|s|sec|seconds?|metres?|meters?)\b|"
        r"\bcny\b|\brmb\b|lat/lon")


def _num(x: float) -> str:
    return f"{round(x, 4):g}"


def plain_units(t: str) -> str:
    """`t` with its values in the kinds' units (the module's doc)."""
    if not rx.search(_CUE, t):
        return t
    zh = rx.search(r"[\u4e00-\u9fff]", t) is not None
    km, mins, yuan = ("公里", "分钟", "元") if zh else (" km", " min", " yuan")
    # 2026-03-20T16:00:00+08:00, 22:30:00: a date and a clock, minutes only
    t = rx.sub(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2})?(?:[+-]\d{2}:?\d{2}|Z)?", r"\1 \2", t)
    t = rx.sub(r"(?<![\d:])(\d{1,2}:\d{2}):\d{2}(?![\d:])", r"\1", t)
    # keys that carry their unit: radius_m=1200, min_dwell_s=3600, penalty_fen: 40000
    t = rx.sub(r"(?i)\b([a-z][a-z_]*?)_(m|s|fen|cny|rmb|yuan)\s*[=:]?\s*(\d+(?:\.\d+)?)",
               lambda m: m.group(1) + " " + {
                   "m": _num(float(m.group(3)) / 1000) + km,
                   "s": _num(float(m.group(3)) / 60) + mins,
                   "fen": _num(float(m.group(3)) / 100) + yuan}.get(
                   m.group(2).lower(), _num(float(m.group(3))) + yuan), t)
    # free units, in a text that says no km: 1500米, 800 m, within 3000 m; 1200秒, 28800 s;
    # 每单15000分 (fen after a fine word), 6000 fen
    if not rx.search(r"(?i)\d\s*(?:km|公里|千米|kilomet)", t):
        t = rx.sub(r"(?i)(?<![\d.])(\d+(?:\.\d+)?)\s*(?:米|metres?|meters?|m\b)"
                   r"(?!\s*(?:长|的车|truck))",
                   lambda m: (_num(float(m.group(1)) / 1000) + km) if float(m.group(1)) >= 100
                   else m.group(0), t)
    t = rx.sub(r"(?i)(?<![\d.:])(\d+)\s*(?:秒|seconds?|secs?|s\b)",
               lambda m: (_num(float(m.group(1)) / 60) + mins) if int(m.group(1)) >= 60
               else m.group(0), t)
    t = rx.sub(r"(?i)(?<![\d.])(\d+(?:\.\d+)?)\s*fen\b", lambda m: _num(float(m.group(1)) / 100)
               + yuan, t)
    if rx.search(r"罚|扣|款|penalt|fine", t, re.I):
        t = rx.sub(r"((?:罚|扣|款|每单|每天|每次|每公里)\s*(?:款)?\s*)(\d{3,}(?:\.\d+)?)\s*"
                   r"分(?![钟之内])",
                   lambda m: m.group(1) + _num(float(m.group(2)) / 100) + yuan, t)
        # 【罚款金额(分)】15000: the unit in the label
        t = rx.sub(r"(罚款[^\d\n]{0,8}?)[(（]分[)）]([^\d\n]{0,4}?)(\d+(?:\.\d+)?)",
                   lambda m: m.group(1) + m.group(2) + _num(float(m.group(3)) / 100) + yuan, t)
    # lat/lon=22.97130/113.12830: a point
    t = rx.sub(r"(?<![\d.])(\d{2}\.\d+)\s*/\s*(\d{3}\.\d+)", r"\1, \2", t)
    # PER_STEP, ONCE_AT_MONTH_END, HOME_CURFEW: words; snake_case keys: words
    t = rx.sub(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b", lambda m: m.group(0).replace("_", " ").lower(), t)
    t = rx.sub(r"\bONCE\b", "once", t)
    t = rx.sub(r"\b([a-z]+)_(?=[a-z])", r"\1 ", t)
    # lat min: 22.1, lat max: 22.9 (a box by its fields); lon for lng; "max orders per day: 5"
    t = rx.sub(r"(?i)\b(lat|lon|lng)\s+min\s*[=:]\s*(\d+(?:\.\d+)?)\W{1,4}\1\s+max\s*[=:]\s*"
               r"(\d+(?:\.\d+)?)", r"\1 \2 to \3", t)
    t = rx.sub(r"(?i)\blon\b", "lng", t)
    # lat=23.1577; lng=113.273 (a point by its fields); S 21.95, N 22.6, W 113.0, E 113.7 (a box
    # by its compass edges); w0=, w1=, w_end= (an errand's window by the competition's fields)
    t = rx.sub(r"(?i)\blat\s*[=:]\s*(\d{2}\.\d+)\s*[;,]?\s*(?:[a-z]+\s+)?lng\s*[=:]\s*(\d{3}\.\d+)",
               r"\1, \2", t)
    edges = dict(rx.findall(r"\b([NSWE])\s+(\d{2,3}\.\d+)\b", t))
    if len(edges) == 4 and len(rx.findall(r"\b[NSWE]\s+\d{2,3}\.\d+\b", t)) == 4:
        t = (f"lat {edges['S']} to {edges['N']}, lng {edges['W']} to {edges['E']}. "
             + rx.sub(r"\b[NSWE]\s+\d{2,3}\.\d+\b,?", "", t))
    t = rx.sub(r"(?i)\bw0\s*[=:]\s*", "from ", t)
    t = rx.sub(r"(?i)\bw1\s*[=:]\s*", "until ", t)
    t = rx.sub(r"(?i)\bw[ _]end\s*[=:]\s*", "stay home until ", t)
    # Daily order cap = 3
    t = rx.sub(r"(?i)\b(?:daily\s+)?order\s+cap\s*[=:]\s*(\d+)", r"at most \1 orders a day", t)
    return rx.sub(r"(?i)\b(max|min)\s+((?:[a-z]+\s){0,3}?[a-z]+)\s*[=:]\s*(\d+)(?!\s*[:.\d])",
                  r"\1 \3 \2", t)
