"""Is the decision path fast enough to iterate? Two whole runs against their targets.

- `scenarios/month.toml` (generator world, 100 drivers, 31 days) in `bounded` mode: 60 s;
- `scenarios/competition.toml` (competition rules, 10 drivers, 31 days, calibrated market)
  in `bounded` mode: 45 s for the decision loop (the run summary's `simulate_time_seconds`).

Each run is its own process; the figures are the run's own wall time and the process's CPU
seconds (user + system, read from the OS after it exits), so a shared machine shows up as
wall above CPU. The memory-off greedy runs beside each for the ratio.
usage: python benchmarks/decision_speed.py [--only month|competition] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"month": ("scenarios/month.toml", 60.0), "competition": ("scenarios/competition.toml",
                                                                     45.0)}


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(name: str, memory: str) -> dict:
    path, target = TARGETS[name]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "agents.app.cli", "run", path, "--out", tmp,
               "--memory", memory, "--no-progress"]
        c0, t0 = _cpu(), time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        if name == "competition":
            summary = json.loads(next(Path(tmp).glob("competition/run_summary_*.json"))
                                 .read_text())
            run_s = float(summary["simulate_time_seconds"])
        else:
            run_s = float(json.loads((Path(tmp) / "summary.json").read_text())["wall_s"])
    return {"run": name, "memory": memory, "run_s": round(run_s, 1),
            "process_wall_s": round(wall, 1), "process_cpu_s": round(cpu, 1),
            "target_s": target, "within": run_s <= target}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=sorted(TARGETS))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    for name in [args.only] if args.only else list(TARGETS):
        rows += [measure(name, "off"), measure(name, "bounded")]
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["within"] for r in rows if r["memory"] == "bounded") else 1


if __name__ == "__main__":
    sys.exit(main())
