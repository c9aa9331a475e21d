"""What the compressed views keep live (memory/view_builders.py, memory/views.py).

The main-decision view keeps the step just taken.

Right after a digest no action is newer than it, and the digest states patterns, not the last
action; the month's fact recall showed the main view losing it (pattern recall 0.977).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agents.app.evaluate import ProbeRecorder
from agents.app.runner import build_run
from memory.probes import with_value
from memory.views import COMPACT, Candidate, CargoView, MainDecisionView
from sim.geo import Point
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


def _cargo(cid: str) -> CargoView:
    return CargoView(cid, Point(23.13, 113.27), Point(22.55, 114.06), 900.0, 30.0, 600.0,
                     600.0, 180.0, 130.0)


def test_a_candidate_shows_its_net_after_the_rules_fine() -> None:
    # a model ranks what it is shown: the step ranks by the net after the preference fine
    fined = Candidate(_cargo("C7"), est_net=622.0, empty_km=18.0, fine=270.0)
    plain = Candidate(_cargo("C8"), est_net=622.0, empty_km=18.0)
    for line in (fined.line(), fined.short_line()):
        assert "net~352 (fined 270)" in line
        assert with_value("C7", "net", 352.0)(line)
        assert not with_value("C7", "net", 622.0)(line)
    assert "net~622 empty" in plain.short_line()
    assert "fined" not in plain.line()


def test_the_compact_main_view_counts_failed_takes_live() -> None:
    # the digest's count goes stale at the next failed take; the live line must carry it
    v = MainDecisionView(mode="compressed", now=600.0, failed_takes=2, renderer=COMPACT)
    assert "failed takes 2" in v.render()
    assert "failed takes" not in replace(v, failed_takes=0).render()
