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

Candidate successors of a label at minute t are cargo with remove >= t (exact) and create within
[t - Dmax, t + max_idle_minutes] where Dmax is the longest online period (the lower bound is exact;
the upper bound is exact when max_idle_minutes is None, i.e. up to H). Heuristic caps, all None
(exact) by default: `max_idle_minutes` (a successor listed that much after t is not considered),
`max_pickup_km` (pickup distance), `max_successors` (keep the K successors with the best net per
elapsed minute). With caps the result is a feasible plan's income (a lower bound of the optimum)
and no longer a guaranteed upper bound of every policy; `HindsightResult.exact` says which.

Preferences (structured form of docs/competition.md §7.5, with optional start_time/end_time
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from sim.clock import DAY
from sim.competition.clock import EARTH_RADIUS_KM as R_KM
from sim.competition.clock import drive_minutes, haversine
from sim.scoring.timebase import wall_to_minutes
from sim.scoring.versions import ScoringVersion as Version
from sim.scoring.versions import settings_for

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


def wall_minutes(text: str) -> int:
    """§2.1: floor((t - epoch) / 60 s) of a 'YYYY-MM-DD HH:MM:SS' string (the scorer's parse)."""
    return wall_to_minutes(str(text))


def _hav_np(lat1: float, lng1: float, p2: np.ndarray, l2: np.ndarray,
            cos2: np.ndarray) -> np.ndarray:
    """Vectorised haversine to points given in radians with their latitude cosines."""
    p1, l1 = math.radians(lat1), math.radians(lng1)
    h = np.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * cos2 * np.sin((l2 - l1) / 2) ** 2
    return 2 * R_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))


def _minutes_np(d: np.ndarray, speed: float) -> np.ndarray:
    m = np.maximum(1, np.ceil(d / speed * 60)).astype(np.int64)
    return np.where(d <= 0, 1, m)


@dataclass(frozen=True)
class CargoTable:
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
        haul = np.array([haversine(a, b, c, d) for a, b, c, d in
                         zip(self.slat, self.slng, self.elat, self.elng, strict=True)])
        object.__setattr__(self, "haul_km", haul)
        object.__setattr__(self, "haul_r", np.array([round(float(h), 2) for h in haul]))
        p = np.radians(self.slat)
        object.__setattr__(self, "s_rad", (p, np.radians(self.slng), np.cos(p)))

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def from_arrays(cls, **cols: Any) -> CargoTable:
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
    def from_records(cls, records: Iterable[Mapping[str, Any]]) -> CargoTable:
        """Official cargo records (§2.2). A later duplicate id replaces the earlier one (scorer)."""
        rows: dict[str, tuple] = {}
        for rec in records:
            cid = str(rec.get("cargo_id", "")).strip()
            if not cid:
                continue
            row = _convert(rec)
            if row is None:
                rows.pop(cid, None)
                continue
            rows[cid] = (cid, *row)
        cols = list(zip(*rows.values(), strict=True)) if rows else [()] * 15
        names = ("ids", "create", "remove", "win_start", "win_end", "cost_time", "price", "slat",
                 "slng", "elat", "elng", "category", "start_city", "end_city")
        arrays = {k: np.array(v, dtype=object if k in ("ids", "category", "start_city",
                                                         "end_city") else None)
                  for k, v in zip(names, cols, strict=False)}
        if not rows:
            arrays = {k: np.array([], dtype=object if k in ("ids", "category", "start_city",
                                                             "end_city") else float)
                      for k in names}
        return cls.from_arrays(**arrays)


def _convert(rec: Mapping[str, Any]) -> tuple | None:
    """One record to its columns, or None when no take of it can be accepted and scored."""
    try:
        create, remove = wall_minutes(rec["create_time"]), wall_minutes(rec["remove_time"])
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
            ws, we = wall_minutes(lt[0]), wall_minutes(lt[1])
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
    w0 = wall_minutes(s) if s is not None else 0
    w1 = wall_minutes(e) + 1 if e is not None else 31 * DAY
    return w0, w1


