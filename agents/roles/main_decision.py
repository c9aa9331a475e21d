"""MainDecisionAgent: turns the other agents' advice and its view into one action."""

from __future__ import annotations

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import MAIN
from agents.roles.cargo_analyst import Ranking
from agents.roles.feasibility import densest_nearby
from agents.roles.preference_agent import PreferenceAdvice
from agents.roles.search_agent import SearchAdvice
from memory.views import MainDecisionView
from sim.actions import Decision, Reposition, Search, TakeOrder, Wait
from sim.geo import Geography, Point, haversine_km, in_guangdong


class MainDecisionAgent:
    prompt = MAIN

    def __init__(self, caller: AgentCaller, geo: Geography, wait_minutes: float) -> None:
        self.caller, self.geo, self.wait = caller, geo, wait_minutes

    @staticmethod
    def inputs(view: MainDecisionView, pref: PreferenceAdvice, search: SearchAdvice,
               ranking: Ranking) -> dict:
        """The other agents' answers as the main agent is sent them; compact views drop what
        says nothing (no advice, no search) and keep three ranked options."""
        ranked = [{"cargo_id": o.cargo.cargo_id, "net": round(o.net), "empty_km": round(o.empty_km)}
                  for o in ranking.options[:3 if view.compact else 5]]
        wait = round(pref.wait_minutes)
        if not view.compact:
            return {"preference": {"wait_minutes": wait, "go": pref.go, "reason": pref.reason},
                    "search": {"search": search.search, "grid": search.grid,
                               "reason": search.reason},
                    "ranked": ranked}
        out: dict = {}
        if wait or pref.go is not None:
            out["preference"] = {"wait_minutes": wait} if wait else {"go": pref.go}
            out["preference"]["reason"] = pref.reason
        out["search"] = {"grid": search.grid} if search.search else {"search": False}
        if ranked:
            out["ranked"] = ranked
        return out

    def decide(self, view: MainDecisionView, pref: PreferenceAdvice, search: SearchAdvice,
               ranking: Ranking, ctx: CallContext) -> Decision:
        inputs = self.inputs(view, pref, search, ranking)
        pos = view.position

        def can_drive_to(lat: float, lng: float) -> bool:
            km = self.geo.road_km(pos, Point(lat, lng))
            return (self.geo.drive_minutes(km, view.now) <= pref.drive_minutes_left
                    and km <= pref.empty_km_left)

        def out(action: str, plan: str, cargo_id: str = "", minutes: float = 0.0,
                lat: float = 0.0, lng: float = 0.0) -> dict:
            return {"action": action, "cargo_id": cargo_id, "minutes": minutes, "lat": lat,
                    "lng": lng, "short_plan": plan}

        def rules() -> dict:
            if pref.wait_minutes > 0:
                return out("wait", pref.reason, minutes=pref.wait_minutes)
            if pref.go is not None and haversine_km(pos.lat, pos.lng, *pref.go) > 2.0:
                return out("reposition", pref.reason, lat=pref.go[0], lng=pref.go[1])
            if ranking.options:
                o = ranking.options[0]
                return out("take_order", f"take {o.cargo.cargo_id} (net {o.net:.0f}), then "
                           "search near its destination", cargo_id=o.cargo.cargo_id)
            stuck = view.waits_without_order >= 2 or view.fruitless_searches >= 2
            if search.search and not stuck and view.searches_in_row < 2:
                return out("search", search.reason, lat=search.lat, lng=search.lng)
            g = view.best_grid
            moving_on = stuck or view.last_action == "search"
            if moving_on and g is not None and g.value > (view.here_value or 0.0) and haversine_km(
                    pos.lat, pos.lng, g.lat, g.lng) > 5.0 and can_drive_to(g.lat, g.lng):
                return out("reposition", f"move to grid {g.cell} (value {g.value:.0f}), "
                           "then search there", lat=round(g.lat, 5), lng=round(g.lng, 5))
            target = densest_nearby(self.geo, pos, elsewhere=True)
            if stuck and target is not None and can_drive_to(target.lat, target.lng):
                return out("reposition", "nothing here lately: move to a denser market",
                           lat=target.lat, lng=target.lng)
            if search.search and view.searches_in_row < 2:
                return out("search", search.reason, lat=search.lat, lng=search.lng)
            return out("wait", "nothing worth doing now, search again after", minutes=self.wait)

        def validate(o: dict) -> Decision:
            a, plan = o["action"], str(o.get("short_plan", ""))[:200]
            if a == "take_order":
                ids = {x.cargo.cargo_id for x in ranking.options}
                if o["cargo_id"] not in ids:
                    raise InvalidOutputError(
                        f"cargo_id {o['cargo_id']!r} is not a ranked candidate")
                return Decision(TakeOrder(o["cargo_id"]), plan, "take_order")
            if a == "search":
                return Decision(Search(search.lat, search.lng, search.radius_km), plan, "search")
            if a == "wait":
                m = float(o["minutes"])
                if not 1 <= m <= 1440:
                    raise InvalidOutputError(f"wait minutes {m} outside 1..1440")
                return Decision(Wait(m), plan, "wait")
            if a == "reposition":
                lat, lng = float(o["lat"]), float(o["lng"])
                if not in_guangdong(lat, lng):
                    raise InvalidOutputError(f"reposition ({lat}, {lng}) outside Guangdong")
                return Decision(Reposition(lat, lng), plan, "reposition")
            raise InvalidOutputError(f"unknown action {a!r}")

        return self.caller.call(self.prompt, view, inputs, ctx, rules, validate)
