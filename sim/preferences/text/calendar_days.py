"""Days said by the calendar, as dates: "三月第二个星期三", "the third Friday of March", "last
Saturday of the month", "the Monday after the 15th".

A driver names a day the way a calendar shows it; the kinds' readers know dates. The month is
the one the phrase names, else the competition's (`EPOCH`); a phrase whose day does not exist
(a fifth Monday the month lacks) is left as written.
"""

from __future__ import annotations

import calendar
import re

from sim.official.timebase import EPOCH
from sim.preferences.text import rx

_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_EN_WEEKDAY = {d.lower(): i for i, d in enumerate(calendar.day_name)}
_ZH_ORD = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
_EN_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
           "4th": 4, "fifth": 5, "5th": 5, "last": -1, "final": -1}
_ZH_MONTH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
             "十": 10, "十一": 11, "十二": 12}
_EN_MONTH = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}


def nth_weekday(year: int, month: int, weekday: int, n: int) -> int | None:
    """The day of the month of its `n`th `weekday` (0 = Monday; n = -1: the last), or None."""
    days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1)
            if calendar.weekday(year, month, d) == weekday]
    if n == -1:
        return days[-1]
    return days[n - 1] if 1 <= n <= len(days) else None


def _zh_month(s: str | None) -> int:
    if not s or s in ("本月", "这个月", "当月", "今个月"):
        return EPOCH.month
    s = s.rstrip("月份")
    return int(s) if s.isdigit() else _ZH_MONTH.get(s, EPOCH.month)


def _zh(m: re.Match[str]) -> str:
    month = _zh_month(m.group(1))
    n = -1 if m.group(2) is None else _ZH_ORD[m.group(3)]
    d = nth_weekday(EPOCH.year, month, _ZH_WEEKDAY[m.group(4)], n)
    return m.group(0) if d is None else f"{month}月{d}日"


def _en(m: re.Match[str]) -> str:
    month = _EN_MONTH.get((m.group(3) or "").lower(), EPOCH.month)
    d = nth_weekday(EPOCH.year, month, _EN_WEEKDAY[m.group(2).lower()],
                    _EN_ORD[m.group(1).lower()])
    return m.group(0) if d is None else f"{d} {calendar.month_name[month]}"


def _en_after(m: re.Match[str]) -> str:
    """the Monday after the 15th: the first such weekday after that day (of the month named,
    else the competition's)."""
    month = _EN_MONTH.get((m.group(3) or "").lower(), EPOCH.month)
    day, weekday = int(m.group(2)), _EN_WEEKDAY[m.group(1).lower()]
    last = calendar.monthrange(EPOCH.year, month)[1]
    d = next((x for x in range(day + 1, last + 1)
              if calendar.weekday(EPOCH.year, month, x) == weekday), None)
    return m.group(0) if d is None else f"{d} {calendar.month_name[month]}"


_WD_EN = "|".join(calendar.day_name)
_MONTH_EN = "|".join(m for m in calendar.month_name if m)


def as_dates(t: str) -> str:
    """`t` with each calendar phrase it holds written as a date."""
    if rx.search(r"第|最后|(?i:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final|"
                 r"after)", t) is None:
        return t
    # 三月第二个星期三, 本月最后一个周六, 第三个礼拜五
    t = rx.sub(r"((?:[一二三四五六七八九十]{1,2}|\d{1,2})月(?:份)?|本月|这个月|当月|今个月)?(?:的)?"
               r"(?:(第)\s*([一二三四五1-5])\s*个|最后(?:一)?个)\s*(?:星期|周|礼拜)([一二三四五六日天])",
               _zh, t)
    # the third Friday of March, the last Saturday of the month, March's first Monday
    t = rx.sub(rf"(?i)(?:the\s+)?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final)"
               rf"\s+({_WD_EN})(?:\s+(?:of|in)\s+(?:the\s+month|this\s+month|({_MONTH_EN})))?",
               _en, t)
    # the Monday after the 15th (of March)
    return rx.sub(rf"(?i)(?:the\s+)?({_WD_EN})\s+after\s+the\s+(\d{{1,2}})(?:st|nd|rd|th)?"
                  rf"(?:\s+of\s+({_MONTH_EN}))?", _en_after, t)
