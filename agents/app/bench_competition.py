"""`freightsim bench` on a competition-rules scenario: our agents under the official loop, each
memory mode (and the greedy baseline, memory off), scored by the official scorer and set
against the hindsight optimum of each driver.

Competition drivers are independent (each has its own cargo pool), so the best net income a
driver could have earned knowing the whole cargo stream is well defined (sim/analysis/hindsight.py);
each mode's share of it is `quality.hindsight_share[mode]`. Fact-recall probes need the
generator world's market as the truth and are not run here (see agents/app/bench.py).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agents.app.compete import official_drivers, run_competition
from agents.app.parallel import run_all
from memory.modes import OFF, mode_names
from sim.competition.completeness import check_run_complete
from sim.scenario import Scenario
from sim.world.recorder import write_text_atomic

STAMP = "20260301_000000"  # fixed log names: the bench's files are the same run to run


class TokenTally:
    """Prompt tokens per decision step, from every agent call record (our adapter's log)."""

    def __init__(self) -> None:
        self.steps: set[tuple[str, int]] = set()
        self.prompt = self.compress = self.completion = 0

    def attach(self, agent: Any) -> None:
        services = getattr(agent, "services", None)
        if services is None:
            return
        inner = services.log.sink

        def sink(r: Any) -> None:
            self.steps.add((r.driver_id, r.step))
            if r.agent.startswith("compress_"):
                self.compress += r.prompt_tokens
            else:
                self.prompt += r.prompt_tokens
            self.completion += r.completion_tokens
            inner(r)

        services.log.sink = sink

    def figures(self) -> dict:
        n = max(len(self.steps), 1)
        return {"mean": round(self.prompt / n, 2),
                "mean_with_compression": round((self.prompt + self.compress) / n, 2),
                "mean_total_with_completion": round(
                    (self.prompt + self.compress + self.completion) / n, 2)}


def cargo_records(sc: Scenario, run_dirs: list[Path]) -> Iterator[dict] | None:
    """The run's cargo stream, one record at a time: the scenario's file, else the generated
    market as a run wrote it next to its logs (the agents saw exactly that file)."""
    path = Path(sc.cargo.file) if sc.cargo.file else next(
        (d / "competition" / "cargo_dataset.jsonl" for d in run_dirs
         if (d / "competition" / "cargo_dataset.jsonl").is_file()), None)
    if path is None:
        return None

    def rows() -> Iterator[dict]:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)

    return rows()


def hindsight(sc: Scenario, run_dirs: list[Path], limits: Any = None
              ) -> tuple[dict[str, Any] | None, str]:
    """Each driver's hindsight bound (sim/analysis/hindsight.py's DriverBound), or None and why not.

    `limits` (sim.analysis.hindsight.HindsightLimits) bounds the search's time and memory; the
    result says per driver whether it is the exact optimum or a capped lower bound."""
    try:
        from sim.analysis.hindsight import HindsightLimits, bounded_hindsight_for_run
    except ImportError:
        return None, "not computed: sim/analysis/hindsight.py is not in this build"
    from sim.scoring.scorer import default_parser, parsed_dict

    records = cargo_records(sc, run_dirs)
    if records is None:
        return None, "not computed: no cargo file (the scenario's, or one a run wrote)"
    parser = default_parser()

    def parse(p: Any) -> dict | None:
        text = p if isinstance(p, str) else p.get("content", "")
        return None if parser is None else parsed_dict(parser(text))

    # option C on: an exact optimum then bounds every policy, one that commits on the way too
    res = bounded_hindsight_for_run(records, official_drivers(sc), int(sc.scenario.days),
                                    sc.scenario.scoring, sc.geo.speed_kmh,
                                    parse_preference=parse,
                                    limits=limits or HindsightLimits(), approach_commit=True)
    return res, "ok"


