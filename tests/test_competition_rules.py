"""docs/competition.md §3-§5 at their boundaries: one test per action-semantics rule.

Each test builds real files (cargo JSON Lines, drivers JSON array), runs the real loop with a
scripted competition-style agent and reads the action log it wrote.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from agents.app.simkit_shim import install as install_simkit
from sim.competition.drivers_file import load_driver_records
from sim.competition.env import CompetitionEnv, RoundSettings
from sim.competition.log import normalise_record
from sim.competition.records import load_cargo_table
from sim.geo import haversine_km
from sim.official.timebase import drive_minutes
from tests.competition_data import wall, write_cargo, write_drivers

Step = Callable[[object, str], dict]
HOME = (23.10, 113.30)


def cargo(cid: object, create: int = 0, remove: int = 1440, at: tuple = HOME,
          to: tuple = (23.50, 113.80), window: list | None = None, cost: object = 120,
          price: object = 100000, **extra: object) -> dict:
    row = {"cargo_id": cid, "create_time": wall(create), "remove_time": wall(remove),
           "start": {"lat": at[0], "lng": at[1], "city": "广州"},
           "end": {"lat": to[0], "lng": to[1], "city": "惠州"},
           "load_time": window, "cost_time_minutes": cost, "price": price}
    row.update(extra)
    return row


def driver(did: str = "A", at: tuple = HOME, prefs: list | None = None) -> dict:
    return {"driver_id": did, "name": did, "vehicle_no": "粤A1", "truck_length": "4.2米",
            "cost_per_km": 1.5, "current_lat": at[0], "current_lng": at[1],
            "preferences": prefs or []}


class Script:
    """Plays scripted steps per driver, then waits out the horizon."""

    def __init__(self, steps: list[Step] | dict[str, list[Step]]) -> None:
        self.steps = steps
        self.api = None
        self.seen: dict[str, list] = {}

    def decide(self, driver_id: str) -> dict:
        steps = self.steps if isinstance(self.steps, list) else self.steps.get(driver_id, [])
        got = self.seen.setdefault(driver_id, [])
        if len(got) < len(steps):
            out = steps[len(got)](self.api, driver_id)
            got.append(out)
            return out
        got.append(None)
        return {"action": "wait", "params": {"duration_minutes": 10**6}}


def play(tmp: Path, rows: list[dict], steps, drivers: list[dict] | None = None,
         strict: bool = True, **rule_kw) -> tuple[CompetitionEnv, dict]:
    tmp.mkdir(parents=True, exist_ok=True)
    # far away and listed from minute 1: keeps pools non-empty, never in a minute-0 query
    rows = [*rows, cargo("bg", create=1, remove=10**7, at=(20.5, 110.5))]
    c = write_cargo(tmp / "cargo.jsonl", rows)
    d = write_drivers(tmp / "drivers.json", drivers or [driver()])
    rule_kw.setdefault("days", 1)
    rule_kw.setdefault("step_timeout_s", None)
    env = CompetitionEnv(load_cargo_table(c, strict), load_driver_records(d, strict),
                         RoundSettings.for_version(rule_kw.pop("scoring", "S4"), **rule_kw),
                         tmp / "out", "20260301_000000")
    agent = Script(steps)
    agent.api = env.api
    summary = env.run(agent)
    return env, summary


def log(env: CompetitionEnv, did: str = "A") -> list[dict]:
    """The driver's action log without the script's closing wait."""
    path = env.out_dir / f"actions_202603_{did}_20260301_000000.jsonl"
    recs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    return [r for r in recs if r["action"].get("params", {}).get("duration_minutes") != 10**6]


def take(cid: object) -> Step:
    return lambda api, d: {"action": "take_order", "params": {"cargo_id": cid}}


def wait(m: object) -> Step:
    return lambda api, d: {"action": "wait", "params": {"duration_minutes": m}}


def move(lat: float, lng: float) -> Step:
    return lambda api, d: {"action": "reposition", "params": {"latitude": lat, "longitude": lng}}


# --- §4.1-§4.3 -----------------------------------------------------------------------------

def test_zero_distance_reposition_costs_one_minute(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("1")], [move(*HOME), move(23.2, 113.3)])
    first, second = log(env)[:2]
    assert first["action_exec_cost_minutes"] == 1
    assert first["result"]["distance_km"] == 0.0
    d = haversine_km(*HOME, 23.2, 113.3)
    assert second["action_exec_cost_minutes"] == max(1, math.ceil(d / 60.0 * 60))
    assert second["result"]["distance_km"] == round(d, 2)
    assert second["position_after"] == {"lat": 23.2, "lng": 113.3}


@pytest.mark.parametrize(("given", "minutes"), [(7.9, 7), ("5", 5), (-0.5, 0), (0, 0)])
def test_wait_truncates(tmp_path: Path, given: object, minutes: int) -> None:
    env, _ = play(tmp_path, [cargo("1")], [wait(given)])
    rec = log(env)[0]
    assert rec["action_exec_cost_minutes"] == minutes
    assert rec["result"] == {"simulation_progress_minutes": minutes + 0,
                             "simulation_wall_time": wall(minutes)}


def test_wait_default_is_one_minute(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("1")], [lambda api, d: {"action": " WAIT "}])
    rec = log(env)[0]
    assert rec["action_exec_cost_minutes"] == 1
    assert rec["action"]["action"] == " WAIT "  # logged verbatim


# --- §3.3 queries ------------------------------------------------------------------------

def _query(k: object = None, at: tuple = HOME) -> Step:
    def step(api, d):
        args = () if k is None else (k,)
        step.got = api.query_cargo(d, at[0], at[1], *args)
        return {"action": "wait", "params": {"duration_minutes": 0}}
    return step


@pytest.mark.parametrize(("n", "scan"), [(0, 0), (1, 1), (10, 1), (11, 2), (20, 2), (21, 3)])
def test_scan_cost_is_ceil_n_over_10(tmp_path: Path, n: int, scan: int) -> None:
    rows = [cargo(str(i), at=(23.1 + i * 0.001, 113.3)) for i in range(n)]
    rows.append(cargo("later", create=500))  # not online yet: never returned
    q = _query()
    env, _ = play(tmp_path, rows, [q])
    rec = log(env)[0]
    assert len(q.got["items"]) == n
    assert rec["query_scan_cost_minutes"] == scan
    assert rec["step_elapsed_minutes"] == scan
    assert rec["result"]["simulation_progress_minutes"] == scan


def test_query_items_nearest_first_price_in_yuan(tmp_path: Path) -> None:
    rows = [cargo("far", at=(23.5, 113.3), price=12345),
            cargo("near", at=(23.11, 113.3), price=99999)]
    q = _query()
    play(tmp_path, rows, [q])
    items = q.got["items"]
    assert [i["cargo"]["cargo_id"] for i in items] == ["near", "far"]
    assert items[0]["cargo"]["price"] == 999.99
    assert items[1]["cargo"]["price"] == 123.45
    assert items[0]["cargo"]["start"]["city"] == "广州"  # other fields unchanged
    assert q.got["k"] == 100


def test_tied_pickups_follow_numpy_argpartition(tmp_path: Path) -> None:
    # 30 cargo on 3 pickup points, file order differs from online order (create minute)
    rng = np.random.default_rng(5)
    points = [(23.2, 113.4), (23.3, 113.4), (23.25, 113.4)]
    rows = [cargo(f"c{i}", create=int(rng.integers(0, 5)), at=points[i % 3]) for i in range(30)]
    q = _query(k=7)
    play(tmp_path, rows, [q])
    # the expected order, computed independently: online order = (create, file line)
    online = sorted(range(30), key=lambda i: (int(rows[i]["create_time"][-5:-3]), i))
    online = [i for i in online if int(rows[i]["create_time"][-5:-3]) <= 0]
    lat = np.array([rows[i]["start"]["lat"] for i in online])
    lng = np.array([rows[i]["start"]["lng"] for i in online])
    la, lo, la2, lo2 = np.radians(HOME[0]), np.radians(HOME[1]), np.radians(lat), np.radians(lng)
    h = np.sin((la2 - la) / 2.0) ** 2 + np.cos(la) * np.cos(la2) * np.sin((lo2 - lo) / 2.0) ** 2
    d = 2.0 * 6371.0 * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))
    take = min(7, len(d))
    part = np.argpartition(d, take - 1)[:take]
    want = [rows[online[j]]["cargo_id"] for j in part[np.argsort(d[part])]]
    assert [i["cargo"]["cargo_id"] for i in q.got["items"]] == want
    assert [i["distance_km"] for i in q.got["items"]] == [float(x) for x in np.sort(d)[:take]]


@pytest.mark.parametrize(("k", "want"), [(0, 1), (-5, 1), (3, 3), ("4", 4), (10**6, 600)])
def test_k_is_clamped_and_echoed(tmp_path: Path, k: object, want: int) -> None:
    rows = [cargo(str(i), at=(23.0 + i * 1e-4, 113.3)) for i in range(650)]
    q = _query(k=k)
    play(tmp_path, rows, [q])
    assert q.got["k"] == want
    assert len(q.got["items"]) == want


def test_early_release_query_has_no_k(tmp_path: Path) -> None:
    rows = [cargo(str(i)) for i in range(120)]
    q = _query()
    env, summary = play(tmp_path, rows, [q, _query(k=5)], scoring="S2")
    assert "k" not in q.got
    assert len(q.got["items"]) == 100
    assert summary["driver_end_reasons"]["A"] == "error"
    assert summary["driver_simulation_failures"]["A"].startswith("TypeError")
    assert len(log(env)) == 1


# --- §4.4 take_order ---------------------------------------------------------------------

def _pickup_minutes(at: tuple) -> int:
    return drive_minutes(haversine_km(*HOME, *at), 60.0)


@pytest.mark.parametrize(("slack", "accepted"), [(-1, False), (0, True)])
def test_window_end_missed_by_one_minute(tmp_path: Path, slack: int, accepted: bool) -> None:
    pick = (23.30, 113.30)
    m = _pickup_minutes(pick)
    window = [wall(0), wall(m + slack)]
    env, _ = play(tmp_path, [cargo("7", at=pick, window=window)], [take("7")])
    rec = log(env)[0]
    assert rec["result"]["accepted"] is accepted
    assert rec["position_after"]["lat"] == (pick[0] if not accepted else 23.5)
    if not accepted:  # truck left at the pickup, only the pickup minutes spent
        assert rec["result"]["detail"] == "load_time_window_expired"
        assert rec["action_exec_cost_minutes"] == m
        assert rec["result"]["haul_distance_km"] == 0
        assert rec["result"]["pickup_deadhead_km"] == round(haversine_km(*HOME, *pick), 2)
        assert list(rec["result"]) == ["accepted", "detail", "driver_id", "cargo_id",
                                       "simulation_progress_minutes", "simulation_wall_time",
                                       "pickup_deadhead_km", "haul_distance_km"]
    else:
        assert rec["action_exec_cost_minutes"] == m + 120


def test_window_missed_at_the_pickup_costs_nothing(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7", window=[wall(0), wall(4)])], [wait(5), take("7")])
    rec = log(env)[1]
    assert rec["result"]["accepted"] is False
    assert rec["action_exec_cost_minutes"] == 0
    assert rec["result"]["pickup_deadhead_km"] == 0.0


@pytest.mark.parametrize(("start", "wait_min"), [(0, 0), (100, 100), (1, 1)])
def test_arrival_before_window_waits_until_start(tmp_path: Path, start: int,
                                                 wait_min: int) -> None:
    window = [wall(start), wall(start + 10)]
    env, _ = play(tmp_path, [cargo("7", window=window, cost=30)], [take("7")])
    rec = log(env)[0]
    assert rec["result"]["accepted"] is True
    assert rec["action_exec_cost_minutes"] == wait_min + 30  # truck at the pickup: 0 drive


def test_null_load_time_has_no_window(tmp_path: Path) -> None:
    rows = [cargo("7", create=0, remove=1000, window=None, cost=1),
            cargo("8", create=0, remove=1000, cost=1)]
    del rows[1]["load_time"]  # absent is the same as null
    env, _ = play(tmp_path, rows, [wait(950), take("7"), take("8")])
    recs = log(env)
    assert recs[1]["result"]["accepted"] is True
    assert recs[2]["result"]["accepted"] is True
    # the second pickup is reached after its remove_time: no window, so still loaded
    assert recs[2]["result"]["simulation_progress_minutes"] - 1 > 1000


@pytest.mark.parametrize("when", ["unknown", "not_listed", "expired"])
def test_take_not_online_costs_one_minute(tmp_path: Path, when: str) -> None:
    rows = [cargo("7", create=100, remove=200)]
    steps = {"unknown": [take("nope")], "not_listed": [take("7")],
             "expired": [wait(201), take("7")]}[when]
    env, _ = play(tmp_path, rows, steps)
    rec = log(env)[-1]
    cid = "nope" if when == "unknown" else "7"
    assert rec["action_exec_cost_minutes"] == 1
    assert rec["position_after"] == rec["position_before"]
    assert rec["result"]["detail"] == f"cargo_id 已失效: {cid}"
    assert list(rec["result"]) == ["action", "accepted", "detail",
                                   "simulation_progress_minutes", "simulation_wall_time"]


def test_online_bounds_are_inclusive(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7", create=5, remove=10, cost=1)], [wait(10), take("7")])
    assert log(env)[1]["result"]["accepted"] is True


def test_attempted_cargo_is_gone_for_this_driver_only(tmp_path: Path) -> None:
    rows = [cargo("7", window=[wall(0), wall(0)], at=(23.3, 113.3))]
    steps = [take("7"), take("7")]
    drivers = [driver("A"), driver("B", at=(23.3, 113.3))]
    env, _ = play(tmp_path, rows, {"A": steps, "B": [take("7")]}, drivers)
    a = log(env, "A")
    assert a[0]["result"]["detail"] == "load_time_window_expired"
    assert a[1]["result"]["detail"] == "cargo_id 已失效: 7"
    assert a[1]["action_exec_cost_minutes"] == 1
    assert log(env, "B")[0]["result"]["accepted"] is True  # fresh pool per driver


def test_cargo_id_trimming(tmp_path: Path) -> None:
    rows = [cargo(" 55 ", cost=1), cargo(56, cost=1)]
    q = _query()
    env, _ = play(tmp_path, rows, [q, take(" 55 "), take("55"), take(56)])
    assert sorted(i["cargo"]["cargo_id"] for i in q.got["items"] if isinstance(
        i["cargo"]["cargo_id"], str)) == [" 55 "]  # raw id in query items
    recs = log(env)
    assert recs[1]["result"]["accepted"] is False  # untrimmed " 55 " != key "55"
    assert recs[2]["result"]["accepted"] is True
    assert recs[2]["result"]["cargo_id"] == "55"
    assert recs[3]["result"]["cargo_id"] == "56"  # numbers become strings


@pytest.mark.parametrize("window", [["2026-03-01 01:00:00"], "2026-03-01 01:00:00",
                                    ["", "2026-03-01 02:00:00"],
                                    ["2026-03-01 01:00", "2026-03-01 02:00:00"]])
def test_malformed_window_fails_in_one_minute_and_removes(tmp_path: Path, window) -> None:
    q = _query()
    env, _ = play(tmp_path, [cargo("7", window=window)], [take("7"), q, take("7")],
                  strict=False)
    recs = log(env)
    assert recs[0]["result"]["detail"] == "cargo_id 已失效: 7"
    assert recs[0]["action_exec_cost_minutes"] == 1
    assert "7" not in [i["cargo"]["cargo_id"] for i in q.got["items"]]  # stays removed
    assert recs[2]["result"]["accepted"] is False


def test_window_end_before_start_fails_the_take(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7", window=[wall(50), wall(40)])], [take("7")])
    assert log(env)[0]["result"]["detail"] == "cargo_id 已失效: 7"


@pytest.mark.parametrize(("cost", "ok"), [("90", True), (90.9, True), ("9x", False),
                                          (-1, False)])
def test_cost_time_forms(tmp_path: Path, cost: object, ok: bool) -> None:
    env, _ = play(tmp_path, [cargo("7", cost=cost)], [take("7")], strict=False)
    rec = log(env)[0]
    assert rec["result"]["accepted"] is ok
    assert rec["action_exec_cost_minutes"] == (90 if ok else 1)


def test_missing_cost_time_is_a_driver_error(tmp_path: Path) -> None:
    row = cargo("7")
    del row["cost_time_minutes"]
    _, summary = play(tmp_path, [row], [take("7")], strict=False)
    assert summary["driver_end_reasons"]["A"] == "error"


@pytest.mark.parametrize(("extra", "eligible"), [(0, True), (1, False)])
def test_order_finishing_exactly_at_the_horizon(tmp_path: Path, extra: int,
                                                eligible: bool) -> None:
    env, _ = play(tmp_path, [cargo("7", cost=1440 - 100 + extra, remove=2000)],
                  [wait(100), take("7")])
    rec = log(env)[1]
    assert rec["result"]["accepted"] is True
    assert rec["result"]["income_eligible"] is eligible
    assert rec["result"]["simulation_progress_minutes"] == 1440 + extra


def test_last_step_may_run_past_the_horizon(tmp_path: Path) -> None:
    env, summary = play(tmp_path, [cargo("7", remove=3000)], [wait(1439), wait(500), wait(1)])
    recs = log(env)
    assert len(recs) == 2  # the third step never starts: 1939 >= the horizon
    assert recs[-1]["result"]["simulation_progress_minutes"] == 1939
    assert summary["driver_end_reasons"]["A"] == "normal"


def test_empty_pool_ends_the_driver(tmp_path: Path) -> None:
    c = write_cargo(tmp_path / "cargo.jsonl", [cargo("7", remove=30)])
    d = write_drivers(tmp_path / "drivers.json", [driver()])
    env = CompetitionEnv(load_cargo_table(c), load_driver_records(d),
                         RoundSettings.for_version("S4", days=1), tmp_path / "out",
                         "20260301_000000")
    summary = env.run(Script([wait(31), wait(5)]))
    assert len(log(env)) == 1  # at minute 31 nothing is listed or still to come
    assert summary["driver_end_reasons"]["A"] == "normal"
    assert summary["remaining_cargo_count"] == 0


def test_max_steps(tmp_path: Path) -> None:
    env, summary = play(tmp_path, [cargo("7")], [wait(1)] * 10, max_steps=3)
    assert len(log(env)) == 3
    assert summary["driver_end_reasons"]["A"] == "max_steps"


# --- §3.2 status and preference visibility -----------------------------------------------

def test_preference_visibility_windows(tmp_path: Path) -> None:
    prefs = ["每天休息", {"content": "in", "start_time": "2026-03-01 00:00:00",
                         "end_time": "2026-03-01 00:09:59", "penalty_amount": 1,
                         "penalty_cap": None},
             {"content": "open", "start_time": None, "end_time": "2026-03-01 00:00:00",
              "penalty_amount": 1, "penalty_cap": 5}]
    seen = []

    def look(api, d):
        seen.append(api.get_driver_status(d)["preferences"])
        return {"action": "wait", "params": {"duration_minutes": 10}}

    play(tmp_path, [cargo("7")], [look, look], [driver(prefs=prefs)])
    assert [p if isinstance(p, str) else p["content"] for p in seen[0]] == \
        ["每天休息", "in", "open"]
    # at minute 10 = 00:10:00 the window ended at 00:09:59: hidden
    assert [p if isinstance(p, str) else p["content"] for p in seen[1]] == ["每天休息", "open"]
    assert "start_time" not in seen[0][1]  # the later release hides the bounds
    assert set(seen[0][1]) == {"content", "penalty_amount", "penalty_cap"}


def test_early_release_returns_preferences_unchanged(tmp_path: Path) -> None:
    p = {"content": "x", "start_time": "2026-03-01 00:00:00",
         "end_time": "2026-03-02 00:00:00", "penalty_amount": 1, "penalty_cap": None}
    seen = []

    def look(api, d):
        seen.append(api.get_driver_status(d))
        return {"action": "wait"}

    play(tmp_path, [cargo("7")], [look], [driver(prefs=[p])], scoring="S2")
    assert seen[0]["preferences"] == [p]


def test_status_of_another_driver(tmp_path: Path) -> None:
    seen = []

    def look(api, d):
        seen.append((api.get_driver_status("A"), api.get_driver_status("B")))
        return {"action": "wait", "params": {"duration_minutes": 5}}

    play(tmp_path, [cargo("7", cost=10)], {"A": [take("7"), look]},
         [driver("A"), driver("B", at=(22.5, 114.0))])
    me, other = seen[0]
    assert me["is_current"] is True
    assert other["is_current"] is False
    assert me["completed_order_count"] == 1
    assert other["completed_order_count"] == 0
    assert other["simulation_progress_minutes"] == me["simulation_progress_minutes"]
    assert (other["current_lat"], other["current_lng"]) == (22.5, 114.0)
    assert other["current_order_cargo_id"] is None
    assert list(me) == ["driver_id", "name", "vehicle_no", "truck_length", "preferences",
                        "current_lat", "current_lng", "is_current", "simulation_started",
                        "simulation_progress_minutes", "simulation_wall_time",
                        "current_order_cargo_id", "completed_order_count"]


# --- §3.4 history ------------------------------------------------------------------------

def test_history_step_semantics(tmp_path: Path) -> None:
    got = {}

    def ask(api, d):
        for s in (-1, 0, 1, 2, 10):
            got[s] = api.query_decision_history(" A ", s)
        got["B"] = api.query_decision_history("B", -1)
        got["zz"] = api.query_decision_history("zz", -1)
        with pytest.raises(ValueError, match="step must be"):
            api.query_decision_history(d, -2)
        return {"action": "wait"}

    env, _ = play(tmp_path, [cargo("7")], {"A": [wait(1), wait(2), wait(3), ask],
                                            "B": [wait(1), wait(1)]},
                  [driver("B"), driver("A")])
    lines = log(env, "A")
    assert got[-1]["records"] == lines[:3]  # identical to the log lines, oldest first
    assert got[-1]["total_steps"] == 3
    assert got[-1]["driver_id"] == "A"
    assert got[0]["records"] == []
    assert got[0]["returned_count"] == 0
    assert got[1]["records"] == lines[2:3]
    assert got[2]["records"] == lines[1:3]
    assert got[10]["records"] == lines[:3]
    assert got[10]["step_param"] == 10
    assert got["B"]["total_steps"] >= 2  # an earlier driver's records are readable
    assert got["zz"]["total_steps"] == 0


# --- §3.5 token accounting ---------------------------------------------------------------

class FakeGateway:
    def __init__(self, replies: list) -> None:
        self.replies = replies

    def complete(self, payload: dict) -> dict:
        return self.replies.pop(0)


def test_token_accounting(tmp_path: Path) -> None:
    from agents.app.compete import HarnessApi

    replies = [
        {"usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                   "completion_tokens_details": {"reasoning_tokens": 3}}},
        {"usage": None},
        {},
        {"usage": {"prompt_tokens": -4, "completion_tokens": 2, "total_tokens": 2}},
        {"usage": {"prompt_tokens": None, "completion_tokens": 1, "total_tokens": 1}},
        {"usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
                   "completion_tokens_details": None}},
    ]
    errors = []

    def talk(api, d):
        for _ in range(5):
            try:
                api.model_chat_completion({"messages": []})
            except ValueError as exc:
                errors.append(str(exc))
        return {"action": "wait", "model_usage": "agent's own, overwritten", "reason": "r"}

    def talk2(api, d):
        api.model_chat_completion({"messages": []})
        return {"action": "wait"}

    c = write_cargo(tmp_path / "cargo.jsonl", [cargo("7")])
    dr = write_drivers(tmp_path / "drivers.json", [driver()])
    env = CompetitionEnv(load_cargo_table(c), load_driver_records(dr),
                         RoundSettings.for_version("S4", days=1, step_timeout_s=None),
                         tmp_path / "out", "20260301_000000")
    env.api = HarnessApi(env, FakeGateway(replies))
    agent = Script([talk, talk2])
    agent.api = env.api
    summary = env.run(agent)
    recs = log(env)
    assert errors == ["usage.prompt_tokens is null"]
    assert recs[0]["token_usage"] == {"prompt_tokens": 10, "completion_tokens": 7,
                                      "reasoning_tokens": 3, "total_tokens": 17}
    assert list(recs[0]["action"]) == ["action", "model_usage", "reason"]  # overwritten in place
    assert recs[0]["action"]["model_usage"] == recs[0]["token_usage"]
    assert recs[1]["token_usage"]["total_tokens"] == 2  # reset per decision
    assert list(recs[1]["action"]) == ["action", "model_usage"]  # appended last
    assert summary["driver_token_usage"]["A"] == 19


def test_token_budget_stops_after_the_step(tmp_path: Path) -> None:
    from agents.app.compete import HarnessApi

    c = write_cargo(tmp_path / "cargo.jsonl", [cargo("7")])
    dr = write_drivers(tmp_path / "drivers.json", [driver()])
    env = CompetitionEnv(load_cargo_table(c), load_driver_records(dr),
                         RoundSettings.for_version("S4", days=1, step_timeout_s=None,
                                                   token_budget=25),
                         tmp_path / "out", "20260301_000000")
    env.api = HarnessApi(env, FakeGateway([{"usage": {"total_tokens": 10}}] * 5))

    def talk(api, d):
        api.model_chat_completion({})
        return {"action": "wait"}

    agent = Script([talk] * 5)
    agent.api = env.api
    summary = env.run(agent)
    assert len(log(env)) == 3  # 10, 20, 30 > 25: the third step is kept
    assert summary["driver_end_reasons"]["A"] == "token_limit"
    assert summary["driver_token_limit_stopped"] == {"A": True}


def test_step_timeout_drops_the_pending_action(tmp_path: Path) -> None:
    def slow(api, d):
        api.query_cargo(d, *HOME)
        time.sleep(0.5)
        return {"action": "wait"}

    env, summary = play(tmp_path, [cargo("7")], {"A": [wait(3), slow], "B": [wait(2)]},
                        [driver("A"), driver("B")], step_timeout_s=0.1)
    assert len(log(env, "A")) == 1
    assert summary["driver_end_reasons"] == {"A": "decision_timeout", "B": "normal"}


# --- §4.6 malformed decisions end only that driver ---------------------------------------

def _boom(api, d):
    raise RuntimeError("agent bug")


@pytest.mark.parametrize(("bad", "kind"), [
    (_boom, "RuntimeError"),
    (lambda api, d: ["wait"], "DecisionError"),
    (lambda api, d: {"params": {}}, "DecisionError"),
    (lambda api, d: {"action": "fly"}, "DecisionError"),
    (lambda api, d: {"action": "wait", "params": [1]}, "DecisionError"),
    (lambda api, d: {"action": "reposition", "params": {"latitude": 23.0}}, "KeyError"),
    (lambda api, d: {"action": "take_order", "params": {}}, "KeyError"),
    (lambda api, d: {"action": "reposition", "params": {"latitude": "x", "longitude": 1}},
     "ValueError"),
    (lambda api, d: {"action": "wait", "params": {"duration_minutes": -1}}, "DecisionError"),
    (lambda api, d: api.query_cargo("B", *HOME), "ValueError"),
])
def test_malformed_decision_ends_only_that_driver(tmp_path: Path, bad, kind: str) -> None:
    env, summary = play(tmp_path, [cargo("7")], {"A": [wait(1), bad], "B": [wait(1)]},
                        [driver("A"), driver("B")])
    assert len(log(env, "A")) == 1  # steps so far are kept
    assert summary["driver_end_reasons"]["A"] == "error"
    assert summary["driver_simulation_failures"]["A"].startswith(kind + ":")
    assert summary["driver_end_reasons"]["B"] == "normal"
    assert len(log(env, "B")) >= 1


# --- §5 log format -------------------------------------------------------------------------

def test_float_normalisation() -> None:
    rec = {"lat": 22.123456, "x": 1.005, "nested": {"lng": 113.987654, "v": [22.123456]},
           "action": {"params": {"latitude": 1.23456, "reason_score": 0.333333}},
           "t": (1.23456,), "flag": True, "n": 3}
    full = normalise_record(rec)
    assert full["lat"] == 22.123456
    assert full["nested"]["lng"] == 113.987654
    assert full["nested"]["v"] == [22.12]  # list elements are rounded even under a coord key
    assert full["x"] == round(1.005, 2)
    assert full["action"]["params"]["reason_score"] == 0.33
    assert full["action"]["params"]["latitude"] == 1.23456
    assert full["t"] == (1.23456,)
    assert full["flag"] is True
    assert full["n"] == 3
    early = normalise_record(rec, full_coords=False)
    assert early["lat"] == 22.12
    assert early["action"]["params"]["latitude"] == 1.23


def test_log_lines_are_python_json_dumps(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7")], [move(23.123456789, 113.3)])
    raw = (env.out_dir / "actions_202603_A_20260301_000000.jsonl").read_text(encoding="utf-8")
    assert raw.endswith("\n")
    assert raw.count("\n") == 2
    raw = raw.splitlines(keepends=True)[0]
    rec = json.loads(raw)
    assert raw == json.dumps(rec, ensure_ascii=False) + "\n"
    assert rec["position_after"]["lat"] == 23.123456789
    assert list(rec) == ["step", "driver_id", "step_elapsed_minutes", "query_scan_cost_minutes",
                         "action_exec_cost_minutes", "position_before", "position_after",
                         "simulation_end_time", "action", "token_usage", "result"]
    summary = (env.out_dir / "run_summary_202603.json").read_text(encoding="utf-8")
    assert not summary.endswith("\n")
    assert json.loads(summary)["driver_result_files"]["A"].startswith("/")


def test_old_results_move_to_history(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "actions_202603_A_20200101_000000.jsonl").write_text("old\n")
    env, _ = play(tmp_path, [cargo("7")], [wait(1)])
    assert (env.out_dir / "history" / "20260301_000000" /
            "actions_202603_A_20200101_000000.jsonl").is_file()
    assert not (env.out_dir / "actions_202603_A_20200101_000000.jsonl").exists()


def test_concurrency_gives_identical_logs(tmp_path: Path) -> None:
    from tests.competition_data import cargo_rows, driver_rows

    sys_path_agent = tmp_path / "a"
    outs = []
    for conc in (1, 4):
        c = write_cargo(tmp_path / "cargo.jsonl", cargo_rows(2, 150))
        d = write_drivers(tmp_path / "drivers.json", driver_rows(8))
        env = CompetitionEnv(load_cargo_table(c), load_driver_records(d),
                             RoundSettings.for_version("S4", days=2, concurrency=conc),
                             sys_path_agent / str(conc), "20260301_000000")
        install_simkit()
        import tests.agents.comp_agent as ca

        env.run(ca.ModelDecisionService(env.api))
        outs.append({p.name: p.read_text() for p in env.out_dir.glob("actions_*.jsonl")})
    assert len(outs[0]) == 8
    assert outs[0] == outs[1]


def test_history_of_an_earlier_driver_under_concurrency(tmp_path: Path) -> None:
    seen = {}

    def ask(api, d):
        seen[d] = api.query_decision_history("A", -1)["total_steps"]
        return {"action": "wait"}

    for conc in (1, 3):
        play(tmp_path / str(conc), [cargo("7")],
             {"A": [wait(1)] * 5, "B": [ask], "C": [ask]},
             [driver("A"), driver("B"), driver("C")], concurrency=conc)
        # as in the sequential loop: A has finished (5 steps + the closing wait)
        assert seen == {"B": 6, "C": 6}
        seen.clear()


def test_version_budgets(tmp_path: Path) -> None:
    _, s2 = play(tmp_path / "a", [cargo("7")], [wait(1)], scoring="S2", step_timeout_s=None)
    assert s2["driver_max_total_tokens"] is None
    assert RoundSettings.for_version("S2").step_timeout_s is None
    assert RoundSettings.for_version("S3").token_budget == 5_000_000
    assert RoundSettings.for_version("S4").step_timeout_s == 120.0
    with pytest.raises(ValueError, match="scoring must be one of"):
        RoundSettings.for_version("S5")
