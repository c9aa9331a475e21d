"""A reward written beside a fine, as a fleet owner's reward-and-penalty scheme writes a rule.

"全月无违规者发放安全奖300元；当日未做到者扣款200元", "Keep it clean all month and you get a 300
yuan bonus; every time step you drive inside that hour costs 50 yuan", "a 400 bonus if you
reach 15 days or more, but the floor is 10": the bonus is no fine and its threshold is no
parameter of the rule, but both are numbers a kind would read (the first amount as the fine,
the first count as the quota). A text with a reward word has each reward's amount dropped,
and an English bonus's condition with it ("if you reach 15 days or more"); the rule and its
fine are left as written. Any other text is returned as it was.
"""

from __future__ import annotations

from sim.preferences.text import rx

_REWARD_ZH = r"(?:全勤奖|安全奖|奖励|奖金|补贴|红包|奖)"
_REWARD_EN = r"(?:bonus|reward|tip|incentive)"
_AMOUNT = r"(?:¥|rmb|cny)?\s*\d+(?:\.\d+)?\s*(?:元|块|yuan|rmb|cny)?"
# what a bonus is paid for, in English: "if you reach 15 days or more", "for a clean month"
_EN_CONDITION = r"(?:\s+(?:if|when|once|for)\b[^,;.—–:]*)?"


def without_rewards(text: str) -> str:
    """`text` without its rewards' amounts (the module's doc)."""
    if not rx.search(_REWARD_ZH + "|(?i:" + _REWARD_EN + ")", text):
        return text
    t = text
    # 发放安全奖300元, 全勤奖加200, 奖励一桶油钱300, 奖500; 100元补贴
    t = rx.sub(_REWARD_ZH + r"\s*(?:加|发|给|为|是)?\s*(?:一桶油钱|油钱)?\s*" + _AMOUNT +
               r"(?!\s*(?:公里|km|天|单|次|小时|分钟))", "奖励", t)
    t = rx.sub(r"(?<![\d.])" + _AMOUNT + r"\s*(?:的)?\s*" + _REWARD_ZH, "奖励", t)
    # a 300 yuan bonus if you reach 15 days or more; a bonus of 300; a 150 tip
    t = rx.sub(r"(?i)\b(?:an?\s+)?" + _AMOUNT + r"\s*" + _REWARD_EN + r"s?\b" + _EN_CONDITION,
               " a bonus", t)
    return rx.sub(r"(?i)\b" + _REWARD_EN + r"s?\s*(?:of|:)?\s*" + _AMOUNT + r"(?![\d.])" +
                  _EN_CONDITION, " bonus", t)
