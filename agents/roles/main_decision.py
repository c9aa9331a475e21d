"""MainDecisionAgent: turns the other agents' advice and its view into one action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import ID, NUM, STR, Prompt, compression_adapter, obj
from agents.roles.cargo_analyst import Ranking
from agents.roles.feasibility import densest_nearby
from agents.roles.preference_agent import PreferenceAdvice
from agents.roles.registry import AgentSpec, register
from agents.roles.search_agent import SearchAdvice
from memory.view_builders import MainViews
from memory.views import MainDecisionView
from sim.geo import Geography, great_circle_km, in_guangdong
from sim.official.timebase import DAY
from sim.world.actions import Decision, Reposition, Search, TakeOrder, Wait

# stuck this long without an order, a driver leaves for a big market rather than the next town
FAR_AFTER_MINUTES = 12 * 60

MAIN = Prompt(
    agent="main_decision", version="main-v1",
    system=(
        "You are the MainDecisionAgent of a truck driver. Choose the next action: take_order "
        "(a cargo_id from the ranked candidates), search, wait (minutes) or reposition (lat, "
        "lng). Weigh each option by its value: an order's net after fines less its hours at "
        "what the driver's time is worth; a rest's fines saved less what it forgoes. Follow "
        "preference advice unless an order is worth more. If recent waits or searches gave "
        "nothing, do not repeat them: reposition toward a better grid. Give a one-line "
        "short_plan. Answer with JSON only."),
    schema=obj({"action": {"type": "string", "enum": ["take_order", "search", "wait",
                                                      "reposition"]},
                "cargo_id": ID, "minutes": NUM, "lat": NUM, "lng": NUM, "short_plan": STR},
               ["action", "cargo_id", "minutes", "lat", "lng", "short_plan"]),
)


def _out(action: str, plan: str, cargo_id: str = "", minutes: float = 0.0,
         lat: float = 0.0, lng: float = 0.0) -> dict:
    return {"action": action, "cargo_id": cargo_id, "minutes": minutes, "lat": lat,
            "lng": lng, "short_plan": plan}


def move_pays(view: MainDecisionView, lat: float, lng: float) -> bool:
    """Whether a move toward a market is worth its fines: what it adds to a deadhead budget
    (the fine past a spent one, the pacing price within one that would not last the month)
    may be at most what its driving is worth at the driver's rate (about a minute a km). A
    market move has no order to weigh it against; without this a driver whose budget was
    spent shuttled between markets at 100 yuan a km (failure class "market moves past a
    spent deadhead budget")."""
    fine = view.move_fine(lat, lng)
    return fine <= 0.0 or fine <= view.time_price.rate * view.position.km_to(lat, lng)

class MainDecisionAgent:
    prompt = MAIN

    def __init__(self, caller: AgentCaller, geo: Geography, wait_minutes: float) -> None:
        self.caller, self.geo, self.wait = caller, geo, wait_minutes

    @staticmethod
    def inputs(view: MainDecisionView, advice: Mapping[str, Any]) -> dict:
        """The other agents' answers as the main agent is sent them, each in its own terms;
        brief views drop what says nothing (no advice, no search) and keep three options."""
        brief = view.renderer.brief
        return dict(x for a in advice.values() if (x := a.main_input(brief)) is not None)

    def deterministic(self, view: MainDecisionView, pref: PreferenceAdvice,
                      search: SearchAdvice, ranking: Ranking) -> dict:
        """The deterministic answer: preference advice first, then the best ranked order, a
        search, a move to a better grid or a denser market when stuck, else a wait."""
        pos = view.position
        if pref.take and pref.value > 0:
            # a promised cargo listed now: tried blind, once (its fine outweighs a minute)
            return _out("take_order", f"take promised {pref.take}: {pref.reason}",
                        cargo_id=pref.take)
        due = pref.wait_minutes > 0 or (
            pref.go is not None and great_circle_km(pos.lat, pos.lng, *pref.go) > 2.0)
        if due and ranking.options:
            # a rule's wait or drive forgoes work: an order worth more goes first (both
            # values are over the driver's rate: net after fines less the hours it takes)
            o = ranking.options[0]
            v = view.time_price.value(o, view.now)
            if v > pref.beside_takes:
                return _out("take_order", f"take {o.cargo.cargo_id} (value {v:.0f}): beats "
                            f"the rule's {pref.value:.0f}", cargo_id=o.cargo.cargo_id)
        if (due and pref.at_stake < float("inf") and not ranking.options
                and view.last_action != "search" and search.search):
            # look at the market before a rule's wait or drive
            return _out("search", "check the market before following the rule",
                        lat=search.lat, lng=search.lng)
        if pref.wait_minutes > 0:
            return _out("wait", pref.reason, minutes=pref.wait_minutes)
        if due and pref.go is not None:
            return _out("reposition", pref.reason, lat=pref.go[0], lng=pref.go[1])
        rest = max(view.rests, key=lambda r: (r.value, -r.minutes), default=None)
        if rest is not None:
            # a rest now that keeps rules an order would break: its minutes forgo less than
            # the best order is worth after the fines it adds (those fines are the rest's
            # saving: counted once, failure class "a rest valued twice"), or (nothing on
            # offer) it saves at least half of what its minutes forgo
            best = (view.time_price.value(ranking.options[0], view.now) if ranking.options
                    else None)
            if (best is None and view.last_action != "search" and search.search
                    and view.searches_in_row < 1):
                return _out("search", "check the market before resting", lat=search.lat,
                            lng=search.lng)
            if ((rest.beside_takes > best) if best is not None
                    else (rest.saving - rest.fines >= rest.cost / 2)):
                return _out("wait", f"rest {rest.minutes} min: saves {rest.saving:.0f} in "
                            f"fines, forgoes {rest.cost:.0f}", minutes=rest.minutes)
        if ranking.options:
            o = ranking.options[0]
            return _out("take_order", f"take {o.cargo.cargo_id} (net {o.net:.0f}), then "
                        "search near its destination", cargo_id=o.cargo.cargo_id)
        stuck = view.waits_without_order >= 2 or view.fruitless_searches >= 2
        if search.search and not stuck and view.searches_in_row < 2:
            return _out("search", search.reason, lat=search.lat, lng=search.lng)
        g = view.best_grid
        moving_on = stuck or view.last_action == "search"
        # hours without an order: the nearby grids have failed too, look for a big market
        far = stuck and view.minutes_without_order >= FAR_AFTER_MINUTES
        if moving_on and not far and g is not None and g.value > (view.here_value or 0.0) and (
                great_circle_km(pos.lat, pos.lng, g.lat, g.lng) > 5.0) and view.allows(
                    g.lat, g.lng) and move_pays(view, g.lat, g.lng):
            return _out("reposition", f"move to grid {g.cell} (value {g.value:.0f}), "
                        "then search there", lat=round(g.lat, 5), lng=round(g.lng, 5))
        # a market outside the driver's box (or inside a circle it must keep out of) is no
        # market for it: failure class "a market move out of the box"
        allowed = view.allows if view.fences else None
        target = (densest_nearby(self.geo, pos, elsewhere=True, scale_km=60.0, min_km=40.0,
                                 allowed=allowed)
                  if far else densest_nearby(self.geo, pos, elsewhere=True, allowed=allowed))
        if stuck and target is not None and move_pays(view, target.lat, target.lng):
            return _out("reposition", "nothing here lately: move to a denser market",
                        lat=target.lat, lng=target.lng)
        # stuck with no move that pays: one search a wait, not two (a dry market's second
        # grid was as empty as its first; "repeated low-yield searches", docs/benchmarks.md)
        if search.search and view.searches_in_row < 1:
            return _out("search", search.reason, lat=search.lat, lng=search.lng)
        return _out("wait", "nothing worth doing now, search again after", minutes=self.wait)

    def advise(self, view: MainDecisionView, advice: Mapping[str, Any],
               ctx: CallContext) -> Decision:
        pref: PreferenceAdvice = advice["preference"]
        search: SearchAdvice = advice["search"]
        ranking: Ranking = advice["cargo_analyst"]

        def validate(o: dict) -> Decision:
            a, plan = o["action"], str(o.get("short_plan", ""))[:200]
            if a == "take_order":
                ids = {x.cargo.cargo_id for x in ranking.options} | ({pref.take} - {""})
                if o["cargo_id"] not in ids:
                    raise InvalidOutputError(
                        f"cargo_id {o['cargo_id']!r} is neither ranked nor promised")
                return Decision(TakeOrder(o["cargo_id"]), plan, "take_order")
            if a == "search":
                return Decision(Search(search.lat, search.lng, search.radius_km), plan, "search")
            if a == "wait":
                m = float(o["minutes"])
                if not 1 <= m <= DAY:
                    raise InvalidOutputError(f"wait minutes {m} outside 1..{DAY}")
                return Decision(Wait(m), plan, "wait")
            if a == "reposition":
                lat, lng = float(o["lat"]), float(o["lng"])
                if not in_guangdong(lat, lng):
                    raise InvalidOutputError(f"reposition ({lat}, {lng}) outside Guangdong")
                return Decision(Reposition(lat, lng), plan, "reposition")
            raise InvalidOutputError(f"unknown action {a!r}")

        return self.caller.call(self.prompt, view, self.inputs(view, advice), ctx,
                                lambda: self.deterministic(view, pref, search, ranking), validate)


register(AgentSpec(
    name="main_decision", prompt=MAIN, view=MainDecisionView, views=MainViews(),
    order=3, stage=3,
    compress_prompt=compression_adapter(
        "main_decision", "the pattern of recent actions and outcomes"),
    make=lambda caller, geo, sc: MainDecisionAgent(caller, geo, sc.policy.wait_minutes),
))
