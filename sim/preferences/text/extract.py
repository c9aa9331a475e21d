"""Shared extractors: numbers, clocks, durations, dates, coordinates, boxes, radii, amounts,
caps, categories, places, cargo ids.

Every kind recogniser reads the same `Facts`, so a phrasing never seen before still yields its
numbers as long as each piece is written in some form these extractors know. Text is first
NFKC-normalised (full-width digits and punctuation become ASCII), then a second "number view"
rewrites Chinese numerals before a unit into digits; keywords are matched on the first view,
numbers on the second.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from sim.categories import CATEGORIES
from sim.geo import PREFECTURE_ALIASES_EN, PREFECTURES_ZH, load_counties
from sim.official.timebase import EPOCH
from sim.preferences.text import (
    calendar_days,
    conditions,
    config,
    corrections,
    dialogue,
    email_thread,
    icalendar,
    markdown,
    months,
    ocr,
    pinyin,
    rewards,
    rx,
    speech,
    translated,
    units,
)

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_CN = "零〇一二两三四五六七八九十百千万"
_UNIT_AFTER = (r"(?=个半|个|半|点|时|小时|钟头|天|日|号|单|次|公里|千米|里|元|块|分钟|分|月|年|周|"
               r"趟|星期|倍|%|米|票|趟|回|笔|整天|自然日|不同|度)")


def cn_to_int(s: str) -> int | None:
    """A Chinese numeral (两, 十二, 五十五, 一百零五, 两千) as an int; None if it is not one."""
    if not s or any(ch not in CN_DIGITS and ch not in CN_UNITS for ch in s):
        return None
    if all(ch in CN_DIGITS for ch in s) and len(s) > 1:  # digit by digit: 二〇二六
        return int("".join(str(CN_DIGITS[ch]) for ch in s))
    total, section, digit, last = 0, 0, None, 1
    for ch in s:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
            if ch in "零〇":
                last = 10  # 一百零五: the digit after 零 is a unit digit
        else:
            unit = CN_UNITS[ch]
            if unit == 10000:
                total += (section + (digit or 0)) * unit
                section, digit, last = 0, None, unit
            else:
                section += (1 if digit is None else digit) * unit
                digit, last = None, unit
    if digit is not None and last >= 100 and s[-1] not in "零〇":
        # spoken shorthand: 一百五 = 150, 两千三 = 2300, 一万二 = 12000
        return total + section + digit * (last // 10)
    return total + section + (digit or 0)


# Dialect words drivers write (Cantonese, northern colloquial) -> the Mandarin the kinds'
# keyword groups know. Only unambiguous words, longest first; a unit word (蚊 yuan, 钟 hour)
# only right after a number.
_DIALECT: tuple[tuple[str, str], ...] = (
    # Cantonese as typed on a phone: 吉车 an empty truck, 200咪 = 200 km, 俾 = give, 跟住 =
    # then, 入面 = inside, 唔入 = not go in; and the homophones a Mandarin input method slips
    # into (公理 for 公里, 发 for 罚 before an amount)
    # a second language's forms: 2个公里, 少一个单 (a measure word before the unit),
    # 150公里超过的话 (the verb after its number), 装货地方 for 装货地, 3公里里面 (within),
    # 要拉12个以上 (orders counted in 个), "我 rest 的时间" (the English word for 休息)
    (r"(?<=[\d一两])\s*个\s*(?=公里|千米|单)", ""),
    (r"(\d+(?:\.\d+)?)\s*(公里|千米|km|个?小时|单|天)\s*(?:超过|以上)的话", r"超过\1\2的话"),
    (r"(装货|卸货)地方", r"\1地"), (r"(?<=公里|千米)\s*里面", "以内"),
    (r"(?<=[拉接跑])\s*(\d+)\s*个(?=以上|多)", r"\1单"),
    (r"(?<=[\u4e00-\u9fff])\s*rest\s*(?=[\u4e00-\u9fff,，。.]|$)", "休息"),
    (r"吉车", "空车"), (r"(?<=[\d零〇一二两三四五六七八九十百千])\s*咪", "公里"), (r"公理", "公里"),
    (r"(?<![出开收批沙头])发(?=\s*(?:\d|[一二两三四五六七八九十百千]))", "罚"),
    (r"(?<=[晚天单次])发(?=\s*\d)", "罚"),
    (r"俾", "给"), (r"跟住", "然后"), (r"入面", "里面"), (r"(?<=[唔不])入(?![口货])", "进入"),
    (r"返到", "回到"), (r"亦都", "也"), (r"(?i)over\s*咗", "超过了"),
    (r"(?i)\bpick\s*(?=货)", "装"), (r"(?i)full\s*(?:day\s*)?off|完全\s*off", "整天休息"),
    (r"(?i)full\s*day\s*(?=休息)", "整天"), (r"照行", "照样开"),
    # Hong Kong and Taiwan usage: orders counted in 张 (３张单, 每多一张), 公尺 (metres), 隔天
    (r"(?<=[\d零〇一二两三四五六七八九十多每第])\s*张(?:单)?", "单"), (r"公尺", "米"),
    (r"隔天", "第二天"), (r"(星期|周|礼拜)一\s*(?:至|到|-|~)\s*五", r"\1一到\1五"),
    (r"开工", "开车"), (r"零(?:订单|单)", "不接单"),
    # 最少要去6日, 唔够4日: a count of days in Cantonese, after the verb it counts
    (r"(?:(?<=[去做够有跑])|(?<=off))\s*(\d{1,2})\s*日(?![期子前后内起号\d])", r"\1天"),
    (r"返到屋企|返屋企", "回家"), (r"屋企", "家"), (r"唔系", "否则"), (r"唔喺", "不在"),
    (r"唔该", "谢谢"), (r"唔好", "不要"), (r"唔", "不"), (r"冇", "没"), (r"嘅", "的"),
    (r"喺", "在"), (r"咗", "了"), (r"(?<=[我你佢他她])系(?=[\u4e00-\u9fff])", "是"),
    (r"嗰", "那"), (r"畀", "给"), (r"同埋", "和"), (r"啲", "些"), (r"嘢", "东西"),
    (r"揸车", "开车"),
    (r"瞓觉|瞓", "睡觉"), (r"晌午", "中午"), (r"唞", "歇"),
    # northern and central Mandarin: 后晌 (afternoon), 后半夜, 一大早, 天擦黑; 莫 (别); 屋 (家)
    (r"后晌", "下午"), (r"后半夜", "凌晨"), (r"一大早", "早上"), (r"天?擦黑", "傍晚"),
    (r"头晌|前晌", "上午"), (r"半夜三更", "半夜"), (r"莫得", "没有"),
    (r"莫(?=[给派排接跑开动去拉进让])", "别"), (r"屋头|屋里头", "家"),
    (r"(?<=[回到我在收])屋(?![企子顶])", "家"), (r"(?<=[等待])起(?=\s*(?:至少|起码|最少|\d|"
     r"[一二两三四五六七八九十半]))", ""),
    # 顶多 = 最多; 首个订单: the first order
    (r"顶多", "最多"), (r"首个订单|首个单", "第一单"),
    # 问：一天最多接几单？ / 答：四单: the answer in the question's place
    (r"问\s*[:：]\s*([^？?]*?)几\s*(单|天|个小时|小时|公里|次)\s*[？?]\s*/?\s*答\s*[:：]\s*"
     r"([零〇一二两三四五六七八九十百千\d.]+)\s*(?:单|天|个小时|小时|公里|次)?", r"\1\3\2"),
    (r"(?:请勿|不要|勿|别)安排(?:任何)?\s*(?:jobs?|工作|活儿?|订单|单)", "不接单不开车"),
    (r"罚个(?=[\d零〇一二两三四五六七八九十百千])", "罚"),
    (r"不(?:向其|向他|给他|给其)(?:派发|派送|指派)", "不接"),
    (r"(?:当日|当天)?可(?:以)?(空车行驶|空车跑|空驶|空车调度)", r"\1可以"),
    # 空驶不限: empty driving unlimited, so allowed (a day without orders, K13)
    (r"(空驶|空车|空跑)\s*不限", r"\1可以"),
    # 每个调度时段单独计一次, 每個 timeslot 独立计算一次: each slot on its own
    (r"(?:独立|单独)计(?:算)?(?:一次)?", "单独算"),
    # 只罚一道, 顶多罚一回, 进去过一回, 每动一回: a count of times said as 回 or 道 (not
    # "每走一步就罚一回", once a step); 一回八十块: each time
    (r"(?:(?<=只罚)|(?<=最多罚)|(?<=只扣)|(?<=最多扣))\s*(?:一|1)\s*(?:回|道)", "一次"),
    (r"(?<=[过动跑进去])一回", "一次"),
    (r"(?<=[，,；;])\s*一回\s*(?=[\d零〇一二两三四五六七八九十百千]+\s*(?:块|元))", "每次罚"),
    (r"(?<!煎饼)果子", "水果"), (r"煤啊矿啊|煤呀矿呀|煤和矿", "煤炭矿产"),
    # 在中山有活儿: orders there; 倒没啥 (no matter): allowed
    (r"有活儿?(?![动力])", "有单"), (r"倒?没(?:啥|什么)(?:事|关系|问题)?(?=[。，,；;]|$)", "可以"),
    # 按一分钟两块钱罚: a price by the minute
    (r"按\s*(?:每)?\s*(?:一)?\s*分钟\s*([\d零〇一二两三四五六七八九十百]+)\s*(?:块|元)钱?\s*"
     r"(?:来)?(?:罚|扣|算)", r"每分钟罚\1元"),
    (r"(?:派|排)活儿?", "派单"), (r"(\d{1,2})\s*号\s*(?=\d{1,2}\s*号)", r"\1号、"),
    (r"第二朝", "第二天早上"), (r"朝早|朝头早", "早上"), (r"下昼", "下午"),
    (r"晏昼", "中午"), (r"挨晚", "傍晚"), (r"夜晚", "晚上"), (r"第二日", "第二天"),
    (r"架车", "车"), (r"郁", "动"), (r"行入|揸入", "进入"), (r"连住", "连着"), (r"俺", "我"),
    (r"啥", "什么"), (r"甭", "别"), (r"(?<![月\d])一日(?!期)", "一天"), (r"同一日", "同一天"),
    (r"(?<=[号日])同(?=\s*(?:\d|[一二三四五六七八九十]))", "和"),
    (r"(?<=[\d零〇一二两三四五六七八九十百千万])\s*蚊", "元"),
    # 3/29两日: a count of days right after a date is no part of it
    (r"(?<=\d)(?=[一二两三四五六七八九十]+[日天])", " "),
    # 停个把钟: about an hour
    (r"(?<![\d零〇一二两三四五六七八九十])个把(?:钟头|钟|小时)", "1个小时"),
    (r"(?<=[\d零〇一二两三四五六七八九十半])\s*个钟(?!头|点)", "个小时"),
    (r"(?<=[\d零〇一二两三四五六七八九十])\s*个半钟(?!头|点)", "个半小时"),
    (r"(?<=[\d零〇一二两三四五六七八九十])钟(?!头|点)", "小时"),
    (r"呢(?=个|度|排|几|些|单|次|天|日|趟|票)", "这"), (r"礼拜(?=[一二三四五六日天])", "星期"),
    (r"多过", "超过"), (r"少过", "少于"),
    # northern numerals: 仨 = 三个, 俩 = 两个 (仨百 = 三百)
    (r"仨(?=[十百千万])", "三"), (r"俩(?=[十百千万])", "两"), (r"仨", "三个"), (r"俩", "两个"),
    (r"眯(?!眼)", "睡"),
    # Cantonese N日 = N天 for a Chinese numeral that is no date (三月十五日, 到三日 stay dates)
    (r"(?<![月\d一二两三四五六七八九十到至~\-、和及号第初])([一二两三四五六七八九十]+)日"
     r"(?![期子前后内起])", r"\1天"),
    # and a count in digits after "at least" (起码有6日要返老家): a date never follows those
    (r"((?:起码|至少|最少|最起码|不少于|不少过)(?:要|得)?有?)\s*(\d{1,2})\s*日(?![期子前后内起号])",
     r"\1\2天"),
)

# Colloquial shapes of one wording, to the plain one: an indirect object between a negation and
# its verb (别给我派单 = 别派单, 也别让我空车跑 = 别空车跑) and a load verb left bare before its
# pair (装或卸 = 装货或卸货, load or unload).
_SHAPES: tuple[tuple[str, str], ...] = (
    (r"(别|不要|不许|不准|不能|不用|不得|莫)(?:再|老是?|总)?(?:给|帮|替|让|叫|跟|同)(?:我|俺|咱|老子)",
     r"\1"),
    (r"(?i)\b(don't|do not|never|won't|will not)\s+(?:make|let|have|force|get)\s+me\s+",
     r"\1 "),
    (r"(?i)\b(only|just)\s+(?:one|a single)\s+(\S+\s*(?:yuan|rmb|元))\s+(fine|penalty|charge)\b",
     r"\1 one \3 of \2"),
    # 罚他1000, 罚你八百: the one fined, between the verb and the amount
    (r"(罚|扣)(?:他们|他|她|你|我)(?=\s*[\d零〇一二两三四五六七八九十百千万])", r"\1"),
    (r"(?<![货车])装(?=\s*(?:或者?|或是|和|与|及|/|、)\s*卸)", "装货"),
    (r"(?<=或|者|是|和|与|及|/|、)(\s*)卸(?![货车])", r"\1卸货"),
)


# Traditional characters some drivers write (Hong Kong, Macau, Taiwan habits; 罰款 for 罚款) ->
# the simplified ones the kinds' keyword groups know. Only characters whose simplified form is
# unambiguous in these texts; a character that is the same in both scripts is left alone.
_TRAD = str.maketrans(
    "個單車貨裝罰鮮產範圍內時點駛靜動應條檢續達當於與準進區過邊處離開關東緯經庫倉鐘頭夠幾後週禮滿"
    "兩萬塊錢額違規則運輸載類礦機備設飲紡織遞築膠廣門慶連線務須將無沒會錯誤順這裡裏來還說讓給們對"
    "從為並僅業專號歲餘總計數筆啟發聯係絡訂編碼認證場醫長遠臨約辦節媽婦鎮縣鄉島灣橋園廠樓層彎間題"
    "斷態舊暫駐擔費歷曆際盡儘晝夥趕況稱視覽級復複農陸屆壓價鄰樣種隻雙積極歡該誰請讀寫聽記錄統網鬆"
    "話嗎張頂覺帶報參問電幫隊員買賣銀鐵選標櫃檔換損書氣減濟熱現確穩紙細終組結絕維緊練義職衛補製親"
    "許試語變責貴賠質較輕輛轉遲郵閉陽隨險難項預領顧飯館駕驗體黃龍圖學實徑戰燈狀獲環畫異盤簽繞繼羅"
    "臺蘇調談論謝識護輪適陳雲顯麗構權滬貿資樁戶罷叢鄭趙劉楊吳潁寧湧鶴濱豐華莊樂寶頁喫闆噸釐漁鹽遊"
    "査衝繫纔啓峯麵獨幣",
    "个单车货装罚鲜产范围内时点驶静动应条检续达当于与准进区过边处离开关东纬经库仓钟头够几后周礼满"
    "两万块钱额违规则运输载类矿机备设饮纺织递筑胶广门庆连线务须将无没会错误顺这里里来还说让给们对"
    "从为并仅业专号岁余总计数笔启发联系络订编码认证场医长远临约办节妈妇镇县乡岛湾桥园厂楼层弯间题"
    "断态旧暂驻担费历历际尽尽昼伙赶况称视览级复复农陆届压价邻样种只双积极欢该谁请读写听记录统网松"
    "话吗张顶觉带报参问电帮队员买卖银铁选标柜档换损书气减济热现确稳纸细终组结绝维紧练义职卫补制亲"
    "许试语变责贵赔质较轻辆转迟邮闭阳随险难项预领顾饭馆驾验体黄龙图学实径战灯状获环画异盘签绕继罗"
    "台苏调谈论谢识护轮适陈云显丽构权沪贸资桩户罢丛郑赵刘杨吴颍宁涌鹤滨丰华庄乐宝页吃板吨厘渔盐游"
    "查冲系才启峰面独币")


# Words a phone IME puts in by sound (公理 for 公里, 空使 for 空驶, 修息 for 休息): the intended
# word, only where the typo is no word of its own in these texts.
_TYPOS: tuple[tuple[str, str], ...] = (
    (r"(?<=[\d零〇一二两三四五六七八九十百千万])\s*公理", "公里"), (r"空使", "空驶"),
    (r"修息", "休息"),
    # English typed fast: misspellings and SMS words (kilomter, yaun, kuai for 块, whith in, nite)
    (r"(?i)\bkilom(?:ter|tre|tr)s?\b|\bkilometr\b|\bklms?\b", "km"),
    (r"(?i)\b(?:yaun|yuans|kuai|kwai)\b", "yuan"),
    (r"(?i)\b(?:penality|panelty|penalti)\b", "penalty"),
    (r"(?i)\b(?:minuts|mintues|minits)\b", "minutes"), (r"(?i)\bwh?ith\s+in\b", "within"),
    (r"(?i)\bsat(?:u|er)day\b", "saturday"), (r"(?i)\bwen(?:s|ns)day\b", "wednesday"),
    (r"(?i)\bthrusday\b", "thursday"), (r"(?i)\b2nite\b", "tonight"), (r"(?i)\bnite\b", "night"),
    (r"(?i)\btmrw?\b", "tomorrow"), (r"(?i)\bb4\b", "before"),
    (r"(?i)\bdiff\s+days\b", "different days"), (r"(?i)\b(mar|march)(\d{1,2})\b", r"March \2"),
    (r"(?i)\btotaly\b", "totally"), (r"(?i)\bdont\b", "don't"), (r"(?i)\bdoesnt\b", "doesn't"),
)


_CN_CLOCK = r"[零〇一二两三四五六七八九十]+\s*点(?:\s*半|\s*[零〇一二三四五六七八九十]+\s*分?)?"
_DIGIT_CLOCK = r"\d{1,2}\s*点(?:\s*半|\s*\d{1,2}\s*分?)?"
_DAY_PART_ZH = r"凌晨|早上|上午|中午|下午|傍晚|晚上|夜里|晚|早"
# the digits in brackets: 15:00, or 1500 as a sheet writes it
_BRACKET_CLOCK = r"\d{1,2}:\d{2}|[01]\d[0-5]\d|2[0-3][0-5]\d"
# Clocks and lengths written in forms the extractors do not read, in order: 2230时 (Hong
# Kong, Taiwan); a value said again in brackets, said once (下午6点（18:00）前,
# 8小时（480分钟）); a clock in numerals said again in digits, read from the digits, which
# carry the half of the day (十二点到一点半（12:00—13:30）, 后晌三点（15:00）); a distance in
# li said again in km (四里地（2公里）); a four-digit clock before "to" and another clock
# (1230 to 2pm, 0030 to 0430).
_CLOCK_FORMS: tuple[tuple[str, str], ...] = (
    (r"(?<![\d.:])([01]\d|2[0-3])([0-5]\d)\s*时", r"\1:\2"),
    (r"(\d{1,2}\s*点(?:\s*半|\s*\d{1,2}\s*分?)?)\s*\(\s*\d{1,2}:\d{2}\s*\)", r"\1"),
    (r"(\d+(?:\.\d+)?\s*(?:个)?\s*(?:小时|钟头|钟))\s*\(\s*\d+\s*分钟\s*\)", r"\1"),
    (rf"(?:{_CN_CLOCK}|{_DIGIT_CLOCK})(?:\s*(?:到|至|-|~)\s*(?:{_DAY_PART_ZH})?\s*"
     rf"(?:{_CN_CLOCK}|{_DIGIT_CLOCK}))?\s*\(\s*({_BRACKET_CLOCK}(?:\s*[-~]\s*{_BRACKET_CLOCK})?)"
     r"\s*\)", r"\1"),
    (r"[零〇一二两三四五六七八九十百千\d.]+\s*(?:里地|里路|里|米)\s*\(\s*(\d+(?:\.\d+)?)\s*"
     r"(公里|km)\s*\)", r"\1\2"),
    (r"(?<![\d.:])([01]\d|2[0-3])([0-5]\d)(?=\s*(?:to|till|until)\s*"
     r"(?:\d{1,2}\s*(?:am|pm)|[01]\d[0-5]\d|2[0-3][0-5]\d|\d{1,2}:\d{2}))", r"\1:\2"),
    (r"(?<=\d:\d\d)(\s*(?:to|till|until)\s*)([01]\d|2[0-3])([0-5]\d)(?![\d.:]|-\d)",
     r"\1\2:\3"),
)


# Financial numerals (壹佰伍拾 on a fine) -> the everyday ones; 陆 and 拾 only inside such a run
# (陆 is also "land", 拾 "to pick up")
_FIN = {"壹": "一", "贰": "二", "貳": "二", "叁": "三", "參": "三", "肆": "四", "伍": "五",
        "陆": "六", "陸": "六", "柒": "七", "捌": "八", "玖": "九", "拾": "十", "佰": "百",
        "仟": "千", "萬": "万"}


def _financial(m: re.Match[str]) -> str:
    run = m.group(0)
    if not rx.search(r"[壹贰貳叁參肆伍柒捌玖佰仟]", run) or rx.fullmatch(r"伍", run):
        return run
    return "".join(_FIN.get(c, c) for c in run)


def _thousands(m: re.Match[str]) -> str:
    """1.5k, 3k5, 2千, 3千5, 1.5w: a number in thousands (k, 千) or ten thousands (w, 万)."""
    unit = 10000 if m.group(2).lower() in ("w", "万") else 1000
    v = float(m.group(1)) * unit + (int(m.group(3)) * unit // 10 if m.group(3) else 0)
    return f"{v:g}"


def _dm(m: re.Match[str]) -> str:
    """22°15.06' = 22.251: degrees and minutes (and seconds) as decimal degrees."""
    v = int(m.group(1)) + float(m.group(2)) / 60 + float(m.group(3) or 0) / 3600
    return f"{round(v, 4):g}"


