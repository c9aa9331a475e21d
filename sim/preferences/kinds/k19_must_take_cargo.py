"""K19: a designated cargo must be taken (accepted) inside the preference's window."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.geo import haversine_np
from sim.official.cargo_index import CargoRecord
from sim.official.penalties import PenaltyModel
from sim.official.steps import Step, StepLog
from sim.official.timebase import DAY
from sim.preferences.kinds.base import Counters, Kind, RuleContext, takes_of
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.preferences.kinds.params import Params
from sim.preferences.progress import Progress, ProgressContext, Scope, Status
from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts, cargo_ids


@dataclass(frozen=True)
class MustTakeCargoParams(Params):
    cargo_id: str


class MustTakeCargo(Kind):
    name = "must_take_cargo"
    number = 19
    family = "designated order"
    # §8 wording of this kind: a reading without any of it is reported ambiguous
    signals = (r"编号|号|货|单|id|cargo|order|load|shipment|#|haul|promis|答应|承诺")
    model = PenaltyModel.MUST_TAKE
    Params = MustTakeCargoParams
    scope = Scope.MONTH
    judged_at_end = True

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        hits = [t.step.index for t in log.takes
                if t.cargo.cargo_id == self.params.cargo_id.strip() and ctx.step_in_scope(t.step)]
        return {"taken_at_steps": hits, "failed": not hits}

    def unchanged_by(self, base: Counters, steps: Sequence[Step],
                     cargo: Mapping[str, CargoRecord]) -> bool:
        cid = self.params.cargo_id.strip()
        return all(t.cargo.cargo_id != cid for t in takes_of(steps, cargo))

    @classmethod
    def hint(cls, params: MustTakeCargoParams) -> str:
        return (f"Take cargo {params.cargo_id} while this preference is in force "
                f"(a one-off fine if it is never taken).")

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        failed = counters["failed"]
        return (Status.AT_RISK if failed else Status.OK,
                f"must take cargo {self.params.cargo_id}: {'not yet' if failed else 'taken'}",
                None)

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        ids = cargo_ids(f.text)
        if not ids:
            return None
        score = 3.0 + 0.5 * hit(f, r"必接|mandatory|必须|一定|指定|临时约定|熟货|老客户|must|"
                                   r"have to|"
                                   r"make sure|"
                                  r"guarantee|promised|agreed")
        return Claim("must_take_cargo", score, {"cargo_id": ids[0]})

    # -- generated drivers: the draw and its texts ---------------------------------------
    @classmethod
    def draw_window(cls, ctx: DrawContext) -> tuple[dt.date, dt.date]:
        """A promise to a customer: one to three days, not the whole horizon."""
        last = ctx.start + dt.timedelta(days=ctx.days - 1)
        first = ctx.day()
        return first, min(last, first + dt.timedelta(days=int(ctx.rng.integers(0, 3))))

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MustTakeCargoParams]:
        """With the scenario's market: cargo listed on a drawn day, and a window of one to
        three days that opens at its listing, so the id exists and is online when the window
        opens (a take of a missing id aborts the official scoring, §6 step 7). Without one: a
        given id, or a made-up one."""
        if ctx.market is not None:
            # one draw from the shared stream, as without a market, and the choice on a stream
            # of its own: the driver's other rules and the drivers after it draw as before
            seed = int(ctx.rng.integers(100000, 999999))
            drawn = cls._from_market(dataclasses.replace(ctx, rng=np.random.default_rng(seed)))
            if drawn is not None:
                return drawn
            return Drawn(MustTakeCargoParams(cargo_id=str(seed)), {"id": str(seed)})
        ids = ctx.cargo_ids
        cid = str(ctx.pick(ids)) if ids else str(int(ctx.rng.integers(100000, 999999)))
        return Drawn(MustTakeCargoParams(cargo_id=cid), {"id": cid})

    # a promise an agent can keep: a pickup near home, listed long enough to reach it
    NEAR_KM = 100.0
    MIN_ONLINE_MINUTES = 60.0

    @classmethod
    def _from_market(cls, ctx: DrawContext) -> Drawn[MustTakeCargoParams] | None:
        assert ctx.market is not None
        k0 = (ctx.day() - ctx.start).days
        for k in range(ctx.days):  # the drawn day, else the next one that lists any cargo
            day = ctx.start + dt.timedelta(days=(k0 + k) % ctx.days)
            listed = ctx.market.listed_on(day)
            if len(listed.ids):
                break
        else:
            return None  # the market lists nothing over the horizon
        km = haversine_np(ctx.home[0], ctx.home[1], np.asarray(listed.lat),
                          np.asarray(listed.lng))
        lasting = np.asarray(listed.online_minutes) >= cls.MIN_ONLINE_MINUTES
        pool = next(p for p in (np.flatnonzero(lasting & (km <= cls.NEAR_KM)),
                                np.flatnonzero(lasting), np.arange(len(listed.ids))) if p.size)
        j = int(pool[int(ctx.rng.integers(pool.size))])
        cid = str(listed.ids[j])
        length = int(ctx.rng.integers(0, 3))  # one to three days from the listing day
        last = min(ctx.start + dt.timedelta(days=ctx.days - 1),
                   day + dt.timedelta(days=length))
        # the window opens at the listing, as in the competition's data, on the first whole
        # minute it is online: a promise is tried the moment its window opens
        opens = min(DAY - 1, math.ceil(float(listed.listed_minute[j])))
        return Drawn(MustTakeCargoParams(cargo_id=cid), {"id": cid}, window=(day, last),
                     opens_minute=opens)

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"临时约定：老客户的熟货，货源编号{v['id']}，必须接。",
                f"指定货源编号{v['id']}的单子一定要拉。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"Promised to an old customer: take cargo {v['id']}.",
                f"Cargo ID {v['id']} is a must-take order."]
