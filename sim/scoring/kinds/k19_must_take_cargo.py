"""K19: a designated cargo must be taken (accepted) inside the preference's window."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scoring.kinds.base import Counters, Kind, Params, RuleContext
from sim.scoring.penalties import PenaltyModel
from sim.scoring.steps import StepLog


@dataclass(frozen=True)
class MustTakeCargoParams(Params):
    cargo_id: str


class MustTakeCargo(Kind):
    name = "must_take_cargo"
    number = 19
    family = "designated order"
    model = PenaltyModel.MUST_TAKE
    Params = MustTakeCargoParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        hits = [t.step.index for t in log.takes
                if t.cargo.cargo_id == self.params.cargo_id.strip() and ctx.step_in_scope(t.step)]
        return {"taken_at_steps": hits, "failed": not hits}

    @classmethod
    def hint(cls, params: MustTakeCargoParams) -> str:
        return (f"Take cargo {params.cargo_id} while this preference is in force "
                f"(a one-off fine if it is never taken).")