# no unit after a four-digit clock (≤2000km is a distance, not 20:00)
_NO_UNIT_AFTER_CLOCK = (r"(?!\s*(?:km|kilomet|kg|公里|千米|米|元|块|yuan|rmb|单|天|次|号|年|"
                        r"orders?|days?|hours?|hrs?\b|h\b|min|/))")


def _terse(t: str) -> str:
    """A rule typed in shorthand, in the words the kinds know: symbols (≤ ≥ < >, 🚫 ✗, 🏠),
    a fine as a bare minus (违-300/天, 超-100/单, ✗200), a radius as r3km, a unit after a
    slash (/天, /mo, ea). Chinese words where the text has Chinese, English otherwise."""
    zh = rx.search(r"[\u4e00-\u9fff]", t) is not None
    # a bullet at a line's start ("- 3月至少去4天") is a list item, not a fine as a bare minus
    t = rx.sub(r"(?m)^(\s*)[-*+](?=\s)", r"\1•", t)
    t = rx.sub(r"🏠|🏡", "家" if zh else " home ", t)
    t = rx.sub(r"😴|💤", "睡" if zh else " sleep ", t)
    t = rx.sub(r"[🚫⛔❌✗✘]", " 禁止 " if zh else " banned ", t)  # a refusal, or a failure's fine
    t = rx.sub(r"[✓✔]", " ok ", t)
    # a dispatch app's key=value lines: curfew=2230, quiet_until=0600, 2200→0600, ≤0900
    t = rx.sub(r"(?i)\b(curfew|quiet[_ ]until|weekend[_ ]start|until|till|by|start|end|from|"
               r"latest|deadline|between)\s*[=:]?\s*([01]\d|2[0-3])([0-5]\d)\b(?![\d./-])"
               + _NO_UNIT_AFTER_CLOCK,
               lambda m: f"{m.group(1).replace('_', ' ')} {m.group(2)}:{m.group(3)}", t)
    t = rx.sub(r"(?<![\d.:])([01]\d|2[0-3])([0-5]\d)\s*(?:→|⇒|➡|->)\s*([01]\d|2[0-3])([0-5]\d)"
               r"(?![\d.:])", r"\1:\2-\3:\4", t)
    t = rx.sub(r"[≤⩽]\s*([01]\d|2[0-3])([0-5]\d)(?![\d.:/-])" + _NO_UNIT_AFTER_CLOCK,
               r"≤\1:\2", t)
    # 2100 curfew, 0830 latest, between 1700 and 2130: a four-digit clock a clock word names
    t = rx.sub(r"(?i)(?<![\d.:])([01]\d|2[0-3])([0-5]\d)(?=\s+(?:curfew|latest|deadline)\b)",
               r"\1:\2", t)
    t = rx.sub(r"(?i)(\d{1,2}:\d{2}\s+and\s+)([01]\d|2[0-3])([0-5]\d)(?![\d.:])", r"\1\2:\3", t)
    # full off days ≥ 4, days w/o orders ≥3: a count said after the days it counts
    t = rx.sub(r"(?i)((?:\b[a-z/-]+\s+){0,2}days?\b(?:\s+[a-z/-]+){0,2}?)\s*[≥⩾]\s*(\d+)",
               r"at least \2 \1", t)
    # w/o, w/: without, with; 45' (minutes, not after degrees), 1h30 (an hour and a half)
    t = rx.sub(r"(?i)\bw/o\b", " without ", t)
    t = rx.sub(r"(?i)\bw/(?=\s)", " with ", t)
    t = rx.sub(r"(?<![°\d.])(\d{1,3})\s*['′](?![\d'′])", r"\1 分钟" if zh else r"\1 min", t)
    t = rx.sub(r"(?<![\d.:])(\d{1,2})\s*h\s*([0-5]\d)\b(?!\s*(?:min|分))",
               lambda m: f"{int(m.group(1)) * 60 + int(m.group(2))} {'分钟' if zh else 'min'}", t)
    t = rx.sub(r"→|⇒|➡", " 然后 " if zh else " then ", t)
    t = rx.sub(r"[\U0001F300-\U0001FAFF\u2600-\u26FF\u2700-\u27BF\uFE0F]", " ", t)
    t = rx.sub(r"[｜|]", "; ", t)
    # 3/21-22, 3/5~3/7: a range of days
    t = rx.sub(r"(?<![\d./])(\d{1,2})/(\d{1,2})\s*[-–—~至到]\s*(?:\1/)?(\d{1,2})(?![\d/.:])",
               r"\1月\2日至\1月\3日", t)
    # r3km, (2km) after a point: a radius
    t = rx.sub(r"(?<![A-Za-z])[rR]\s?[=:]?\s?(\d+(?:\.\d+)?)\s*(km|公里)",
               r"半径\1\2" if zh else r"radius \1 \2", t)
    t = rx.sub(r"(?<=\d)\s*\(\s*(\d+(?:\.\d+)?)\s*(km|公里)\s*(?:ok|okay|is ok|radius)?\s*\)",
               r" (半径\1\2)" if zh else r" (radius \1 \2)", t)
    # "need to be there (1.5km)" in a text with a point: the bracketed distance is its radius
    if rx.search(r"\d{2}\.\d{3,}", t):
        t = rx.sub(r"(?<=[A-Za-z\u4e00-\u9fff])\s*\(\s*(\d+(?:\.\d+)?)\s*(km|公里)\s*\)",
                   r" (半径\1\2)" if zh else r" (radius \1 \2)", t)
    # ≤10:00到: by a clock; ≤1.5km after a point, ≤120km: within; ≥5, >10hrs, <2
    t = rx.sub(r"[≤⩽]\s*(\d{1,2}:\d{2})", r"\1前" if zh else r"by \1", t)
    t = rx.sub(r"[≤⩽<]=?\s*(\d+(?:\.\d+)?)\s*(km|公里)(?![/\w])",
               r"\1\2以内" if zh else r"within \1 \2", t)
    # (not an inequality chain on coordinates: 22.5<=lat<=23.5 is a box)
    if not rx.search(r"[≤⩽≥⩾<>]=?\s*(?:lat|lng|lon|纬|经)", t, re.I):
        t = rx.sub(r"[≤⩽]", "不超过" if zh else " at most ", t)
        t = rx.sub(r"[≥⩾]", "至少" if zh else " at least ", t)
        t = rx.sub(r"(?<![-=<])>(?![=])(?=\s*\d)", "超过" if zh else " over ", t)
        t = rx.sub(r"<(?![=])(?=\s*\d)", "少于" if zh else " under ", t)
    t = rx.sub(r"(?i)每\s*step|per\s*step|/\s*step", "每个时段" if zh else " per step", t)
    t = rx.sub(r"(?i)\b1st\s+(job|order|load|trip)", r"first \1", t)
    # a fine as a bare minus: 违-300/天, 多1单-400, 漏了-1500, -60/单 (not a range: 22:30-06:00)
    t = rx.sub(r"(?<![\dA-Za-z:./~\-])[-−]\s?(\d+(?:\.\d+)?)(?![\d:.]|\s*(?:点|号|时|km|公里|"
               r"min|h\b|[ap]\.?m|[NnEe]\b|°|度))",
               r"罚\1元" if zh else r" fine \1 yuan", t)
    t = rx.sub(r"违(?:了)?\s*(?=\d)", "罚", t)
    # the unit after a slash: /天 /晚 /单 /次 /step, /day /mo /月 /ea
    if zh:
        t = rx.sub(r"(\d(?:元|块|单|次)?|单|次)\s*/\s*(天|晚|单|次|日|趟|day|night)\b",
                   lambda m: m.group(1) + "每" + {"day": "天", "night": "晚"}.get(
                       m.group(2).lower(), m.group(2)), t)
        # ≥5/月 after 有单的天: the count takes the unit named just before it
        t = rx.sub(r"(天|单|次)([^\d，。;；]{0,8}?\d+)\s*/\s*(?:月|mo)\b", r"\1\2\1每月", t)
        t = rx.sub(r"(\d)\s*(天|单|次)?\s*/\s*(?:月|mo)\b", r"\1\2每月", t)
    # "≤900/mo", "max 4/mo": a monthly bound (not "capped 2000/mo", a fine's cap)
    t = rx.sub(r"(?i)((?:at most|at least|max|min|up to)\s*\d+(?:\.\d+)?(?:\s*[a-z]+)?)\s*/\s*"
               r"(?:mo|month)\b", r"\1 a month", t)
    t = rx.sub(r"(?i)(?<=\d)\s*/\s*(day|night|order|step|km)\b", r" per \1", t)
    t = rx.sub(r"(?i)(?<=[\da-z])\s*/\s*d\b", " per day", t)
    t = rx.sub(r"(?i)\bea\b", "each", t)
    return rx.sub(r"(?i)\b(this|a|per|each|the|every)\s+mo\b", r"\1 month", t)


_DIGIT_WORDS = {"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3",
                "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_ORDINALS = {w: i for i, w in enumerate(
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
     "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
     "seventeenth", "eighteenth", "nineteenth", "twentieth"], 1)} | {"thirtieth": 30}


