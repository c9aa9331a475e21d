"""`freightsim report`: the page of a competition run and of a generator run, opened in a real
headless Chromium (Debian's, installed by scripts/install-browser.sh; `make test` runs it).

The browser loads each page with every host unresolvable (nothing may be fetched), a small
prelude counts console errors and uncaught exceptions, and the DOM after the scripts ran must
hold a drawn timeline and map. Screenshots land in test-artifacts/report/ (gitignored).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from agents.app.cli import main
from agents.app.report import build_report, read_run
from agents.app.report.model import Phase

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "report"
AGENT = "tests/agents/comp_agent.py:ModelDecisionService"
PRELUDE = """<script>
document.documentElement.dataset.consoleErrors = "0";
(function () {
  function count(what) {
    const d = document.documentElement.dataset;
    d.consoleErrors = String(Number(d.consoleErrors) + 1);
    d.lastError = String(what).slice(0, 300);
  }
  ["error", "warn"].forEach(function (level) {
    const orig = console[level];
    console[level] = function () {
      count(Array.from(arguments).join(" "));
      orig.apply(console, arguments);
    };
  });
  window.addEventListener("error", function (e) {
    count(e.message || "a resource failed to load");
  }, true);
  window.addEventListener("unhandledrejection", function (e) { count(e.reason); });
})();
</script>"""


def _browser() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A generator smoke run, a competition run of our agents with preferences, and a
    `compete` run of a competition agent (each a second or less)."""
    base = tmp_path_factory.mktemp("runs")
    out = {"generator": base / "gen", "competition": base / "comp", "compete": base / "agent"}
    assert main(["run", "scenarios/smoke.toml", "--out", str(out["generator"]),
                 "--no-progress"]) == 0
    assert main(["run", "scenarios/competition-rules.toml", "--out",
                 str(out["competition"])]) == 0
    assert main(["compete", "scenarios/competition-smoke.toml", "--agent", AGENT, "--out",
                 str(out["compete"]), "--timestamp", "20260301_000000"]) == 0
    return out


def _open(page: Path, shot: Path) -> tuple[str, str]:
    """Load the page (with the error-counting prelude) in headless Chromium; -> (DOM after the
    scripts ran, the browser's log)."""
    browser = _browser()
    if browser is None:
        pytest.skip("no chromium: run scripts/install-browser.sh (make test does)")
    probe = page.with_name(page.stem + "-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("<head>", "<head>" + PRELUDE, 1),
                     encoding="utf-8")
    shot.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--enable-logging=stderr", "--v=0",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1400,2300",
         "--virtual-time-budget=8000", f"--screenshot={shot}", "--dump-dom",
         probe.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, proc.stderr


def _div(dom: str, div_id: str) -> str:
    m = re.search(rf'<div[^>]*\bid="{div_id}"[^>]*>', dom)
    assert m is not None, f"no #{div_id} in the page"
    return m.group(0)


def _drawn(dom: str, div_id: str) -> int:
    tag = _div(dom, div_id)
    assert "js-plotly-plot" in tag, f"#{div_id} was not drawn by Plotly: {tag}"
    m = re.search(r'data-drawn="(\d+)"', tag)
    assert m is not None, f"#{div_id} has no drawn figure: {tag}"
    return int(m.group(1))


def _check_page(dom: str, log: str) -> None:
    root = re.search(r"<html[^>]*>", dom)
    assert root is not None
    assert 'data-console-errors="0"' in root.group(0), root.group(0)
    console = [x for x in log.splitlines() if ":CONSOLE" in x]
    assert console == [], console
    assert _drawn(dom, "timeline-0") > 0
    assert _drawn(dom, "hours-0") == 24  # the day x hour grid
    # the map: the counties (one shape each) under the driver's route
    assert _drawn(dom, "map-0") > 0
    map_at = dom.index('id="map-0"')
    section = dom[map_at:dom.index("<h2>Penalties</h2>", map_at)]
    assert section.count('class="scatterlayer') >= 1
    assert section.count("<path") > 124


def _no_fetch(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text), "the page loads a file"


def test_competition_report_in_a_browser(runs, tmp_path) -> None:
    page = tmp_path / "comp.html"
    assert main(["report", str(runs["competition"]), "--out", str(page)]) == 0
    _no_fetch(page)
    dom, log = _open(page, ARTIFACTS / "competition.png")
    _check_page(dom, log)
    assert "K1 daily_continuous_rest" in dom  # the penalties table names each rule
    assert _drawn(dom, "pen-kind-0") > 0
    assert (ARTIFACTS / "competition.png").stat().st_size > 10_000


def test_generator_report_in_a_browser(runs, tmp_path) -> None:
    page = build_report([runs["generator"]], tmp_path / "gen.html")
    _no_fetch(page)
    dom, log = _open(page, ARTIFACTS / "generator.png")
    _check_page(dom, log)
    assert _drawn(dom, "llm-0-0") > 0  # tokens per step by agent (rules memory)
    assert (ARTIFACTS / "generator.png").stat().st_size > 10_000


