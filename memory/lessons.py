"""Long-term lessons: distilled after a run, kept in SQLite, loaded into the next run's views.

A lesson has a stable id (sha256 of kind and key), a text, evidence (counts and the runs that
produced them) and a strength. A later run that sees the same thing again confirms it (+1, up
to MAX_STRENGTH); one that sees the opposite contradicts it (-1); at zero it is retired.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import h3

from memory.market_memory import GridStats, MarketMemory
from memory.time_price import TimePrice
from sim.redact import redact

MAX_STRENGTH = 5.0
MIN_QUERIES = 3
HOT_LESSONS = 8

SCHEMA = """
create table if not exists lessons (
    id text primary key,
    kind text not null,
    key text not null,
    text text not null,
    strength real not null,
    evidence text not null,
    first_run text not null,
    last_run text not null,
    retired integer not null default 0
)"""


@dataclass(frozen=True)
class Observed:
    """What one run saw about one lesson key: the text, its evidence, and whether it held."""

    kind: str
    key: str
    text: str
    holds: bool
    evidence: dict

    @property
    def id(self) -> str:
        return hashlib.sha256(f"{self.kind}|{self.key}".encode()).hexdigest()[:16]


def _merge(stats: Iterable[GridStats]) -> GridStats:
    out = GridStats()
    for s in stats:
        out.queries += s.queries
        out.items += s.items
        out.best_net = max(out.best_net, s.best_net)
        out.streak = max(out.streak, s.streak)
    return out


RATE_KEY = "earning"  # the one lesson of kind "rate": what a working minute earned


def distil(markets: Iterable[MarketMemory], low_yield_net: float, bucket_hours: int,
           penalties: Iterable[tuple[str, float]],
           prices: Iterable[TimePrice] = ()) -> list[Observed]:
    """Lessons a run supports or contradicts: hot grids by hour, dead grids, preferences, and
    what the drivers' time earned by hour (the next run starts pricing time from it)."""
    by_bucket: dict[tuple[str, int], list[GridStats]] = {}
    by_cell: dict[str, list[GridStats]] = {}
    for m in markets:
        for key, s in m.by_bucket.items():
            by_bucket.setdefault(key, []).append(s)
        for cell, s in m.grids.items():
            by_cell.setdefault(cell, []).append(s)
    out: list[Observed] = []
    hot = []
    for (cell, b), ss in by_bucket.items():
        g = _merge(ss)
        if g.queries >= MIN_QUERIES:
            hot.append((g.best_net + 20 * g.avg_items, cell, b, g))
    hot.sort(key=lambda x: (-x[0], x[1], x[2]))
    for rank, (_, cell, b, g) in enumerate(hot):
        lat, lng = h3.cell_to_latlng(cell)
        h0, h1 = b * bucket_hours, (b + 1) * bucket_hours
        good = g.avg_items >= 5 and g.best_net >= 3 * low_yield_net
        if rank >= HOT_LESSONS and good:
            continue  # only the best become lessons; a bad one still contradicts an old one
        out.append(Observed(
            "hot_market", f"{cell}@{b}",
            f"grid {cell} ({lat:.3f},{lng:.3f}) pays between {h0:02d}:00 and {h1:02d}:00: "
            f"{g.avg_items:.0f} cargo per search, best net {g.best_net:.0f}",
            good, {"queries": g.queries, "avg_items": round(g.avg_items, 1),
                   "best_net": round(g.best_net)}))
    for cell, ss in sorted(by_cell.items()):
        g = _merge(ss)
        if g.queries < MIN_QUERIES:
            continue
        lat, lng = h3.cell_to_latlng(cell)
        dead = g.best_net < low_yield_net
        out.append(Observed(
            "dead_grid", cell, f"grid {cell} ({lat:.3f},{lng:.3f}) never paid: "
            f"{g.queries} searches, best net {g.best_net:.0f}; search elsewhere",
            dead, {"queries": g.queries, "best_net": round(g.best_net)}))
    priced = [p for p in prices if p]
    if priced:
        rate = sum(p.rate for p in priced) / len(priced)
        factors = [round(sum(p.factors[h] for p in priced) / len(priced), 3) for h in range(24)]
        low = sorted(range(24), key=lambda h: (factors[h], h))[:4]
        out.append(Observed(
            "rate", RATE_KEY, f"a working minute earned {rate:.2f} yuan; the market paid least "
            f"at {', '.join(f'{h:02d}h' for h in sorted(low))}: rest there",
            True, {"rate": round(rate, 4), "factors": factors}))
    kinds: dict[str, list[float]] = {}
    for kind, pen in penalties:
        kinds.setdefault(kind, []).append(pen)
    for kind, pens in sorted(kinds.items()):
        if len(pens) < 2:
            continue
        ok = sum(1 for p in pens if p == 0)
        out.append(Observed(
            "preference", kind, f"{kind} preferences were kept without penalty by {ok} of "
            f"{len(pens)} drivers: plan them first, before chasing cargo",
            ok >= 0.8 * len(pens), {"drivers": len(pens), "no_penalty": ok}))
    return out


