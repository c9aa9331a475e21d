"""Two failure classes of the rule-aware agents, on a whole competition run scored officially:

- *promised cargo never looked for* (K19): the driver knows the id and the listing time, not
  the place; the agent must be free when it lists and take it blind, once;
- *an errand dropped at its first stop* (K24): the pickup's dwell alone keeps nothing, so a
  wait priced on its own saved 0 and the driver drove off and back all evening.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from memory.memory_agent import MemoryAgent
from memory.promises import open_promises, plausible, promise_fine, promise_todo
from memory.rule_progress import RuleProgress, rules_from_entries
from sim.geo import Point
from tests.competition_logs import LogBuilder, cargo_row

ROOT = Path(__file__).resolve().parents[1]
CARGO = ROOT / "scenarios/competition-smoke/cargo_dataset.jsonl"
START = (22.4886, 113.9037)  # Shenzhen, Nanshan
PROMISED = "100000"  # listed 03-03 20:01 in Guangzhou, removed 22:42, no loading window


def promise(amount: float = 5000.0) -> dict:
    return {"content": f"3月3号晚上那票{PROMISED}必须我来拉，漏了罚{amount:g}。",
            "start_time": "2026-03-03 20:01:00", "end_time": "2026-03-03 23:59:59",
            "penalty_amount": amount, "penalty_cap": amount,
            "structured": {"kind": "must_take_cargo", "params": {"cargo_id": PROMISED}}}


def test_an_id_of_another_shape_is_never_tried_blind():
    # a misread id, or one drawn for another market, must never reach the log
    rp = RuleProgress(rules_from_entries([promise()], n_days=3, parser=None), n_days=3,
                      initial=Point(*START))
    rp.add_cargo(cargo_row("C00000001", START, (22.6, 114.0)))
    opens = 2 * 1440 + 20 * 60 + 1
    assert not plausible(rp, PROMISED)
    assert promise_todo(rp, opens + 5) is None
    assert promise_fine(open_promises(rp), "other", opens - 300, opens + 120) == 0.0
    # seen in a query, it is tried whatever its shape
    rp.add_cargo(cargo_row(PROMISED, START, (22.6, 114.0)))
    assert plausible(rp, PROMISED)
    assert promise_todo(rp, opens + 5) is not None


def errand() -> dict:
    return {"content": "家里有急事：3月2号下午4点起先到车站接人，停留不少于15分钟，"
                       "再回家待到第二天早上7点。",
            "start_time": "2026-03-01 00:00:00", "end_time": "2026-03-31 23:59:59",
            "penalty_amount": 2000.0, "penalty_cap": None,
            "structured": {"kind": "home_stay_event", "params": {
                "w0": "2026-03-02 16:00:00", "w1": "2026-03-03 07:00:00",
                "w_end": "2026-03-03 07:00:00", "pickup_lat": 22.5431, "pickup_lng": 114.0579,
                "home_lat": 22.4886, "home_lng": 113.9037, "radius_km": 1.0,
                "min_pickup_dwell_minutes": 15, "rate_per_minute": 2.0}}}


def test_a_promise_is_waited_for_taken_once_and_prices_takes_that_run_over_it():
    rp = RuleProgress(rules_from_entries([promise()], n_days=3, parser=None), n_days=3,
                      initial=Point(*START))
    opens = 2 * 1440 + 20 * 60 + 1
    # no query has shown an id yet: an id that is not in the dataset would abort the driver's
    # whole score (even a failed take), so nothing is tried blind before the shape is known
    assert promise_todo(rp, opens + 5) is None
    rp.add_cargo(cargo_row("100001", START, (22.6, 114.0)))  # the market's ids: 6 digits
    assert promise_todo(rp, opens - 600) is None  # far ahead: nothing to do yet
    wait = promise_todo(rp, opens - 40)
    assert wait is not None
    assert (wait.action, wait.minutes) == ("wait", 40)
    take = promise_todo(rp, opens + 5)
    assert take is not None
    assert (take.action, take.cargo_id, take.at_stake) == (
        "take", PROMISED, 5000.0)
    # a take still running 30 minutes after the listing is charged the fine; one ending
    # before, or the promised cargo itself, is not
    assert promise_fine(open_promises(rp), "other", opens - 300, opens + 120) == 5000.0
    assert promise_fine(open_promises(rp), "other", opens - 300, opens + 10) == 0.0
    assert promise_fine(open_promises(rp), PROMISED, opens - 300, opens + 400) == 0.0
    # tried once (here: failed, already gone), never again
    b = LogBuilder("D001", *START, []).wait(opens + 3)
    b.take(PROMISED)
    for rec in b.records:
        rp.on_step(rec)
    assert promise_todo(rp, opens + 10) is None


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("promises")
    drivers = [{"driver_id": "D001", "name": "司机1", "vehicle_no": "粤B20001",
                "truck_length": "4.2米", "cost_per_km": 1.2, "current_lat": START[0],
                "current_lng": START[1], "preferences": [errand(), promise()]}]
    (tmp / "drivers.json").write_text(json.dumps(drivers, ensure_ascii=False), "utf-8")
    (tmp / "s.toml").write_text(
        '[scenario]\nname = "promises"\nseed = 1\ndays = 3\nruleset = "competition"\n'
        f'scoring = "S4"\nmax_steps = 5000\n[cargo]\nfile = "{CARGO}"\n'
        '[drivers]\nfile = "drivers.json"\n[memory]\nmode = "off"\n', "utf-8")
    out = {}
    for mode in ("off", "cargo-market-driver"):
        subprocess.run([sys.executable, "-m", "agents.app.cli", "run", str(tmp / "s.toml"),
                        "--memory", mode, "--out", str(tmp / mode)], capture_output=True,
                       text=True, cwd=ROOT, check=True)
        got = subprocess.run([sys.executable, "-m", "agents.app.cli", "score",
                              str(tmp / mode), "--json"], capture_output=True, text=True,
                             cwd=ROOT, check=True)
        out[mode] = json.loads(got.stdout)
    return out


def _fines(report: dict) -> dict[str, float]:
    (driver,) = report["drivers"]
    return {r["rule"].split()[1]: float(r["penalty"])
            for r in driver["preference_check"]["rules"]}


def test_the_promised_cargo_is_taken_and_the_errand_kept(runs):
    off, mem = _fines(runs["off"]), _fines(runs["cargo-market-driver"])
    assert off.get("must_take_cargo") == 5000.0  # the greedy never sees it
    assert mem.get("must_take_cargo") == 0.0
    # the errand: the one-off fine (pickup, home, stay) is avoided; at most minutes late
    assert off.get("home_stay_event", 0.0) >= 2000.0
    assert mem.get("home_stay_event", 0.0) < 2000.0


def off_days(amount: float) -> dict:
    return {"content": f"这个月至少2天不接单，做不到罚{amount:g}。",
            "start_time": "2026-03-01 00:00:00", "end_time": "2026-03-31 23:59:59",
            "penalty_amount": amount, "penalty_cap": amount,
            "structured": {"kind": "min_days_without_orders", "params": {"min_days": 2}}}


@pytest.mark.parametrize(("amount", "worked_day0", "waived"), [
    (1500.0, False, True),    # 1 day still to keep off, worth 2000 > 1500: broken knowingly
    (2500.0, False, False),   # ... worth 2000 < 2500: kept
    (2500.0, True, True),     # day 0 worked: 2 days to keep off, worth 4000 > 2500
    (50000.0, True, False),
])
def test_off_days_that_cost_more_than_their_fine_are_broken_knowingly(amount, worked_day0,
                                                                       waived):
    # 2 days off out of 3, judged on day 1 by a driver who earned 2000 on day 0: left to the
    # pricing of single takes, each take would carry the whole fine and the driver would idle
    # out the run to keep a rule worth less than the days it costs
    rp = RuleProgress(rules_from_entries([off_days(amount)], n_days=3, parser=None), n_days=3,
                      initial=Point(*START))
    if worked_day0:
        cargo = [cargo_row("c1", START, (22.60, 114.05), cost_time=300)]
        for c in cargo:
            rp.add_cargo(c)
        for rec in LogBuilder("D001", *START, cargo).wait(60).take("c1").records:
            rp.on_step(rec)
    me = SimpleNamespace(rules=rp, driver=SimpleNamespace(income=2000.0, start=0.0),
                         fine_weight=lambda: 1.0)
    MemoryAgent.waive_off_days(me, rp.states(1440, Point(*START)), 1440, 1440)
    assert (1 in rp.waived) is waived
