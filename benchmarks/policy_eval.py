"""Score memory modes on the policy evaluation set (docs/evaluation.md).

For one market and one drivers split, runs a competition month per scoring version x memory
mode (our agents under the official loop, as `freightsim run` does), scores every run with the
official scorer (sim/scoring, as `freightsim score --json`), and reports per driver and per
mode: net after penalties, gross, cost, penalty (and by kind), orders, wait minutes, longest
wait. Then the acceptance checks against the memory-off greedy (`off`): the best mode's net >=
1.25x greedy's, its penalty <= 25% of greedy's, and no driver below greedy's net by more than 5%
of greedy's gross. Failure classes are named per driver (idle month, a wait over 12 h, a rule
broken every scored day).

    python benchmarks/policy_eval.py --days 7 --modes off,bounded --jobs 2
    python benchmarks/policy_eval.py --market east --split heldout --versions S4

A run that is not whole (a driver ended by an error, a log short of its steps, no run summary)
is named in the report and fails its checks, whatever its figures.

Exit status: 0 when every version's checks pass, 1 when one fails, 2 on bad input.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memory.modes import OFF, current_name, mode_names  # noqa: E402
from sim.scenario import Scenario, ScenarioError, load_scenario  # noqa: E402

SET_DIR = ROOT / "benchmarks" / "policy_eval"
MARKETS = ("calibrated", "east", "west", "delta")  # west, delta: fresh sets only
SPLITS = ("tune", "heldout", "fresh")  # fresh: make_drivers.py --fresh, with --set-dir
VERSIONS = ("S2", "S4")
NET_RATIO = 1.25  # best mode's net over greedy's
PENALTY_SHARE = 0.25  # best mode's penalty over greedy's
DRIVER_SLACK = 0.05  # of greedy's gross, per driver
LONG_WAIT_MIN = 12 * 60
DAY = 24 * 60
OFF_DAY_KINDS = ("min_days_without_orders", "min_full_off_days")  # K13, K14: whole days off
NO_ORDER_MIN = 72 * 60  # longer than two whole days off (K14) can need: stuck, not resting
SHUTTLES = 3  # repositions straight back to where the last one started
TIMING_FILE = "policy_eval_timing.json"
LESSONS_FILE = "policy_eval_lessons.json"  # with --lessons: lessons loaded and taught


def scenario_path(market: str, split: str, set_dir: Path | str = SET_DIR) -> Path:
    return Path(set_dir) / f"{market}-{split}.toml"


# --------------------------------------------------------------------------- results

@dataclass
class DriverResult:
    driver_id: str
    net: float
    gross: float
    cost: float
    penalty: float
    penalty_by_kind: dict[str, float]
    orders: int
    steps: int
    wait_minutes: int
    longest_wait: int
    broken_every_day: list[str] = field(default_factory=list)  # kind names
    aborted: str | None = None
    longest_without_order: int = 0  # minutes between accepted takes (or from the start)
    shuttles: int = 0  # repositions back to where the one before started, no order between
    wait_asked: int = LONG_WAIT_MIN  # the longest wait the driver's own rules ask for

    def failure_classes(self) -> list[str]:
        out = []
        if self.aborted:
            out.append(f"aborted: {self.aborted}")
        if self.orders == 0:
            out.append("idle all month (0 orders)")
        if self.longest_wait > max(LONG_WAIT_MIN, self.wait_asked):
            asked = (" nor what its rules ask" if self.wait_asked > LONG_WAIT_MIN else "")
            out.append(f"wait of {self.longest_wait} min (> 12 h{asked})")
        if self.longest_without_order > NO_ORDER_MIN:
            out.append(f"no order for {self.longest_without_order / 60:.0f} h (> 72 h)")
        if self.shuttles >= SHUTTLES:
            out.append(f"{self.shuttles} repositions back and forth")
        out += [f"{k} broken every scored day" for k in self.broken_every_day]
        return out


@dataclass
class RunResult:
    version: str
    mode: str
    drivers: list[DriverResult]
    wall_s: float  # the run (not the scoring); noisy on a shared machine
    run_dir: str
    cpu_s: float = 0.0  # CPU seconds of the run (all threads of the process)
    # why the run is not whole, per driver ("run" for the run itself): a driver ended by an
    # error, a log short of its steps, no run summary. Empty for a whole run
    not_whole: dict[str, str] = field(default_factory=dict)

    def total(self, attr: str) -> float:
        return round(sum(getattr(d, attr) for d in self.drivers), 2)

    def totals(self) -> dict:
        by_kind: dict[str, float] = defaultdict(float)
        for d in self.drivers:
            for k, v in d.penalty_by_kind.items():
                by_kind[k] += v
        return {"net": self.total("net"), "gross": self.total("gross"),
                "cost": self.total("cost"), "penalty": self.total("penalty"),
                "orders": int(self.total("orders")),
                "wait_minutes": int(self.total("wait_minutes")),
                "longest_wait": max((d.longest_wait for d in self.drivers), default=0),
                "penalty_by_kind": {k: round(v, 2) for k, v in sorted(by_kind.items())},
                "wall_s": round(self.wall_s, 1), "cpu_s": round(self.cpu_s, 1)}


@dataclass
class Checks:
    """The issue's acceptance checks of one mode against the greedy, per scoring version."""

    mode: str
    net_ratio: float | None
    penalty_share: float | None
    worse_drivers: list[dict]
    net_ok: bool
    penalty_ok: bool
    drivers_ok: bool

    @property
    def ok(self) -> bool:
        return self.net_ok and self.penalty_ok and self.drivers_ok


