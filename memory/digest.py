"""The extractive digest of a view, and the grounding check every digest must pass.

The extractive digest is what the `rules` backend uses for compressed mode, and what replaces a
model digest that names anything the stores never saw.
"""

from __future__ import annotations

import re

from memory.views import (
    CargoAnalysisView,
    MainDecisionView,
    PreferenceView,
    SearchView,
    View,
    progress_facts,
)

MAX_BULLETS = 5
CELL_RE = re.compile(r"\b8[0-9a-f]{14}\b")
CARGO_RE = re.compile(r"\b[A-Z]{1,3}\d{3,}\b")
COORD_RE = re.compile(r"\((-?\d{1,3}\.\d+),\s*(-?\d{1,3}\.\d+)\)")
COORD_TOLERANCE = 0.006  # degrees: digests round to three decimals


def extractive(view: View) -> list[str]:
    if isinstance(view, SearchView):
        out = []
        hot = [g for g in view.grids if g.streak == 0][:3]
        if hot:
            out.append("worth searching: " + "; ".join(
                f"{g.cell} ({g.lat:.3f},{g.lng:.3f}) value {g.value:.0f}" for g in hot))
        if view.avoid:
            out.append("avoid, repeated low yield: " + "; ".join(
                f"{g.cell} streak {g.streak}" for g in view.avoid[:3]))
        spent = view.queries_today
        state = "high" if view.budget_left < max(5, spent // 3) else "ok"
        out.append(f"query budget {state}: {spent} used today, {view.budget_left} left")
        out += [f"lesson: {x}" for x in view.lessons[:MAX_BULLETS - len(out)]]
        return out[:MAX_BULLETS]
    if isinstance(view, CargoAnalysisView):
        out = []
        best = view.candidates[:3]
        if best:
            out.append("best candidates: " + "; ".join(
                f"{c.cargo.cargo_id} net~{c.est_net:.0f}" for c in best))
        if view.blacklist_summary:
            out.append("blacklist: " + ", ".join(f"{k} {v}"
                                                 for k, v in view.blacklist_summary.items()))
        d = {k: v for k, v in view.discarded_summary.items() if v}
        if d:
            out.append("discarded so far: " + ", ".join(f"{k} {v}" for k, v in d.items()))
        out.append(f"{len(view.candidates)} active candidates at digest time")
        return out[:MAX_BULLETS]
    if isinstance(view, PreferenceView):
        out = []
        for p, s in zip(view.preferences, view.progress, strict=False):
            out.append(f"{p.kind}: {progress_facts(s)}")
        return out[:MAX_BULLETS] or ["no preferences"]
    if isinstance(view, MainDecisionView):
        out = [f"income {view.income:.0f} from {view.orders} orders"]
        if view.best_grid is not None:
            g = view.best_grid
            out.append(f"best grid nearby {g.cell} ({g.lat:.3f},{g.lng:.3f}) value {g.value:.0f}")
        if view.failed_takes:
            out.append(f"{view.failed_takes} failed takes so far")
        if view.short_plan:
            out.append(f"plan: {view.short_plan[:120]}")
        return out[:MAX_BULLETS]
    return []


def ungrounded(bullets: list[str], cells: set[str], cargo_ids: set[str],
               coords: list[tuple[float, float]]) -> list[str]:
    """Everything a digest names that the stores never saw (empty when grounded)."""
    bad = []
    text = "\n".join(bullets)
    bad += [c for c in CELL_RE.findall(text) if c not in cells]
    bad += [c for c in CARGO_RE.findall(text) if c not in cargo_ids]
    for lat_s, lng_s in COORD_RE.findall(text):
        lat, lng = float(lat_s), float(lng_s)
        if not any(abs(lat - a) <= COORD_TOLERANCE and abs(lng - b) <= COORD_TOLERANCE
                   for a, b in coords):
            bad.append(f"({lat_s},{lng_s})")
    return bad
