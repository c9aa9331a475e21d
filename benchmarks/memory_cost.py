"""Memory cost over history: per-event store update (µs) and per-step view build (µs) by day.

usage: python benchmarks/memory_cost.py [SCENARIO] [--mode bounded|full|compressed] [--days D]
Runs the scenario (default scenarios/month.toml, bounded mode) once with profiling on and prints
the cost on day 1 and on the last day side by side, with their ratio: flat means no rescans.
Also prints stale/failed takes and repeated low-yield searches with memory off and on.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.app.runner import build_run  # noqa: E402
from memory.memory_agent import MemoryProfile  # noqa: E402
from sim.analysis.metrics import quality  # noqa: E402
from sim.scenario import load_scenario  # noqa: E402
from sim.world.recorder import read_events  # noqa: E402


def profile_run(sc, out: Path) -> tuple[MemoryProfile, float]:
    world, services = build_run(sc, out)
    prof = MemoryProfile()
    for m in services.memories.values():
        m.profile = prof
    t0 = time.perf_counter()
    world.run()
    return prof, time.perf_counter() - t0


def quality_of(sc, out: Path) -> dict:
    import pyarrow.parquet as pq

    world, _ = build_run(sc, out)
    world.run()
    ev = read_events(out).to_pandas()
    drivers = pq.read_table(out / "drivers.parquet").to_pandas()
    return quality(ev, drivers, sc.scenario.days, sc.geo.memory_h3_res, sc.memory.low_yield_net)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios/month.toml"))
    ap.add_argument("--mode", default="bounded")
    ap.add_argument("--days", type=float)
    args = ap.parse_args()
    sc = load_scenario(args.scenario).with_overrides(memory={"mode": args.mode})
    if args.days:
        sc = sc.with_overrides(scenario={"days": args.days})
    with tempfile.TemporaryDirectory() as tmp:
        prof, wall = profile_run(sc, Path(tmp) / "profile")
        days = sorted({d for _, d in prof.n})
        first, second, last = days[0], days[1], days[-1]
        print(f"{sc.scenario.name}: {sc.drivers.count} drivers, {sc.scenario.days:g} days, "
              f"memory {args.mode}, wall {wall:.1f}s")
        print(f"| cost | day 1 | day 2 | day {last + 1} | day {last + 1} / day 2 |")
        print("|---|---|---|---|---|")
        for what, label in (("event", "store update per event (µs)"),
                            ("views", "view build per step (µs)")):
            a, b, c = (prof.ns[(what, d)] / prof.n[(what, d)] / 1000
                       for d in (first, second, last))
            print(f"| {label} | {a:.2f} | {b:.2f} | {c:.2f} | {c / b:.2f} |")
        print("(day 1 starts with an empty market, so day 2 is the fair reference)")
        off = quality_of(sc.with_overrides(memory={"mode": "off"}), Path(tmp) / "off")
        on = quality_of(sc, Path(tmp) / "on")
        print("\n| metric | memory off | memory " + args.mode + " |")
        print("|---|---|---|")
        for k in ("stale_or_failed_takes", "stale_takes", "repeat_failed_takes", "failed_takes",
                  "repeated_low_yield_searches", "net_income_per_driver_day",
                  "penalty_per_driver"):
            print(f"| {k} | {off[k]} | {on[k]} |")


if __name__ == "__main__":
    main()
