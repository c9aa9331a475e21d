"""One self-contained HTML page: Plotly's JavaScript and every figure's data embedded, so the
file opens offline and can be attached to a message.

Each driver's timeline and map are built in Python but drawn only when the driver is picked
(a month of 100 drivers would otherwise draw 200 figures on load); the run-wide figures are
drawn on load. The small script below picks, draws and sorts tables; it draws nothing itself.
"""

from __future__ import annotations

import html
import json
from typing import Any

from agents.app.report import figures
from agents.app.report.model import RuleRow, RunData

METRICS = (("net", "net income (gross - km cost)"), ("gross", "gross"), ("km", "km"),
           ("penalty", "preference penalty"), ("score", "score (net - penalty)"))

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:24px;
color:#222;max-width:1400px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
.facts{color:#555;margin:0 0 8px}.notes{background:#fff8e1;border-left:4px solid #f0b400;
padding:6px 12px;margin:8px 0}.notes li{margin:2px 0}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border:1px solid #ddd;
padding:3px 7px;vertical-align:top}th{background:#f4f4f4;cursor:pointer;user-select:none;
position:sticky;top:0}td.n{text-align:right;font-variant-numeric:tabular-nums}
th[data-dir=asc]:after{content:" \\25B2"}th[data-dir=desc]:after{content:" \\25BC"}
tr.pick{cursor:pointer}tr.pick:hover{background:#eef5ff}tr.sel{background:#dcebff}
.neg{color:#b00}.pos{color:#070}.muted{color:#888}.scroll{max-height:520px;overflow:auto}
code{font-size:12px;white-space:pre-wrap;word-break:break-word}
.fig{min-height:120px}.pair{display:grid;grid-template-columns:3fr 2fr;gap:8px}
"""

JS = """
const R = JSON.parse(document.getElementById('report-data').textContent);
const CFG = {responsive: true, displaylogo: false};
function draw(id, fig) {
  return Plotly.react(id, fig.data, fig.layout, CFG).then(function (el) {
    el.dataset.drawn = String(fig.data.reduce(function (n, t) {
      return n + ((t.x || t.base || []).length || 0); }, 0));
  });
}
function showDriver(did) {
  R.runs.forEach(function (run, i) {
    const own = Object.prototype.hasOwnProperty.call(run.timelines, did);
    const tl = own ? run.timelines[did] : null, mp = own ? run.maps[did] : null;
    const t = document.getElementById('timeline-' + i), m = document.getElementById('map-' + i);
    const h = document.getElementById('hours-' + i);
    if (!tl) { [t, m, h].forEach(function (el) { Plotly.purge(el); el.textContent = ''; });
      t.textContent = 'driver ' + did + ' is not in ' + run.name; return; }
    draw(t, tl);
    draw(h, run.hours[did]);
    const b = R.map_base;
    draw(m, {data: b.data.concat(mp.data), layout: Object.assign({}, b.layout, mp.layout, {
      shapes: b.layout.shapes.concat(mp.layout.shapes),
      xaxis: Object.assign({}, b.layout.xaxis, mp.layout.xaxis || {}),
      yaxis: Object.assign({}, b.layout.yaxis, mp.layout.yaxis || {})})});
  });
  document.querySelectorAll('#overview tbody tr').forEach(function (tr) {
    tr.classList.toggle('sel', tr.dataset.driver === did); });
  document.getElementById('driver').value = did;
}
function sortTable(th) {
  const table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
  const asc = th.dataset.dir !== 'asc';
  table.querySelectorAll('th').forEach(function (h) { delete h.dataset.dir; });
  th.dataset.dir = asc ? 'asc' : 'desc';
  const key = function (tr) { const c = tr.cells[col];
    return c.dataset.v !== undefined ? c.dataset.v : c.textContent; };
  Array.from(body.rows).sort(function (a, b) {
    const x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
    const c = (isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(String(y)) : nx - ny;
    return asc ? c : -c;
  }).forEach(function (tr) { body.appendChild(tr); });
}
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () { sortTable(th); }); });
document.querySelectorAll('#overview tbody tr').forEach(function (tr) {
  tr.addEventListener('click', function () { showDriver(tr.dataset.driver); }); });
document.getElementById('driver').addEventListener('change', function (e) {
  showDriver(e.target.value); });