def test_competition_money_and_fines_match_the_scorer(runs) -> None:
    """The timeline's running income ends at the scorer's gross - km cost, and the fines its
    marks carry add up to each driver's penalty."""
    run = read_run(runs["competition"])
    income = json.loads((runs["competition"] / "competition" /
                         "monthly_income_202603.json").read_text(encoding="utf-8"))
    scorer = {d["driver_id"]: d["income"] for d in income["drivers"]}
    assert {d.driver_id for d in run.drivers} == set(scorer)
    for d in run.drivers:
        want = scorer[d.driver_id]
        assert sum(m.amount for m in d.money) == pytest.approx(
            want["gross_income"] - want["cost"], abs=0.01)
        assert sum(m.fine for m in d.marks) == pytest.approx(want["preference_penalty"],
                                                             abs=0.02)
        assert d.score == pytest.approx(want["net_income"])
        # every take is split: pickup drive, then window wait, then haul, back to back
        takes = [s for s in d.segments if s.phase in (Phase.PICKUP, Phase.WINDOW_WAIT,
                                                      Phase.HAUL)]
        assert len(takes) == 3 * d.orders > 0
        for a, b in zip(takes[::3], takes[1::3], strict=True):
            assert a.end == b.start
            assert a.step == b.step
    # K17 (a circle around a home) is drawn on that driver's map
    assert any(a.shape == "circle" for a in run.driver("D002").areas)


def test_logs_without_the_scorers_file_are_scored(runs, tmp_path) -> None:
    """A folder of action logs with no income file (another orchestrator's, say) is scored
    afresh, over the cargo the logs name only; it must read as the run's own scoring."""
    folder = tmp_path / "logs"
    shutil.copytree(runs["competition"] / "competition", folder)
    (folder / "monthly_income_202603.json").unlink()
    fresh, own = read_run(folder), read_run(runs["competition"])
    assert [(d.driver_id, d.gross, d.km, d.penalty, d.score) for d in fresh.drivers] == [
        (d.driver_id, d.gross, d.km, d.penalty, d.score) for d in own.drivers]
    assert [(r.label, r.penalty, r.counters) for r in fresh.rules] == [
        (r.label, r.penalty, r.counters) for r in own.rules]


def test_generator_money_and_marks(runs) -> None:
    import pandas as pd

    run = read_run(runs["generator"])
    drivers = pd.read_parquet(runs["generator"] / "drivers.parquet").set_index("driver_id")
    for d in run.drivers:
        assert sum(m.amount for m in d.money) == pytest.approx(drivers.at[d.driver_id,
                                                                          "income"], abs=0.01)
        assert sum(m.fine for m in d.marks) == pytest.approx(drivers.at[d.driver_id,
                                                                        "penalty"], abs=0.02)
        assert d.steps == int(drivers.at[d.driver_id, "searches"] + drivers.at[
            d.driver_id, "waits"] + drivers.at[d.driver_id, "repositions"] + d.orders
            + drivers.at[d.driver_id, "failed_takes"])


def test_two_runs_compared(runs, tmp_path, capsys) -> None:
    page = tmp_path / "two.html"
    assert main(["report", str(runs["competition"]), str(runs["compete"]), "--out",
                 str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    a, b = read_run(runs["competition"]), read_run(runs["compete"])
    d = "D001"
    delta = b.driver(d).score - a.driver(d).score
    row = re.search(rf'<tr class=pick data-driver="{d}">(.*?)</tr>', text)
    assert row is not None
    assert f'data-v="{delta:.4f}"' in row.group(1)
    assert "run B" in text
    assert "timeline-1" in text


def test_bad_input_is_one_line(tmp_path, capsys) -> None:
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "no such run directory" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "not a generator run directory" in capsys.readouterr().err
    assert main(["report", str(tmp_path), str(tmp_path), str(tmp_path)]) == 2
    assert "one run directory, or two to compare" in capsys.readouterr().err


def test_large_runs_are_thinned_and_say_so(monkeypatch) -> None:
    from agents.app.report import reduce
    from agents.app.report.model import DriverTrace, RunData, Segment

    monkeypatch.setattr(reduce, "SEGMENT_BUDGET", 3_000)
    monkeypatch.setattr(reduce, "ROUTE_POINTS", 100)
    drivers = []
    for i in range(3):
        d = DriverTrace(f"D{i}", 0, 0, 0, 0, 0, 0, 0, 0)
        t = 0.0
        for k in range(2_000):  # 1-minute searches in pairs, then a long wait
            phase, length = ((Phase.SEARCH, 1.0) if k % 3 else (Phase.WAIT, 30.0 + k % 7))
            d.segments.append(Segment(phase, t, t + length, k + 1))
            t += length
        d.route = [(float(k), 23.0, 113.0) for k in range(1_000)]
        drivers.append(d)
    run = RunData("x", "generator", "x", 1e6, drivers, [])
    reduce.reduce_run(run)
    assert sum(len(d.segments) for d in run.drivers) <= 3_000
    for d in run.drivers:
        assert len(d.route) <= 101
        # the longest bars are kept: every wait survives the cut
        assert sum(s.phase is Phase.WAIT for s in d.segments) == 667
    assert any("sampled" in n for n in run.notes)
    assert any("route drawn through" in n for n in run.notes)


def test_every_rule_place_is_found_for_the_map() -> None:
    """Each phrasing of the eval set whose reading names a place (a box, a circle, a point, a
    county or city) gets that place drawn; the others draw nothing."""
    from agents.app.report.rules import areas_of

    geometric = {"stay_inside_bbox", "forbidden_circle", "date_region_avoid", "min_visit_days",
                 "dwell_at_point_on_day", "route_stops_on_day", "home_stay_event",
                 "home_by_curfew", "forbidden_cargo_place", "min_region_order_days"}
    rows = [json.loads(x) for x in (ROOT / "data" / "preference_eval.jsonl").read_text(
        encoding="utf-8").splitlines() if x.strip()]
    for row in rows:
        areas = areas_of(row["params"], row["kind"])
        assert bool(areas) == (row["kind"] in geometric), row["id"]
        if row["kind"] == "stay_inside_bbox":
            (box,) = areas
            assert (box.shape, box.lat_min, box.lng_max) == (
                "box", row["params"]["lat_min"], row["params"]["lng_max"])
        if row["kind"] == "route_stops_on_day":
            assert len(areas) == len(row["params"]["stops"])
