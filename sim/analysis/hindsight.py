"""Hindsight optimum of one independent competition driver: the best net income knowing everything.

Why: a policy's income means little on its own; its share of what was achievable on the same
cargo stream is comparable across scenarios. The bound ignores query costs (scan minutes) and is
computed under the competition rules (docs/competition.md §2.1, §4.1-§4.5, §6).

Model. A plan is a chain of takes. Before each take the truck stands at the previous drop point q
(or its start) at minute t; waiting is free. Cargo j (pickup s, online [c, r], window [ws, we] or
none, cost time ct) is reached by one of two options:

- A, direct take: the take_order starts at a = max(t, c), needs a <= r; pickup minutes
  p = 0 if d(q, s) <= 1e-6 km else minutes(d); arrival a + p must be <= we; finish
  max(a + p, ws) + ct. The take is committed while online even if it expires during the drive.
- B, reposition first: drive to s (minutes(d)), take at a = max(t + minutes(d), c) with zero pickup
  minutes; needs a <= r and a <= we; finish max(a, ws) + ct. (Only when d > 1e-6 km; otherwise A
  is never worse.)

Both start as early as possible: finish and feasibility are monotone in t (a later t never finishes
earlier and is never feasible where an earlier t is not), so the earliest start is optimal for a
given option. Km per leg are the scorer's 2-dp rounded `distance_km` / `pickup_deadhead_km` /
`haul_distance_km`, so cost = (round(d, 2) + round(haul, 2)) * cost_per_km under both options. A
take is paid iff its finish <= H (S1/S2 min(N,30)*1440, S3 min(N,31)*1440, S4 N*1440); an unpaid
take only costs, and so does everything after it, so the search drops takes finishing after H
(exact). A take's action must start before the run's horizon N*1440 (the loop's condition).

Not in A/B: a reposition that stops short of the pickup followed by a direct take. It can commit
to cargo that expires before a B arrival while arriving earlier than A, so a policy (an agent
heading for a hotspot) can, for short-listed cargo, beat the A/B optimum. `approach_commit=True`
adds option C for it: with c < t + m and max(t, c) <= r, commit at max(t, c) and arrive at t + m
(the drive split at the commit minute), km as one pickup drive, K8 not charged. C is a relaxation
by at most the split's rounding (one minute of ceil, 0.01 km); with it the optimum bounds every
policy. Splitting a drive otherwise never helps (triangle inequality, ceil subadditivity).

Search. Labels (minute, net, parent) live on positions (drop points; cargo sharing a drop point
share a node) and are settled in minute order from a heap (a successor never finishes before its
predecessor). A label L is dominated by a settled label S at the same position iff
S.net >= L.net (S.minute <= L.minute holds by the settle order) and every cargo S's chain could
still block (taken, remove >= L.minute) is also in L's chain. Proof of exactness: any suffix
feasible after L uses commit minutes >= L.minute, so only cargo with remove >= L.minute, none in
L's chain; by monotonicity the same suffix from S finishes no later, and the condition keeps it
repeat-free. The same test, for settled labels without blocking members, filters successors
(vectorised) before they are pushed or capped. Chains never take a cargo twice: a successor j
is excluded iff j is in the chain and remove_j >= the label's minute (older chain members cannot
be committed again anyway).

Candidate successors of a label at minute t are the cargo online at t (an index by hour) and
those listed in (t, t + max_idle_minutes] (up to H when max_idle_minutes is None: exact).
Heuristic caps, all None (exact) by default: `max_idle_minutes` (a successor listed that much
after t is not considered), `max_pickup_km` (pickup distance), `max_successors` (keep the K
successors with the best net per elapsed minute; they are sought first among the best by an
optimistic score, which picks the same K). With caps the result is a feasible plan's income (a
lower bound of the optimum) and no longer a guaranteed upper bound of every policy;
`HindsightResult.exact` / `.bound` say which.

Budget. At 16,000 cargo a day the exact search outgrows any memory within a few labels. A
`SearchBudget` (CPU seconds, resident memory) stops it and returns the best chain settled so
far, a feasible plan. `bounded_hindsight_for_run` is what the bench runs: exact where it fits,
else a ladder of caps within the time left, with `relaxed_upper_bound` (a knapsack over the
paid horizon that ignores drives between takes) above the optimum. docs/benchmarks-hindsight.md
has the figures.

Preferences (the parser's structured form, with optional start_time/end_time
validity). Per-take kinds are exact edge penalties when their count penalty is uncapped under the
scoring version: K5 forbidden_cargo_category, K6 forbidden_cargo_place, K7 max_haul_km (static per
cargo) and K8 max_pickup_deadhead_km (option A only: after a reposition the pickup distance is 0).
The penalty A applies iff the take's action interval overlaps the rule's validity window. A cap of
0 where it means "nothing charged" drops the rule (exact). A finite cap makes the penalty
non-additive: the rule is ignored and reported as relaxed. Every other kind (K19 must_take_cargo
included) is ignored and reported in `relaxed_kinds`: the optimum then overstates what is
achievable with preferences, i.e. it stays an upper bound.
"""

from __future__ import annotations

import heapq
import math
import os
import time
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from sim.geo import haversine_from_np, haversine_km
from sim.official.timebase import DAY, drive_minutes, drive_minutes_np, wall_to_minutes
from sim.official.versions import ScoringVersion as Version
from sim.official.versions import settings_for

NO_START = -(10**12)  # window start of cargo without a loading window
NO_END = 10**12  # window end of cargo without a loading window
PICKUP_SNAP_KM = 1e-6


