"""Decision-quality figures computed from a run's event table alone, for any policy or mode.

stale_takes: take failures on cargo that had left the market more than STALE_MINUTES before
  the attempt (the driver acted on outdated information).
repeat_failed_takes: take failures on an id the same driver had already failed on.
repeated_low_yield_searches: searches in a memory grid (H3 at the memory resolution) whose
  previous search by the same driver was low-yield, that were low-yield again.
"""

from __future__ import annotations

import json

import h3
import numpy as np
import pandas as pd

STALE_MINUTES = 10.0


def _details(df: pd.DataFrame) -> pd.DataFrame:
    d = df["detail"].map(lambda s: json.loads(s) if isinstance(s, str) else {})
    return pd.DataFrame(list(d), index=df.index)


def take_failure_metrics(events: pd.DataFrame) -> dict[str, int]:
    failed = events[events.kind == "take_failed"]
    left = pd.concat([
        events.loc[events.kind == "cargo_removed", ["cargo_id", "t"]],
        events.loc[events.kind == "order_taken", ["cargo_id", "t"]],
    ]).groupby("cargo_id").t.min()
    gone = left.reindex(failed.cargo_id).to_numpy()
    age = failed.t.to_numpy() - np.nan_to_num(gone, nan=np.inf)
    repeat = failed.duplicated(["driver_id", "cargo_id"]).to_numpy()
    stale = (age > STALE_MINUTES) & ~repeat
    return {"failed_takes": len(failed), "stale_takes": int(stale.sum()),
            "repeat_failed_takes": int(repeat.sum()),
            "stale_or_failed_takes": int(stale.sum() + repeat.sum())}


def repeated_low_yield_searches(events: pd.DataFrame, res: int, low_yield_net: float) -> int:
    s = events[(events.kind == "search") & events.reason.isna()]
    if s.empty:
        return 0
    best = _details(s)["best_net"].to_numpy()
    low = (s["count"].to_numpy() == 0) | (best < low_yield_net)
    cells = [h3.latlng_to_cell(a, b, res) for a, b in zip(s.lat, s.lng, strict=True)]
    last_low: dict[tuple[str, str], bool] = {}
    n = 0
    for drv, cell, is_low in zip(s.driver_id, cells, low, strict=True):
        key = (drv, cell)
        if is_low and last_low.get(key, False):
            n += 1
        last_low[key] = bool(is_low)
    return n


def quality(events: pd.DataFrame, drivers: pd.DataFrame, days: float, res: int,
            low_yield_net: float) -> dict[str, float]:
    out: dict[str, float] = dict(take_failure_metrics(events))
    out["repeated_low_yield_searches"] = repeated_low_yield_searches(events, res, low_yield_net)
    n = max(len(drivers), 1)
    out["net_income_per_driver_day"] = round(float(drivers.income.sum()) / (n * days), 2)
    out["penalty_per_driver"] = round(float(drivers.penalty.sum()) / n, 2)
    out["score"] = round(float(drivers.score.sum()), 2)
    out["orders"] = int(drivers.orders.sum())
    return out
