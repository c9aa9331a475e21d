"""A correction that names the date it replaces: "改到了3月14号、15号（不是12、13号）", "on 28
and 29 March, not 21-22 March", "the 9th instead of the 7th".

The replaced dates are no days of the rule, yet every date in a text is read as one: the dated
keep-out covered four days where its correction says two (the old two as well). So a date
said right after "不是 / 而非 / not / instead of / rather than", on its own up to the end of its
clause or bracket, is dropped, when the sentence names another date before it (the one that
stands). A date a rule refuses ("不是周末的3月7号也不去", "do not go on 21 March") runs on
into more words, or has no date before it, and is left as written.
"""

from __future__ import annotations

import re

from sim.preferences.text import months, rx

_N = r"[\d零〇一二两三四五六七八九十]{1,3}"
# 12、13号, 3月12号, 3月12日至14日: a day or a list of days, its month optional
_DAY_ZH = rf"(?:\d{{4}}\s*年\s*)?(?:{_N}\s*月\s*)?{_N}\s*(?:号|日)?"
_DAYS_ZH = (rf"{_DAY_ZH}(?:\s*(?:、|,|和|及|与|至|到|~|-)\s*{_DAY_ZH})*"
            r"(?:\s*(?:这|那)?[两三几]?天)?")
_NOT_ZH = r"(?:而)?(?:不是|并非|而非)"
_MON = rf"(?:{months.MONTH_NAMES_EN})\b\.?"
_D = r"\d{1,2}(?:st|nd|rd|th)?"
_LIST = rf"{_D}(?:\s*(?:-|to|and|&|,|or)\s*(?:the\s+)?{_D})*"
# 21-22 March, March 21 and 22, the 21st
_DATE_EN = rf"(?:(?:the\s+)?{_LIST}(?:\s+(?:of\s+)?{_MON})?|{_MON}\s+{_LIST})"
_NOT_EN = r"(?:not|instead of|rather than)"
# what a date stated before the replaced one looks like
_A_DATE = (rf"{_N}\s*(?:月|号|日)|\d{{1,2}}(?:st|nd|rd|th)\b|\b\d{{1,2}}\s+{_MON}|"
           rf"\b{_MON}\s+\d{{1,2}}\b")


def _replaced(t: str, m: re.Match[str]) -> bool:
    """The match says a date (a day's word or a month) after another date in its sentence."""
    if not rx.search(r"号|日|月|\d(?:st|nd|rd|th)\b|" + _MON, m.group("d"), re.I):
        return False
    sentence = rx.split(r"[。!?！？;；\n]|\.(?!\d)\s", t[:m.start()])[-1]
    return rx.search(_A_DATE, sentence, re.I) is not None


def without_replaced_dates(text: str) -> str:
    """`text` without the dates a correction replaces (the module's doc)."""
    if not rx.search(_NOT_ZH + r"|(?i:\b" + _NOT_EN + r"\b)", text):
        return text
    pats = (
        # （不是12、13号）
        rf"[(（]\s*{_NOT_ZH}\s*(?P<d>{_DAYS_ZH})\s*[)）]",
        # ，不是12、13号。
        rf"(?<=[,，])\s*{_NOT_ZH}\s*(?P<d>{_DAYS_ZH})(?=\s*(?:[,，。;；!！?？)）]|$))",
        # (not 21-22 March), , not 21-22 March., instead of the 7th
        rf"(?i)\(\s*{_NOT_EN}\s+(?:on\s+)?(?P<d>{_DATE_EN})\s*\)",
        rf"(?i)(?:(?<=[,;])|(?<=\s))\s*(?:but\s+|and\s+)?{_NOT_EN}\s+(?:on\s+)?"
        rf"(?P<d>{_DATE_EN})(?=\s*(?:[,;:)!?]|\.(?!\d)|$))",
    )
    t = text
    for pat in pats:
        t = _drop(pat, t)
    return t


def _drop(pat: str, t: str) -> str:
    """`t` with each match of `pat` that replaces a date blanked."""
    return rx.sub(pat, lambda m: " " if _replaced(t, m) else m.group(0), t)


__all__ = ["without_replaced_dates"]
