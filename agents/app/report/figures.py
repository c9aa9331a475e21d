"""The report's Plotly figures as plain figure dicts (data + layout), ready to embed as JSON.

Plotly draws them in the browser; nothing here renders. The map is a plain x/y plot of longitude
and latitude (no geo traces: those fetch map outlines from the network), with the counties of
data/guangdong_counties.csv as circles of each county's area around its centre.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import UTC, timedelta
from itertools import accumulate
from typing import Any

from agents.app.report.model import Area, DriverTrace, LlmData, Phase, RuleRow
from sim.geo import load_counties
from sim.official.timebase import EPOCH

EPOCH_MS = int(EPOCH.replace(tzinfo=UTC).timestamp() * 1000)
COLOURS = {
    Phase.SEARCH: "#9467bd", Phase.PICKUP: "#ff7f0e", Phase.WINDOW_WAIT: "#f7c873",
    Phase.HAUL: "#2ca02c", Phase.FAILED_TAKE: "#d62728", Phase.REPOSITION: "#1f77b4",
    Phase.WAIT: "#b9b9b9",
}
LANES = {Phase.SEARCH: "search", Phase.PICKUP: "take", Phase.WINDOW_WAIT: "take",
         Phase.HAUL: "take", Phase.FAILED_TAKE: "failed take", Phase.REPOSITION: "reposition",
         Phase.WAIT: "wait"}
LANE_ORDER = ["violations", "wait", "reposition", "failed take", "take", "search"]
VIOLATION = "violations"
KM_PER_DEG_LAT = 110.57
LAT_MID = 23.3  # Guangdong's middle: the map's aspect ratio


def ms(minutes: float) -> int:
    """Epoch minutes as milliseconds since 1970 (what a Plotly date axis reads)."""
    return EPOCH_MS + round(minutes * 60_000)


def _r(x: float, nd: int = 2) -> float:
    return round(float(x), nd)


# --------------------------------------------------------------------------- timeline

def timeline(d: DriverTrace, start: float, horizon: float, title: str) -> dict[str, Any]:
    """Lanes of bars over the month (one trace per phase, coloured), violations as crosses,
    and below them the income accumulating, before and after the fines."""
    traces: list[dict[str, Any]] = []
    for phase in Phase:
        segs = [s for s in d.segments if s.phase is phase]
        if not segs:
            continue
        traces.append({
            "type": "bar", "orientation": "h", "name": phase.value,
            "y": [LANES[phase]] * len(segs), "base": [ms(s.start) for s in segs],
            "x": [round((s.end - s.start) * 60_000) for s in segs],
            "customdata": [[s.step, _r(s.end - s.start, 1), s.note] for s in segs],
            "marker": {"color": COLOURS[phase], "line": {"width": 0}},
            "hovertemplate": "<b>%{fullData.name}</b> step %{customdata[0]}, %{customdata[1]} "
                             "min<br>from %{base|%b %d %H:%M}<br>%{customdata[2]}<extra></extra>",
        })
    if d.marks:
        traces.append({
            "type": "scatter", "mode": "markers", "name": "preference violated",
            "x": [ms(m.t) for m in d.marks], "y": [VIOLATION] * len(d.marks),
            "marker": {"symbol": "x-thin-open", "size": 11, "color": "#d62728",
                       "line": {"width": 2, "color": "#d62728"}},
            "customdata": [[f"#{m.rule_index} {m.label}", m.where, m.fine] for m in d.marks],
            "hovertemplate": "<b>%{customdata[0]}</b><br>%{customdata[1]}<br>fine "
                             "%{customdata[2]:,.2f} yuan<extra></extra>",
        })
    money = sorted(d.money, key=lambda m: m.t)
    xs = [0.0] + [m.t for m in money] + [horizon]
    income = [0.0, *accumulate(m.amount for m in money)]
    income.append(income[-1])
    traces.append({"type": "scatter", "mode": "lines", "name": "income (gross - km cost)",
                   "x": [ms(t) for t in xs], "y": [_r(v) for v in income],
                   "line": {"shape": "hv", "color": "#2ca02c"}, "xaxis": "x", "yaxis": "y2",
                   "hovertemplate": "%{x|%b %d %H:%M}: %{y:,.2f} yuan<extra>income</extra>"})
    if d.marks:
        steps = sorted([(m.t, m.amount) for m in money] + [(k.t, -k.fine) for k in d.marks])
        after = [0.0, *accumulate(a for _, a in steps)]
        after.append(after[-1])
        traces.append({"type": "scatter", "mode": "lines", "name": "after fines (score)",
                       "x": [ms(t) for t in [0.0, *(t for t, _ in steps), horizon]],
                       "y": [_r(v) for v in after],
                       "line": {"shape": "hv", "color": "#d62728", "dash": "dot"},
                       "xaxis": "x", "yaxis": "y2",
                       "hovertemplate": "%{x|%b %d %H:%M}: %{y:,.2f} yuan<extra>after fines"
                                        "</extra>"})
    present = {LANES[s.phase] for s in d.segments} | ({VIOLATION} if d.marks else set())
    lanes = [x for x in LANE_ORDER if x in present]
    layout = {
        "title": {"text": title, "font": {"size": 14}},
        "barmode": "overlay", "height": 460, "margin": {"l": 90, "r": 20, "t": 40, "b": 40},
        "hovermode": "closest",
        "legend": {"orientation": "h", "y": -0.12},
        "xaxis": {"type": "date", "anchor": "y2",
                  "range": [ms(start), ms(horizon + (horizon - start) * 0.01 + 30)]},
        "yaxis": {"domain": [0.42, 1], "type": "category", "categoryorder": "array",
                  "categoryarray": lanes, "range": [-0.5, len(lanes) - 0.5], "fixedrange": True},
        "yaxis2": {"domain": [0, 0.36], "title": {"text": "yuan"}, "zeroline": True},
    }
    for t in traces:
        t.setdefault("xaxis", "x")
        t.setdefault("yaxis", "y")
    return {"data": traces, "layout": layout}


# --------------------------------------------------------------------------- day x hour

DAY_HOUR_PHASES = [Phase.WAIT, Phase.SEARCH, Phase.REPOSITION, Phase.PICKUP, Phase.WINDOW_WAIT,
                   Phase.HAUL, Phase.FAILED_TAKE]


def day_hour(d: DriverTrace, start: float, horizon: float, title: str) -> dict[str, Any]:
    """What the driver did most in each hour of each day: a month's habits in one grid (a
    wait of 23 hours a day, rest at the market's busiest hour)."""
    day0, day1 = int(start // 1440), max(int(start // 1440) + 1, math.ceil(horizon / 1440))
    n_days = day1 - day0
    minutes = [[[0.0] * len(DAY_HOUR_PHASES) for _ in range(24)] for _ in range(n_days)]
    code = {p: i for i, p in enumerate(DAY_HOUR_PHASES)}
    for seg in d.segments:
        t = seg.start
        while t < seg.end:
            cell_end = (t // 60 + 1) * 60
            take = min(seg.end, cell_end) - t
            day, hour = int(t // 1440) - day0, int(t % 1440 // 60)
            if 0 <= day < n_days:
                minutes[day][hour][code[seg.phase]] += take
            t = min(seg.end, cell_end)
    z: list[list[int | None]] = []
    text: list[list[str]] = []
    for row in minutes:
        zr, tr = [], []
        for cell in row:
            best = max(range(len(cell)), key=cell.__getitem__)
            zr.append(best if cell[best] > 0 else None)
            tr.append(f"{DAY_HOUR_PHASES[best].value} {cell[best]:.0f} min" if cell[best] else "")
        z.append(zr)
        text.append(tr)
    n = len(DAY_HOUR_PHASES)
    scale = []
    for i, p in enumerate(DAY_HOUR_PHASES):
        scale += [[i / n, COLOURS[p]], [(i + 1) / n, COLOURS[p]]]
    days = [day_label(day0 + i) for i in range(n_days)]
    return {"data": [{"type": "heatmap", "z": z, "text": text, "x": list(range(24)), "y": days,
                      "zmin": -0.5, "zmax": n - 0.5, "colorscale": scale, "showscale": False,
                      "xgap": 1, "ygap": 1, "hoverongaps": False,
                      "hovertemplate": "%{y} %{x}:00<br>%{text}<extra></extra>"}],
            "layout": {"title": {"text": title, "font": {"size": 14}}, "height": 560,
                       "margin": {"l": 70, "r": 10, "t": 40, "b": 40},
                       "xaxis": {"title": {"text": "hour of day"}, "dtick": 2},
                       "yaxis": {"autorange": "reversed", "type": "category"}}}


def day_label(day: int) -> str:
    """'Mar 04' for day 3 from the epoch."""
    return (EPOCH + timedelta(days=day)).strftime("%b %d")


# --------------------------------------------------------------------------- map

def _deg(radius_km: float, lat: float) -> tuple[float, float]:
    return (radius_km / (KM_PER_DEG_LAT * math.cos(math.radians(lat))),
            radius_km / KM_PER_DEG_LAT)


def map_base() -> dict[str, Any]:
    """The counties (shared by every driver's map): circles of each county's area and a
    hover point at each centre, with the axes' extent and aspect."""
    counties = load_counties()
    shapes = []
    for c in counties:
        dx, dy = _deg(c.radius_km, c.lat)
        shapes.append({"type": "circle", "xref": "x", "yref": "y", "layer": "below",
                       "x0": _r(c.lng - dx, 4), "x1": _r(c.lng + dx, 4),
                       "y0": _r(c.lat - dy, 4), "y1": _r(c.lat + dy, 4),
                       "line": {"color": "#c9c9c9", "width": 1}, "fillcolor": "#f3f3f3"})
    trace = {"type": "scatter", "mode": "markers", "name": "county centres",
             "x": [c.lng for c in counties], "y": [c.lat for c in counties],
             "text": [f"{c.name_zh} {c.name_en} ({c.city_en})" for c in counties],
             "marker": {"size": 4, "color": "#9a9a9a"}, "hoverinfo": "text"}
    layout = {
        "height": 560, "margin": {"l": 50, "r": 20, "t": 40, "b": 40}, "hovermode": "closest",
        "legend": {"orientation": "h", "y": -0.16},
        "xaxis": {"range": [109.6, 117.4], "title": {"text": "longitude"}, "showgrid": False,
                  "constrain": "domain"},
        "yaxis": {"range": [20.1, 25.6], "title": {"text": "latitude"}, "showgrid": False,
                  "scaleanchor": "x", "scaleratio": _r(1 / math.cos(math.radians(LAT_MID)), 4)},
        "shapes": shapes,
    }
    return {"data": [trace], "layout": layout}


def _area_shape(a: Area) -> dict[str, Any] | None:
    style = {"xref": "x", "yref": "y", "line": {"color": "#d62728", "width": 2, "dash": "dash"},
             "fillcolor": "rgba(214,39,40,0.08)", "layer": "above"}
    if a.shape == "box":
        return {"type": "rect", "x0": a.lng_min, "x1": a.lng_max, "y0": a.lat_min,
                "y1": a.lat_max, **style}
    if a.shape == "circle":
        dx, dy = _deg(a.radius_km, a.lat)
        return {"type": "circle", "x0": a.lng - dx, "x1": a.lng + dx, "y0": a.lat - dy,
                "y1": a.lat + dy, **style}
    return None


def route_map(d: DriverTrace, title: str) -> dict[str, Any]:
    """One driver's route, pickups, drops and start, and its rules' areas (drawn over the
    counties of `map_base`, which the page adds)."""
    traces: list[dict[str, Any]] = []
    if d.route:
        traces.append({"type": "scatter", "mode": "lines", "name": "route",
                       "x": [_r(p[2], 4) for p in d.route], "y": [_r(p[1], 4) for p in d.route],
                       "customdata": [ms(p[0]) for p in d.route],
                       "line": {"color": "rgba(31,119,180,0.6)", "width": 1.5},
                       "hovertemplate": "%{customdata|%b %d %H:%M}<extra>route</extra>"})
    for kind, symbol, colour in (("pickup", "triangle-up", "#ff7f0e"),
                                 ("drop", "square", "#2ca02c")):
        st = [s for s in d.stops if s.kind == kind]
        if st:
            traces.append({"type": "scatter", "mode": "markers", "name": f"{kind}s",
                           "x": [s.lng for s in st], "y": [s.lat for s in st],
                           "customdata": [[ms(s.t), s.note] for s in st],
                           "marker": {"symbol": symbol, "size": 8, "color": colour},
                           "hovertemplate": "%{customdata[0]|%b %d %H:%M}<br>%{customdata[1]}"
                                            f"<extra>{kind}</extra>"})
    if d.start is not None:
        traces.append({"type": "scatter", "mode": "markers", "name": "start",
                       "x": [d.start[1]], "y": [d.start[0]],
                       "marker": {"symbol": "star", "size": 13, "color": "#000"}})
    shapes = [s for s in (_area_shape(a) for a in d.areas) if s is not None]
    labelled = [a for a in d.areas if a.shape != "box" and a.label]
    boxes = [a for a in d.areas if a.shape == "box"]
    if labelled or boxes:
        traces.append({"type": "scatter", "mode": "markers+text", "name": "rule areas",
                       "x": [a.lng for a in labelled] + [a.lng_min for a in boxes],
                       "y": [a.lat for a in labelled] + [a.lat_max for a in boxes],
                       "text": [a.label for a in labelled + boxes], "textposition": "top right",
                       "textfont": {"size": 10, "color": "#d62728"},
                       "marker": {"symbol": "diamond", "size": 9, "color": "#d62728"},
                       "hoverinfo": "text"})
    layout: dict[str, Any] = {"title": {"text": title, "font": {"size": 14}}, "shapes": shapes}
    lats = [p[1] for p in d.route] + [s.lat for s in d.stops]
    lngs = [p[2] for p in d.route] + [s.lng for s in d.stops]
    for a in d.areas:
        if a.shape == "box":
            lats += [a.lat_min, a.lat_max]
            lngs += [a.lng_min, a.lng_max]
        else:
            dx, dy = _deg(a.radius_km, a.lat)
            lats += [a.lat - dy, a.lat + dy]
            lngs += [a.lng - dx, a.lng + dx]
    if d.start is not None:
        lats.append(d.start[0])
        lngs.append(d.start[1])
    if lats:  # open on the driver's part of the province (double-click shows all of it)
        half = max(max(lats) - min(lats), (max(lngs) - min(lngs)) * 0.75, 1.2) * 0.6
        mid_lat, mid_lng = (max(lats) + min(lats)) / 2, (max(lngs) + min(lngs)) / 2
        layout["xaxis"] = {"range": [_r(mid_lng - half * 1.3, 3), _r(mid_lng + half * 1.3, 3)]}
        layout["yaxis"] = {"range": [_r(mid_lat - half, 3), _r(mid_lat + half, 3)]}
    return {"data": traces, "layout": layout}


# --------------------------------------------------------------------------- penalties

def penalties_by_kind(rules: list[RuleRow]) -> dict[str, Any]:
    by: dict[str, float] = defaultdict(float)
    for r in rules:
        by[r.label] += r.penalty
    kinds = sorted(by, key=lambda k: -by[k])
    return {"data": [{"type": "bar", "x": kinds, "y": [_r(by[k]) for k in kinds],
                      "marker": {"color": "#d62728"},
                      "hovertemplate": "%{x}: %{y:,.2f} yuan<extra></extra>"}],
            "layout": {"title": {"text": "penalty by kind", "font": {"size": 14}},
                       "height": 340, "margin": {"l": 60, "r": 20, "t": 40, "b": 110},
                       "yaxis": {"title": {"text": "yuan"}}}}


def penalties_by_driver(rules: list[RuleRow], drivers: list[str]) -> dict[str, Any]:
    kinds = sorted({r.label for r in rules if r.penalty > 0})
    traces = []
    for k in kinds:
        per = defaultdict(float)
        for r in rules:
            if r.label == k:
                per[r.driver_id] += r.penalty
        traces.append({"type": "bar", "name": k, "x": drivers,
                       "y": [_r(per[d]) for d in drivers],
                       "hovertemplate": "%{x} " + k + ": %{y:,.2f}<extra></extra>"})
    return {"data": traces,
            "layout": {"title": {"text": "penalty by driver and kind", "font": {"size": 14}},
                       "barmode": "stack", "height": 360, "showlegend": True,
                       "margin": {"l": 60, "r": 20, "t": 40, "b": 60},
                       "xaxis": {"type": "category"}, "yaxis": {"title": {"text": "yuan"}}}}


# --------------------------------------------------------------------------- LLM and memory

def llm_figures(llm: LlmData) -> list[dict[str, Any]]:
    figs = []
    if llm.tokens_by_agent:
        figs.append({"data": [
            {"type": "scatter", "mode": "lines+markers", "name": agent,
             "x": [ms(t) for t, _ in pts], "y": [_r(v, 1) for _, v in pts]}
            for agent, pts in llm.tokens_by_agent.items()],
            "layout": {"title": {"text": f"prompt tokens per step by agent (mean per "
                                         f"{llm.bucket})", "font": {"size": 14}},
                       "height": 340, "xaxis": {"type": "date"},
                       "yaxis": {"title": {"text": "tokens"}},
                       "margin": {"l": 60, "r": 20, "t": 40, "b": 40}}})
    if llm.latency_by_agent:
        agents = sorted(llm.latency_by_agent)
        parts = sorted({p for v in llm.latency_by_agent.values() for p in v},
                       key=["queue_s", "ttft_s", "decode_s", "total"].index)
        figs.append({"data": [
            {"type": "bar", "name": p, "x": agents,
             "y": [llm.latency_by_agent[a].get(p, 0.0) for a in agents]} for p in parts],
            "layout": {"title": {"text": "latency per call by agent (mean, seconds)",
                                 "font": {"size": 14}}, "barmode": "stack", "height": 320,
                       "yaxis": {"title": {"text": "s"}},
                       "margin": {"l": 60, "r": 20, "t": 40, "b": 40}}})
    if llm.digests:
        figs.append({"data": [{
            "type": "scatter", "mode": "markers", "name": "digests",
            "x": [ms(t) for t, *_ in llm.digests], "y": [a for _, a, *_ in llm.digests],
            "customdata": [[n, b] for *_, n, b in llm.digests],
            "marker": {"size": 7, "color": "#9467bd", "opacity": 0.6},
            "hovertemplate": "%{y}: %{customdata[0]} facts -> %{customdata[1]} bullets"
                             "<extra>%{x|%b %d %H:%M}</extra>"}],
            "layout": {"title": {"text": f"compression events ({len(llm.digests):,} digests)",
                                 "font": {"size": 14}}, "height": 300,
                       "xaxis": {"type": "date"}, "yaxis": {"type": "category"},
                       "margin": {"l": 110, "r": 20, "t": 40, "b": 40}}})
    return figs

