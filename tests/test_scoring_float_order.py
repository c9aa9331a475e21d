"""§6 step 7: distance is summed with one `+=` per logged number, deadhead then haul.

267.17 + 38.4 + 160.22 added left to right is 465.78999999999996; adding the take's
deadhead + haul first gives 465.79. At 1.5 yuan/km the cost rounds to 698.68 against 698.69:
the 0.01 that separated `freightsim score` from the official scorer on 2 of 10 drivers.
"""

from __future__ import annotations

import json

from sim.official.cargo_index import index_cargo
from sim.official.income import compute_income
from sim.official.versions import settings_for
from sim.scoring.validate import LogContext, validate_log
from tests.test_scoring_validate import CARGO, good_log


def _validated(reposition_km: float, dead_km: float, haul_km: float):
    b = good_log()
    b.records[1]["result"]["distance_km"] = reposition_km
    b.records[2]["result"]["pickup_deadhead_km"] = dead_km
    b.records[2]["result"]["haul_distance_km"] = haul_km
    s = settings_for("S2")
    ctx = LogContext(s, index_cargo(CARGO), 60.0, s.horizon_days(31) * 1440)
    return validate_log([json.dumps(r, ensure_ascii=False) for r in b.records], ctx)


def test_one_addition_per_logged_number_in_log_order():
    out = _validated(267.17, 38.4, 160.22)
    official = 0.0
    for x in (267.17, 38.4, 160.22):  # the official running total
        official += x
    assert out.distance_km == official == 465.78999999999996
    assert out.distance_km != 267.17 + (38.4 + 160.22)  # the sum-first order differs here


def test_the_order_decides_the_cent_of_the_cost():
    out = _validated(267.17, 38.4, 160.22)
    income = compute_income(out.gross_yuan, out.distance_km, 1.5, 0.0)
    assert income.cost == 698.68
    assert compute_income(out.gross_yuan, 267.17 + (38.4 + 160.22), 1.5, 0.0).cost == 698.69
    assert income.distance_km == 465.79  # rounded for display only after the sum
