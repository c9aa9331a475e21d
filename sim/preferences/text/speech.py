"""A rule dictated by voice and sent through a phone's speech recognition, uncorrected.

"一天最多跑四单 呃不对不对 是三单 超出来的 每多一单罚两白块", "我家 北纬23点2105 东经113点2731
一点五工里以内", "every night I break it it's a two fifty fine", "within to K I mean two K":
a recogniser writes the sound right and the character wrong (工里 for 公里, 两白 for 两百, 十店半
for 十点半, 第一担 for 第一单, 修息 for 休息, 发三百 for 罚三百, "for hundred", "to K"), digits
and numerals mix (1百5, 1千5百), coordinates are read out with 点 for the decimal point
(二十四点二八八六, 二三点三七九零), amounts in English are said as hundreds and tens ("one
twenty", "two fifty"), and the speaker corrects a value mid-sentence (the corrected value is
the rule). Each is rewritten as the kinds read it; a text with none of them is returned as it
was. Number words are this module's own: `extract` imports it.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}
_ZH_NUM = "零〇一二两三四五六七八九十百千"
_ZH_DIGITS = "零〇一二三四五六七八九"

# a sound written with the wrong character, in the context that makes it a number's word
_HOMOPHONES = (
    (r"工里|公理(?=\s*(?:以内|之内|内|范围|左右|[,，。；;]|$))", "公里"),
    (r"(?<=[一二两三四五六七八九十\d])白(?=\s*(?:块|元|[一二三四五六七八九]|[,，。；;\s]|$))",
     "百"),
    (r"修息", "休息"),
    (r"(?<=[一二两三四五六七八九十\d])店(?=\s*(?:半|钟|[零一二三四五六七八九十\d]|之前|以前|前|以后|"
     r"之后|后))", "点"),
    (r"(?<=第[一二两三四五六七八九十\d])担|(?<=[一二两三四五六七八九十\d])担(?!心|保|任|子)", "单"),
    (r"(?<!出)(?<!开)发(?=\s*[一二两三四五六七八九十\d][零〇一二两三四五六七八九十百千\d]*\s*"
     r"(?:块|元|[,，。；;\s]|$))", "罚"),
)

_EN_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9}
_EN_TENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
            "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
            "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_DIGIT_SAID = {**_EN_ONES, "zero": 0, "oh": 0}
_ONES = "|".join(_EN_ONES)
_TENS = "|".join(sorted(_EN_TENS, key=len, reverse=True))
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|"
           "december")
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
            "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
            "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
            "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
            "thirtieth": 30}
_CUE = (r"工里|公理|[一二两三四五六七八九十\d][白店担]|修息|发\s*[一二两三四五六七八九十\d]|"
        r"\d[百千]|"
        r"点[零〇一二三四五六七八九]{2}|\d点\d{2}|不对|说错|[呃嗯啊额哦]\s*不是|"
        r"(?i:\bI mean\b|\bno sorry\b|"
        rf"\bno wait\b|\b(?:{_ONES})[\s-]+(?:{_TENS})\b|\bfor\s+(?:hundred|thousand)\b|"
        r"\b(?:to|too)\s+K\b|\w\s+K\b|\bbucks?\b|"
        r"\b(?:is|it's)\s+\w+(?:[\s-]\w+){0,3}\s*(?:[.,;]|$)|"
        rf"\b(?:{_MONTHS})\s+\w+(?:st|nd|rd|th)\b|\s(?:a|per)\s+step\b|"
        r"\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\s+[a-z]+)|"
        r"最多罚到|号\s*[一二三四五六七八九十\d]{1,3}号")

# a corrected value: the number said first and its unit, the words that take it back, the
# number said instead (kept)
_ZH_TAKEN_BACK = re.compile(
    rf"[{_ZH_NUM}\d.]+\s*[\u4e00-\u9fff]{{0,3}}\s*[,，]?\s*"
    r"(?:(?:[呃嗯啊额哦]\s*)?(?:不对不对|不是不是|说错了|口误|不对)|[呃嗯啊额哦]\s*不是)"
    r"\s*[,，]?\s*(?:应该是|是)?\s*"
    rf"(?=[{_ZH_NUM}\d])")
_EN_NUMBER_WORD = rf"(?:{_ONES}|{_TENS}|hundred|thousand|and|an?|to|too|for|\d+(?:\.\d+)?)"
_EN_TAKEN_BACK = re.compile(
    rf"(?i)\b{_EN_NUMBER_WORD}(?:[\s-]+{_EN_NUMBER_WORD}){{0,4}}"
    r"(?:\s+(?:K|km|kilomet(?:er|re)s?|a\.?m\.?|p\.?m\.?|o'clock|hours?|days?|orders?))?"
    r"\s*,?\s*(?:no,?\s+sorry|no\s+wait|sorry|I\s+mean|no\s+no)\s*,?\s+"
    rf"(?=(?:an?\s+)?(?:{_ONES}|{_TENS}|\d))")


def _zh_int(s: str) -> int | None:
    """二十四 = 24, 一百一十六 = 116, 二三 = 23 (digit by digit), 23 = 23; None if not a
    whole number."""
    if s.isdigit():
        return int(s)
    if all(c in _ZH_DIGIT for c in s):
        return int("".join(str(_ZH_DIGIT[c]) for c in s))
    total, part = 0, 0
    for c in s:
        if c in _ZH_DIGIT:
            part = _ZH_DIGIT[c]
        elif c == "十":
            total += (part or 1) * 10
            part = 0
        elif c == "百":
            total += (part or 1) * 100
            part = 0
        else:
            return None
    return total + part


def _coordinates(t: str) -> str:
    """二十四点二八八六 = 24.2886, 一一六点六七七零 = 116.677, 23点2105 = 23.2105: a latitude
    or longitude of Guangdong read out with 点 for the point. A longitude's whole degrees are
    never a clock's hour; a latitude's (20-25) are, so one is read as a degree only with three
    or more digits after 点, or with two beside a longitude (二十二点五九 一百一十三点零八)."""
    whole = rf"([{_ZH_NUM}]+|\d{{2,3}})"
    frac = rf"([{_ZH_DIGITS}\d]+)"
    pattern = rf"(?<![{_ZH_NUM}\d.]){whole}点{frac}(?![{_ZH_NUM}\d])"

    def value(m: re.Match[str], lo: int, hi: int) -> str | None:
        w = _zh_int(m.group(1))
        if w is None or not lo <= w <= hi:
            return None
        return f"{w}." + "".join(c if c.isdigit() else str(_ZH_DIGIT[c]) for c in m.group(2))

    t = rx.sub(pattern, lambda m: value(m, 109, 117) or m.group(0), t)

    def latitude(m: re.Match[str]) -> str:
        v = value(m, 20, 25)
        if v is None:
            return m.group(0)
        beside = rx.match(r"[^。；;\n]{0,12}?(?<![\d.])1(?:09|1[0-7])\.\d", t[m.end():])
        return v if len(m.group(2)) >= 3 or (len(m.group(2)) >= 2 and beside) else m.group(0)

    return rx.sub(pattern, latitude, t)


def _digit_hundreds(t: str) -> str:
    """1百5 = 150, 2百5 = 250, 3百 = 300, 1千5百 = 1500, 1千2 = 1200: digits before a
    numeral's unit, as a recogniser writes 一百五 and 一千二."""
    t = rx.sub(r"(?<![\d.])(\d)千(\d)百(\d)?(?![\d十])",
               lambda m: str(int(m.group(1)) * 1000 + int(m.group(2)) * 100
                             + int(m.group(3) or 0) * 10), t)
    t = rx.sub(r"(?<![\d.])(\d)百(\d)(?![\d十])",
               lambda m: str(int(m.group(1)) * 100 + int(m.group(2)) * 10), t)
    return rx.sub(r"(?<![\d.])(\d)百(?![\d零〇一二两三四五六七八九十])",
                  lambda m: str(int(m.group(1)) * 100), t)


