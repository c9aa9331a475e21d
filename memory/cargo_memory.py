"""CargoMemory: what a driver knows about each cargo it has seen, and which it must not retry.

Statuses: active (seen, still plausible), failed (our take failed), stale (its loading window
or remove time passed by the memory's own clock, or no search has confirmed it for
`confirm_minutes`: other carriers take cargo all the time), unavailable (a later search that
covered its origin no longer showed it), taken (we took it). Expiry runs off a heap of deadlines, so
advancing the clock costs O(log n) per cargo once, never a rescan of history.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from enum import StrEnum

from memory.tokens import FactLog, TokenCounter
from sim.geo import Geography, Point, great_circle_km
from sim.world.cargo import CargoView
from sim.world.events import Event, OrderTaken, SearchDone, TakeFailed


class Seen(StrEnum):
    ACTIVE = "active"
    FAILED = "failed"
    STALE = "stale"
    UNAVAILABLE = "unavailable"
    TAKEN = "taken"


@dataclass(slots=True)
class SeenCargo:
    cargo: CargoView
    first_seen: float
    last_seen: float
    search_id: int
    seen_lat: float
    seen_lng: float
    value_estimate: float
    status: Seen = Seen.ACTIVE
    reason: str = ""
    changed_at: float = 0.0

    def deadline(self, confirm_minutes: float) -> float:
        """When this sighting goes stale: its window closes, or it has not been seen again."""
        return min(self.cargo.load_end, self.cargo.remove_time, self.last_seen + confirm_minutes)


# Ids stay on the do-not-offer lists until the market could no longer show them plus a margin;
# after that nothing can propose them again, so the lists stay bounded by the active window.
RELEVANCE_MARGIN = 120.0


class CargoMemory:
    def __init__(self, geo: Geography, cost_per_km: float, counter: TokenCounter | None,
                 max_results: int = 50, confirm_minutes: float = 30.0) -> None:
        self.geo, self.cost_per_km, self.max_results = geo, cost_per_km, max_results
        self.confirm_minutes = confirm_minutes
        self.records: dict[str, SeenCargo] = {}
        self.active: dict[str, SeenCargo] = {}
        self.discarded: dict[str, SeenCargo] = {}  # failed/stale/unavailable/taken, relevant
        self.blocked_ids: set[str] = set()  # every id that left `active`, kept for good
        self._deadlines: list[tuple[float, str]] = []
        self._forget: list[tuple[float, str]] = []
        self.counts: dict[str, int] = {s.value: 0 for s in Seen if s is not Seen.ACTIVE}
        self.reasons: dict[str, int] = {}
        self.searches = 0
        self.now = 0.0
        self.log = FactLog(counter)

    # -- events ----------------------------------------------------------------------------
    def on_event(self, ev: Event) -> None:
        self.advance(ev.t)
        if isinstance(ev, SearchDone) and ev.rejected is None:
            self._on_search(ev)
        elif isinstance(ev, TakeFailed):
            self._discard(ev.cargo_id, Seen.FAILED, ev.reason)
        elif isinstance(ev, OrderTaken):
            self._discard(ev.cargo_id, Seen.TAKEN, "ours")

    def _on_search(self, ev: SearchDone) -> None:
        self.searches += 1
        center = Point(ev.lat, ev.lng)
        shown = set()
        for c in ev.results:
            shown.add(c.cargo_id)
            rec = self.records.get(c.cargo_id)
            if rec is None:
                est = c.route(self.geo, center, self.cost_per_km)[0]
                rec = SeenCargo(c, ev.t, ev.t, self.searches, ev.lat, ev.lng, round(est, 1))
                self.records[c.cargo_id] = rec
                self.active[c.cargo_id] = rec
                heapq.heappush(self._deadlines, (rec.deadline(self.confirm_minutes), c.cargo_id))
                self.log.append_later(_seen_line, ev.t, c, est)
            else:
                rec.last_seen = ev.t
                if rec.status is Seen.ACTIVE:  # the old heap entry is checked lazily
                    heapq.heappush(self._deadlines, (rec.deadline(self.confirm_minutes),
                                                     c.cargo_id))
        # a cargo this search should have shown but did not has left the market
        full = len(ev.results) < self.max_results  # else only as far as the farthest shown
        reach = ev.radius_km if full else max(
            (great_circle_km(ev.lat, ev.lng, c.origin.lat, c.origin.lng) for c in ev.results),
            default=0.0)
        gone = [cid for cid, r in self.active.items() if cid not in shown and great_circle_km(
            ev.lat, ev.lng, r.cargo.origin.lat, r.cargo.origin.lng) < reach]
        for cid in gone:
            self._discard(cid, Seen.UNAVAILABLE, "vanished from search")

    def _discard(self, cargo_id: str, status: Seen, reason: str) -> None:
        rec = self.records.get(cargo_id)
        if rec is None or rec.status is not Seen.ACTIVE:
            if rec is not None and status is Seen.FAILED:
                rec.status, rec.reason = status, reason  # a retry failed: make it a failure
                self.discarded[cargo_id] = rec
            return
        rec.status, rec.reason, rec.changed_at = status, reason, self.now
        self.active.pop(cargo_id, None)
        self.blocked_ids.add(cargo_id)
        self.discarded[cargo_id] = rec
        self.counts[status.value] += 1
        key = f"{status.value}:{reason}"
        self.reasons[key] = self.reasons.get(key, 0) + 1
        heapq.heappush(self._forget, (rec.cargo.remove_time + RELEVANCE_MARGIN, cargo_id))
        self.log.append(f"t{self.now:.0f} {cargo_id} {status.value} ({reason})")

    def advance(self, now: float) -> None:
        """Move the clock: cargo past its window goes stale; long-dead ids leave the lists."""
        self.now = max(self.now, now)
        while self._deadlines and self._deadlines[0][0] < self.now:
            _, cid = heapq.heappop(self._deadlines)
            rec = self.active.get(cid)
            if rec is None or rec.deadline(self.confirm_minutes) >= self.now:
                continue  # gone already, or seen again since this entry was pushed
            window = min(rec.cargo.load_end, rec.cargo.remove_time) < self.now
            self._discard(cid, Seen.STALE, "window passed" if window else "unconfirmed")
        while self._forget and self._forget[0][0] < self.now:
            _, cid = heapq.heappop(self._forget)
            self.discarded.pop(cid, None)

    # -- what agents read ------------------------------------------------------------------
    def ids(self, status: Seen) -> list[str]:
        return sorted(cid for cid, r in self.discarded.items() if r.status is status)

    @property
    def failed_cargo_ids(self) -> list[str]:
        return self.ids(Seen.FAILED)

    @property
    def stale_cargo_ids(self) -> list[str]:
        return self.ids(Seen.STALE)

    @property
    def unavailable_cargo_ids(self) -> list[str]:
        return self.ids(Seen.UNAVAILABLE)

    def discarded_summary(self) -> dict[str, int]:
        return dict(self.counts)

    def blacklist_summary(self) -> dict[str, int]:
        return {k: v for k, v in sorted(self.reasons.items()) if k.startswith("failed")}

    def candidates(self) -> list[CargoView]:
        """Active cargo, in the order first seen (deterministic)."""
        return [r.cargo for r in self.active.values()]

    # -- state -----------------------------------------------------------------------------
    def get_state(self) -> dict:
        return {
            "records": {cid: _rec_state(r) for cid, r in self.records.items()},
            "discarded": sorted(self.discarded), "deadlines": list(self._deadlines),
            "forget": list(self._forget), "counts": dict(self.counts),
            "reasons": dict(self.reasons), "searches": self.searches, "now": self.now,
            "log": self.log.get_state(),
        }

    def set_state(self, s: dict) -> None:
        self.records = {cid: _rec_from(d) for cid, d in s["records"].items()}
        self.active = {cid: r for cid, r in self.records.items() if r.status is Seen.ACTIVE}
        self.blocked_ids = {cid for cid, r in self.records.items() if r.status is not Seen.ACTIVE}
        self.discarded = {cid: self.records[cid] for cid in s["discarded"]}
        self._deadlines = [tuple(x) for x in s["deadlines"]]
        self._forget = [tuple(x) for x in s["forget"]]
        self.counts, self.reasons = dict(s["counts"]), dict(s["reasons"])
        self.searches, self.now = s["searches"], s["now"]
        self.log.set_state(s["log"])


def _seen_line(t: float, c: CargoView, est: float) -> str:
    """The fact of a cargo first seen at `t`, its net estimated `est` from the search's centre."""
    return (f"t{t:.0f} seen {c.cargo_id} ({c.origin.lat:.3f},{c.origin.lng:.3f})->"
            f"({c.dest.lat:.3f},{c.dest.lng:.3f}) price {c.price:.0f} window "
            f"{c.load_start:.0f}-{c.load_end:.0f} net~{est:.0f}")


def _rec_state(r: SeenCargo) -> dict:
    c = r.cargo
    return {"cargo": [c.cargo_id, c.origin.lat, c.origin.lng, c.dest.lat, c.dest.lng, c.price,
                      c.load_start, c.load_end, c.remove_time, c.cost_minutes, c.distance_km],
            "first_seen": r.first_seen, "last_seen": r.last_seen, "search_id": r.search_id,
            "seen": [r.seen_lat, r.seen_lng], "value": r.value_estimate,
            "status": r.status.value, "reason": r.reason, "changed_at": r.changed_at}


def _rec_from(d: dict) -> SeenCargo:
    x = d["cargo"]
    c = CargoView(x[0], Point(x[1], x[2]), Point(x[3], x[4]), *x[5:])
    return SeenCargo(c, d["first_seen"], d["last_seen"], d["search_id"], d["seen"][0],
                       d["seen"][1], d["value"], Seen(d["status"]), d["reason"], d["changed_at"])
