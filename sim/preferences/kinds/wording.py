"""What every kind's text templates share: dates, points and hours as drivers write them, and
the fine sentence a drawn rule may end with.

The templates are worded differently from the evaluation set (data/preference_eval.jsonl), so
parser accuracy is not inflated by generated drivers; formatting here is locale-free, so the
same draw always renders the same text.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from sim.official.penalties import PenaltyModel

# what a per-count fine is charged for, in a drawn text ("" where the model has no unit)
FinePer = Literal["day", "order", "step", ""]

_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December")  # not strftime: locale-free


def zh_date(d: dt.date) -> str:
    return f"{d.month}月{d.day}日"


def en_date(d: dt.date) -> str:
    return f"{_MONTHS_EN[d.month - 1]} {d.day}, {d.year}"


def en_month(ym: str) -> str:
    return f"{_MONTHS_EN[int(ym[5:]) - 1]} {ym[:4]}"


def hours(minutes: int) -> str:
    h = minutes / 60
    return f"{h:g}"


def pt(lat: float, lng: float, lang: str) -> str:
    return f"（{lat:.2f}，{lng:.2f}）" if lang == "zh" else f"({lat:.2f}, {lng:.2f})"


def fine_always_stated(model: PenaltyModel) -> bool:
    """The per-minute errand states its fines in its own wording, and a once-only circle fine
    must be said or the mode would be unsaid: these texts always carry the fine."""
    return model in (PenaltyModel.EVENT, PenaltyModel.FLAT)


def fine_separator(lang: str, model: PenaltyModel) -> str:
    """What joins the rule's text and its fine sentence."""
    if model is PenaltyModel.EVENT:
        return "，" if lang == "zh" else ". "
    return "" if lang == "zh" else " "


_UNIT_ZH = {"day": "每天不满足", "order": "每接一单", "step": "每违反一次"}
_UNIT_EN = {"day": "per day missed", "order": "per order", "step": "per violation"}


def fine_text(lang: str, model: PenaltyModel, per: FinePer, a: float, c: float | None) -> str:
    """The fine as drivers write it (S1 strings carry it in the text)."""
    A = f"{a:g}"  # noqa: N806 - the spec's names for amount and cap
    C = None if c is None else f"{c:g}"  # noqa: N806
    M = PenaltyModel  # noqa: N806
    if lang == "zh":
        s = {M.COUNT: f"{_UNIT_ZH.get(per, '每次')}扣钱{A}元", M.KM: f"超出部分每公里扣{A}元",
             M.ONCE: f"不满足一次性罚{A}元", M.MUST_TAKE: f"不满足一次性罚{A}元",
             M.FLAT: f"进入的话最多扣一次，罚{A}元",
             M.EXTRA: f"每多一单扣{A}元",
             M.SHORT: f"少一单扣{A}元", M.EVENT: f"提前离家或未按约定完成额外一次性罚{A}元"}[model]
        if model in (M.COUNT, M.KM, M.EVENT):
            s += "，上不封顶" if C is None else f"，累计上限{C}元"
        return s + "。"
    s = {M.COUNT: f"{A} yuan {_UNIT_EN.get(per, 'each time')}",
         M.KM: f"{A} yuan per km over", M.ONCE: f"{A} yuan once if missed",
         M.MUST_TAKE: f"{A} yuan once if missed",
         M.FLAT: f"entering costs {A} yuan, charged once at most",
         M.EXTRA: f"{A} yuan per extra order", M.SHORT: f"{A} yuan per missing order",
         M.EVENT: f"leaving early or missing the plan costs an extra {A} yuan once"}[model]
    if model in (M.COUNT, M.KM, M.EVENT):
        s += ", no cap" if C is None else f", capped at {C} yuan"
    return s[0].upper() + s[1:] + "."
