"""Long-term lessons: distilled after a run, sent in the next run's views, weakened when
contradicted and retired at zero."""

from __future__ import annotations

from pathlib import Path

from agents.app.runner import build_run, run_scenario
from memory.lessons import LessonStore, Observed
from sim.geo import Point
from sim.scenario import Scenario
from sim.world.actions import Observation


def test_second_run_sends_first_runs_lessons(tmp_path: Path, smoke: Scenario) -> None:
    sc = smoke.with_overrides(memory={"lessons": str(tmp_path / "lessons.sqlite")},
                              scenario={"days": 2.0})
    first = run_scenario(sc, tmp_path / "one")
    assert first.summary["lessons_loaded"] == 0
    assert first.summary["lessons"]["added"] > 0
    store = LessonStore(tmp_path / "lessons.sqlite")
    texts = [t for t, _, _ in store.active(5)]
    store.close()
    assert texts

    world, services = build_run(sc.with_overrides(scenario={"seed": 2}), tmp_path / "two")
    assert services.lessons
    assert texts[0] in services.lessons[0]
    mem = next(iter(services.memories.values()))
    obs = Observation(mem.spec.driver_id, 0.0, 2880.0, Point(mem.spec.lat, mem.spec.lng),
                      mem.spec.cost_per_km, 0.0, 0, 0.0, 0.0, 10)
    views = mem.step(obs).views
    for agent in ("search", "main_decision"):
        assert "lessons from earlier runs" in views[agent].render()
        assert texts[0] in views[agent].render()
    second = world.run()
    assert second.summary["lessons_loaded"] == len(services.lessons)
    assert sum(second.summary["lessons"].values()) > 0


def test_contradicted_lesson_loses_strength_and_retires(tmp_path: Path) -> None:
    store = LessonStore(tmp_path / "l.sqlite")
    hot = Observed("hot_market", "85411c07fffffff@2", "grid pays", True, {"queries": 4})
    assert store.update([hot], "run1") == {"added": 1, "confirmed": 0, "contradicted": 0,
                                           "retired": 0}
    store.update([hot], "run2")
    assert store.strength(hot.id) == 2.0
    cold = Observed(hot.kind, hot.key, "grid gave nothing", False, {"queries": 5})
    store.update([cold], "run3")
    assert store.strength(hot.id) == 1.0
    counts = store.update([cold], "run4")
    assert counts["retired"] == 1
    assert store.active() == []
    # a contradiction never creates a lesson
    assert store.update([Observed("dead_grid", "x", "t", False, {})], "run5")["added"] == 0
    store.close()
