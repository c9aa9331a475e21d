"""Keyword groups and helpers shared by the kinds' recognisers, and the candidate they return.

Each kind's `recognise` (sim/preferences/kinds/kNN_*.py) scores a text from the shared `Facts` with
these groups; a pattern only one kind uses lives in that kind's module instead.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from sim.official.timebase import DAY
from sim.preferences.text import rx
from sim.preferences.text.extract import Clock, Facts, PlaceRef, km_spans


@dataclass(frozen=True)
class Claim:
    kind: str
    score: float
    params: dict[str, Any]
    # where a param came from when it is not written in the text itself, e.g. {"lat,lng,
    # radius_km": "county table: 番禺区"}: reported with the reading, never guessed silently
    sources: dict[str, str] = field(default_factory=dict)


DAILY = (r"日接单|单日|(?<![\d月])日(?:接单|订单|单量)|每天|每日|每晚|天天|每一天|日日|当天|一天|"
         r"同一天|同日|单日|daily|every day|each day|"
         r"per day|a day|"
         r"same day|any (?:one|single|given) day|in one day|a single day|"
         r"every night|each night|nightly|every 24|each calendar day|each single day")
MONTH = (r"每月|每个月|一个月|月度|本月|这个月|当月|自然月|整月|全月|月内|个月|月份|月结|month|"
         # a month named: 3月 (not a date, 3月5日), March ("may" is a verb too: only "in May")
         r"(?<!\d)\d{1,2}\s*月(?!\s*\d{1,2}\s*[日号])|\b(?:jan(?:uary)?|feb(?:ruary)?|march|"
         r"april|june|july|aug(?:ust)?|sept(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|"
         r"\b(?:in|for|during|of) may\b")
REST = (r"觉|休整|hours? off(?: the road| duty| work)?\b|off (?:the )?road|完全停着|全程停|整段停|"
        r"just sits|sits\b|sitting|stationary|\bidle\b|parked|休息|歇|停车|熄火|睡|停着|停下|"
        r"停驶|躺|\brest|sleep|asleep|\bbreak\b|off duty|\bpark|"
        r"\bstop(?:ped)?\b|downtime|time off")
REST_REQUIRED = (r"必须|一定|雷打不动|得|要|务必|全程|保证|确保|完整|整段|都要|不能少|must|have to|"
                 r"in full|wholly|"
                 r"has to|"
                 r"need to|required|fully|entire|whole|always|without exception|guarantee|ensure|"
                 r"\bneeds\b|\bfull (?:rest|block|window|stretch)|"
                 # fined for not resting: rest asked for (哪天没有休息好, 有一天不休息罚)
                 r"没有?休息|不休息|全部是\S{0,2}休息")
SLEEP = r"睡觉|睡|熄火|停车休息|停着休息|躺|sleep|asleep|engine off|bed"
# rest said to be optional: a window with no work in it, not one of rest (K3, not K2):
# 歇不歇随我, 睡不睡无所谓, 不用睡, I don't have to sleep, no need to rest, just no work
REST_OPTIONAL = (r"(?:歇|睡|休息)不(?:歇|睡|休息)|"
                 r"(?:歇|睡|休息)(?:觉)?(?:都)?(?:随我|无所谓|没关系|不强求|不要求)|"
                 r"不(?:用|必|需要)(?:歇|睡|休息)|"
                 # 不要求睡觉, 不强求大家休息: rest not asked of whom it names
                 r"不(?:要求|强求|强制|硬性要求)\s*(?:你|您|大家|司机|师傅)?\s*(?:们)?\s*"
                 r"(?:一定)?\s*(?:要)?\s*(?:歇|睡|休息)|"
                 r"(?:don't|do not|doesn't|does not|needn't|need not|no need to|not required to)"
                 r"\s+(?:have to\s+|need to\s+)?(?:sleep|rest)|"
                 r"(?:sleep|rest)(?:ing)?\s+(?:is\s+)?(?:optional|up to me|not required)|"
                 r"just no work")
CONTINUOUS = (r"stretch|一整段|连续|连着|一段|完整|不间断|一口气|整段|一次性|不被打断|囫囵|踏实|"
              r"连轴转|in a row|"
              r"consecutive|"
              r"continuous|uninterrupted|unbroken|straight|at a stretch|one stretch|single block|"
              r"one block|without interruption|back-to-back|solid|one go|block of|non-stop")
# a place's loads in words: 接台山的货, 在台山装或者在台山卸 (K18, not visits to the place, K17)
PLACE_LOADS = r"接[^，。,;；]{0,8}货|装[^，。,;；]{0,8}卸"
NO_WORK = (r"暂停接单|不要调度|不调度|禁止空驶|禁止接单|不要开车|别开车|不要装卸|不能装卸|"
           r"(?:shall|must|may|will) not (?:operate|drive|run|move)|不得作业|不得驾驶|"
           r"(?:shall|must|may|should|will) not be (?:driven|loaded|unloaded|used|moved|operated)|"
           r"won't (?:take|drive|accept|work|move)|"
           r"not (?:want|wanna|like) (?:to )?(?:be )?(?:take|drive|work)|"
           # work in the window is what is fined ("只要那天有干活 就罚")
           r"只要[^，。；;]{0,12}有在?干活|"
           # Cantonese beside English: 唔做嘢, 唔好 schedule 任何 driving
           r"唔做嘢|唔开工|唔好\s*(?:schedule|drive|load|take|接)|"
           r"(?:don't|do not) want (?:any |an )?(?:orders?|jobs?|loads?|work|empty)|"
           r"will not (?:take|drive|accept|work)|no empty|别接|别空|别跑|别开|不要接|不要空|"
           r"don't accept|do not accept|not accept|no loads|"
           r"move the truck|不挪|不接单|不接活|不接货|不拉货|不跑车|不开车|不出车|不干活|不空驶|"
           r"不空车|不空跑|不赶路|不揽|别揽|不放空|别放空|不想(?:开车|跑车|出车|动车|接单|干活)|"
           r"不跑|不动车|车不(?:能|许|准|可以)动|不(?:能|许|准)动车|\bquiet\b(?![_ ]until)|"
           r"别派单|别排单|不要派单|不派单|静默|\b(?:i )?(?:don't|dont|do not|won't|wont) work\b|"
           r"(?:shouldn't|should not|won't|will not|can't|cannot|mustn't|must not) (?:be )?"
           r"(?:doing|do) anything|"
           r"(?:truck|car|vehicle) (?:cannot|can't|can not|must not|may not) move|"
           r"停驶时段|禁行时段|"
           r"(?:each|every|any)\s+(?:time\s+)?step\s+you\s+(?:drive|work|move)|"
           # a step worked in the window fined; a meal break given its window as a key's
           # value ("lunch_break: {from: 11:30, to: 13:00}", "[午休] from=12:00 to=13:30")
           r"(?:each|every|any)\s+(?:time\s+)?step\s+(?:worked|driven|moved)\s+(?:inside|in|during)|"
           r"(?:午休|午饭|晚饭|吃饭|lunch(?: break)?|meal break|dinner(?: break)?)\s*[:：]\s*"
           r"(?:from\s+)?\d{1,2}:\d{2}\s*(?:-|~|to|到|至)\s*\d{1,2}:\d{2}|"
           r"you (?:drive|work|move) (?:inside|in|during) (?:that|this|the) (?:hour|window|time|"
           r"period|break)|"
           # driving or an order in the window is what is fined (这个时间开车或者做单，每一次罚50)
           r"(?:这个|这段|那个|那段)时间(?:里|内)?\s*(?:开车|做单|接单|跑车|干活)[^。;；]{0,12}罚|"
           r"不派|别派|不接|不开|不干|不要接|不能接|不得接单|禁止接单|停止接单|不准|不许|不能跑|"
           r"不能开|别让车动|不让车动|车别动|别动车|(?:别|不要|不用)(?:给我)?(?:安排|派)|"
           r"no orders?|not take|no driving|not drive|don't drive|do not drive|no work|not work|"
           r"stay off|stop working|don't take|do not take|never take|no (?:new )?(?:jobs|loads|"
           r"cargo)|"
           r"no (?:empty|deadhead)|not (?:run|move|drive)|nothing moves|no moving|no repositioning|"
           r"don't (?:run|move|work)|do not (?:run|move|work)|never (?:drive|run|move|work)|"
           r"avoid (?:driving|taking|working)|off the road|without (?:taking|driving)|"
           r"not be (?:driving|working|moving)|no jobs?|no trips?|"
           r"(?:don't|do not|never|no)\s+(?:send|give|assign|dispatch|offer|hand)\w*\s+(?:me\s+)?"
           r"(?:any\s+|new\s+)?(?:orders?|jobs?|loads?|work)")
REFUSE = (r"禁运|禁拉|禁装|禁止承接|禁接|不干(?!净|活)|"
          # 别再拉, 不准拉, 不得承接: a refusal word before a load verb
          r"(?:别|不准|不许|不得|不能|不可|不要)(?:再)?(?:拉|接|运|装|承接|承运)|"
          r"banned|prohibited|forbidden|excluded|exclude|not allowed|no-go|"
          r"不接|不承运|不予承接|不承接|不受理|不予|不拉|推掉|干不了|拉不了|运不了|装不了|接不了|不运|不要|"
          r"别要|别派|别给|拒接|没有?兴趣|不感兴趣|"
          r"拒绝|避开|不碰|不做|一律不|尽量不|不想|不愿|不去|不跑|别接|别拉|别运|"
          r"不能接|不得接|禁止|不揽|谢绝|不装|不载|排除|不考虑|never|don't|do not|refuse|avoid|"
          r"\bno\b(?!\s+(?:fewer|less|more|later|earlier)\b)|won't|will not|decline|not take|"
          r"not haul|not carry|skip|turn down|reject|"
          r"rather not|prefer not|stay away|keep away|keep (?:it|them|those|that|these) away|"
          r"nothing|exclude|off the table|off[- ]limits|"
          r"not for me|count me out|pass on|no thanks|不要派|别派给|\b(?:are|is) out\b|"
          r"out of the question|off my list|no way|not on my (?:truck|lorry|vehicle)|"
          r"keep\b.{0,30}\boff my (?:truck|lorry)")
LIMIT = (r"不得超过|不超过|不超|"
         r"不能超过|不可超过|不要超过|别超过|超过|最多|至多|顶多|以内|之内|不大于|"
         r"上限|封顶|"
         r"at most|no more than|not more than|max(?:imum)?|up to|limit|not exceed|must not exceed|"
         r"or less|"
         r"or under|控制在|go over|以上|above|or more|≤|<=|<|≦|不高于|cap\b|"
         r"under|below|less than|within|beyond|over|exceed|more than|longer than|cap")
AT_LEAST = (r"≥|>=|≧|至少|不少于|不短于|不小于|"
            r"起码|最少|满|以上|不低于|保证|接够|达到|够|at least|minimum|"
            r"no fewer|"
            r"not fewer|no less|not less|or more|a minimum of|min\.?")
WEEKDAYS = (r"平日|工作日|周一至周五|周一到周五|星期一到星期五|星期一至星期五|周一~周五|weekdays?|"
            r"monday (?:to|through|-) friday|mon-fri|workdays?|working days?|business days?")


def hit(f: Facts, pattern: str) -> bool:
    return rx.search(pattern, f.kw, re.I) is not None


def hits(f: Facts, *patterns: str) -> int:
    return sum(1 for p in patterns if hit(f, p))


def span(f: Facts) -> tuple[Clock, Clock] | None:
    """The first two clocks joined by a span connector (至, 到, ~, -, and, to, until)."""
    cs = f.clocks
    pair = None
    pairs = [(a, b) for a, b in itertools.pairwise(cs)
             if len(f.num[a.end:b.start]) <= 14 and rx.search(
                 r"至|到|~|-|and|to|until|till|through|直到|一直|起", f.num[a.end:b.start], re.I)]
    if pairs:
        pair = pairs[0]
        # "may only drive between 05:30 and 23:00. From 23:00 until 05:30 ... off the road":
        # the hours allowed come first, the rule's window is the span that follows
        if len(pairs) > 1 and rx.search(r"only|只许|只能|只准|只在|只可以|允许",
                                        f.low[max(0, pair[0].start - 24):pair[0].start]):
            pair = pairs[1]
    if pair is None and len(cs) >= 2:
        pair = (cs[0], cs[1])
    if pair is None and len(cs) == 1:
        # a start and a length ("from noon, ninety minutes", 12点起两个小时): the end follows
        a = cs[0]
        d = next((m for m, p in f.durations if a.end <= p <= a.end + 14
                  and rx.search(r"from|起|开始|for", f.num[max(0, a.start - 8):p], re.I)), None)
        if d is not None and 0 < d < DAY:
            end = (a.minutes + int(d)) % DAY
            pair = (a, dataclasses.replace(a, minutes=end, start=a.end, bare=False))
    if pair is None:
        return None
    a, b = pair
    if b.bare and a.minutes >= 720 and b.minutes < 720 and b.minutes + 720 > a.minutes:
        b = dataclasses.replace(b, minutes=b.minutes + 720)
    elif b.bare and not a.bare and 600 <= a.minutes < 720 and b.minutes < 360:
        # 中午十一点半到一点半: a midday span ends in the afternoon
        b = dataclasses.replace(b, minutes=b.minutes + 720)
    elif a.bare and not b.bare and b.minutes < a.minutes < 720:
        # (最晚)十一点到早上六点: a span ending in the stated morning starts the evening before
        a = dataclasses.replace(a, minutes=a.minutes + 720)
    return a, b


# what a rule about a place's loads says in the clause that names the place
LOADS_AT = (r"装|卸|起运|送达|始发|到达|\bload|unload|pick ?up|pickup|drop|deliver|"
            r"start(?:s|ing)? in|end(?:s|ing)? in|to or from|from or to|going to|coming from")


def rule_place(f: Facts, cue: str = LOADS_AT) -> PlaceRef | None:
    """The place the rule is about: the first named in a clause that says `cue` (the loads'
    place, "在揭阳装货或卸货"), else the first named ("我在梅州跑了十二年，老客户大多在揭阳。
    ...在揭阳装货": 揭阳, not where the driver lives)."""
    if not f.places:
        return None
    cuts = [0] + [m.end() for m in rx.finditer(r"[,，。;；:：!?]|\.(?!\d)", f.num)] + [len(f.num)]
    for p in f.places:  # the value of a place's key ("place: 台山", "city = 惠州") first
        if rx.search(r"(?i)\b(?:place|city|region)\s*[:=]?\s*$|(?:地点|城市|地区)\s*[:：=]?\s*$",
                     f.num[max(0, p.start - 12):p.start]):
            return p
    for p in f.places:
        a = max(c for c in cuts if c <= p.start)
        b = min(c for c in cuts if c > p.start)
        if rx.search(cue, f.num[a:b], re.I):
            return p
    return f.places[0]


def from_date(f: Facts) -> bool:
    """The text's one date opens a standing rule (3月15号以后, from the 10th onwards): when the
    rule starts, not a day the rule is about."""
    return len(f.dates) == 1 and rx.match(r"\s*(?:以后|之后|起|开始|往后|onwards|on\b|and after)",
                                          f.num[f.dates[0].end:], re.I) is not None


def int_before(f: Facts, unit: str, *, after: int = 0) -> list[tuple[int, int]]:
    """Integers directly followed by a unit pattern, as (value, position); a count of fines
    (扣一次, 罚1次, charged once) is not one."""
    not_count = r"(?<![\d.:])(?<!第)(?<!扣)(?<!罚)(?<!扣钱)(?<!罚款)"
    return [(int(float(m.group(1))), m.start()) for m in
            rx.finditer(not_count + r"(\d+(?:\.\d+)?)\s*(?:" + unit + r")", f.low[after:], re.I)
            if not fine_unit(f.low, after + m.start())
            and not day_unit(f.low, after + m.start())]


def day_unit(t: str, pos: int) -> bool:
    """The number at pos is one day as the unit of a rate, not a count of days: a fine's
    (扣300元1天), a daily cap's (1天最多接2单, 1天之内不超过3单) or the same day (同1天多接的)."""
    if not rx.match(r"1\s*(?:天|日|晚)", t[pos:pos + 4]):
        return False
    money = rx.search(r"\d\s*(?:元|块)(?:钱)?\s*/?\s*$|同\s*$", t[max(0, pos - 6):pos])
    cap = rx.match(r"1\s*(?:天|日|晚)\s*(?:之内|以内|内|里)?\s*(?:最多|至多|顶多|不超过|不得超过|"
                   r"不能超过|只能|只接|限)", t[pos:pos + 14])
    return money is not None or cap is not None


def fine_unit(t: str, pos: int) -> bool:
    """The number at pos is the unit of a fine, not a limit or a quota: 少一单罚八十, 多1单扣50,
    超1次赔 (but 最多2单, 至少5单, 不少于3单 are limits)."""
    # 违反一天扣200, 做不到一天扣300: a day broken is the fine's unit, no count of days
    before = rx.search(r"(?:(?<![最至顶起不])(?:少|多)|(?<!不)超|差|缺|违反|违规|做不到|"
                       r"没做到|达不到)\s*$",
                       t[max(0, pos - 3):pos])
    fine = rx.match(r"\d+(?:\.\d+)?\s*\S{0,2}?\s*[,，]?\s*(?:扣|罚|赔|支付|违约金|付)",
                    t[pos:pos + 12])
    # 一天罚300, 一次扣200: one of a unit, then the fine, is "a day", "a time": the fine's unit
    per_one = rx.match(r"1\s*(?:天|日|晚|次|单|趟)\s*(?:就|都)?\s*(?:扣|罚|赔)", t[pos:pos + 8])
    return (before is not None and fine is not None) or per_one is not None


# a distance that is the unit of a rate or a price, not a bound ("一公里油钱一块多",
# "百公里油耗28升", "4 km to the litre", "一百公里要烧35升", "超1公里扣3块")
_KM_RATE = (r"\s*(?:的)?\s*(?:油|油钱|油耗|要烧|烧|大概|就要|to the lit|per lit|a lit|on a lit|"
            r"of diesel|扣|罚|赔|收|yuan|rmb|元|块|costs?|is fined|fine)")
# a bound said before the distance, or after it
_KM_BOUND_BEFORE = (r"(?:超过|不超过|不能超过|不得超过|别超过|最多|至多|顶多|上限|限|以|控制在|"
                    r"within|under|below|at most|no more than|not more than|max(?:imum)?|up to|"
                    r"exceed|over|beyond|more than|limit|cap(?:ped)?|stay)[^,，。;；:：!?]{0,12}$|"
                    # "the cap for any single order is 300 km": a limit noun, then the number
                    r"\b(?:cap|limit|maximum)\b[^,，。;；:：!?]{0,30}\b(?:is|of|at)\s*$")
_KM_BOUND_AFTER = r"\s*(?:以内|之内|内|以下|为限|or less|at most|max)"


def km_after_limit(f: Facts) -> float | None:
    """The rule's distance: the first km bound (a limit word before it or after it in its
    clause), else the first distance that is no rate's unit, else the first."""
    kms = km_spans(f.num)
    if not kms:
        return None
    low = f.num.lower()
    plain = [(v, a, b) for v, a, b in kms if not rx.match(_KM_RATE, low[b:], re.I)]
    bounded = [v for v, a, b in plain
               if rx.search(_KM_BOUND_BEFORE, low[max(0, a - 48):a], re.I)
               or rx.match(_KM_BOUND_AFTER, low[b:], re.I)]
    return bounded[0] if bounded else (plain or kms)[0][0]


def hit_outside_caps(f: Facts, pattern: str) -> bool:
    """`hit`, outside the fine's cap (本月本条违约金累计不超过700 says how the fine is capped,
    not that the rule is a monthly total)."""
    low = f.low
    for a, b in f.cap_spans:
        low = low[:a] + " " * (b - a) + low[b:]
    return rx.search(pattern, low, re.I) is not None


def names_a_day(f: Facts) -> bool:
    """The text dates its rule: it names a day other than its month's bounds. A month's first
    and last day (本协议有效期内（2026年3月1日至2026年3月31日）, from 1 March 2026 to 31 March
    2026) or its last day alone (a to-do's "到期：3月31日", "due 31 Mar") are the rule's
    validity, no dated rule; the monthly quotas lose score only to a day of their own."""
    import calendar
    isos = {d.iso for d in f.dates}
    if not isos:
        return False
    months = {(d.year, d.month) for d in f.dates}
    if len(months) != 1:
        return True
    (y, m), = months
    last = f"{y}-{m:02d}-{calendar.monthrange(y, m)[1]:02d}"
    return isos not in ({f"{y}-{m:02d}-01", last}, {last})


def fmt(minutes: int) -> str:
    minutes %= 1440
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# -- groups and helpers used by several kinds' recognisers --

DAYS_UNIT = (r"个整天|整天|个自然日|自然日|天|日(?!期)|个[^\d,，。;；:月]{0,5}?(?:日|天)|"
             r"(?:[a-z-]+\s+){0,3}days?\b")


OFF_FULL = (r"空驶|空车|空跑|出车|静止|停驶|不动|检修|保养|完全歇|彻底歇|完全休息|完全停|一动不动|"
             r"(?:接单|订单)[^。;；]{0,4}?不(?:要)?(?:开|动)车|车也不(?:开|动)|整天休息|全休息|"
             r"full[- ]off|0 empty km|"
             r"00:00\s*(?:~|-|至|到)\s*24:00|0点到24点|全天|趴窝|"
             r"not move|no driving|stationary|parked all day|zero (?:movement|moving|driving)|"
             r"midnight to midnight|completely off|fully off|"
             r"no (?:movement|moving|repositioning)|truck (?:stays|remains|doesn't move)|idle|"
             r"not (?:drive|driving|run|running)|no empty|deadhead|neither|nor|whole day|"
             r"entire day|full days? off|off the road|maintenance|rest completely|parked")


NO_ORDERS = (r"free of (?:orders|jobs|loads|work)|"
              r"什么活都不接|啥活都不接|什么单都不接|都不接|no-order|无单日|without orders|零接单|"
              r"\brest\b|\bdays? off\b|不接任何|放假|休假|"
              r"放.{0,3}天假|一单(?:都|也)?不(?:接|拉|跑|干)|"
              r"一单都没有|zero orders?|no any orders?|not a single order|无订单|无单|没单|没有单|"
              r"不接单|不接活|不跑单|没(?:有)?跑单|"
              r"没有订单|没有?接单|零单|放空|不拉货|不干活|歇|不揽|"
              r"休息|停工|no orders?|without (?:any )?orders|"
              r"order-free|not take any|no jobs?|no loads?|take nothing|not accept|days? off|"
              r"rest days?|"
              r"without work|don't work|not work|free days?")


def min_days(f: Facts) -> int | None:
    vals = [v for v, _ in int_before(f, DAYS_UNIT) if 0 < v <= 31]
    if not vals and hit(f, r"\bdays?\b|整天"):  # "days off: at least 2 per month"
        vals = [v for v, _ in int_before(f, r"(?:per|a|each|every)\s+month|/\s*month")
                if 0 < v <= 31]
    return vals[0] if vals else None


ORDERS = (r"个(?=单|订单|活|\s*$|\s*[，。,.；;])|(?:[a-z-]+\s+){1,2}(?:orders?|jobs?|loads?|trips?|"
          r"runs?|hauls?)\b|单|笔|趟|票|次|"
          r"个订单|个单|orders?|jobs?|loads?|trips?|runs?|hauls?|shipments?|consignments?")


DAYS_N = (r"个不同的(?:自然)?日子?|个不同的?(?:自然)?日|个自然日|天|日子|次(?!性)|"
          r"(?:distinct|different|separate|unique|individual|calendar|other)?\s*(?:calendar\s+)?"
          r"days\b|times\b")


ENTER = (r"不许进|不让进|不能进|进过|进入过|进去过|"
         r"(?:shall|must|may|will|do|does) not enter|never enter|no entry|"
         r"(?:is|are) not to (?:enter|go into)\b|"
         r"not be (?:present|found|located) (?:within|inside|in)\b|"
         r"anywhere near|away from|stay .{0,20}away|keep (?:me |the truck )?out of|stay out of|"
         r"(?:don't|dont|do not|never) (?:drive|go) (?:in|into)\b|"
         r"禁入|禁区|no-go|no go|"
         r"going in at all|entering at all|"
         r"exclusion|禁止驶入|别开进|不开进|开进去|驶入|进去|进到|不得进入|"
         r"不进入|不想进入|不要进入|别进|不进|(?:不能|不可|不准|不许|不得|不要)(?:去|进)|绕开|别去|莫去|甭去|别往|别靠近|"
         r"避开|远离|不靠近|禁止进入|不能进入|"
         r"不准进入|禁行|不准入|不要入|clear of|keep .{0,12}clear|"
         r"不去|不往|never enter|avoid|stay out|keep out|do not enter|don't enter|no entry|"
         r"not go into|"
         r"stay away|keep away|not (?:drive|go) (?:into|near)|never go|not enter|off[- ]limits|"
         r"forbidden")


HAUL = (r"单笔|单趟|loading (?:point|place|site)s? (?:and|to) (?:the )?unloading|\bapart\b|"
        r"装货点至卸货点|装货点到卸货点|装货地到卸货地|装卸距离|装卸点距离|运距|运输距离|"
         r"一趟|单程|一单\s*(?:的路|距离)?\s*(?:超过|超出|不超过|最多|最远|大于)|"
         r"货物运输|拉货距离|路程|全程|装货到卸货|起点到终点|haul|trip length|route length|"
         r"load(?:ed)? distance|pickup to (?:delivery|drop)|distance between (?:the )?pickup|"
         r"transport distance|loaded (?:leg|trip|run)|delivery distance|pickup-to-drop|"
         r"from pickup to|from loading to|door to door|each (?:order|job|load)|single (?:order|job|"
         r"load)|"
         r"long-haul|long haul|origin to destination|start to end|loading-to-unloading|"
         r"loading to unloading|pickup-to-delivery|pickup and delivery|装货到卸货|装到卸|起运|送达|"
         r"delivery legs?|loaded legs?|start(?:ing)? point to (?:the )?end(?:ing)? point")


# where the driver stands: a distance from it is the way to the next pickup (K8), never a haul
HERE = (r"现在的位置|当前位置|所在位置|我在的地方|where i am|where i'm|of me\b|from me\b|"
        r"my (?:current )?(?:location|position)")
PICKUP = (r"接单后|赴装货点|赶去装货|去装货|到装货点|去装货点|前往装货|空驶去|空车去|空跑去|"
           r"接货路上|去接货|提货|取货|现在的位置|当前位置|所在位置|所在地|"
           r"current (?:location|position)|go (?:and|to) load|"
           r"那一程|过去装|到装货地|pickup|pick-up|pick up|to the loading|empty (?:run|drive|"
           r"driving|leg) to|"
           r"deadhead to\b|drive empty to\b|reach the (?:pickup|loading)|to get to the|"
           r"to the (?:pickup|"
           r"shipper)|getting to the load")


EMPTY = (r"空驶|空车|空跑|空载|放空|白跑|跑空|空着跑|没拉货|没装货|"
         r"empty|deadhead|unloaded|without (?:a )?load|"
          r"with no load\b")


RADIUS = r"半径|radius|圆心|circle"


TOTAL = (r"together|all my|整个月|whole month|entire month|"
         r"all of|里程|mileage|plus|加上|包括|including|总|累计|总和|合计|"
          r"加起来|加一起|加一块|加在一块|加在一起|合起来|一共|共计|总共|"
          r"总量|total|altogether|in total|sum|cumulative|"
          r"combined|overall|all together|added up")


# The named keyword groups a reading reports as fired (reading.py): the evidence a
# user reads to judge a parse, not a score.
GROUPS: dict[str, str] = {
    "daily": DAILY, "month": MONTH, "rest": REST, "required": REST_REQUIRED, "sleep": SLEEP,
    "continuous": CONTINUOUS, "no_work": NO_WORK, "refuse": REFUSE, "limit": LIMIT,
    "at_least": AT_LEAST, "weekdays": WEEKDAYS, "full_off": OFF_FULL, "no_orders": NO_ORDERS,
    "enter": ENTER, "haul": HAUL, "pickup": PICKUP, "empty": EMPTY, "radius": RADIUS,
    "total": TOTAL,
}