def _spoken_numbers(t: str) -> str:
    """Numbers dictated in English words: "twenty-three point one nine zero five" = 23.1905,
    "one point five kilometres" = 1.5, "the fourteenth of March" = 14 March, "the
    twenty-first" of a month named = 21."""
    if not rx.search(r"(?i)\bpoint\b|(?:st|nd|rd|th)\b", t):
        return t
    cardinal = (rf"\b{_EN_WORD}(?:[\s-]+{_EN_WORD})?(?:\s+(?:hundred|thousand)"
                rf"(?:\s+(?:and\s+)?{_EN_WORD}(?:[\s-]+{_EN_WORD})?)?)*")
    digits = r"(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)"

    def decimal(m: re.Match[str]) -> str:
        whole = _en_phrase_value(m.group(1))
        if whole is None:
            return m.group(0)
        frac = "".join(_DIGIT_WORDS[w.lower()] for w in rx.split(r"[\s-]+", m.group(2).strip()))
        return f"{whole}.{frac}"

    t = rx.sub(rf"(?i)({cardinal})\s+point\s+({digits}(?:[\s-]+{digits}\b)*)\b", decimal, t)

    def ordinal(m: re.Match[str]) -> str:
        tens = {"twenty": 20, "thirty": 30}.get((m.group(1) or "").lower(), 0)
        return f"{tens + _ORDINALS[m.group(2).lower()]} {m.group(3)}"

    words = "|".join(_ORDINALS)
    t = rx.sub(rf"(?i)\b(?:the\s+)?(?:(twenty|thirty)[\s-])?({words})\s+(?:of\s+)?"
               rf"({_MON_NAMES})\b", ordinal, t)
    if rx.search(r"(?i)\b(?:latitude|longitude)\b", t):
        # whole degrees of a box ("latitude twenty-two to twenty-four")
        def degrees(m: re.Match[str]) -> str:
            v = _en_phrase_value(m.group(0))
            return str(v) if v is not None and (20 <= v <= 26 or 109 <= v <= 118) else m.group(0)

        t = rx.sub(rf"(?i){cardinal}\b", degrees, t)
    return t


_NUMERAL = "[" + "".join(CN_DIGITS) + "".join(CN_UNITS) + "半]"


def _joined_words(t: str) -> str:
    """我 家 汕头 …, 一 单 150公里 超过 的话 不 拉: Chinese words typed apart (a writer used
    to a language that spaces its words) joined again, as the kinds' patterns are written for
    Chinese without spaces. A text with a space or two between words, or spaces between
    phrases (speech recognition's pauses: 只要那天有干活 就罚五十 一天最多罚一次) is left
    alone, and so are two numerals a space keeps apart (五十 一天 is not 五十一天)."""
    runs = rx.findall(r"[\u4e00-\u9fff]+", t)
    if (len(rx.findall(r"[\u4e00-\u9fff] +(?=[\u4e00-\u9fff])", t)) < 4
            or sorted(map(len, runs))[len(runs) // 2] > 3):
        return t
    return rx.sub(r"([\u4e00-\u9fff]) +(?=([\u4e00-\u9fff]))",
                  lambda m: m.group(0) if rx.fullmatch(_NUMERAL, m.group(1)) and rx.fullmatch(
                      _NUMERAL, m.group(2)) else m.group(1), t)


def normalise_text(text: str) -> str:
    # a photo's text first: its circled clause numbers are gone after NFKC (① = 1)
    t = unicodedata.normalize("NFKC", ocr.plain_ocr(text)).translate(_TRAD)
    # [2026-02-26 07:30] 老钟(调度): …: a chat message's send time and sender are no part of
    # the rule (a rest window 07:30-07:33 was read from two messages' stamps)
    t = rx.sub(r"(?m)^\s*\[\s*(?:\d{4}-\d{1,2}-\d{1,2}\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*\]\s*"
               r"(?:[^:：\n\[\]]{1,24}[:：])?\s*", "", t)
    # 廿五 = 二十五, 卅 = 三十: the tens a Cantonese writer types as one character
    t = rx.sub(r"廿", "二十", t) if "廿" in t else t
    t = rx.sub(r"卅", "三十", t) if "卅" in t else t
    t = email_thread.plain_email(t)
    t = corrections.without_replaced_dates(t)
    t = icalendar.plain_calendar(t)
    t = config.plain_config(t)
    t = pinyin.plain_pinyin(t)
    t = translated.plain_terms(translated.plain_translation(t))
    t = speech.plain_speech(t)
    t = markdown.plain(t)
    t = conditions.plain_conditions(t)
    t = rewards.without_rewards(t)
    t = _joined_words(t)
    t = units.plain_units(t)
    t = dialogue.agreed(t)
    t = calendar_days.as_dates(t)
    t = _spoken_numbers(t)
    t = _terse(t)
    # twelve (12), 十二（12）: a number in words with its digits, as the digits
    t = rx.sub(r"(?i)\b(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]?)?"
               r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
               r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
               r"fifty|sixty|seventy|eighty|ninety|hundred)\s*\((\d+)\)|"
               r"[零〇一二两三四五六七八九十百千]+\s*\((\d+)\)",
               lambda m: m.group(1) or m.group(2), t)
    # a list's items on their own lines (1. …, 2、…, - …): each item its own clause
    t = rx.sub(r"\n\s*(?:\(?\d{1,2}[.、)]|[-•·*])\s*(?!\d)", "; ", t)
    # (比如夜里两点睡到早上八点半就够): an example in brackets is no part of the rule
    t = rx.sub(r"[(（]\s*(?:比如|例如|譬如|举个例子|e\.g\.|for example|for instance)"
               r"[^()（）]*[)）]",
               "", t, flags=re.I)
    # 不得少于陆天: a financial six on its own, before a count's unit
    t = rx.sub(r"(?<=[于过足满够])[陆陸](?=\s*(?:天|日|单|次|个))", "六", t)
    t = rx.sub(r"[零〇一二两三四五六七八九十百千万壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬]+",
               _financial, t)
    # 22°15.06'N, N24°11.4': degrees and minutes (a coordinate a phone map shows)
    t = rx.sub(r"(?<![\d.])(\d{2,3})\s*°\s*(\d{1,2}(?:\.\d+)?)\s*['′](?:\s*(\d{1,2}(?:\.\d+)?)"
               r"\s*(?:\"|″|''|′′))?", _dm, t)
    # 1.5k, 3k5, 2千公里, 3千5: digits in thousands (not 3km, 5kg)
    t = rx.sub(r"(?<![\d.A-Za-z])(\d+(?:\.\d+)?)\s*([kKwW])(\d)?(?![A-Za-z\d])", _thousands, t)
    t = rx.sub(r"(?<![\d.])(\d+(?:\.\d+)?)(千|万)(\d)?(?![\d零〇一二两三四五六七八九十百千万米])",
               _thousands, t)
    # 11p-6a, 10p: a clock's half of the day in one letter
    t = rx.sub(r"(?<![\d.:A-Za-z])(\d{1,2}(?::[0-5]\d)?)\s*([ap])(?!\.\s*m\b)"
               r"(?=\s*(?:-|~|to\b|,|;|\.|\)|$))",
               lambda m: f"{m.group(1)} {m.group(2).lower()}m", t)
    # "每天连续rest至少6h", "then惠阳": a word boundary between Chinese and Latin letters, so
    # the English words of a mixed sentence read as words
    t = rx.sub(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z])|(?<=[A-Za-z])(?=[\u4e00-\u9fff])", " ", t)
    for pat, rep in _TYPOS:
        t = rx.sub(pat, rep, t)
    for pat, rep in _CLOCK_FORMS:
        t = rx.sub(pat, rep, t)
    # 2300-次日0600: four-digit clocks in a range
    t = rx.sub(r"(?<![\d.:])([01]\d|2[0-3])([0-5]\d)(\s*(?:-|~|到|至)\s*(?:次日|第二天|翌日)?\s*)"
               r"([01]\d|2[0-3])([0-5]\d)(?![\d.:])", r"\1:\2\3\4:\5", t)
    # 2230之前, by 1400, 0600: a four-digit clock on its own, where a clock word is beside it
    # or it starts with 0 (a year, a price or a distance never does)
    # (not "capped at 1200", "until 2026-03-30")
    t = rx.sub(r"(?i)((?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里|最晚|最迟|\bby|\bbefore|"
               r"\bafter|\buntil|\btill|(?<!capped )(?<!cap )(?<!fined )\bat)\s?)"
               r"([01]\d|2[0-3])([0-5]\d)(?![\d.:/-])" + _NO_UNIT_AFTER_CLOCK, r"\1\2:\3", t)
    t = rx.sub(r"(?i)(?<![\d.:A-Za-z/-])(0\d)([0-5]\d)(?![\d.:/-])" + _NO_UNIT_AFTER_CLOCK,
               r"\1:\2", t)
    t = rx.sub(r"(?<![\d.:A-Za-z])([01]\d|2[0-3])([0-5]\d)(?=\s*(?:之前|以前|前|以后|之后|后|开始|"
               r"出门|出车)(?![\d年]))", r"\1:\2", t)
    t = rx.sub(r"(?<![.\d])(\d{1,3}),(\d{3})(?!\d|\.\d)", r"\1\2", t)  # 1,000 -> 1000
    t = rx.sub(r"(?<![.\d])(\d{1,3}),(\d{3})\.(\d{2})(?!\d)", r"\1\2.\3", t)  # CNY 1,200.00
    t = rx.sub(r"(?i)(?<=\d)-(?=(?:yuan|rmb|元)\b)", " ", t)  # a 600-yuan fine
    # 第二天（周日）早上八点: the weekday between "next day" and its clock says nothing more
    t = rx.sub(r"(次日|第二天|翌日|隔天)\s*\((?:周|星期|礼拜)[一二三四五六日天]\)", r"\1", t)
    # 晚上21.30前: a dot for the colon, after a part of the day or before 前/以前
    t = rx.sub(r"((?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里)\s*)([01]?\d|2[0-3])\.([0-5]\d)"
               r"(?![\d.])", r"\1\2:\3", t)
    t = rx.sub(r"(?<![\d.])([01]?\d|2[0-3])\.([0-5]\d)(?=\s*(?:前|以前|之前))", r"\1:\2", t)
    # 10+ days: at least 10
    t = rx.sub(r"(?<![\d.])(\d+)\s*\+(?=\s*[A-Za-z\u4e00-\u9fff])", r"at least \1 ", t)
    t = t.replace("〜", "~").replace("—", "-").replace("–", "-").replace("－", "-")
    for pat, rep in _DIALECT + _SHAPES:
        t = rx.sub(pat, rep, t)
    return rx.sub(r"\s+", " ", t).strip()


_EN_NUM = {w: i for i, w in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"])}
_EN_NUM.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                "eighty": 80, "ninety": 90})
_EN_WORD = r"(?:" + "|".join(sorted(_EN_NUM, key=len, reverse=True)) + r")"
# a spelled-out number: "one hundred and twenty", "two thousand", "forty-five", "a hundred"
_EN_PHRASE = (rf"\b(?:{_EN_WORD}(?:[\s-]+{_EN_WORD})?|an?)(?:\s+(?:hundred|thousand)"
              rf"(?:\s+(?:and\s+)?{_EN_WORD}(?:[\s-]+{_EN_WORD})?)?)+\b")


def _en_phrase_value(s: str) -> int | None:
    total = part = 0
    for w in rx.split(r"[\s-]+", s.lower()):
        if w in ("and", ""):
            continue
        if w in ("a", "an"):
            part = 1
        elif w == "hundred":
            part = (part or 1) * 100
        elif w == "thousand":
            total += (part or 1) * 1000
            part = 0
        elif w in _EN_NUM:
            part += _EN_NUM[w]
        else:
            return None
    return total + part


# "half past eleven at night", "six in the morning", "a quarter to seven": digits and am/pm
_EN_CLOCK_WORD = (r"(?<![:\d.])(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                  r"\d{1,2})(?![:\d])")


_DAY_PART_EN = (r"at night|in (?:the )?(?:morning|evening|afternoon)|tonight|(?:every|each|a) "
                r"(?:night|evening)|nightly|(?:the )?(?:next|following) morning|"
                # "10 o'clock night", "8 o'clock morning" (second-language English)
                r"(?<=o'clock )(?:morning|evening|afternoon|night)")


def _english_clocks(t: str) -> str:
    # "from half six" = half past six (British), not six; "within half a km" = 0.5 km
    t = rx.sub(r"(?i)\bhalf\s+(?=(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
               r"twelve)\b(?!\s*(?:hours?|hrs?|minutes?|days?|km)))", "half past ", t)
    t = rx.sub(r"(?i)\bhalf\s+(?:an?\s+)?(km|kilomet(?:er|re))\b", r"0.5 \1", t)
    # "five thirty", "twenty-two thirty", "nine fifteen": an hour and its minutes in words;
    # "ten a.m.": a day part in letters after an hour in words
    hours = (r"(twenty[\s-](?:one|two|three)|zero|one|two|three|four|five|six|seven|eight|nine|"
             r"ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
             r"twenty)")
    minutes = {"fifteen": 15, "thirty": 30, "forty five": 45, "forty": 40, "fifty": 50,
               "o five": 5, "oh five": 5}

    def hour_minutes(m: re.Match[str]) -> str:
        mi = minutes[" ".join(rx.split(r"[\s-]+", m.group(2).lower()))]
        return f"{_en_phrase_value(m.group(1))}:{mi:02d}"

    t = rx.sub(rf"(?i)\b{hours}[\s-](fifteen|thirty|forty[\s-]five|forty|fifty|o(?:h)? five)\b"
               r"(?![\s-]*(?:minutes?|mins?|hours?|yuan|km|kilomet|days?|orders?))",
               hour_minutes, t)
    t = rx.sub(rf"(?i)\b{hours}\s*(a|p)\.?\s?m\.?(?![a-z])",
               lambda m: f"{_en_phrase_value(m.group(1))} {m.group(2).lower()}m", t)
    # "before 10 clock", "11 clock at night": o'clock with its apostrophe part dropped
    t = rx.sub(r"(?<![\d.:])(\d{1,2})\s+clock\b", r"\1 o'clock", t, flags=re.I)
    # 8.30am, 5.30 in the morning: a dot between hour and minutes
    t = rx.sub(r"(?<![\d.])(\d{1,2})\.([0-5]\d)(?=\s*(?:a\.?m\b|p\.?m\b|o'clock|" + _DAY_PART_EN
               + r"))", r"\1:\2", t, flags=re.I)
    # 22h-06h, at 23h: a 24-hour clock with an h (not a duration: 8h of rest)
    t = rx.sub(r"(?<![\d.:])([01]?\d|2[0-4])h(\s*(?:-|to|till|until)\s*)([01]?\d|2[0-4])h\b",
               r"\1:00\2\3:00", t, flags=re.I)
    t = rx.sub(r"(?<![\d.:])(0\d|1[3-9]|2[0-4])h\b", r"\1:00", t, flags=re.I)
    t = rx.sub(r"\b(at|from|until|till|by|after|before)\s+(\d{1,2})h\b", r"\1 \2:00", t,
               flags=re.I)

    def hour(w: str) -> int:
        return int(w) if w.isdigit() else _EN_NUM[w.lower()]

    def day_part(m: re.Match[str], h: int, mi: int) -> str:
        part = (m.group("part") or "").lower()
        pm = rx.search(r"night|evening|afternoon", part) and "morning" not in part
        suffix = " pm" if pm else (" am" if "morning" in part else "")
        if "night" in part and h == 12:
            return f"0:{mi:02d} am"
        if "night" in part and h < 5:  # two at night: 02:00
            suffix = " am"
        return f"{h}:{mi:02d}{suffix}" if suffix else f"{h}:{mi:02d}"

    part = r"(?:\s+(?P<part>" + _DAY_PART_EN + r"))?"
    # "between 4:30 and 6:30 in the evening" (said "four thirty and six thirty"): the half of
    # the day said after the second clock is the first's too
    t = rx.sub(r"(?<![:\d.])(1[0-2]|[1-9]):([0-5]\d)(\s*(?:and|to|till|until|-)\s*)"
               r"(1[0-2]|[1-9]):([0-5]\d)(?!\s*(?:a\.?m|p\.?m))\s+(?P<part>at night|"
               r"in the (?:morning|evening|afternoon)|tonight)",
               lambda m: (day_part(m, int(m.group(1)), int(m.group(2))) + m.group(3)
                          + day_part(m, int(m.group(4)), int(m.group(5)))), t, flags=re.I)
    # 9:30 at night, 5:30 in the morning: minutes given, the day part still says which half
    # ("05:00 every night" is a rule said every night, not five in the evening)
    t = rx.sub(r"(?<![\d.:])(\d{1,2}):([0-5]\d)(?!\s*(?:a\.?m|p\.?m))\s+(?P<part>at night|"
               r"in the (?:morning|evening|afternoon)|tonight)",
               lambda m: day_part(m, int(m.group(1)), int(m.group(2))) if int(m.group(1)) <= 12
               else m.group(0), t, flags=re.I)
    t = rx.sub(r"\b(?:a\s+)?(half|quarter)\s+past\s+" + _EN_CLOCK_WORD + r"\b" + part,
               lambda m: day_part(m, hour(m.group(2)), 30 if m.group(1).lower() == "half"
                                  else 15), t, flags=re.I)
    t = rx.sub(r"\b(?:a\s+)?quarter\s+to\s+" + _EN_CLOCK_WORD + r"\b" + part,
               lambda m: day_part(m, (hour(m.group(1)) - 1) or 12, 45), t, flags=re.I)
    part = r"(?:\s+o'clock)?\s+(?P<part>" + _DAY_PART_EN + r")\b"

    def both(m: re.Match[str]) -> str:  # "between 1 and 5 in the morning": both ends
        return (day_part(m, hour(m.group(1)), int(m.group(2) or 0)) + m.group(3)
                + day_part(m, hour(m.group(4)), int(m.group(5) or 0)))

    t = rx.sub(_EN_CLOCK_WORD + r"()(\s*(?:and|to|till|until|-)\s*)" + _EN_CLOCK_WORD + r"()"
               + part, both, t, flags=re.I)

    return rx.sub(_EN_CLOCK_WORD + part, lambda m: day_part(m, hour(m.group(1)), 0), t,
                  flags=re.I)


