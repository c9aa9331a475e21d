"""What one decision step knows (`StepState`) and a view's digest (`Digest`): plain data the
MemoryAgent computes and the modes and view builders read, kept apart from the agent so that
none of the three imports another in a circle."""

from __future__ import annotations

from dataclasses import dataclass

from memory.rule_progress import RuleState, Todo
from memory.time_price import UNPRICED, TimePrice
from memory.views import Candidate, RestOption
from sim.world.actions import Observation
from sim.world.order_costs import Option


@dataclass
class Digest:
    bullets: tuple[str, ...]
    t: float
    marks: dict[str, int]  # log name -> length at digest time
    source: str = ""  # what the compressor read: an unchanged source needs no new call


@dataclass(frozen=True)
class StepState:
    """What one decision step knows, computed once, before any view or agent reads it."""

    obs: Observation
    candidates: tuple[Candidate, ...]  # reachable active cargo, best estimated net first
    feasible: tuple[Candidate, ...]  # the candidates the driver may take now, same order
    options: tuple[Option, ...]  # their evaluation, one per feasible candidate
    rules: tuple[RuleState, ...] = ()  # each preference's state (when the driver has any)
    todo: Todo | None = None  # what the first due preference asks for now, priced
    time_price: TimePrice = UNPRICED  # what the driver's time is worth (falsy: not priced)
    rests: tuple[RestOption, ...] = ()  # waits from now that avoid fines, with what they save
