"""Memory modes, one registry: what a mode's views are built from and how they print.

`full` sends every raw fact log along; `bounded` sends a bounded set of facts, chosen by
fixed rules from the stores; `compressed` is `bounded` until the facts since the last digest
pass the threshold, then each view is its digest plus what came after it, printed compactly.
`off` (no memory, the greedy baseline) is the runner's, not a memory mode. Every list of modes
(scenario validation, CLI choices, bench modes) derives from MODES.

Two ablation modes split the token cut of `compressed` against `bounded` into its causes
(the bench runs them beside the others): `bounded-filtered` is `bounded` with the
compressed cargo view's feasibility filter and candidate cap (filtering alone),
`compressed-unfiltered` is `compressed` showing every reachable candidate (digesting and
compact formatting alone). Both change only what the views print: the agents read the same
structured fields, so decisions do not move.

The layer modes split what memory buys in decisions: `cargo` (remembered cargo, failed and
expired ids), `cargo-market` (+ grid values and the price of the driver's time by hour),
`cargo-market-driver` (+ the preferences priced into every take, rest and drive); every other mode
has all layers, lessons included.

`rules` and `rules-filtered` are the old spellings of `bounded` and `bounded-filtered`
(RENAMED): a scenario or the command line may still write them for one release, with a warning.
("rules" also named the ruleset, the LLM backend and the preferences; "structured" already
names a preference's structured form, so the mode is named for what sets it apart: a bounded
set of facts, where `full` sends every log and `compressed` a digest.)
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import TYPE_CHECKING

from sim.scenario import current_choice, register_choices

if TYPE_CHECKING:
    from memory.step_state import StepState
    from memory.view_builders import MemoryReader
    from memory.views import View

OFF = "off"  # memory off: the greedy baseline over raw observations
# old spelling -> current mode name, read with a deprecation warning for one release
RENAMED = {"rules": "bounded", "rules-filtered": "bounded-filtered"}


class Layer(StrEnum):
    """What part of memory feeds the decisions (the ablation's rows add them in this order)."""

    CARGO = "cargo"  # cargo seen earlier, failed and expired ids: candidates beyond one search
    MARKET = "market"  # value by grid, and what an hour of the driver's time earns
    DRIVER = "driver"  # rule progress: each take, wait and drive priced by the rules' fines
    LESSONS = "lessons"  # what earlier runs taught: the earning rate and grid values to start


ALL_LAYERS = frozenset(Layer)


class MemoryMode:
    name = "mode"
    compresses = False  # whether the MemoryAgent runs digest rounds in this mode
    layers: frozenset[Layer] = ALL_LAYERS

    @property
    def prices_time(self) -> bool:
        return Layer.MARKET in self.layers

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        raise NotImplementedError


class Full(MemoryMode):
    name = "full"

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        return {a: b.full(m, s) for a, b in m.builders.items()}


class Bounded(MemoryMode):
    name = "bounded"

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        return m.bounded_views(s)


class Compressed(MemoryMode):
    name = "compressed"
    compresses = True

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        if not m.digests:
            return m.bounded_views(s)
        return {a: b.compressed(m, s, m.digests[a]) for a, b in m.builders.items()}


class BoundedFiltered(MemoryMode):
    """`bounded` whose candidate lists hold only what the driver may take now, capped as the
    compressed cargo view caps them (the feasibility filter without any digest)."""

    name = "bounded-filtered"

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        from memory.view_builders import COMPRESSED_CANDIDATES

        return m.bounded_views(dataclasses.replace(
            s, candidates=s.feasible[:COMPRESSED_CANDIDATES]))


class CompressedUnfiltered(Compressed):
    """`compressed` whose candidate lists show every reachable cargo, uncapped (the digest and
    compact lines without the feasibility filter)."""

    name = "compressed-unfiltered"

    def views(self, m: MemoryReader, s: StepState) -> dict[str, View]:
        views = super().views(m, s)
        if not m.digests:  # before the first digest `compressed` is `bounded`: nothing filtered
            return views
        return {a: dataclasses.replace(v, candidates=s.candidates)
                if isinstance(getattr(v, "candidates", None), tuple) else v
                for a, v in views.items()}


class Layered(Bounded):
    """`bounded` views built from only some memory layers: the ablation's rows. The agents and
    views are the same; what a missing layer would have told them is simply not there."""

    def __init__(self, name: str, layers: frozenset[Layer]) -> None:
        self.name, self.layers = name, layers


# off -> + cargo -> + market -> + driver; `bounded` (every layer) then adds the lessons
ABLATION = (
    Layered("cargo", frozenset({Layer.CARGO})),
    Layered("cargo-market", frozenset({Layer.CARGO, Layer.MARKET})),
    Layered("cargo-market-driver", frozenset({Layer.CARGO, Layer.MARKET, Layer.DRIVER})),
)

MODES: dict[str, MemoryMode] = {}


def register(mode: MemoryMode) -> MemoryMode:
    MODES[mode.name] = mode
    register_choices("memory", "mode", (OFF, *MODES), RENAMED)
    return mode


def unregister(name: str) -> None:
    MODES.pop(name, None)
    register_choices("memory", "mode", (OFF, *MODES))


def mode_names() -> tuple[str, ...]:
    """The memory modes, in registry order (bench and sweep run these)."""
    return tuple(MODES)


def current_name(name: str, where: str = "") -> str:
    """A mode name as the registry knows it: an old spelling (RENAMED) becomes the new one,
    with a warning that names it."""
    return current_choice("memory", "mode", name, where)


for _m in (Full(), Bounded(), BoundedFiltered(), CompressedUnfiltered(), Compressed(),
           *ABLATION):
    register(_m)