def check_against_greedy(greedy: RunResult, other: RunResult) -> Checks:
    g_net, g_pen = greedy.total("net"), greedy.total("penalty")
    o_net, o_pen = other.total("net"), other.total("penalty")
    # 1.25x a positive net; for a greedy net <= 0 the same margin over it: g + 0.25|g|
    ratio = o_net / g_net if g_net > 0 else None
    net_ok = o_net >= g_net + (NET_RATIO - 1) * abs(g_net)
    share = o_pen / g_pen if g_pen > 0 else None
    pen_ok = o_pen <= PENALTY_SHARE * g_pen if g_pen > 0 else o_pen <= 0
    base = {d.driver_id: d for d in greedy.drivers}
    worse = []
    for d in other.drivers:
        g = base.get(d.driver_id)
        if g is None:
            continue
        margin = DRIVER_SLACK * max(g.gross, 0.0)
        if d.net < g.net - margin:
            worse.append({"driver_id": d.driver_id, "net": d.net, "greedy_net": g.net,
                          "greedy_gross": g.gross, "short_by": round(g.net - margin - d.net, 2)})
    return Checks(other.mode, None if ratio is None else round(ratio, 4),
                  None if share is None else round(share, 4), worse, net_ok, pen_ok, not worse)


# --------------------------------------------------------------------------- one run

@dataclass(frozen=True)
class Job:
    market: str
    split: str
    version: str
    mode: str
    days: int
    drivers_file: str  # what the agents read (absolute path; the split's file or a subset)
    cargo_file: str
    run_dir: str
    reuse: bool = False  # score an earlier run of the same job instead of running again
    gold_file: str | None = None  # what the scorer reads, when the agents read texts only
    fine_weight: float = 1.0  # [policy] fine_weight: yuan of earnings a yuan of fine weighs
    compliance_budget: float | None = None  # [policy] compliance_budget (None: no bound)
    what_ifs: str = "all"  # [policy] what_ifs: how many what-ifs a step prices
    lessons: str | None = None  # [memory] lessons: the store a run loads and then teaches
    set_dir: str = str(SET_DIR)  # where the market's TOML is (`--set-dir`)
    place_weight: float = 0.0  # [policy] place_weight: what a destination's next pickup weighs

    @property
    def learns(self) -> bool:
        """Whether the run loads the lesson store and then teaches it (the greedy has no
        memory to teach)."""
        return self.lessons is not None and self.mode != OFF


