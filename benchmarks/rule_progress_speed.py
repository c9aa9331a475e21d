"""Steps per second of memory/rule_progress.py: 24 rules on a 31-day competition-shaped log.

A driver works a month (waits, repositions, takes) through tests/competition_logs.py's official
arithmetic; at every step the progress gives each rule's state and the what-if of 5 candidate
takes, as the MemoryAgent does once per step.
Run: .venv/bin/python benchmarks/rule_progress_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.rule_progress import HypoTake, RuleProgress, rules_from_entries
from sim.geo import Point
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_rule_progress import pref
from tests.test_scoring_run import HOME, SAMPLES

DAYS = 31
CATS = ["蔬菜", "水果", "建材", "化工塑料", "煤炭矿产"]


def main() -> None:
    rng = np.random.default_rng(1)
    cargo, n = [], 0
    for day in range(DAYS):
        for _ in range(40):
            lat0, lng0 = 22.5 + rng.random() * 0.6, 113.5 + rng.random() * 0.8
            lat1, lng1 = 22.5 + rng.random() * 0.6, 113.5 + rng.random() * 0.8
            t0 = day * 1440 + int(rng.integers(0, 1400))
            cargo.append(cargo_row(f"c{n}", (lat0, lng0), (lat1, lng1), create=t0,
                                   remove=t0 + 600, cost_time=int(rng.integers(60, 400)),
                                   category=CATS[n % len(CATS)]))
            n += 1
    entries = [pref(k, p) for k, p in SAMPLES.items()]
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, parser=None), n_days=DAYS,
                      initial=Point(*HOME))
    for c in cargo:
        rp.add_cargo(c)
    b = LogBuilder("d1", *HOME, cargo)
    by_time = sorted(cargo, key=lambda c: c["create_time"])
    spent, steps, i = 0.0, 0, 0
    while b.t < DAYS * 1440 - 60:
        r = rng.random()
        live = [c for c in by_time[max(0, i - 60):i + 60]
                if c["cargo_id"] not in b.attempted]
        if r < 0.4 and live:
            b.take(live[int(rng.integers(0, len(live)))]["cargo_id"], scan=2)
        elif r < 0.6:
            b.reposition(22.5 + rng.random() * 0.6, 113.5 + rng.random() * 0.8)
        else:
            b.wait(int(rng.integers(20, 300)))
        while i < len(by_time) and by_time[i]["create_time"] <= b.records[-1][
                "simulation_end_time"]:
            i += 1
        t0 = time.perf_counter()
        rp.on_step(b.records[-1])
        rp.states(b.t)
        for c in live[:5]:
            rp.extra_penalty(HypoTake(rp.cargo[c["cargo_id"]], b.t, Point(b.lat, b.lng)))
        spent += time.perf_counter() - t0
        steps += 1
    print(f"{steps} steps over {DAYS} days, 24 rules, states + 5 what-ifs per step: "
          f"{steps / spent:.0f} steps/s ({1000 * spent / steps:.1f} ms/step)")


if __name__ == "__main__":
    main()
