"""A rule written as the condition that breaks it, as a dispatch system's rule editor keeps it.

"若 单日接单数 > 3 单 ; 则 超出的每一单扣款 120 元", "IF cargo ∈ {水果} THEN 180 元 per order",
"当 车辆位置 ∉ {lat∈[22.55, 23.45] AND lng∈[113.85, 114.95]} 时, 每个时段罚 100 元": the
kinds read a rule as what is asked (at most 3 orders, no fruit, inside the box), and these say
what is fined, with signs for the comparisons. A text in that form (an opening 若, 如果, 当 or
IF, its consequence 则, 就, 时 or THEN, and a sign of comparison or a set) has its signs
written as words, and the thing fined marked as not allowed where the condition is a thing
done (a set of cargo, a place entered, driving in a window); a condition of something missed
("< 6 天", "does not cover", "未接") is a requirement's shortfall, which the kinds read
as written. Boxes written as intervals (lat∈[22.5, 23.1] AND lng∈[113.1, 113.9]) are read as
latitude and longitude ranges in any text. Any other text is returned as it was.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

_OPEN = r"(?:^|[|;；。.]\s*)(?:若|如果|当|IF\b)"
_THEN = r"则|就|时(?![段间候刻])|\bTHEN\b"
# a bare = (not <=, >=, ==)
_EQUALS = r"(?<![<>!=≥≤\w])=(?!=)"
_SIGN = r"[∈∉<>≥≤≠]|" + _EQUALS
_NUM = r"(\d+(?:\.\d+)?)"
_TIME_UNIT = r"\s*(?:min(?:ute)?s?\b|h\b|hrs?\b|hours?\b|小时|个?钟头|分钟)"
# a condition of something missed: a requirement's shortfall, not a thing done
_MISSED = (r"不足|未|没有?|不在|离开|驶离|leaves?\b|\bnot\b|n't\b|\bno\b|fewer|less|outside|"
           r"before\b|前|after\b|之后|以后|晚于")
_DONE = (r"∈|" + _EQUALS + r"|within|inside|\bin\b|\bis\b|\bever\b|contains?|moving|driving|"
         r"进入|进|在|行驶|行车|开车|有")
# driving in a window, fined: the window's rule is no driving
_DRIVING_ZH = r"(?:有|在)?(?:行车|行驶|开车|动车)"
_DRIVING_EN = r"\b(?:is |are )?(?:moving|driving)\b"
# what a bare count compares: the condition's first counted noun (orders, days)
_COUNTED = r"(orders?|days?|单|天)"


# (pattern, English words, Chinese words), in order: sets and values; a duration over its
# bound names the orders counted (long hauls); a clock over a clock is later than it
_WORDED = (
    (r"∉\s*\{([^}]*)\}", r" outside \1 ", r"不在\1范围内"),
    (r"∈\s*\{([^}]*)\}", r" \1 ", r" \1 "),
    (_EQUALS + r"\s*", " ", " "),
    (r">\s*" + _NUM + r"(?=" + _TIME_UNIT + ")", r" more than \1", r"超过\1"),
    (r">\s*(\d{1,2}:\d{2})", r" after \1", r"晚于\1"),
    (r"<\s*(\d{1,2}:\d{2})", r" before \1", r"早于\1"),
)
_BOUNDS = (
    (r">\s*" + _NUM, r" at most \1", r"最多\1"),
    (r"<\s*" + _NUM, r" at least \1", r"至少\1"),
    (r"≥\s*" + _NUM, r" at least \1", r"至少\1"),
    (r"≤\s*" + _NUM, r" at most \1", r"最多\1"),
)


def _latin(t: str) -> bool:
    return len(rx.findall(r"[A-Za-z]", t)) > len(rx.findall(r"[\u4e00-\u9fff]", t))


def _intervals(t: str) -> str:
    """lat∈[22.55, 23.45] AND lng∈[113.85, 114.95]: latitude and longitude ranges."""
    t = rx.sub(r"(?i)\blat(?:itude)?\s*∈\s*\[\s*" + _NUM + r"\s*,\s*" + _NUM + r"\s*\]",
               r"北纬\1至\2", t)
    return rx.sub(r"(?i)\b(?:lng|lon|longitude)\s*∈\s*\[\s*" + _NUM + r"\s*,\s*" + _NUM +
                  r"\s*\]", r"东经\1至\2", t)


def _condition(t: str) -> tuple[int, int] | None:
    """Where the condition runs: from its opening word to its consequence word, in the rule
    editor's form (IF … THEN in capitals; 若/如果/当 with a sign, or set off by a space)."""
    m = rx.search(_OPEN, t)
    if m is None:
        return None
    then = rx.search(_THEN, t[m.end():])
    if then is None:
        return None
    a, b = m.end(), m.end() + then.start()
    if m.group(0).endswith("IF"):
        return (a, b) if then.group(0) == "THEN" else None
    return (a, b) if rx.search(_SIGN, t[a:b]) or t[a:a + 1].isspace() else None


def _counted(before: str) -> str:
    """The unit a bare number in a comparison counts: the condition's first counted noun
    ("orders taken in one day > 2": orders; "full days off (no orders …) < 2": days)."""
    nouns = rx.findall(_COUNTED, before)
    return f" {nouns[0]}" if nouns else ""


def plain_conditions(text: str) -> str:
    """`text` with its comparison signs written as words (the module's doc)."""
    t = _intervals(text) if "∈" in text else text
    span = _condition(t)
    if span is None:
        return t
    a, b = span
    cond = t[a:b]
    en = _latin(t)
    compared = rx.search(r"[<>≥≤∉]", cond)
    done = (not compared and rx.search(_DONE, cond, re.I)
            and not rx.search(_MISSED, cond, re.I))
    # the signs as words; a set's braces dropped
    for pattern, english, chinese in _WORDED:
        cond = rx.sub(pattern, english if en else chinese, cond)
    # a bare count takes the condition's counted noun, then a count or distance over a bound
    # is what is fined (at most the bound), one under it a quota (at least)
    cond = rx.sub(r"([<>])\s*" + _NUM + r"(?!\d|\.\d|\s*[:A-Za-z\u4e00-\u9fff])",
                  lambda m: m.group(0) + _counted(cond[:m.start()]), cond)
    for pattern, english, chinese in _BOUNDS:
        cond = rx.sub(pattern, english if en else chinese, cond)
    if done and rx.search(_DRIVING_ZH + "|" + _DRIVING_EN, cond, re.I):
        cond = rx.sub(_DRIVING_ZH, "不开车", cond)
        cond = rx.sub(_DRIVING_EN, "no driving", cond, flags=re.I)
    elif done:  # the thing fined is a thing done: not allowed
        cond += " (not allowed) " if en else "（禁止）"
    return t[:a] + cond + t[b:]
