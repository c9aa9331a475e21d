"""`freightsim bench` (report, ratios, regression gate), `freightsim sweep` (a dataset readable
by pandas), and both notebooks executed for real on small runs."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient

from agents.app.bench import check
from tests.conftest import ROOT, SCENARIOS, cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def committed_gate(tmp_path_factory: pytest.TempPathFactory
                   ) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The CI gate's run: scenarios/bench.toml checked against the committed baseline. Its
    report is also the bench every other test here reads (one run of every mode, not two)."""
    out = tmp_path_factory.mktemp("bench")
    proc = cli("bench", str(SCENARIOS / "bench.toml"), "--out", str(out),
               "--baseline", str(ROOT / "benchmarks" / "baselines" / "bench.json"), "--check",
               timeout=900)
    return out, proc


@pytest.fixture(scope="module")
def bench_dir(committed_gate: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    out, proc = committed_gate
    assert (out / "report.json").is_file(), proc.stderr  # written whether the gate held or not
    assert "| prompt tokens/step mean |" in proc.stdout
    return out


def test_bench_report_has_every_mode_and_ratio(bench_dir: Path) -> None:
    r = json.loads((bench_dir / "report.json").read_text())
    # the ablation modes run beside the others
    assert set(r["modes"]) == {"full", "bounded", "bounded-filtered", "compressed-unfiltered",
                               "compressed", "cargo", "cargo-market", "cargo-market-driver"}
    m = r["modes"]
    # filtering alone and digesting alone each cut tokens, and decisions do not move
    assert m["bounded-filtered"]["tokens_per_step"]["by_agent"]["cargo_analyst"] < m["bounded"][
        "tokens_per_step"]["by_agent"]["cargo_analyst"]
    assert m["compressed-unfiltered"]["tokens_per_step"]["mean"] < m["bounded"][
        "tokens_per_step"]["mean"]
    assert m["compressed"]["tokens_per_step"]["mean"] < m["compressed-unfiltered"][
        "tokens_per_step"]["mean"]
    # (the view-format modes: the layer modes decide with less memory, by design)
    formats = ("full", "bounded", "bounded-filtered", "compressed-unfiltered", "compressed")
    assert len({m[x]["quality"]["orders"] for x in formats}) == 1
    a = r["ablation"]["filter_first"]
    assert a["filtering"] + a["digest_and_compact"] == pytest.approx(
        r["ablation"]["cut_tokens_per_step"], abs=0.05)
    assert a["compact"] + a["digest"] == pytest.approx(a["digest_and_compact"], abs=0.05)
    rec = r["quality"]["fact_recall"]
    assert set(rec) == set(m)
    assert all(0 < x <= 1 for x in rec.values())
    assert rec["compressed"] >= 0.98 * rec["bounded"]
    assert set(r["quality"]["fact_recall_by_agent"]["bounded"]) == {
        "search", "preference", "cargo_analyst", "main_decision"}
    assert all(x is None for x in r["quality"]["hindsight_share"].values())  # shared world
    md = (bench_dir / "report.md").read_text()
    assert "| mode | tokens/step |" in md
    assert "Filtering (bounded -> bounded-filtered)" in md
    assert m["full"]["tokens_per_step"]["mean"] > m["bounded"]["tokens_per_step"]["mean"]
    assert m["compressed"]["compression"]["calls"] > 0
    assert m["bounded"]["compression"]["calls"] == 0
    ratio = r["ratios"]["compressed_vs_bounded"]["tokens_per_step"]
    assert ratio == pytest.approx(m["compressed"]["tokens_per_step"]["mean"]
                                  / m["bounded"]["tokens_per_step"]["mean"], rel=1e-3)
    for mode in m.values():
        assert set(mode["tokens_per_step"]["by_agent"]) == {
            "search", "preference", "cargo_analyst", "main_decision"}
        assert mode["quality"]["net_income_per_driver_day"] > 0


def test_gate_passes_on_same_code_and_fails_on_regression(bench_dir: Path) -> None:
    # one rerun, checked against a baseline that was leaner: it must fail, name what moved, and
    # (same code, same figures) pass against the first run's report. The CLI's passing exit is
    # the committed gate's test below.
    base = json.loads((bench_dir / "report.json").read_text())
    tighter = json.loads(json.dumps(base))
    tighter["modes"]["bounded"]["tokens_per_step"]["mean"] *= 0.9  # pretend we used to be leaner
    tighter["modes"]["compressed"]["quality"]["net_income_per_driver_day"] *= 1.2
    # and pretend the compressed memory used to save more against bounded
    tighter["ratios"]["compressed_vs_bounded"]["tokens_per_step_with_compression"] *= 0.9
    (bench_dir / "tight.json").write_text(json.dumps(tighter))
    proc = cli("bench", str(SCENARIOS / "bench.toml"), "--out",
               str(bench_dir / "again"), "--baseline", str(bench_dir / "tight.json"),
               "--check", "--modes", "bounded,compressed")
    assert proc.returncode == 1
    assert "bounded: tokens_per_step.mean" in proc.stderr
    assert "compressed: quality.net_income_per_driver_day" in proc.stderr
    again = json.loads((bench_dir / "again" / "report.json").read_text())
    assert set(again["modes"]) == {"bounded", "compressed"}
    for mode in again["modes"]:  # exact tokens and income: same code, same figures
        assert again["modes"][mode]["tokens_per_step"] == base["modes"][mode]["tokens_per_step"]
        assert again["modes"][mode]["quality"] == base["modes"][mode]["quality"]
    assert check(again, base) == []
    moved = check(base, tighter)
    assert {(r.mode, r.figure) for r in moved} == {
        ("bounded", "tokens_per_step.mean"), ("compressed", "quality.net_income_per_driver_day"),
        ("compressed_vs_bounded", "ratio.tokens_per_step_with_compression")}


def test_committed_baseline_gate(committed_gate: tuple[Path, subprocess.CompletedProcess[str]]
                                 ) -> None:
    """The CI gate: the committed baseline for scenarios/bench.toml still holds."""
    _, proc = committed_gate
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr


def test_committed_competition_baseline_gate(tmp_path: Path) -> None:
    """The CI gate under competition rules: our agents in each mode and the greedy baseline
    under the official loop, income and share of the hindsight optimum against the baseline."""
    baseline = ROOT / "benchmarks" / "baselines" / "bench-competition.json"
    out = tmp_path / "bench-competition"
    agent = "tests/agents/comp_agent.py:ModelDecisionService"
    proc = cli("bench", str(SCENARIOS / "bench-competition.toml"), "--out", str(out),
               "--baseline", str(baseline), "--check", "--agent", agent, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    r = json.loads((out / "report.json").read_text())
    assert "off" in r["modes"]
    md = (out / "report.md").read_text()
    assert "share of hindsight optimum" in md
    # a third-party agent in the same table, scored the official way like our modes
    official = json.loads(next((out / "agents").glob("1-*/competition/monthly_income_*.json"))
                          .read_text())["summary"]
    row = r["agents"][agent]
    assert row["quality"]["official"]["net_income"] == pytest.approx(
        official["total_net_income_all_drivers"])
    assert row["quality"]["official"]["preference_penalty"] == pytest.approx(
        official["total_preference_penalty"])
    assert sum(row["quality"]["official"]["penalty_by_kind"].values()) == pytest.approx(
        official["total_preference_penalty"])
    assert f"| {agent} | agent |" in md
    assert 0 < r["quality"]["hindsight_share"][agent] <= 1
    # the bound says what it is: exact on this small market, with a relaxed bound above it
    h = r["quality"]["hindsight_optimum"]
    assert h["bound"] == "exact optimum"
    assert h["upper"] >= h["net"] > 0
    assert "| hindsight plan | exact optimum |" in md
    assert "| hindsight bound | relaxed upper bound |" in md
    # the optimum bounds every policy: each share lies in (0, 1], and follows the income
    share = r["quality"]["hindsight_share"]
    assert all(0 < x <= 1 for x in share.values())
    best = r["quality"]["hindsight_optimum"]["net_per_driver_day"]
    for mode, m in r["modes"].items():
        assert share[mode] == pytest.approx(m["quality"]["net_income_per_driver_day"] / best,
                                            abs=1e-3)
    base = json.loads(baseline.read_text())
    worse = json.loads(json.dumps(base))
    for m in worse["modes"].values():
        m["quality"]["net_income_per_driver_day"] *= 1.2  # pretend we used to earn more
    worse["quality"]["hindsight_share"]["compressed"] += 0.1
    (tmp_path / "worse.json").write_text(json.dumps(worse))
    from agents.app.bench_competition import check_competition

    moved = {(x.mode, x.figure) for x in check_competition(r, worse)}
    assert {f for _, f in moved} == {"quality.net_income_per_driver_day",
                                     "quality.hindsight_share"}
    assert ("compressed", "quality.hindsight_share") in moved


def test_bench_agent_needs_competition_rules_and_each_agent_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agents.app.cli import main

    agent = "tests/agents/comp_agent.py:ModelDecisionService"
    assert main(["bench", str(SCENARIOS / "bench.toml"), "--out", str(tmp_path / "a"),
                 "--agent", agent]) == 2
    err = capsys.readouterr().err
    assert "--agent" in err
    assert "competition" in err
    assert main(["bench", str(SCENARIOS / "bench-competition.toml"), "--out",
                 str(tmp_path / "b"), "--agent", agent, "--agent", agent]) == 2
    assert "repeated" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", str(SCENARIOS / "bench-competition.toml"), "--hindsight-time-limit",
              "-1"])
    assert "--hindsight-time-limit" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
    assert not (tmp_path / "b").exists()