def scenario_for(job: Job) -> Scenario:
    sc = load_scenario(str(scenario_path(job.market, job.split, job.set_dir)))
    memory = {"mode": job.mode}
    if job.learns:
        memory["lessons"] = job.lessons
    return sc.with_overrides(scenario={"days": job.days, "scoring": job.version},
                             memory=memory, policy={"fine_weight": job.fine_weight,
                                                           "compliance_budget":
                                                           job.compliance_budget,
                                                           "what_ifs": job.what_ifs,
                                                           "place_weight": job.place_weight},
                             drivers={"file": job.drivers_file},
                             cargo={"file": job.cargo_file})


def run_job(job: Job) -> RunResult:
    """One month under the official loop, then the official scorer (in a worker process)."""
    import io
    from contextlib import redirect_stdout

    from agents.app.compete import run_competition
    from sim.competition.log import summary_name
    from sim.scoring.scorer import score_run

    out = Path(job.run_dir)
    timing = out / TIMING_FILE
    if job.reuse and (out / "competition" / summary_name()).is_file():
        t = json.loads(timing.read_text(encoding="utf-8")) if timing.is_file() else {}
        wall, cpu = float(t.get("wall_s", 0.0)), float(t.get("cpu_s", 0.0))  # 0: not known
    else:
        if out.exists():
            shutil.rmtree(out)
        t0, c0 = time.perf_counter(), time.process_time()
        with redirect_stdout(io.StringIO()):
            summary = run_competition(scenario_for(job), out)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        timing.write_text(json.dumps({"wall_s": wall, "cpu_s": cpu}), encoding="utf-8")
        if job.learns:  # what the run read and taught
            (out / LESSONS_FILE).write_text(json.dumps(
                {k: v for k, v in summary.items() if k.startswith("lessons")}), encoding="utf-8")
    gold = Path(job.gold_file) if job.gold_file else None
    report = score_run(out / "competition", version=job.version, drivers=gold)
    asked = waits_asked(job.gold_file or job.drivers_file)
    drivers = [replace(d, wait_asked=asked.get(d.driver_id, LONG_WAIT_MIN))
               for d in summarise(report)]
    return RunResult(job.version, job.mode, drivers, wall, str(out), cpu,
                     not_whole(out / "competition", job.drivers_file))


def waits_asked(drivers_file: str | Path) -> dict[str, int]:
    """The longest wait each driver's own rules ask for, in minutes (read from the gold
    `structured` readings): N whole days off (K13, K14) may be taken in a row, a family event
    (K24) keeps the driver home for its window; each with a night's slack around it. A wait
    that long is the rule kept, not the failure class "a day-long wait" (P10's two days off,
    2,939 minutes, was named one)."""
    from sim.official.timebase import wall_minutes

    out = {}
    for row in json.loads(Path(drivers_file).read_text(encoding="utf-8")):
        asked = LONG_WAIT_MIN
        for p in row.get("preferences", []):
            st = p.get("structured") or {}
            params = st.get("params") or {}
            if st.get("kind") in OFF_DAY_KINDS:
                asked = max(asked, int(params.get("min_days") or 0) * DAY + LONG_WAIT_MIN)
            elif st.get("kind") == "home_stay_event":
                a, b = wall_minutes(params.get("w0")), wall_minutes(params.get("w_end"))
                if a is not None and b is not None and b > a:
                    asked = max(asked, b - a + LONG_WAIT_MIN)
        out[row["driver_id"]] = asked
    return out


def not_whole(folder: Path, drivers: str) -> dict[str, str]:
    """Why a run is not whole, per driver: what `check_run_complete` finds (no summary, a
    short or missing log) and every driver the run summary says an error ended (its log is
    whole but stops early, so its figures are a partial month). A report built on such a run
    says so and fails its checks: a partial run must not pass as whole."""
    from sim.competition.completeness import check_run_complete
    from sim.competition.log import summary_name

    found = check_run_complete(folder, drivers=drivers)
    out = {d.driver_id: d.detail for d in found.incomplete}
    if found.run_problems():
        out["run"] = "; ".join(found.run_problems())
    path = folder / summary_name()
    summary = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    for did, msg in (summary.get("driver_simulation_failures") or {}).items():
        out.setdefault(did, f"ended by an error: {msg}")
    return out


