"""What a report shows, read once from either kind of run directory.

Both readers (`competition_run.py`, `generator_run.py`) fill these dataclasses, so the figures
and the page know nothing of Parquet, action logs or which world produced them. Times are
minutes from 2026-03-01 00:00 (the scorer's epoch), the one clock both worlds can be put on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """What a driver is doing over a stretch of time; the timeline colours by it."""

    SEARCH = "search"
    PICKUP = "take: pickup drive"
    WINDOW_WAIT = "take: window wait"
    HAUL = "take: haul"
    FAILED_TAKE = "take: failed"
    REPOSITION = "reposition"
    WAIT = "wait"


@dataclass(frozen=True, slots=True)
class Segment:
    phase: Phase
    start: float  # minutes from the epoch
    end: float
    step: int  # the step (decision) it belongs to, 1-based
    note: str = ""  # cargo id of a take, failure reason


@dataclass(frozen=True, slots=True)
class Money:
    """A change of the driver's running income at time `t` (payment in, km cost out)."""

    t: float
    amount: float


@dataclass(frozen=True, slots=True)
class Mark:
    """One preference violation where the scorer found it, with its share of the fine."""

    t: float  # minutes from the epoch
    rule_index: int
    label: str  # "K3 quiet_window"
    where: str  # "step 12" / "day 3 (2026-03-04)" / "month"
    fine: float


@dataclass(frozen=True, slots=True)
class MapStop:
    """A pickup or a drop on the map."""

    lat: float
    lng: float
    kind: str  # "pickup" | "drop"
    t: float
    note: str


@dataclass(frozen=True, slots=True)
class Area:
    """A place a rule names: a box, a circle (radius in km) or a point."""

    shape: str  # "box" | "circle" | "point"
    label: str
    lat: float = 0.0
    lng: float = 0.0
    radius_km: float = 0.0
    lat_min: float = 0.0
    lat_max: float = 0.0
    lng_min: float = 0.0
    lng_max: float = 0.0


@dataclass
class RuleRow:
    """One preference of one driver: as written, as read, and what it cost."""

    driver_id: str
    index: int
    text: str
    label: str  # the scorer's "K7 max_haul_km", or "unscored"
    kind: str | None
    scorer_reading: dict[str, Any] | None  # kind + params the scorer used (None: not recorded)
    reading_source: str  # "structured field" | "text parser" | "not recorded"
    parser_reading: dict[str, Any] | None  # what sim.preferences.text makes of the text now
    penalty: float
    counters: dict[str, Any]
    amount: float | None = None
    cap: float | None = None
    unscored: str | None = None

    @property
    def agrees(self) -> bool | None:
        """Whether the parser's kind and params match the scorer's reading (None: no reading)."""
        if self.scorer_reading is None or self.parser_reading is None:
            return None
        return (self.scorer_reading.get("kind") == self.parser_reading.get("kind")
                and self.scorer_reading.get("params") == self.parser_reading.get("params"))


@dataclass
class DriverTrace:
    driver_id: str
    gross: float
    km: float
    cost: float
    penalty: float
    net: float  # income after km cost, before the preference penalty
    score: float  # net - penalty: what the competition ranks
    orders: int
    steps: int
    start: tuple[float, float] | None = None
    segments: list[Segment] = field(default_factory=list)
    money: list[Money] = field(default_factory=list)
    route: list[tuple[float, float, float]] = field(default_factory=list)  # (t, lat, lng)
    stops: list[MapStop] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    areas: list[Area] = field(default_factory=list)
    note: str = ""  # e.g. an aborted scoring


@dataclass
class LlmData:
    """Model and memory figures when the run has them (the generator world's Parquet, or
    the token usage an action log records per step)."""

    # mean prompt tokens per step, per agent, by time bucket (t = bucket start, epoch minutes)
    tokens_by_agent: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    bucket: str = "day"
    latency_by_agent: dict[str, dict[str, float]] = field(default_factory=dict)
    digests: list[tuple[float, str, int, int]] = field(default_factory=list)  # t, agent, in, out
    notes: list[str] = field(default_factory=list)


@dataclass
class RunData:
    path: str
    ruleset: str  # "generator" | "competition"
    title: str
    horizon: float  # minutes from the epoch where the run ends
    drivers: list[DriverTrace]
    rules: list[RuleRow]
    llm: LlmData | None = None
    notes: list[str] = field(default_factory=list)  # sampling, fallbacks: said on the page
    facts: dict[str, Any] = field(default_factory=dict)  # header line: version, days, ...
    start: float = 0.0  # minutes from the epoch where the run starts (a world may start later)

    def driver(self, driver_id: str) -> DriverTrace | None:
        return next((d for d in self.drivers if d.driver_id == driver_id), None)
