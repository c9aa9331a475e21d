"""Memory modes, one registry: what a mode's views are built from and how they print.

`full` sends every raw fact log along; `rules` sends bounded structured facts by rule;
`compressed` is `rules` until the facts since the last digest pass the threshold, then each
view is its digest plus what came after it, printed compactly. `off` (no memory, the greedy
baseline) is the runner's, not a memory mode. Every list of modes (scenario validation, CLI
choices, bench modes) derives from MODES.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.scenario import register_choices

if TYPE_CHECKING:
    from memory.memory_agent import MemoryAgent, StepState
    from memory.views import View

OFF = "off"  # memory off: the greedy baseline over raw observations


class MemoryMode:
    name = "mode"
    compresses = False  # whether the MemoryAgent runs digest rounds in this mode

    def views(self, m: MemoryAgent, s: StepState) -> dict[str, View]:
        raise NotImplementedError


class Full(MemoryMode):
    name = "full"

    def views(self, m: MemoryAgent, s: StepState) -> dict[str, View]:
        return {a: b.full(m, s) for a, b in m.builders.items()}


class Rules(MemoryMode):
    name = "rules"

    def views(self, m: MemoryAgent, s: StepState) -> dict[str, View]:
        return m.rules_views(s)


class Compressed(MemoryMode):
    name = "compressed"
    compresses = True

    def views(self, m: MemoryAgent, s: StepState) -> dict[str, View]:
        if not m.digests:
            return m.rules_views(s)
        return {a: b.compressed(m, s, m.digests[a]) for a, b in m.builders.items()}


MODES: dict[str, MemoryMode] = {}


def register(mode: MemoryMode) -> MemoryMode:
    MODES[mode.name] = mode
    register_choices("memory", "mode", (OFF, *MODES))
    return mode


def unregister(name: str) -> None:
    MODES.pop(name, None)
    register_choices("memory", "mode", (OFF, *MODES))


def mode_names() -> tuple[str, ...]:
    """The memory modes, in registry order (bench and sweep run these)."""
    return tuple(MODES)


for _m in (Full(), Rules(), Compressed()):
    register(_m)