_EN_UNIT = (r"(?=\s+(?:(?:more|extra|additional|full|whole|straight|consecutive|separate|distinct|"
            r"different|calendar|complete|uninterrupted|continuous|solid|clear|unbroken|"
            r"order-free|off|long|short|big|long-haul|long-distance|more)\s+)?(?:hours?|hrs?|days?|"
            r"orders?|jobs?|loads?|trips?|runs?|hauls?|times|km|"
            r"kilomet|minutes?|mins?|nights?|visits?|"
            r"(?:per|a|each|every) (?:month|day|week|night)\b))")


def _english_numbers(t: str) -> str:
    """'two hours', 'half an hour', 'an hour', 'one and a half hours', 'a six-hour block' as
    digits."""
    t = rx.sub(r"\b(\w+)-(hour|day|minute|km|kilometre|kilometer)s?\b", r"\1 \2s", t, flags=re.I)
    # a bound in words ("no more than six of those", "each one beyond six"): digits
    t = rx.sub(r"\b(no more than|not more than|at most|at least|up to|more than|fewer than|"
               r"less than|beyond|maximum(?: of)?|minimum(?: of)?|max|min)\s+(" + _EN_WORD
               + r")\b(?![\s-]+(?:hundred|thousand))",
               lambda m: f"{m.group(1)} {_EN_NUM[m.group(2).lower()]}", t, flags=re.I)
    # "max 2 in March": a bound with no noun, counted over the month it names
    t = rx.sub(r"(?i)\b(max(?:imum)?|at most|no more than|not more than|up to)\s+(\d+)\s+"
               r"(?=in\s+(?:march|the month|this month|the whole month)\b)", r"\1 \2 a month ", t)
    t = rx.sub(r"\b(?:half an hour|a half hour|half-hour)\b", "0.5 hours", t, flags=re.I)
    t = rx.sub(r"\b(\w+) and a half hours\b",
               lambda m: f"{_EN_NUM.get(m.group(1).lower(), m.group(1))}.5 hours"
               if m.group(1).lower() in _EN_NUM or m.group(1).isdigit() else m.group(0), t,
               flags=re.I)
    def and_a_half(m: re.Match[str]) -> str:  # an hour and a half, two hours and a half
        w = m.group(1).lower()
        return f"{1 if w == 'an' else _EN_NUM.get(w, w)}.5 hours"

    t = rx.sub(r"\b(an|one|two|three|four|five|six|seven|eight|nine|ten|\d+) hours? and a half\b",
               and_a_half, t, flags=re.I)
    t = rx.sub(r"\bhalf an? (?:km|kilomet(?:er|re))\b", "0.5 km", t, flags=re.I)
    t = rx.sub(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|\d+) and a half "
               r"(km|kilomet(?:er|re)s?)\b",
               lambda m: f"{_EN_NUM.get(m.group(1).lower(), m.group(1))}.5 km", t, flags=re.I)
    t = rx.sub(r"\ban hour\b", "1 hour", t, flags=re.I)
    # "three of those", "only one this month": a count of the orders the rule names
    t = rx.sub(r"\b(" + "|".join(_EN_NUM) + r")(?=\s+of\s+(?:those|them|these)\b)",
               lambda m: str(_EN_NUM[m.group(1).lower()]), t, flags=re.I)
    t = rx.sub(r"\b(only|just)\s+(" + "|".join(_EN_NUM) + r")\b(?=\s+(?:this|a|per|each|in)\b)",
               lambda m: f"{m.group(1)} {_EN_NUM[m.group(2).lower()]}", t, flags=re.I)
    t = _english_clocks(t)
    t = rx.sub(_EN_PHRASE, lambda m: str(_en_phrase_value(m.group(0)) or m.group(0))
               if rx.search(r"hundred|thousand", m.group(0), re.I) else m.group(0), t,
               flags=re.I)
    t = rx.sub(rf"\b{_EN_WORD}(?:[\s-]+{_EN_WORD})?(?=\s+(?:yuan|rmb|cny)\b)",  # fifty yuan
               lambda m: str(_en_phrase_value(m.group(0)) or m.group(0)), t, flags=re.I)
    t = rx.sub(r"\b(" + "|".join(_EN_NUM) + r")-(" + "|".join(_EN_NUM) + r")\b" + _EN_UNIT,
               lambda m: str(_EN_NUM[m.group(1).lower()] + _EN_NUM[m.group(2).lower()]), t,
               flags=re.I)
    t = rx.sub(r"\b(" + "|".join(_EN_NUM) + r")\b" + _EN_UNIT,
               lambda m: str(_EN_NUM[m.group(1).lower()]), t, flags=re.I)
    # a number, then a word or two, then what it counts: "fifteen vegetable orders"
    return rx.sub(r"\b(" + "|".join(_EN_NUM) + r")\b(?=(?:\s+(?!(?:of|the|a|an|per|each|every|in|"
                  r"on|at|for|to|by)\b)[a-z&-]+){1,3}\s+(?:orders?|jobs?|loads?|trips?|runs?|"
                  r"days?)\b)",
                  lambda m: str(_EN_NUM[m.group(1).lower()]), t, flags=re.I)


def _cn_decimal_coords(t: str) -> str:
    """北纬二十二点八 = 22.8: a Chinese decimal in a text about latitude and longitude, where
    its whole part is a Guangdong latitude or longitude (a clock's 点 never is both)."""
    if not rx.search(r"北纬|东经|纬度|经度|南纬|西经", t):
        return t

    def repl(m: re.Match[str]) -> str:
        whole, frac = cn_to_int(m.group(1)), m.group(2)
        digits = "".join(str(CN_DIGITS[c]) for c in frac)
        if whole is None or not (18 <= whole <= 27 or 105 <= whole <= 120):
            return m.group(0)
        return f"{whole}.{digits}"

    return rx.sub(rf"([{_CN}]+)点([零〇一二三四五六七八九]+)(?![{_CN}]|分|钟|半)", repl, t)


def number_view(t: str) -> str:
    """Chinese numerals before a unit become digits; 半 becomes .5 / :30 where it means half."""
    def repl(m: re.Match[str]) -> str:
        v = cn_to_int(m.group(0))
        return m.group(0) if v is None else str(v)

    t = _cn_decimal_coords(t)
    t = rx.sub(r"(?<=\d)\s*千米", "公里", t)  # 800千米: kilometres, not 800 and a thousand metres
    # 三月十四、十五号: the days of a list of dates, each a numeral (the last has its 号)
    t = rx.sub(rf"(?<=月)((?:[{_CN}\d]+\s*(?:、|,|，|和|及|与)\s*)+)(?=[{_CN}\d]+\s*[号日])",
               lambda m: rx.sub(rf"[{_CN}]+", repl, m.group(1)), t)
    # 周末可以晚一点 = "a bit later at weekends", not one o'clock (a fresh draw read the weekend
    # start of a rest window as 01:00); 最晚一点 ("one at the latest") stays a clock
    t = rx.sub(r"(?<!最)(晚|早|多|少|快|慢|稍|再)一点"
               r"(?![零〇一二两三四五六七八九十\d半钟分前后之以到至])", r"\1些", t)
    # 一刻钟 = 15 minutes, 三刻钟 = 45; "a quarter of an hour"
    t = rx.sub(r"([一两二三])\s*刻钟", lambda m: f"{15 * (cn_to_int(m.group(1)) or 0)}分钟", t)
    t = rx.sub(r"\b(?:a|one)\s+quarter(?:\s+of)?\s+an?\s+hour\b", "15 minutes", t, flags=re.I)
    # 罚100一单 = 100 a load: digits before a numeral and its unit are two numbers, not 1001
    t = rx.sub(r"(?<=\d)(?=[一两二三四五六七八九十]+(?:单|次|天|晚|趟|回|笔|票|步)(?![\d号日]))",
               " ", t)
    # 罚二百一单 = 200 a load (一单 is the load, not a 1 after 二百)
    t = rx.sub(r"(?<=罚|扣|赔)([一二两三四五六七八九])([百千万])一(?=单|次|天|晚|趟|回|笔|票)",
               r"\1\2元一", t)
    # 罚一百五一单 = 150 a load (一百五一 is no numeral; 罚五十一单 stays: 51 or 50 a load?)
    t = rx.sub(rf"(?<=罚|扣|赔)([{_CN}]*[一二两三四五六七八九][十百千万][一二两三四五六七八九])"
               r"(?=一(?:单|次|天|晚|趟|回|笔|票|步))", lambda m: repl(m) + "元", t)

    def unit_repl(m: re.Match[str]) -> str:  # 周六周日: a weekday before a weekday, not 6 weeks
        if (rx.fullmatch(r"[一二三四五六]", m.group(0))
                and rx.search(r"(?:周|星期|礼拜)$", t[max(0, m.start() - 2):m.start()])
                and rx.match(r"周|星期|礼拜", t[m.end():])):
            return m.group(0)
        return repl(m)

    t = rx.sub(rf"(?<!第)[{_CN}]+{_UNIT_AFTER}", unit_repl, t)
    t = rx.sub(rf"(?<=罚|扣|款|钱|顶|限|赔|失|亏)[{_CN}]+(?![{_CN}]|次|天|单|个)", repl, t)
    t = rx.sub(rf"(赔(?:给)?(?:他|她|人家|对方|老板|客户|货主))([{_CN}]+)(?![{_CN}]|次|天|单|个)",
               lambda m: m.group(1) + repl(rx.match(r".*", m.group(2))), t)
    # 罚款一天一百五 = 150 a day
    t = rx.sub(rf"((?:罚|扣|赔)(?:款|钱)?\s*(?:1|每)\s*(?:天|晚|次|单|趟|回)\s*)([{_CN}]+)"
               rf"(?![{_CN}])", lambda m: m.group(1) + repl(rx.match(r".*", m.group(2))), t)
    t = _english_numbers(t)
    if rx.search(r"公里|千米", t):  # 空驶公里数加起来别超过一千二: a bare bound in a km text
        def km_bound(m: re.Match[str]) -> str:
            x = m.group(2)
            v = x if x[0].isdigit() else cn_to_int(x)
            if v is None or _after_money(t, m.start()):
                return m.group(0)
            return f"{m.group(1)}{v}公里"

        # (不能过 as 不能超过; a bare 不过 is "but")
        # (not a fine's cap: 罚款上限一千五 is yuan)
        t = rx.sub(rf"(?<!罚款)(?<!扣款)(?<!罚)(?<!扣)"
                   rf"((?:不得|不能|不要|别|不)?超过?|(?:不得|不能|不要|别)过|最多|至多|顶多|"
                   rf"上限(?:为|是)?)\s*"
                   rf"([{_CN}]+|\d+(?:\.\d+)?)(?=\s*(?:[,，。;；!！]|$))", km_bound, t)
    # "empty km over the month must stay at or below 600;": a bare bound on km named before
    # it in the same clause (not a fine's cap: "capped at 1000" names no km)
    t = rx.sub(r"(\b(?:km|kilomet\w*|mileage)\b[^,.;:!?]{0,60}?\b(?:at or (?:below|under)|"
               r"no more than|not more than|at most|must not (?:exceed|pass|go over)|"
               r"not (?:exceed|pass|go over)|stay (?:under|below|within))\s+)"
               r"(\d+(?:\.\d+)?)(?=\s*(?:(?:a|per|each|this|the)\s+month\s*)?(?:[,.;:!?]|$))",
               r"\1\2 km", t, flags=re.I)
    # 一块五 = 1.5 yuan, 两块5毛 = 2.5 (the digit after 块 is tenths of a yuan)
    # (not 赔一百块一晚: 一 before a counter is "a night")
    t = rx.sub(r"(\d+)\s*块\s*([一二三四五六七八九]|\d)(?:毛|角)?"
               r"(?![\d{_CN}]|晚|天|日|单|次|趟|回|个|步|笔|票)".replace(
        "{_CN}", _CN), lambda m: f"{m.group(1)}."
        f"{m.group(2) if m.group(2).isdigit() else cn_to_int(m.group(2))}元", t)
    t = rx.sub(r"(\d+)个半(?=小时|钟头)", r"\1.5", t)
    t = rx.sub(r"(\d+)\s*(公里|千米)半", r"\1.5\2", t)  # 一公里半 = 1.5 km
    t = rx.sub(r"(?<![\d.个])半(?=\s*(?:公里|千米))", "0.5", t)  # 半公里 = 0.5 km
    # 四十里路 = 20 km: a Chinese li is half a kilometre (not 公里, 这里, 里面)
    t = rx.sub(r"(?<![\d.])(\d+(?:\.\d+)?)\s*里(?![面头边])",
               lambda m: f"{float(m.group(1)) / 2:g}公里", t)
    t = rx.sub(r"(\d+)点(\d+)\s*(?=公里|千米|km|米)", r"\1.\2", t)  # 一点五公里 = 1.5 km
    t = rx.sub(r"(\d+)度半", r"\1.5度", t)  # 二十二度半 = 22.5 degrees
    t = rx.sub(r"\b(\d+)\s+or more\b", r"at least \1", t, flags=re.I)  # 5 or more days
    # "10 and 11 May" = "May 10 and May 11" (the form dates() reads); "on 5 or 6 March": either
    t = rx.sub(r"(?<![\d.:])(\d{1,2})(?:st|nd|rd|th)?(\s*(?:and|&|,|to|-|through|or)\s*)(\d{1,2})"
               r"(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON_RE, r"\4 \1\2\4 \3", t, flags=re.I)
    # "March 12 and 13:" = "March 12 and March 13"
    t = rx.sub(_MON_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?(\s*(?:and|&|to|through)\s*)(\d{1,2})"
               r"(?:st|nd|rd|th)?(?=\s*[:;,.]|\s*$)", r"\1 \2\3\1 \4", t, flags=re.I)
    t = rx.sub(r"(?<![\d.个])半(?=个?小时|个?钟头)", "0.5", t)
    t = rx.sub(r"(\d+)点半(?!径)", r"\1点30分", t)
    t = rx.sub(r"(\d+)点一刻(?!钟)", r"\1点15分", t)  # 三点一刻 = 15:15
    # a spoken self-correction (10点 不对 是10点30分, 7点 不对 6点30分): the second value stands
    t = rx.sub(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:点(?:\d+分|半)?|公里|元|块|天|个小时|小时|单)?\s*"
               r"(?:不对|不是不是|说错了|错了|口误)\s*[,，]?\s*(?:应该)?(?:是)?\s*(?=\d)", "", t)
    t = rx.sub(r"(\d+)点三刻(?!钟)", r"\1点45分", t)
    # 23-6点 = 23点-6点: a range of hours with one 点
    t = rx.sub(r"(?<![\d./])(?<!\d:)([01]?\d|2[0-4])\s*([-~到至])\s*([01]?\d|2[0-4])\s*点",
               r"\1点\2\3点", t)
    t = rx.sub(r"(\d+)点(\d{1,2})分", r"\1点\2分", t)
    if rx.search(r"kilomet|\bkms?\b", t, re.I):  # "empty kilometres ... not go over 800;"
        t = rx.sub(r"\b((?:over|exceed|more than|above|beyond|at most|max(?:imum)?|up to)\s+)"
                   r"(\d+(?:\.\d+)?)(?=\s*[;,.!]|\s*$)",
                   lambda m: m.group(0) if _after_money(t, m.start())
                   else f"{m.group(1)}{m.group(2)} km", t, flags=re.I)
        t = rx.sub(r"(?<![\d.])(\d+(?:\.\d+)?)(?=\s+at (?:the )?most\b)", r"\1 km", t, flags=re.I)
    return t


