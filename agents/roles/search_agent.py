"""SearchAgent: whether to query the market now, and around which grid."""

from __future__ import annotations

from dataclasses import dataclass

import h3

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import SEARCH
from memory.views import SearchView
from sim.geo import haversine_km, in_guangdong


@dataclass(frozen=True, slots=True)
class SearchAdvice:
    search: bool
    lat: float
    lng: float
    radius_km: float
    reason: str
    grid: str = "here"


class SearchAgent:
    prompt = SEARCH

    def __init__(self, caller: AgentCaller, default_radius_km: float, max_radius_km: float) -> None:
        self.caller = caller
        self.radius, self.max_radius = default_radius_km, max_radius_km

    def advise(self, view: SearchView, ctx: CallContext) -> SearchAdvice:
        def rules() -> dict:
            if view.budget_left <= 0:
                return {"search": False, "grid": "here", "radius_km": self.radius,
                        "reason": "query budget used up"}
            fresh = [g for g in view.nearby if g.worth_query(view.now)]
            if not fresh:
                return {"search": False, "grid": "here", "radius_km": self.radius,
                        "reason": "every nearby grid just gave little"}
            best = fresh[0]
            here = view.here
            fresh_cells = {g.cell for g in fresh}
            # cargo found around the driver needs no empty drive: search here unless this grid
            # is in a low-yield streak or clearly worse than the best neighbour
            if here is not None and here.cell in fresh_cells and (
                    here.cell == best.cell or here.value >= 0.5 * best.value):
                return {"search": True, "grid": "here", "radius_km": self.radius,
                        "reason": f"here {here.cell} holds value"}
            return {"search": True, "grid": best.cell, "radius_km": self.radius,
                    "reason": f"best nearby grid {best.cell}"}

        cells = view.cells()

        def validate(out: dict) -> SearchAdvice:
            grid = str(out["grid"]).strip()
            if grid == "here":
                lat, lng = view.position.lat, view.position.lng
            elif grid in cells:  # a grid the view names: search around its centre
                lat, lng = (round(x, 5) for x in h3.cell_to_latlng(grid))
            else:
                raise InvalidOutputError(f"grid {grid!r} is not \"here\" or a grid in the view")
            if not in_guangdong(lat, lng):
                raise InvalidOutputError(f"search point ({lat}, {lng}) outside Guangdong")
            if haversine_km(lat, lng, view.position.lat, view.position.lng) > 3 * self.max_radius:
                raise InvalidOutputError("search point too far from the driver")
            radius = min(max(float(out["radius_km"]), 1.0), self.max_radius)
            return SearchAdvice(bool(out["search"]), lat, lng, radius, str(out.get("reason", "")),
                                grid)

        return self.caller.call(self.prompt, view, None, ctx, rules, validate)
