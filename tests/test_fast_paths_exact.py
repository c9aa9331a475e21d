"""Fast paths that must give exactly what the plain code gives: the generator world's draws and
the market memory's best grid."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from agents.app.runner import run_scenario
from memory.market_memory import MarketMemory
from sim.geo import Geography, in_guangdong, round6
from sim.scenario import load_scenario
from sim.world.cargo import CargoGenerator

ROOT = Path(__file__).resolve().parent.parent


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


def test_generated_cargo_is_what_numpys_picks_give():
    """The generator picks counties by bisect on plain lists; numpy's searchsorted on the
    arrays it was built from gives the same cargo, draw for draw."""
    cfg = load_scenario(ROOT / "scenarios/month.toml").cargo
    geo = Geography.guangdong()
    fast = CargoGenerator(cfg, geo, np.random.default_rng(5))
    plain = CargoGenerator(cfg, geo, np.random.default_rng(5))

    def pick(cdf: list[float]) -> int:  # as it was: searchsorted on the float64 row
        row = np.asarray(cdf)
        return int(min(np.searchsorted(row, plain.rng.random() * row[-1]), len(row) - 1))

    plain._pick = pick
    got, want = list(fast.arrivals(2 * 1440)), list(plain.arrivals(2 * 1440))
    assert len(got) > 5000
    assert got == want


def test_best_grid_is_the_first_ranked_on_a_real_run(tmp_path):
    sc = load_scenario(ROOT / "scenarios/month.toml").with_overrides(
        scenario={"days": 1}, drivers={"count": 4}, memory={"mode": "bounded"})
    asked = [0]
    best = MarketMemory.best

    def checked(self, around, k=2, t=None):
        got = best(self, around, k, t)
        ranked = self.ranked(around, k, t)
        assert got == (ranked[0] if ranked else None)
        asked[0] += 1
        return got

    mp = pytest.MonkeyPatch()
    mp.setattr(MarketMemory, "best", checked)
    try:
        run_scenario(sc, tmp_path)
    finally:
        mp.undo()
    assert asked[0] > 20


def test_county_km_is_the_plain_expression_to_the_last_bit():
    """The calibrated market's rows-to-counties km: its tabled cosines give the doubles the
    plain expression gives, for points on the 0.01-degree grid the market asks about, points
    off it, and points beyond the table (which fall back to the plain cosines)."""
    from sim.geo import county_arrays
    from sim.world.cargo_stream import KM_PER_DEG_LAT, KM_PER_DEG_LNG, CountyKm

    k = county_arrays()
    km = CountyKm(k.lat, k.lng)
    rng = np.random.default_rng(5)
    raw_lat, lng = rng.uniform(14.0, 31.0, 6000), rng.uniform(108.0, 118.0, 6000)
    lat = np.concatenate([np.round(raw_lat[:3000], 2), raw_lat[3000:]])
    lng = np.round(lng, 2)
    plain = np.hypot((k.lng[None, :] - lng[:, None]) * KM_PER_DEG_LNG
                     * np.cos(np.radians((lat[:, None] + k.lat[None, :]) / 2)),
                     (k.lat[None, :] - lat[:, None]) * KM_PER_DEG_LAT)
    assert np.array_equal(km(lat, lng), plain)
    on = km(lat[:3000], lng[:3000])  # a block wholly on the grid takes no fallback
    assert np.array_equal(on, plain[:3000])
    assert ((lat < 17.2) | (lat > 28.55)).any()  # some rows lie beyond the table