def _english_hundreds(t: str) -> str:
    """"two fifty" = 250, "one twenty" = 120, "one fourteen point five" = 114.5: an amount or
    a longitude said as its hundreds and the rest, where what follows says so (a fine, a
    unit, "point", "per", "a step") or an amount's verb comes before and the clause ends
    ("it's one eighty."); never a clock ("between three thirty and seven")."""
    def said(m: re.Match[str]) -> str:
        ones = (_EN_ONES[m.group(3).lower()] if m.group(3) else 0)
        return str(_EN_ONES[m.group(1).lower()] * 100 + _EN_TENS[m.group(2).lower()] + ones)

    number = rf"\b({_ONES})[\s-]+({_TENS})(?:[\s-]+({_ONES}))?\b"
    t = rx.sub(rf"(?i){number}(?=\s+(?:point|fine|yuan|bucks?|rmb|kuai|per|each|every|"
               r"one[\s-]time|a (?:step|day|night|order|time)|K|km|kilomet)\b)", said, t)
    for before in (r"(?<=\bit's )", r"(?<=\bis )", r"(?<=\bbe )", r"(?<=\bof )",
                   r"(?<=\bpay )", r"(?<=\bcosts )", r"(?<=\bfine )"):
        t = rx.sub(rf"(?i){before}{number}(?=\s*(?:[.,;]|$))", said, t)
    return t


