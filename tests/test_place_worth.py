"""A take's destination is valued for the order after it (`memory.place_worth`).

Failure class "an order that ends where no cargo is": a take was valued by its own net and
hours alone, so an order ending 300 km out in a sparse county ranked with one ending in the
Pearl River Delta at the same net, and the next pickup drive from there (93 km on average for
the greedy after orders ending 200-400 km from Guangzhou, 17 km within 50 km of it, on a
31-day calibrated month) was nobody's cost. Market memory now learns how far the nearest
pickups lie around each grid it searched, and a take is credited the difference between the
next pickup drive expected here and at its destination."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memory.market_memory import REACH_NEAREST, MarketMemory
from memory.memory_agent import MemoryAgent
from memory.place_worth import PlaceWorth
from memory.time_price import SlotPrice, TimePrice
from sim.geo import Geography, Point, great_circle_km
from sim.scenario import DriverSpec, load_scenario
from sim.world.actions import Observation
from sim.world.cargo import CargoView
from sim.world.events import EventBus, SearchDone
from sim.world.order_costs import Option
from tests.test_deadhead_pacing import ROOT

GZ = Point(23.129, 113.264)
SPARSE = Point(24.80, 112.30)  # the hills north of Qingyuan: no search there yet
RES = 5


def cargo(cid: str, origin: Point, dest: Point = GZ, price: float = 900.0) -> CargoView:
    return CargoView(cid, origin, dest, price, 10.0, 100.0, 100.0, 180.0, 130.0)


def spread(at: Point, kms: list[float]) -> tuple[CargoView, ...]:
    """Cargo whose pickups lie the given km north of `at` (a degree of latitude ~ 111 km)."""
    return tuple(cargo(f"C{i}", Point(at.lat + km / 111.2, at.lng)) for i, km in enumerate(kms))


def search(at: Point, results: tuple, t: float = 0.0) -> SearchDone:
    return SearchDone(t, "D1", at.lat, at.lng, 30.0, 1, 10, results, best_net=500.0)


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong()


def market(geo: Geography, learn_reach: bool = True) -> MarketMemory:
    return MarketMemory(geo, RES, 150.0, None, learn_reach=learn_reach)


def test_a_search_teaches_its_grid_how_far_the_nearest_pickups_lie(geo: Geography) -> None:
    m = market(geo)
    assert m.reach_km(GZ.lat, GZ.lng) is None  # nothing searched: nothing known
    results = spread(GZ, [float(k) for k in range(1, 31)])  # 1..30 km out
    m.on_event(search(GZ, results))
    near = sorted(great_circle_km(GZ.lat, GZ.lng, c.origin.lat, c.origin.lng)
                  for c in results)[:REACH_NEAREST]
    assert m.reach_km(GZ.lat, GZ.lng) == pytest.approx(sum(near) / len(near))
    assert m.reach_km(GZ.lat, GZ.lng) == pytest.approx(5.5, abs=0.1)  # 1..10 km
    # a second search of the same grid is averaged in
    m.on_event(search(GZ, spread(GZ, [20.0] * 12), t=60.0))
    assert m.reach_km(GZ.lat, GZ.lng) == pytest.approx((5.5 + 20.0) / 2, abs=0.1)
    # a grid next to a searched one borrows its neighbours'; one far from any stays unknown
    ring = m.cell(GZ.lat, GZ.lng)
    import h3
    neighbour = next(c for c in h3.grid_ring(ring, 1))
    lat, lng = h3.cell_to_latlng(neighbour)
    assert m.reach_km(lat, lng) == pytest.approx(m.reach_km(GZ.lat, GZ.lng))
    assert m.reach_km(SPARSE.lat, SPARSE.lng) is None
    # a search that found nothing teaches no reach (its streak says the grid is poor)
    m.on_event(search(SPARSE, ()))
    assert m.reach_km(SPARSE.lat, SPARSE.lng) is None
    # a run that does not value destinations does not learn it (nothing would read it)
    quiet = market(geo, learn_reach=False)
    quiet.on_event(search(GZ, results))
    assert quiet.reach_km(GZ.lat, GZ.lng) is None
    assert quiet.grids  # the grid's other stats are learnt as before


def test_the_reach_survives_a_state_round_trip(geo: Geography) -> None:
    m = market(geo)
    m.on_event(search(GZ, spread(GZ, [3.0, 4.0, 5.0])))
    back = market(geo)
    back.set_state(m.get_state())
    assert back.reach_km(GZ.lat, GZ.lng) == m.reach_km(GZ.lat, GZ.lng)
    assert m.reach_km(GZ.lat, GZ.lng) == pytest.approx(4.0, abs=0.01)


def opt(dest: Point, net: float = 600.0, finish: float = 300.0) -> Option:
    return Option(cargo("X", GZ, dest), 5.0, 10.0, finish, net)


def reach_of(table: dict[Point, float]):
    return lambda lat, lng: table.get(Point(lat, lng))


def test_a_take_is_credited_the_next_pickup_drive_its_destination_saves() -> None:
    far = Point(21.5, 110.5)
    pw = PlaceWorth(here_km=10.0, per_km=3.0, reach=reach_of({GZ: 4.0, far: 40.0}))
    assert pw.delta(opt(GZ)) == pytest.approx(3.0 * (10.0 - 4.0))  # denser than here: +18
    assert pw.delta(opt(far)) == pytest.approx(3.0 * (10.0 - 40.0))  # sparser: -90
    assert pw.delta(opt(SPARSE)) == 0.0  # unknown: neither credit nor charge
    # the same two takes at the same net and hours rank by where they end
    tp = TimePrice(1.0, place=pw)
    assert tp.value(opt(GZ), 0.0) - tp.value(opt(far), 0.0) == pytest.approx(108.0)
    assert TimePrice(1.0).value(opt(GZ), 0.0) == TimePrice(1.0).value(opt(far), 0.0)
    # a capped driver's slot price keeps the credit
    slot = SlotPrice(1.0, place=pw, slot_minutes=360.0)
    assert slot.value(opt(GZ), 0.0) == pytest.approx(600.0 - 360.0 + 18.0)


def test_a_destination_outside_the_drivers_box_earns_no_credit_only_its_charge() -> None:
    far = Point(21.5, 110.5)
    inside = lambda lat, lng: lat > 23.0  # noqa: E731 - a fence north of 23N
    pw = PlaceWorth(10.0, 3.0, reach_of({GZ: 4.0, far: 40.0, Point(22.5, 113.9): 2.0}),
                    allows=inside)
    assert pw.delta(opt(GZ)) == pytest.approx(18.0)  # inside: credited
    assert pw.delta(opt(Point(22.5, 113.9))) == 0.0  # dense but outside: no credit
    assert pw.delta(opt(far)) == pytest.approx(-90.0)  # sparse and outside: still charged


def memory_agent(geo: Geography, mode: str = "cargo-market-driver",
                 weight: float = 1.0) -> MemoryAgent:
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        policy={"place_weight": weight})
    return MemoryAgent(mode, geo, DriverSpec("D1", GZ.lat, GZ.lng), sc, EventBus(), None)


def obs(at: Point = GZ, now: float = 600.0) -> Observation:
    return Observation("D1", now, 44640.0, at, 2.0, 0.0, 0, 0.0, 0.0, 100)


def test_the_market_layer_prices_destinations_once_its_grid_is_searched(
        geo: Geography) -> None:
    a = memory_agent(geo)
    assert a.time_price(obs()).place is None  # no reach known where the driver stands
    a.on_event(search(GZ, spread(GZ, [1.0, 2.0, 3.0])))
    tp = a.time_price(obs())
    assert tp.place is not None
    assert tp.place.here_km == pytest.approx(2.0, abs=0.01)
    # a km of the next pickup drive costs its km (2.0) and a minute at the rate, on roads
    minutes_per_km = geo.drive_minutes(100.0, 600.0) / 100.0
    assert tp.place.per_km == pytest.approx(
        geo.detour_factor * (2.0 + tp.rate * minutes_per_km))
    # the weight scales it; 0 turns it off; a mode without the market layer learns no reach
    half = memory_agent(geo, weight=0.5)
    half.on_event(search(GZ, spread(GZ, [1.0, 2.0, 3.0])))
    assert half.time_price(obs()).place.per_km == pytest.approx(tp.place.per_km / 2)
    off = memory_agent(geo, weight=0.0)
    off.on_event(search(GZ, spread(GZ, [1.0, 2.0, 3.0])))
    assert off.time_price(obs()).place is None
    assert not off.market.learn_reach  # the default run learns nothing it would not read
    cargo_only = memory_agent(geo, mode="cargo")
    cargo_only.on_event(search(GZ, spread(GZ, [1.0, 2.0, 3.0])))
    assert cargo_only.market.reach_km(GZ.lat, GZ.lng) is None
    assert cargo_only.time_price(obs()).place is None


def test_a_sparse_destination_ranks_below_a_dense_one_at_the_same_net(geo: Geography) -> None:
    """End to end through the analyst's deterministic ranking: two takes with the same net and
    hours, one ending in a grid whose searches found pickups 1-3 km out, one ending where they
    lay 40-60 km out. The dense one is ranked first; with the weight at 0 the tie falls back
    to the cargo id."""
    from agents.roles.cargo_analyst import CargoAnalystAgent
    from memory.views import CargoAnalysisView
    dense_end, sparse_end = Point(22.54, 114.06), Point(24.30, 116.10)
    a = memory_agent(geo)
    a.on_event(search(GZ, spread(GZ, [5.0] * 10)))
    a.on_event(search(dense_end, spread(dense_end, [1.0, 2.0, 3.0])))
    a.on_event(search(sparse_end, spread(sparse_end, [40.0, 50.0, 60.0])))
    tp = a.time_price(obs())
    o_sparse = replace(opt(sparse_end), cargo=cargo("A", GZ, sparse_end))
    o_dense = replace(opt(dense_end), cargo=cargo("B", GZ, dense_end))
    view = CargoAnalysisView(mode="cargo-market-driver", now=600.0, feasible=(o_sparse, o_dense),
                             time_price=tp)
    assert CargoAnalystAgent.deterministic(view)["ranked"] == ["B", "A"]
    plain = replace(view, time_price=TimePrice(tp.rate, tp.factors))
    assert CargoAnalystAgent.deterministic(plain)["ranked"] == ["A", "B"]


def test_the_views_show_what_each_destination_is_worth() -> None:
    """A model ranking the same candidates needs the number the step ranks by."""
    from memory.views import Candidate
    c = Candidate(cargo("X", GZ, SPARSE), 600.0, 5.0).with_busy(300, place=-90.4)
    assert "5h00 dest-90" in c.line()
    assert "dest-90" in c.short_line()
    assert "dest" not in Candidate(cargo("X", GZ), 600.0, 5.0).with_busy(300).line()
    assert "dest+18" in Candidate(cargo("X", GZ), 600.0, 5.0).with_busy(300, 18.0).line()
    # and the time price's first line, which every view with candidates prints, says what
    # the number is, only when destinations are valued
    pw = PlaceWorth(10.0, 3.0, reach_of({}))
    assert "dest+N" in TimePrice(1.0, place=pw).lines()[0]
    assert "dest" not in TimePrice(1.0).lines()[0]