def test_sweep_dataset_is_readable(tmp_path: Path) -> None:
    proc = cli("sweep", str(SCENARIOS / "smoke.toml"), "--seeds", "1,2", "--modes",
               "off,bounded", "--out", str(tmp_path), "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    runs = pd.read_parquet(tmp_path / "runs.parquet")
    assert len(runs) == 4
    assert set(runs.memory) == {"off", "bounded"}
    steps = pd.read_parquet(tmp_path / "dataset" / "steps")
    assert set(steps.run_id.astype(str)) == {"smoke-s1-bounded", "smoke-s2-bounded"}
    drivers = pd.read_parquet(tmp_path / "dataset" / "drivers")
    assert drivers.run_id.nunique() == 4
    assert len(drivers) == 4 * 5
    # seed changes the run, mode changes the policy: four distinct outcomes
    assert runs.score.nunique() == 4


def _execute(name: str, env: dict[str, str], plots: Path) -> None:
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT)}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


def test_compare_modes_notebook(bench_dir: Path, tmp_path: Path) -> None:
    _execute("compare_modes.ipynb", {"FREIGHTSIM_BENCH_DIR": str(bench_dir),
                                     "FREIGHTSIM_PLOTS_DIR": str(tmp_path)}, tmp_path)
    for png in ("tokens_over_time.png", "latency.png", "quality.png"):
        assert (tmp_path / png).stat().st_size > 5000


