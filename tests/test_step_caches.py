"""What the month's speed-ups keep between calls gives what working it out again gives.

Each cache here is keyed or dropped so that a change its answer depends on reaches it: a quiet
window's steps kept on a what-if's kept log, the hour factors kept until a search teaches an
hour, a fact rendered only when read, a driver's anchors kept by its rules, a time price's
lines worked out once.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memory.grown_log import GrownLog, KeptLog
from memory.rule_progress import RuleSpec
from memory.time_price import FLAT, HourRates, TimePrice
from memory.tokens import FactLog
from memory.view_builders import SearchViews
from sim.geo import Point
from sim.official.cargo_index import index_cargo
from sim.official.steps import StepLog
from sim.official.versions import settings_for
from sim.official.windows import Window
from sim.preferences.kinds import RuleContext, build_rule
from tests.competition_logs import LogBuilder

HOME = (22.54, 114.05)
NORTH = (22.63, 114.05)


def _quiet(count: str):
    return build_rule("quiet_window", {"start": "12:00", "end": "14:00", "count": count})


def test_a_quiet_windows_steps_on_a_grown_log_are_the_plain_logs():
    b = (LogBuilder("d1", *HOME, []).wait(700).reposition(*NORTH).wait(60).reposition(*HOME)
         .wait(1500).reposition(*NORTH))
    log = StepLog.from_records(b.records, index_cargo(b.cargo.values()))
    ctx = RuleContext(settings_for("S4"), 3, "quiet_window", Window.from_bounds(None, None,
                                                                                n_days=3),
                      Point(*HOME))
    kept = KeptLog(log.steps[:3], log.cargo)
    for count in ("per_step", "per_day"):
        rule = _quiet(count)
        for cut in (3, 4):  # two what-ifs on the same kept log: the second reads the memo
            grown = GrownLog.grow(kept, log.steps[3:cut + 2], log.cargo)
            plain = StepLog(grown.steps, log.cargo)
            assert rule.violations(grown, ctx) == rule.violations(plain, ctx)
    got = _quiet("per_step").violations(log, ctx)
    assert got["violations"] >= 1  # the test means something: a move at noon is fined


def test_hour_factors_follow_every_search_seed_and_restore():
    h = HourRates()
    assert h.factors() == FLAT
    h.add(8 * 60, 2.0)
    h.add(20 * 60, 1.0)
    first = h.factors()
    assert first != FLAT
    h.add(20 * 60, 3.0)  # the evening's mean rises: the kept factors must go
    assert h.factors() != first
    fresh = HourRates()
    fresh.set_state(h.get_state())
    assert fresh.factors() == h.factors()
    h.set_state(HourRates().get_state())
    assert h.factors() == FLAT
    h.seed(first)
    assert h.factors() == pytest.approx(first)


def test_a_fact_added_later_is_rendered_in_order_when_read():
    calls = []

    def render(x: int) -> str:
        calls.append(x)
        return f"fact {x}"

    log = FactLog(None)
    log.append("a")
    log.append_later(render, 1)
    log.append("b")  # after a fact not rendered yet: stays after it
    log.append_later(render, 2)
    assert len(log) == 4
    assert calls == []
    assert log.lines == ["a", "fact 1", "b", "fact 2"]
    assert log.text(1) == "fact 1\nb\nfact 2\n"
    assert calls == [1, 2]
    log.set_state({"lines": ["x"], "cum": [0, 0]})
    assert log.lines == ["x"]
    assert len(log) == 1


def _reader(*rules) -> SimpleNamespace:
    return SimpleNamespace(rules=SimpleNamespace(rules=tuple(rules)))


def test_anchors_are_kept_per_drivers_rules():
    def spec(lat: float, lng: float) -> RuleSpec:
        return RuleSpec(1, "home", build_rule("home_by_curfew", {
            "lat": lat, "lng": lng, "radius_km": 2.0, "curfew": "22:00",
            "quiet_until": "06:00"}), 100.0, None, Window.from_bounds(None, None, n_days=31))
    home, other = spec(22.5, 114.0), spec(23.1, 113.3)
    views = SearchViews()
    a, b = _reader(home), _reader(other)
    first = views.anchors(a)
    assert first == ("#1 home_by_curfew (22.500,114.000) r2km",)
    assert views.anchors(b) == ("#1 home_by_curfew (23.100,113.300) r2km",)
    assert views.anchors(a) is first  # kept
    assert views.anchors(SimpleNamespace(rules=None)) == ()


def test_a_time_prices_lines_are_a_fresh_list_each_time():
    tp = TimePrice(0.5, FLAT)
    lines = tp.lines()
    lines.append("x")
    assert tp.lines() == ["time is worth 0.50/min on average"]
    assert TimePrice().lines() == []
