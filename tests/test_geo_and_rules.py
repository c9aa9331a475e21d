"""Geography and competition time rules on small, known inputs (preference scoring: the 24
kinds' own tests, tests/test_scoring_kinds.py and tests/test_world_rules.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.geo import Geography, Point, great_circle_km, in_guangdong, load_counties


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
    d = great_circle_km(gz.lat, gz.lng, sz.lat, sz.lng)
    assert 100 < d < 110  # Guangzhou-Shenzhen centres are ~104 km apart
    g = Geography.guangdong(detour_factor=1.3)
    assert g.road_km(gz, sz) == pytest.approx(1.3 * d)
    flat = Geography.guangdong(detour_factor=1.0)
    assert flat.drive_minutes(0.2) == 1  # max(1, ...)
    assert flat.drive_minutes(61.0) == 61
    assert flat.drive_minutes(61.2) == 62  # ceil(61.2 / 60 * 60)
    slow_nights = Geography.guangdong(speed_profile=(0.5,) * 6 + (1.0,) * 18)
    assert slow_nights.drive_minutes(60.0, depart_minute=60) == 120