def _english_words(t: str) -> str:
    """"March fifteenth" = 15 March, "twenty five" = twenty-five (one number, as written),
    "fifty bucks" = fifty yuan, and an amount said last ("each extra one is three hundred",
    "sixty a step") in digits with its currency."""
    ordinals = "|".join(sorted(_ORDINAL, key=len, reverse=True))

    def dated(m: re.Match[str]) -> str:
        tens = {"twenty": 20, "thirty": 30}.get((m.group(2) or "").lower(), 0)
        return f"{tens + _ORDINAL[m.group(3).lower()]} {m.group(1)}"

    t = rx.sub(rf"(?i)\b({_MONTHS})\s+(?:the\s+)?(?:(twenty|thirty)[\s-])?({ordinals})\b",
               dated, t)
    t = rx.sub(r"(?i)\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\s+"
               rf"({_ONES})\b", r"\1-\2", t)
    # "twenty-five K": a compound before its unit, in digits (the kinds read 25 km)
    t = rx.sub(r"(?i)\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-"
               rf"({_ONES})(?=\s+(?:K\b|km\b|kilomet|orders?\b|days?\b|hours?\b|minutes?\b))",
               lambda m: str(_EN_TENS[m.group(1).lower()] + _EN_ONES[m.group(2).lower()]), t)
    t = rx.sub(r"(?i)\b(?:bucks?|kuai)\b", "yuan", t)
    said = (rf"(?:{_ONES}|{_TENS})(?:-(?:{_ONES}))?(?:\s+(?:hundred|thousand)"
            rf"(?:\s+(?:and\s+)?(?:{_ONES}|{_TENS})(?:-(?:{_ONES}))?)?)?")
    amount = rf"({said}|\d+)"

    def value(s: str) -> int | None:
        total = part = 0
        for w in rx.split(r"[\s-]+", s.lower()):
            if w.isdigit():
                part += int(w)
            elif w in _EN_ONES or w in _EN_TENS:
                part += _EN_ONES.get(w) or _EN_TENS[w]
            elif w == "hundred":
                part *= 100
            elif w == "thousand":
                total, part = total + part * 1000, 0
            elif w != "and":
                return None
        return total + part

    def priced(m: re.Match[str]) -> str:
        v = value(m.group(1))
        return m.group(0) if v is None or v < 10 else f"{v} yuan{m.group(2)}"

    end = r"(?:[.,;](?!\d)|$)"  # the clause ends (not a decimal point: "home is 22.52")
    t = rx.sub(rf"(?i)(?<=\bis ){amount}(\s*{end})", priced, t)
    t = rx.sub(rf"(?i)(?<=\bit's ){amount}(\s*(?:{end}|\s+one[\s-]time\b))", priced, t)
    # in words only: "200 per day" already reads as a fine
    return rx.sub(rf"(?i)\b({said})(\s+(?:a|per|each)\s+(?:step|day|order|night)\b)",
                  priced, t)


def plain_speech(t: str) -> str:
    """`t` as the kinds read it (the module's doc)."""
    if not rx.search(_CUE, t):
        return t
    for pat, rep in _HOMOPHONES:
        t = rx.sub(pat, rep, t)
    t = _ZH_TAKEN_BACK.sub("", t)
    # 下午那个，嗯，四点半: the part of the day, fillers, then its clock
    t = rx.sub(r"(上午|下午|晚上|早上|中午|傍晚|凌晨)(?:那个|这个)?\s*[,，]?\s*"
               r"(?:[嗯呃啊额哦]\s*[,，]?\s*)+(?=[零〇一二两三四五六七八九十\d])", r"\1", t)
    t = _EN_TAKEN_BACK.sub("", t)
    t = _coordinates(t)
    t = _digit_hundreds(t)
    t = rx.sub(r"(?i)\bfor(?=\s+(?:hundred|thousand)\b)", "four", t)
    t = rx.sub(r"(?i)\b(?:to|too)(?=\s+K\b)", "two", t)
    t = _english_hundreds(t)
    t = _english_words(t)
    # 最多罚到两千: a cap said "fined up to"; 三月八号九号: two dates said one after the other
    t = rx.sub(r"最多罚到(?=\s*[一二两三四五六七八九十\d])", "最多罚", t)
    t = rx.sub(r"(号)\s*(?=(?:[一二三四五六七八九十]{1,3}|\d{1,2})号)", r"\1、", t)
    # "114 point five four two": the hundreds just written, and the digits said after them
    t = rx.sub(r"(?i)(?<![\d.])(\d+)\s+point((?:[\s-]+(?:zero|oh|one|two|three|four|five|six|"
               r"seven|eight|nine)\b)+)",
               lambda m: m.group(1) + "." + "".join(
                   str(_DIGIT_SAID[w.lower()]) for w in rx.split(r"[\s-]+", m.group(2).strip())),
               t)
    # "twenty five K", "5 K": kilometres said as K (a bare 5K stays thousands)
    return rx.sub(r"(?<=[A-Za-z\d])\s+K\b(?![A-Za-z])", " km", t)
