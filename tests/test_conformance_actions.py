"""Spec conformance of the loop, the actions and the api (docs/competition.md §3, §4),
adversarially.

The existing tests/test_competition_rules.py covers each rule once; these tests go after the
boundaries it leaves open (ties after removals, the 1 mm snap, eligibility with a window wait,
pool size with taken cargo, budget equality, scan minutes of a timed-out decision, ...).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from agents.app.compete import HarnessApi
from sim.competition.drivers_file import load_driver_records
from sim.competition.env import CompetitionEnv, RoundSettings, usage_counts
from sim.competition.records import load_cargo_table
from sim.geo import haversine_km
from sim.official.timebase import drive_minutes
from tests.competition_data import wall, write_cargo, write_drivers
from tests.test_competition_rules import (
    HOME,
    FakeGateway,
    Script,
    cargo,
    driver,
    log,
    play,
    take,
    wait,
)


def bare(tmp: Path, rows: list[dict], steps, drivers=None, gateway=None,
         **rule_kw) -> tuple[CompetitionEnv, dict]:
    """Like `play` but without the background cargo, so the pool can run dry."""
    tmp.mkdir(parents=True, exist_ok=True)
    c = write_cargo(tmp / "cargo.jsonl", rows)
    d = write_drivers(tmp / "drivers.json", drivers or [driver()])
    rule_kw.setdefault("days", 1)
    rule_kw.setdefault("step_timeout_s", None)
    env = CompetitionEnv(load_cargo_table(c, rule_kw.pop("strict", True)),
                         load_driver_records(d), RoundSettings.for_version("S4", **rule_kw),
                         tmp / "out", "20260301_000000")
    if gateway is not None:
        env.api = HarnessApi(env, gateway)
    agent = Script(steps)
    agent.api = env.api
    return env, env.run(agent)


def all_lines(env: CompetitionEnv, did: str = "A") -> list[dict]:
    path = env.out_dir / f"actions_202603_{did}_20260301_000000.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


# ------------------------------------------------------------------ §4.2 wait conversions


@pytest.mark.parametrize(("given", "minutes"), [(-0.99, 0), ("7", 7), (" 7 ", 7), (7.999, 7),
                                                (True, 1), (0.0, 0)])
def test_wait_duration_conversions(tmp_path: Path, given: object, minutes: int) -> None:
    env, _ = play(tmp_path, [cargo("1")], [wait(given)])
    rec = log(env)[0]
    assert rec["action_exec_cost_minutes"] == minutes
    assert rec["result"]["simulation_progress_minutes"] == minutes


@pytest.mark.parametrize("given", [-1, -1.0, "-1", "7.5", "abc", None, [3]])
def test_wait_bad_duration_is_a_driver_error(tmp_path: Path, given: object) -> None:
    env, summary = play(tmp_path, [cargo("1")], [wait(2), wait(given)])
    assert summary["driver_end_reasons"]["A"] == "error"
    assert len(log(env)) == 1


# --------------------------------------------------------------------- §4.4 the 1 mm snap


@pytest.mark.parametrize(("dlat", "snaps"), [(0.0, True), (5e-9, True), (2e-8, False)])
def test_pickup_snap_at_one_millimetre(tmp_path: Path, dlat: float, snaps: bool) -> None:
    pick = (23.1, 113.3)
    me = (pick[0] + dlat, pick[1])
    p = haversine_km(*me, *pick)
    assert (p <= 1e-6) is snaps  # the coordinates really straddle the threshold
    env, _ = play(tmp_path, [cargo("7", at=pick, cost=30)], [take("7")],
                  drivers=[driver(at=me)])
    rec = log(env)[0]
    assert rec["result"]["accepted"] is True
    assert rec["action_exec_cost_minutes"] == (30 if snaps else 1 + 30)
    assert rec["result"]["pickup_deadhead_km"] == round(p, 2)


# -------------------------------------------------------- §4.4-§4.5 take_order edge cases


def test_not_online_detail_echoes_the_untrimmed_param(tmp_path: Path) -> None:
    env, _ = play(tmp_path, [cargo("7")], [take(" 7 "), take(7.0), take(7)])
    recs = log(env)
    assert recs[0]["result"]["detail"] == "cargo_id 已失效:  7 "
    assert recs[1]["result"]["detail"] == "cargo_id 已失效: 7.0"  # str(7.0) is "7.0"
    assert recs[2]["result"]["accepted"] is True
    assert recs[2]["result"]["cargo_id"] == "7"


def test_eligibility_counts_the_window_wait(tmp_path: Path) -> None:
    # at the pickup at 0; the window opens at 1000; 1000 + 440 = 1440 is fine, 441 is not
    rows = [cargo("a", window=[wall(1000), wall(1100)], cost=440, remove=2000),
            cargo("b", window=[wall(1000), wall(1100)], cost=441, remove=2000)]
    for cid, ok in (("a", True), ("b", False)):
        env, _ = play(tmp_path / cid, rows, [take(cid)])
        rec = log(env)[0]
        assert rec["result"]["accepted"] is True  # executed either way
        assert rec["result"]["income_eligible"] is ok
        assert rec["action_exec_cost_minutes"] == 1000 + 440 + (not ok)


def test_unreachable_window_skips_the_cost_time(tmp_path: Path) -> None:
    # a bad cost time is only read when the window is still reachable
    rows = [cargo("7", window=[wall(0), wall(3)], cost="bad")]
    env, _ = play(tmp_path, rows, [wait(4), take("7")], strict=False)
    rec = log(env)[1]
    assert rec["result"]["detail"] == "load_time_window_expired"


def test_malformed_end_fails_after_the_drive_and_the_wait(tmp_path: Path) -> None:
    pick = (23.3, 113.3)
    m = drive_minutes(haversine_km(*HOME, *pick), 60.0)
    row = cargo("7", at=pick, window=[wall(m + 20), wall(m + 50)])
    row["end"] = {"lat": "north", "lng": 113.0, "city": "x"}
    env, summary = play(tmp_path, [row], [take("7"), take("7")], strict=False)
    first, second = log(env)[:2]
    assert first["result"] == {"action": "take_order", "accepted": False,
                               "detail": "cargo_id 已失效: 7",
                               "simulation_progress_minutes": m + 20 + 1,
                               "simulation_wall_time": wall(m + 21)}
    assert first["position_after"] == {"lat": pick[0], "lng": pick[1]}
    assert second["result"]["accepted"] is False  # removed for good
    assert summary["driver_end_reasons"]["A"] == "normal"


def test_missing_end_is_a_driver_error(tmp_path: Path) -> None:
    row = cargo("7")
    del row["end"]
    env, summary = play(tmp_path, [row], [wait(1), take("7")], strict=False)
    assert summary["driver_end_reasons"]["A"] == "error"
    assert len(log(env)) == 1


def test_remove_before_create_is_online_only_at_create(tmp_path: Path) -> None:
    rows = [cargo("7", create=10, remove=5, cost=5), cargo("8", create=10, remove=5, cost=5)]
    env, _ = play(tmp_path, rows, [wait(10), take("7"), take("8")])
    recs = log(env)
    assert recs[1]["result"]["accepted"] is True  # minute 10 = create = raised remove
    assert recs[2]["result"]["accepted"] is False  # minute 15


# ------------------------------------------------------------------ §4.7 pool-size ending


def test_not_yet_listed_cargo_keeps_the_driver_running(tmp_path: Path) -> None:
    rows = [cargo("7", create=0, remove=100, cost=5), cargo("8", create=500, remove=600)]
    env, summary = bare(tmp_path, rows, [take("7"), wait(50), wait(600), wait(1)])
    recs = all_lines(env)
    # after the take only "8" (not yet listed) is left: size 1, the driver goes on; at 655
    # "8" has expired and the pool is empty
    assert [r["action"]["action"] for r in recs] == ["take_order", "wait", "wait"]
    assert summary["driver_end_reasons"]["A"] == "normal"
    assert summary["remaining_cargo_count"] == 0


def test_taken_cargo_leaves_the_pool_size(tmp_path: Path) -> None:
    env, summary = bare(tmp_path, [cargo("7", create=0, remove=1000, cost=5)],
                        [take("7"), wait(1)])
    assert len(all_lines(env)) == 1  # size 0 right after the take, long before the remove
    assert summary["driver_end_reasons"]["A"] == "normal"


def test_failed_attempt_also_leaves_the_pool_size(tmp_path: Path) -> None:
    rows = [cargo("7", create=0, remove=1000, window=[wall(50), wall(40)])]
    env, _ = bare(tmp_path, rows, [take("7"), wait(1)])
    assert len(all_lines(env)) == 1


def test_max_steps_checked_before_the_horizon(tmp_path: Path) -> None:
    env, summary = play(tmp_path, [cargo("7")], [wait(1440)], max_steps=1)
    assert len(log(env)) == 1
    # both conditions hold; the step cap is checked first (interpretation, INTERPRETATIONS.md)
    assert summary["driver_end_reasons"]["A"] == "max_steps"


# --------------------------------------------------------------- §3.3 query reference


def _reference(rows, lines, now, gone, q, k):
    """The spec's own recipe: online arrays (create, line), then argpartition + argsort."""
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["_c"], lines[i]))
    online = [i for i in order if rows[i]["_c"] <= now <= max(rows[i]["_r"], rows[i]["_c"])
              and rows[i]["cargo_id"] not in gone]
    lat = np.array([rows[i]["start"]["lat"] for i in online], dtype=float)
    lng = np.array([rows[i]["start"]["lng"] for i in online], dtype=float)
    la, lo = np.radians(q[0]), np.radians(q[1])
    la2, lo2 = np.radians(lat), np.radians(lng)
    h = np.sin((la2 - la) / 2.0) ** 2 + np.cos(la) * np.cos(la2) * np.sin((lo2 - lo) / 2.0) ** 2
    d = 2.0 * 6371.0 * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))
    take_n = min(k, len(d))
    part = np.argpartition(d, take_n - 1)[:take_n]
    sel = part[np.argsort(d[part])]
    return [rows[online[j]]["cargo_id"] for j in sel], [float(d[j]) for j in sel]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_query_matches_numpy_recipe_after_takes_and_expiry(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = [(23.1, 113.3), (23.12, 113.3), (23.1, 113.32), (23.08, 113.28)]
    rows = []
    for i in range(120):
        c = int(rng.integers(0, 30))
        r = c + int(rng.integers(-5, 200))  # some remove < create
        row = cargo(f"c{i}", create=c, remove=r, at=points[int(rng.integers(0, 4))], cost=1,
                    window=None)
        row["_c"], row["_r"] = c, r
        rows.append(row)
    bg = cargo("bg", create=0, remove=10**7, at=(20.5, 110.5))
    bg["_c"], bg["_r"] = 0, 10**7
    rows.append(bg)  # keeps the pool alive whatever the draw
    # take three cargo online at minute 0 (each costs 1 minute after the snap / drive)
    at0 = [r for r in rows[:-1] if r["_c"] == 0 and r["_r"] >= 0][:3]
    got = {}

    def query(api, d):
        got["now"] = api.get_driver_status(d)["simulation_progress_minutes"]
        got["q"] = api.query_cargo(d, 23.1, 113.3, 17)
        return {"action": "wait", "params": {"duration_minutes": 0}}

    clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    env, _ = bare(tmp_path, clean, [take(r["cargo_id"]) for r in at0] + [wait(25), query])
    recs = all_lines(env)
    gone = {r["cargo_id"] for r in at0}
    lines = list(range(len(rows)))
    ids, dists = _reference(rows, lines, got["now"], gone, (23.1, 113.3), 17)
    assert [it["cargo"]["cargo_id"] for it in got["q"]["items"]] == ids
    assert [it["distance_km"] for it in got["q"]["items"]] == dists
    assert all(type(it["distance_km"]) is float for it in got["q"]["items"])
    assert len(ids) == 17  # ties at 4 points: the k-th place is decided by argpartition
    assert recs[len(at0) + 1]["query_scan_cost_minutes"] == 2


def test_query_items_are_fresh_copies_with_yuan_prices(tmp_path: Path) -> None:
    prices = [100.5, 100005, 12345.5, 1, 0, 250.0, 99999999]
    rows = [cargo(f"p{i}", price=p, at=(23.1 + i * 0.01, 113.3), extra={"x": [1.23456]},
                  truck_length=["4.2米", "6.8米"], cargo_name=" 蔬菜 ")
            for i, p in enumerate(prices)]
    got = []

    def query(api, d):
        q = api.query_cargo(d, *HOME)
        got.append(q)
        q["items"][0]["cargo"]["start"]["lat"] = 0.0  # mutate what we got
        got.append(api.query_cargo(d, *HOME))
        return {"action": "wait"}

    play(tmp_path, rows, [query])
    items = {it["cargo"]["cargo_id"]: it["cargo"] for it in got[0]["items"]}
    for i, p in enumerate(prices):
        c = items[f"p{i}"]
        assert c["price"] == round(p / 100, 2)
        assert type(c["price"]) is float
        assert c["extra"] == {"x": [1.23456]}  # not normalised, unchanged
        assert c["truck_length"] == ["4.2米", "6.8米"]
        assert c["cargo_name"] == " 蔬菜 "
        assert c["create_time"] == rows[i]["create_time"]
    assert got[1]["items"][0]["cargo"]["start"]["lat"] != 0.0


def test_query_keyword_k_and_default(tmp_path: Path) -> None:
    rows = [cargo(str(i), at=(23.0 + i * 1e-4, 113.3)) for i in range(150)]
    got = {}

    def query(api, d):
        got["kw"] = api.query_cargo(d, *HOME, k=3)
        got["default"] = api.query_cargo(d, *HOME)
        got["float"] = api.query_cargo(d, *HOME, 2.9)
        return {"action": "wait"}

    env, _ = play(tmp_path, rows, [query])
    assert (got["kw"]["k"], len(got["kw"]["items"])) == (3, 3)
    assert (got["default"]["k"], len(got["default"]["items"])) == (100, 100)
    assert got["float"]["k"] == 2
    assert list(got["kw"]) == ["driver_id", "k", "items"]
    assert log(env)[0]["query_scan_cost_minutes"] == 1 + 10 + 1


def test_scan_minutes_move_the_visible_set_and_the_action(tmp_path: Path) -> None:
    # 10 cargo near; "late" expires at minute 0 -> a query at 0 sees it, the take after the
    # query's 1 scan minute does not
    rows = [cargo(f"n{i}", at=(23.2, 113.3 + i * 0.001)) for i in range(9)]
    rows.append(cargo("late", remove=0, cost=1))
    got = {}

    def query_then_take(api, d):
        got["q"] = api.query_cargo(d, *HOME)
        got["s"] = api.get_driver_status(d)
        return {"action": "take_order", "params": {"cargo_id": "late"}}

    env, _ = play(tmp_path, rows, [query_then_take])
    assert "late" in [it["cargo"]["cargo_id"] for it in got["q"]["items"]]
    assert got["s"]["simulation_progress_minutes"] == 1
    rec = log(env)[0]
    assert rec["query_scan_cost_minutes"] == 1
    assert rec["result"]["detail"] == "cargo_id 已失效: late"
    assert rec["step_elapsed_minutes"] == 2
    assert rec["action_exec_cost_minutes"] == 1


# ------------------------------------------------------------ §3.2 status, visibility


def _prefs_seen(tmp_path: Path, prefs: list, minutes: list[int], **kw) -> list[list]:
    seen = []

    def look(api, d):
        seen.append(api.get_driver_status(d)["preferences"])
        return {"action": "wait", "params": {"duration_minutes": 1}}

    steps = []
    t = 0
    for m in minutes:
        steps.append(wait(m - t) if m > t else None)
        steps.append(look)
        t = m + 1
    play(tmp_path, [cargo("7")], [s for s in steps if s is not None],
         [driver(prefs=prefs)], strict=False, **kw)
    return seen


def test_visibility_start_bound_at_second_resolution(tmp_path: Path) -> None:
    p = {"content": "x", "start_time": " 2026-03-01 00:05:30 ", "end_time": "2026-03-01 00:08:00",
         "penalty_amount": 1, "penalty_cap": None}
    seen = _prefs_seen(tmp_path, [p], [5, 6, 8, 9])
    assert [len(s) for s in seen] == [0, 1, 1, 0]  # 00:05:00 < 00:05:30; 00:08:00 inclusive


@pytest.mark.parametrize("bounds", [(None, "2026-03-01 00:00:00"), ("2026-03-02 00:00:00", None),
                                    ("2026-03-02 00:00", "2026-03-03 00:00:00"),
                                    ("2026-03-02 00:00:00", "tomorrow")])
def test_missing_or_unparseable_bound_is_always_visible(tmp_path: Path, bounds) -> None:
    p = {"content": "x", "start_time": bounds[0], "end_time": bounds[1], "penalty_amount": 1,
         "penalty_cap": None}
    seen = _prefs_seen(tmp_path, [p], [3])
    assert len(seen[0]) == 1
    assert "start_time" not in seen[0][0]
    assert "end_time" not in seen[0][0]
    early = _prefs_seen(tmp_path / "s2", [p], [3], scoring="S2")
    assert early[0] == [p]  # the early release returns the entry unchanged


def test_later_release_keeps_other_keys_of_a_visible_entry(tmp_path: Path) -> None:
    p = {"text": "x", "start_time": "2026-03-01 00:00:00", "end_time": "2026-03-02 00:00:00",
         "penalty_amount": 1, "penalty_cap": None, "extra": 1}
    seen = _prefs_seen(tmp_path, [p], [0])
    assert seen[0] == [{"text": "x", "penalty_amount": 1, "penalty_cap": None, "extra": 1}]


def test_status_unknown_id_and_raw_fields(tmp_path: Path) -> None:
    seen = {}

    def look(api, d):
        with pytest.raises(KeyError):
            api.get_driver_status("nobody")
        with pytest.raises(KeyError):
            api.get_driver_status(" A ")  # status does not trim
        seen["s"] = api.get_driver_status(d)
        return {"action": "wait"}

    row = driver()
    row.pop("name")
    row["vehicle_no"] = None
    play(tmp_path, [cargo("7")], [look], [row])
    s = seen["s"]
    assert s["name"] == ""
    assert s["vehicle_no"] == ""
    assert s["simulation_started"] is True
    assert s["is_current"] is True
    assert type(s["current_lat"]) is float


# ------------------------------------------------------------ §3.5 token accounting


@pytest.mark.parametrize(("usage", "want"), [
    (None, (0, 0, 0, 0)),
    ({}, (0, 0, 0, 0)),
    ({"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}, (3, 4, 0, 7)),
    ({"prompt_tokens": -3, "completion_tokens": 4, "total_tokens": 7,
      "completion_tokens_details": {"reasoning_tokens": -2}}, (0, 4, 0, 7)),
    ({"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7,
      "completion_tokens_details": {"reasoning_tokens": 2}}, (3, 4, 2, 7)),
    ({"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7,
      "completion_tokens_details": {}}, (3, 4, 0, 7)),
])
def test_usage_counts(usage, want) -> None:
    assert usage_counts(usage) == want


@pytest.mark.parametrize("null", ["prompt_tokens", "completion_tokens", "total_tokens"])
def test_null_count_raises_and_counts_nothing(tmp_path: Path, null: str) -> None:
    usage = {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11}
    usage[null] = None
    replies = [{"usage": usage}, {"usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                            "total_tokens": 2}}]
    errors = []

    def talk(api, d):
        for _ in range(2):
            try:
                api.model_chat_completion({"messages": []})
            except Exception as exc:
                errors.append(exc)
        return {"action": "wait"}

    env, _ = play_gw(tmp_path, replies, [talk])
    assert len(errors) == 1
    assert log(env)[0]["token_usage"] == {"prompt_tokens": 1, "completion_tokens": 1,
                                          "reasoning_tokens": 0, "total_tokens": 2}


def play_gw(tmp: Path, replies: list, steps, **rule_kw):
    rows = [cargo("7"), cargo("bg", create=1, remove=10**7, at=(20.5, 110.5))]
    return bare(tmp, rows, steps, gateway=FakeGateway(list(replies)), **rule_kw)


# ------------------------------------------------------------------ §3.6 budget, timeout


def test_budget_equal_is_not_over(tmp_path: Path) -> None:
    def talk(api, d):
        api.model_chat_completion({})
        return {"action": "wait"}

    env, summary = play_gw(tmp_path, [{"usage": {"total_tokens": 10}}] * 5, [talk] * 5,
                           token_budget=20)
    assert len(log(env)) == 3  # 10, 20 (= budget, goes on), 30 > 20: kept, then stop
    assert summary["driver_token_usage"]["A"] == 30
    assert summary["driver_end_reasons"]["A"] == "token_limit"


def test_budget_counts_total_tokens_only(tmp_path: Path) -> None:
    def talk(api, d):
        api.model_chat_completion({})
        return {"action": "wait"}

    reply = {"usage": {"prompt_tokens": 100, "completion_tokens": 100, "total_tokens": 1,
                       "completion_tokens_details": {"reasoning_tokens": 100}}}
    env, summary = play_gw(tmp_path, [reply] * 4, [talk] * 4, token_budget=3)
    assert len(log(env)) == 4
    assert summary["driver_token_usage"]["A"] == 4


def test_timeout_keeps_scan_minutes_on_the_clock(tmp_path: Path) -> None:
    # 30 cargo expire at minute 5; a timed-out decision at minute 3 scans 31 items (4 minutes)
    rows = [cargo(f"c{i}", remove=5, at=(23.1 + i * 0.001, 113.3)) for i in range(30)]
    rows.append(cargo("bg", create=1, remove=10**7, at=(20.5, 110.5)))

    def slow(api, d):
        api.query_cargo(d, *HOME)
        time.sleep(0.6)
        return {"action": "wait"}

    env, summary = bare(tmp_path, rows, [wait(3), slow], step_timeout_s=0.2)
    assert len(all_lines(env)) == 1  # the pending wait is neither applied nor logged
    assert summary["driver_end_reasons"]["A"] == "decision_timeout"
    assert env.runs[0].state.t == 3 + 4
    assert summary["remaining_cargo_count"] == 1  # pool measured at minute 7, not 3


def test_api_calls_from_the_agents_own_threads_act_for_the_active_driver(tmp_path: Path) -> None:
    """§3.1: one api object; an agent may fan model calls and queries out to threads inside
    decide, and those calls still count for (and charge) the driver being simulated."""
    from concurrent.futures import ThreadPoolExecutor

    rows = [cargo(f"c{i}", at=(23.1 + i * 0.001, 113.3)) for i in range(15)]
    rows.append(cargo("bg", create=1, remove=10**7, at=(20.5, 110.5)))
    seen = {}

    def fan_out(api, d):
        with ThreadPoolExecutor(3) as ex:
            replies = list(ex.map(lambda _: api.model_chat_completion({}), range(3)))
            q = ex.submit(api.query_cargo, d, *HOME).result()
            st = ex.submit(api.get_driver_status, d).result()
        seen.update(replies=replies, q=q, st=st)
        return {"action": "wait"}

    env, _ = bare(tmp_path, rows, [fan_out], step_timeout_s=5.0,
                  gateway=FakeGateway([{"usage": {"total_tokens": 7}}] * 3))
    rec = all_lines(env)[0]
    assert rec["token_usage"]["total_tokens"] == 21
    assert len(seen["q"]["items"]) == 15
    assert rec["query_scan_cost_minutes"] == 2
    assert seen["st"]["is_current"] is True
    assert seen["st"]["simulation_progress_minutes"] == 2


def test_model_usage_is_written_into_the_agents_own_dict(tmp_path: Path) -> None:
    """§3.1: the server overwrites model_usage in the returned dict, so an agent that keeps
    its decision sees the server's count there at its next decision."""
    kept = []

    def talk(api, d):
        api.model_chat_completion({})
        kept.append({"action": "wait", "model_usage": "mine"})
        return kept[-1]

    def look(api, d):
        kept.append(dict(kept[0]))
        return {"action": "wait"}

    env, _ = play_gw(tmp_path, [{"usage": {"prompt_tokens": 2, "completion_tokens": 3,
                                           "total_tokens": 5}}], [talk, look])
    assert kept[1]["model_usage"] == {"prompt_tokens": 2, "completion_tokens": 3,
                                      "reasoning_tokens": 0, "total_tokens": 5}
    assert list(kept[1]) == ["action", "model_usage"]
    assert log(env)[0]["action"]["model_usage"] == kept[1]["model_usage"]


@pytest.mark.parametrize(("reachable", "reason"), [(True, "error"), (False, "normal")])
def test_null_cost_time_is_an_error_only_when_the_window_is_reachable(
        tmp_path: Path, reachable: bool, reason: str) -> None:
    row = cargo("7", window=[wall(0), wall(3)], cost=None)
    env, summary = play(tmp_path, [row], [wait(0 if reachable else 4), take("7")],
                        strict=False)
    assert summary["driver_end_reasons"]["A"] == reason
    recs = log(env)
    assert len(recs) == (1 if reachable else 2)
    if not reachable:
        assert recs[1]["result"]["detail"] == "load_time_window_expired"
