"""Wall time of an LLM-driven run, decisions one at a time vs many in flight.

usage: python benchmarks/llm_concurrency.py [SCENARIO] [--quick] [--drivers 100]
           [--steps K] [--days D] [--concurrency 25,100] [--window 30] [--time-scale S]
           [--memory bounded] [--base-url URL] [--no-replay-check] [--out report.json]

The scenario's rules pick the world (default scenarios/competition.toml):

Competition rules (independent drivers, docs/competition.md): each driver is its own world, so all
of them can have a decision in flight. Our agents run under the official loop
(agents/app/compete.py) with the `llm` backend, `--drivers` drawn drivers, one simulated day
and at most `--steps` decision steps per driver, first with `[llm] concurrency = 1` (drivers one
after another: the sequential run), then at each `--concurrency`. The calibrated market is drawn
once and every run reads it. Compared: every action log line, the run summary and the official
income file (less their wall-clock fields) and the per-preference penalties; the concurrent run
is recorded and replayed without a server, and the replay must write the very same files. The
timed figure is the decision loop (the official summary's `simulate_time_seconds`); the whole
run (data, driver setup, scoring: the same in every run) is printed beside it.
`--quick`: 100 drivers x 2 steps at time scale 0.2 (under 4 minutes on 2 busy cores); without
it: 100 drivers x 10 steps at time scale 0.6, concurrency 100 (about 47 minutes, most
of it the sequential run).

Otherwise (the shared generator world, e.g. scenarios/month.toml): the `llm` backend with a
lookahead window of `--window` simulated minutes (sim.world.dispatch), concurrency 1 then each level
(default 32,128); event logs compared without latencies, the concurrent run replayed.
`--quick`: 100 drivers, 90 simulated minutes, time scale 0.3; without it the whole scenario at
time scale 0.01.

The server is the emulated one (agents/testing/emulated_server.py, its default latency model:
a 30B-class MoE, ~3B active, on one data-centre GPU; prefill 10,000 tok/s, decode 60 tok/s per
sequence, 128 sequences batched, 50 ms per request), started in a subprocess so its threads do
not share this process's interpreter lock, with every duration times `--time-scale`. With
`--base-url` a real OpenAI-compatible server is used instead (in-flight figures from the server
are then not available).

The last line is exactly:
  speedup <x>x (sequential <s> s, concurrent <c> s, identical events: yes|no)
for the highest concurrency.

What bounds the speedup. Concurrent wall is about max(one driver's critical path, the client
process's CPU for all steps), since model calls, prompts and the world step run under one
interpreter lock; sequential wall is the sum over steps of (latency + CPU). So the ratio is at
most min(drivers, (latency + CPU) / CPU per step). Our client path costs about 25-30 ms of CPU
per competition step (7 model calls, ~1.5 ms each in the `openai` client, the rest prompts,
memory and the world), so a large ratio needs latency per step well above a second: the time
scale. In the shared world batches follow one another, each as long as its slowest decision,
so decisions per batch cap it too (about 20 at 100 drivers and a 30-minute window).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.app.runner import run_scenario  # noqa: E402
from sim.scenario import load_scenario  # noqa: E402
from sim.world.recorder import read_events, without_wall_clock  # noqa: E402


def start_server(time_scale: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "agents.testing.emulated_server",
                             "--time-scale", str(time_scale)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    if not url.startswith("http"):
        proc.kill()
        raise SystemExit("the emulated server did not start")
    return proc, url


def server_stats(url: str, reset: bool) -> dict | None:
    try:
        q = "?reset" if reset else ""
        with urllib.request.urlopen(f"{url}/stats{q}", timeout=10) as r:
            return json.loads(r.read())
    except OSError:
        return None


def in_flight_summary(stats: dict | None, buckets: int = 10) -> dict:
    """Time-weighted mean and peak of requests in service, and the mean per tenth of the run."""
    if not stats or len(stats["trace"]) < 2:
        return {"max": None, "mean": None, "timeline": []}
    t = np.array([p[0] for p in stats["trace"]])
    n = np.array([p[1] for p in stats["trace"]], dtype=float)
    dt = np.diff(t)
    total = t[-1] - t[0]
    mean = float((n[:-1] * dt).sum() / total) if total > 0 else float(n.mean())
    edges = np.linspace(t[0], t[-1], buckets + 1)
    timeline = []
    for a, b in itertools.pairwise(edges):
        # time-weighted mean over [a, b): clip each segment to the bucket
        lo, hi = np.clip(t[:-1], a, b), np.clip(t[1:], a, b)
        w = hi - lo
        timeline.append(round(float((n[:-1] * w).sum() / w.sum()), 1) if w.sum() > 0 else 0.0)
    return {"max": int(n.max()), "mean": round(mean, 1), "timeline": timeline}


def mean_batch(dispatch: dict | None) -> float | None:
    """Decisions per batch: with real latencies the speedup cannot pass it (batches follow
    one another, each as long as its slowest decision)."""
    if not dispatch or not dispatch["decision_batches"]:
        return None
    return round(dispatch["batched_decisions"] / dispatch["decision_batches"], 1)


def comparable(events: pd.DataFrame) -> pd.DataFrame:
    return without_wall_clock(events)


def one_run(sc, url: str, concurrency: int, out: Path, cache: Path | None) -> dict:
    llm = {"base_url": url, "concurrency": concurrency}
    if cache is not None:
        llm["cache"] = str(cache)
    server_stats(url, reset=True)
    t0 = time.perf_counter()
    result = run_scenario(sc.with_overrides(llm=llm), out)
    wall = time.perf_counter() - t0
    s = result.summary
    return {"concurrency": concurrency, "wall_s": round(wall, 2), "steps": s.get("steps"),
            "agent_calls": s.get("agent_calls"), "dispatch": s.get("dispatch"),
            "in_flight": in_flight_summary(server_stats(url, reset=False)),
            "events": comparable(read_events(out).to_pandas())}


# competition runs' sizes: drivers x steps is the work, the time scale sets how much of each
# step is waiting for the (emulated) server
QUICK_COMPETITION = {"steps": 2, "time_scale": 0.2, "concurrency": "100"}
FULL_COMPETITION = {"steps": 10, "time_scale": 0.6, "concurrency": "100"}
STAMP = "20260301_000000"  # fixed log names, so two runs' files pair up by name
WALL_CLOCK_SUMMARY = ("simulate_time_seconds", "driver_decision_latency", "driver_result_files")


def competition_outputs(comp: Path) -> dict[str, object]:
    """What a competition run wrote, keyed by file name, without its wall-clock figures: every
    action log line, the run summary (less its timings and absolute paths), the official
    income file and the per-preference penalties."""
    out: dict[str, object] = {}
    for f in sorted(comp.glob("actions_*.jsonl")):
        out[f.name] = f.read_text(encoding="utf-8")
    summary = json.loads((comp / "run_summary_202603.json").read_text(encoding="utf-8"))
    out["run_summary"] = {k: v for k, v in summary.items() if k not in WALL_CLOCK_SUMMARY}
    income = comp / "monthly_income_202603.json"
    if income.is_file():
        scores = json.loads(income.read_text(encoding="utf-8"))
        out[income.name] = {k: v for k, v in scores.items() if k not in WALL_CLOCK_SUMMARY}
    if (comp / "score_preferences.tsv").is_file():
        out["score_preferences.tsv"] = (comp / "score_preferences.tsv").read_text(encoding="utf-8")
    return out


def competition_run(sc, url: str | None, concurrency: int, out: Path, cache: Path | None,
                    replay: bool = False) -> dict:
    """One competition run (our agents under the official loop, agents/app/compete.py):
    `loop_s` is the decision loop's wall time (the official summary's simulate_time_seconds),
    `wall_s` the whole run (data, setup, scoring included)."""
    from agents.app.compete import run_competition

    llm: dict = {"concurrency": concurrency}
    if url is not None:
        llm["base_url"] = url
    if cache is not None:
        llm["cache"] = str(cache)
    if replay:
        llm["replay"] = True
    if url is not None:
        server_stats(url, reset=True)
    t0 = time.perf_counter()
    summary = run_competition(sc.with_overrides(llm=llm), out, stamp=STAMP)
    wall = time.perf_counter() - t0
    steps = summary["driver_completed_steps"]
    # each driver's time inside decide: run alone (concurrency 1) the slowest one is the
    # least a concurrent run can take, however many drivers are in flight
    per_driver = [x["total_seconds"] for x in summary["driver_decision_latency"].values()]
    return {"concurrency": concurrency, "wall_s": round(wall, 2),
            "slowest_driver_s": max(per_driver, default=None),
            "mean_driver_s": round(sum(per_driver) / len(per_driver), 2) if per_driver else None,
            "loop_s": summary["simulate_time_seconds"], "steps": summary["completed_steps"],
            "steps_per_driver": [min(steps.values()), max(steps.values())] if steps else None,
            "end_reasons": sorted(set(summary["driver_end_reasons"].values())),
            "failures": len(summary["driver_simulation_failures"]),
            "in_flight": in_flight_summary(server_stats(url, reset=False) if url else None),
            "outputs": competition_outputs(out / "competition")}


def main_competition(a, sc, levels: list[int], url: str, scale: float | None) -> int:
    """Independent drivers (docs/competition.md): every driver its own world, so all of them can
    have a decision in flight. The calibrated market is drawn once, so every run reads the
    same cargo file."""
    from agents.app.compete import official_cargo_file

    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="llm-concurrency-") as tmp:
        tmp_p = Path(tmp)
        if not sc.cargo.file:
            cargo = official_cargo_file(sc, tmp_p / "cargo.jsonl")
            sc = sc.with_overrides(cargo={"file": str(cargo)})
        print(f"{sc.scenario.name} (competition, independent drivers): {a.drivers} drivers, "
              f"{int(sc.scenario.days)} day(s), at most {sc.scenario.max_steps} steps per "
              f"driver, memory {a.memory}, "
              f"{'server ' + url if a.base_url else f'emulated server x{scale:g}'}", flush=True)
        seq = competition_run(sc, url, 1, tmp_p / "seq", None)
        print(f"  concurrency 1: loop {seq['loop_s']} s (whole run {seq['wall_s']} s), "
              f"{seq['steps']} steps, in flight max {seq['in_flight']['max']}", flush=True)
        rows.append(seq)
        for c in levels:
            cache = tmp_p / f"cache-{c}.jsonl"
            r = competition_run(sc, url, c, tmp_p / f"c{c}", cache)
            r["identical"] = r["outputs"] == seq["outputs"]
            r["speedup"] = round(seq["loop_s"] / max(r["loop_s"], 1e-9), 2)
            r["speedup_whole_run"] = round(seq["wall_s"] / r["wall_s"], 2)
            if not a.no_replay_check:
                rep = competition_run(sc, None, 1, tmp_p / f"replay{c}", cache, replay=True)
                r["replay_identical"] = rep["outputs"] == r["outputs"]
            print(f"  concurrency {c}: loop {r['loop_s']} s (whole run {r['wall_s']} s), speedup "
                  f"{r['speedup']}x (whole run {r['speedup_whole_run']}x), in flight max "
                  f"{r['in_flight']['max']} mean {r['in_flight']['mean']}, identical "
                  f"{'yes' if r['identical'] else 'no'}, replay identical "
                  f"{r.get('replay_identical')}", flush=True)
            rows.append(r)
    print()
    print("| drivers | concurrency | loop s | whole run s | speedup (loop) | speedup (whole) | "
          "in flight max | in flight mean | identical | replay identical |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {a.drivers} | {r['concurrency']} | {r['loop_s']} | {r['wall_s']} | "
              f"{r.get('speedup', 1.0)} | {r.get('speedup_whole_run', 1.0)} | "
              f"{r['in_flight']['max']} | {r['in_flight']['mean']} | "
              f"{'yes' if r.get('identical', True) else 'no'} | "
              f"{r.get('replay_identical', '-')} |")
    best = rows[-1]
    print(f"steps {seq['steps']} (per driver {seq['steps_per_driver']}), end reasons "
          f"{seq['end_reasons']}, failures {seq['failures']}")
    if seq["slowest_driver_s"]:
        print(f"sequential time in decide per driver: mean {seq['mean_driver_s']} s, slowest "
              f"{seq['slowest_driver_s']} s: no concurrency can beat "
              f"{round(seq['loop_s'] / seq['slowest_driver_s'], 1)}x (sequential loop / slowest "
              f"driver)")
    print(f"in flight over time (concurrency {best['concurrency']}, tenths of the run): "
          f"{best['in_flight']['timeline']}")
    if a.out:
        Path(a.out).write_text(json.dumps(
            {"world": "competition", "drivers": a.drivers, "days": int(sc.scenario.days),
             "max_steps": sc.scenario.max_steps, "memory": a.memory, "time_scale": scale,
             "server": a.base_url or "emulated", "concurrency_levels": levels,
             "runs": [{k: v for k, v in r.items() if k != "outputs"} for r in rows]},
            indent=2))
    ok = all(r.get("identical", True) and r.get("replay_identical", True) for r in rows)
    print(f"speedup {best['speedup']}x (sequential {seq['loop_s']} s, concurrent "
          f"{best['loop_s']} s, identical events: {'yes' if ok else 'no'})")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "competition.toml"),
                    help="competition rules: independent drivers; otherwise the shared world")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--drivers", type=int, default=100)
    ap.add_argument("--days", type=float, default=None)
    ap.add_argument("--steps", type=int, default=None,
                    help="competition: at most this many decision steps per driver")
    ap.add_argument("--window", type=float, default=30.0,
                    help="shared world: lookahead, simulated minutes")
    ap.add_argument("--concurrency", default=None,
                    help="comma-separated levels (competition 100, shared world 32,128)")
    ap.add_argument("--time-scale", type=float, default=None)
    ap.add_argument("--memory", default="bounded")
    ap.add_argument("--base-url", default=None)
    ap.add_argument("--no-replay-check", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    sc = load_scenario(a.scenario)
    competition = sc.scenario.ruleset == "competition"
    over: dict = {"drivers": {"count": a.drivers}, "memory": {"mode": a.memory},
                  "llm": {"backend": "llm", "response_format": "json_schema", "max_retries": 1,
                          "timeout_s": 600.0}}
    if competition:
        q = QUICK_COMPETITION if a.quick else FULL_COMPETITION
        days = a.days if a.days is not None else 1
        scale = a.time_scale if a.time_scale is not None else q["time_scale"]
        over["scenario"] = {"days": days, "max_steps": a.steps or q["steps"]}
        if sc.drivers.file is not None:  # the drivers are drawn, so --drivers holds
            over["drivers"]["file"] = None
        levels = [min(int(x), a.drivers) for x in (a.concurrency or q["concurrency"]).split(",")]
    else:
        days = a.days if a.days is not None else (1.5 / 24 if a.quick else None)
        scale = a.time_scale if a.time_scale is not None else (0.3 if a.quick else 0.01)
        over["llm"]["lookahead_minutes"] = a.window
        if days is not None:
            over["scenario"] = {"days": days}
        levels = [int(x) for x in (a.concurrency or "32,128").split(",")]
    sc = sc.with_overrides(**over)
    proc = None
    url = a.base_url
    if url is None:
        proc, url = start_server(scale)
    if competition:
        try:
            return main_competition(a, sc, levels, url, scale)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=10)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="llm-concurrency-") as tmp:
            tmp_p = Path(tmp)
            print(f"{sc.scenario.name}: {a.drivers} drivers, {sc.scenario.days:g} days, memory "
                  f"{a.memory}, window {a.window:g} min, "
                  f"{'server ' + url if a.base_url else f'emulated server x{scale:g}'}",
                  flush=True)
            seq = one_run(sc, url, 1, tmp_p / "seq", tmp_p / "cache-seq.jsonl")
            print(f"  concurrency 1: {seq['wall_s']} s, {seq['steps']} steps, "
                  f"in flight max {seq['in_flight']['max']}", flush=True)
            rows.append(seq)
            for c in levels:
                cache = tmp_p / f"cache-{c}.jsonl"
                r = one_run(sc, url, c, tmp_p / f"c{c}", cache)
                r["identical"] = r["events"].equals(seq["events"])
                r["speedup"] = round(seq["wall_s"] / r["wall_s"], 2)
                if not a.no_replay_check:
                    rep = run_scenario(sc.with_overrides(llm={"cache": str(cache),
                                                              "replay": True,
                                                              "concurrency": 1}),
                                       tmp_p / f"replay{c}")
                    del rep
                    a_ev = read_events(tmp_p / f"c{c}").to_pandas()
                    b_ev = read_events(tmp_p / f"replay{c}").to_pandas()
                    r["replay_identical"] = a_ev.equals(b_ev)
                print(f"  concurrency {c}: {r['wall_s']} s, speedup {r['speedup']}x, in flight "
                      f"max {r['in_flight']['max']} mean {r['in_flight']['mean']}, decisions "
                      f"per batch {mean_batch(r['dispatch'])} (largest "
                      f"{(r['dispatch'] or {}).get('max_decision_batch')}), identical "
                      f"{'yes' if r['identical'] else 'no'}, replay identical "
                      f"{r.get('replay_identical')}", flush=True)
                rows.append(r)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    print()
    print("| drivers | concurrency | wall s | speedup | in flight max | in flight mean | "
          "identical | replay identical |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {a.drivers} | {r['concurrency']} | {r['wall_s']} | {r.get('speedup', 1.0)} | "
              f"{r['in_flight']['max']} | {r['in_flight']['mean']} | "
              f"{'yes' if r.get('identical', True) else 'no'} | "
              f"{r.get('replay_identical', '-')} |")
    best = rows[-1]
    print(f"in flight over time (concurrency {best['concurrency']}, tenths of the run): "
          f"{best['in_flight']['timeline']}")
    if a.out:
        Path(a.out).write_text(json.dumps(
            [{k: v for k, v in r.items() if k != "events"} for r in rows], indent=2))
    ok = all(r.get("identical", True) for r in rows)
    print(f"speedup {best['speedup']}x (sequential {seq['wall_s']} s, concurrent "
          f"{best['wall_s']} s, identical events: {'yes' if ok else 'no'})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
