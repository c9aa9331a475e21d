"""CargoAnalystAgent: ranks the cargo the driver may take; never proposes one memory knows is
gone. What is feasible is the memory's one check per step (the view's `feasible`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import ID, STR, Prompt, compression_adapter, obj
from agents.roles.registry import AgentSpec, register
from memory.view_builders import CargoViews
from memory.views import CargoAnalysisView
from sim.world.order_costs import Option

CARGO = Prompt(
    agent="cargo_analyst", version="cargo-v1",
    system=(
        "You are the CargoAnalystAgent. Rank the candidate cargo by net income (price minus "
        "empty and loaded km times cost per km) among those the driver can reach before the "
        "loading window closes and finish before the end, respecting the preference "
        "constraints. Never name an id from failed_cargo_ids, stale_cargo_ids or "
        "unavailable_cargo_ids, and never an id that is not a candidate. Answer with JSON only."),
    schema=obj({"ranked": {"type": "array", "items": ID, "maxItems": 5}, "reason": STR},
               ["ranked", "reason"]),
)
RANKED = 5


@dataclass(frozen=True, slots=True)
class Ranking:
    options: tuple[Option, ...]
    reason: str

    def main_input(self, brief: bool) -> tuple[str, Any] | None:
        ranked = [{"cargo_id": o.cargo.cargo_id, "net": round(o.net), "empty_km": round(o.empty_km)}
                  for o in self.options[:3 if brief else RANKED]]
        if brief and not ranked:
            return None
        return "ranked", ranked


class CargoAnalystAgent:
    prompt = CARGO

    def __init__(self, caller: AgentCaller) -> None:
        self.caller = caller

    @staticmethod
    def deterministic(view: CargoAnalysisView) -> dict:
        """The deterministic answer: the feasible options by value, best first (net after
        the rules' fines, less the hours each holds the truck at what the driver's time
        earns; plain net where the view prices no time)."""
        tp = view.time_price
        best = sorted(view.feasible,
                      key=lambda o: (-tp.value(o, view.now), o.cargo.cargo_id))[:RANKED]
        return {"ranked": [o.cargo.cargo_id for o in best],
                "reason": f"{len(view.feasible)} feasible of {len(view.candidates)}"}

    @staticmethod
    def constraints(advice: Mapping[str, Any]) -> dict | None:
        """What the preference agent's advice binds the ranking to (sent as inputs)."""
        pref = advice.get("preference")
        wait = getattr(pref, "wait_minutes", 0)
        return {"wait_minutes": round(wait)} if wait else None

    def advise(self, view: CargoAnalysisView, advice: Mapping[str, Any],
               ctx: CallContext) -> Ranking:
        options = {o.cargo.cargo_id: o for o in view.feasible}
        unavailable = (set(view.failed_cargo_ids) | set(view.stale_cargo_ids)
                       | set(view.unavailable_cargo_ids))

        def validate(out: dict) -> Ranking:
            ids = [str(x) for x in out["ranked"]][:RANKED]
            bad = [i for i in ids if i in unavailable or i in view.blocked_ids]
            if bad:
                raise InvalidOutputError(f"ids on the unavailable lists: {bad}")
            unknown = [i for i in ids if i not in options]
            if unknown:
                raise InvalidOutputError(f"ids that are not feasible candidates: {unknown}")
            return Ranking(tuple(options[i] for i in ids), str(out.get("reason", "")))

        return self.caller.call(self.prompt, view, self.constraints(advice), ctx,
                                lambda: self.deterministic(view), validate)


register(AgentSpec(
    name="cargo_analyst", prompt=CARGO, view=CargoAnalysisView, views=CargoViews(),
    order=2, stage=2,
    compress_prompt=compression_adapter(
        "cargo_analyst", "which cargo is worth taking and what is blacklisted or discarded"),
    make=lambda caller, geo, sc: CargoAnalystAgent(caller),
))