class Reach(StrEnum):
    """How a take is reached from the previous drop point (see the module docstring)."""

    DIRECT = "direct"  # A
    REPOSITION = "reposition"  # B
    APPROACH = "approach"  # C, only with approach_commit=True


def pay_horizon(days: int, version: Version | str) -> int:
    """H in minutes: the last end minute of a paid take (§6), per the scorer's version table."""
    return settings_for(version).horizon_days(days) * DAY


@dataclass(frozen=True)
class HindsightCargo:
    """The cargo stream as parallel arrays sorted by create minute; unusable rows are dropped.

    Unusable: a window the simulator rejects (malformed or end < start), a bad cost time, or
    remove < create (the simulator clamps it but the scorer's online check then fails).
    """

    ids: np.ndarray  # object (str)
    create: np.ndarray  # int64 minutes
    remove: np.ndarray
    win_start: np.ndarray  # NO_START when no window
    win_end: np.ndarray  # NO_END when no window
    cost_time: np.ndarray  # int64 minutes
    price: np.ndarray  # yuan
    slat: np.ndarray
    slng: np.ndarray
    elat: np.ndarray
    elng: np.ndarray
    category: np.ndarray  # object (str)
    start_city: np.ndarray  # object (str)
    end_city: np.ndarray  # object (str)
    haul_km: np.ndarray = field(init=False)  # full precision (K7)
    haul_r: np.ndarray = field(init=False)  # 2-dp, what the scorer adds
    s_rad: tuple[np.ndarray, np.ndarray, np.ndarray] = field(init=False)  # lat, lng, cos lat

    def __post_init__(self) -> None:
        haul = np.array([haversine_km(a, b, c, d) for a, b, c, d in
                         zip(self.slat, self.slng, self.elat, self.elng, strict=True)])
        object.__setattr__(self, "haul_km", haul)
        object.__setattr__(self, "haul_r", np.array([round(float(h), 2) for h in haul]))
        p = np.radians(self.slat)
        object.__setattr__(self, "s_rad", (p, np.radians(self.slng), np.cos(p)))

    def __len__(self) -> int:
        return len(self.ids)

    def online_index(self) -> tuple[np.ndarray, np.ndarray]:
        """`_online_index` of this table, computed once (every driver and rung uses it)."""
        if "_online" not in self.__dict__:
            object.__setattr__(self, "_online", _online_index(self.create, self.remove))
        return self.__dict__["_online"]

    def end_nodes(self, lat: float, lng: float) -> tuple[np.ndarray, int]:
        """Per cargo, the id of its drop point (equal coordinates, equal id), and the number of
        ids; id 0 is the point (lat, lng), a driver's start. The unique points are computed once
        per table (a month has 500,000 rows and every driver needs them)."""
        if "_ends" not in self.__dict__:
            pts = np.stack([self.elat, self.elng], axis=1) if len(self) else np.zeros((0, 2))
            uniq, inv = np.unique(pts, axis=0, return_inverse=True)
            object.__setattr__(self, "_ends", (uniq, inv.reshape(-1).astype(np.int64) + 1))
        uniq, nodes = self.__dict__["_ends"]
        at = np.flatnonzero((uniq[:, 0] == lat) & (uniq[:, 1] == lng))
        if len(at):
            nodes = np.where(nodes == at[0] + 1, 0, nodes)
        return nodes, len(uniq) + 1

    @classmethod
    def from_arrays(cls, **cols: Any) -> HindsightCargo:
        """Build from already-converted columns (the benchmark's synthetic stream); sorts them."""
        n = len(cols["create"])
        cols.setdefault("category", np.full(n, "", dtype=object))
        cols.setdefault("start_city", np.full(n, "", dtype=object))
        cols.setdefault("end_city", np.full(n, "", dtype=object))
        order = np.argsort(np.asarray(cols["create"]), kind="stable")
        ints = ("create", "remove", "win_start", "win_end", "cost_time")
        out = {k: np.asarray(v)[order] for k, v in cols.items()}
        for k in ints:
            out[k] = out[k].astype(np.int64)
        for k in ("price", "slat", "slng", "elat", "elng"):
            out[k] = out[k].astype(float)
        return cls(**out)

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, Any]]) -> HindsightCargo:
        """Official cargo records (§2.2). A later duplicate id replaces the earlier one (scorer).

        Columns are typed arrays and repeated strings are shared, so a month of 500,000 rows
        costs tens of MB rather than a Python tuple per row (the bench reads a whole month).
        """
        nums = [array("q") for _ in range(5)] + [array("d") for _ in range(5)]
        texts: list[list[str]] = [[], [], []]
        ids: list[str] = []
        row_of: dict[str, int] = {}
        dropped: set[int] = set()
        shared: dict[str, str] = {}
        for rec in records:
            cid = str(rec.get("cargo_id", "")).strip()
            if not cid:
                continue
            row = _convert(rec)
            at = row_of.get(cid)
            if row is None:
                if at is not None:
                    dropped.add(at)
                    del row_of[cid]
                continue
            if at is not None:  # replaced in place: the row keeps its first position
                for col, v in zip(nums, row[:10], strict=True):
                    col[at] = v
                for tcol, v in zip(texts, row[10:], strict=True):
                    tcol[at] = shared.setdefault(v, v)
                continue
            row_of[cid] = len(ids)
            ids.append(cid)
            for col, v in zip(nums, row[:10], strict=True):
                col.append(v)
            for tcol, v in zip(texts, row[10:], strict=True):
                tcol.append(shared.setdefault(v, v))
        keep = np.ones(len(ids), dtype=bool)
        keep[list(dropped)] = False
        names = ("create", "remove", "win_start", "win_end", "cost_time", "price", "slat",
                 "slng", "elat", "elng")
        cols: dict[str, np.ndarray] = {k: np.frombuffer(v, dtype=np.int64 if i < 5 else float)
                                       [keep] if len(v) else np.array([], dtype=float)
                                       for i, (k, v) in enumerate(zip(names, nums, strict=True))}
        for k, v in zip(("category", "start_city", "end_city"), texts, strict=True):
            cols[k] = np.array(v, dtype=object)[keep] if v else np.array([], dtype=object)
        cols["ids"] = np.array(ids, dtype=object)[keep] if ids else np.array([], dtype=object)
        return cls.from_arrays(**cols)