def _after_money(t: str, pos: int) -> bool:
    """Money is named earlier in the sentence (", max 3000" after "1 yuan per km over"): a bare
    bound there is the fine's cap, not km."""
    return rx.search(r"yuan|rmb|元|罚|扣|fine|penalt|charge", rx.split(
        r"[。;；!?]|\.(?!\d)", t[:pos])[-1], re.I) is not None


# ---------------------------------------------------------------- spans of numbers
@dataclass(frozen=True)
class Num:
    value: float
    start: int
    end: int
    unit: str  # the text right after the number (up to 4 chars), lowercased


def numbers(t: str) -> list[Num]:
    return [Num(float(m.group(1)), m.start(1), m.end(1), t[m.end(1):m.end(1) + 6].lower().lstrip())
            for m in rx.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)", t)]


# ---------------------------------------------------------------- clocks
@dataclass(frozen=True)
class Clock:
    minutes: int  # minute of day 0..1439
    start: int
    end: int
    next_day: bool
    before: bool  # followed by 前/之前/before-ish: a deadline
    bare: bool = False  # "7点" with no 上午/下午 word: a span end may inherit the start's half

    @property
    def hhmm(self) -> str:
        return f"{self.minutes // 60:02d}:{self.minutes % 60:02d}"


_NEXT = ("次日", "第二天", "翌日", "隔天", "次晨", "第二日", "转天")
_PREFIX = (r"((?:凌晨|早上|早晨|清晨|上午|中午|午间|正午|下午|傍晚|晚上|晚间|夜里|夜间|半夜|深夜|"
           r"每晚|每天|"
           r"每日|当晚|今晚|夜晚|当天|次日|第二天|翌日|隔天|次晨|第二日|转天|早|晚|夜)\s*)*")
_CLOCK_ZH = re.compile(_PREFIX + r"(?<![\d.])(\d{1,2})(?:(?::(\d{2}))|(?:点|时)(?:(\d{1,2})分?|钟|"
                                 r"整)?)"
                       r"(?!\d|\s*(?:小时|个|分钟|公里|km|天|日|号|单|元|月|a\.?m|p\.?m|"
                       r"o'clock))", re.I)
_CLOCK_EN = re.compile(r"(?<![\d.])(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'clock)(?![a-z])",
                       re.I)
_WORD_CLOCK = re.compile(r"午夜|零点|半夜12点|midnight|noon|正午|"
                         r"(?<=[到至日号])中午(?!\s*\d)|中午(?=\s*(?:前|之前|以前))", re.I)


def _adjust(h: int, mi: int, prefix: str) -> int:
    if h == 24:
        h = 0
    if prefix in ("下午", "傍晚") and h < 12:
        h += 12
    elif prefix in ("晚上", "晚间", "每晚", "当晚", "今晚", "夜晚", "晚"):
        if 5 <= h < 12:
            h += 12
        elif h == 12:
            h = 0
    elif prefix in ("夜里", "夜间", "深夜", "半夜", "夜"):
        if 6 <= h < 12:
            h += 12
        elif h == 12:
            h = 0
    elif prefix == "中午" and 1 <= h < 6:
        h += 12
    return (h % 24) * 60 + mi


def clocks(t: str) -> list[Clock]:
    out: list[Clock] = []
    for m in _CLOCK_ZH.finditer(t):
        prefix = m.group(1) or ""
        # only the prefix words directly attached count
        pm = rx.search(r"((?:凌晨|早上|早晨|清晨|上午|中午|午间|正午|下午|傍晚|晚上|晚间|夜里|夜间|"
                       r"半夜|深夜|每晚|每天|"
                       r"每日|当晚|今晚|夜晚|当天|次日|第二天|翌日|隔天|次晨|第二日|转天|"
                       # 最晚九点 is "nine at the latest", not nine in the evening
                       r"(?<![最较])早|(?<![最较不])晚|夜)\s*)*$",
                       t[max(0, m.start(2) - 12):m.start(2)])
        prefix = pm.group(0) if pm else prefix
        h = int(m.group(2))
        mi = int(m.group(3) or m.group(4) or 0)
        colon = m.group(3) is not None
        if h > 24 or mi > 59:
            continue
        if not colon and not prefix and rx.match(r"\s*(?:点|时)", t[m.end(2):]) is None:
            continue
        ctx = t[max(0, m.start(2) - 14):m.start(2)]
        nd = any(w in prefix for w in _NEXT) or bool(rx.search(r"(至|到|~|-)\s*(次日|第二天|"
                                                               r"翌日)\s*$", ctx))
        lw = rx.search(r"(?:凌晨|早上|早晨|清晨|上午|中午|午间|正午|下午|傍晚|晚上|晚间|夜里|夜间|"
                       r"半夜|深夜|"
                       r"每晚|当晚|今晚|夜晚|早|晚|夜)(?=(?:每天|每日|当天|次日|第二天|翌日|隔天|"
                       r"\s)*$)", prefix)
        last = lw.group(0) if lw else ""
        out.append(Clock(_adjust(h, mi, last), m.start(2), m.end(), nd,
                         _is_before(t, m.end(), m.start(2)), bare=not last and not colon))
    for m in _CLOCK_EN.finditer(t):
        h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3).lower()
        if ap == "o'clock" and 12 < h <= 24 and mi <= 59:  # 22 o'clock: a 24-hour clock
            h, ap = h % 24, ""
        if h > 23 or mi > 59 or (h > 12 and ap):
            continue
        if ap.startswith("p") and h < 12:
            h += 12
        elif ap.startswith("a") and h == 12:
            h = 0
        out.append(Clock(h * 60 + mi, m.start(), m.end(), _en_next(t, m.end()),
                         _is_before(t, m.end(), m.start())))
    for m in rx.finditer(r"(?<![\d.:])(\d{1,2})\s*(?:to|-|until|till|through)\s*(?=\d{1,2}"
                         r"(?::\d{2})?\s*([ap])\.?m\b)", t, re.I):
        # "12 to 1 pm", "9 to 11 am": the start takes the end's half of the day, unless that
        # would put it after the end (11 to 1 pm is 11 am)
        h = int(m.group(1))
        end = next((c for c in out if c.start >= m.end() - 1), None)
        if h > 12 or end is None or any(c.start <= m.start() < c.end for c in out):
            continue
        pm = (h % 12) * 60 + 720
        mins = pm if m.group(2).lower() == "p" and pm <= end.minutes else (h % 12) * 60
        out.append(Clock(mins, m.start(1), m.end(1), False, False))
    for m in rx.finditer(r"(?<![\d.:])([01]?\d|2[0-4]):([0-5]\d)(?!\s*(?:a\.?m|p\.?m|\d|:\d))", t):
        if any(c.start <= m.start() < c.end for c in out):
            continue
        h, mi = int(m.group(1)), int(m.group(2))
        out.append(Clock((h % 24) * 60 + mi, m.start(), m.end(),
                         _en_next(t, m.end()) or bool(rx.search(
                             r"(次日|第二天|翌日)\s*$", t[max(0, m.start() - 4):m.start()])),
                         _is_before(t, m.end(), m.start())))
    for m in rx.finditer(r"(?<![\d.:])(\d{1,2})\s*(?:and|to|-|until|till)\s*(\d{1,2})(?![\d:])\s+"
                         r"(?:o'clock\s+)?(in the morning|at night|in the evening|"
                         r"in the afternoon)",
                         t, re.I):
        if any(c.start <= m.start() < c.end for c in out):
            continue
        part = m.group(3).lower()
        for g in (1, 2):
            h = int(m.group(g))
            if h > 12:
                break
            if part in ("in the evening", "in the afternoon") or (part == "at night" and h >= 6):
                h = (h % 12) + 12
            elif h == 12:
                h = 0
            out.append(Clock(h * 60, m.start(g), m.end(g), False, False))
    for m in _WORD_CLOCK.finditer(t):
        if any(c.start <= m.start() < c.end or m.start() <= c.start < m.end() for c in out):
            continue
        w = m.group(0).lower()
        mins = 12 * 60 if w in ("noon", "正午", "中午") else 0
        ctx = t[max(0, m.start() - 6):m.start()]
        out.append(Clock(mins, m.start(), m.end(),
                         any(x in ctx for x in _NEXT) or _en_next(t, m.end()),
                         _is_before(t, m.end(), m.start())))
    return sorted(out, key=lambda c: c.start)


def _en_next(t: str, end: int) -> bool:
    return bool(rx.match(r"\s*(?:the\s+)?(?:next|following)\s+(?:day|morning)", t[end:end + 24],
                         re.I))


def _is_before(t: str, end: int, start: int | None = None) -> bool:
    after = t[end:end + 6]
    if rx.match(r"\s*(?:之前|以前|前)", after):
        return True
    if start is not None:
        pre = t[max(0, start - 16):start].lower()
        return bool(rx.search(r"(?:before|by|no later than|not later than|until|最晚|最迟|不晚于|"
                              r"不迟于)\s*$", pre))
    return False


# ---------------------------------------------------------------- durations
def hours_spans(t: str) -> list[tuple[float, int, int]]:
    """(hours, start, end) for 'N小时', 'N个小时', 'N hours', 'N-hour', 'N h'."""
    out = []
    for m in rx.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:个)?\s*(?:(?:consecutive|straight|full|"
                         r"continuous|"
                         r"uninterrupted|solid|unbroken|whole|clear)\s+)?(?:小时|钟头|"
                         r"-?\s*hours?\b|-?\s*hrs?\b|h\b)",
                         t, re.I):
        out.append((float(m.group(1)), m.start(), m.end()))
    return out


def minutes_spans(t: str) -> list[tuple[float, int, int]]:
    out = []
    for m in rx.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:分钟|-?\s*minutes?\b|-?\s*mins?\b)", t,
                         re.I):
        out.append((float(m.group(1)), m.start(), m.end()))
    return out


def durations_min(t: str) -> list[tuple[int, int]]:
    """Every stated duration in minutes with its position (hours and minutes forms)."""
    out = [(round(h * 60), s) for h, s, _ in hours_spans(t)]
    out += [(round(m), s) for m, s, _ in minutes_spans(t)]
    return sorted(out, key=lambda x: x[1])


# ---------------------------------------------------------------- dates
_MONTHS_EN = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
_MON_NAMES = months.MONTH_NAMES_EN
_MON_ALT = r"(?:" + _MON_NAMES + r")"
_MON_RE = r"\b(" + _MON_NAMES + r")\b\.?"


