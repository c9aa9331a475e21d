"""A rule written in Chinese and sent through a translation app or an online translator.

"Every day night 10 point half before must return home", "One day most receive 3 single
order, many out one single deduct 200 yuan/single", "3 month 8 day, 9 day these two day",
"the month accumulate fine most 1500 yuan sealing top": the app renders each Chinese word
on its own (点 a point, 单 a single, 拉货 pull goods, 封顶 sealing top, 三月八号 3 month 8
number) in Chinese word order. A text that reads so (one of these renderings, in a text with
no more Chinese than a word in brackets) has them written as plain English, which the kinds
read; any other text is returned as it was.

A fluent translator writes grammatical English but renders the trade's words its own way
(空驶 "no-load running", "idle driving"; 单 "tickets", "bills"; 罚款 "a forfeit of 200",
"punishment of 200", "200 yuan is deducted"; 封顶 "the maximum cumulative fine is", "in total
not more than"): `plain_terms` writes those as the kinds' words in any English text, as none
of them means anything else in a rule.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

from sim.official.timebase import EPOCH
from sim.preferences.text import rx

# renderings no English writer uses: one of them makes a text a translation
# "one single fine 800" is an order and its fine; English says "a single fine", "a single haul"
_NOT_ORDER = r"(?!\s+(?:haul|load|trip|job|drop|run|day))"
_A_SINGLE = r"\ba single\b(?!\s+(?:haul|load|trip|job|drop|run|day|fine|charge|penalty|time|\d))"
_CUE = (r"(?i)\b\d{1,2} point(?: half)?\b(?![\s.]*\d)|\b(?:\d+|one|many|more|each|every|the|"
        rf"this|per|that) single\b{_NOT_ORDER}|{_A_SINGLE}|"
        r"\bpull (?:goods|one|\d)|\bnot pull\b|\bfine money\b|\bsealing top\b|"
        r"\b\d{1,2} month \d{1,2} (?:day|number)\b|\b\d{1,2} number\b|\brest breath\b|"
        r"\bopen car\b|\bkilometer inside\b|\breceive (?:single|order|\d)|\bmany out\b|"
        r"\bsurpass\b|\bcount arrive\b|\bhave single\b|\bnoon-sleep\b|\bempty single\b|"
        r"\bwhole piece\b|\bone time one time\b|\bgo in each time\b|\bcar can move\b|"
        r"\bfirst single\b|\bpoint in the (?:morning|afternoon|evening)\b|\baccumulate\b|"
        r"\b\d+(?:\.\d+)? kilometer\b|\bnot go in\b|\bin inside\b|\bat least [2-9]\d* day\b|"
        r"\bevery one step\b|"
        r"\b(?:Shen Zhen|Dong Guan|Hui Zhou|Zhu Hai|Chao Zhou|Zhan Jiang|Guang Zhou|Fo Shan|"
        r"Zhong Shan|Jiang Men|Zhao Qing|Shao Guan|Mao Ming|Shan Tou|Qing Yuan|Yang Jiang|"
        r"Mei Zhou|Yun Fu|Jie Yang|He Yuan)\b|"
        r"\bweek (?:one|two|three|four|five|six|day)\b|\blong road\b")

_MONTH = calendar.month_name[EPOCH.month]


def _clock(m: re.Match[str]) -> str:
    """night 10 point half -> 22:30 (groups: part of the day, hour, half, minutes)."""
    return _hhmm(m.group(1), int(m.group(2)), 30 if m.group(3) else int(m.group(4) or 0))


def _hhmm(part: str | None, h: int, minute: int) -> str:
    """The clock a part of the day and an hour on the 12-hour dial say: the part says which
    half of the day."""
    part = (part or "").lower()
    if part in ("afternoon", "evening", "night") and 1 <= h < 12 and not (
            part == "night" and h <= 4):
        h += 12
    elif part in ("night", "midnight") and h == 12:
        h = 0
    elif part == "noon" and 1 <= h <= 3:
        h += 12
    return f"{h:02d}:{minute:02d}"


def _date(m: re.Match[str]) -> str:
    month = int(m.group(1)) if m.group(1) else EPOCH.month
    return f"{calendar.month_name[month]} {int(m.group(2))}" if 1 <= month <= 12 else m.group(0)


_REWRITES: tuple[tuple[str, str], ...] = (
    # money: 罚款 fine money, 封顶 sealing top, 累计最多罚 accumulate most fine
    (r"\bfine money\b", "fine"),
    (r"(?:,\s*)?(?:the month |this month |a month |one month )?(?:accumulate |total )?"
     r"(?:fine most|most fine) (\d+(?:\.\d+)?) ?(?:yuan)?(?: sealing top)?(?=[\s.,;]|$)",
     r", monthly cap \1"),
    (r"(?:,\s*)?(?:the month |this month |a month |one month )?(?:accumulate |total )?"
     r"most (\d+(?:\.\d+)?) ?(?:yuan )?sealing top\b", r", monthly cap \1"),
    (r"(?:,\s*)?(?:the month |this month |a month |one month )?accumulate most "
     r"(\d+(?:\.\d+)?) ?yuan\b", r", monthly cap \1"),
    (r"\bsealing top\b", "cap"),
    (r"\b(?:many|more) out one single\b|\b(?:more|many) one single\b|"
     r"\bsurpass one single\b|\bover one single\b|"
     r"\bthe \d+(?:st|nd|rd|th) single start each single\b", "each extra order"),
    (r"\bless one single\b", "each order short"),
    (r"(?<=\d) ?yuan ?/ ?single\b", " yuan per order"),
    (r"(?<=\d) ?yuan ?/ ?day\b", " yuan per day"),
    # orders: 单 single, 接单 receive order, 拉货 pull goods
    (r"\b(\d+) single(?: orders?)?\b", r"\1 orders"),
    (rf"\b(one|each|every|the|this|that|per) single\b{_NOT_ORDER}", r"\1 order"),
    (_A_SINGLE, "an order"),
    (r"\bhave single\b", "have orders"), (r"\bempty single day\b", "day without orders"),
    (r"\breceive (?:single|order)s?\b", "take orders"), (r"\breceive one\b", "take one"),
    (r"\bnot receive\b", "do not take"), (r"\bno receive\b", "do not take"),
    (r"\bnot pull\b", "do not carry"), (r"\bpull\b", "carry"),
    (r"\bopen car\b", "drive"), (r"\bempty car (?:running|run)\b", "empty driving"),
    (r"\brest breath\b", "rest"), (r"\bnoon-sleep\b", "nap"), (r"\beat rice\b", "lunch"),
    (r"\blong road\b", "long haul"),
    # quantities: 超过 surpass, 不超过 no over, 最多 most N
    (r"\bnot surpass\b|\bno over\b|\bnot over\b", "no more than"),
    (r"\bsurpass\b", "more than"),
    (r"(?<!at )(?<!the )\bmost (?=\d)", "at most "),
    # places and distances: 1公里以内 1 kilometer inside, 公里 public-li
    (r"\bpublic-li\b|\bkilometer number\b", "km"),
    (r"\b(?:in )?(\d+(?:\.\d+)?) kilometers? inside\b", r"within \1 km"),
    (r"\bcount arrive(?: home)?\b", "counts"),
    # categories as the app renders them
    (r"\bchemical industry(?: and)? plastics?\b", "chemicals and plastics"),
    (r"\bcoal(?: and)? minerals?\b", "coal and minerals"),
    (r"\bbuilding materials?\b", "building materials"),
    (r"\bfresh live water products?\b|\blive water products?\b", "live seafood"),
    # 一天 one day (a day's count or fine), 要 want before a verb
    (r"\bone day\b(?! (?:and|or)\b)", "each day"),
    (r"\bwant (?=(?:carry|go|have|rest|take|be|stay|return)\b)", ""),
    # counts with the noun's plural the app leaves out: 6 day, 30 minute, 7 hour
    (r"\b(\d+) days? empty single days?\b", r"\1 days without orders"),
    (r"\b(\d+) days? (?:do not take|not receive) any orders?\b", r"\1 days without orders"),
    (r"\bcar can move\b", "empty driving allowed"),
    (r"\b(\d+(?:\.\d+)?) (day|hour|minute|kilometer)\b(?!s)", r"\1 \2s"),
    (r"\bkilometers?\b", "km"),
    (r"\bfirst single\b", "first order"), (r"\bevery one step\b", "each step"),
    (r"\bin inside\b", "inside"),
    (r"\b(?:cannot|can not|not) go in\b", "do not enter"),
    (r"\bnot go\b", "do not go to"),
    (r"\b(\d{2}:\d{2}) (before|after)\b", r"\2 \1"),
    (r"(?<=[.,;] )(?:not|no) do(?= fine)|^(?:not|no) do(?= fine)", "missed"),
    # times: 一次 one time
    (r"\bone time one time count\b", "each time counted"), (r"\bone time\b", "once"),
)


def plain_translation(text: str) -> str:
    """`text` in plain English where it reads as a translation app's, else as it was."""
    if rx.search(_CUE, text) is None or len(rx.findall(r"[\u4e00-\u9fff]", text)) > 12:
        return text
    t = text
    # clocks first: "night 10 point half", "morning 6 point", "0 point half"
    t = rx.sub(r"(?i)\b(?:(morning|noon|afternoon|evening|night|midnight)\s+)?(\d{1,2})"
               r"\s*point(?:\s+(half)|\s+(\d{1,2})\s*(?:minutes?|min))?\b(?![\s.]*\d)",
               _clock, t)
    t = rx.sub(r"(?i)\b(\d{1,2})\s*point(?:\s+(half))? in the (morning|afternoon|evening)\b",
               lambda m: _hhmm(m.group(3), int(m.group(1)), 30 if m.group(2) else 0), t)
    # place names spelt by the syllable: Shen Zhen, Hui Zhou City; old spellings
    t = rx.sub(r"\b(Guang|Shen|Dong|Hui|Zhu|Chao|Zhan|Jiang|Zhao|Shao|Mao|Shan|Fo|Qing|Yang|He|Mei|"
               r"Yun|Jie|Zhong)\s(Zhou|Zhen|Guan|Hai|Jiang|Men|Qing|Ming|Tou|Shan|Yuan|Fu|Yang)\b",
               lambda m: m.group(1) + m.group(2).lower(), t)
    t = rx.sub(r"\bSwatow\b", "Shantou", t)
    t = rx.sub(r"\bCanton\b", "Guangzhou", t)
    # dates: "3 month 12 day", "March 5 number", "11 number"
    t = rx.sub(r"(?i)\b(\d{1,2}) month (\d{1,2}) (?:day|number)\b", _date, t)
    t = rx.sub(rf"(?i)\b(?:{_MONTH}) (\d{{1,2}}) number\b", lambda m: f"{_MONTH} {m.group(1)}", t)
    t = rx.sub(rf"(?i)(?<={_MONTH} )(\d{{1,2}})((?:,| and| to)\s+)(\d{{1,2}}) (?:day|number)\b",
               lambda m: f"{m.group(1)}{m.group(2)}{_MONTH} {m.group(3)}", t)
    t = rx.sub(r"(?i)\b(\d{1,2}) number\b", lambda m: f"{_MONTH} {m.group(1)}", t)
    for pat, rep in _REWRITES:
        t = rx.sub("(?i)" + pat, rep, t)
    return t