def _convert(rec: Mapping[str, Any]) -> tuple | None:
    """One record to its columns, or None when no take of it can be accepted and scored."""
    try:
        create = wall_to_minutes(str(rec["create_time"]))
        remove = wall_to_minutes(str(rec["remove_time"]))
        slat, slng = float(rec["start"]["lat"]), float(rec["start"]["lng"])
        elat, elng = float(rec["end"]["lat"]), float(rec["end"]["lng"])
    except (KeyError, TypeError, ValueError):
        return None
    if remove < create:
        return None
    lt = rec.get("load_time")
    if lt is None:
        ws, we = NO_START, NO_END
    else:
        if not isinstance(lt, list) or len(lt) != 2 or not all(lt):
            return None
        try:
            ws, we = wall_to_minutes(str(lt[0])), wall_to_minutes(str(lt[1]))
        except (TypeError, ValueError):
            return None
        if we < ws:
            return None
    ct = rec.get("cost_time_minutes")
    if isinstance(ct, bool) or ct is None:
        return None
    if isinstance(ct, float):
        ct = int(ct)
    elif isinstance(ct, str):
        try:
            ct = int(ct.strip())
        except ValueError:
            return None
    if not isinstance(ct, int) or ct < 0:
        return None
    price = float(rec.get("price", 0) or 0) / 100.0
    start, end = rec["start"], rec["end"]
    return (create, remove, ws, we, ct, price, slat, slng, elat, elng,
            str(rec.get("cargo_name", "")).strip(), str(start.get("city", "")),
            str(end.get("city", "")))


# ---------------------------------------------------------------------------------------------
# preferences


EXACT_KINDS = ("forbidden_cargo_category", "forbidden_cargo_place", "max_haul_km",
               "max_pickup_deadhead_km")


@dataclass(frozen=True)
class TakeRule:
    """An exact per-take penalty: `amount` per accepted take matching the rule inside `window`."""

    kind: str
    amount: float
    mask: np.ndarray | None  # per cargo (K5-K7); None for K8
    max_pickup_km: float | None  # K8 only
    window: tuple[int, int] | None  # [w0, w1) in minutes


def _effective_cap(kind: str, cap: float | None, version: Version) -> float | None:
    """The cap that applies to a per-take count penalty (§7.1); None = uncapped."""
    if version is Version.S4 or (version is Version.S3 and kind == "forbidden_cargo_category"):
        return None
    if cap is None:
        return None
    if version is Version.S2 and cap == 0:
        return None
    return float(cap)


def _window(pref: Mapping[str, Any]) -> tuple[int, int] | None:
    s, e = pref.get("start_time"), pref.get("end_time")
    if s is None and e is None:
        return None
    w0 = wall_to_minutes(str(s)) if s is not None else 0
    w1 = wall_to_minutes(str(e)) + 1 if e is not None else 31 * DAY
    return w0, w1


def take_rules(prefs: Sequence[Mapping[str, Any]], table: HindsightCargo,
               version: Version | str) -> tuple[list[TakeRule], list[str]]:
    """Split structured preferences into exact per-take rules and relaxed kinds (sorted)."""
    v = Version(version)
    rules: list[TakeRule] = []
    relaxed: set[str] = set()
    for pref in prefs:
        kind = str(pref.get("kind", "unparsed"))
        params = pref.get("params") or {}
        amount = float(pref.get("penalty_amount") or 0.0)
        if kind not in EXACT_KINDS:
            relaxed.add(kind)  # ignored: the optimum overstates what is achievable
            continue
        cap = _effective_cap(kind, pref.get("penalty_cap"), v)
        if amount <= 0 or cap == 0:
            continue  # charges nothing: exact to ignore
        if cap is not None:
            relaxed.add(kind)  # min(n*A, C) is not additive over takes
            continue
        mask: np.ndarray | None = None
        pick: float | None = None
        if kind == "forbidden_cargo_category":
            cats = {str(x).strip() for x in params.get("categories", [])}
            mask = np.array([c in cats for c in table.category], dtype=bool)
        elif kind == "forbidden_cargo_place":
            place = str(params["place"])
            mask = np.array([place in a or place in b for a, b in
                             zip(table.start_city, table.end_city, strict=True)], dtype=bool)
        elif kind == "max_haul_km":
            mask = table.haul_km > float(params["max_km"])
        else:
            pick = float(params["max_km"])
        rules.append(TakeRule(kind, amount, mask, pick, _window(pref)))
    return rules, sorted(relaxed)


# ---------------------------------------------------------------------------------------------
# result