@dataclass(frozen=True)
class Date:
    year: int
    month: int
    day: int
    start: int
    end: int

    @property
    def iso(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


# a number's unit after it: a decimal, not a month.day
_NO_UNIT_AFTER_DATE = (r"(?!\s*(?:元|块|公里|km|千米|米|小时|个?钟头|h\b|hrs?\b|个|倍|万|分钟|min|"
                       r"天|单|次|吨|%|/|折|yuan|rmb))")


def dates(t: str, year: int = EPOCH.year) -> list[Date]:
    """Dates in text order; 'M月D日至F日' and 'D1、D2号' lists inherit the month and expand."""
    out: list[Date] = []
    for m in rx.finditer(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*(?:日|号)?"
                         r"((?:\s*(?:、|,|和|及|与|以及|至|到|~|"
                         r"-)\s*(?:\d{1,2}\s*月\s*)?\d{1,2}(?![\d.:])\s*(?:日|号)?)*)"
                         r"(?:\s*(?:日|号))?", t):
        y = int(m.group(1) or year)
        mo, d = int(m.group(2)), int(m.group(3))
        if not (1 <= mo <= 12 and 1 <= d <= 31):
            continue
        if not rx.search(r"(?:日|号)", m.group(0)) and not m.group(4):
            continue
        out.append(Date(y, mo, d, m.start(), m.end()))
        rest = m.group(4) or ""
        for sep, mo2, d2 in rx.findall(r"(、|,|和|及|与|以及|至|到|~|"
                                       r"-)\s*(?:(\d{1,2})\s*月\s*)?(\d{1,2})", rest):
            mo2 = int(mo2) if mo2 else mo
            d2 = int(d2)
            if not (1 <= mo2 <= 12 and 1 <= d2 <= 31):
                continue
            if sep in ("至", "到", "~", "-") and mo2 == out[-1].month and d2 > out[-1].day:
                for dd in range(out[-1].day + 1, d2 + 1):
                    out.append(Date(y, mo2, dd, m.start(), m.end()))
            else:
                out.append(Date(y, mo2, d2, m.start(), m.end()))
            mo = mo2
    _bare_days(out, t, year)
    for m in rx.finditer(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)", t):
        out.append(Date(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.start(), m.end()))
    for m in rx.finditer(r"(?<![\d./])(\d{1,2})/(\d{1,2})(?![\d/]|\.\d|\s*(?:km|公里|元|yuan|"
                         r"h\b))", t):
        a, b = int(m.group(1)), int(m.group(2))
        # month first (3/15) unless only day first reads (28/3), or the day-first reading is
        # the competition's month and the other is not (10/03: 10 March, the rule's month)
        if 1 <= b <= 12 and (a > 12 or (b == EPOCH.month != a and 1 <= a <= 31)):
            a, b = b, a
        if 1 <= a <= 12 and 1 <= b <= 31:
            out.append(Date(year, a, b, m.start(), m.end()))
    # 3-18 route: month-day with a hyphen, not a range of counts (3-5天, 3-5 days) or clocks
    for m in rx.finditer(r"(?<![\d.:/\-])(1[0-2]|[1-9])-([0-3]?\d)(?![\d.:\-])(?!\s*(?:days?|天|"
                         r"日|单|小时|hours?|h\b|hrs?|km|公里|个|次|orders?|loads?|jobs?|trips?|点|"
                         r"时|元|yuan|块|%|分|am|pm|号|月|周|weeks?|mins?|minutes?|公斤|吨|米))", t,
                         re.I):
        if (1 <= int(m.group(2)) <= 31 and not any(d.start <= m.start() < d.end for d in out)
                and rx.match(r"\s*(?:[A-Za-z\u4e00-\u9fff(（:：,，]|$)", t[m.end():])):
            out.append(Date(year, int(m.group(1)), int(m.group(2)), m.start(), m.end()))
    # 3.20那天, 3.28早上, 3.7、3.8, a note opening "3.27 ": month.day where a word makes it a
    # day (not a price or a decimal: 1.5、2.5公里 stays a distance)
    for m in rx.finditer(r"(?<![\d.])(1[0-2]|[1-9])\.([0-3]?\d)(?![\d.])" + _NO_UNIT_AFTER_DATE, t):
        after, before = t[m.end():], t[:m.start()]
        dayish = rx.match(r"\s*(?:那天|当天|这天|那日|当日|号|日|早上|上午|中午|下午|傍晚|晚上|"
                          r"凌晨|半夜|[(（]\s*(?:星期|周|礼拜|mon|tue|wed|thu|fri|sat|sun)|"
                          r"、\s*(?:1[0-2]|[1-9])\.[0-3]?\d(?![\d.])" + _NO_UNIT_AFTER_DATE + ")",
                          after, re.I)
        listed = rx.search(r"(?<![\d.])(?:1[0-2]|[1-9])\.[0-3]?\d\s*、\s*$", before)
        opening = not before.strip() and rx.match(r"\s", after)
        if (dayish or listed or opening) and 1 <= int(m.group(2)) <= 31:
            out.append(Date(year, int(m.group(1)), int(m.group(2)), m.start(), m.end()))
    for m in rx.finditer(_MON_RE + r"\s+(\d{1,2})(?!\d|\s*(?:a\.?m\b|p\.?m\b|o'clock))"
                         r"(?:st|nd|rd|th)?(?:\s*,?\s*(\d{4}))?"
                         r"(?!\s*:\d)((?:\s*(?:,|and|&|to|-|through)\s*(?:" + _MON_ALT +
                         r"\.?\s+)?\d{1,2}(?:st|nd|rd|th)?"
                         r"(?!\d|\s*(?:km|:\d|am|pm|h)))*)", t, re.I):  # March 15-17: is a range
        mo = _MONTHS_EN[m.group(1).lower()[:3]]
        _en_dates(out, m, mo, int(m.group(2)), int(m.group(3) or year), m.group(4))
    for m in rx.finditer(r"(?<![\d.])(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON_RE +
                         r"(?:\s*,?\s*(\d{4}))?", t, re.I):
        if any(d.start <= m.start() < d.end for d in out):
            continue
        mo = _MONTHS_EN[m.group(2).lower()[:3]]
        _en_dates(out, m, mo, int(m.group(1)), int(m.group(3) or year), "")
    seen, uniq = set(), []
    for d in sorted(out, key=lambda d: d.start):  # every mention; a repeat elsewhere is kept
        if (d.iso, d.start) not in seen and 1 <= d.month <= 12 and 1 <= d.day <= 31:
            seen.add((d.iso, d.start))
            uniq.append(d)
    return uniq


# a day of the month said without its month (21号, 12、13号两天, 7号（礼拜六）); not a number of a
# thing (5号仓库, 3号线, 3号月台, 编号, 第2号) and not a time or quantity
# (罚1200:25号: a colon after an amount, not a clock's, may come right before the day)
_BARE_DAY = (r"(?:(?<=\d{3}:)|(?<![\d.:/月号第编序型]))(\d{1,2})((?:\s*号)?"
             r"(?:\s*(?:、|,|和|及|与|至|到|~|-)\s*"
             r"\d{1,2}(?![\d.:]))+|)\s*号(?![码线楼门仓库位柜台道口站房室院]|月台|车间|泊位)")


def _bare_days(out: list[Date], t: str, year: int) -> None:
    """Days of the month written without a month, in the month of the last date before them,
    else the month the text names, else the competition's month (`EPOCH`): a driver writes
    "21号" for the 21st of the month the rule is for."""
    named = months(t, year)
    hits = list(rx.finditer(_BARE_DAY, t))
    # "on the 22nd": an English ordinal day with no month after it
    hits += list(rx.finditer(r"(?i)\b(?:on|by|until|till|from)\s+(?:(?:mon|tues?|wed(?:nes)?|"
                             r"thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\s+)?the "
                             r"(\d{1,2})(?:st|nd|rd|th)\b()(?!\s*(?:of\s+)?" + _MON_ALT + r")",
                             t))
    for m in sorted(hits, key=lambda x: x.start()):
        if any(d.start <= m.start() < d.end for d in out):
            continue
        before = [d for d in out if d.end <= m.start()]
        if before:
            y, mo = before[-1].year, before[-1].month
        elif named:
            y, mo = (int(x) for x in named[0][0].split("-"))
        else:
            y, mo = year, EPOCH.month
        first = int(m.group(1))
        if not 1 <= first <= 31:
            continue
        got = [Date(y, mo, first, m.start(), m.end())]
        for sep, d2 in rx.findall(r"(、|,|和|及|与|至|到|~|-)\s*(\d{1,2})", m.group(2) or ""):
            d2 = int(d2)
            if not 1 <= d2 <= 31:
                continue
            if sep in ("至", "到", "~", "-") and d2 > got[-1].day:
                got += [Date(y, mo, dd, m.start(), m.end())
                        for dd in range(got[-1].day + 1, d2 + 1)]
            else:
                got.append(Date(y, mo, d2, m.start(), m.end()))
        out += got


def distinct_isos(ds: list[Date]) -> list[str]:
    out: list[str] = []
    for d in ds:
        if d.iso not in out:
            out.append(d.iso)
    return out


def _en_dates(out: list[Date], m: re.Match[str], mo: int, d: int, y: int, rest: str) -> None:
    if not 1 <= d <= 31:
        return
    out.append(Date(y, mo, d, m.start(), m.end()))
    for sep, _mon2, d2 in rx.findall(r"(,|and|&|to|-|through)\s*(?:" + _MON_ALT +
                                    r"()\.?\s+)?(\d{1,2})", rest or "", re.I):
        d2 = int(d2)
        if sep in ("to", "-", "through") and d2 > out[-1].day:
            for dd in range(out[-1].day + 1, d2 + 1):
                out.append(Date(y, mo, dd, m.start(), m.end()))
        else:
            out.append(Date(y, mo, d2, m.start(), m.end()))


def months(t: str, year: int = EPOCH.year) -> list[tuple[str, int]]:
    """'YYYY-MM' months named alone (3月, 三月份, March, 2026年4月), with positions."""
    out = []
    for m in rx.finditer(r"(?:(\d{4})\s*年\s*)?(?<!\d)(\d{1,2})\s*月(?!\s*\d{1,2}\s*(?:日|号))", t):
        mo = int(m.group(2))
        if 1 <= mo <= 12:
            out.append((f"{int(m.group(1) or year):04d}-{mo:02d}", m.start()))
    for m in rx.finditer(r"\b(january|february|march|april|may|june|july|august|september|"
                         r"october|november|december)\b(?:\s+(\d{4}))?", t, re.I):
        mo = _MONTHS_EN[m.group(1).lower()[:3]]
        out.append((f"{int(m.group(2) or year):04d}-{mo:02d}", m.start()))
    for m in rx.finditer(r"(\d{4})-(\d{2})(?!-\d)", t):
        out.append((f"{m.group(1)}-{m.group(2)}", m.start()))
    return sorted(out, key=lambda x: x[1])


# ---------------------------------------------------------------- coordinates, boxes, radii
@dataclass(frozen=True)
class Coord:
    lat: float
    lng: float
    start: int
    end: int


_F = r"(\d{2,3}(?:\.\d+)?)"


def _latlng(a: float, b: float) -> tuple[float, float] | None:
    if 15 <= a <= 30 and 100 <= b <= 125:
        return a, b
    if 15 <= b <= 30 and 100 <= a <= 125:
        return b, a
    return None


def coords(t: str) -> list[Coord]:
    """(lat, lng) pairs however written: '(22.54, 114.06)', '北纬22.54、东经114.06',
    'lat 22.54 lng 114.06', '114.06E 22.54N'; the order is decided by magnitude."""
    out: list[Coord] = []
    pats = [
        # (home lat 23.0285, home lng 113.1430: a sheet's cells, each named)
        r"(?:北纬|纬度|lat(?:itude)?)\s*[:=]?\s*" + _F + r"\s*(?:°|度)?\s*[Nn]?\s*[,，、;/ ]?\s*"
        r"(?:和|and)?\s*(?:[A-Za-z_]{1,10}\s+)?"
        r"(?:东经|经度|lng|lon(?:gitude)?)\s*[:=]?\s*" + _F,
        r"(?:东经|经度|lng|"
        r"lon(?:gitude)?)\s*[:=]?\s*" + _F + r"\s*(?:°|度)?\s*[,，、;/ ]?\s*(?:和|and)?\s*"
        r"(?:北纬|纬度|lat(?:itude)?)\s*[:=]?\s*" + _F,
        r"(?<![\d.])" + _F + r"\s*°?\s*[NnEe]?\s*[,，、/ ]\s*" + _F + r"\s*°?\s*[NnEe]?(?!\d|\.\d)",
        # 22.5176 north, 113.3926 east
        r"(?<![\d.])" + _F + r"\s*(?:degrees?\s*)?(?:north|east)\s*[,，、;/ ]?\s*(?:and\s*)?" + _F
        + r"\s*(?:degrees?\s*)?(?:north|east)\b",
        # N22.819 E113.673, E113.673 N22.819: the hemisphere letter before the number
        r"(?<![A-Za-z])[NnEe]\s*" + _F + r"\s*°?\s*[,，、;/ ]?\s*[NnEe]\s*" + _F + r"(?!\d|\.\d)",
    ]
    for p in pats:
        for m in rx.finditer(p, t, re.I):
            if any(c.start <= m.start() < c.end for c in out):
                continue
            ll = _latlng(float(m.group(1)), float(m.group(2)))
            if ll is None or "." not in m.group(1) + m.group(2):
                continue
            out.append(Coord(ll[0], ll[1], m.start(), m.end()))
    return sorted(out, key=lambda c: c.start)


def _range(t: str, words: str, lo: float, hi: float) -> tuple[float, float, int] | None:
    m = rx.search(r"(?:" + words + r")\s*(?:[(（][^()（）\d]{0,12}[)）])?\s*"
                  r"(?:在|为|从|自|between|from|range|of|:)?\s*(?:范围)?\s*"
                  r"(\d{2,3}(?:\.\d+)?)\s*(?:°|度)?\s*[NnEe]?\s*(?:至|到|~|-|and|to|与|和)\s*"
                  r"(?:北纬|东经)?\s*(\d{2,3}(?:\.\d+)?)", t, re.I)
    if not m:
        return None
    a, b = float(m.group(1)), float(m.group(2))
    if not (lo <= a <= hi and lo <= b <= hi):
        return None
    return min(a, b), max(a, b), m.start()


def _suffix_range(t: str, letter: str, lo: float, hi: float) -> tuple[float, float, int] | None:
    """22.4N-23.2N, or with the letter before each number: N22.40-N23.20."""
    m = (rx.search(r"(\d{2,3}(?:\.\d+)?)\s*°?\s*" + letter + r"?\s*(?:至|到|~|-|to)\s*"
                   r"(\d{2,3}(?:\.\d+)?)\s*°?\s*" + letter + r"\b", t)
         or rx.search(r"(?<![A-Za-z])" + letter + r"\s*(\d{2,3}(?:\.\d+)?)\s*°?\s*(?:至|到|~|-|to)"
                      r"\s*" + letter + r"\s*(\d{2,3}(?:\.\d+)?)(?![\d.])", t))
    if not m:
        return None
    a, b = float(m.group(1)), float(m.group(2))
    if not (lo <= a <= hi and lo <= b <= hi):
        return None
    return min(a, b), max(a, b), m.start()


def _degree_range(t: str, words: str, lo: float, hi: float) -> tuple[float, float, int] | None:
    """'22.3 and 23.6 degrees north', '112.9 to 114.2 east'."""
    m = rx.search(r"(\d{2,3}(?:\.\d+)?)\s*°?\s*(?:至|到|~|-|to|and)\s*(\d{2,3}(?:\.\d+)?)\s*"
                  r"(?:°|degrees?|度)?\s*(?:" + words + r")\b", t, re.I)
    if not m:
        return None
    a, b = float(m.group(1)), float(m.group(2))
    return (min(a, b), max(a, b), m.start()) if lo <= a <= hi and lo <= b <= hi else None


def _ineq_range(t: str, words: str, lo: float, hi: float) -> tuple[float, float, int] | None:
    m = rx.search(r"(\d{2,3}(?:\.\d+)?)\s*(?:<=|≤|<|≦)\s*(?:" + words + r")\s*(?:<=|≤|<|≦)\s*"
                  r"(\d{2,3}(?:\.\d+)?)", t, re.I)
    if not m:
        return None
    a, b = float(m.group(1)), float(m.group(2))
    return (min(a, b), max(a, b), m.start()) if lo <= a <= hi and lo <= b <= hi else None


def _compass_box(t: str) -> dict[str, float] | None:
    """北至北纬23.70，南至23.10，东至东经117.00，西至116.10 (north to 23.7, south to 23.1, ...):
    the four edges, each by its own direction."""
    edge: dict[str, float] = {}
    for key, words in (("n", r"北|north(?:ern)?"), ("s", r"南|south(?:ern)?"),
                       ("e", r"东|east(?:ern)?"), ("w", r"西|west(?:ern)?")):
        m = rx.search(rf"(?:{words})\s*(?:至|到|边到|边至|界|端|面到|edge|bound(?:ary)?|limit)?"
                      r"\s*(?:at|to|is|:)?\s*(?:北纬|东经|纬度|经度|lat(?:itude)?|lo?ng(?:itude)?)?"
                      r"\s*(\d{2,3}\.\d+)", t, re.I)
        if m is None:
            return None
        edge[key] = float(m.group(1))
    if not (15 <= edge["s"] < edge["n"] <= 30 and 100 <= edge["w"] < edge["e"] <= 125):
        return None
    return {"lat_min": edge["s"], "lat_max": edge["n"], "lng_min": edge["w"], "lng_max": edge["e"]}


def bbox(t: str) -> dict[str, float] | None:
    """An explicit box: latitude and longitude ranges, its four edges, or two corners."""
    if (box := _compass_box(t)) is not None:
        return box
    la = (_range(t, r"北纬|纬度|latitudes?|lat", 15, 30) or _suffix_range(t, "N", 15, 30)
          or _ineq_range(t, r"北纬|纬度|latitude|lat", 15, 30)
          or _degree_range(t, r"north|N|北", 15, 30))
    ln = (_range(t, r"东经|经度|longitudes?|lng|lon", 100, 125)
          or _suffix_range(t, "E", 100, 125)
          or _ineq_range(t, r"东经|经度|longitude|lng|lon", 100, 125)
          or _degree_range(t, r"east|E|东", 100, 125))
    if la and ln:
        return {"lat_min": la[0], "lat_max": la[1], "lng_min": ln[0], "lng_max": ln[1]}
    cs = coords(t)
    if len(cs) == 2 and rx.search(r"角|corner|对角|box|矩形|方框|范围|框", t, re.I):
        return {"lat_min": min(c.lat for c in cs), "lat_max": max(c.lat for c in cs),
                "lng_min": min(c.lng for c in cs), "lng_max": max(c.lng for c in cs)}
    return None


_KM = r"(?:公里|千米|km|kilometers?|kilometres?|kms)"


def km_values(t: str) -> list[tuple[float, int]]:
    return [(v, a) for v, a, _ in km_spans(t)]


def km_spans(t: str) -> list[tuple[float, int, int]]:
    """Distances in km as (value, start, end)."""
    return [(float(m.group(1)), m.start(), m.end()) for m in
            rx.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s*-?\s*" + _KM + r"(?![a-z])", t, re.I)]


def radius(t: str) -> float | None:
    m = (rx.search(r"半径\s*(?:为|是)?\s*(\d+(?:\.\d+)?)\s*" + _KM, t, re.I)
         or rx.search(r"radius\s*(?:of|:|=)?\s*(\d+(?:\.\d+)?)\s*" + _KM, t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*-?\s*" + _KM + r"\s*(?:为|的|作为)?\s*(?:radius|半径)",
                      t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*" + _KM + r"\s*(?:以内|之内|内|范围|的范围|"
                                                    r"附近)", t, re.I)
         or rx.search(r"(?:within|inside)\s*(?:a\s+)?(\d+(?:\.\d+)?)\s*-?\s*" + _KM, t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*-?\s*" + _KM + r"\s+(?:around|of|from|about)\b", t, re.I)
         or rx.search(r"(?:周围|周边|方圆|附近|范围)\s*(\d+(?:\.\d+)?)\s*" + _KM, t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*-?\s*" + _KM + r"\s+away", t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*-?\s*" + _KM + r"\s+(?:circle|zone|ring|area|bubble)",
                      t, re.I)
         or rx.search(r"(?:radius|半径)\D{0,6}?(\d+(?:\.\d+)?)\s*" + _KM, t, re.I)
         # 离(22.80, 113.29)不到4公里的地方: nearer than N km to a point
         or rx.search(r"离[^，。;；]{0,30}?(?:不到|不足|小于|少于|不满)\s*(\d+(?:\.\d+)?)\s*" + _KM,
                      t, re.I))
    if m is None:  # metres: 五百米内, within 500 m
        mm = (rx.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:米|m|meters?|metres?)\s*(?:以内|之内|内|"
                        r"范围)", t, re.I)
              or rx.search(r"(?:半径|方圆|within|radius(?: of)?)\s*(\d+(?:\.\d+)?)\s*(?:米|m\b|"
                           r"meters?|metres?)", t, re.I))
        return float(mm.group(1)) / 1000 if mm else None
    return float(m.group(1)) if m else None


# ---------------------------------------------------------------- money
_CAP_NONE = re.compile(r"无月度封顶|上不封顶|不封顶|无封顶|没有封顶|不设封顶|无上限|没有上限|"
                       r"不设上限|"
                       r"no (?:monthly )?cap|uncapped|without (?:a |any )?(?:monthly )?cap|"
                       r"no upper limit|no (?:monthly )?ceiling|not capped", re.I)
_CAP = [
    r"(?:封顶|累计上限|扣款上限|罚款上限|月度上限|上限|累计最多(?:扣|罚)?(?:钱|款)?|最多(?:扣|"
    r"罚)(?:钱|款)?|"
    r"总共最多|最高(?:扣|罚)?(?:钱|款)?|累计不超过|累计不得超过|总共不超过|合计不超过|"
    r"最多不超过|总额不超过)\s*(?:为|是|到)?\s*(?:全月|每月|本月|当月)?\s*(?:¥|rmb|cny|人民币)?\s*"
    r"(\d+(?:\.\d+)?)(?!\d|\.\d)"
    r"(?!\s*(?:公里|千米|km|单|天|日|次|小时|个|分钟|笔|趟|%))\s*(?:元|块)?",
    r"(\d+(?:\.\d+)?)\s*(?:元|块)\s*(?:封顶|为上限|上限)",
    r"累计(?:扣款|罚款)?以?(?:人民币)?\s*(\d+(?:\.\d+)?)\s*(?:元|块)?\s*为限",
    # 一个月罚满1200就不再罚了: the fines stop once they reach the cap
    r"(?:罚|扣)满\s*(\d+(?:\.\d+)?)\s*(?:元|块)?\s*(?:就|后|以后|之后)?\s*不再(?:罚|扣)",
    r"(?:aggregate|total|cumulative)\s+(?:liability|fines?|penalt\w*|damages|deductions?)"
    r"[^.;]{0,60}?(?:shall not exceed|not exceed|capped at|limited to)\s*(?:¥|rmb|cny)?\s*"
    r"(\d+(?:\.\d+)?)",
    r"cap\s+it\s+at\s*(?:¥|rmb|cny)?\s*(\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:orders?|jobs?|loads?|"
    r"trips?|runs?|km|kilomet|days?|hours?|单|天|公里))(?:\s*(?:for|in|per|a|each|this)\s+"
    r"(?:the\s+)?month)?(?:\s*in total)?",
    r"(?:capped|cap(?:ped)?)\s*(?:at|of|:)?\s*(?:¥|rmb|cny)?\s*(\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:orders?|"
    r"jobs?|loads?|trips?|runs?|km|kilomet|days?|hours?|单|天|公里))",
    r"(?:up to|at most|maximum(?: of)?|max(?:imum)?\.?|no more than|not exceeding)\s*(?:¥|rmb|"
    r"cny)?\s*"
    r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny|元)\s*(?:in total|total|per month|a month|each month|"
    r"overall|altogether|(?:for|in) (?:the|a|this|that) (?:whole )?month)",
    # (a fine word or a currency: "total ... at most 1500" is a km bound)
    r"(?:total|in total|overall|monthly)\s*(?:fines?|penalt(?:y|ies))\s*(?:of\s+)?(?:up to|"
    r"at most|capped at|no more than)\s*(?:¥|rmb|cny)?\s*(\d+(?:\.\d+)?)",
    r"(?:total|in total|overall|monthly)\s*(?:of\s+)?(?:up to|at most|capped at|no more than)"
    r"\s*(?:¥|rmb|cny)\s*(\d+(?:\.\d+)?)",
    r"(?:total|in total|overall|monthly)\s*(?:of\s+)?(?:up to|at most|capped at|no more than)"
    r"\s*(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny|元)",
    r"(?:total|in total|overall|monthly)\s*(?:of\s+)?capped at\s*(\d+(?:\.\d+)?)",
    r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny)\s*cap",
    r"(?:max(?:imum)?|at most|up to|cap(?:ped)?(?: at)?|limit(?:ed)?(?: to)?)\s*(?:of\s*)?"
    r"(?:¥|rmb|cny)\s*(\d+(?:\.\d+)?)",
]
_NOT_A_UNIT = (r"(?!\d|\.\d|\s*(?:km|kilomet|days?|hours?|hrs?|orders?|jobs?|loads?|min|%|:|"
               r"公里|天|小时|单|次))")
# who is paid, between the verb and the amount (赔他一千二, 赔给客户500)
_WHOM = r"(?:给)?(?:他|她|人家|对方|老板|客户|货主)?\s*"
_AMOUNT = [
    r"(?:扣钱|扣款|扣罚|扣|罚款|罚钱|罚|赔|交)\s*(?:钱|款)?\s*(?:¥)?\s*(\d+(?:\.\d+)?)\s*(?:元|块|"
    r"yuan)",
    r"(?:损失|赔偿|赔|亏)\s*" + _WHOM + r"(?:¥)?\s*(\d+(?:\.\d+)?)"
    r"(?!\d|\.\d|\s*(?:公里|km|单|天|次|小时|分钟|%|个|米))",
    r"(?:罚款|扣款|罚金)\s*(?:为|是)?\s*(\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:晚|天|次|单|趟|回))",
    # 记100块, 算900块, 按350块罚; 120块罚款; knock 80 yuan off, knock off 250
    r"(?:记|算|按)\s*(?:我|他|你)?\s*(\d+(?:\.\d+)?)\s*(?:元|块)",
    r"(\d+(?:\.\d+)?)\s*(?:元|块)\s*(?:的)?(?:罚款|违约金)",
    r"(?i)knock\s*(?:off\s*)?(?:¥|rmb)?\s*(\d+(?:\.\d+)?)",
    # 禁止 200每单 (✗200/单): the mark, then the fine
    r"(?:禁止|banned)\s+(\d+(?:\.\d+)?)\s*(?:元|块|yuan)?(?=\s*(?:每|/|each|per))",
    # 按时段罚，每个时段120
    r"(?:罚|扣)[^。;；]{0,6}每(?:个|一个)?时段\s*(\d+(?:\.\d+)?)(?!\d|\.\d)",
    r"(?:fine[ds]?|penalty|penalised|penalized|charged?|deduct(?:ed|ion)?|lose|pay|costs?)\s*"
    r"(?:of|:|is|by)?\s*(?:a fine of\s*|¥|rmb|cny)?\s*(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny|元)?",
    r"(?:¥|rmb|cny)\s*(\d+(?:\.\d+)?)",
    r"(\d+(?:\.\d+)?)\s*¥",
    # "is 200 off your pay": docked from the driver's pay
    r"(?i)(\d+(?:\.\d+)?)\s*(?:yuan\s*)?off (?:your|his|her|the) pay",
    r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny|元|块)\s*(?:fine|penalty|deduction|off)",
    r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|cny|元)",
    # 罚: 400 (a sheet's key and value)
    r"(?:罚|扣)(?:钱|款)?\s*(?:[:：]\s*)?(\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:公里|km|单|天|晚|次|小时|"
    r"分钟|%|个|米))",
    # 罚款一天200块, 每公里两块
    r"(?:罚款|扣款|罚钱|扣钱|罚|扣|赔)\s*(?:每|1)\s*(?:天|晚|次|单|趟|回)\s*(\d+(?:\.\d+)?)"
    r"(?!\d|\.\d|\s*(?:公里|km|单|天|次|小时|分钟|%|个|米))",
    r"每\s*(?:1\s*)?(?:公里|km)\s*(\d+(?:\.\d+)?)\s*(?:元|块)",
]
# Read only where none of the above finds an amount: a bare amount a breach names ("Otherwise
# 800.", "Not enough, 450 one time.", "250 per
    # order that breaks it", "Each extra: 500", "a single 1000 fine", "900 once")
