"""The compressed main-decision view keeps the step just taken (memory/view_builders.py).

Right after a digest no action is newer than it, and the digest states patterns, not the last
action; the month's fact recall showed the main view losing it (pattern recall 0.977).
"""

from __future__ import annotations

from pathlib import Path

from agents.app.evaluate import ProbeRecorder
from agents.app.runner import build_run
from sim.scenario import load_scenario
from tests.conftest import SCENARIOS


def test_every_compressed_main_view_names_the_last_action(tmp_path: Path) -> None:
    sc = load_scenario(SCENARIOS / "bench.toml").with_overrides(
        scenario={"days": 2}, memory={"mode": "compressed"})
    world, services = build_run(sc, tmp_path)
    rec = ProbeRecorder(world, services, keep_texts=False)
    services.call_hooks.append(rec)
    world.run()
    s = rec.summary()
    assert s["probes"] > 100
    assert s["by_kind"]["pattern"] == 1.0