def summarise(report) -> list[DriverResult]:
    """Per-driver figures from a ScoreReport and the action logs it scored."""
    from sim.official.versions import settings_for

    n_scored = settings_for(report.version).horizon_days(report.n_days)
    out = []
    for d in report.drivers:
        by_kind: dict[str, float] = defaultdict(float)
        every_day = []
        for r in d.rules:
            if r.kind is None:
                continue
            by_kind[r.kind] += r.penalty
            bad = r.counters.get("violating_days")
            if isinstance(bad, list) and n_scored > 0 and len(bad) >= n_scored:
                every_day.append(r.kind)
        orders = steps = wait = longest = run = 0
        last_order = gap = shuttles = 0
        moves: list[tuple] = []  # (from, to) of the repositions since the last order
        for f in d.files:
            for line in Path(f).read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                rec = json.loads(line)
                steps += 1
                act = rec["action"]["action"]
                elapsed = int(rec.get("step_elapsed_minutes") or 0)
                if act == "wait":
                    wait += int(rec.get("action_exec_cost_minutes") or 0)
                    run += elapsed
                    longest = max(longest, run)
                else:
                    run = 0
                    if act == "take_order" and rec.get("result", {}).get("accepted"):
                        orders += 1
                        end = int(rec["result"].get("simulation_progress_minutes") or 0)
                        start = end - int(rec.get("action_exec_cost_minutes") or 0)
                        gap = max(gap, start - last_order)
                        last_order, moves = end, []
                    elif act == "reposition":
                        a, b = rec.get("position_before"), rec.get("position_after")
                        if moves and moves[-1][0] == b and moves[-1][1] == a:
                            shuttles += 1
                        moves.append((a, b))
        end_all = n_scored * 1440
        gap = max(gap, end_all - last_order) if orders else end_all
        i = d.income
        out.append(DriverResult(d.driver_id, round(i.net_income, 2), round(i.gross_income, 2),
                                round(i.cost, 2), round(i.preference_penalty, 2),
                                {k: round(v, 2) for k, v in sorted(by_kind.items()) if v},
                                orders, steps, wait, longest, every_day,
                                d.validation_error if d.calculation_aborted else None,
                                gap, shuttles))
    return out


# --------------------------------------------------------------------------- inputs

def cargo_file(market: str, split: str, days: int, cache: Path,
               set_dir: Path | str = SET_DIR) -> Path:
    """The market's cargo for `days` days, exported once (official JSON Lines) and reused.

    The cache name carries a hash of the market's [scenario] seed and [cargo] table, so an
    edited market is exported again."""
    from sim.world.cargo_stream import official_cargo_records

    sc = load_scenario(str(scenario_path(market, split, set_dir)))
    key = hashlib.sha256(json.dumps([sc.scenario.seed, sc.scenario.start, asdict(sc.cargo)],
                                    sort_keys=True, default=str).encode()).hexdigest()[:10]
    path = cache / f"{market}-{days}d-{key}.jsonl"
    if path.is_file():
        return path
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for r in official_cargo_records(sc.with_overrides(scenario={"days": days})):
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    tmp.replace(path)
    return path


