"""K19: a designated cargo must be taken (accepted) inside the preference's window."""

from __future__ import annotations

from dataclasses import dataclass

from sim.preftext.common import Candidate, hit
from sim.preftext.extract import Facts, cargo_ids
from sim.scoring.kinds.base import Counters, Kind, Params, RuleContext
from sim.scoring.progress import Progress, ProgressContext, Scope, Status
from sim.spec.penalties import PenaltyModel
from sim.spec.steps import StepLog


@dataclass(frozen=True)
class MustTakeCargoParams(Params):
    cargo_id: str


class MustTakeCargo(Kind):
    name = "must_take_cargo"
    number = 19
    family = "designated order"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"编号|号|货|单|id|cargo|order|load|shipment|#")
    model = PenaltyModel.MUST_TAKE
    Params = MustTakeCargoParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        hits = [t.step.index for t in log.takes
                if t.cargo.cargo_id == self.params.cargo_id.strip() and ctx.step_in_scope(t.step)]
        return {"taken_at_steps": hits, "failed": not hits}

    @classmethod
    def hint(cls, params: MustTakeCargoParams) -> str:
        return (f"Take cargo {params.cargo_id} while this preference is in force "
                f"(a one-off fine if it is never taken).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        failed = counters["failed"]
        return (Status.AT_RISK if failed else Status.OK,
                f"must take cargo {self.params.cargo_id}: {'not yet' if failed else 'taken'}",
                None)

    @staticmethod
    def recognise(f: Facts) -> Candidate | None:
        ids = cargo_ids(f.text)
        if not ids:
            return None
        score = 3.0 + 0.5 * hit(f, r"必接|mandatory|必须|一定|指定|临时约定|熟货|老客户|must|"
                                   r"have to|"
                                   r"make sure|"
                                  r"guarantee|promised|agreed")
        return Candidate("must_take_cargo", score, {"cargo_id": ids[0]})