def entry_report(sc: Scenario, run_dir: Path, summary: dict, tally: TokenTally | None,
                 wall_s: float) -> tuple[dict, dict[str, float]]:
    """One run's row, scored the official way: income, penalty by rule kind, steps, tokens.

    Tokens: our agents' calls from their own log (`tally`); a third-party agent's from the
    official per-driver token usage (what it reported through model_chat_completion)."""
    from sim.scoring.scorer import score_run

    days = int(sc.scenario.days)
    scored = score_run(run_dir / "competition")
    whole = check_run_complete(run_dir)  # a figure of a partial run is no figure
    net = {d.driver_id: d.income.net_income for d in scored.drivers}
    n = max(len(net), 1)
    by_kind: dict[str, float] = {}
    for d in scored.drivers:
        for r in d.rules:
            if r.penalty:
                key = r.kind or "unscored"
                by_kind[key] = round(by_kind.get(key, 0.0) + r.penalty, 2)
    steps = summary["completed_steps"]
    if tally is not None:
        tokens = tally.figures()
    else:
        use = {k: sum(d.token_usage.get(k, 0) for d in scored.drivers)
               for k in ("prompt_tokens", "total_tokens")}
        per = max(steps, 1)
        tokens = {"mean": round(use["prompt_tokens"] / per, 2),
                  "mean_with_compression": round(use["prompt_tokens"] / per, 2),
                  "mean_total_with_completion": round(use["total_tokens"] / per, 2)}
    entry = {
        "steps": steps,
        "tokens_per_step": tokens,
        "quality": {
            "net_income_per_driver_day": round(sum(net.values()) / (n * days), 2),
            "penalty_per_driver": round(sum(d.income.preference_penalty
                                            for d in scored.drivers) / n, 2),
            "aborted_drivers": sum(d.calculation_aborted for d in scored.drivers),
            "end_reasons": dict(sorted(summary["driver_end_reasons"].items())),
            "net_income_by_driver": net,
            "official": {
                "net_income": round(sum(net.values()), 2),
                "gross_income": round(sum(d.income.gross_income for d in scored.drivers), 2),
                "cost": round(sum(d.income.cost for d in scored.drivers), 2),
                "preference_penalty": round(sum(d.income.preference_penalty
                                                for d in scored.drivers), 2),
                "penalty_by_kind": dict(sorted(by_kind.items())),
            },
        },
        "wall_s": round(wall_s, 2),
    }
    if not whole.complete:
        entry["incomplete"] = whole.messages()
    return entry, net


def agent_label(spec: str) -> str:
    """The table's name for `--agent MODULE:CLASS`: the spec as given (unambiguous)."""
    return spec


def bench_mode(sc: Scenario, run_dir: Path, mode: str) -> tuple[dict, dict[str, float]]:
    """One memory mode under the official loop, scored (a worker runs it on its own)."""
    t0 = time.perf_counter()
    tally = TokenTally()
    summary = run_competition(sc.with_overrides(memory={"mode": mode}), run_dir, stamp=STAMP,
                              on_agent=tally.attach)
    return entry_report(sc, run_dir, summary, tally, time.perf_counter() - t0)


def bench_agent(sc: Scenario, run_dir: Path, spec: str) -> tuple[dict, dict[str, float]]:
    """One `--agent MODULE:CLASS` under the official loop, scored."""
    t0 = time.perf_counter()
    summary = run_competition(sc, run_dir, agent_spec=spec, stamp=STAMP)
    return entry_report(sc, run_dir, summary, None, time.perf_counter() - t0)