def drivers_file(market: str, split: str, pick: str | None, where: Path,
                 set_dir: Path | str = SET_DIR) -> Path:
    """A copy of the split's drivers file (every run of one report reads the same drivers even
    if the set is regenerated meanwhile), or of a subset: `pick` is a count (the first N) or
    a comma-separated list of driver ids."""
    path = scenario_path(market, split, set_dir)
    if not path.is_file():
        raise ScenarioError(path, "--split/--set-dir", "a market TOML (make_drivers.py --fresh "
                            "writes one for --split fresh)", "no such file")
    sc = load_scenario(str(path))
    full = Path(sc.drivers.file).resolve()
    rows = json.loads(full.read_text(encoding="utf-8"))
    if not pick:
        chosen = rows
    elif pick.isdigit():
        chosen = rows[: int(pick)]
    else:
        want = [x.strip() for x in pick.split(",") if x.strip()]
        known = {r["driver_id"] for r in rows}
        missing = [w for w in want if w not in known]
        if missing:
            raise ScenarioError(full, "--drivers", f"driver ids of {full.name}",
                                ", ".join(missing))
        chosen = [r for r in rows if r["driver_id"] in want]
    where.mkdir(parents=True, exist_ok=True)
    path = where / "drivers.json"
    path.write_text(json.dumps(chosen, ensure_ascii=False, indent=2), encoding="utf-8")
    return path.resolve()


def text_only(gold: Path) -> Path:
    """The drivers file without the `structured` gold readings, as the competition hands it
    out: agents must read the texts (the scorer still scores with the gold)."""
    rows = json.loads(gold.read_text(encoding="utf-8"))
    for r in rows:
        r["preferences"] = [{k: v for k, v in p.items() if k != "structured"}
                            for p in r["preferences"]]
    path = gold.with_name("drivers_text_only.json")
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- report

def build_report(args: argparse.Namespace, results: list[RunResult]) -> dict:
    by_version: dict[str, dict[str, RunResult]] = defaultdict(dict)
    for r in results:
        by_version[r.version][r.mode] = r
    versions = {}
    for v, runs in by_version.items():
        entry: dict = {"modes": {}, "checks": None}
        for m, r in runs.items():
            entry["modes"][m] = {"totals": r.totals(), "run_dir": r.run_dir,
                                 "not_whole": r.not_whole,
                                 "drivers": [{**asdict(d), "failures": d.failure_classes()}
                                             for d in r.drivers]}
        greedy = runs.get(OFF)
        others = [r for m, r in runs.items() if m != OFF]
        if greedy is not None and others:
            best = max(others, key=lambda r: r.total("net"))
            per_mode = {r.mode: asdict(check_against_greedy(greedy, r)) for r in others}
            for m, c in per_mode.items():
                c["whole"] = not (runs[m].not_whole or greedy.not_whole)
                c["ok"] = c["net_ok"] and c["penalty_ok"] and c["drivers_ok"] and c["whole"]
            entry["checks"] = {"greedy": OFF, "best_mode": best.mode,
                               "ok": per_mode[best.mode]["ok"], "per_mode": per_mode}
        elif greedy is not None:  # greedy alone: it is its own comparison and must fail 1.25x
            c = asdict(check_against_greedy(greedy, greedy))
            c["whole"] = not greedy.not_whole
            c["ok"] = c["net_ok"] and c["penalty_ok"] and c["drivers_ok"] and c["whole"]
            entry["checks"] = {"greedy": OFF, "best_mode": OFF, "ok": c["ok"],
                               "per_mode": {OFF: c}}
        versions[v] = entry
    market_seed = load_scenario(str(scenario_path(args.market, args.split,
                                                  args.set_dir))).scenario.seed
    return {"market": args.market, "split": args.split, "days": args.days,
            "market_seed": market_seed, "drivers": args.drivers or "all",
            "agents_read": args.read,
            "policy": {"fine_weight": args.fine_weight,
                       "compliance_budget": args.compliance_budget, "what_ifs": args.what_ifs,
                       "place_weight": args.place_weight,
                       "lessons": None if args.lessons is None else str(args.lessons)},
            "targets": {
                "net_ratio_min": NET_RATIO, "penalty_share_max": PENALTY_SHARE,
                "driver_slack_of_greedy_gross": DRIVER_SLACK},
            "versions": versions}


