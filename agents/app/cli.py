"""The `freightsim` command: run and validate scenarios (bench and sweep come with benchmarks)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from sim.scenario import Scenario, ScenarioError, load_scenario


def _load(path: str, seed: int | None, memory: str | None) -> Scenario:
    sc = load_scenario(path)
    if seed is not None:
        if seed < 0:
            raise ScenarioError(path, "--seed", "a seed of zero or more", seed)
        sc = dataclasses.replace(sc, scenario=dataclasses.replace(sc.scenario, seed=seed))
    if memory is not None:
        sc = sc.with_overrides(memory={"mode": memory})
    return sc


def format_summary(summary: dict) -> str:
    rows = [
        ("scenario", f"{summary['scenario']} (seed {summary['seed']}, {summary['days']:g} days, "
                     f"memory {summary['memory_mode']})"),
        ("drivers", summary["drivers"]),
        ("cargo created", summary["cargo_created"]),
        ("  taken by our drivers", summary["cargo_taken"]),
        ("  taken by competitors", summary["cargo_competitor"]),
        ("  expired", summary["cargo_expired"]),
        ("orders completed", summary["orders"]),
        ("orders unfinished at end", summary["unpaid_orders"]),
        ("net income (yuan)", f"{summary['net_income']:,.2f}"),
        ("preference penalty (yuan)", f"{summary['penalty']:,.2f}"),
        ("score (yuan)", f"{summary['score']:,.2f}"),
    ]
    failed = summary["failed_takes"]
    rows.append(("failed takes", sum(failed.values())))
    rows += [(f"  {reason}", n) for reason, n in failed.items()]
    if "tokens_per_step" in summary:
        rows.append(("prompt tokens per step", f"{summary['tokens_per_step']:.1f}"))
    rows.append(("events", f"{summary['events']:,} ({summary['events_per_s']:,.0f}/s)"))
    rows.append(("wall time (s)", summary["wall_s"]))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def cmd_validate(args: argparse.Namespace) -> int:
    sc = _load(args.scenario, None, None)
    print(f"{args.scenario}: ok ({sc.scenario.name}, {sc.scenario.days:g} days, "
          f"{len(sc.drivers.fixed) or sc.drivers.count} drivers, memory {sc.memory.mode})")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from agents.app.runner import run_scenario

    sc = _load(args.scenario, args.seed, args.memory)
    if args.llm_replay:
        sc = sc.with_overrides(llm={"replay": True})
    out = Path(args.out) if args.out else Path("runs") / f"{sc.scenario.name}-s{sc.scenario.seed}"
    result = run_scenario(sc, out, progress=not args.no_progress)
    print(format_summary(result.summary))
    files = [f for f in ("events.parquet", "steps.parquet", "llm_calls.parquet",
                         "drivers.parquet", "summary.json", "scenario.json") if (out / f).exists()]
    print(f"\nresults: {out}/ ({', '.join(files)})")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    import json

    from agents.app.bench import check, run_bench

    sc = _load(args.scenario, args.seed, None)
    if args.days:
        sc = sc.with_overrides(scenario={"days": args.days})
    out = Path(args.out) if args.out else Path("runs") / f"bench-{sc.scenario.name}"
    report = run_bench(sc, out, tuple(args.modes.split(",")))
    print((out / "report.md").read_text())
    print(f"report: {out}/report.json, {out}/report.md")
    baseline = Path(args.baseline) if args.baseline else (
        Path("benchmarks/baselines") / f"{sc.scenario.name}.json")
    if args.write_baseline:
        baseline.parent.mkdir(parents=True, exist_ok=True)
        baseline.write_text(json.dumps(report, indent=2))
        print(f"baseline written: {baseline}")
    if args.check:
        if not baseline.is_file():
            raise ScenarioError(baseline, "--check", "a baseline report (--write-baseline)",
                                "missing file")
        moved = check(report, json.loads(baseline.read_text()), args.tolerance)
        if moved:
            print(f"REGRESSION against {baseline} (tolerance {args.tolerance:.0%}):",
                  file=sys.stderr)
            for r in moved:
                print(f"  {r}", file=sys.stderr)
            return 1
        print(f"no regression against {baseline} (tolerance {args.tolerance:.0%})")
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from agents.app.sweep import sweep

    seeds = [int(x) for x in args.seeds.split(",")]
    rows = sweep(args.scenarios, seeds, args.modes.split(","), Path(args.out), args.engine,
                 args.workers)
    for r in rows:
        print(f"{r['run_id']}: score {r['score']:,.0f}, tokens/step "
              f"{r.get('tokens_per_step', 0):,.0f}, {r['wall_s']}s")
    print(f"dataset: {args.out}/dataset/{{steps,drivers,events}}/run_id=*/ and "
          f"{args.out}/runs.parquet")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="freightsim", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a scenario headless and write its results")
    r.add_argument("scenario")
    r.add_argument("--out", help="run directory (default runs/<name>-s<seed>)")
    r.add_argument("--seed", type=int, help="override the scenario's seed")
    r.add_argument("--memory", choices=["off", "full", "rules", "compressed"],
                   help="override [memory] mode")
    r.add_argument("--llm-replay", action="store_true",
                   help="answer model calls from the recorded cache only")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_run)
    b = sub.add_parser("bench", help="run a scenario under each memory mode; report, gate")
    b.add_argument("scenario")
    b.add_argument("--modes", default="full,rules,compressed")
    b.add_argument("--seed", type=int)
    b.add_argument("--days", type=float, help="override the scenario's days")
    b.add_argument("--out", help="bench directory (default runs/bench-<name>)")
    b.add_argument("--check", action="store_true", help="fail on regression vs the baseline")
    b.add_argument("--baseline", help="baseline JSON (default benchmarks/baselines/<name>.json)")
    b.add_argument("--tolerance", type=float, default=0.05)
    b.add_argument("--write-baseline", action="store_true")
    b.set_defaults(func=cmd_bench)
    w = sub.add_parser("sweep", help="scenarios x seeds x modes on a process pool or Ray")
    w.add_argument("scenarios", nargs="+")
    w.add_argument("--seeds", default="1")
    w.add_argument("--modes", default="rules")
    w.add_argument("--out", default="runs/sweep")
    w.add_argument("--engine", choices=["local", "ray"], default="local")
    w.add_argument("--workers", type=int, default=2)
    w.set_defaults(func=cmd_sweep)
    v = sub.add_parser("validate", help="check a scenario file and report the first problem")
    v.add_argument("scenario")
    v.set_defaults(func=cmd_validate)
    from agents.app.preferences_cmd import add_preferences_parser
    add_preferences_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: results written so far are in the run directory", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
