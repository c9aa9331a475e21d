"""Invariants of a real run, read back from its events.parquet and drivers.parquet."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import Run

TAKE_REASONS = {"unknown_id", "taken", "expired", "window_missed"}


def test_run_produced_orders_and_failures(three_day_run: Run) -> None:
    # the invariants below mean nothing on an empty run
    assert len(three_day_run.kind("order_taken")) > 50
    assert len(three_day_run.kind("take_failed")) > 0


def test_no_take_after_remove_time_or_outside_window(three_day_run: Run) -> None:
    created = three_day_run.kind("cargo_created").set_index("cargo_id")
    taken = three_day_run.kind("order_taken")
    c = created.loc[taken.cargo_id]
    assert (taken.t.to_numpy() <= c.remove_time.to_numpy()).all()
    assert (taken.pickup_arrival.to_numpy() <= c.load_end.to_numpy() + 1e-9).all()
    assert (taken.load_start.to_numpy() >= c.load_start.to_numpy() - 1e-9).all()


def test_no_cargo_taken_twice(three_day_run: Run) -> None:
    taken = three_day_run.kind("order_taken")
    assert taken.cargo_id.is_unique


def test_driver_never_on_two_orders(three_day_run: Run) -> None:
    taken = three_day_run.kind("order_taken").sort_values(["driver_id", "t"])
    for _, g in taken.groupby("driver_id"):
        starts, finishes = g.t.to_numpy(), g.finish.to_numpy()
        assert (starts[1:] >= finishes[:-1]).all()


def test_income_is_sum_of_completed_net(three_day_run: Run) -> None:
    done = three_day_run.kind("order_completed")
    by_driver = done[done.reason == "paid"].groupby("driver_id").value.sum()
    d = three_day_run.drivers.set_index("driver_id")
    expected = by_driver.reindex(d.index, fill_value=0.0)
    np.testing.assert_allclose(d.income.to_numpy(), expected.to_numpy(), rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(d.income, d.gross - d.cost, atol=1e-3)


def test_every_take_failure_has_a_reason(three_day_run: Run) -> None:
    failed = three_day_run.kind("take_failed")
    assert failed.reason.notna().all()
    assert set(failed.reason) <= TAKE_REASONS


def test_search_costs_competition_minutes(three_day_run: Run) -> None:
    s = three_day_run.kind("search")
    s = s[s.reason.isna()]  # not rejected
    expected = s["count"].map(lambda n: max(1, math.ceil(n / 10)))
    assert (s.minutes == expected).all()


def test_cargo_created_by_day_exceeds_night(three_day_run: Run) -> None:
    created = three_day_run.kind("cargo_created")
    hour = ((created.t // 60) % 24).astype(int)
    per_hour = hour.value_counts().reindex(range(24), fill_value=0) / 3.0
    day = per_hour.loc[9:19].mean()
    night = per_hour.loc[0:4].mean()
    assert day > 2.0 * night, (day, night)


@pytest.mark.parametrize("col", ["lat", "lng", "lat2", "lng2"])
def test_cargo_points_inside_guangdong(three_day_run: Run, col: str) -> None:
    created = three_day_run.kind("cargo_created")
    lo, hi = (20.2, 25.55) if col.startswith("lat") else (109.65, 117.35)
    assert created[col].between(lo, hi).all()
