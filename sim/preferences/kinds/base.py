"""What every preference kind shares: typed params, the rule context and the Kind base class.

Params are frozen dataclasses whose type hints drive `from_dict`, `to_dict` and the JSON schema,
so a kind declares its fields once (docs/competition.md §7.5) and parsers, validators and the schema
enum cannot drift apart.
"""

from __future__ import annotations

import datetime as dt
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sim.geo import Point
from sim.official.cargo_index import CargoRecord
from sim.official.penalties import (
    PenaltyModel,
    p_count,
    p_event,
    p_extra,
    p_km,
    p_must_take,
    p_once,
    p_short,
)
from sim.official.steps import Step, StepLog, Take
from sim.official.timebase import DAY
from sim.official.versions import VersionSettings
from sim.official.windows import EVERYTHING, Window
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Params
from sim.preferences.kinds.wording import FinePer
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text.common import Claim
from sim.preferences.text.extract import Facts


@dataclass(frozen=True)
class RuleContext:
    """What a kind needs besides the steps: version, horizon, the rule's window, start position."""

    settings: VersionSettings
    n_days: int  # N, the run's simulation_duration_days
    kind: str
    window: Window = EVERYTHING  # the preference's validity window (§7.3)
    initial: Point | None = None  # the driver's start position (for K4 on an empty log)

    @property
    def horizon(self) -> int:
        """H in minutes (§6)."""
        return self.settings.horizon_days(self.n_days) * DAY

    @property
    def window_applied(self) -> bool:
        return self.settings.window_applies(self.kind)

    @property
    def whole_log(self) -> bool:
        return self.kind in self.settings.whole_log_kinds

    @property
    def days(self) -> list[int]:
        """D restricted to in-window days where this version applies the window."""
        d = range(self.horizon // DAY)
        if self.whole_log or not self.window_applied:
            return list(d)
        return [x for x in d if self.window.covers_day(x)]

    def step_in_scope(self, step: Step) -> bool:
        """An order/step kind counts a step iff it starts before H and overlaps W (§7.3)."""
        if self.whole_log:
            return True
        if step.action_start >= self.horizon:
            return False
        return not self.window_applied or self.window.overlaps(step.action_start, step.action_end)

    def in_window(self, a: int, b: int) -> bool:
        return not self.window_applied or self.window.overlaps(a, b)


Counters = dict[str, Any]

# a running sum continued over more terms equals `sum` over them all (plain float adds in
# order); from 3.12 `sum` compensates float rounding, so it is not continued there
SUMS_CONTINUE = sys.version_info < (3, 12)


def takes_of(steps: Sequence[Step], cargo: Mapping[str, CargoRecord]) -> list[Take]:
    """The accepted takes among `steps` with their cargo, as a log of them reads them."""
    return StepLog(tuple(steps), cargo).takes  # type: ignore[arg-type]


class Kind(ABC):
    """One preference kind, everything about it in one class: params, the §7.6 test
    (`violations`), its penalty model, the agent's hint, the free-text recogniser
    (`recognise`) and, for generated drivers, its drawer (`draw`) and its Chinese and English
    text templates (`zh`, `en`). The registry discovers the class from its kNN_*.py module, so
    adding a kind is adding one module; the parser, the schema enum, the scorer and the drivers'
    draw follow from the registry.
    """

    name: ClassVar[str]
    number: ClassVar[int]
    family: ClassVar[str]
    model: ClassVar[PenaltyModel]
    Params: ClassVar[type[Params]]
    # the kind's wording (docs/competition.md §8, and English): a text read as this kind with none
    # of it is reported ambiguous, not trusted (sim/preferences/text/reading.py); "" checks nothing
    signals: ClassVar[str] = ""
    # where the progress re-runs the test each step (MONTH, the whole log, is always exact)
    scope: ClassVar[Scope] = Scope.MONTH
    # judged once at the end of the period: the penalty before then is a forecast, not a fine
    judged_at_end: ClassVar[bool] = False

    def __init__(self, params: Params) -> None:
        if not isinstance(params, self.Params):
            raise TypeError(f"{self.name} needs {self.Params.__name__}, got {type(params)}")
        self.params = params

    @classmethod
    def from_dict(cls, data: dict) -> Kind:
        return cls(cls.Params.from_dict(data, where=cls.name))

    @property
    def label(self) -> str:
        return f"K{self.number} {self.name}"

    @property
    def penalty_model(self) -> PenaltyModel:
        return self.model

    @abstractmethod
    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        """The exact test of §7.6; the counters feed `penalty` and the report."""

    def penalty(self, counters: Counters, amount: float, cap: float | None, ctx: RuleContext,
                *, zero_cap_uncapped: bool | None = None) -> float:
        s, m = ctx.settings, self.penalty_model
        exempt = self.name in s.cap_exempt_kinds
        if m is PenaltyModel.COUNT:
            return p_count(counters["violations"], amount, cap, s, exempt=exempt,
                           zero_cap_uncapped=zero_cap_uncapped)
        if m is PenaltyModel.KM:
            return p_km(counters["over_km"], amount, cap, s, exempt=exempt,
                        zero_cap_uncapped=zero_cap_uncapped)
        if m is PenaltyModel.ONCE:
            return p_once(counters["failed"], amount, cap, s)
        if m is PenaltyModel.SHORT:
            return p_short(counters["missing"], amount)
        if m is PenaltyModel.EXTRA:
            return p_extra(counters["extra"], amount)
        if m is PenaltyModel.MUST_TAKE:
            return p_must_take(counters["failed"], amount, cap)
        if m is PenaltyModel.FLAT:
            return amount if counters["failed"] else 0.0
        if m is PenaltyModel.EVENT:
            return p_event(counters["absence_minutes"], counters["rate_per_minute"],
                           counters["failed"], amount, cap)
        raise AssertionError(m)

    @classmethod
    @abstractmethod
    def hint(cls, params: Params) -> str:
        """One English sentence telling an agent what the rule asks."""

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        """This kind's reading of a free-text preference, scored, or None when the text is not
        about it. `f` holds what the shared extractors (text/extract.py) found once for
        every kind; the score counts the kind's keyword groups (text/common.py) minus
        the cues pointing at a neighbouring kind, and the parser keeps the best candidate that
        validates at or above its MIN_SCORE. The default: no text form."""
        return None

    # -- progress mid-run (memory/rule_progress.py) ----------------------------------------
    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        """Status, one line of what is kept/due/at risk, and the one action a due rule asks
        for, from this rule's counters and penalty so far (`penalty` is a forecast for kinds
        `judged_at_end`). The default: the hint and the fines so far."""
        status, fined = self.fined(penalty)
        return status, f"{self.hint(self.params)}{fined}", None

    def rest_ends(self, ctx: ProgressContext) -> tuple[int, ...]:
        """The minutes at which a rest begun now would keep this rule (a window's end, a
        daily rest's minimum): the lengths a rest is worth offering, so that no wait runs
        longer than the rule needs. None by default."""
        return ()

    def rest_point(self) -> Point | None:
        """Where a rest keeps this rule, when only one place does (K4: home); None when a
        rest anywhere does. A what-if's future goes there before it rests, so a take is
        charged for the curfew it makes unreachable, not excused because resting where the
        driver stands would break it too."""
        return None

    def allows_place(self, p: Point) -> bool:
        """Whether standing at `p` keeps this rule, for a rule about places alone (K10's box,
        K11's circle); True for every other kind. A move toward a market checks it, so a
        driver is not sent out of its box by a grid's value."""
        return True

    def fined(self, penalty: float) -> tuple[Status, str]:
        """(VIOLATED, ", fined N so far") once a fine is incurred, else (OK, "")."""
        if penalty > 0 and not self.judged_at_end:
            return Status.VIOLATED, f", fined {penalty:,.0f} so far"
        return Status.OK, ""

    def times_broken(self, counters: Counters, penalty: float) -> Progress:
        """The line of a rule broken step by step: the hint and how often it was broken."""
        status, fined = self.fined(penalty)
        n = counters.get("violations", 0)
        return status, f"{self.hint(self.params)} Broken {n} times{fined}", None

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        """True when `steps`, logged after a log whose counters are `base` (every take in it
        finding its cargo in `cargo`), provably leave this kind's counters as they are: a
        what-if of a month kind then skips re-reading the month. False (the default) when
        not sure: the log is tested."""
        return False

    def settled_after(self) -> int:
        """The minute after which no step can change this rule's counters (the what-if skips
        later takes); never, by default."""
        return 10**12

    def daily_order_slots(self) -> int | None:
        """The orders a day may start before each further one is fined (K15), or None. A
        take within them is free by the kind's own test, yet it crowds out the day's later
        orders, which then pay: the memory prices that share (`RuleProgress.slot_charge`)."""
        return None

    def follow_counters(self, counters: Counters, ctx: ProgressContext
                        ) -> tuple[Counters, Counters] | None:
        """The counters the rule ends with if its action is followed from `ctx` on, and if it
        is given up, for a kind whose fine grows with how late the action is (K24: minutes
        away from home at a rate), where one more break does not say what following saves
        (`RuleProgress.todo_stake`) nor what a take that delays it costs
        (`RuleProgress.delay_charges`). None by default: one more break's fine is at stake."""
        return None

    def drive_due(self, ctx: ProgressContext, counters: Counters) -> int | None:
        """The minute a drive this rule needs falls due (a dated stop's, K22/K23), or None:
        a wait asked by another rule ends there (`RuleProgress.stop_due_in`)."""
        return None

    def lost_unseen(self) -> bool:
        """True for a rule whose own test fails alike before and after a take that puts it
        out of reach (a dated stop, K22/K23: nothing is reached yet either way), so a take's
        what-if cannot see the loss and the memory checks reach instead
        (`RuleProgress.stops_lost`). False by default."""
        return False

    # -- generated drivers (sim/preferences/draw.py) ----------------------------------------
    # what a per-count fine is charged for in a drawn text; "" where the model has no unit
    fine_per: ClassVar[FinePer] = ""

    def drawn_fine_per(self) -> FinePer:
        """The unit a drawn text names for this rule's count fine (may depend on the params)."""
        return self.fine_per

    @classmethod
    def draw_window(cls, ctx: DrawContext) -> tuple[dt.date, dt.date]:
        """The drawn rule's validity window, first and last day (both whole): the horizon."""
        return ctx.start, ctx.start + dt.timedelta(days=ctx.days - 1)

    @classmethod
    @abstractmethod
    def draw(cls, ctx: DrawContext) -> Drawn:
        """Realistic params for a generated driver, every random choice from `ctx.rng` (in a
        fixed order: seeded drivers files must stay as they are), and the words the templates
        fill in."""

    @staticmethod
    @abstractmethod
    def zh(words: dict[str, Any]) -> list[str]:
        """Chinese texts of a drawn rule, one per template; the drawer's words fill them."""

    @staticmethod
    @abstractmethod
    def en(words: dict[str, Any]) -> list[str]:
        """English texts of a drawn rule, one per template."""
