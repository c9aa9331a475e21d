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
    pref_hint,
)

MAX_BULLETS = 5
CELL_RE = re.compile(r"\b8[0-9a-f]{14}\b")
CARGO_RE = re.compile(r"\b[A-Z]{1,3}\d{3,}\b")
COORD_RE = re.compile(r"\((-?\d{1,3}\.\d+),\s*(-?\d{1,3}\.\d+)\)")
COORD_TOLERANCE = 0.006  # degrees: digests round to three decimals


def extractive(view: View) -> list[str]:
    """The digest a rule writes from a view's digest source (what a model would be sent)."""
    if isinstance(view, SearchView):
        out = []
        hot = [g for g in view.grids if g.streak == 0][:3]
        if hot:  # by id: a search answer names a grid, so its coordinates would be waste
            out.append("worth searching: " + "; ".join(f"{g.cell} value {g.value:.0f}"
                                                       for g in hot))
        if view.avoid:
            out.append("avoid, repeated low yield: " + "; ".join(
                f"{g.cell} streak {g.streak}" for g in view.avoid[:3]))
        spent = view.queries_today
        if view.budget_left < max(5, spent // 3):  # the live view has the counts; warn only
            out.append(f"query budget high: {spent} used today, {view.budget_left} left")
        out += [f"lesson: {x}" for x in view.lessons[:MAX_BULLETS - len(out)]]
        return out[:MAX_BULLETS] or ["nothing searched nearby yet"]
    if isinstance(view, CargoAnalysisView):
        out = []
        if view.candidates:  # the live view lists today's candidates; the level is the hint
            out.append(f"best net at digest time ~{view.candidates[0].est_net:.0f}")
        if view.blacklist_summary:
            out.append("blacklist: " + ", ".join(f"{k} {v}"
                                                 for k, v in view.blacklist_summary.items()))
        d = {k: v for k, v in view.discarded_summary.items() if v}
        if d:
            out.append("discarded so far: " + ", ".join(f"{k} {v}" for k, v in d.items()))
        return out[:MAX_BULLETS] or ["no cargo seen yet"]
    if isinstance(view, PreferenceView):
        out = [pref_hint(p, s) for p, s in zip(view.preferences, view.progress, strict=False)]
        return out[:MAX_BULLETS] or ["no preferences"]
    if isinstance(view, MainDecisionView):
        kinds: dict[str, int] = {}
        for line in view.recent_actions:  # "t<minute> <action> ..."
            parts = line.split()
            if len(parts) > 1:
                kinds[parts[1]] = kinds.get(parts[1], 0) + 1
        out = []
        if kinds:
            out.append(f"last {len(view.recent_actions)} actions: "
                       + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
        if view.failed_takes:
            out.append(f"{view.failed_takes} failed takes so far")
        return out or ["no actions yet"]
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