_AMOUNT_BARE = [
    r"(?i)(?:otherwise|if not|or else|not enough|fewer than that|less than that|"
    r"if you (?:don't|do not|fail|miss)\b[^\d;.]{0,12}?|"
    r"miss(?:ed)?(?: it| any part| one)?|break(?:s)? it|each extra|every extra|each one short|"
    r"a one-off|a single)(?:(?!max|most|up to|cap|limit|total)[^\d;.]){0,12}?(\d+(?:\.\d+)?)"
    + _NOT_A_UNIT,
    r"(?i)(?<![\d.:])(\d+(?:\.\d+)?)\s*(?:per|each|for each|for every|every|a)\s+(?:order|load|job|"
    r"trip|night|day|time step|step|breach|violation|extra|one)\b(?![^.;]{0,20}(?:km|days?))",
    r"(?i)(?<![\d.:])(\d+(?:\.\d+)?)[ \t]*(?:fine|penalty|once|one[ -]time|one-off)\b(?!\s*:)",
    r"(?i)(?<![\d.:])(\d+(?:\.\d+)?)\s+each\b(?=\s*(?:[,.;)]|$))",
    r"(?i)\b(?:every|each|per)\s+(?:time\s+)?step\b[^\d;.]{0,20}?:\s*(\d+(?:\.\d+)?)"
    + _NOT_A_UNIT,
    r"(?i)(?:(?<![<>!=])=|\bthen)\s*(\d+(?:\.\d+)?)(?![\d.]*\s*,\s*\d)(?![\d.]*-\d)"
    + _NOT_A_UNIT,
    r"(?<![\d.:])(\d+(?:\.\d+)?)\s*(?:元|块)?\s*每\s*(?:晚|天|日|单|次|步|个时段)",
    # 总共只罚一次，八百块: an amount in 块 (not 一块, "together", nor a litre's price)
    r"(?<![\d.])(\d{2,}(?:\.\d+)?)\s*块(?!\s*(?:多|一升|每升|/升))",
]
_RATE = re.compile(r"(?:每分钟|每迟到1分钟|per minute|a minute|each minute|every minute|"
                   r"/\s*min(?:ute)?\b|/\s*分钟|按分钟|每(?:迟到|晚到|不在家|离家)\s*1?\s*分钟)",
                   re.I)


_FINE_WORDS = (r"罚|扣|违约金|赔|违反|处罚|fine|penalt|charge|deduct|knock|liquidated|damages|"
               r"breach|cost(?:s)? me|扣款|deduction")


def money(t: str) -> tuple[float | None, float | None, bool, list[tuple[int, int]]]:
    """(amount, cap, cap_stated_none, cap spans). The amount is the first fine not part of a
    cap and not a per-minute rate."""
    spans: list[tuple[int, int]] = []
    cap = None
    for p in _CAP:
        for m in rx.finditer(p, t, re.I):
            spans.append((m.start(), m.end()))
            if cap is None:
                cap = float(m.group(1))
    none = bool(_CAP_NONE.search(t))
    if none:
        cap = None
    rate = rate_per_minute(t)

    def found(patterns: list[str]) -> list[tuple[int, float]]:
        out = []
        for p in patterns:
            for m in rx.finditer(p, t, re.I):
                s, e = m.start(1), m.end(1)
                if any(a <= s < b for a, b in spans):
                    continue
                a = max([x.end() for x in rx.finditer(r"[;；。,，!]|\.(?!\d)", t[:m.start()])]
                        or [0])
                b = rx.search(r"[;；。,，!]|\.(?!\d)", t[m.end():])
                # a per-minute rate's amount (每分钟罚2元, 2元/min), not a fine beside it in the
                # clause (没做到罚300元 另按2元/min)
                if _RATE.search(t[a:m.end() + (b.start() if b else len(t))]) and (
                        rate is None or float(m.group(1)) == rate):
                    continue
                if rx.match(r"\s*(?:公里|km|单|天|小时|hours?|days?|orders?)", t[e:e + 8], re.I):
                    continue
                out.append((s, float(m.group(1))))
        return out

    cands = found(_AMOUNT)
    bare = not cands  # then the amount is read from `_AMOUNT_BARE`
    if bare:
        cands = found(_AMOUNT_BARE)
    # the amount in a clause that names a fine, before one in a story around it (a 450-yuan
    # order, 80 yuan of mangoes); with none named, the last (a rule's fine comes after its
    # reasons)
    def fined(pos: int) -> bool:
        a = max([x.end() for x in rx.finditer(r"[;；。!！?？]|\.(?!\d)", t[:pos])] or [0])
        b = rx.search(r"[;；。!！?？]|\.(?!\d)", t[pos:])
        return rx.search(_FINE_WORDS, t[a:pos + (b.start() if b else len(t))], re.I) is not None

    named = sorted(c for c in cands if fined(c[0]))
    amount = (named[0][1] if named else max(cands)[1]) if cands else None
    if bare and cands:  # a bare amount before any other, and a bare cap after it
        at, amount = min(cands)
        m = rx.search(r"(?i)\b(?:max(?:imum)?|at most|up to|capped at|total max)\.?\s*"
                      r"(\d+(?:\.\d+)?)" + _NOT_A_UNIT, t[at:])
        if cap is None and not none and m and float(m.group(1)) > amount:
            cap = float(m.group(1))
    if cap is None and not none and amount is not None:
        # a cap written as a count of fines: 累计10单封顶, 最多罚10次, at most 5 fines
        m = rx.search(r"(?:(?:累计|最多|至多)(?:罚|扣)(?:款|钱)?\s*(\d+)\s*(?:单|次|天|笔)|"
                      r"累计\s*(\d+)\s*(?:单|次|天|笔)\s*(?:封顶|为限))|"
                      r"(?:at most|up to|no more than)\s+(\d+)\s+(?:fines|penalties|charges)",
                      t, re.I)
        n = float(m.group(1) or m.group(2) or m.group(3)) if m else 1.0
        if n > 1:  # 最多扣一次 is the once mode, not a cap
            cap = amount * n
    return amount, cap, none, spans


