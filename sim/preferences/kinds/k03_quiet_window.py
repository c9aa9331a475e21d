"""K3: no take or reposition may overlap the daily window [start, end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.preferences.kinds.base import Counters, RuleContext
from sim.preferences.kinds.common import WindowKind, daily_window
from sim.preferences.kinds.drawing import DrawContext, Drawn, clock
from sim.preferences.kinds.params import Params
from sim.preferences.kinds.wording import FinePer
from sim.preferences.progress import Scope
from sim.preferences.text.common import NO_WORK, REST_OPTIONAL, Claim, hit, span
from sim.preferences.text.extract import Facts
from sim.typed_values import HHMM


@dataclass(frozen=True)
class QuietWindowParams(Params):
    start: HHMM
    end: HHMM
    count: Literal["per_day", "per_step"] = "per_day"


def _inside(steps: list[Step], windows: list[tuple[int, int]]) -> list[int]:
    """The indices of the active steps that overlap any of the windows, in log order."""
    return [s.index for s in steps
            if any(max(s.action_start, a) < min(s.action_end, b) for a, b in windows)]


class QuietWindow(WindowKind):
    name = "quiet_window"
    number = 3
    family = "night/lunch window"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"不能|不得|不许|不准|不要|不接|不空|不跑|不动|不开|不出车|不派|别派|别接|"
               r"不揽|别揽|放空|干活|"
               r"no (?:orders?|"
               r"loads?|jobs?|work|driving|empty|moving)|"
               r"not (?:take|drive|move|run|work)|don't|do not|"
               r"won't|never|quiet|stay (?:put|still)|"
               r"nothing moves|off the road|idle|park|禁止|暂停|"
               r"no new|no reposition")
    model = PenaltyModel.COUNT
    Params = QuietWindowParams
    scope = Scope.DAY
    doing = "no orders/moves"

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        p = self.params
        # A wrapping window belongs to the day it starts (day 0's early morning is never checked).
        windows = [daily_window(d, p.start, p.end) for d in ctx.days]
        if p.count == "per_day":
            bad = [d for d, (a, b) in zip(ctx.days, windows, strict=True)
                   if log.active_overlaps(a, b)]
            return {"violations": len(bad), "violating_days": bad}
        parts = log.grown_from()
        if parts is None:
            steps = _inside(log.active_steps, windows)
        else:  # a what-if: the kept log's steps are tested once, then only the new ones
            base, new = parts
            key = ("k3 steps", tuple(windows))
            got = base.kind_memo.get(key)
            if got is None:
                got = base.kind_memo[key] = _inside(base.active_steps, windows)
            steps = got + _inside(new.active_steps, windows)
        return {"violations": len(steps), "violating_steps": steps}

    @classmethod
    def hint(cls, params: QuietWindowParams) -> str:
        unit = "day" if params.count == "per_day" else "order or move"
        return (f"Take no order and drive no empty move that overlaps {params.start}-{params.end}"
                f" (fined per {unit}); waiting is allowed.")

    def window(self, day: int) -> tuple[int, int]:
        return daily_window(day, self.params.start, self.params.end)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        sp = span(f)
        if sp is not None and sp[0].minutes == sp[1].minutes:  # 零点到二十四点: a whole day
            return None
        if sp is None or not hit(f, NO_WORK):
            return None
        score = 2.2
        if hit(f, r"不算违规|可以停|吃饭|午饭|午休|饭点|lunch|meal|dinner|"
                  r"may (?:wait|park|stop|rest)|(?:is|are) (?:fine|allowed|ok|okay)|停着等可以|"
                  r"can (?:wait|park|stop|rest)|(?:waiting|parking) (?:is|are) (?:fine|allowed|ok)|"
                  r"空驶|空车|空跑|empty|deadhead|"
                  # a period named for not driving (停驶时段), not for resting
                  r"停驶时段|禁行时段"):
            score += 0.8
        if f.coords or hit(f, r"回家|到家|\bhome\b"):
            score -= 1.5
        if hit(f, REST_OPTIONAL):  # no work, rest or not as the driver likes
            score += 1.0
        if hit(f, r"首单|第一单|first (?:order|job|load)"):
            score -= 1.5
        a, b = sp
        daytime = 6 * 60 <= a.minutes < b.minutes <= 20 * 60
        meal = hit(f, r"吃饭|午饭|午休|饭点|晚饭|lunch|meal|dinner")
        # fined by the order or move, not by the night ("every order or empty drive in this
        # time punish 100")
        by_step = hit(f, r"every (?:order|move|step|job|load)|each (?:order|move|step|job|load)|"
                         r"per (?:order|move|step|job|load)|每单|每一单|每接一单|每次接单")
        by_step = by_step and not hit(f, r"每晚|每天|每日|per (?:night|day)|a (?:night|day)|"
                                         r"each (?:night|day)|every (?:night|day)")
        # the count said outright: by the time step (按时段计, each time slot, separately) or
        # once a day whatever the steps (同一天不管占几次只算一次, 一天最多罚一次)
        said_day = hit(f, r"只算一次|最多就?罚一次|只罚一次|算一次|只计一次|只算一回|只罚一回|"
                          r"(?:只算|最多罚?|最多计|只罚)\s*1\s*次|"
                          r"once a day|once per day|one fine (?:a|per) day|"
                          r"at most once a day|(?:no matter|however) (?:how )?many")
        said_step = hit(f, r"按时段|每(?:占|个|一个)?(?:调度)?时段|每占|时间步|按次累计|"
                           r"time[- ]?steps?|"
                           r"time slots?|"
                           r"separately|each (?:slot|step)|every (?:slot|step)|counted on its own|"
                           r"每(?:动|跑|走|干)\s*[一1]\s*(?:步|次|下)|单独算|"
                           r"every single (?:move|order|step|trip)")
        # the count as an enum ("count mode: PER_STEP ... not once per day") or the once-a-day
        # count denied (不是一天算一次) decides
        if hit(f, r"count(?:ing)?[ _]mode\W{0,3}per[ _]step|not (?:just )?once (?:per|a) day|"
                  r"不是\s*[一1]\s*天(?:只)?算\s*[一1]\s*次"):
            said_day, said_step = False, True
        elif hit(f, r"count(?:ing)?[ _]mode\W{0,3}per[ _]day"):
            said_day, said_step = True, False
        per_step = (said_step or daytime or meal or by_step) and not said_day
        return Claim("quiet_window", score,
                         {"start": a.hhmm, "end": b.hhmm,
                          "count": "per_step" if per_step else "per_day"})

    # -- generated drivers: the draw and its texts ---------------------------------------
    def drawn_fine_per(self) -> FinePer:
        return "day" if self.params.count == "per_day" else "step"

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[QuietWindowParams]:
        if ctx.rng.random() < 0.6:
            start = int(ctx.pick([22 * 60, 23 * 60, 0, 60]))
            end = (start + int(ctx.step(3, 6, 1)) * 60) % 1440
            count = "per_day"
        else:
            start = int(ctx.pick([11 * 60 + 30, 12 * 60, 12 * 60 + 30, 17 * 60 + 30, 18 * 60]))
            end = start + int(ctx.pick([60, 90]))
            count = "per_step"
        return Drawn(QuietWindowParams(start=clock(start), end=clock(end), count=count),
                     {"s": clock(start), "e": clock(end), "meal": count == "per_step",
                      "next": "次日" if end <= start else ""})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        if v["meal"]:
            return [f"每天{v['s']}到{v['e']}吃饭歇脚，这段时间不接单、不空驶。",
                    f"{v['s']}至{v['e']}是饭点，不接单也不空车跑，停车等着可以。"]
        return [f"每天{v['s']}至{v['next']}{v['e']}不接单，也不空车赶路，路边停车不算违规。",
                f"{v['s']}到{v['next']}{v['e']}这段时间不接单、不空跑。",
                f"夜里{v['s']}至{v['next']}{v['e']}车不动：不接单，不空驶。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        what = "meal break" if v["meal"] else "quiet hours"
        return [f"{what.capitalize()} {v['s']}-{v['e']}: no orders and no empty driving; parking "
                "is fine.",
                f"Between {v['s']} and {v['e']} ({what}) I take no orders and do not drive empty."]
