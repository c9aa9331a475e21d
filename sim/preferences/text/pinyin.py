"""A rule typed in pinyin without tones, where the Chinese input method was not at hand.

"yi tian bu chao 3 dan. mei duo jie yi dan kou 180 yuan", "wanshang 10 dian ban (22:30) qian
yao huidao jia, jia zai 23.1875,113.2631, 1.5 gongli nei suan dao jia": the words of a rule
in toneless pinyin, run together or spaced by syllable. A text that reads as pinyin (several
of its words are pinyin no English text uses) has the rule's words written in characters,
longest first, so the kinds read it as Chinese; numbers, clocks, coordinates, place names
and English words stay. Any other text is returned as it was.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

# words only pinyin uses (no English word is spelt so): three of them make a text pinyin
_CUE = (r"(?i)\b(?:mei ?tian|mei ?ri|zui ?duo|zhi ?shao|gong ?li|xiao ?shi|fen ?zhong|wan ?shang|"
        r"zao ?shang|xia ?wu|shang ?wu|zhong ?wu|kuai|dian|tian|dan|fa|bu|jie|pao|yue|hao|"
        r"yao|dao|qian|zhe|xiu ?xi|kong ?(?:che|shi|pao)|chao(?: ?guo)?|yi ?nei|fan ?wei|ting|"
        r"xian ?qu|lian ?xu|fang ?xiang)\b")

# the rule's words, pinyin (syllables joined or spaced) to characters; longer first
_WORDS: tuple[tuple[str, str], ...] = (
    # categories
    ("huagong suliao", "化工塑料"), ("meitan kuangchan", "煤炭矿产"),
    ("xianhuo shuichanpin", "鲜活水产品"), ("jixie shebei", "机械设备"), ("jiancai", "建材"),
    ("shucai", "蔬菜"), ("shuiguo", "水果"), ("shipin yinliao", "食品饮料"),
    ("fushi fangzhi pige", "服饰纺织皮革"), ("kuaidi kuaiyun banjia", "快递快运搬家"),
    # days, nights, clocks
    ("zhou yi dao zhou wu", "周一到周五"), ("mei ge yue", "每个月"), ("yi ge yue", "一个月"),
    ("mei tian", "每天"), ("mei ri", "每日"), ("mei wan", "每晚"), ("mei yue", "每月"),
    ("yi tian", "一天"), ("yi wan", "一晚"), ("dang tian", "当天"), ("na tian", "那天"),
    ("ling wai", "另外"), ("jia fa", "加罚"), ("zai fa", "再罚"),
    ("di yi dan", "第一单"), ("zui wan", "最晚"), ("kai shi", "开始"), ("quan yue", "全月"),
    ("lian xu xiu", "连续休息"), ("xian qu", "先去"), ("zai qu", "再去"), ("zong", "总"),
    ("di er tian", "第二天"), ("ci ri", "次日"), ("zheng tian", "整天"), ("san yue", "三月"),
    ("wan shang", "晚上"), ("zao shang", "早上"), ("shang wu", "上午"), ("xia wu", "下午"),
    ("zhong wu", "中午"), ("ye li", "夜里"), ("ling chen", "凌晨"), ("dian ban", "点半"),
    ("zhi qian", "之前"), ("yi qian", "以前"), ("zhi hou", "之后"), ("yi hou", "以后"),
    # how many, how far, how much
    ("zui duo", "最多"), ("zhi shao", "至少"), ("bu chao guo", "不超过"), ("bu chao", "不超过"),
    ("chao guo", "超过"), ("chao le", "超了"), ("yi nei", "以内"), ("fan wei", "范围"),
    ("ban jing", "半径"), ("zhou wei", "周围"), ("bu gou", "不够"), ("shao yu", "少于"),
    ("bu man zu", "不满足"), ("feng ding", "封顶"), ("yi ci", "一次"), ("zuo bu dao", "做不到"),
    ("mei zuo dao", "没做到"), ("mei wan cheng", "没完成"), ("wei fan", "违反"),
    ("gong li", "公里"), ("xiao shi", "小时"), ("fen zhong", "分钟"),
    # work, rest, home
    ("jie dan", "接单"), ("bu jie", "不接"), ("bu la", "不拉"), ("bu neng", "不能"),
    ("bu yao", "不要"), ("kai che", "开车"), ("pao che", "跑车"), ("chu men", "出门"),
    ("chu che", "出车"), ("bu zou", "不走"), ("bu jin qu", "不进去"), ("xiu xi", "休息"),
    ("lian xu", "连续"), ("wan quan", "完全"), ("quan bu", "全部"), ("xiu man", "休满"),
    ("hui dao jia", "回到家"), ("hui jia", "回家"), ("dao jia", "到家"), ("zai jia", "在家"),
    ("kong che", "空车"), ("kong shi", "空驶"), ("kong pao", "空跑"), ("zhuang huo", "装货"),
    ("xie huo", "卸货"), ("yun ju", "运距"), ("dan tang", "单趟"), ("chang tu", "长途"),
    ("cang ku", "仓库"), ("bao dao", "报到"), ("wei du", "纬度"), ("jing du", "经度"),
    ("ting liu", "停留"), ("yi zhi", "一直"), ("ran hou", "然后"), ("bi xu", "必须"),
    ("yi ding", "一定"), ("yi gai", "一概"), ("jie lao po", "接老婆"), ("jie hai zi", "接孩子"),
    ("jia qi lai", "加起来"), ("gong di", "工地"), ("gang kou", "港口"), ("yu gang", "渔港"),
    ("shi jian", "时间"), ("na li", "那里"), ("li mian", "里面"),
    # one syllable, last
    ("fa", "罚"), ("kou", "扣"), ("chao", "超"), ("chi", "迟"),
    ("kuai", "块"), ("dan", "单"), ("tang", "趟"), ("tian", "天"),
    ("yue", "月"), ("hao", "号"), ("dian", "点"), ("qian", "前"), ("dao", "到"), ("bu", "不"),
    ("jie", "接"), ("la", "拉"), ("pao", "跑"), ("xiu", "休"), ("shui", "睡"), ("jia", "家"),
    ("qu", "去"), ("deng", "等"), ("ting", "停"), ("dai", "待"), ("nei", "内"), ("ge", "个"),
    ("mei", "每"), ("duo", "多"), ("shao", "少"), ("yi", "一"), ("liang", "两"), ("de", "的"),
    ("he", "和"), ("dou", "都"), ("huo", "货"), ("you", "有"), ("yao", "要"), ("zai", "在"),
    ("suan", "算"), ("ci", "次"), ("zhe", "这"), ("duan", "段"), ("le", "了"), ("ye", "也"),
    ("bei", "被"), ("shi", "是"), ("jiu", "就"), ("zou", "走"), ("wan", "晚"), ("zao", "早"),
)


def _pattern(pinyin: str) -> str:
    """The syllables of a word, joined or spaced ("meitian", "mei tian")."""
    return r"\b" + r" ?".join(pinyin.split()) + r"\b"


_COMPILED = tuple((re.compile(_pattern(p), re.IGNORECASE), zh) for p, zh in _WORDS)


def plain_pinyin(t: str) -> str:
    """`t` with a pinyin rule's words in characters (the module's doc)."""
    if len({m.group(0).lower().replace(" ", "") for m in rx.finditer(_CUE, t)}) < 3:
        return t
    for pat, zh in _COMPILED:
        t = pat.sub(zh, t)
    # the characters written together, and a number with its unit
    t = rx.sub(r"(?<=[\u4e00-\u9fff])[ \t]+(?=[\u4e00-\u9fff])", "", t)
    return rx.sub(r"(?<=\d)[ \t]+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])[ \t]+(?=\d)", "", t)
