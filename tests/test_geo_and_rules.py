"""Geography, competition time rules and preference scoring on small, known inputs."""

from __future__ import annotations

import numpy as np
import pytest

from sim.geo import Geography, Point, haversine_km, in_guangdong, load_counties
from sim.preferences import DAY, Place, Preference, PreferenceTracker, PrefKind


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong()


def test_county_table_is_complete_and_inside(geo: Geography) -> None:
    counties = load_counties()
    assert len(counties) == 124
    assert len({c.adcode for c in counties}) == 124
    assert all(in_guangdong(c.lat, c.lng) for c in counties)
    assert all(str(c.adcode).startswith("44") for c in counties)
    # the 2020 census total for Guangdong is 126.01 million
    assert sum(c.population for c in counties) == pytest.approx(126_012_510, rel=0.01)


def test_sampled_points_stay_in_guangdong(geo: Geography) -> None:
    rng = np.random.default_rng(0)
    pts = [geo.sample_point(i % len(geo.counties), rng) for i in range(5000)]
    assert all(in_guangdong(p.lat, p.lng) for p in pts)


def test_road_distance_and_drive_minutes() -> None:
    gz, sz = Point(23.129, 113.264), Point(22.543, 114.058)
    d = haversine_km(gz.lat, gz.lng, sz.lat, sz.lng)
    assert 100 < d < 110  # Guangzhou-Shenzhen centres are ~104 km apart
    g = Geography.guangdong(detour_factor=1.3)
    assert g.road_km(gz, sz) == pytest.approx(1.3 * d)
    flat = Geography.guangdong(detour_factor=1.0)
    assert flat.drive_minutes(0.2) == 1  # max(1, ...)
    assert flat.drive_minutes(61.0) == 61
    assert flat.drive_minutes(61.2) == 62  # ceil(61.2 / 60 * 60)
    slow_nights = Geography.guangdong(speed_profile=(0.5,) * 6 + (1.0,) * 18)
    assert slow_nights.drive_minutes(60.0, depart_minute=60) == 120


def _seg(tr: PreferenceTracker, t0: float, t1: float, a: Point, b: Point, km: float,
         loaded: bool = False):
    return tr.on_segment(t0, t1, a, b, km, loaded)


def test_penalties_capped_and_counted() -> None:
    home = Place("Meixian", 24.265, 116.082, 10.0)
    prefs = (
        Preference(PrefKind.DAILY_EMPTY_KM, km=100, penalty_amount=50, penalty_cap=120),
        Preference(PrefKind.NIGHT_NO_DRIVING, start_hour=23, end_hour=5, penalty_amount=100,
                   penalty_cap=1000),
        Preference(PrefKind.VISIT, days=2, place=home, penalty_amount=10, penalty_cap=100),
    )
    tr = PreferenceTracker(prefs, horizon_minutes=5 * DAY)
    a, b = Point(23.1, 113.3), Point(23.2, 113.4)
    for day in range(4):  # 150 empty km on four days, one night drive
        _seg(tr, day * DAY + 600, day * DAY + 750, a, b, 150.0)
    _seg(tr, DAY + 23.5 * 60, DAY + 24.5 * 60, a, b, 10.0, loaded=True)
    _seg(tr, 2 * DAY + 600, 2 * DAY + 700, a, Point(home.lat, home.lng), 10.0, loaded=True)
    pens = tr.penalties()
    assert pens[0] == 120  # 4 days x 50 = 200, capped at 120
    assert pens[1] == 100  # one night (day 1) in violation
    # 5 days of a 31-day month need ceil(2*5/31) = 1 visit day; one was made
    assert pens[2] == 0


def test_forbidden_zone_by_cells() -> None:
    import h3

    cell = h3.latlng_to_cell(22.54, 114.05, 7)
    p = Preference(PrefKind.FORBIDDEN_ZONE, cells=(cell,))
    assert p.in_zone(Point(22.54, 114.05))
    assert not p.in_zone(Point(23.13, 113.26))
