"""The collector's pace: raised inside both run loops, the caller's settings back after, even
when loops nest, overlap in threads or fail (sim/collector.py)."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest

from sim.collector import LOOP_THRESHOLDS, paced_collector

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CALLER = (900, 11, 12)  # a caller's own settings, unlike both the default and the loop's


@pytest.fixture
def caller_thresholds():
    before = gc.get_threshold()
    gc.set_threshold(*CALLER)
    yield
    gc.set_threshold(*before)


def test_the_pace_is_raised_inside_and_restored_after(caller_thresholds) -> None:
    with paced_collector():
        assert gc.get_threshold() == LOOP_THRESHOLDS
        with paced_collector():  # a bench running a world: the inner end keeps the pace
            pass
        assert gc.get_threshold() == LOOP_THRESHOLDS
    assert gc.get_threshold() == CALLER


def test_a_failing_loop_restores_the_callers_pace(caller_thresholds) -> None:
    with pytest.raises(KeyboardInterrupt), paced_collector():
        raise KeyboardInterrupt
    assert gc.get_threshold() == CALLER


def test_overlapping_loops_in_threads_restore_only_at_the_last_end(caller_thresholds) -> None:
    inside, release = threading.Barrier(3), threading.Event()
    seen: list[tuple[int, ...]] = []

    def loop() -> None:
        with paced_collector():
            inside.wait()
            release.wait()
            seen.append(gc.get_threshold())

    threads = [threading.Thread(target=loop) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_threshold() == LOOP_THRESHOLDS
    release.set()
    for t in threads:
        t.join()
    assert seen == [LOOP_THRESHOLDS, LOOP_THRESHOLDS]  # the first to end left the pace alone
    assert gc.get_threshold() == CALLER


def test_the_generator_world_runs_at_the_loop_pace(tmp_path: Path, caller_thresholds) -> None:
    from agents.app.runner import build_run
    from sim.scenario import load_scenario

    world, _ = build_run(load_scenario(SCENARIOS / "smoke.toml"), tmp_path)
    during: set[tuple[int, ...]] = set()
    world.bus.subscribe(lambda _ev: during.add(gc.get_threshold()))
    world.run()
    assert during == {LOOP_THRESHOLDS}
    assert gc.get_threshold() == CALLER


def test_the_competition_loop_runs_at_the_loop_pace(tmp_path: Path, caller_thresholds,
                                                   monkeypatch) -> None:
    from agents.app.compete import run_competition
    from sim.competition.env import CompetitionEnv
    from sim.scenario import load_scenario

    during: list[tuple[int, ...]] = []
    run_driver = CompetitionEnv.run_driver

    def watched(self, run, agent) -> None:
        during.append(gc.get_threshold())
        run_driver(self, run, agent)

    monkeypatch.setattr(CompetitionEnv, "run_driver", watched)
    sc = load_scenario(SCENARIOS / "competition-smoke.toml").with_overrides(
        scenario={"days": 1})
    summary = run_competition(sc, tmp_path / "o", stamp="20260301_000000")
    assert set(summary["driver_end_reasons"].values()) == {"normal"}
    assert during == [LOOP_THRESHOLDS] * 3
    assert gc.get_threshold() == CALLER
