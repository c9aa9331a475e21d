"""Simulator throughput at scale: 10, 100 and 1000 drivers for a simulated week.

Cargo arrivals scale with the drivers (same market per driver), so cost growth shows whether
the simulator is linear in drivers. Each size runs in its own process for a clean peak RSS.
usage: python benchmarks/throughput.py [--sizes 10,100,1000] [--days 7] [--memory bounded]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """[scenario]
name = "throughput-{n}"
seed = 5
days = {days}

[cargo]
rate_per_hour = {rate}

[drivers]
count = {n}

[memory]
mode = "{mode}"
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--days", type=float, default=7.0)
    ap.add_argument("--memory", default="bounded")
    ap.add_argument("--cargo-per-driver-hour", type=float, default=3.0)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            sc = Path(tmp) / f"t{n}.toml"
            sc.write_text(SCENARIO.format(n=n, days=args.days, mode=args.memory,
                                          rate=args.cargo_per_driver_hour * n))
            out = Path(tmp) / f"run{n}"
            subprocess.run([sys.executable, "-m", "agents.app.cli", "run", str(sc), "--out",
                            str(out), "--no-progress"], check=True, cwd=ROOT,
                           capture_output=True)
            s = json.loads((out / "summary.json").read_text())
            rows.append({"drivers": n, "days": args.days, "memory": args.memory,
                         "events": s["events"], "steps": s.get("steps", 0),
                         "wall_s": s["wall_s"], "events_per_s": s["events_per_s"],
                         "ms_per_driver_day": round(1000 * s["wall_s"] / (n * args.days), 2),
                         "peak_rss_mb": s["peak_rss_mb"]})
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    base = rows[0]["ms_per_driver_day"]
    print("\ncost per driver-day relative to the smallest size: "
          + ", ".join(f"{r['drivers']}: {r['ms_per_driver_day'] / base:.2f}x" for r in rows))


if __name__ == "__main__":
    main()
