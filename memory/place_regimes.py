"""Whether a place rule (a box to stay in, a circle to keep out of) pays to keep.

A take that leaves a box is charged its step's fine and the next one's; what that what-if
cannot see is the market on either side. A box over a thin market holds the driver to short
orders and long waits, while the market outside would pay more per hour than the box's fine
per step takes back: on the east month a blind driver (CK13: a box over the north, 200 a step,
no cap) earned 40 an hour inside and 67 an hour outside after the fines, kept the box with 72
hours of waits, and ended 7% of its gross below the memory-off greedy, which never kept it
(failure class "a box kept at more than its fines").

So the driver's own record decides: every official step is booked to the rule's two regimes,
kept (it starts and ends where the rule allows) or broken, with its minutes and what the scorer
credits it (a take's price less its km, a drive's km cost), and a broken step with the fine the
scorer adds for it. Once each regime has run for long enough, a rule
whose broken hours, fines paid, earn more than its kept hours by a margin is *released*: its
"go back" action is no longer asked and moves toward a market may end outside it; every take
and rest is still charged its fines where they happen. The comparison is made again at every
step, so a rule released on a lucky day is taken back when the record turns.

Only the minutes the driver chose are booked. The generator world's step records open with
the day before its start, a first wait the driver never decided; booked as a kept day that
earned nothing, it made every box's kept side look idle, so the boxes of
`scenarios/month.toml` were released on the world's second day, and their drivers, with no
pull back in, spent runs of about 20 fined steps outside instead of about 5 (class "a toll
that forgets the way back", named for its symptom: -0.27% of the month's score, now +0.24%
over three seeds; docs/agents.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sim.official.penalties import PenaltyModel
from sim.official.steps import ActionKind, Step
from sim.official.timebase import DAY
from sim.official.versions import CapRule
from sim.preferences.progress import Scope

if TYPE_CHECKING:
    from memory.rule_progress import RuleProgress, RuleSpec

# each regime must have run this long before the two are compared: one long haul out and back
# is luck (half a day of each released a box on a blind driver that then earned less), a day of
# each is a record
MIN_MINUTES = DAY
# broken must out-earn kept by this share of kept's rate (and at least MIN_GAIN a minute):
# the record is short, and a rule released wrongly costs a fine on every step
MARGIN = 0.25
MIN_GAIN = 0.1


@dataclass
class Regime:
    """Minutes, net earned and fines paid over the steps of one side of a rule."""

    minutes: float = 0.0
    net: float = 0.0
    fines: float = 0.0

    @property
    def rate(self) -> float:
        """Net after fines per minute."""
        return (self.net - self.fines) / self.minutes if self.minutes > 0 else 0.0


@dataclass
class RuleRecord:
    kept: Regime = field(default_factory=Regime)
    broken: Regime = field(default_factory=Regime)

    def pays_to_break(self) -> bool:
        """Whether the broken steps, fines paid, have out-earned the kept ones."""
        if min(self.kept.minutes, self.broken.minutes) < MIN_MINUTES:
            return False
        k, b = self.kept.rate, self.broken.rate
        return b > k + max(MIN_GAIN, MARGIN * abs(k))


class PlaceRegimes:
    """The kept and broken record of each place rule with a fine per step, read from the
    official steps `RuleProgress` holds (`observe` each step)."""

    def __init__(self) -> None:
        self.records: dict[int, RuleRecord] = {}
        self._seen = 0  # steps booked so far

    @staticmethod
    def priced(rules: RuleProgress) -> list[RuleSpec]:
        """The place rules a step breaks on its own, with a fine per step."""
        return [s for s in rules.place_specs
                if s.rule.scope is Scope.STEP and s.rule.penalty_model is PenaltyModel.COUNT]

    @staticmethod
    def step_net(rules: RuleProgress, step: Step, cost_per_km: float) -> float:
        """What the scorer credits a step: an accepted take's price less its pickup drive and
        haul at the driver's km cost, a drive's km cost (an empty drive in or out of a box is
        part of that side's record), nothing for a wait or a failed take."""
        if step.action is ActionKind.REPOSITION:
            return -cost_per_km * step.distance_km
        if step.action is ActionKind.TAKE_ORDER and step.accepted and step.cargo_id:
            c = rules.cargo.get(step.cargo_id)
            if c is not None:
                return c.price_fen / 100.0 - cost_per_km * (step.pickup_deadhead_km + c.haul_km)
        return 0.0

    def observe(self, rules: RuleProgress, cost_per_km: float, since: float = 0.0) -> None:
        """Book the steps logged since the last call to each place rule, then release each
        rule whose record says breaking it pays and take back each whose record no longer
        does. A broken step is booked the fine the scorer would add for it: the rule's
        amount, or what is left of a cap that the version applies. `since`: when the
        driver's own decisions start on the steps' time base; the minutes before it are not
        booked (the generator world's first step runs from the day before to the first
        decision)."""
        new = [s for s in rules.steps[self._seen:] if s.step_end > since]
        self._seen = len(rules.steps)
        if not new:
            return
        specs = self.priced(rules)
        if not specs:
            return
        nets = [self.step_net(rules, s, cost_per_km) for s in new]
        capped = rules.settings.cap_rule is not CapRule.NEVER
        for spec in specs:
            rec = self.records.setdefault(spec.index, RuleRecord())
            allows = spec.rule.allows_place
            for s, net in zip(new, nets, strict=True):
                broken = not (allows(s.before) and allows(s.after))
                side = rec.broken if broken else rec.kept
                side.minutes += s.step_end - max(s.step_start, since)
                side.net += net
                if broken:
                    fine = spec.amount
                    if capped and spec.cap:
                        fine = min(fine, max(0.0, spec.cap - rec.broken.fines))
                    side.fines += fine
            rules.release(spec.index, rec.pays_to_break())

    def apply(self, rules: RuleProgress) -> None:
        """Release the place rules the record backs (after a restore)."""
        for spec in self.priced(rules):
            rec = self.records.get(spec.index)
            rules.release(spec.index, rec is not None and rec.pays_to_break())

    def get_state(self) -> dict:
        return {"seen": self._seen,
                "records": {str(i): [[r.kept.minutes, r.kept.net, r.kept.fines],
                                     [r.broken.minutes, r.broken.net, r.broken.fines]]
                            for i, r in self.records.items()}}

    def set_state(self, s: dict) -> None:
        self._seen = int(s["seen"])
        self.records = {int(i): RuleRecord(Regime(*map(float, k)), Regime(*map(float, b)))
                        for i, (k, b) in s["records"].items()}
