"""Wall time, peak memory and events per second of whole scenario runs.

Each scenario runs in its own process, so the peak RSS it reports belongs to that run alone.
usage: python benchmarks/world_throughput.py [SCENARIO ...] [--memory MODE]
(default: scenarios/default.toml scenarios/month.toml with the scenarios' own memory mode)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(scenario: Path, memory: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "agents.app.cli", "run", str(scenario), "--out", tmp,
               "--no-progress"] + (["--memory", memory] if memory else [])
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True)
        wall = time.perf_counter() - t0
        summary = json.loads((Path(tmp) / "summary.json").read_text())
    return {
        "scenario": scenario.stem, "memory": summary["memory_mode"],
        "drivers": summary["drivers"], "days": summary["days"],
        "events": summary["events"], "sim_wall_s": summary["wall_s"],
        "process_wall_s": round(wall, 2),
        "events_per_s": summary["events_per_s"],
        "peak_rss_mb": summary["peak_rss_mb"],
        "wall_ms_per_driver_day": round(1000 * summary["wall_s"]
                                        / (summary["drivers"] * summary["days"]), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenarios", nargs="*", type=Path,
                    default=[ROOT / "scenarios/default.toml", ROOT / "scenarios/month.toml"])
    ap.add_argument("--memory")
    args = ap.parse_args()
    rows = [measure(s, args.memory) for s in args.scenarios]
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")


if __name__ == "__main__":
    main()