@dataclass(frozen=True, slots=True)
class PlannedTake:
    """One take of the optimal chain; `reposition_start` is set when it is reached by option B."""

    cargo_id: str
    action_start: int  # the take_order's start minute
    finish: int
    reposition_start: int | None
    gross: float
    km: float
    penalty: float
    reach: Reach


class Bound(StrEnum):
    """What a hindsight figure is, for a reader of the bench: the optimum itself, a feasible
    plan's income (at most the optimum), or a relaxation's value (at least the optimum)."""

    EXACT = "exact optimum"
    CAPPED = "capped lower bound"
    RELAXED_UPPER = "relaxed upper bound"


@dataclass(frozen=True, slots=True)
class HindsightResult:
    net: float
    gross: float
    cost: float
    penalty: float
    orders: tuple[PlannedTake, ...]
    relaxed_kinds: tuple[str, ...]
    exact: bool  # no heuristic cap was set and the search ran to its end
    approach_commit: bool  # option C was allowed (the bound then covers partial repositions)
    labels_settled: int
    stopped: str | None = None  # why the search stopped early ("time", "memory"), else None
    stopped_at_minute: int | None = None  # the settle minute reached when it stopped
    caps: tuple[tuple[str, float], ...] = ()  # the heuristic caps that were set
    solve_s: float = 0.0  # CPU seconds

    @property
    def bound(self) -> Bound:
        """EXACT only for a complete uncapped search; any other chain is a feasible plan."""
        return Bound.EXACT if self.exact else Bound.CAPPED


def hindsight_share(realised_net: float, result: HindsightResult) -> float:
    """realised / optimum; NaN when the optimum is not positive (nothing to share)."""
    return realised_net / result.net if result.net > 1e-9 else math.nan


# ---------------------------------------------------------------------------------------------
# budget


