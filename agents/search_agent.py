"""SearchAgent: whether to query the market now, and around which grid."""

from __future__ import annotations

from dataclasses import dataclass

from agents.calls import AgentCaller, CallContext, InvalidOutputError
from agents.prompts import SEARCH
from memory.views import SearchView
from sim.geo import haversine_km, in_guangdong

FRESH_MINUTES = 10.0  # a grid searched this recently is still known: no need to ask again
LOW_YIELD_MINUTES = 30.0  # a grid that just gave little is left alone this long


@dataclass(frozen=True, slots=True)
class SearchAdvice:
    search: bool
    lat: float
    lng: float
    radius_km: float
    reason: str


class SearchAgent:
    prompt = SEARCH

    def __init__(self, caller: AgentCaller, default_radius_km: float, max_radius_km: float) -> None:
        self.caller = caller
        self.radius, self.max_radius = default_radius_km, max_radius_km

    def advise(self, view: SearchView, ctx: CallContext) -> SearchAdvice:
        def rules() -> dict:
            pos = view.position
            if view.budget_left <= 0:
                return {"search": False, "lat": pos.lat, "lng": pos.lng,
                        "radius_km": self.radius, "reason": "query budget used up"}
            def worth(g) -> bool:
                if not g.searched:
                    return g.value > 0
                age = view.now - g.last_t
                if age < FRESH_MINUTES or (g.streak >= 1 and age < LOW_YIELD_MINUTES):
                    return False
                return g.streak < 3 or age > 4 * LOW_YIELD_MINUTES

            fresh = [g for g in view.nearby if worth(g)]
            if not fresh:
                return {"search": False, "lat": pos.lat, "lng": pos.lng,
                        "radius_km": self.radius, "reason": "every nearby grid just gave little"}
            best = fresh[0]
            here = view.here
            fresh_cells = {g.cell for g in fresh}
            # cargo found around the driver needs no empty drive: search here unless this grid
            # is in a low-yield streak or clearly worse than the best neighbour
            if here is not None and here.cell in fresh_cells and (
                    here.cell == best.cell or here.value >= 0.5 * best.value):
                return {"search": True, "lat": pos.lat, "lng": pos.lng,
                        "radius_km": self.radius, "reason": f"here {here.cell} holds value"}
            return {"search": True, "lat": round(best.lat, 5), "lng": round(best.lng, 5),
                    "radius_km": self.radius, "reason": f"best nearby grid {best.cell}"}

        def validate(out: dict) -> SearchAdvice:
            lat, lng = float(out["lat"]), float(out["lng"])
            if not in_guangdong(lat, lng):
                raise InvalidOutputError(f"search point ({lat}, {lng}) outside Guangdong")
            if haversine_km(lat, lng, view.position.lat, view.position.lng) > 3 * self.max_radius:
                raise InvalidOutputError("search point too far from the driver")
            radius = min(max(float(out["radius_km"]), 1.0), self.max_radius)
            return SearchAdvice(bool(out["search"]), lat, lng, radius, str(out.get("reason", "")))

        return self.caller.call(self.prompt, view, None, ctx, rules, validate)