def rate_per_minute(t: str) -> float | None:
    # 每少待一分钟罚1.5元, 每差一分钟加1.5元: a few words between 每 and the minute
    m = (rx.search(r"每[\u4e00-\u9fff]{0,4}?(?:\s*1\s*)?分钟\s*(?:要|再|另外?)?(?:加|多)?"
                   r"(?:罚|扣|罚款|扣款)?\s*(?:钱|款)?\s*"
                   r"(\d+(?:\.\d+)?)\s*(?:元|块)?", t)
         # 差一分钟就罚两块钱, 每迟/每少一分钟 1元, 每 超 一分钟在(再)罚2块: said aloud or typed
         # in pinyin, the minute short or late and its price
         or rx.search(r"(?:差|少|迟|晚|超)(?:了)?\s*(?:1|一)\s*分钟\s*(?:就|要)?\s*(?:再|在|另)?"
                      r"(?:加(?:罚|扣)?|罚|扣)\s*(\d+(?:\.\d+)?)\s*(?:元|块)", t)
         or rx.search(r"每\s*(?:迟|晚|少|超)?\s*/\s*(?:每)?\s*(?:迟|晚|少|超)\s*(?:1|一)\s*分钟"
                      r"\s*(?:就|要)?\s*(?:再|在|另)?(?:加)?(?:罚|扣)?\s*(\d+(?:\.\d+)?)", t)
         or rx.search(r"(\d+(?:\.\d+)?)\s*(?:元|块|yuan|rmb)\s*(?:/|每|per|a|each)\s*(?:1\s*)?"
                      r"(?:分钟|min(?:ute)?)", t, re.I)
         or rx.search(r"(?<![\d.:])(\d+(?:\.\d+)?)\s*/\s*min(?:ute)?\b", t, re.I)
         # 另每差1min +1元: the minute in letters, the price after a plus
         or rx.search(r"每\s*(?:差|少|迟|晚|超)?\s*1?\s*min(?:ute)?s?\s*\+?\s*(\d+(?:\.\d+)?)\s*"
                      r"(?:元|块|yuan)", t, re.I)
         # "plus RMB 2 for every minute I fall short": the currency before the number
         or rx.search(r"(?:rmb|¥|cny)\s*(\d+(?:\.\d+)?)\s*(?:/|per|a|each|for each|for every|"
                      r"every)\s*(?:1\s*)?min(?:ute)?\b", t, re.I)
         or rx.search(r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|元|块)\s*(?:for|of)?\s*(?:each|every|per|a)"
                      r"\s+minute", t, re.I)
         or rx.search(r"(?:per|each|every|a)\s+minute[^;，。]{0,70}?(\d+(?:\.\d+)?)\s*(?:yuan|rmb)",
                      t, re.I)
         # "every minute not at home ... costs ¥2": the currency before the number
         or rx.search(r"(?:per|each|every|a)\s+minute[^;，。]{0,70}?(?:¥|rmb|cny)\s*"
                      r"(\d+(?:\.\d+)?)", t, re.I)
         # "every minute away between 17:00 and 22:00 costs 1.5": no currency, a price's verb
         or rx.search(r"(?:per|each|every|a)\s+minute[^;，。]{0,70}?\b(?:costs?|is fined|"
                      r"fined|charged|deducts?)\s*(?:me\s*|you\s*)?(\d+(?:\.\d+)?)"
                      r"(?![\d.:]|\s*(?:min|km|h\b|hours?))", t, re.I))
    return float(m.group(1)) if m else None


# ---------------------------------------------------------------- categories
_CAT_ALIASES: list[tuple[str, str]] = [
    (r"鲜活水产品|鲜活水产|水产品|水产|海鲜|鲜活", "鲜活水产品"),
    (r"服饰纺织皮革|服饰|纺织|皮革|服装|衣服|布料|布匹|成衣|皮具", "服饰纺织皮革"),
    (r"快递快运搬家|快递|快运|搬家", "快递快运搬家"),
    (r"化工塑料|化工|塑料", "化工塑料"),
    (r"煤炭矿产|煤炭|矿产|煤", "煤炭矿产"),
    (r"机械设备|机械|设备", "机械设备"),
    (r"食品饮料|食品|饮料", "食品饮料"),
    (r"蔬菜|菜", "蔬菜"),
    (r"水果", "水果"),
    (r"建材|建筑材料", "建材"),
    (r"\bvegetables?\b|\bveg\b|\bgreens\b", "蔬菜"),
    (r"\bfruits?\b", "水果"),
    (r"\bbuilding[\s-]materials?|\bconstruction[\s-]materials?|\bbuilding supplies\b", "建材"),
    (r"\bchemicals?(?:\s*(?:and|&|/|,)\s*plastics?)?|\bplastics?\b", "化工塑料"),
    (r"\bcoal(?:\s*(?:and|&|/|,)\s*(?:minerals?|mining|ores?))?|\bminerals?\b|"
     r"\bores?\b", "煤炭矿产"),
    (r"\bmachinery(?:\s*(?:and|&|/|,)\s*equipment)?|\bequipment\b|\bmachines?\b", "机械设备"),
    (r"\bfood(?:\s*(?:and|&|/|,)\s*(?:beverages?|drinks?))?\b|\bbeverages?\b|\bdrinks?\b",
     "食品饮料"),
    (r"(?:live|fresh)\s*(?:and\s*live\s*)?(?:aquatic products?|seafood|fish)|aquatic products?|"
     r"seafood", "鲜活水产品"),
    (r"\bcloth(?:ing|es)\b|\bgarments?\b|\btextiles?\b|\bleather\b|\bapparel\b", "服饰纺织皮革"),
    (r"express(?:\s*(?:delivery|freight|parcels?))?|courier|parcels?|house moving|"
     r"moving house|removals?|\bmoving (?:jobs?|loads?|orders?|cargo|goods)\b", "快递快运搬家"),
]


def canonical_category(s: str) -> str | None:
    s = s.strip()
    if s in CATEGORIES:
        return s
    for pat, cat in _CAT_ALIASES:
        if rx.fullmatch(pat, s, re.I) or (len(s) <= 8 and rx.search(pat, s, re.I)):
            return cat
    return None


def categories(t: str) -> list[tuple[str, int]]:
    """Categories in text order: 「…」 contents first (canonicalised when known), then names."""
    out: list[tuple[str, int]] = []
    taken: list[tuple[int, int]] = []
    for m in rx.finditer(r"[「『“\"《【]([^」』”\"》】]{1,20})[」』”\"》】]", t):
        for part in rx.split(r"[、,/和及与]", m.group(1)):
            c = canonical_category(part)
            if c:
                out.append((c, m.start()))
        taken.append((m.start(), m.end()))
    for pat, cat in _CAT_ALIASES:
        for m in rx.finditer(pat, t, re.I):
            if any(a <= m.start() < b for a, b in taken):
                continue
            around = t[max(0, m.start() - 1):m.end() + 1]
            not_veg = rx.search(r"(?:吃|饭|买|做|送)菜|菜(?:市|场)", around)
            if cat == "蔬菜" and m.group(0) == "菜" and not_veg:
                continue
            if cat == "煤炭矿产" and m.group(0) == "煤" and "煤气" in t[m.start():m.end() + 1]:
                continue
            # 食品级内衬, food-grade liner: a grade of the truck's lining, no load
            if cat == "食品饮料" and rx.match(r"\s*(?:级|[-\s]grade\b)", t[m.end():], re.I):
                continue
            out.append((cat, m.start()))
            taken.append((m.start(), m.end()))
    seen, res = set(), []
    for c, p in sorted(out, key=lambda x: x[1]):
        if c not in seen:
            seen.add(c)
            res.append((c, p))
    return res


# ---------------------------------------------------------------- places


@dataclass(frozen=True)
class PlaceRef:
    name_zh: str  # as the cargo city substring: as written in Chinese, or the mapped name
    lat: float | None
    lng: float | None
    radius_km: float | None
    start: int
    end: int
    prefecture: bool


@cache
def _place_index() -> tuple[list[tuple[str, PlaceRef]], list[tuple[str, PlaceRef]]]:
    zh: dict[str, PlaceRef] = {}
    en: dict[str, PlaceRef] = {}
    counties = load_counties()
    by_city: dict[str, list] = {}
    for c in counties:
        by_city.setdefault(c.city_en, []).append(c)
    for city_en, city_zh in PREFECTURES_ZH.items():
        cs = by_city.get(city_en, [])
        # the prefecture's seat: its most populous county-level unit
        seat = max(cs, key=lambda c: c.population) if cs else None
        ref = PlaceRef(city_zh, seat.lat if seat else None, seat.lng if seat else None,
                       None, 0, 0, True)
        zh[city_zh + "市"] = ref
        zh[city_zh] = ref
        en[city_en.lower()] = ref
    for old, city_en in PREFECTURE_ALIASES_EN.items():
        en[old.lower()] = en[city_en.lower()]
    for c in counties:
        if c.name_zh in (PREFECTURES_ZH.get(c.city_en, "") + "市",):
            continue
        ref = PlaceRef(c.name_zh, c.lat, c.lng, c.radius_km, 0, 0, False)
        zh.setdefault(c.name_zh, ref)
        short = rx.sub(r"(瑶族自治县|壮族瑶族自治县|自治县|区|县|市)$", "", c.name_zh)
        if len(short) >= 2:
            zh.setdefault(short, PlaceRef(short, c.lat, c.lng, c.radius_km, 0, 0, False))
        key = c.name_en.lower()
        if key not in en:
            en[key] = PlaceRef(c.name_zh, c.lat, c.lng, c.radius_km, 0, 0, False)
    return (sorted(zh.items(), key=lambda kv: -len(kv[0])),
            sorted(en.items(), key=lambda kv: -len(kv[0])))


# a company's name that starts with its city (肇庆通达物流有限公司, Foshan Shunda Logistics Co.,
# Ltd.), as a signature or a letterhead writes it: the company's, no place of the rule (a
# min-days-off rule read as a region quota of 肇庆 from its signature)
_COMPANY_ZH = (r"[^\s\d的在到去往和与及或装卸拉接交给跑把从、,，。;；:：!！?？()（）「」]{0,10}?"
               r"(?:有限责任公司|股份有限公司|有限公司|分公司|公司|集团)")
_COMPANY_EN = (r"(?:\s+(?:\([a-z]+\)|[a-z][a-z&.'-]*)){0,4}?,?\s+"
               r"(?:co\.?,?\s*ltd\b|ltd\b|limited\b|company\b|inc\b|corp(?:oration)?\b)")


def places(t: str) -> list[PlaceRef]:
    """Guangdong places in text order, longest name first at each position. A Chinese name is
    kept as written (with its 市/区/县 when present); an English one maps to the Chinese name.
    A company's name that starts with a place is no place (`_COMPANY_ZH`)."""
    zh, en = _place_index()
    out: list[PlaceRef] = []
    used = [False] * len(t)
    for m in [*rx.finditer(r"(?:" + "|".join(re.escape(n) for n, _ in zh) + r")" + _COMPANY_ZH,
                           t),
              *rx.finditer(r"(?i)\b(?:" + "|".join(re.escape(n) for n, _ in en) + r")\b" +
                           _COMPANY_EN, t)]:
        for i in range(m.start(), m.end()):
            used[i] = True
    for name, ref in zh:
        for m in rx.finditer(re.escape(name), t):
            if any(used[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                used[i] = True
            out.append(PlaceRef(name, ref.lat, ref.lng, ref.radius_km, m.start(), m.end(),
                                ref.prefecture))
    low = t.lower()
    for name, ref in en:
        for m in rx.finditer(r"\b" + re.escape(name) + r"(?:\s+(?:city|district|county))?\b", low):
            if any(used[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                used[i] = True
            out.append(PlaceRef(ref.name_zh, ref.lat, ref.lng, ref.radius_km, m.start(), m.end(),
                                ref.prefecture))
    return sorted(out, key=lambda p: p.start)


@dataclass(frozen=True)
class NamedPlace:
    """A place a rule names: written coordinates, or a district/county resolved to the county
    table's centre and radius (`radius_km` then set, `source` naming the county)."""

    lat: float
    lng: float
    radius_km: float | None
    start: int
    end: int
    source: str  # "coordinates" or "county table: <name>"


def points(cs: list[Coord], ps: list[PlaceRef]) -> list[NamedPlace]:
    """Coordinates and district/county names in text order. A prefecture (广州, 东莞) is a
    cargo-city name, not a point, so it is left out."""
    out = [NamedPlace(c.lat, c.lng, None, c.start, c.end, "coordinates") for c in cs]
    for p in ps:
        if p.prefecture or p.lat is None or p.lng is None:
            continue
        if any(c.start <= p.start < c.end for c in cs):
            continue
        out.append(NamedPlace(p.lat, p.lng, p.radius_km, p.start, p.end,
                              f"county table: {p.name_zh}"))
    return sorted(out, key=lambda x: x.start)


def cargo_ids(t: str) -> list[str]:
    """Cargo ids after an id word; a number followed by a unit (300 km, 100元) is not one."""
    out = []
    for m in rx.finditer(r"(?:货源编号|货源号|货号|编号|单号|订单号|货源|号码|编码|票号|"
                         r"cargo\s*(?:id|no\.?|number|#)|"
                         r"(?:order|load|shipment)\s*(?:id|no\.?|number|#)|\bID\b|#|(?-i:\bNo\.)|"
                         r"\bcargo\b|mandatory cargo)\s*(?:为|是|:|=)?\s*[「\"“'(]?\s*"
                         r"([A-Za-z0-9][A-Za-z0-9_-]{2,})", t, re.I):
        x = m.group(1)
        if not any(ch.isdigit() for ch in x) or (x.isdigit() and len(x) < 5):
            continue
        if rx.match(r"\s*(?:km|公里|千米|元|块|yuan|rmb|单|次|天|小时|h\b|hours?|minutes?|分钟|"
                    r"orders?|days?)", t[m.end():], re.I):
            continue
        out.append(x)
    if not out:  # "Promised a customer I'd haul C00098470": an id-shaped token with no id word
        out = rx.findall(r"(?<![A-Za-z0-9])([A-Za-z]{1,2}\d{6,})(?![A-Za-z0-9])", t)
    return out


# ---------------------------------------------------------------- all facts
@dataclass
class Facts:
    raw: str
    text: str  # NFKC-normalised
    num: str  # number view
    low: str  # number view, lowercased (English matching)
    kw: str = ""  # both views, lowercased: keyword groups match either spelling
    clocks: list[Clock] = field(default_factory=list)
    dates: list[Date] = field(default_factory=list)
    coords: list[Coord] = field(default_factory=list)
    bbox: dict[str, float] | None = None
    radius: float | None = None
    amount: float | None = None
    cap: float | None = None
    cap_none: bool = False
    cap_spans: list[tuple[int, int]] = field(default_factory=list)  # where `num` states a cap
    categories: list[tuple[str, int]] = field(default_factory=list)
    places: list[PlaceRef] = field(default_factory=list)
    durations: list[tuple[int, int]] = field(default_factory=list)
    points: list[NamedPlace] = field(default_factory=list)

    def has(self, pattern: str) -> bool:
        return rx.search(pattern, self.kw, re.I) is not None

    def count(self, *patterns: str) -> int:
        return sum(1 for p in patterns if self.has(p))


def facts(raw: str) -> Facts:
    text = normalise_text(raw)
    num = number_view(text)
    f = Facts(raw, text, num, num.lower(), text.lower() + " || " + num.lower())
    f.clocks = clocks(num)
    f.dates = dates(num)
    f.coords = coords(num)
    f.bbox = bbox(num)
    f.radius = radius(num)
    f.amount, f.cap, f.cap_none, f.cap_spans = money(num)
    f.categories = categories(num)
    f.places = places(num)
    f.durations = durations_min(num)
    f.points = points(f.coords, f.places)
    return f
