"""The `freightsim` command: run and validate scenarios (bench and sweep come with benchmarks)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import signal
import sys
import warnings
from pathlib import Path

from memory.modes import OFF, current_name, mode_names
from sim.scenario import RenamedSetting, Scenario, ScenarioError, load_scenario


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
    if "preferences" in summary:  # the scorer's penalty by kind (sim/world/driver_preferences.py)
        prefs = summary["preferences"]
        rows[-1:-1] = [(f"  {k}", f"{v['penalty']:,.2f}")
                       for k, v in prefs["penalty_by_kind"].items()]
        if prefs["unscored"]:
            rows.insert(-1, ("  unscored preferences", len(prefs["unscored"])))
    failed = summary["failed_takes"]
    rows.append(("failed takes", sum(failed.values())))
    rows += [(f"  {reason}", n) for reason, n in failed.items()]
    if "tokens_per_step" in summary:
        rows.append(("prompt tokens per step", f"{summary['tokens_per_step']:.1f}"))
    rows.append(("events", f"{summary['events']:,} ({summary['events_per_s']:,.0f}/s)"))
    rows.append(("wall time (s)", summary["wall_s"]))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def _check_files(sc: Scenario) -> None:
    """Load the data files a scenario names (cargo, drivers), as a run would, so a bad row is
    reported by `validate` with its line number, not found mid-run."""
    from sim.geo import Geography
    from sim.world.competition_files import load_drivers, load_world_cargo

    if sc.drivers.file is not None:
        load_drivers(sc.drivers.file)
    if sc.cargo.file is not None:
        from datetime import datetime

        import numpy as np

        list(load_world_cargo(sc.cargo.file, datetime.fromisoformat(sc.scenario.start),
                        Geography.guangdong(), sc.cargo.competitor_share,
                        np.random.default_rng(0)))


def _report_preferences(sc: Scenario) -> None:
    """Each preference no parser reads, before a run (sim.world.driver_preferences, the one
    reporter)."""
    from sim.world.driver_preferences import unparsed_preferences

    if sc.preferences.unparsed == "error":
        return  # the run stops on them itself, listing every one
    for u in unparsed_preferences(sc):  # unparsed and ambiguous ones, with their readings
        print(f"note: {u.note()}", file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    from sim.world.driver_preferences import check_unparsed

    sc = _load(args.scenario, None, None)
    notes: list[str] = []
    if sc.scenario.ruleset == "competition":  # open and check the data files too
        from agents.app.compete import validate_inputs

        notes = validate_inputs(sc)
    # every drivers-file preference no parser reads with confidence (unparsed or ambiguous);
    # with unparsed = "error" this raises
    notes += [u.note() for u in check_unparsed(sc)]
    for note in notes:
        print(note)
    if sc.scenario.ruleset == "competition":
        print(f"{args.scenario}: ok ({sc.scenario.name}, competition rules "
              f"{sc.scenario.scoring}, {sc.scenario.days:g} days)")
        return 0
    _check_files(sc)
    print(f"{args.scenario}: ok ({sc.scenario.name}, {sc.scenario.days:g} days, "
          f"{len(sc.drivers.fixed) or sc.drivers.count} drivers, memory {sc.memory.mode})")
    return 0


def cmd_compete(args: argparse.Namespace) -> int:
    from agents.app.compete import print_summary, run_competition

    sc = _load(args.scenario, None, args.memory)
    _report_preferences(sc)  # unparsed and ambiguous texts, as `run` lists them
    if args.llm_replay:
        sc = sc.with_overrides(llm={"replay": True})
    if args.concurrency is not None:
        sc = sc.with_overrides(llm={"concurrency": args.concurrency})
    out = Path(args.out) if args.out else Path("runs") / f"{sc.scenario.name}-compete"
    summary = run_competition(sc, out, args.agent, stamp=args.timestamp,
                              token_budget=args.token_budget, step_timeout_s=args.step_timeout)
    print_summary(summary, out / "competition")
    return 0


def _replay_cache(sc: Scenario) -> Path | None:
    if sc.llm.cache is None:
        return None
    cache = Path(sc.llm.cache)
    return cache if cache.is_absolute() else Path(sc.path).parent / cache


def cmd_run(args: argparse.Namespace) -> int:
    from agents.app.runner import run_scenario

    sc = _load(args.scenario, args.seed, args.memory)
    if args.llm_replay:
        sc = sc.with_overrides(llm={"replay": True})
    from agents.llm.providers import uses_model

    replaying = sc.llm.replay and uses_model(sc.llm.backend) and sc.memory.mode != "off"
    if replaying and not args.allow_misses:
        cache = _replay_cache(sc)
        if cache is None or not cache.is_file() or cache.stat().st_size == 0:
            raise ScenarioError(sc.path, "[llm] cache", "a recorded cache to replay (or "
                                "--allow-misses to fall back to the deterministic policies)",
                                "no cache configured" if cache is None else
                                f"{cache}: missing or empty")
    _report_preferences(sc)
    out = Path(args.out) if args.out else Path("runs") / f"{sc.scenario.name}-s{sc.scenario.seed}"
    args.out_dir = out
    if sc.scenario.ruleset == "competition":  # our agents under the official loop
        from agents.app.compete import print_summary, run_competition

        print_summary(run_competition(sc, out), out / "competition")
        return 0
    result = run_scenario(sc, out, progress=not args.no_progress)
    print(format_summary(result.summary))
    files = [f for f in ("events.parquet", "steps.parquet", "llm_calls.parquet",
                         "drivers.parquet", "summary.json", "scenario.json") if (out / f).exists()]
    print(f"\nresults: {out}/ ({', '.join(files)})")
    code = 0
    misses = result.summary.get("replay_misses", 0)
    if replaying and misses and not args.allow_misses:
        print(f"error: {misses} model calls were not in the replay cache and fell back to "
              "the deterministic policies (--allow-misses accepts that)", file=sys.stderr)
        code = 3
    if "lessons_error" in result.summary:
        print(f"error: results are written, but the lesson store failed: "
              f"{result.summary['lessons_error']}", file=sys.stderr)
        code = 4
    return code


def cmd_bench(args: argparse.Namespace) -> int:
    import json

    from agents.app.bench import check, run_bench
    from sim.world.recorder import write_text_atomic

    sc = _load(args.scenario, args.seed, None)
    if args.days:
        sc = sc.with_overrides(scenario={"days": args.days})
    out = Path(args.out) if args.out else Path("runs") / f"bench-{sc.scenario.name}"
    model_eval = None
    if args.base_url or args.llm_replay:  # a model reads the views: QA and agreement
        from agents.app.evaluate import build_qa_model

        cache = Path(args.llm_cache) if args.llm_cache else out / "qa-cache.jsonl"
        model_eval = {"model": build_qa_model(args.base_url, args.model, cache,
                                              args.llm_replay),
                      "steps": args.qa_steps, "max_questions": args.qa_max_questions,
                      "max_tokens": args.qa_max_tokens}
    agents = tuple(args.agent or ())
    dup = next((a for i, a in enumerate(agents) if a in agents[:i]), None)
    if dup is not None:
        raise ScenarioError("<command line>", "--agent", "each agent once", f"{dup} repeated")
    if sc.scenario.ruleset == "competition":  # our agents under the official loop
        from agents.app.bench_competition import check_competition, run_competition_bench

        if model_eval is not None:
            print("note: model QA and agreement run on shared-world scenarios only",
                  file=sys.stderr)
        from sim.analysis.hindsight import HindsightLimits

        modes = None if args.modes == ",".join(mode_names()) else _bench_modes(args.modes)
        limits = HindsightLimits(time_s=args.hindsight_time_limit,
                                 max_rss_bytes=int(args.hindsight_memory_gb * 2**30))
        report = run_competition_bench(sc, out, modes, agents, limits,
                                       with_hindsight=args.hindsight_time_limit > 0,
                                       engine=args.engine, workers=args.workers)
        check = check_competition  # the gate for this kind of report
    else:
        if agents:
            raise ScenarioError(args.scenario, "--agent", "a competition-rules scenario "
                                "([scenario] ruleset = \"competition\")", sc.scenario.ruleset)
        if args.workers > 1:
            print("note: --workers applies to competition-rules scenarios; the shared-world "
                  "bench runs its modes one after another", file=sys.stderr)
        report = run_bench(sc, out, _bench_modes(args.modes), model_eval)
    print((out / "report.md").read_text())
    print(f"report: {out}/report.json, {out}/report.md")
    partial = {m: r["incomplete"] for m, r in report.get("modes", {}).items()
               if "incomplete" in r}
    for m, problems in partial.items():  # sim/competition/completeness.py
        for p in problems:
            print(f"incomplete: {m}: {p}", file=sys.stderr)
    if partial:
        print(f"error: the runs of {', '.join(partial)} are not whole", file=sys.stderr)
        return 3
    baseline = Path(args.baseline) if args.baseline else (
        Path("benchmarks/baselines") / f"{sc.scenario.name}.json")
    if args.write_baseline:
        baseline.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(baseline, json.dumps(report, indent=2))
        print(f"baseline written: {baseline}")
    if args.check:
        if not baseline.is_file():
            raise ScenarioError(baseline, "--check", "a baseline report (--write-baseline)",
                                "missing file")
        from agents.app.renamed_keys import current_report

        moved = check(report, current_report(json.loads(baseline.read_text())), args.tolerance)
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

    seeds = _distinct("--seeds", args.seeds, _seed)
    modes = _distinct("--modes", args.modes, _mode)
    if args.workers < 1:
        raise ScenarioError("<command line>", "--workers", "a number of workers of 1 or more",
                            args.workers)
    rows = sweep(args.scenarios, seeds, modes, Path(args.out), args.engine, args.workers)
    for r in rows:
        print(f"{r['run_id']}: score {r['score']:,.0f}, tokens/step "
              f"{r.get('tokens_per_step', 0):,.0f}, {r['wall_s']}s")
    print(f"dataset: {args.out}/dataset/{{steps,drivers,events}}/run_id=*/ and "
          f"{args.out}/runs.parquet")
    return 0


def cmd_export_cargo(args: argparse.Namespace) -> int:
    """Write the scenario's calibrated market as the official cargo JSON Lines (§2.2)."""
    import json

    from tqdm import tqdm

    from sim.world.cargo_stream import official_cargo_records

    sc = _load(args.scenario, args.seed, None)
    # competition rules draw this market when they have no cargo file, whatever the model says
    if sc.cargo.model != "calibrated" and sc.scenario.ruleset != "competition":
        raise ScenarioError(args.scenario, "[cargo] model", '"calibrated" (the market that '
                            "export-cargo writes)", sc.cargo.model)
    expected = round(sc.cargo.cargo_per_day * sc.scenario.days)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with out.open("w", encoding="utf-8") as fh, tqdm(
            total=expected, unit=" cargo", disable=args.no_progress or expected < 50_000,
            file=sys.stderr) as bar:
        for rec in official_cargo_records(sc):
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
            if n % 1000 == 0:
                bar.update(1000)
        bar.update(n % 1000)
    print(f"{out}: {n:,} cargo over {sc.scenario.days:g} days from {sc.scenario.start}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """Score a competition run's logs as the official scorer (docs/competition.md §6-§7), after
    checking that the directory holds the whole run (sim/competition/completeness.py): a
    partial run is refused (exit 3) unless --allow-partial, which scores what exists and
    marks the incomplete drivers."""
    import json

    from sim.competition.completeness import SummaryState, check_run_complete, mark_official
    from sim.scoring.scorer import ScoringInputError, format_report, resolve_inputs, score_run

    run_dir = Path(args.run_dir)
    whole = check_run_complete(run_dir, args.drivers, args.days) if run_dir.is_dir() else None
    try:  # what the scorer cannot read at all is an input error (exit 2), reported first
        if whole is None or whole.summary is not SummaryState.TORN:
            resolve_inputs(run_dir, version=args.version, cargo=args.cargo,
                           drivers=args.drivers, days=args.days, speed=args.speed)
    except ScoringInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if whole is not None and not whole.complete:
        for m in whole.messages():
            print(f"incomplete: {m}", file=sys.stderr)
        n, total = len(whole.incomplete), len(whole.drivers)
        if not args.allow_partial:
            print(f"error: {run_dir} does not hold a whole run ({n} of {total} drivers "
                  "incomplete); --allow-partial scores what exists and marks it",
                  file=sys.stderr)
            return 3
    try:
        with _scorable(whole, args.allow_partial) as folder:
            report = score_run(folder or run_dir, version=args.version, cargo=args.cargo,
                               drivers=args.drivers, days=args.days, speed=args.speed,
                               pins=args.pin)
    except ScoringInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    partial = whole is not None and not whole.complete
    if args.json:
        result = report.to_official_json()
        if partial:
            mark_official(result, whole)
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(format_report(report))
        if partial:
            print(f"PARTIAL RUN: {len(whole.incomplete)} of {len(whole.drivers)} drivers "
                  "incomplete; these figures are not a result")
            for m in whole.messages():
                print(f"  {m}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """One self-contained HTML page of a run, or of two compared driver by driver."""
    import time

    from agents.app.report import build_report

    if len(args.run_dirs) > 2:
        raise ScenarioError("<command line>", "RUN_DIR", "one run directory, or two to compare",
                            f"{len(args.run_dirs)} of them")
    first = Path(args.run_dirs[0])
    out = Path(args.out) if args.out else first / (
        "report.html" if len(args.run_dirs) == 1 else "report-compare.html")
    t0 = time.perf_counter()
    try:
        build_report([Path(p) for p in args.run_dirs], out)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"report: {out} ({out.stat().st_size / 1e6:.1f} MB, "
          f"{time.perf_counter() - t0:.1f} s)")
    return 0


@contextlib.contextmanager
def _scorable(whole, allow_partial: bool):
    """With --allow-partial and a torn run summary, a view of the run folder without it (the
    scorer refuses a summary that is not JSON, and a partial run's figures need none); else
    None: score the folder itself."""
    from sim.competition.completeness import INPUTS_FILE, LOG_GLOB, SummaryState

    if whole is None or not allow_partial or whole.summary is not SummaryState.TORN:
        yield None
        return
    import json
    import tempfile

    folder = whole.folder
    with tempfile.TemporaryDirectory(prefix="freightsim-partial-") as tmp:
        view = Path(tmp)
        for log in folder.glob(LOG_GLOB):
            (view / log.name).symlink_to(log.resolve())
        if (folder / INPUTS_FILE).is_file():
            inputs = json.loads((folder / INPUTS_FILE).read_text(encoding="utf-8"))
            for k in ("cargo", "drivers"):
                if isinstance(inputs.get(k), str) and not Path(inputs[k]).is_absolute():
                    inputs[k] = str((folder / inputs[k]).resolve())
            (view / INPUTS_FILE).write_text(json.dumps(inputs), encoding="utf-8")
        yield view


def add_score_parser(sub) -> None:
    s = sub.add_parser("score", help="official competition scoring of a run's action logs")
    s.add_argument("run_dir", help="run directory (with competition/) or the folder of the logs")
    s.add_argument("--json", action="store_true", help="print the official result JSON")
    s.add_argument("--version", choices=["S1", "S2", "S3", "S4"], help="scoring version")
    s.add_argument("--cargo", type=Path, help="cargo JSON Lines (overrides the inputs file)")
    s.add_argument("--drivers", type=Path, help="drivers JSON array (overrides the inputs file)")
    s.add_argument("--days", type=int, help="simulation_duration_days (overrides the summary)")
    s.add_argument("--speed", type=float, help="reposition_speed_km_per_hour (default 60)")
    s.add_argument("--pin", type=Path, help="pin file fixing the reading of chosen preference "
                                            "texts (overrides the run's; docs/preferences.md)")
    s.add_argument("--allow-partial", action="store_true",
                   help="score a run that did not finish (drivers without a log, no or a torn "
                        "run summary, a log cut short): the result marks those drivers")
    s.set_defaults(func=cmd_score)


def _seed(x: str) -> int:
    try:
        v = int(x)
    except ValueError:
        raise ScenarioError("<command line>", "--seeds", "comma-separated integers", x) from None
    if v < 0:
        raise ScenarioError("<command line>", "--seeds", "seeds of zero or more", v)
    return v


def _mode(x: str) -> str:
    modes = (OFF, *mode_names())
    x = current_name(x, "--modes")
    if x not in modes:
        raise ScenarioError("<command line>", "--modes", "modes from " + ", ".join(modes), x)
    return x


def _bench_modes(text: str) -> tuple[str, ...]:
    """bench's --modes, each under its current name (an old spelling warns)."""
    return tuple(current_name(x, "--modes") for x in text.split(","))


def _memory_mode(x: str) -> str:
    """--memory under its current name (an old spelling warns); argparse checks the choice."""
    return current_name(x, "--memory")


def _distinct(flag: str, text: str, conv):
    """Comma-separated values, each once: a repeated one would be the same run twice."""
    out = [conv(x.strip()) for x in text.split(",")]
    dup = next((x for i, x in enumerate(out) if x in out[:i]), None)
    if dup is not None:
        raise ScenarioError("<command line>", flag, "each value once", f"{dup} repeated")
    return out


def _float_at_least(low: float, strict: bool):
    """An argparse type: a number >= low (> low when strict), else argparse's usage error."""
    def conv(x: str) -> float:
        try:
            v = float(x)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, found {x!r}") from None
        if v < low or (strict and v == low):
            raise argparse.ArgumentTypeError(
                f"expected a number {'above' if strict else 'of at least'} {low:g}, found {x}")
        return v
    return conv


_nonneg_float = _float_at_least(0.0, strict=False)
_positive_float = _float_at_least(0.0, strict=True)


def _positive_int(x: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        v = int(x)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {x!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, found {x}")
    return v


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="freightsim", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a scenario headless and write its results")
    r.add_argument("scenario")
    r.add_argument("--out", help="run directory (default runs/<name>-s<seed>)")
    r.add_argument("--seed", type=int, help="override the scenario's seed")
    r.add_argument("--memory", choices=[OFF, *mode_names()], type=_memory_mode,
                   help="override [memory] mode")
    r.add_argument("--llm-replay", action="store_true",
                   help="answer model calls from the recorded cache only")
    r.add_argument("--allow-misses", action="store_true",
                   help="with --llm-replay: a call missing from the cache falls back to the "
                        "deterministic policy instead of failing the run")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_run)
    b = sub.add_parser("bench", help="run a scenario under each memory mode; report, gate")
    b.add_argument("scenario")
    b.add_argument("--modes", default=",".join(mode_names()))
    b.add_argument("--seed", type=int)
    b.add_argument("--days", type=float, help="override the scenario's days")
    b.add_argument("--out", help="bench directory (default runs/bench-<name>)")
    b.add_argument("--check", action="store_true", help="fail on regression vs the baseline")
    b.add_argument("--baseline", help="baseline JSON (default benchmarks/baselines/<name>.json)")
    b.add_argument("--tolerance", type=float, default=0.05)
    b.add_argument("--write-baseline", action="store_true")
    b.add_argument("--base-url", help="OpenAI-compatible server: ask it the fact probes and "
                   "the main decision on sampled steps (QA accuracy, agreement)")
    b.add_argument("--model", default="local", help="model name for --base-url")
    b.add_argument("--qa-steps", type=int, default=5, help="sampled steps asked per mode")
    b.add_argument("--qa-max-questions", type=int, default=0,
                   help="questions per step (0: every probe)")
    b.add_argument("--qa-max-tokens", type=_positive_int, default=None, metavar="N",
                   help="cap every model reply of the QA and agreement probes (default 64 for "
                        "an answer, 96 for a decision); a cut reply counts as unanswered")
    b.add_argument("--llm-cache", help="record/replay file (default <out>/qa-cache.jsonl)")
    b.add_argument("--llm-replay", action="store_true",
                   help="answer the model questions from --llm-cache only")
    b.add_argument("--agent", action="append", metavar="MODULE:CLASS",
                   help="competition rules: also run this competition agent (a dotted module "
                        "or a .py path, as for `compete --agent`) into the same table; "
                        "repeatable")
    b.add_argument("--workers", type=_positive_int, default=1,
                   help="competition rules: run this many modes/agents at once (results are "
                        "the same; 2 on a 2-core machine halves a month's wall time)")
    b.add_argument("--engine", choices=["local", "ray"], default="local",
                   help="with --workers: a local process pool or Ray")
    b.add_argument("--hindsight-time-limit", type=_nonneg_float, default=300.0, metavar="S",
                   help="competition rules: CPU seconds for all drivers' hindsight bounds "
                        "(exact where it fits, else capped lower bounds); 0 skips them")
    b.add_argument("--hindsight-memory-gb", type=_positive_float, default=3.0, metavar="GB",
                   help="competition rules: resident-memory ceiling of the hindsight search")
    b.set_defaults(func=cmd_bench)
    w = sub.add_parser("sweep", help="scenarios x seeds x modes on a process pool or Ray")
    w.add_argument("scenarios", nargs="+")
    w.add_argument("--seeds", default="1")
    w.add_argument("--modes", default="bounded")
    w.add_argument("--out", default="runs/sweep")
    w.add_argument("--engine", choices=["local", "ray"], default="local")
    w.add_argument("--workers", type=int, default=2)
    w.set_defaults(func=cmd_sweep)
    c = sub.add_parser("compete", help="run a competition agent (or ours) under the official "
                       "loop; writes <out>/competition/ action logs and run summary")
    c.add_argument("scenario")
    c.add_argument("--agent", help="MODULE:CLASS (module or .py path); default: our agents")
    c.add_argument("--out", help="run directory (default runs/<name>-compete)")
    c.add_argument("--memory", choices=[OFF, *mode_names()], type=_memory_mode,
                   help="override [memory] mode (our agents)")
    c.add_argument("--concurrency", type=int, help="drivers at once (threads)")
    c.add_argument("--timestamp", help="fixed YYYYMMDD_HHMMSS for file names (tests)")
    c.add_argument("--token-budget", type=int, help="tokens per driver (default by version)")
    c.add_argument("--step-timeout", type=float, help="seconds per decide (default by version)")
    c.add_argument("--llm-replay", action="store_true",
                   help="answer model calls from the recorded cache only")
    c.set_defaults(func=cmd_compete)
    v = sub.add_parser("validate", help="check a scenario file and report the first problem")
    v.add_argument("scenario")
    v.set_defaults(func=cmd_validate)
    x = sub.add_parser("export-cargo", help="write a calibrated scenario's cargo as official JSONL")
    x.add_argument("scenario")
    x.add_argument("out", help="output .jsonl path")
    x.add_argument("--seed", type=int, help="override the scenario's seed")
    x.add_argument("--no-progress", action="store_true", help="no progress bar")
    x.set_defaults(func=cmd_export_cargo)
    add_score_parser(sub)
    rp = sub.add_parser("report", help="one self-contained HTML page of a run (or two "
                        "compared): drivers, timelines, map, penalties, model and memory")
    rp.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                    help="a run directory of either ruleset; a second one is compared with it")
    rp.add_argument("--out", help="HTML file (default RUN_DIR/report.html, or "
                    "RUN_DIR/report-compare.html for two runs)")
    rp.set_defaults(func=cmd_report)
    from agents.app.preferences_cmd import add_preferences_parser
    add_preferences_parser(sub)
    return p


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run is so it unwinds (and flushes) exactly like Ctrl-C."""


def _on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process
    raise Terminated


def _results_note(args: argparse.Namespace) -> str:
    out = getattr(args, "out_dir", None)
    if out is not None and Path(out).is_dir() and any(Path(out).iterdir()):
        return f"results written so far are in {out}/"
    return "no results were written"


def main(argv: list[str] | None = None) -> int:
    from sim.redact import console_redacted

    with console_redacted():  # every message, error and table printed is redacted
        return _main(argv)


def _show_renamed(message, category, filename, lineno, file=None, line=None,
                  show=warnings.showwarning) -> None:
    """A renamed setting value is the user's to fix: one plain line on stderr, no source."""
    if issubclass(category, RenamedSetting):
        print(f"warning: {message}", file=sys.stderr)
    else:
        show(message, category, filename, lineno, file, line)


def _main(argv: list[str] | None) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("always", RenamedSetting)
        warnings.showwarning = _show_renamed
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return args.func(args)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print(f"terminated: {_results_note(args)}", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print(f"interrupted: {_results_note(args)}", file=sys.stderr)
        return 130
    except OSError as exc:  # the disk filled, a directory went away mid-run
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}; {_results_note(args)}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: say so in one line; FREIGHTSIM_DEBUG=1 shows the trace
        if os.environ.get("FREIGHTSIM_DEBUG"):
            raise
        from sim.redact import redact

        print(f"internal error: {type(exc).__name__}: {redact(str(exc))[:300]} (a bug; rerun with "
              f"FREIGHTSIM_DEBUG=1 for the traceback); {_results_note(args)}", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