def format_report(rep: dict) -> str:
    lines = [f"policy eval: market {rep['market']}, split {rep['split']}, {rep['days']} days, "
             f"drivers {rep['drivers']}, agents read {rep.get('agents_read', 'structured')}"]
    for v, entry in rep["versions"].items():
        lines.append(f"\n== {v}")
        modes = entry["modes"]
        head = (f"{'mode':<22}{'net':>12}{'gross':>12}{'cost':>10}{'penalty':>11}{'orders':>8}"
                f"{'wait h':>8}{'max wait':>9}{'wall s':>8}{'cpu s':>8}")
        lines += [head, "-" * len(head)]
        for m, body in modes.items():
            t = body["totals"]
            lines.append(f"{m:<22}{t['net']:>12,.0f}{t['gross']:>12,.0f}{t['cost']:>10,.0f}"
                         f"{t['penalty']:>11,.0f}{t['orders']:>8}{t['wait_minutes'] / 60:>8.0f}"
                         f"{t['longest_wait']:>9}{t['wall_s']:>8}{t.get('cpu_s', 0):>8}")
        kinds = sorted({k for body in modes.values() for k in body["totals"]["penalty_by_kind"]})
        if kinds:
            lines.append("\npenalty by kind:")
            lines.append(f"{'kind':<28}" + "".join(f"{m[:12]:>13}" for m in modes))
            for k in kinds:
                lines.append(f"{k:<28}" + "".join(
                    f"{body['totals']['penalty_by_kind'].get(k, 0):>13,.0f}"
                    for body in modes.values()))
        lines.append("\nper driver (net / penalty):")
        ids = [d["driver_id"] for d in next(iter(modes.values()))["drivers"]]
        lines.append(f"{'driver':<8}" + "".join(f"{m[:16]:>22}" for m in modes))
        for i, did in enumerate(ids):
            cells = []
            for body in modes.values():
                d = body["drivers"][i]
                cells.append(f"{d['net']:>12,.0f} /{d['penalty']:>7,.0f}")
            lines.append(f"{did:<8}" + "".join(f"{c:>22}" for c in cells))
        for m, body in modes.items():
            for did, why in body.get("not_whole", {}).items():
                lines.append(f"  NOT WHOLE [{m}] {did}: {why}")
            fails = [(d["driver_id"], d["failures"]) for d in body["drivers"] if d["failures"]]
            for did, f in fails:
                lines.append(f"  [{m}] {did}: " + "; ".join(f))
        ch = entry["checks"]
        if ch:
            lines.append(f"\nchecks against {ch['greedy']} (best mode: {ch['best_mode']}):")
            for m, c in ch["per_mode"].items():
                worse = ", ".join(w["driver_id"] for w in c["worse_drivers"]) or "none"
                lines.append(
                    f"  {m:<20} net x{c['net_ratio']} ({'ok' if c['net_ok'] else 'FAIL'} >= "
                    f"{NET_RATIO}), penalty share {c['penalty_share']} "
                    f"({'ok' if c['penalty_ok'] else 'FAIL'} <= {PENALTY_SHARE}), drivers worse "
                    f"by > {DRIVER_SLACK:.0%} of greedy gross: {worse}"
                    f"{'' if c['drivers_ok'] else ' (FAIL)'}"
                    f"{'' if c.get('whole', True) else '; a run is NOT WHOLE (FAIL)'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- main

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--market", choices=MARKETS, default="calibrated")
    ap.add_argument("--split", choices=SPLITS, default="tune")
    ap.add_argument("--versions", default=",".join(VERSIONS), help="S2,S4 (comma list)")
    ap.add_argument("--modes", default=",".join((OFF, *mode_names())),
                    help=f"comma list; default {OFF} and every memory mode")
    ap.add_argument("--days", type=int, default=31, help="days of the month to run (1-31)")
    ap.add_argument("--drivers", help="the first N drivers, or a comma list of driver ids")
    ap.add_argument("--jobs", type=int, default=1, help="runs in parallel processes")
    ap.add_argument("--out", default="runs/policy_eval", help="run directories and cargo cache")
    ap.add_argument("--json", help="report path (default <out>/report-<market>-<split>-<days>d"
                                   "-<versions>[-<modes>].json)")
    ap.add_argument("--read", choices=["structured", "text"], default="structured",
                    help="what the agents read: the gold `structured` field (default) or the "
                         "texts alone, as in the competition (scored with the gold either way)")
    ap.add_argument("--fine-weight", type=float, default=1.0,
                    help="[policy] fine_weight of the memory modes (1: a fine at its amount)")
    ap.add_argument("--compliance-budget", type=float, default=None,
                    help="[policy] compliance_budget of the memory modes (default: no bound)")
    ap.add_argument("--what-ifs", choices=["all", "lean"], default="all",
                    help="[policy] what_ifs of the memory modes (lean: fewer priced per step)")
    ap.add_argument("--place-weight", type=float, default=0.0,
                    help="[policy] place_weight of the memory modes (0: destinations not valued)")
    ap.add_argument("--lessons", type=Path,
                    help="[memory] lessons of the memory modes: a lesson store (SQLite) each run "
                         "loads, then adds what it learnt to (runs of one call, in order)")
    ap.add_argument("--set-dir", type=Path, default=SET_DIR,
                    help="the folder of <market>-<split>.toml (default the shipped set; a "
                         "fresh set's --out)")
    ap.add_argument("--reuse", action="store_true",
                    help="score the runs an earlier call left in --out instead of running again")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    modes = [current_name(m.strip(), "--modes") for m in args.modes.split(",") if m.strip()]
    versions = [v.strip().upper() for v in args.versions.split(",") if v.strip()]
    known = (OFF, *mode_names())
    bad = [m for m in modes if m not in known] + [v for v in versions if v not in VERSIONS]
    if bad or not modes or not versions or not 1 <= args.days <= 31 or args.jobs < 1:
        print(f"error: bad --modes/--versions/--days/--jobs ({', '.join(bad) or 'range'}); "
              f"modes: {', '.join(known)}; versions: {', '.join(VERSIONS)}", file=sys.stderr)
        return 2
    out = Path(args.out)
    tag = f"{args.market}-{args.split}-{args.days}d" + (
        f"-d{hashlib.sha256(args.drivers.encode()).hexdigest()[:6]}" if args.drivers else "") + (
        "-text" if args.read == "text" else "") + (
        f"-w{args.fine_weight:g}" if args.fine_weight != 1.0 else "") + (
        f"-b{args.compliance_budget:g}" if args.compliance_budget is not None else "") + (
        f"-{args.what_ifs}" if args.what_ifs != "all" else "") + (
        f"-p{args.place_weight:g}" if args.place_weight else "") + (
        f"-lessons-{args.lessons.stem}" if args.lessons is not None else "")
    if args.lessons is not None and args.jobs > 1:
        print("error: --lessons runs one job at a time (each run teaches the next)",
              file=sys.stderr)
        return 2
    try:
        drivers = drivers_file(args.market, args.split, args.drivers, out / tag, args.set_dir)
        cargo = cargo_file(args.market, args.split, args.days, out / "cargo", args.set_dir)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    read = text_only(drivers) if args.read == "text" else drivers
    jobs = [Job(args.market, args.split, v, m, args.days, str(read), str(cargo.resolve()),
                str(out / tag / v / m), args.reuse,
                str(drivers) if args.read == "text" else None, args.fine_weight,
                args.compliance_budget, args.what_ifs,
                None if args.lessons is None else str(args.lessons.resolve()),
                str(Path(args.set_dir).resolve()), args.place_weight)
            for v in versions for m in modes]
    if args.jobs == 1:
        results = [run_job(j) for j in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_job, jobs))
    rep = build_report(args, results)
    name = f"report-{tag}-{'+'.join(versions)}"
    if modes != [OFF, *mode_names()]:
        name += f"-{'+'.join(modes)}"
    path = Path(args.json) if args.json else out / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rep, ensure_ascii=False, indent=2), encoding="utf-8")
    print(format_report(rep))
    print(f"\nreport: {path}")
    ok = all(e["checks"] is None or e["checks"]["ok"] for e in rep["versions"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