def current_rss_bytes() -> int | None:
    """This process's resident set now (Linux /proc), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class SearchBudget:
    """When a search must stop: a deadline in this process's CPU seconds (time.process_time)
    and a ceiling on its resident memory. CPU time, not wall time: on a shared machine the
    same limit then buys the same search, so the bench's bound does not depend on the load.
    Why a budget: the exact search has no size bound of its own; at
    16,000 cargo a day one label can spawn 10^5 successors and a month exhausts any memory."""

    deadline: float | None = None
    max_rss_bytes: int | None = None
    max_labels: int | None = None  # where RSS cannot be read, or as an extra guard

    def exceeded(self, labels: int) -> str | None:
        if self.deadline is not None and time.process_time() > self.deadline:
            return "time"
        if self.max_labels is not None and labels > self.max_labels:
            return "memory"
        if self.max_rss_bytes is not None:
            rss = current_rss_bytes()
            if rss is not None and rss > self.max_rss_bytes:
                return "memory"
        return None


BUDGET_CHECK_POPS = 256  # settle steps between two budget checks
BUDGET_CHECK_LABELS = 50_000  # and at least every this many new labels
PREFILTER_MIN = 64  # with max_successors K, the successors are first sought among the
PREFILTER_FACTOR = 8  # max(PREFILTER_MIN, PREFILTER_FACTOR * K) best by an optimistic score


# ---------------------------------------------------------------------------------------------
# solver


@dataclass
class _Labels:
    t: list[int] = field(default_factory=list)
    net: list[float] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    cargo: list[int] = field(default_factory=list)
    commit: list[int] = field(default_factory=list)
    reach: list[Reach] = field(default_factory=list)
    node: list[int] = field(default_factory=list)
    recent: list[tuple[int, ...]] = field(default_factory=list)

    def add(self, t: int, net: float, parent: int, cargo: int, commit: int, reach: Reach,
            node: int, recent: tuple[int, ...]) -> int:
        self.t.append(t)
        self.net.append(net)
        self.parent.append(parent)
        self.cargo.append(cargo)
        self.commit.append(commit)
        self.reach.append(reach)
        self.node.append(node)
        self.recent.append(recent)
        return len(self.t) - 1


_REACH = (Reach.DIRECT, Reach.REPOSITION, Reach.APPROACH)


def _penalties(rules: Sequence[TakeRule], j: np.ndarray, commit: np.ndarray, fin: np.ndarray,
               d: np.ndarray | None) -> np.ndarray:
    pen = np.zeros(len(j))
    for rule in rules:
        hit = rule.mask[j] if rule.mask is not None else (
            d > rule.max_pickup_km if d is not None else np.zeros(len(j), dtype=bool))
        if rule.window is not None:
            w0, w1 = rule.window
            hit = hit & (np.maximum(commit, w0) < np.minimum(fin, w1))
        pen += np.where(hit, rule.amount, 0.0)
    return pen


ONLINE_BUCKET = 60  # minutes per bucket of the online index


def _online_index(c: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per bucket of ONLINE_BUCKET minutes, the cargo (ascending) listed by its end and not
    removed before its start. Why: the cargo online at minute t are a few thousand of a month's
    half million; scanning [t - longest online period, t] costs ten times more."""
    if not len(c):
        return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    b0, b1 = c // ONLINE_BUCKET, r // ONLINE_BUCKET
    counts = b1 - b0 + 1
    j = np.repeat(np.arange(len(c), dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    bucket = np.repeat(b0, counts) + (np.arange(len(j)) - np.repeat(first, counts))
    order = np.lexsort((j, bucket))
    j, bucket = j[order], bucket[order]
    ptr = np.searchsorted(bucket, np.arange(int(b1.max()) + 2), "left")
    return ptr, j


def solve(table: HindsightCargo, *, start_lat: float, start_lng: float, days: int, speed: float,
          cost_per_km: float, version: Version | str = Version.S3,
          preferences: Sequence[Mapping[str, Any]] = (),
          max_idle_minutes: int | None = None, max_pickup_km: float | None = None,
          max_successors: int | None = None, approach_commit: bool = False,
          budget: SearchBudget | None = None) -> HindsightResult:
    """The best chain of takes for one driver starting at minute 0 (see the module docstring).

    With a `budget`, the search stops when it runs out and returns the best chain settled so
    far (labels settle in minute order, so it is a feasible plan over the minutes reached):
    `stopped` says why, and the result is then no longer exact.
    """
    t_start = time.process_time()
    rules, relaxed = take_rules(preferences, table, version)
    h_pay, h_sim = pay_horizon(days, version), days * DAY
    c, r, ws, we, ct = table.create, table.remove, table.win_start, table.win_end, table.cost_time
    ptr, online = table.online_index()
    value = table.price - cost_per_km * table.haul_r  # a take's net before pickup and fines
    # positions: drop points of equal coordinates share a node; node 0 is the start
    end_node, n_nodes = table.end_nodes(start_lat, start_lng)
    labels = _Labels()
    labels.add(0, 0.0, -1, -1, 0, Reach.DIRECT, 0, ())
    heap: list[tuple[int, float, int]] = [(0, -0.0, 0)]
    settled: dict[int, list[int]] = {}
    best_at: dict[int, float] = {}
    # best net of a settled label with no chain member that could still block: a candidate at
    # most that good is dominated whatever its minute (the settled label is no later)
    best_free = np.full(n_nodes, -np.inf)
    best, n_settled = 0, 0
    remove_l = r.tolist()
    s_lat, s_lng, s_cos = table.s_rad

    def dominated(lid: int) -> bool:
        node, net, t, rec = labels.node[lid], labels.net[lid], labels.t[lid], labels.recent[lid]
        if best_at.get(node, -math.inf) < net:
            return False
        for s in settled.get(node, ()):
            if labels.net[s] >= net and all(remove_l[k] < t or k in rec
                                            for k in labels.recent[s]):
                return True
        return False

    def pickup_km(j: np.ndarray, qa: float, qb: float) -> tuple[np.ndarray, np.ndarray]:
        d = haversine_from_np(qa, qb, s_lat[j], s_lng[j], s_cos[j])
        if max_pickup_km is not None:
            keep = d <= max_pickup_km
            j, d = j[keep], d[keep]
        return j, d

    def expand(j: np.ndarray, d: np.ndarray, t: int, net: float) -> tuple[np.ndarray, ...]:
        """Feasible, undominated successors among cargo `j` (pickup km `d`) of a label at
        minute t: cargo, finish, commit minute, net of the take, how it is reached (0 A, 1 B,
        2 C)."""
        m = drive_minutes_np(d, speed)
        snap = d <= PICKUP_SNAP_KM
        cj, rj, wsj, wej, ctj = c[j], r[j], ws[j], we[j], ct[j]
        # option A: direct take
        a_com = np.maximum(t, cj)
        a_arr = a_com + np.where(snap, 0, m)
        a_fin = np.maximum(a_arr, wsj) + ctj
        a_ok = (a_com <= rj) & (a_arr <= wej) & (a_fin <= h_pay) & (a_com < h_sim)
        a_reach = np.full(len(j), 0)
        # option B: reposition to the pickup, then take with zero pickup minutes
        b_com = np.maximum(t + m, cj)
        b_fin = np.maximum(b_com, wsj) + ctj
        b_ok = ~snap & (b_com <= rj) & (b_com <= wej) & (b_fin <= h_pay) & (b_com < h_sim)
        base = table.price[j] - cost_per_km * (np.round(d, 2) + table.haul_r[j])
        a_net = base - _penalties(rules, j, a_com, a_fin, d)
        if approach_commit:
            # C: drive toward the pickup, commit once listed, arrive at t + m; it never finishes
            # later than A and is never fined more (K8 not charged), so it replaces A
            c_com = np.maximum(t, cj)
            c_fin = np.maximum(t + m, wsj) + ctj
            c_ok = (~snap & (cj < t + m) & (c_com <= rj) & (t + m <= wej) & (c_fin <= h_pay)
                    & (c_com < h_sim))
            c_net = base - _penalties(rules, j, c_com, c_fin, None)
            a_com, a_fin = np.where(c_ok, c_com, a_com), np.where(c_ok, c_fin, a_fin)
            a_net, a_reach = np.where(c_ok, c_net, a_net), np.where(c_ok, 2, a_reach)
            a_ok |= c_ok
        b_net = base - _penalties(rules, j, b_com, b_fin, None)
        b_ok &= ~(a_ok & (a_fin <= b_fin) & (a_net >= b_net))
        a_ok &= ~(b_ok & (b_fin <= a_fin) & (b_net >= a_net))
        cand_j = np.concatenate([j[a_ok], j[b_ok]])
        cand_fin = np.concatenate([a_fin[a_ok], b_fin[b_ok]])
        cand_com = np.concatenate([a_com[a_ok], b_com[b_ok]])
        cand_net = np.concatenate([a_net[a_ok], b_net[b_ok]])
        cand_b = np.concatenate([a_reach[a_ok], np.ones(b_ok.sum(), int)])
        live = net + cand_net > best_free[end_node[cand_j]]
        if not live.all():
            cand_j, cand_fin, cand_com = cand_j[live], cand_fin[live], cand_com[live]
            cand_net, cand_b = cand_net[live], cand_b[live]
        return cand_j, cand_fin, cand_com, cand_net, cand_b

    stopped: str | None = None
    stopped_at: int | None = None
    pops, next_check = 0, BUDGET_CHECK_LABELS
    while heap:
        if budget is not None:
            pops += 1
            if pops % BUDGET_CHECK_POPS == 1 or len(labels.t) >= next_check:
                next_check = len(labels.t) + BUDGET_CHECK_LABELS
                stopped = budget.exceeded(len(labels.t))
                if stopped is not None:
                    stopped_at = heap[0][0]
                    break
        t, _, lid = heapq.heappop(heap)
        if dominated(lid):
            continue
        node, net = labels.node[lid], labels.net[lid]
        rec = labels.recent[lid]
        lst = settled.setdefault(node, [])
        if not rec:
            lst[:] = [s for s in lst if labels.net[s] > net]
            best_free[node] = max(best_free[node], net)
        lst.append(lid)
        best_at[node] = max(best_at.get(node, -math.inf), net)
        n_settled += 1
        if net > labels.net[best]:
            best = lid
        if t >= h_sim:
            continue
        # candidates: listed by t and still online at t (the index), then listed in (t, top]
        top = h_pay if max_idle_minutes is None else min(h_pay, t + max_idle_minutes)
        mid = int(np.searchsorted(c, t, "right"))
        hi = int(np.searchsorted(c, top, "right"))
        b = t // ONLINE_BUCKET
        now = online[ptr[b]:ptr[b + 1]] if b + 1 < len(ptr) else online[:0]
        now = now[(c[now] <= t) & (r[now] >= t)]
        j = np.concatenate([now, np.arange(mid, max(mid, hi), dtype=np.int64)])
        if rec:
            j = j[~np.isin(j, rec)]
        if not len(j):
            continue
        if labels.cargo[lid] >= 0:
            qa, qb = table.elat[labels.cargo[lid]], table.elng[labels.cargo[lid]]
        else:
            qa, qb = start_lat, start_lng
        j, d = pickup_km(j, qa, qb)
        m_pre = max(PREFILTER_MIN, PREFILTER_FACTOR * (max_successors or 0))
        if max_successors is None or len(j) <= m_pre:
            cand = expand(j, d, t, net)
        else:
            # the K best by net per minute: first among the M best by an optimistic score
            # (no fines; finish >= max(t + pickup minutes, listed, window start) + cost time);
            # the rest only when the K-th found might still be beaten by one of them
            mins = np.where(d <= PICKUP_SNAP_KM, 0, drive_minutes_np(d, speed))
            finish = np.maximum(np.maximum(c[j], ws[j]), t + mins) + ct[j]
            opt = (value[j] - cost_per_km * np.round(d, 2)) / np.maximum(1, finish - t)
            part = np.argpartition(-opt, m_pre - 1)
            first = np.sort(part[:m_pre])
            cand = expand(j[first], d[first], t, net)
            score = cand[3] / np.maximum(1, cand[1] - t)
            kth = (-np.partition(-score, max_successors - 1)[max_successors - 1]
                   if len(score) >= max_successors else -np.inf)
            if not (kth > 0 and kth >= opt[part[m_pre - 1]]):
                cand = expand(j, d, t, net)
        cand_j, cand_fin, cand_com, cand_net, cand_b = cand
        if not len(cand_j):
            continue
        if max_successors is not None and len(cand_j) > max_successors:
            score = cand_net / np.maximum(1, cand_fin - t)
            keep = np.argpartition(-score, max_successors - 1)[:max_successors]
            cand_j, cand_fin, cand_com = cand_j[keep], cand_fin[keep], cand_com[keep]
            cand_net, cand_b = cand_net[keep], cand_b[keep]
        new_net = net + cand_net
        nodes = end_node[cand_j]
        for k in range(len(cand_j)):
            if budget is not None and len(labels.t) >= next_check:
                next_check = len(labels.t) + BUDGET_CHECK_LABELS
                stopped = budget.exceeded(len(labels.t))
                if stopped is not None:
                    stopped_at = t
                    break
            nd, nn = int(nodes[k]), float(new_net[k])
            jj, ff = int(cand_j[k]), int(cand_fin[k])
            nrec = tuple(x for x in rec if remove_l[x] >= ff)
            if remove_l[jj] >= ff:
                nrec += (jj,)
            nid = labels.add(ff, nn, lid, jj, int(cand_com[k]), _REACH[int(cand_b[k])], nd, nrec)
            if best_at.get(nd, -math.inf) >= nn and dominated(nid):
                continue  # settled labels are no later, so the pop-time test holds already
            heapq.heappush(heap, (ff, -nn, nid))
        if stopped is not None:
            break
    caps = tuple((k, float(v)) for k, v in (("max_idle_minutes", max_idle_minutes),
                                             ("max_pickup_km", max_pickup_km),
                                             ("max_successors", max_successors))
                 if v is not None)
    exact = not caps and stopped is None
    res = _replay(table, labels, best, start_lat, start_lng, speed, cost_per_km, rules, relaxed,
                  exact, n_settled)
    return replace(res, approach_commit=approach_commit, stopped=stopped,
                   stopped_at_minute=stopped_at, caps=caps,
                   solve_s=round(time.process_time() - t_start, 2))


def _replay(table: HindsightCargo, labels: _Labels, best: int, lat: float, lng: float,
            speed: float, cost_per_km: float, rules: Sequence[TakeRule], relaxed: list[str],
            exact: bool, n_settled: int) -> HindsightResult:
    """Rebuild the best chain and recompute it with the scalar §4 arithmetic."""
    chain: list[int] = []
    lid = best
    while lid > 0:
        chain.append(lid)
        lid = labels.parent[lid]
    chain.reverse()
    orders: list[PlannedTake] = []
    t = 0
    gross = km_total = pen_total = 0.0
    for lid in chain:
        j, reach = labels.cargo[lid], labels.reach[lid]
        d = haversine_km(lat, lng, float(table.slat[j]), float(table.slng[j]))
        m = drive_minutes(d, speed)
        c, ws, ct = int(table.create[j]), int(table.win_start[j]), int(table.cost_time[j])
        if reach is Reach.REPOSITION:
            com = max(t + m, c)
            arr = com
        elif reach is Reach.APPROACH:
            com, arr = max(t, c), t + m
        else:
            com = max(t, c)
            arr = com + (0 if d <= PICKUP_SNAP_KM else m)
        fin = max(arr, ws) + ct
        km = round(d, 2) + round(float(table.haul_km[j]), 2)
        dd = np.array([d]) if reach is Reach.DIRECT else None
        pen = float(_penalties(rules, np.array([j]), np.array([com]), np.array([fin]), dd)[0])
        price = float(table.price[j])
        orders.append(PlannedTake(str(table.ids[j]), com, fin,
                                  None if reach is Reach.DIRECT else t, price, km, pen, reach))
        gross += price
        km_total += km
        pen_total += pen
        t, lat, lng = fin, float(table.elat[j]), float(table.elng[j])
    cost = km_total * cost_per_km
    return HindsightResult(gross - cost - pen_total, gross, cost, pen_total, tuple(orders),
                           tuple(relaxed), exact, False, n_settled)


def driver_preferences(drv: Mapping[str, Any],
                       parse_preference: Callable[[Mapping[str, Any]], Mapping[str, Any] | None]
                       | None) -> list[Mapping[str, Any]]:
    """A §2.3 driver's preferences in structured form: an entry with a `kind` key as is, else
    through `parse_preference` (text -> structured or None), an unparsed one as "unparsed"."""
    prefs: list[Mapping[str, Any]] = []
    for p in drv.get("preferences") or []:
        parsed = p if isinstance(p, Mapping) and "kind" in p else (
            parse_preference(p) if parse_preference is not None else None)
        if parsed is None:
            parsed = {"kind": "unparsed"}
        elif isinstance(p, Mapping) and "kind" not in p:
            parsed = {**parsed, "start_time": p.get("start_time"),
                      "end_time": p.get("end_time")}
        prefs.append(parsed)
    return prefs


def _table(cargo: HindsightCargo | Iterable[Mapping[str, Any]]) -> HindsightCargo:
    return cargo if isinstance(cargo, HindsightCargo) else HindsightCargo.from_records(cargo)


def hindsight_for_run(cargo_records: HindsightCargo | Iterable[Mapping[str, Any]],
                      drivers: Sequence[Mapping[str, Any]], days: int, version: Version | str,
                      speed: float, *,
                      parse_preference: Callable[[Mapping[str, Any]], Mapping[str, Any] | None]
                      | None = None, **caps: Any) -> dict[str, HindsightResult]:
    """Per-driver optimum for a competition run: drivers are §2.3 records (independent pools).

    A preference entry already in structured form (a `kind` key) is used as is; otherwise
    `parse_preference` (text -> structured form or None) is tried, and an unparsed entry is
    reported as the relaxed kind "unparsed". No budget: see `bounded_hindsight_for_run`.
    """
    table = _table(cargo_records)
    return {str(drv["driver_id"]): solve(
        table, start_lat=float(drv["current_lat"]), start_lng=float(drv["current_lng"]),
        days=days, speed=speed, cost_per_km=float(drv.get("cost_per_km", 0.0)),
        version=version, preferences=driver_preferences(drv, parse_preference), **caps)
        for drv in drivers}


# ---------------------------------------------------------------------------------------------
# bounded: what the bench runs


def relaxed_upper_bound(table: HindsightCargo, *, days: int, version: Version | str,
                        cost_per_km: float) -> float:
    """An upper bound of every policy's net (and of the optimum under every preference kind).

    Relaxation: a take holds the truck from its commit to its finish, at least its cost time,
    and takes do not overlap inside the paid horizon H; its net is at most price minus the
    haul's km cost (pickup km and fines are >= 0). The best fractional choice under "total
    cost time <= H" (a knapsack, solved greedily by net per minute) bounds every chain. It
    ignores the drives between takes, so it is loose (see docs/benchmarks-hindsight.md).
    """
    h_pay, h_sim = pay_horizon(days, version), days * DAY
    c, ws, we, ct = table.create, table.win_start, table.win_end, table.cost_time
    val = table.price - cost_per_km * table.haul_r
    ok = (c < h_sim) & (np.maximum(c, ws) + ct <= h_pay) & (c <= we) & (val > 0)
    v, w = val[ok], ct[ok]
    total = float(v[w <= 0].sum())
    v, w = v[w > 0], w[w > 0]
    order = np.argsort(-(v / w), kind="stable")
    v, w = v[order], w[order]
    used = np.cumsum(w)
    k = int(np.searchsorted(used, h_pay, "right"))
    total += float(v[:k].sum())
    if k < len(v):
        room = h_pay - (float(used[k - 1]) if k else 0.0)
        total += float(v[k]) * room / float(w[k])
    return total


@dataclass(frozen=True)
class Caps:
    """The heuristic caps of a capped search (see the module docstring); None = no cap."""

    max_idle_minutes: int | None = 180
    max_pickup_km: float | None = 120.0
    max_successors: int | None = 16

    def kwargs(self) -> dict[str, Any]:
        return {"max_idle_minutes": self.max_idle_minutes, "max_pickup_km": self.max_pickup_km,
                "max_successors": self.max_successors}


# Looser and looser caps: each rung costs about 2-4x the one before and finds at least as good
# a plan in practice (docs/benchmarks-hindsight.md); the first one always fits a month.
CAP_LADDER = (Caps(180, 120.0, 4), Caps(180, 120.0, 8), Caps(180, 120.0, 16))
RUNG_GROWTH = 4.0  # a rung is skipped when the last one's time times this exceeds the share


@dataclass(frozen=True)
class HindsightLimits:
    """The envelope of the bench's optimum for a whole run (all drivers together).

    `time_s` (CPU seconds of this process) is shared out evenly over the drivers (and rungs)
    left; of a driver's share, `exact_share` goes to the exact search. `max_rss_bytes` caps
    the process's resident memory during every search.
    """

    time_s: float = 300.0
    max_rss_bytes: int | None = 3 * 2**30
    ladder: tuple[Caps, ...] = CAP_LADDER
    exact_share: float = 0.25


@dataclass(frozen=True, slots=True)
class DriverBound:
    """One driver's hindsight figures: the plan (`result`: the exact optimum or a capped lower
    bound), the relaxed upper bound, and why the exact search was not used (None if it was)."""

    result: HindsightResult
    upper: float
    exact_stop: str | None

    @property
    def bound(self) -> Bound:
        return self.result.bound


def bounded_hindsight_for_run(cargo: HindsightCargo | Iterable[Mapping[str, Any]],
                              drivers: Sequence[Mapping[str, Any]], days: int,
                              version: Version | str, speed: float, *,
                              parse_preference: Callable[[Mapping[str, Any]],
                                                         Mapping[str, Any] | None]
                              | None = None, limits: HindsightLimits = HindsightLimits(),
                              approach_commit: bool = True) -> dict[str, DriverBound]:
    """Each driver's optimum within `limits`: exact where it fits, else the best capped plan.

    First pass, per driver: the exact search under a share of the time and the memory ceiling;
    where it stops, the first rung of the cap ladder (a feasible plan: a lower bound of the
    optimum). Once one driver's exact search has not fitted, the others skip it: they share
    the cargo stream whose density decides the search's size. Later passes climb the ladder
    for the capped drivers while the time lasts, keeping each driver's best plan.
    """
    table = _table(cargo)
    deadline = time.process_time() + limits.time_s
    kws: list[dict[str, Any]] = [{
        "start_lat": float(drv["current_lat"]), "start_lng": float(drv["current_lng"]),
        "days": days, "speed": speed, "cost_per_km": float(drv.get("cost_per_km", 0.0)),
        "version": version, "preferences": driver_preferences(drv, parse_preference),
        "approach_commit": approach_commit} for drv in drivers]
    plans: list[HindsightResult | None] = [None] * len(drivers)
    stops: list[str | None] = [None] * len(drivers)
    ladder = limits.ladder

    def left_per(k: int) -> float:
        return max(0.0, deadline - time.process_time()) / max(k, 1)

    def budget(share: float) -> SearchBudget:
        return SearchBudget(time.process_time() + share, limits.max_rss_bytes)

    exact_fits = True
    for i, kw in enumerate(kws):
        # the first rung is owed to every driver still to come: keep ladder-length shares
        share = left_per((len(kws) - i) * max(len(ladder), 1))
        if exact_fits:
            plans[i] = solve(table, **kw, budget=budget(share * len(ladder)
                                                        * limits.exact_share))
            stops[i] = plans[i].stopped
            exact_fits = stops[i] is None
        else:
            stops[i] = "skipped: an earlier driver's exact search did not fit"
        if not exact_fits and ladder:
            res = solve(table, **kw, **ladder[0].kwargs(), budget=budget(left_per(len(kws) - i)))
            if plans[i] is None or res.net >= plans[i].net:
                plans[i] = res
    climbing = {i for i, p in enumerate(plans) if p is not None and not p.exact
                and p.stopped is None}
    for rung in ladder[1:]:
        todo = sorted(climbing)
        for n, i in enumerate(todo):
            share, last = left_per(len(todo) - n), plans[i]
            assert last is not None
            if last.solve_s * RUNG_GROWTH > share:
                climbing.discard(i)  # it would not finish: keep the plan it has
                continue
            res = solve(table, **kws[i], **rung.kwargs(), budget=budget(share))
            if res.stopped is not None:
                climbing.discard(i)
            elif res.net >= last.net:
                plans[i] = res
    out: dict[str, DriverBound] = {}
    for drv, kw, plan, stop in zip(drivers, kws, plans, stops, strict=True):
        upper = relaxed_upper_bound(table, days=days, version=version,
                                    cost_per_km=kw["cost_per_km"])
        assert plan is not None
        out[str(drv["driver_id"])] = DriverBound(plan, upper, stop)
    return out
