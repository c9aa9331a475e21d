"""`freightsim bench` on a competition-rules scenario: our agents under the official loop, each
memory mode (and the greedy baseline, memory off), scored by the official scorer and set
against the hindsight optimum of each driver.

Competition drivers are independent (each has its own cargo pool), so the best net income a
driver could have earned knowing the whole cargo stream is well defined (sim/hindsight.py);
each mode's share of it is `quality.hindsight_share[mode]`. Fact-recall probes need the
generator world's market as the truth and are not run here (see agents/app/bench.py).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from agents.app.compete import official_drivers, run_competition
from memory.modes import OFF, mode_names
from sim.competition.completeness import check_run_complete
from sim.recorder import write_text_atomic
from sim.scenario import Scenario

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


def hindsight(sc: Scenario) -> tuple[dict[str, Any] | None, str]:
    """Each driver's hindsight optimum, or None and why not (sim/hindsight.py missing, or no
    cargo file to replay)."""
    try:
        from sim.hindsight import hindsight_for_run
    except ImportError:
        return None, "not computed: sim/hindsight.py is not in this build"
    from sim.scoring.scorer import _as_dict, default_parser

    if not sc.cargo.file:
        return None, "not computed: the scenario has no cargo file"
    records = [json.loads(x) for x in Path(sc.cargo.file).read_text(
        encoding="utf-8").splitlines() if x.strip()]
    parser = default_parser()

    def parse(p: Any) -> dict | None:
        text = p if isinstance(p, str) else p.get("content", "")
        return None if parser is None else _as_dict(parser(text))

    # option C on: the optimum then bounds every policy, one that commits on the way included
    res = hindsight_for_run(records, official_drivers(sc), int(sc.scenario.days),
                            sc.scenario.scoring, sc.geo.speed_kmh, parse_preference=parse,
                            approach_commit=True)
    return res, "ok"


def run_competition_bench(sc: Scenario, out: Path, modes: tuple[str, ...] | None = None
                          ) -> dict:
    from sim.scoring import score_run

    days = int(sc.scenario.days)
    report: dict = {"scenario": sc.scenario.name, "seed": sc.scenario.seed, "days": days,
                    "rules": "competition", "scoring": sc.scenario.scoring,
                    "backend": sc.llm.backend, "modes": {}}
    realised: dict[str, dict[str, float]] = {}
    for mode in modes or (OFF, *mode_names()):
        t0 = time.perf_counter()
        run_dir = out / mode
        tally = TokenTally()
        summary = run_competition(sc.with_overrides(memory={"mode": mode}), run_dir,
                                  stamp=STAMP, on_agent=tally.attach)
        scored = score_run(run_dir / "competition")
        whole = check_run_complete(run_dir)  # a figure of a partial run is no figure
        net = {d.driver_id: d.income.net_income for d in scored.drivers}
        realised[mode] = net
        n = max(len(net), 1)
        report["drivers"] = len(net)
        report["modes"][mode] = {
            "steps": summary["completed_steps"],
            "tokens_per_step": tally.figures(),
            "quality": {
                "net_income_per_driver_day": round(sum(net.values()) / (n * days), 2),
                "penalty_per_driver": round(sum(d.income.preference_penalty
                                                for d in scored.drivers) / n, 2),
                "aborted_drivers": sum(d.calculation_aborted for d in scored.drivers),
                "end_reasons": dict(sorted(summary["driver_end_reasons"].items())),
                "net_income_by_driver": net,
            },
            "wall_s": round(time.perf_counter() - t0, 2),
        }
        if not whole.complete:
            report["modes"][mode]["incomplete"] = whole.messages()
    opt, why = hindsight(sc)
    q: dict = {"hindsight_share": dict.fromkeys(report["modes"]), "hindsight_note": why}
    if opt is not None:
        best = sum(r.net for r in opt.values())
        q["hindsight_optimum"] = {
            "net_by_driver": {d: round(r.net, 2) for d, r in opt.items()},
            "net_per_driver_day": round(best / (max(len(opt), 1) * days), 2),
            "exact": all(r.exact for r in opt.values()),
            "relaxed_kinds": sorted({k for r in opt.values() for k in r.relaxed_kinds})}
        for mode, net in realised.items():
            share = sum(net.values()) / best if best > 1e-9 else math.nan
            q["hindsight_share"][mode] = round(share, 4)
        q["hindsight_note"] = ("sum of realised net over sum of each driver's optimum; "
                               "the optimum ignores query costs"
                               + ("" if q["hindsight_optimum"]["exact"] else
                                  " (heuristic caps: a lower bound)")
                               + (f"; relaxed preference kinds: "
                                  f"{', '.join(q['hindsight_optimum']['relaxed_kinds'])}"
                                  if q["hindsight_optimum"]["relaxed_kinds"] else ""))
    report["quality"] = q
    out.mkdir(parents=True, exist_ok=True)
    from agents.app.bench import summary_table

    write_text_atomic(out / "report.json", json.dumps(report, indent=2))
    write_text_atomic(out / "report.md", "\n".join(summary_table({
        **report, "title": f"# bench: {sc.scenario.name} (competition rules "
                           f"{sc.scenario.scoring}, {days} days, {report.get('drivers', 0)} "
                           "drivers, backend " + sc.llm.backend + ")"})) + "\n")
    return report


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
