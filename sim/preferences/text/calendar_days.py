"""Days said by the calendar, as dates: "三月第二个星期三", "the third Friday of March", "last
Saturday of the month", "the Monday after the 15th", and as speech counts them: "头一个礼拜五",
"月底那个礼拜二", "阳历三月初五", "第一个礼拜五再往后两天", "第四个礼拜三的前一天".

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
# 一 to 十二: a month's number, or the day of 初一 to 初十
_ZH_NUMERAL = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
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
    return int(s) if s.isdigit() else _ZH_NUMERAL.get(s, EPOCH.month)


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


# a count of days: 一 to 十, 两, or a digit
_ZH_COUNT = {**_ZH_NUMERAL, "两": 2, **{str(i): i for i in range(1, 10)}}


def _zh_chu(m: re.Match[str]) -> str:
    """阳历三月初五: the fifth of the month (初 with the month or 阳历 named: the solar date;
    no month named: the competition's)."""
    return f"{_zh_month(m.group(1))}月{_ZH_NUMERAL[m.group(2) or m.group(3)]}日"


def _shifted(month: int, day: int, by: int) -> str | None:
    last = calendar.monthrange(EPOCH.year, month)[1]
    d = day + by
    return f"{month}月{d}日" if 1 <= d <= last else None


def _zh_offset(m: re.Match[str]) -> str:
    """3月6日再往后两天, 3月25日的前一天: a day counted from another."""
    n = _ZH_COUNT[m.group(5) or "一"]
    got = _shifted(int(m.group(1)), int(m.group(2)), -n if m.group(4) else n)
    return m.group(0) if got is None else got


def _zh_and_next(m: re.Match[str]) -> str:
    """3月14日，再加上它第二天: both days."""
    month, day = int(m.group(1)), int(m.group(2))
    nxt = _shifted(month, day, 1)
    return m.group(0) if nxt is None else f"{month}月{day}日和{nxt}"


def as_dates(t: str) -> str:
    """`t` with each calendar phrase it holds written as a date."""
    if rx.search(r"第|最后|头一?个|月底|初[一二三四五六七八九十]|(?i:first|second|third|fourth|"
                 r"fifth|1st|2nd|3rd|4th|5th|last|final|after)", t) is None:
        return t
    # 头一个礼拜五 (the first), 月底那个礼拜二 (the last): the ordinal said as speech does
    t = rx.sub(r"头一?个(?=\s*(?:星期|周|礼拜)[一二三四五六日天])", "第一个", t)
    t = rx.sub(r"月底(?:的)?(?:最后)?(?:那)?(?:一)?个(?=\s*(?:星期|周|礼拜)[一二三四五六日天])",
               "最后一个", t)
    # 阳历三月初五: the month's fifth (初X alone may be the lunar calendar's: left as written)
    t = rx.sub(r"(?:阳历|公历|新历)?((?:[一二三四五六七八九十]{1,2}|\d{1,2})月(?:份)?)初"
               r"([一二三四五六七八九十])(?![一二三四五六七八九十\d])|"
               r"(?:阳历|公历|新历)初([一二三四五六七八九十])(?![一二三四五六七八九十\d])",
               _zh_chu, t)
    # 三月第二个星期三, 本月最后一个周六, 第三个礼拜五
    t = rx.sub(r"((?:[一二三四五六七八九十]{1,2}|\d{1,2})月(?:份)?|本月|这个月|当月|今个月)?(?:的)?"
               r"(?:(第)\s*([一二三四五1-5])\s*个|最后(?:一)?个)\s*(?:星期|周|礼拜)([一二三四五六日天])",
               _zh, t)
    # 3月6日再往后两天, 3月6日往后推两天, 3月25日的前一天 / 前两天: a day counted from another
    t = rx.sub(r"(\d{1,2})月(\d{1,2})日(?:那天|那日|那个(?:星期|周|礼拜)[一二三四五六日天])?\s*"
               r"(?:[，,]\s*)?(?:再)?(?:的)?(?:(后|往后|之后|以后|往后推|后推)|(前))"
               r"([一两二三四五六七八九1-9])?天(?!内|以内|之内)",
               _zh_offset, t)
    # 3月14日，再加上它第二天: both days
    t = rx.sub(r"(\d{1,2})月(\d{1,2})日\s*(?:[，,]\s*)?(?:再)?加上(?:它|那)?(?:的)?第二天"
               r"(?:那个(?:星期|周|礼拜)[一二三四五六日天])?",
               _zh_and_next, t)
    # the third Friday of March, the last Saturday of the month, March's first Monday
    t = rx.sub(rf"(?i)(?:the\s+)?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final)"
               rf"\s+({_WD_EN})(?:\s+(?:of|in)\s+(?:the\s+month|this\s+month|({_MONTH_EN})))?",
               _en, t)
    # the Monday after the 15th (of March)
    return rx.sub(rf"(?i)(?:the\s+)?({_WD_EN})\s+after\s+the\s+(\d{{1,2}})(?:st|nd|rd|th)?"
                  rf"(?:\s+of\s+({_MONTH_EN}))?", _en_after, t)
