"""Fast paths that must give exactly what the plain code gives (the generator world's draws)."""

from __future__ import annotations

import math

import numpy as np

from sim.geo import Geography, in_guangdong, round6


def test_round6_is_numpys_round_of_a_float64():
    rng = np.random.default_rng(7)
    xs = np.concatenate([22.5 + rng.normal(0.0, 0.5, 200_000),
                         rng.uniform(-180.0, 180.0, 200_000)])
    assert all(round6(x) == round(x, 6) for x in xs)


def test_sampled_points_are_rounded_as_before():
    geo = Geography.guangdong()
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    for i in range(300):
        p = geo.sample_point(i % len(geo.counties), a)
        c = geo.counties[i % len(geo.counties)]
        # the draw as it was: numpy's round of the float64 offsets
        sigma = max(c.radius_km, 1.0) / 2

        for _ in range(16):
            dy, dx = b.normal(0.0, sigma, size=2)
            lat = c.lat + dy / 110.574
            lng = c.lng + dx / (111.320 * math.cos(math.radians(c.lat)))
            if in_guangdong(lat, lng):
                assert (p.lat, p.lng) == (round(lat, 6), round(lng, 6))
                break
