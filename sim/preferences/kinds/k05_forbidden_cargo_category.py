"""K5: accepted takes whose cargo category is in the forbidden set are fined per order."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from sim.categories import CATEGORIES
from sim.official.penalties import PenaltyModel
from sim.official.steps import StepLog
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Params, ParamsError
from sim.preferences.progress import Progress, ProgressContext, Scope
from sim.preferences.text import rx
from sim.preferences.text.common import REFUSE, Claim, hit
from sim.preferences.text.extract import Facts, categories

# what a truck is said to carry, or to lack (车上没有打氧设备: the reason, not a category),
# before a category word in the same clause
CARRIES = (r"\b(?:is|are|only|just|used|meant|built|kept)\s+for\b|\bonly (?:carry|haul|take)\b|"
           r"专拉|专跑|专门拉|专门运|只拉|只运|只跑|用来拉|用来运|拉的是|运的是|"
           r"没有|缺|\b(?:don't|do not|doesn't|does not) have\b|\bwithout\b|\black")

# a refusal that no longer holds: an earlier time, then now ("Until February I refused fruit as
# well, but fruit is fine again now")
LIFTED_BEFORE = r"以前|原来|去年|上个月|\buntil\b|\bused to\b|last (?:month|year)|previously"
LIFTED_NOW = r"现在|可以拉了|可以接了|\bnow\b|again|from now"
# a category said to be fine to haul in its own clause ("煤炭我可以拉", "水果照样接", "seafood is
# fine"): a refusal lifted, often where a correction names the old list beside it
LIFTED_HERE = (r"(?<![不没])(?:可以|能|照样|照常|照|也能|也可以)\s*(?:拉|接|运|装|承接|承运)(?!不)|"
               r"没问题|\b(?:is|are)\s+(?:fine|ok|okay|allowed)\b|no problem")
CLAUSE = r"[,;:!?，。；：！？]|\.(?!\d)|\bbut\b|\bhowever\b|但是|但|不过"
# the loads a driver carries, named as the only ones, and the rest refused
ONLY = r"只拉|只接|只运|只跑|只做|除了|除开|除去|\bonly (?:carry|haul|take|accept|do)\b"
OTHERS = (r"除此之外|除了这些|除这些|其他|其它|其余|别的|anything else|everything else|"
          r"all other|any other|nothing else")


@dataclass(frozen=True)
class ForbiddenCategoryParams(Params):
    categories: list[str]

    def check(self, where: str) -> None:
        if not self.categories:
            raise ParamsError(f"{where}.categories: expected at least one category")


class ForbiddenCargoCategory(Kind):
    name = "forbidden_cargo_category"
    number = 5
    family = "cargo"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"品类|类|货|cargo|loads?|orders?|jobs?|haul|carry|不接|不拉|不运|不要|never|don't|"
               r"do not|won't|refuse|avoid|ban|no |不想|不愿|不干|推掉|拒|活")
    model = PenaltyModel.COUNT
    Params = ForbiddenCategoryParams
    scope = Scope.STEP

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        cats = set(self.params.categories)
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.cargo.category in cats]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenCategoryParams) -> str:
        return f"Do not take cargo of category {', '.join(params.categories)} (fined per order)."

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        return self.times_broken(counters, penalty)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        # a category named as what the truck is for (my van is for food, 专拉水果) is kept,
        # not refused
        cats = [c for c, at in f.categories
                if not rx.search(CARRIES, rx.split(r"[.,;:!?，。；：！？]| - ", f.low[:at])[-1],
                                 re.I)]
        if f.categories and hit(f, ONLY) and hit(f, OTHERS) and hit(f, REFUSE):
            # 只拉衣服…还有快递，除此之外一概不接: every category but those named is refused
            named = {c for c, _ in f.categories}
            cats = [c for c in CATEGORIES if c not in named]
        if not cats or not hit(f, REFUSE):
            return None
        # the categories refused, not those the driver hauls or hauls again now beside them
        # ("I mostly haul building materials", "去年还不拉食品饮料，现在可以拉了")
        # (sentences; a list's items after a colon, "（一）…；（二）…", stay in theirs)
        cuts = [0] + [m.end() for m in rx.finditer(r"[!?。！？]|\.(?!\d)", f.low)] + [len(f.low)]

        def refused(at: int) -> bool:
            a = max(c for c in cuts if c <= at)
            sentence = f.low[a:min([c for c in cuts if c > at] or [len(f.low)])]
            return rx.search(REFUSE, sentence, re.I) is not None

        refusing = {c for a, b in itertools.pairwise(cuts)
                    if rx.search(REFUSE, f.num[a:b], re.I)
                    and not (rx.search(LIFTED_BEFORE, f.num[a:b], re.I)
                             and rx.search(LIFTED_NOW, f.num[a:b], re.I))
                    for c, _ in categories(f.num[a:b])}
        if refusing and any(c in refusing for c in cats):
            cats = [c for c in cats if c in refusing]
        lifted = {c for clause in rx.split(CLAUSE, f.num, flags=re.I)
                  if rx.search(LIFTED_HERE, clause, re.I) and not rx.search(REFUSE, clause, re.I)
                  for c, _ in categories(clause)}
        cats = [c for c in cats if c not in lifted] or cats
        score = 2.5 + 0.5 * hit(f, r"品类|类别|类型|种类|这类|这种|category|categor|kind of|"
                                   r"type of|"
                                   r"goods|"
                                  r"cargo|货")
        if hit(f, r"必须接满|接满|考核|kpi|指标|quota|至少接|at least \d+ (?:orders|jobs|loads)"):
            score -= 2.0
        # a category only in a clause that refuses nothing (the seafood's great ... loads to
        # Zhanjiang, keep them away): the refusal is of the place
        if f.places and not any(refused(at) for _, at in f.categories):
            score -= 1.0
        return Claim("forbidden_cargo_category", score,
                         {"categories": cats})

    # -- generated drivers: the draw and its texts ---------------------------------------
    fine_per = "order"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[ForbiddenCategoryParams]:
        k = int(ctx.pick([1, 1, 2, 3]))
        cats = [str(c) for c in ctx.rng.choice(list(CATEGORIES), size=k, replace=False)]
        return Drawn(ForbiddenCategoryParams(categories=tuple(cats)),
                     {"cats_zh": "、".join(f"「{c}」" for c in cats),
                      "cats_en": " or ".join(f"「{c}」 ({CATEGORIES[c]})" for c in cats)})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"货源品类为{v['cats_zh']}的货一律不接。",
                f"{v['cats_zh']}这类活儿我不拉，推掉。",
                f"本车不承接{v['cats_zh']}品类的订单。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"I refuse cargo of category {v['cats_en']}.",
                f"No {v['cats_en']} loads on my truck."]