def run_competition_bench(sc: Scenario, out: Path, modes: tuple[str, ...] | None = None,
                          agents: tuple[str, ...] = (), limits: Any = None,
                          with_hindsight: bool = True, *, engine: str = "local",
                          workers: int = 1) -> dict:
    """Our memory modes, then each `--agent MODULE:CLASS`, under the official loop, scored
    the official way, and the hindsight bound of each driver (within `limits`). The runs are
    independent: `workers` of them run at once (agents/app/parallel.py), same results."""
    days = int(sc.scenario.days)
    report: dict = {"scenario": sc.scenario.name, "seed": sc.scenario.seed, "days": days,
                    "ruleset": "competition", "scoring": sc.scenario.scoring,
                    "backend": sc.llm.backend, "modes": {}}
    realised: dict[str, dict[str, float]] = {}
    modes = modes or (OFF, *mode_names())
    mode_dirs = [out / mode for mode in modes]
    agent_dirs = [out / "agents" / f"{k + 1}-{spec.rsplit(':', 1)[-1]}"
                  for k, spec in enumerate(agents)]
    got = run_all(_bench_one, [(sc, d, "mode", m) for d, m in zip(mode_dirs, modes, strict=True)]
                  + [(sc, d, "agent", a) for d, a in zip(agent_dirs, agents, strict=True)],
                  engine=engine, workers=workers)
    for mode, (entry, net) in zip(modes, got, strict=False):
        report["modes"][mode], realised[mode] = entry, net
        report["drivers"] = len(net)
    if agents:
        report["agents"] = {}
    for spec, (entry, net) in zip(agents, got[len(modes):], strict=True):
        label = agent_label(spec)
        report["agents"][label], realised[label] = entry, net
        report["drivers"] = len(net)
    run_dirs = [*mode_dirs, *agent_dirs]
    t0 = time.perf_counter()
    opt, why = (hindsight(sc, run_dirs, limits) if with_hindsight
                else (None, "not computed (--hindsight-time-limit 0)"))
    q: dict = {"hindsight_share": dict.fromkeys(realised), "hindsight_note": why}
    if opt is not None:
        q["hindsight_optimum"] = hindsight_figures(opt, days, time.perf_counter() - t0)
        best = sum(b.result.net for b in opt.values())
        for name, net in realised.items():
            share = sum(net.values()) / best if best > 1e-9 else math.nan
            q["hindsight_share"][name] = round(share, 4)
        h = q["hindsight_optimum"]
        q["hindsight_note"] = (
            f"sum of realised net over the sum of each driver's hindsight plan ({h['bound']}"
            + ("" if h["exact"] else "; the plan is feasible, the optimum lies between it and "
               f"the relaxed upper bound, {h['upper_per_driver_day']} per driver-day")
            + "); the plan ignores query costs"
            + (f"; relaxed preference kinds (ignored by the plan): "
               f"{', '.join(h['relaxed_kinds'])}" if h["relaxed_kinds"] else ""))
    report["quality"] = q
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "report.json", json.dumps(report, indent=2))
    write_text_atomic(out / "report.md", competition_markdown(report, sc))
    return report


def _bench_one(sc: Scenario, run_dir: Path, what: str, name: str
               ) -> tuple[dict, dict[str, float]]:
    return (bench_mode if what == "mode" else bench_agent)(sc, run_dir, name)


def hindsight_figures(opt: dict[str, Any], days: int, wall_s: float) -> dict:
    """The report's hindsight block: the plan per driver, what kind of bound it is, the caps
    and stops that made it so, and the relaxed upper bound."""
    from sim.analysis.hindsight import Bound

    n = max(len(opt), 1)
    exact = all(b.result.exact for b in opt.values())
    plans = [b.result for b in opt.values()]
    return {
        "bound": str(Bound.EXACT if exact else Bound.CAPPED),
        "exact": exact,
        "net": round(sum(p.net for p in plans), 2),
        "net_by_driver": {d: round(b.result.net, 2) for d, b in opt.items()},
        "net_per_driver_day": round(sum(p.net for p in plans) / (n * days), 2),
        "gross": round(sum(p.gross for p in plans), 2),
        "cost": round(sum(p.cost for p in plans), 2),
        "penalty": round(sum(p.penalty for p in plans), 2),
        "orders": sum(len(p.orders) for p in plans),
        "bound_by_driver": {d: str(b.bound) for d, b in opt.items()},
        "caps_by_driver": {d: dict(b.result.caps) for d, b in opt.items()},
        "stopped_by_driver": {d: b.result.stopped for d, b in opt.items()
                              if b.result.stopped},
        "exact_not_used_by_driver": {d: b.exact_stop for d, b in opt.items() if b.exact_stop},
        "upper_bound_kind": str(Bound.RELAXED_UPPER),
        "upper_by_driver": {d: round(b.upper, 2) for d, b in opt.items()},
        "upper": round(sum(b.upper for b in opt.values()), 2),
        "upper_per_driver_day": round(sum(b.upper for b in opt.values()) / (n * days), 2),
        "relaxed_kinds": sorted({k for p in plans for k in p.relaxed_kinds}),
        "wall_s": round(wall_s, 2),
    }


