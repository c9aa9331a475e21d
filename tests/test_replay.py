"""A recorded model run replays exactly (events and token counts) with no server at all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq

from agents.app.runner import run_scenario
from agents.testing.fakes import ScriptedServer
from sim.scenario import Scenario
from sim.world.recorder import read_events

POS = re.compile(r"position \((-?\d+\.\d+),(-?\d+\.\d+)\)")


def plausible(body: dict) -> tuple[int, str]:
    """Valid answers for each agent's schema, read off the prompt like a model would."""
    name = body.get("response_format", {}).get("json_schema", {}).get("name", "")
    user = body["messages"][-1]["content"]
    m = POS.search(user)
    lat, lng = (float(m.group(1)), float(m.group(2))) if m else (23.1, 113.3)
    n = len(body["messages"])  # varies the replies a little, deterministically
    answers = {
        "search": {"search": n % 2 == 0, "grid": "here", "radius_km": 25,
                   "reason": f"near {lat:.2f},{lng:.2f}"},
        "preference": {"wait_minutes": 0, "go": False, "lat": 0, "lng": 0, "reason": "none"},
        "cargo_analyst": {"ranked": [], "reason": "nothing"},
        "main_decision": {"action": "search", "cargo_id": "", "minutes": 0, "lat": 0,
                          "lng": 0, "short_plan": "look around"},
    }
    return 200, json.dumps(answers.get(name, {"bullets": ["x"]}))


def test_replay_reproduces_recorded_run(tmp_path: Path, smoke: Scenario) -> None:
    cache = tmp_path / "cache.jsonl"
    # 43 minutes of two drivers: about 350 requests (0.2 days made 2,300 and took half a minute)
    base = smoke.with_overrides(scenario={"days": 0.03}, drivers={"count": 2})
    with ScriptedServer(plausible, prompt_tokens=321, completion_tokens=17) as srv:
        rec = base.with_overrides(llm={"backend": "llm", "base_url": srv.base_url,
                                       "cache": str(cache)})
        run_scenario(rec, tmp_path / "recorded")
        n_requests = len(srv.requests)
    assert n_requests > 20
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert len(rows) == n_requests  # every request recorded, inspectable
    assert {"key", "request", "completion"} <= set(rows[0])

    replay = rec.with_overrides(llm={"base_url": "http://127.0.0.1:9/v1", "replay": True})
    run_scenario(replay, tmp_path / "replayed")
    a, b = read_events(tmp_path / "recorded"), read_events(tmp_path / "replayed")
    assert a.drop_columns(["detail"]).equals(b.drop_columns(["detail"]))
    # details hold latencies only in llm_call rows; everything else must match exactly
    da, db = a.column("detail").to_pylist(), b.column("detail").to_pylist()
    assert da == db
    ca = pq.read_table(tmp_path / "recorded" / "llm_calls.parquet").to_pandas()
    cb = pq.read_table(tmp_path / "replayed" / "llm_calls.parquet").to_pandas()
    cols = ["driver_id", "step", "agent", "prompt_tokens", "completion_tokens", "outcome"]
    assert ca[cols].equals(cb[cols])
    assert (ca.prompt_tokens[ca.calls > 0] % 321 == 0).all()  # the server's usage, not ours


def test_replay_without_recording_falls_back(tmp_path: Path, smoke: Scenario) -> None:
    sc = smoke.with_overrides(scenario={"days": 0.05}, drivers={"count": 1},
                              llm={"backend": "llm", "cache": str(tmp_path / "none.jsonl"),
                                   "replay": True})
    result = run_scenario(sc, tmp_path / "out")
    assert result.summary["call_outcomes"] == {"fallback": result.summary["agent_calls"]}
    fb = read_events(tmp_path / "out").to_pandas()
    causes = {json.loads(d)["cause"] for d in fb[fb.kind == "llm_fallback"].detail}
    assert causes == {"replay_miss"}