def take_rules(prefs: Sequence[Mapping[str, Any]], table: CargoTable,
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


@dataclass(frozen=True, slots=True)
class HindsightResult:
    net: float
    gross: float
    cost: float
    penalty: float
    orders: tuple[PlannedTake, ...]
    relaxed_kinds: tuple[str, ...]
    exact: bool  # no heuristic cap was set
    approach_commit: bool  # option C was allowed (the bound then covers partial repositions)
    labels_settled: int


def hindsight_share(realised_net: float, result: HindsightResult) -> float:
    """realised / optimum; NaN when the optimum is not positive (nothing to share)."""
    return realised_net / result.net if result.net > 1e-9 else math.nan


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


def solve(table: CargoTable, *, start_lat: float, start_lng: float, days: int, speed: float,
          cost_per_km: float, version: Version | str = Version.S3,
          preferences: Sequence[Mapping[str, Any]] = (),
          max_idle_minutes: int | None = None, max_pickup_km: float | None = None,
          max_successors: int | None = None, approach_commit: bool = False) -> HindsightResult:
    """The best chain of takes for one driver starting at minute 0 (see the module docstring)."""
    rules, relaxed = take_rules(preferences, table, version)
    h_pay, h_sim = pay_horizon(days, version), days * DAY
    n = len(table)
    c, r, ws, we, ct = table.create, table.remove, table.win_start, table.win_end, table.cost_time
    dmax = int((r - c).max()) if n else 0
    # positions: drop points of equal coordinates share a node; node 0 is the start
    pos = {(start_lat, start_lng): 0}
    ends = zip(table.elat.tolist(), table.elng.tolist(), strict=True)
    end_node = np.array([pos.setdefault(e, len(pos)) for e in ends], dtype=np.int64)
    labels = _Labels()
    labels.add(0, 0.0, -1, -1, 0, Reach.DIRECT, 0, ())
    heap: list[tuple[int, float, int]] = [(0, -0.0, 0)]
    settled: dict[int, list[int]] = {}
    best_at: dict[int, float] = {}
    # best net of a settled label with no chain member that could still block: a candidate at
    # most that good is dominated whatever its minute (the settled label is no later)
    best_free = np.full(len(pos), -np.inf)
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

    while heap:
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
        lo = int(np.searchsorted(c, t - dmax, "left"))
        top = h_pay if max_idle_minutes is None else min(h_pay, t + max_idle_minutes)
        hi = int(np.searchsorted(c, top, "right"))
        if hi <= lo:
            continue
        j = np.arange(lo, hi)
        j = j[r[j] >= t]
        if rec:
            j = j[~np.isin(j, rec)]
        if not len(j):
            continue
        if labels.cargo[lid] >= 0:
            qa, qb = table.elat[labels.cargo[lid]], table.elng[labels.cargo[lid]]
        else:
            qa, qb = start_lat, start_lng
        d = _hav_np(qa, qb, s_lat[j], s_lng[j], s_cos[j])
        if max_pickup_km is not None:
            keep = d <= max_pickup_km
            j, d = j[keep], d[keep]
        m = _minutes_np(d, speed)
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
        if not len(cand_j):
            continue
        cand_fin = np.concatenate([a_fin[a_ok], b_fin[b_ok]])
        cand_com = np.concatenate([a_com[a_ok], b_com[b_ok]])
        cand_net = np.concatenate([a_net[a_ok], b_net[b_ok]])
        cand_b = np.concatenate([a_reach[a_ok], np.ones(b_ok.sum(), int)])
        live = net + cand_net > best_free[end_node[cand_j]]
        if not live.all():
            cand_j, cand_fin, cand_com = cand_j[live], cand_fin[live], cand_com[live]
            cand_net, cand_b = cand_net[live], cand_b[live]
        if max_successors is not None and len(cand_j) > max_successors:
            score = cand_net / np.maximum(1, cand_fin - t)
            keep = np.argpartition(-score, max_successors - 1)[:max_successors]
            cand_j, cand_fin, cand_com = cand_j[keep], cand_fin[keep], cand_com[keep]
            cand_net, cand_b = cand_net[keep], cand_b[keep]
        new_net = net + cand_net
        nodes = end_node[cand_j]
        for k in range(len(cand_j)):
            nd, nn = int(nodes[k]), float(new_net[k])
            jj, ff = int(cand_j[k]), int(cand_fin[k])
            nrec = tuple(x for x in rec if remove_l[x] >= ff)
            if remove_l[jj] >= ff:
                nrec += (jj,)
            nid = labels.add(ff, nn, lid, jj, int(cand_com[k]), _REACH[int(cand_b[k])], nd, nrec)
            if best_at.get(nd, -math.inf) >= nn and dominated(nid):
                continue  # settled labels are no later, so the pop-time test holds already
            heapq.heappush(heap, (ff, -nn, nid))
    exact = max_idle_minutes is None and max_pickup_km is None and max_successors is None
    res = _replay(table, labels, best, start_lat, start_lng, speed, cost_per_km, rules, relaxed,
                  exact, n_settled)
    return replace(res, approach_commit=approach_commit)


def _replay(table: CargoTable, labels: _Labels, best: int, lat: float, lng: float,
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
        d = haversine(lat, lng, float(table.slat[j]), float(table.slng[j]))
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


def hindsight_for_run(cargo_records: Iterable[Mapping[str, Any]],
                      drivers: Sequence[Mapping[str, Any]], days: int, version: Version | str,
                      speed: float, *,
                      parse_preference: Callable[[Mapping[str, Any]], Mapping[str, Any] | None]
                      | None = None, **caps: Any) -> dict[str, HindsightResult]:
    """Per-driver optimum for a competition run: drivers are §2.3 records (independent pools).

    A preference entry already in structured form (a `kind` key) is used as is; otherwise
    `parse_preference` (text -> structured form or None) is tried, and an unparsed entry is
    reported as the relaxed kind "unparsed".
    """
    table = CargoTable.from_records(cargo_records)
    out: dict[str, HindsightResult] = {}
    for drv in drivers:
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
        out[str(drv["driver_id"])] = solve(
            table, start_lat=float(drv["current_lat"]), start_lng=float(drv["current_lng"]),
            days=days, speed=speed, cost_per_km=float(drv.get("cost_per_km", 0.0)),
            version=version, preferences=prefs, **caps)
    return out
