"""The step model of §7.2, built from action-log records (§5.2).

Every preference kind reads this one model, so rest, activity, geometry and take facts have a
single definition: rest intervals are waits with exec > 0 (scan minutes included), active
intervals are takes (accepted or failed) and repositions over [action_start, action_end), and
all geometry uses the logged `before`/`after` positions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from sim.geo import Point
from sim.official.cargo_index import CargoRecord
from sim.official.timebase import DAY


class ActionKind(StrEnum):
    WAIT = "wait"
    REPOSITION = "reposition"
    TAKE_ORDER = "take_order"


@dataclass(frozen=True, slots=True)
class Step:
    index: int  # 1-based line number
    action: ActionKind
    step_start: int
    scan: int
    exec: int
    step_end: int
    before: Point
    after: Point
    accepted: bool = False
    cargo_id: str | None = None
    distance_km: float = 0.0  # result.distance_km of a reposition
    pickup_deadhead_km: float = 0.0  # result.pickup_deadhead_km of a take

    @property
    def action_start(self) -> int:
        return self.step_start + self.scan

    @property
    def action_end(self) -> int:
        return self.action_start + self.exec

    @property
    def is_active(self) -> bool:
        return self.action is not ActionKind.WAIT

    @classmethod
    def from_record(cls, record: dict, prev_end: int, index: int, *,
                    accepted_truthy: bool = False) -> Step:
        """A validated log line -> step; `prev_end` is the previous line's end (0 first)."""
        act = record["action"]
        params = act.get("params") or {}
        result = record.get("result") or {}
        kind = ActionKind(str(act["action"]).strip().lower())
        acc = result.get("accepted", False)
        accepted = bool(acc) if accepted_truthy else acc is True
        cid = params.get("cargo_id") if kind is ActionKind.TAKE_ORDER else None
        return cls(
            index=index, action=kind, step_start=prev_end,
            scan=int(record["query_scan_cost_minutes"]),
            exec=int(record["action_exec_cost_minutes"]),
            step_end=int(result["simulation_progress_minutes"]),
            before=Point(float(record["position_before"]["lat"]),
                       float(record["position_before"]["lng"])),
            after=Point(float(record["position_after"]["lat"]),
                      float(record["position_after"]["lng"])),
            accepted=accepted and kind is ActionKind.TAKE_ORDER,
            cargo_id=None if cid is None else str(cid).strip(),
            distance_km=float(result.get("distance_km") or 0.0)
            if kind is ActionKind.REPOSITION else 0.0,
            pickup_deadhead_km=float(result.get("pickup_deadhead_km") or 0.0)
            if kind is ActionKind.TAKE_ORDER else 0.0,
        )


@dataclass(frozen=True, slots=True)
class Take:
    """An accepted take with its facts from the raw cargo (§7.2 'take facts')."""

    step: Step
    cargo: CargoRecord

    @property
    def haul_km(self) -> float:
        return self.cargo.haul_km

    @property
    def pickup_km(self) -> float:
        return self.step.before.km_to(self.cargo.start_lat, self.cargo.start_lng)

    @property
    def start_day(self) -> int:
        return self.step.action_start // DAY

    @property
    def end_day(self) -> int:
        return self.step.step_end // DAY

    def city_has(self, place: str) -> bool:
        return place in self.cargo.start_city or place in self.cargo.end_city


Interval = tuple[int, int]


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sort and join each interval to the previous one when start <= previous end."""
    out: list[list[int]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def clip(intervals: Iterable[Interval], lo: int, hi: int) -> list[Interval]:
    return [(max(a, lo), min(b, hi)) for a, b in intervals if max(a, lo) < min(b, hi)]


def covered(intervals: Iterable[Interval], lo: int, hi: int) -> int:
    """Minutes of [lo, hi) covered by the (merged) intervals."""
    return sum(b - a for a, b in clip(merge(intervals), lo, hi))


@dataclass(frozen=True)
class StepLog:
    """A driver's validated steps plus the derived quantities every kind shares."""

    steps: tuple[Step, ...]
    cargo: Mapping[str, CargoRecord]

    @classmethod
    def from_records(cls, records: Sequence[dict], cargo: Mapping[str, CargoRecord], *,
                     accepted_truthy: bool = False) -> StepLog:
        steps, prev = [], 0
        for i, rec in enumerate(records, 1):
            s = Step.from_record(rec, prev, i, accepted_truthy=accepted_truthy)
            steps.append(s)
            prev = s.step_end
        return cls(tuple(steps), cargo)

    @property
    def end(self) -> int:
        return self.steps[-1].step_end if self.steps else 0

    def grown_from(self) -> tuple[StepLog, StepLog] | None:
        """(kept log, steps after it) for a log grown from a kept one by a few steps (the
        what-ifs of memory/grown_log.py), so a kind can continue what it derived from the kept
        log; None for a log read whole."""
        return None

    @cached_property
    def kind_memo(self) -> dict:
        """What a kind derives from this log, kept on it (a log never changes)."""
        return {}

    @cached_property
    def rest_intervals(self) -> list[Interval]:
        return [(s.step_start, s.step_end) for s in self.steps
                if s.action is ActionKind.WAIT and s.exec > 0]

    @cached_property
    def merged_rest(self) -> list[Interval]:
        return merge(self.rest_intervals)

    def day_rest(self, day: int) -> list[Interval]:
        """Rest clipped to calendar day `day` before merging (a night rest splits at midnight)."""
        return merge(clip(self.rest_intervals, DAY * day, DAY * day + DAY))

    @cached_property
    def active_steps(self) -> list[Step]:
        return [s for s in self.steps if s.is_active]

    @cached_property
    def active_intervals(self) -> list[Interval]:
        return [(s.action_start, s.action_end) for s in self.active_steps]

    def active_minutes(self, day: int) -> int:
        lo = DAY * day
        return sum(b - a for a, b in clip(self.active_intervals, lo, lo + DAY))

    def active_overlaps(self, lo: int, hi: int) -> bool:
        return any(max(a, lo) < min(b, hi) for a, b in self.active_intervals)

    @cached_property
    def takes(self) -> list[Take]:
        """Accepted takes in log order, with their cargo (validated logs always find it)."""
        return [Take(s, self.cargo[s.cargo_id]) for s in self.steps
                if s.accepted and s.cargo_id in self.cargo]

    def deadhead_km(self, steps: Iterable[Step]) -> float:
        return sum(s.distance_km for s in steps if s.action is ActionKind.REPOSITION) + sum(
            s.pickup_deadhead_km for s in steps if s.accepted)