def hindsight_line(h: dict) -> str:
    """One sentence: which bound, for how many drivers, with which caps, and why not exact."""
    n_kind = sum(b == h["bound"] for b in h["bound_by_driver"].values())
    out = f"Hindsight: {h['bound']} for {n_kind} of {len(h['bound_by_driver'])} drivers"
    out += f", {h['wall_s']} s"
    if not h["exact"]:
        caps = sorted({tuple(sorted(c.items())) for c in h["caps_by_driver"].values()})
        out += "; caps used: " + "; ".join(
            ", ".join(f"{k} {v:g}" for k, v in c) or "none (search stopped)" for c in caps)
    if h["exact_not_used_by_driver"]:
        words = {"time": "over its time share", "memory": "over the memory ceiling"}
        why = sorted({words.get(x, x) for x in h["exact_not_used_by_driver"].values()})
        out += "; exact search not used: " + ", ".join(why)
    if h["stopped_by_driver"]:
        out += f"; stopped early: {h['stopped_by_driver']}"
    return out + "."


def competition_markdown(report: dict, sc: Scenario) -> str:
    """The summary table (every mode and agent) and the official-score table beside the
    hindsight bounds."""
    from agents.app.bench import summary_table

    entries = {**report["modes"], **report.get("agents", {})}
    title = (f"# bench: {sc.scenario.name} (competition rules {sc.scenario.scoring}, "
             f"{report['days']} days, {report.get('drivers', 0)} drivers, backend "
             f"{sc.llm.backend})")
    lines = summary_table({**report, "modes": entries, "title": title})
    q = report["quality"]
    share = q.get("hindsight_share", {})
    lines += ["| official score | kind | net | gross | cost | penalty | penalty by kind | steps "
              "| tokens/step | share of hindsight |", "|---" * 10 + "|"]
    for name, e in entries.items():
        o = e["quality"]["official"]
        kinds = ", ".join(f"{k} {v:g}" for k, v in o["penalty_by_kind"].items()) or "-"
        kind = "memory mode" if name in report["modes"] else "agent"
        s = share.get(name)
        lines.append(f"| {name} | {kind} | {o['net_income']:.2f} | {o['gross_income']:.2f} | "
                     f"{o['cost']:.2f} | {o['preference_penalty']:.2f} | {kinds} | "
                     f"{e['steps']} | {e['tokens_per_step']['mean']} | "
                     f"{'n/a' if s is None else f'{100 * s:.1f}%'} |")
    h = q.get("hindsight_optimum")
    if h is not None:
        lines.append(f"| hindsight plan | {h['bound']} | {h['net']:.2f}"
                     f" | {h['gross']:.2f} | {h['cost']:.2f} | {h['penalty']:.2f} | "
                     f"relaxed: {', '.join(h['relaxed_kinds']) or 'none'} | {h['orders']} "
                     "takes | - | 100% |")
        lines.append(f"| hindsight bound | {h['upper_bound_kind']} | "
                     f"{h['upper']:.2f} | - | - | - | - | - | - | - |")
        lines += ["", hindsight_line(h)]
    return "\n".join(lines) + "\n"


def check_competition(report: dict, baseline: dict, tolerance: float = 0.05) -> list:
    """Figures that moved the wrong way: income and hindsight share down, tokens up."""
    from agents.app.bench import Regression

    out = []
    for mode, now in report["modes"].items():
        base = baseline["modes"].get(mode)
        if base is None:
            continue
        for name in ("mean", "mean_with_compression"):
            n, b = now["tokens_per_step"][name], base["tokens_per_step"][name]
            if n > b * (1 + tolerance) + 1e-9:
                out.append(Regression(mode, f"tokens_per_step.{name}", b, n))
        n, b = (now["quality"]["net_income_per_driver_day"],
                base["quality"]["net_income_per_driver_day"])
        if n < b - abs(b) * tolerance - 1e-9:
            out.append(Regression(mode, "quality.net_income_per_driver_day", b, n))
        n = report["quality"]["hindsight_share"].get(mode)
        b = baseline.get("quality", {}).get("hindsight_share", {}).get(mode)
        if n is not None and b is not None and n < b - tolerance:
            out.append(Regression(mode, "quality.hindsight_share", b, n))
    return out
