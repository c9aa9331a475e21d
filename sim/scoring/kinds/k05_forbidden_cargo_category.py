"""K5: accepted takes whose cargo category is in the forbidden set are fined per order."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Params, ParamsError, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


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
    model = PenaltyModel.COUNT
    Params = ForbiddenCategoryParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        cats = set(self.params.categories)
        bad = [t.step.index for t in log.takes
               if ctx.step_in_scope(t.step) and t.cargo.category in cats]
        return {"violations": len(bad), "violating_steps": bad}

    @classmethod
    def hint(cls, params: ForbiddenCategoryParams) -> str:
        return f"Do not take cargo of category {', '.join(params.categories)} (fined per order)."
