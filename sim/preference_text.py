"""Rules parser from natural-language preference text (English or Chinese) to a Preference.

This is the deterministic PreferenceAgent's parser, and what imports of the competition's
driver files use, where a preference is only `content` text. Place names resolve against the
shipped county table (Chinese or English names).
"""

from __future__ import annotations

import re
from functools import cache

from sim.geo import County, load_counties
from sim.preferences import Place, Preference, PrefKind


class PreferenceParseError(ValueError):
    pass


@cache
def _places() -> dict[str, County]:
    out: dict[str, County] = {}
    for c in load_counties():
        out[c.name_en.lower()] = c
        out[c.name_zh] = c
        short = re.sub(r"(区|县|市|瑶族自治县|壮族瑶族自治县)$", "", c.name_zh)
        if len(short) >= 2:
            out.setdefault(short, c)
    return out


def place(name: str, radius_km: float | None = None) -> Place:
    c = _places().get(name.strip().lower()) or _places().get(name.strip())
    if c is None:
        raise PreferenceParseError(f"unknown place {name!r} (not a Guangdong county name)")
    r = radius_km if radius_km is not None else max(3.0, c.radius_km / 2)
    return Place(c.name_en, c.lat, c.lng, float(r))


_NUM = r"(\d+(?:\.\d+)?)"
_NAME = r"([A-Za-z' ]+?|[\u4e00-\u9fff]+?)"
_MONTHLY = r"(?:every|each|a|per) month"
_RULES: list[tuple[PrefKind, re.Pattern[str]]] = [
    (PrefKind.REST_DAYS, re.compile(rf"rest (?:at least )?{_NUM} days? {_MONTHLY}", re.I)),
    (PrefKind.REST_DAYS, re.compile(rf"每(?:个)?月至少休息{_NUM}天")),
    (PrefKind.VISIT, re.compile(
        rf"(?:go home|be) (?:to|in|at) {_NAME} on at least {_NUM} days? {_MONTHLY}", re.I)),
    (PrefKind.VISIT, re.compile(rf"每(?:个)?月至少{_NUM}天(?:回|去|到){_NAME}[。.]?$")),
    (PrefKind.FORBIDDEN_ZONE, re.compile(
        rf"never (?:enter|drive into|go to) {_NAME}"
        rf"(?: \(within {_NUM} km of its cent(?:re|er)\))?[.]?$", re.I)),
    (PrefKind.FORBIDDEN_ZONE, re.compile(rf"(?:不要|禁止)进入{_NAME}(?:{_NUM}公里范围内)?[。.]?$")),
    (PrefKind.DAILY_EMPTY_KM, re.compile(
        rf"keep empty (?:driving|mileage) (?:under|below) {_NUM} ?km (?:per|a|each) day", re.I)),
    (PrefKind.DAILY_EMPTY_KM, re.compile(rf"每天空驶不超过{_NUM}公里")),
    (PrefKind.NIGHT_NO_DRIVING, re.compile(
        r"(?:do not|don't|never) drive between (\d{1,2}):00 and (\d{1,2}):00", re.I)),
    (PrefKind.NIGHT_NO_DRIVING, re.compile(r"(\d{1,2})点到(\d{1,2})点之间不(?:开车|驾驶)")),
    (PrefKind.ERRAND, re.compile(
        rf"first go to {_NAME}, then (?:go )?to {_NAME}, by day {_NUM}", re.I)),
    (PrefKind.ERRAND, re.compile(rf"先去{_NAME}[，,]再去{_NAME}[，,]第{_NUM}天前完成")),
]


def parse_preference(text: str, penalty_amount: float = 100.0,
                     penalty_cap: float = 1000.0) -> Preference:
    """The structured form of one preference text; PreferenceParseError when no rule fits."""
    t = text.strip()
    for kind, rx in _RULES:
        m = rx.search(t)
        if m is None:
            continue
        g = m.groups()
        base = {"kind": kind, "text": text, "penalty_amount": penalty_amount,
                "penalty_cap": penalty_cap}
        if kind is PrefKind.REST_DAYS:
            return Preference(**base, days=int(float(g[0])))
        if kind is PrefKind.VISIT:
            name, n = (g[0], g[1]) if not g[0].isdigit() else (g[1], g[0])
            return Preference(**base, days=int(float(n)), place=place(name))
        if kind is PrefKind.FORBIDDEN_ZONE:
            r = float(g[1]) if g[1] else None
            return Preference(**base, place=place(g[0], r))
        if kind is PrefKind.DAILY_EMPTY_KM:
            return Preference(**base, km=float(g[0]))
        if kind is PrefKind.NIGHT_NO_DRIVING:
            return Preference(**base, start_hour=int(g[0]) % 24, end_hour=int(g[1]) % 24)
        if kind is PrefKind.ERRAND:
            return Preference(**base, steps=(place(g[0]), place(g[1])),
                              deadline_day=int(float(g[2])))
    raise PreferenceParseError(f"no rule understands the preference text {text!r}")
