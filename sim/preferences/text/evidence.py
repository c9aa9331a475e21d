"""What establishes each kind in a text: its own wording plus the facts its params need.

A recogniser's score says how well a kind *fits* a text; it does not say the text is *about*
that kind. The confidence test (reading.py) asks both: a reading is trusted only
when the kind's defining evidence is in the text, and no close runner-up has its own defining
evidence there too. The evidence is the competition spec's vocabulary for the kind
(docs/competition.md §8, and its English) joined with the structural facts the kind cannot do
without (a clock span for a window, a point for a circle, a day count for a quota...). It is
stricter than a kind's `signals` (which only check that some of its words appear) and lives
here, beside the reader that uses it, so the kinds' recognisers are not changed by it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from sim.preferences.text import common, rx
from sim.preferences.text.common import hit, int_before
from sim.preferences.text.extract import Facts, cargo_ids, km_values, rate_per_minute


@dataclass(frozen=True)
class Evidence:
    """A kind's defining wording (all groups must fire, each an alternation) and the facts the
    kind needs (a predicate on the text's `Facts`)."""

    words: tuple[str, ...]
    needs: Callable[[Facts], bool]
    what: str  # said in the reason of an ambiguous reading

    def holds(self, f: Facts) -> bool:
        return all(hit(f, w) for w in self.words) and self.needs(f)


def _span(f: Facts) -> bool:
    """Two clocks, or one and a length after it (from noon, ninety minutes: `common.span`)."""
    return len(f.clocks) >= 2 or common.span(f) is not None


def _km(f: Facts) -> bool:
    return bool(km_values(f.num))


_AT_LEAST_N = r"(?:days?|日子|天数)[^.;。；]{0,50}?(?:at least|至少|不少于|≥|>=)\s*\d"


_FINED = r"[^,，。;；]{0,3}?(?:扣|罚|赔|fine|penalty|yuan|元)"


def _counted(f: Facts, unit: str) -> bool:
    """A number of `unit` that is not the unit of a fine (一天扣300, 违反一次罚100)."""
    return any(not rx.match(r"\d+(?:\.\d+)?\s*(?:" + unit + ")" + _FINED, f.low[p:], re.I)
               for _, p in int_before(f, unit))


def _days(f: Facts) -> bool:
    """A count of days or of times (visits, days off)."""
    return (_counted(f, common.DAYS_N) or _counted(f, common.DAYS_UNIT)
            or bool(rx.search(_AT_LEAST_N, f.low)))


def _day_count(f: Facts) -> bool:
    """A number of days proper (not "N times", which counts visits or fines)."""
    return _counted(f, r"个不同的?(?:自然)?日子?|个(?:自然)?日|天|日子|"
                       r"(?:distinct |different |separate |calendar )?days\b") or bool(
        rx.search(_AT_LEAST_N, f.low))


def _orders_n(f: Facts) -> bool:
    """A number of orders: 3单, four loads, 日接单上限: 3."""
    return bool(rx.search(r"\d\s*(?:" + common.ORDERS + r")|(?:orders?|单)[^\d,，。;；]{0,8}"
                          r"[:：]\s*\d", f.low, re.I))


def _point(f: Facts) -> bool:
    return bool(f.coords) or any(p.lat is not None for p in f.places)


def _hours(f: Facts) -> bool:
    return any(m >= 60 for m, _ in f.durations)


HOME = r"家|屋企|住所|住处|home|house|residence"
NIGHTLY = (r"每天|每日|每晚|天天|每一天|晚晚|日日|nightly|daily|every (?:day|night|evening)|"
           r"each (?:day|night|evening)")
HOMING = r"回家|到家|回到家|离家|住所|住处|屋企|\bhome\b|\bhouse\b"
# loads and orders themselves (a place's loads, orders on days), not "to"/"from" or "drop by"
LOAD = (r"装|卸|货|单|活|load|cargo|orders?|jobs?|pick(?:ing)?[\s-]*up|pickup|"
        r"drop(?:ping)?[\s-]*off|deliver|haul|shipments?|origin|destination|"
        r"(?:going|coming|headed|bound) (?:to|from|for)\b")
VISIT = (r"到|去|回|来|访|看|转|露面|经过|visit|be at|go|stop|drop|show|call|check|back|come|"
         r"swing|pop|near|within|arrive|reach|抵达|spend|be (?:there|near|in)|see|meet|"
         r"look in|看望|探望|陪")
FIRST = (r"首单|首笔|首趟|头单|头一单|第一单|第一个|第一趟|开工|开始|出车|first|start|begin|"
         r"earliest|"
         r"kick off")
QUOTA = (r"考核|指标|kpi|target|quota|goal|至少|起码|不少于|满|够|at least|minimum|不低于|≥|>=|"
         r"最少|最低|接单量|任务|要求|need|must|have to|required|wants?\b|per missing|"
         r"each missing")
LONG = r"长途|远|逾|大半天|long|far|over|超过|超|以上|多于|more than|longer|exceed|above|beyond|>"
DWELL = r"停|待|留|呆|办|逗留|歇|dwell|stay|stop|park|wait|remain|spend|be at|visit|hang"
MOST = (r"就够|够了|enough|第\d+单起|"
        r"最多|至多|多过|多于|顶多|不超过|不得超过|不能超过|超过|上限|不多于|不得多于|封顶|"
        r"cap|limit|at most|no more than|not more than|never more|max|up to|exceed|多一单|"
        r"the most|at the most|"
        r"多接|每多|more than|over")
HAUL = (common.HAUL + r"|距离|distance|长途|远途|far|long|以.{0,8}为限|"
        r"只接|只拉|only (?:take|haul|accept)")  # 只接200公里以内的活
# §8: empty running, the truck not moving, a whole day at rest: K14, not K13
MOTION = (r"空驶|空车|空跑|出车|静止|停驶|不动|一动不动|检修|保养|00:00\s*(?:~|-|至|到)\s*24:00|"
          r"not move|doesn't move|does not move|stationary|no driving|not drive|repositioning|"
          r"empty|deadhead|maintenance|parked|truck stays|truck doesn't")
NO_ORDER = (r"不接|没单|无单|无订单|无接单|没订单|零单|零接单|一单|没有单|没有订单|没接单|不拉|"
            r"不干活|放空|放假|休假|假|不揽|不跑单|没(?:有)?跑单|"
            r"days? off|no[ -]orders?|without (?:any )?orders|order-free|no jobs?|no loads?|"
            r"not take|take nothing|not accept|rest days?|free days?|zero orders|"
            r"not a single order|休息|歇|\brest\b|free of (?:orders|jobs|loads|work)")
SLEEP = r"睡|sleep|asleep|\bbed\b|熄火|engine off"
# rest allowed, not required (K3), and a meal break (§8 K3: 吃饭歇脚)
ALLOWED = (r"不算违规|没关系|不要紧|无所谓|停着(?:等)?(?:可以|也行|就行)|可以停|想歇就歇|"
           r"(?:停|歇|等)[^，。,;；]{0,6}没事|(?:may|can) stay (?:parked|put)|"
           r"吃饭|午饭|晚饭|饭点|歇脚|午休|lunch|meal|dinner|(?:is|are) (?:fine|allowed|ok|okay)|"
           r"may (?:wait|park|stop|rest)|can (?:wait|park|stop|rest)|" + common.REST_OPTIONAL)
# empty moves allowed on the days without orders (K13), not a truck at rest (K14)
MOTION_ALLOWED = (r"车(?:可以|能|照样|照常|可以照样|可以照常)(?:开|跑|动)|"
                  r"可以(?:空车|空跑|空驶)?挪|"
                  r"(?:开车|动车|车动不动|driving|drive)[^。；;.!]{0,12}?(?:可以|没关系|没事|也行|"
                  r"都行|无所谓|不要紧|(?:is|are) (?:fine|ok|okay|allowed))|"
                  r"(?:空车|空跑|空驶|挪|empty|reposition\w*|move)[^。；;.!]{0,12}?"
                  r"(?:可以|没关系|没事|也行|无所谓|不算|不要紧|不影响|\bok\b|都得(?=[)）,，。;；]|$)|"
                  r"(?:is|are) (?:fine|ok|okay|allowed))|"
                  r"(?:doesn't|does not|won't|will not|no) matter (?:if|whether) \w+ "
                  r"(?:move|drive|reposition)")
SEQUENCE = r"先|再|然后|接着|之后|first|then|after that|on to|followed by|next"
MONTH = common.MONTH
TOTAL = (MONTH + r"|总和|累计|加起来|加一起|加一块|加在一块|加在一起|合起来|一共|共计|总共|合计|"
         r"total|altogether|sum|combined|added up|overall")
AVOID = common.REFUSE + "|" + common.ENTER + r"|别|不|stay out|keep out|away"
KEEP_OUT = (common.ENTER + r"|圆心|禁区|方圆|(?:never|not|don't|do not|no) "
            r"(?:drive|go|come|get|be)\w* (?:within|near|closer)")


def _quiet(f: Facts) -> bool:
    """K3, not K2 (rest required), K4 (home first) or K14 (whole days in a month)."""
    return (_span(f) and (hit(f, ALLOWED) or not hit(f, SLEEP)) and not hit(f, HOMING)
            and not (_day_count(f) and hit(f, MONTH)))


def _family_event(f: Facts) -> bool:
    """§8: a home point with per-minute fines is the family event (K24), not an itinerary."""
    return hit(f, HOMING) and rate_per_minute(f.num) is not None


def _one_stop(f: Facts) -> bool:
    """K22, not K23: a point on a date and no second stop in sequence (§8: one place)."""
    return bool(f.dates) and _point(f) and len(f.coords) < 2 and not (
        len(f.points) >= 2 and hit(f, SEQUENCE)) and not _family_event(f)


# kind name -> what establishes it; a test checks it covers exactly the registry's kinds. The
# exclusions are the spec's disambiguation rules (§8): the neighbour's cue is not this kind's.
EVIDENCE: dict[str, Evidence] = {
    "daily_continuous_rest": Evidence((common.REST,), _hours, "a rest of some hours"),
    "rest_window_full_coverage": Evidence(
        (common.REST + "|" + common.SLEEP,), lambda f: _span(f) and not hit(f, ALLOWED),
        "required rest or sleep in a clock span"),
    "quiet_window": Evidence((common.NO_WORK,), _quiet,
                             "no work in a clock span, rest not required"),
    "home_by_curfew": Evidence((HOME,), lambda f: bool(f.clocks) and (
        not f.dates or hit(f, NIGHTLY)), "home by a clock time, every night"),
    "forbidden_cargo_category": Evidence((common.REFUSE,), lambda f: bool(f.categories),
                                         "a refused cargo category"),
    "forbidden_cargo_place": Evidence(
        (LOAD, common.REFUSE),
        lambda f: bool(f.places) and (not f.dates or common.from_date(f)) and not f.clocks,
        "refused loads of a place"),
    "max_haul_km": Evidence((HAUL,), lambda f: _km(f) and not hit(f, common.EMPTY),
                            "a loaded haul distance limit"),
    "max_pickup_deadhead_km": Evidence(
        (common.PICKUP + "|" + common.EMPTY,),
        lambda f: _km(f) and not hit(f, MONTH) and (hit(f, common.EMPTY) or hit(f, common.HERE)
                                                     or not hit(f, common.HAUL)),
        "an empty run to one pickup in km"),
    "max_total_deadhead_km": Evidence((common.EMPTY, TOTAL), _km, "a month's empty kilometres"),
    "stay_inside_bbox": Evidence((), lambda f: f.bbox is not None and not f.dates,
                                 "a box of coordinates"),
    # the point one goes home to (离家五百米以内) is no circle to keep out of
    "forbidden_circle": Evidence((KEEP_OUT,), lambda f: _point(f) and not hit(f, HOMING),
                                 "a point to keep away from"),
    "date_region_avoid": Evidence((AVOID,), lambda f: bool(f.dates) and (
        bool(f.places) or f.bbox is not None), "a place avoided on dates"),
    "min_days_without_orders": Evidence(
        (NO_ORDER, MONTH),
        lambda f: _days(f) and not _hours(f) and (
            not hit(f, MOTION) or hit(f, ALLOWED) or hit(f, MOTION_ALLOWED)),
        "days without orders in a month, the truck free to move"),
    "min_full_off_days": Evidence(
        (MOTION + r"|完全歇|彻底歇|完全休息|completely|fully off",),
        lambda f: _days(f) and not hit(f, ALLOWED) and not hit(f, MOTION_ALLOWED),
        "whole days the truck does not move, in a month"),
    "max_orders_per_day": Evidence((MOST, common.DAILY + r"|一天|一日|同日|a day|per day"),
                                   _orders_n, "at most some orders a day"),
    "first_order_deadline": Evidence((FIRST,), lambda f: bool(f.clocks),
                                     "a first order by a clock time"),
    "min_visit_days": Evidence((VISIT,), lambda f: _point(f) and _days(f) and not hit(
        f, r"装货|卸货|loading|unloading|orders?|单|" + common.PLACE_LOADS),
        "visits to a point on some days"),
    "min_region_order_days": Evidence((LOAD,), lambda f: bool(f.places) and _day_count(f),
                                      "orders in a place on some days"),
    "must_take_cargo": Evidence((), lambda f: bool(cargo_ids(f.text)), "a cargo id"),
    "monthly_category_quota": Evidence((QUOTA,), lambda f: bool(f.categories),
                                       "a quota of a category"),
    "monthly_long_haul_cap": Evidence((LONG,), _hours, "long hauls over some hours"),
    "dwell_at_point_on_day": Evidence((DWELL,), _one_stop, "a stay at one point on a date"),
    "route_stops_on_day": Evidence(
        (), lambda f: bool(f.dates) and len(f.points) >= 2 and not _family_event(f),
        "stops at two points on a date"),
    "home_stay_event": Evidence((HOME,), lambda f: len(f.points) >= 2 and len(f.clocks) >= 2,
                                "collect someone, then stay home"),
}


# the condition of a fine ("if I don't", 做不到, 不够): its negation is no refusal of the kind
FINE_CONDITION = (r"if (?:i |you |it |we )?(?:don't|do not|can't|cannot|fail|miss|am not|'m not|"
                  r"didn't|did not|get fewer|get less)[^.;,，。；]*|otherwise|if not|or else|"
                  r"否则|不然|做不到|做唔到|办不成|没做到|不满足|不够|唔够|少了|误了|违反|违者|"
                  r"差一天|唔系|没办到|不做到|不达标|达不到")


def core(f: Facts) -> Facts:
    """The facts with the conditions of fines taken out of the keyword view (computed once per
    text by the reader, then shared by every kind's test)."""
    return dataclasses.replace(f, kw=rx.sub(FINE_CONDITION, " ", f.kw, flags=re.I))


def established(kind: str, f: Facts, *, stripped: bool = False) -> bool:
    """Whether the text carries the kind's defining evidence (a kind without an entry: yes);
    `stripped`: `f` is already `core(f)`."""
    ev = EVIDENCE.get(kind)
    if ev is None:
        return True
    return ev.holds(f if stripped else core(f))
