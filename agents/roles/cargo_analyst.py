"""CargoAnalystAgent: ranks candidate cargo; never proposes one memory knows is gone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import CARGO
from memory.views import CargoAnalysisView
from sim.geo import Geography
from sim.order_rules import Option, evaluate, takeable
from sim.preferences import Preference


@dataclass(frozen=True, slots=True)
class Ranking:
    options: tuple[Option, ...]
    reason: str


class CargoAnalystAgent:
    prompt = CARGO

    def __init__(self, caller: AgentCaller, geo: Geography, horizon: float,
                 blocked: Callable[[str], bool], min_net: float) -> None:
        self.caller, self.geo, self.horizon = caller, geo, horizon
        self.blocked, self.min_net = blocked, min_net

    def rank(self, view: CargoAnalysisView, prefs: tuple[Preference, ...],
             progress: tuple[dict, ...], constraints: dict, ctx: CallContext) -> Ranking:
        now, pos = view.now, view.position
        unavailable = (set(view.failed_cargo_ids) | set(view.stale_cargo_ids)
                       | set(view.unavailable_cargo_ids))
        options = {}
        for c in view.candidates:
            if c.status != "active" or c.cargo.cargo_id in unavailable:
                continue
            o = evaluate(self.geo, c.cargo, pos, now, view.cost_per_km)
            if takeable(o, now, self.horizon, self.min_net, prefs, progress):
                options[c.cargo.cargo_id] = o

        def rules() -> dict:
            best = sorted(options.values(), key=lambda o: (-o.net, o.cargo.cargo_id))[:5]
            return {"ranked": [o.cargo.cargo_id for o in best],
                    "reason": f"{len(options)} feasible of {len(view.candidates)}"}

        def validate(out: dict) -> Ranking:
            ids = [str(x) for x in out["ranked"]][:5]
            bad = [i for i in ids if i in unavailable or self.blocked(i)]
            if bad:
                raise InvalidOutputError(f"ids on the unavailable lists: {bad}")
            unknown = [i for i in ids if i not in options]
            if unknown:
                raise InvalidOutputError(f"ids that are not feasible candidates: {unknown}")
            return Ranking(tuple(options[i] for i in ids), str(out.get("reason", "")))

        return self.caller.call(self.prompt, view, constraints or None, ctx, rules, validate)
