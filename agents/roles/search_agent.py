"""SearchAgent: whether to query the market now, and around which grid."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import h3

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import BOOL, ID, NUM, STR, Prompt, compression_adapter, obj
from agents.roles.registry import AgentSpec, register
from memory.view_builders import SearchViews
from memory.views import SearchView
from sim.geo import great_circle_km, in_guangdong

SEARCH = Prompt(
    agent="search", version="search-v2",
    system=(
        "You are the SearchAgent of a truck driver in Guangdong. Decide whether to query the "
        "cargo market now and where. Use the memory view: prefer grids with high value, skip "
        "grids with a low-yield streak, keep the daily query budget, and stay near preference "
        "anchors. grid: a grid id from the view, or \"here\" for where the driver stands. "
        "Answer with JSON only."),
    schema=obj({"search": BOOL, "grid": ID, "radius_km": NUM, "reason": STR},
               ["search", "grid", "radius_km", "reason"]),
)


@dataclass(frozen=True, slots=True)
class SearchAdvice:
    search: bool
    lat: float
    lng: float
    radius_km: float
    reason: str
    grid: str = "here"

    def main_input(self, brief: bool) -> tuple[str, Any]:
        if brief:
            return "search", {"grid": self.grid} if self.search else {"search": False}
        return "search", {"search": self.search, "grid": self.grid, "reason": self.reason}


class SearchAgent:
    prompt = SEARCH

    def __init__(self, caller: AgentCaller, default_radius_km: float, max_radius_km: float) -> None:
        self.caller = caller
        self.radius, self.max_radius = default_radius_km, max_radius_km

    def deterministic(self, view: SearchView) -> dict:
        """The deterministic answer: the current grid while it holds value, else the best
        neighbour worth a query; no search without budget or a grid worth asking about."""
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

    def advise(self, view: SearchView, advice: Mapping[str, Any],
               ctx: CallContext) -> SearchAdvice:
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
            far = great_circle_km(lat, lng, view.position.lat, view.position.lng)
            if far > 3 * self.max_radius:
                raise InvalidOutputError("search point too far from the driver")
            radius = min(max(float(out["radius_km"]), 1.0), self.max_radius)
            return SearchAdvice(bool(out["search"]), lat, lng, radius, str(out.get("reason", "")),
                                grid)

        return self.caller.call(self.prompt, view, None, ctx, lambda: self.deterministic(view),
                                validate)


register(AgentSpec(
    name="search", prompt=SEARCH, view=SearchView, views=SearchViews(), order=0,
    stage=0,  # reads no other agent's advice, so it runs beside preference
    compress_prompt=compression_adapter(
        "search", "grids worth searching, grids to avoid for repeated low yield, whether the "
        "query budget is high, search lessons"),
    make=lambda caller, geo, sc: SearchAgent(caller, sc.market.default_radius_km,
                                             sc.market.max_radius_km),
))
