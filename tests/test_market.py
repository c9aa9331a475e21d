"""Market search returns exactly what a brute-force scan over all online cargo returns."""

from __future__ import annotations

import numpy as np

from sim.geo import Geography, great_circle_km
from sim.scenario import CargoConfig
from sim.world.cargo import CargoGenerator, CargoStatus
from sim.world.market import Market


def test_ring_search_equals_brute_force() -> None:
    geo = Geography.guangdong()
    market = Market(geo, 50)
    gen = CargoGenerator(CargoConfig(rate_per_hour=3000), geo, np.random.default_rng(0))
    for c in gen.arrivals(600):
        market.add(c)
    for cid in list(market.registry)[::7]:  # some leave the market
        market.remove(cid, CargoStatus.COMPETITOR)
    online = [c for c in market.registry.values() if c.status is CargoStatus.ONLINE]
    lat = np.array([c.origin.lat for c in online])
    lng = np.array([c.origin.lng for c in online])
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(300):
        p = geo.sample_point(int(rng.integers(len(geo.counties))), rng)
        r = float(rng.choice([2.0, 5.0, 15.0, 30.0, 80.0]))
        # the brute force, over the cargo inside a box twice the radius wide (a degree of
        # latitude is 111 km, of longitude at least 90 km here): nothing within r lies outside
        near = (np.abs(lat - p.lat) <= 2 * r / 111) & (np.abs(lng - p.lng) <= 2 * r / 90)
        want = sorted((great_circle_km(p.lat, p.lng, c.origin.lat, c.origin.lng), c.cargo_id)
                      for c, ok in zip(online, near, strict=True) if ok)
        want = [cid for d, cid in want if d <= r][:50]
        got = [v.cargo_id for v in market.search(p, r)]
        assert got == want
        checked += bool(want)
    assert checked > 100