_TERMS: tuple[tuple[str, Any], ...] = (
    # 空驶: running without a load
    (r"\b(?:no-load|empty-load|unladen|idle)\s+(?:running|driving|travel(?:l?ing)?)"
     r"(?:\s*\(driving without (?:goods|cargo|a load)\))?(?:\s+mileage)?",
     "empty driving"),
    (r"\b(?:running|driving) empty\b", "empty driving"),
    # 单: an order said as a ticket, a bill or a piece
    (r"\bpieces? of orders?\b", "orders"), (r"\btickets\b", "orders"), (r"\bticket\b", "order"),
    (r"\b(each|every|per|one|a|such) bills?\b(?! of lading)", r"\1 order"),
    # 罚款: the fine said as a punishment, a forfeit, a deduction
    (r"\b(?:a |one )?(?:punishment|forfeit)(?: of)?\s+(?=(?:¥|rmb|cny)?\s*\d)", "a fine of "),
    (r"\b(?:is |are |be )?punished(?: with| by)?\s+(?=(?:¥|rmb|cny)?\s*\d)", "fined "),
    (r"\bbe fined\b", "fined"),
    (r"(?<![\d.])(\d+(?:\.\d+)?)\s*(yuan|rmb)\s+(?:is|are|will be|shall be) deducted\b",
     r"a fine of \1 \2"),
    # 封顶: the month's most
    (r"\bthe (?:maximum|max) (?:cumulative|total|monthly) (?:fine|penalty|forfeit|punishment)s?"
     r"(?: for the (?:whole )?month)? (?:is|of)\s+", "capped at "),
    (r"\bthe total (?:fine|penalty|forfeit|punishment)s? (?:for|in) the (?:whole )?month "
     r"(?:is )?(?:no|not) more than\s+", "capped at "),
    (r"\b(?:in total|in all|altogether)\s*,?\s*(?:no|not) more than\s+(?=\d)", "capped at "),
    (r"\b(?:for the (?:whole )?month|for the month|in the month),?\s*(?:at most|no more than|"
     r"not more than|up to)\s+(?=\d)", "capped at "),
    (r"\bup to (\d+(?:\.\d+)?)\s*(?:yuan|rmb)?\s*in total(?: for the (?:whole )?month)?",
     r"capped at \1"),
    # a count per time step said "counted once" (每个时段记一次): each step, not one fine
    (r"((?:each|every) time step[^.;]{0,80}?)\b(?:is |are )?count(?:ed|s) (?:once|one time)\b",
     r"\1counts as one step"),
    # 不接单的天数 said "days without taking orders"; 不得进入 "must not be in"
    (r"\bwithout taking (?:any )?orders\b", "without orders"),
    (r"\b(?:must|shall|should|may) not be (?:in|inside)\b", "must not enter"),
    (r"\b(?:are|is) not (?:transported|carried|hauled|accepted)(?: by me)?\b", "are refused"),
    # 晚上十点 said "10 o'clock at night", 22点 "22 o'clock"
    (r"\b(\d{1,2}) o'clock (?:at night|in the evening|p\.?m\.?)",
     lambda m: f"{int(m.group(1)) % 12 + (0 if int(m.group(1)) == 12 else 12):02d}:00"),
    (r"\b(\d{1,2}) o'clock(?= (?:in the morning|the next morning|next morning|a\.?m\.?))",
     lambda m: f"{int(m.group(1)):02d}:00"),
    (r"\b(1[3-9]|2[0-3]) o'clock\b", r"\1:00"),
    # 车不动: the truck does not move at all (no driving, not only no orders)
    (r"\b(?:the )?(?:truck|car|vehicle) (?:don't|doesn't|does not|do not|dont|doesnt) move"
     r"(?: at all)?\b", "no driving at all"),
    # 北纬 / 东经 said in full
    (r"\bnorth latitude\b", "latitude"), (r"\beast longitude\b", "longitude"),
    # 鲜活水产品
    (r"\blive aquatic products?\b", "live seafood"),
)


def plain_terms(text: str) -> str:
    """`text` with a translator's words for the trade's (see the module's docstring) written as
    the kinds read them; a text with none of them, or in Chinese, is returned as it was."""
    if rx.search(r"[a-zA-Z]{3}", text) is None:
        return text
    t = text
    for pat, rep in _TERMS:
        t = rx.sub("(?i)" + pat, rep, t)
    return t