def test_explore_run_notebook(bench_dir: Path, tmp_path: Path) -> None:
    _execute("explore_run.ipynb", {"FREIGHTSIM_RUN_DIR": str(bench_dir / "bounded"),
                                   "FREIGHTSIM_PLOTS_DIR": str(tmp_path)}, tmp_path)
    for png in ("income_per_driver.png", "actions_over_time.png", "market_value_map.png"):
        assert (tmp_path / png).stat().st_size > 5000


def test_market_calibration_notebook(tmp_path: Path) -> None:
    _execute("market_calibration.ipynb", {"FREIGHTSIM_PLOTS_DIR": str(tmp_path),
                                          "FREIGHTSIM_CALIB_DAYS": "1"}, tmp_path)
    for png in ("volume_by_hour.png", "origin_share.png", "haul_km.png", "price_vs_km.png",
                "execution_vs_km.png", "online_minutes.png", "categories.png"):
        assert (tmp_path / png).stat().st_size > 5000
    table = (tmp_path / "calibration_table.md").read_text(encoding="utf-8").splitlines()
    assert table[0] == "| figure | generated | reported (docs/competition.md §9) |"
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table[2:]}
    assert {"cargo per day", "haul km: min / median / max", "categories",
            "take execution (pickup + window wait + cost time)"} <= set(rows)
