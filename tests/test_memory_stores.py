"""The three stores fed with hand-made events: staleness, failures, streaks, progress, state."""

from __future__ import annotations

import json

import h3
import pytest

from memory.cargo_memory import CargoMemory
from memory.driver_memory import DriverMemory
from memory.market_memory import MarketMemory
from memory.tokens import TokenCounter
from sim.geo import Geography, Point
from sim.world.cargo import CargoView
from sim.world.events import ActionChosen, SearchDone, TakeFailed, Waited

GZ = Point(23.129, 113.264)


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong()


def cargo(cid: str, t: float, window_end: float, origin: Point = GZ,
          price: float = 900.0) -> CargoView:
    return CargoView(cid, origin, Point(22.54, 114.06), price, t + 5, window_end,
                     window_end, 180.0, 130.0)


def search(t: float, results: tuple, at: Point = GZ, best: float = 0.0) -> SearchDone:
    return SearchDone(t, "D1", at.lat, at.lng, 30.0, 1, 10, results, best_net=best)


def test_cargo_goes_stale_when_its_window_passes(geo: Geography) -> None:
    m = CargoMemory(geo, 1.5, None, confirm_minutes=1e9)
    m.on_event(search(100.0, (cargo("C1", 100.0, 130.0), cargo("C2", 100.0, 400.0))))
    assert set(m.active) == {"C1", "C2"}
    m.advance(131.0)
    assert "C1" not in m.active
    assert m.stale_cargo_ids == ["C1"]
    assert [c.cargo_id for c in m.candidates()] == ["C2"]


def test_unconfirmed_cargo_goes_stale(geo: Geography) -> None:
    m = CargoMemory(geo, 1.5, None, confirm_minutes=30.0)
    m.on_event(search(100.0, (cargo("C1", 100.0, 900.0),)))
    m.on_event(search(120.0, (cargo("C1", 100.0, 900.0),)))  # seen again: clock restarts
    m.advance(140.0)
    assert "C1" in m.active
    m.advance(151.0)
    assert m.stale_cargo_ids == ["C1"]
    assert m.records["C1"].reason == "unconfirmed"


def test_failed_take_is_never_offered_again(geo: Geography) -> None:
    m = CargoMemory(geo, 1.5, None)
    m.on_event(search(100.0, (cargo("C1", 100.0, 900.0), cargo("C2", 100.0, 900.0))))
    m.on_event(TakeFailed(101.0, "D1", "C1", "taken"))
    assert m.failed_cargo_ids == ["C1"]
    assert "C1" in m.blocked_ids
    m.on_event(search(105.0, (cargo("C1", 100.0, 900.0), cargo("C2", 100.0, 900.0))))
    assert [c.cargo_id for c in m.candidates()] == ["C2"]  # shown again, still not offered
    assert m.blacklist_summary() == {"failed:taken": 1}


def test_cargo_missing_from_a_covering_search_is_unavailable(geo: Geography) -> None:
    m = CargoMemory(geo, 1.5, None)
    m.on_event(search(100.0, (cargo("C1", 100.0, 900.0), cargo("C2", 100.0, 900.0))))
    m.on_event(search(110.0, (cargo("C2", 100.0, 900.0),)))
    assert m.unavailable_cargo_ids == ["C1"]
    assert list(m.active) == ["C2"]


def test_low_yield_streak_and_ranking(geo: Geography) -> None:
    m = MarketMemory(geo, 5, 150.0, None)
    cell = m.cell(GZ.lat, GZ.lng)
    neighbour = next(c for c in h3.grid_ring(cell, 1))
    for t in (600.0, 620.0, 640.0):
        m.on_event(search(t, ()))
    assert m.grids[cell].streak == 3
    ranked = [f.cell for f in m.ranked(GZ, 1, 660.0)]
    assert ranked.index(neighbour) < ranked.index(cell)
    assert m.fact(neighbour).searched is False
    assert m.avoid()[0].cell == cell
    m.on_event(search(680.0, (cargo("C9", 680.0, 900.0),), best=800.0))
    assert m.grids[cell].streak == 0
    assert m.fact(cell).value > m.fact(neighbour).value
    assert m.repeated_low_yield == 2  # the 2nd and 3rd empty searches repeated a low yield


def test_consecutive_waits_and_plan() -> None:
    d = DriverMemory(3, None)
    for t in (0.0, 30.0, 60.0):
        d.on_event(ActionChosen(t, "D1", "wait", None, {"minutes": 30.0}))
        d.on_event(Waited(t, "D1", 30.0))
    assert d.waits_without_order == 3
    # a search is no order: search, search, wait on a dead market is still being stuck (a
    # driver once looped so for eight days; the counter reset on every search)
    d.on_event(ActionChosen(90.0, "D1", "search", None, {"short_plan": "look north"}))
    assert d.waits_without_order == 3
    assert d.short_plan == "look north"
    d.on_event(ActionChosen(100.0, "D1", "reposition", None, {"lat": 23.0, "lng": 113.0}))
    assert d.waits_without_order == 0
    assert len(d.recent) == 3  # bounded


def test_state_round_trip(geo: Geography) -> None:
    counter = TokenCounter()
    c1, c2 = CargoMemory(geo, 1.5, counter), CargoMemory(geo, 1.5, counter)
    m1, m2 = MarketMemory(geo, 5, 150.0, counter), MarketMemory(geo, 5, 150.0, counter)
    d1 = DriverMemory(8, counter)
    d2 = DriverMemory(8, counter)
    events = [search(100.0, (cargo("C1", 100.0, 300.0), cargo("C2", 100.0, 900.0)), best=700),
              ActionChosen(101.0, "D1", "take_order", "C1", {"short_plan": "go"}),
              TakeFailed(101.0, "D1", "C1", "taken"), search(200.0, ())]
    for ev in events:
        for store in (c1, m1, d1):
            store.on_event(ev)
    for a, b in ((c1, c2), (m1, m2), (d1, d2)):
        state = json.loads(json.dumps(a.get_state()))  # must survive JSON
        b.set_state(state)
        assert json.loads(json.dumps(b.get_state())) == state
    assert c2.failed_cargo_ids == ["C1"]
    assert m2.grids == m1.grids
    # restored stores keep working identically
    later = search(400.0, (cargo("C3", 400.0, 900.0),), best=900)
    for a, b in ((c1, c2), (m1, m2), (d1, d2)):
        a.on_event(later)
        b.on_event(later)
        assert json.loads(json.dumps(a.get_state())) == json.loads(json.dumps(b.get_state()))