class LessonStore:
    """The SQLite store. Every text it stores goes through sim/redact.py: a store is a file
    users share, like a run directory."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def update(self, observed: Iterable[Observed], run_id: str) -> dict[str, int]:
        """Confirm, contradict, add and retire; returns counts of each."""
        counts = {"added": 0, "confirmed": 0, "contradicted": 0, "retired": 0}
        with self.db:
            for o in observed:
                row = self.db.execute("select strength, evidence, retired from lessons where id=?",
                                      (o.id,)).fetchone()
                if row is None:
                    if o.holds:
                        self.db.execute(
                            "insert into lessons values (?,?,?,?,?,?,?,?,0)",
                            (o.id, o.kind, redact(o.key), redact(o.text), 1.0,
                             redact(json.dumps({run_id: o.evidence})), redact(run_id),
                             redact(run_id)))
                        counts["added"] += 1
                    continue
                strength, evidence, retired = row
                if retired:
                    continue
                ev = json.loads(evidence)
                ev[run_id] = o.evidence
                strength = min(MAX_STRENGTH, strength + 1) if o.holds else strength - 1
                counts["confirmed" if o.holds else "contradicted"] += 1
                gone = strength <= 0
                counts["retired"] += gone
                self.db.execute(
                    "update lessons set strength=?, evidence=?, last_run=?, retired=?, "
                    "text=case when ? then text else ? end where id=?",
                    (max(strength, 0.0), redact(json.dumps(ev)), redact(run_id), int(gone),
                     not o.holds, redact(o.text), o.id))
        return counts

    def active(self, limit: int = 8) -> list[tuple[str, float, str]]:
        """(text, strength, kind) of live lessons, strongest first."""
        return list(self.db.execute(
            "select text, strength, kind from lessons where retired=0 "
            "order by strength desc, id limit ?", (limit,)))

    def strength(self, lesson_id: str) -> float | None:
        row = self.db.execute("select strength from lessons where id=?", (lesson_id,)).fetchone()
        return None if row is None else row[0]


def _one_line(text: object, limit: int = 300) -> str:
    """A stored lesson as prompts carry it: one bounded line, whatever the file holds."""
    t = " ".join(str(text).split()).replace("##", "#")
    return t if len(t) <= limit else t[:limit - 1] + "…"


def load_lessons(path: str | Path | None, limit: int = 5) -> tuple[str, ...]:
    if path is None or not Path(path).exists():
        return ()
    store = LessonStore(path)
    try:
        return tuple(f"{_one_line(text)} (strength {s:g})" for text, s, _ in store.active(limit))
    finally:
        store.close()


def load_time_prior(path: str | Path | None) -> TimePrice | None:
    """What earlier runs taught about the price of time (their "rate" lesson's latest
    evidence), or None: the next run's drivers start from it instead of the default guess."""
    if path is None or not Path(path).exists():
        return None
    store = LessonStore(path)
    try:
        row = store.db.execute("select evidence, last_run from lessons where kind='rate' "
                               "and key=? and retired=0", (RATE_KEY,)).fetchone()
    finally:
        store.close()
    if row is None:
        return None
    last = json.loads(row[0]).get(row[1])
    if not isinstance(last, dict) or "rate" not in last:
        return None
    factors = last.get("factors")
    if not (isinstance(factors, list) and len(factors) == 24):
        factors = None
    return TimePrice(float(last["rate"]), tuple(float(f) for f in factors) if factors
                     else TimePrice().factors)