R.static.forEach(function (f) { draw(f.id, f.fig); });
const asked = decodeURIComponent(location.hash.slice(1));  // report.html#D002 opens D002
showDriver(R.runs.some(function (r) {
  return Object.prototype.hasOwnProperty.call(r.timelines, asked); }) ? asked : R.first);
"""


def _e(x: Any) -> str:
    return html.escape(str(x))


def _num(v: float, cls: bool = False) -> str:
    c = ""
    if cls and abs(v) >= 0.005:
        c = ' class="n pos"' if v > 0 else ' class="n neg"'
    return f'<td{c or " class=n"} data-v="{v:.4f}">{v:,.2f}</td>'


def _overview(runs: list[RunData]) -> str:
    ids: list[str] = []
    for r in runs:
        ids += [d.driver_id for d in r.drivers if d.driver_id not in ids]
    head = ["driver"]
    if len(runs) == 1:
        head += [label for _, label in METRICS] + ["orders", "steps", "violations"]
    else:
        for key, _ in METRICS:
            head += [f"{key} A", f"{key} B", f"\u0394 {key}"]
    rows = []
    for did in ids:
        ds = [r.driver(did) for r in runs]
        cells = [f"<td>{_e(did)}</td>"]
        if len(runs) == 1:
            d = ds[0]
            assert d is not None
            cells += [_num(getattr(d, k)) for k, _ in METRICS]
            cells += [f'<td class=n>{d.orders}</td>', f'<td class=n>{d.steps}</td>',
                      f'<td class=n>{len(d.marks)}</td>']
        else:
            for key, _ in METRICS:
                vals = [getattr(d, key) if d is not None else None for d in ds]
                cells += [_num(v) if v is not None else '<td class=muted>-</td>' for v in vals]
                if None in vals:
                    cells.append('<td class=muted>-</td>')
                else:
                    cells.append(_num(vals[1] - vals[0], cls=True))
        rows.append(f'<tr class=pick data-driver="{_e(did)}">{"".join(cells)}</tr>')
    totals = ""
    if len(runs) == 1:
        r = runs[0]
        totals = ("<tfoot><tr><td>all</td>" + "".join(
            f'<td class=n>{sum(getattr(d, k) for d in r.drivers):,.2f}</td>' for k, _ in METRICS)
            + f'<td class=n>{sum(d.orders for d in r.drivers)}</td>'
            + f'<td class=n>{sum(d.steps for d in r.drivers)}</td>'
            + f'<td class=n>{sum(len(d.marks) for d in r.drivers)}</td></tr></tfoot>')
    return ('<div class=scroll><table id=overview class=sortable><thead><tr>'
            + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + f"</tbody>{totals}</table></div>")


def _reading(r: dict[str, Any] | None) -> str:
    if not r:
        return '<span class=muted>none</span>'
    return f"<code>{_e(json.dumps(r, ensure_ascii=False, sort_keys=True))}</code>"


def _rules_table(rules: list[RuleRow]) -> str:
    head = ["driver", "#", "rule", "text as written", "reading the scorer used",
            "the parser's reading", "agree", "penalty", "counters"]
    rows = []
    for r in rules:
        agree = {True: "yes", False: "<b class=neg>no</b>", None: "-"}[r.agrees]
        counters = json.dumps(r.counters, ensure_ascii=False, default=str)
        if len(counters) > 240:
            counters = counters[:240] + " ..."
        used = (f"<div class=muted>{_e(r.reading_source)}</div>" + _reading(r.scorer_reading)
                if r.scorer_reading else f'<span class=muted>{_e(r.reading_source)}</span>')
        rows.append(
            f"<tr><td>{_e(r.driver_id)}</td><td class=n>{r.index}</td><td>{_e(r.label)}"
            + (f"<div class=neg>{_e(r.unscored)}</div>" if r.unscored else "")
            + f"</td><td>{_e(r.text)}</td><td>{used}</td><td>{_reading(r.parser_reading)}</td>"
            f"<td>{agree}</td>{_num(r.penalty)}<td><code>{_e(counters)}</code></td></tr>")
    return ('<div class=scroll><table class=sortable><thead><tr>'
            + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


def render(runs: list[RunData], plotly_js: str) -> str:
    names = ["A", "B"] if len(runs) > 1 else [""]
    static: list[dict[str, Any]] = []
    body: list[str] = []
    title = " vs ".join(r.title for r in runs)
    body.append(f"<h1>freightsim run report: {_e(title)}</h1>")
    for n, r in zip(names, runs, strict=True):
        facts = ", ".join(f"{k} {v}" for k, v in r.facts.items())
        body.append(f'<p class=facts>{"run " + n + ": " if n else ""}<code>{_e(r.path)}</code>'
                    f" ({_e(facts)})</p>")
    notes = [f"{n + ': ' if n else ''}{x}" for n, r in zip(names, runs, strict=True)
             for x in r.notes]
    if notes:
        body.append("<ul class=notes>" + "".join(f"<li>{_e(x)}</li>" for x in notes) + "</ul>")
    body.append("<h2>Overview</h2><p class=muted>Click a column to sort, a row to show that "
                "driver below." + (" \u0394 = B - A." if len(runs) > 1 else "") + "</p>")
    body.append(_overview(runs))
    ids: list[str] = []
    for r in runs:
        ids += [d.driver_id for d in r.drivers if d.driver_id not in ids]
    body.append('<h2>Driver</h2><label>driver <select id=driver>'
                + "".join(f'<option value="{_e(d)}">{_e(d)}</option>' for d in ids)
                + "</select></label> <span class=muted>timeline: every step over the run, "
                "coloured by action; crosses mark each preference violation where the scorer "
                "found it (hover for the fine); below, the income accumulating. Map: the "
                "driver's route, pickups and drops over Guangdong's counties, and the areas "
                "its rules name. Grid: what the driver did most in each hour of each day."
                "</span>")
    runs_data = []
    for i, (n, r) in enumerate(zip(names, runs, strict=True)):
        tag = f"run {n}: " if n else ""
        body.append(f'<div id="timeline-{i}" class=fig></div><div class=pair>'
                    f'<div id="map-{i}" class=fig></div><div id="hours-{i}" class=fig></div>'
                    "</div>")
        runs_data.append({
            "name": r.title,
            "timelines": {d.driver_id: figures.timeline(
                d, r.start, r.horizon, f"{tag}{d.driver_id}: net {d.net:,.0f}, penalty "
                f"{d.penalty:,.0f}, score {d.score:,.0f}" + (f" ({d.note})" if d.note else ""))
                for d in r.drivers},
            "hours": {d.driver_id: figures.day_hour(
                d, r.start, r.horizon, f"{tag}{d.driver_id}: most of each hour")
                for d in r.drivers},
            "maps": {d.driver_id: figures.route_map(
                d, f"{tag}{d.driver_id}: {d.orders} orders, {d.km:,.0f} km") for d in r.drivers},
        })
    body.append("<h2>Penalties</h2>")
    for i, (n, r) in enumerate(zip(names, runs, strict=True)):
        if len(runs) > 1:
            body.append(f"<h3>run {n}</h3>")
        if not r.rules:
            body.append("<p class=muted>No preferences in this run.</p>")
            continue
        body.append(f'<div id="pen-kind-{i}" class=fig></div>'
                    f'<div id="pen-driver-{i}" class=fig></div>')
        static += [{"id": f"pen-kind-{i}", "fig": figures.penalties_by_kind(r.rules)},
                   {"id": f"pen-driver-{i}", "fig": figures.penalties_by_driver(
                       r.rules, [d.driver_id for d in r.drivers])}]
        body.append(_rules_table(r.rules))
    body.append("<h2>LLM and memory</h2>")
    for i, (n, r) in enumerate(zip(names, runs, strict=True)):
        if len(runs) > 1:
            body.append(f"<h3>run {n}</h3>")
        if r.llm is None:
            body.append("<p class=muted>No model or memory records in this run.</p>")
            continue
        for j, fig in enumerate(figures.llm_figures(r.llm)):
            body.append(f'<div id="llm-{i}-{j}" class=fig></div>')
            static.append({"id": f"llm-{i}-{j}", "fig": fig})
        body += [f"<p class=muted>{_e(x)}</p>" for x in r.llm.notes]
    data = {"runs": runs_data, "map_base": figures.map_base(), "static": static,
            "first": ids[0] if ids else ""}
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    payload = payload.replace("<", "\\u003c")  # no "</script>" or "<!--" inside the script
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>freightsim report: {_e(title)}</title><style>{CSS}</style>"
            f"<script>{plotly_js}</script></head><body>{''.join(body)}"
            f'<script id=report-data type="application/json">{payload}</script>'
            f"<script>{JS}</script></body></html>")
