"""Many decisions in flight: the emulated server, latency split, budgets, lookahead dispatch.

Assertions never depend on how fast this machine is: the server's queueing is checked with its
own in-flight counter, event logs are compared whole, budgets use fakes with fixed latencies.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import openai
import pandas as pd
import pyarrow.parquet as pq
import pytest

from agents.app.bench import mode_report
from agents.llm.budgets import StepBudgetModel
from agents.llm.language_model import Completion, LanguageModel, LLMError
from agents.llm.openai_adapter import TimedOpenAIModel
from agents.roles.baseline import GreedyPolicy
from agents.testing.emulated_server import EmulatedServer, LatencyModel
from sim.scenario import Scenario
from sim.world.actions import Decision, Observation
from sim.world.recorder import read_events, without_wall_clock
from sim.world.world import World
from tests.conftest import do_run

FAST = LatencyModel(time_scale=0.001)


# -- the emulated server --------------------------------------------------------------------
def test_emulated_server_queues_beyond_its_batch(smoke: Scenario) -> None:
    lat = LatencyModel(time_scale=0.02, max_batch=3)
    n = 12
    with EmulatedServer(lat) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        queue_ms: list[float] = []

        def ask(i: int) -> None:
            raw = client.chat.completions.with_raw_response.create(
                model="m", messages=[{"role": "user", "content": f"request {i}"}])
            queue_ms.append(float(raw.headers["x-queue-ms"]))

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert srv.slots.served == n
        assert srv.slots.in_flight == 0
        # never more sequences in service than the batch holds, whatever the timing
        assert 1 <= srv.slots.max_in_flight <= 3
        assert max(k for _, k in srv.slots.trace) <= 3
    assert len(queue_ms) == n


def test_emulated_server_batch_of_one_serialises() -> None:
    with EmulatedServer(LatencyModel(time_scale=0.001, max_batch=1)) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        threads = [threading.Thread(target=lambda: client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}])) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert srv.slots.max_in_flight == 1
        assert srv.slots.served == 6


def test_emulated_replies_depend_only_on_the_request() -> None:
    body = {"messages": [{"role": "user", "content": "same"}],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "main_decision", "schema": {}}}}
    with EmulatedServer(FAST) as a, EmulatedServer(FAST) as b:
        assert a.responder(body) == b.responder(body)
        out = json.loads(a.responder(body))
        assert out["action"] in ("search", "wait")
        assert 1 <= out["minutes"] <= 1440


def test_streaming_fills_ttft_and_decode() -> None:
    lat = LatencyModel(time_scale=0.01)
    with EmulatedServer(lat, output_tokens=60) as srv:
        client = openai.OpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        m = TimedOpenAIModel(client, "m", "json_schema", stream=True)
        c = m.complete([{"role": "user", "content": "word " * 2000}],
                       schema={"type": "object"}, schema_name="search")
        assert json.loads(c.text)["grid"] == "here"
        assert c.prompt_tokens == srv.prompt_tokens(
            {"messages": [{"role": "user", "content": "word " * 2000}]})
        assert c.completion_tokens >= 60
        assert c.queue_s is not None
        assert c.queue_s >= 0
        assert c.ttft_s is not None
        assert c.decode_s is not None
        # the server sleeps at least the modelled time before the first token and after it;
        # where the client sees the boundary depends on buffering under load, the sum does not
        first = lat.first_token_s(c.prompt_tokens) * lat.time_scale
        assert c.ttft_s >= first * 0.9
        assert c.ttft_s + c.decode_s >= (
            first + lat.decode_s(c.completion_tokens) * lat.time_scale) * 0.9
        assert c.decode_s >= 0
        assert c.latency_s >= c.ttft_s + c.decode_s
        plain = TimedOpenAIModel(client, "m", "json_schema", stream=False)
        p = plain.complete([{"role": "user", "content": "hi"}], schema={"type": "object"},
                           schema_name="search")
        assert p.ttft_s is None
        assert p.queue_s is not None


def test_run_records_latency_split(tmp_path: Path, smoke: Scenario) -> None:
    with EmulatedServer(FAST) as srv:
        sc = smoke.with_overrides(scenario={"days": 0.1}, drivers={"count": 2},
                                  llm={"backend": "llm", "base_url": srv.base_url,
                                       "stream": True, "response_format": "json_schema"})
        do_run(sc, tmp_path)
    calls = pq.read_table(tmp_path / "llm_calls.parquet").to_pandas()
    steps = pq.read_table(tmp_path / "steps.parquet").to_pandas()
    ok = calls[calls.outcome.isin(["ok", "repaired"])]
    assert len(ok)
    assert ok.ttft_s.notna().all()
    assert ok.decode_s.notna().all()
    assert ok.queue_s.notna().all()
    assert (ok.ttft_s + ok.decode_s <= ok.latency_s + 1e-9).all()
    # the driver never waits longer than all its calls one after another
    assert (steps.critical_path_s <= steps.latency_sum_s + 1e-9).all()
    assert (steps.latency_sum_s >= steps.latency_s).all()
    assert steps.ttft_s.notna().any()
    split = mode_report(sc, tmp_path, 1.0)["latency_split_per_step_s"]
    assert split["ttft_mean"] > 0
    assert split["decode_mean"] > 0
    timed = steps[steps.ttft_s.notna()]
    assert (timed.ttft_s + timed.decode_s <= timed.latency_sum_s + 1e-9).all()


# -- budgets --------------------------------------------------------------------------------
class FixedModel(LanguageModel):
    """Every reply costs 100 prompt + 10 completion tokens and one second."""

    name = "fixed"

    def __init__(self) -> None:
        self.asked = 0

    def complete(self, messages: list[dict], **kw) -> Completion:
        self.asked += 1
        return Completion("{}", 100, 10, None, 1.0)


def test_token_budget_refuses_once_spent() -> None:
    inner = FixedModel()
    m = StepBudgetModel(inner, token_budget=250)
    for _ in range(3):  # 0, 110, 220 used before each: all under 250
        m.begin_step()
        m.complete([])
    with pytest.raises(LLMError) as e:
        m.complete([])
    assert e.value.cause == "token_budget"
    assert inner.asked == 3
    assert m.tokens_used == 330


def test_step_deadline_resets_each_step() -> None:
    inner = FixedModel()
    m = StepBudgetModel(inner, deadline_s=2.5)
    m.begin_step()
    m.complete([])
    m.complete([])
    with pytest.raises(LLMError) as late:  # answered at 3.0 s: too late to act on
        m.complete([])
    with pytest.raises(LLMError) as refused:  # not even asked
        m.complete([])
    assert late.value.cause == refused.value.cause == "step_deadline"
    assert inner.asked == 3
    m.begin_step()
    m.complete([])
    assert inner.asked == 4


@pytest.mark.parametrize(("table", "cause"), [({"driver_token_budget": 1500}, "token_budget"),
                                              ({"step_deadline_s": 1e-9}, "step_deadline")])
def test_budget_fallbacks_are_recorded(tmp_path: Path, smoke: Scenario, table: dict,
                                       cause: str) -> None:
    with EmulatedServer(FAST) as srv:
        sc = smoke.with_overrides(scenario={"days": 0.1}, drivers={"count": 2},
                                  llm={"backend": "llm", "base_url": srv.base_url,
                                       "response_format": "json_schema", **table})
        run = do_run(sc, tmp_path)
    calls = pq.read_table(tmp_path / "llm_calls.parquet").to_pandas()
    fb = calls[calls.cause == cause]
    assert len(fb)
    assert (fb.outcome == "fallback").all()
    events = run.kind("llm_fallback")
    assert (events.cause == cause).sum() == len(fb)
    if cause == "token_budget":
        for _, g in calls.groupby("driver_id"):
            spent = (g.prompt_tokens + g.completion_tokens).cumsum()
            # refused only once the budget was spent, and nothing asked after that
            first = g.index[g.cause == cause][0]
            before = spent.loc[:first].iloc[:-1]
            assert before.iloc[-1] >= 1500
            assert (g.loc[first:, "calls"] == 0).all()


# -- lookahead dispatch ---------------------------------------------------------------------
class Jittered:
    """The greedy policy, answering after a delay that reverses arrival order within a batch."""

    def __init__(self, inner: GreedyPolicy, driver_id: str) -> None:
        self.inner = inner
        self.delay = 0.004 * (int(hashlib.sha256(driver_id.encode()).hexdigest()[:2], 16) / 255)

    def decide(self, obs: Observation) -> Decision:
        time.sleep(self.delay)
        return self.inner.decide(obs)


def _shared_world_events(sc: Scenario, out: Path) -> pd.DataFrame:
    world = World(sc, lambda w, spec, rng: Jittered(GreedyPolicy(w.geo, sc),
                                                     spec.driver_id), out)
    result = world.run()
    assert ("dispatch" in result.summary) == (sc.llm.lookahead_minutes > 0)
    return read_events(out).to_pandas()


def test_window_zero_is_the_plain_run(tmp_path: Path, smoke: Scenario) -> None:
    sc = smoke.with_overrides(scenario={"days": 0.5}, drivers={"count": 8},
                              cargo={"rate_per_hour": 80.0})
    plain = do_run(sc.with_overrides(memory={"mode": "off"}), tmp_path / "plain").events
    zero = do_run(sc.with_overrides(memory={"mode": "off"}, llm={"concurrency": 8}),
                  tmp_path / "zero").events
    pd.testing.assert_frame_equal(plain, zero)


def test_positive_window_is_order_independent(tmp_path: Path, smoke: Scenario) -> None:
    sc = smoke.with_overrides(scenario={"days": 0.5}, drivers={"count": 12},
                              cargo={"rate_per_hour": 80.0}, memory={"mode": "off"},
                              llm={"lookahead_minutes": 20.0})
    seq = _shared_world_events(sc, tmp_path / "seq")
    conc = _shared_world_events(sc.with_overrides(llm={"concurrency": 8}), tmp_path / "conc")
    pd.testing.assert_frame_equal(seq, conc)
    assert (seq.kind == "order_taken").any()  # decisions interacted through the market


def test_concurrent_llm_run_replays_exactly(tmp_path: Path, smoke: Scenario) -> None:
    cache = tmp_path / "cache.jsonl"
    base = smoke.with_overrides(scenario={"days": 0.15}, drivers={"count": 6},
                                llm={"backend": "llm", "response_format": "json_schema",
                                     "lookahead_minutes": 15.0, "cache": str(cache)})
    with EmulatedServer(FAST) as srv:
        live = do_run(base.with_overrides(llm={"base_url": srv.base_url, "concurrency": 6}),
                      tmp_path / "live")
        assert srv.slots.max_in_flight > 1 or live.summary["dispatch"]["max_decision_batch"] == 1
    replay = do_run(base.with_overrides(llm={"replay": True, "concurrency": 1}),
                    tmp_path / "replay")
    assert live.summary["dispatch"]["max_decision_batch"] > 1
    pd.testing.assert_frame_equal(live.events, replay.events)
    a = pq.read_table(tmp_path / "live" / "llm_calls.parquet").to_pandas()
    b = pq.read_table(tmp_path / "replay" / "llm_calls.parquet").to_pandas()
    # replayed completions keep the recorded tokens and timings: the tables match too
    pd.testing.assert_frame_equal(a, b)


# -- within a step --------------------------------------------------------------------------
def _masked(events: pd.DataFrame) -> pd.DataFrame:
    return without_wall_clock(events)


def test_preference_and_search_side_by_side_keep_record_order(tmp_path: Path,
                                                              smoke: Scenario) -> None:
    base = smoke.with_overrides(scenario={"days": 0.1}, drivers={"count": 3},
                                llm={"backend": "llm", "response_format": "json_schema"})
    timing = ["latency_s", "queue_s", "ttft_s", "decode_s"]
    with EmulatedServer(LatencyModel(time_scale=0.002)) as srv:
        apart = do_run(base.with_overrides(llm={"base_url": srv.base_url,
                                                "parallel_agents": False}), tmp_path / "a")
        together = do_run(base.with_overrides(llm={"base_url": srv.base_url}), tmp_path / "b")
    pd.testing.assert_frame_equal(_masked(apart.events), _masked(together.events))
    ca = pq.read_table(tmp_path / "a" / "llm_calls.parquet").to_pandas()
    cb = pq.read_table(tmp_path / "b" / "llm_calls.parquet").to_pandas()
    pd.testing.assert_frame_equal(ca.drop(columns=timing), cb.drop(columns=timing))
    sa = pq.read_table(tmp_path / "a" / "steps.parquet").to_pandas()
    sb = pq.read_table(tmp_path / "b" / "steps.parquet").to_pandas()
    assert (sa.critical_path_s - sa.latency_sum_s).abs().max() < 1e-9
    # side by side, the shorter of preference and search is off the critical path
    both = sb[(sb.preference_latency_s > 0) & (sb.search_latency_s > 0)]
    assert len(both)
    expected = both.latency_sum_s - both[["preference_latency_s", "search_latency_s"]].min(axis=1)
    assert (both.critical_path_s - expected).abs().max() < 1e-9


def test_concurrency_benchmark_last_line() -> None:
    import re
    import subprocess
    import sys

    from tests.conftest import ROOT

    proc = subprocess.run(
        [sys.executable, "benchmarks/llm_concurrency.py", "scenarios/smoke.toml", "--drivers",
         "4", "--days", "0.1", "--window", "20", "--concurrency", "4", "--time-scale", "0.002"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"speedup [\d.]+x \(sequential [\d.]+ s, concurrent [\d.]+ s, "
                        r"identical events: yes\)", last), last
    assert "| 4 | 4 |" in proc.stdout


# -- independent drivers (competition rules) -------------------------------------------------
def _competition_files(comp: Path) -> dict[str, str]:
    """Every action log, and the official income file without its wall-clock field."""
    out = {p.name: p.read_text(encoding="utf-8") for p in sorted(comp.glob("actions_*.jsonl"))}
    income = json.loads((comp / "monthly_income_202603.json").read_text(encoding="utf-8"))
    income.pop("simulate_time_seconds", None)
    out["income"] = json.dumps(income, sort_keys=True)
    return out


def test_competition_llm_drivers_concurrent_equal_sequential_and_replay(tmp_path: Path) -> None:
    """Our LLM agents under the official loop, drivers in threads: the logs (token usage of
    each step included, which side-by-side agents' calls feed) are those of the sequential
    run, and a replay of the concurrent recording reproduces them without a server."""
    from agents.app.compete import run_competition
    from sim.scenario import load_scenario
    from tests.conftest import SCENARIOS

    sc = load_scenario(SCENARIOS / "competition-smoke.toml").with_overrides(
        scenario={"days": 1, "max_steps": 3}, memory={"mode": "bounded"},
        llm={"backend": "llm", "response_format": "json_schema"})
    cache = tmp_path / "cache.jsonl"
    with EmulatedServer(LatencyModel(time_scale=0.002)) as srv:
        live = sc.with_overrides(llm={"base_url": srv.base_url})
        run_competition(live, tmp_path / "seq", stamp="20260301_000000")
        seq_peak = srv.slots.max_in_flight
        run_competition(live.with_overrides(llm={"concurrency": 3, "cache": str(cache)}),
                        tmp_path / "conc", stamp="20260301_000000")
    run_competition(sc.with_overrides(llm={"cache": str(cache), "replay": True}),
                    tmp_path / "replay", stamp="20260301_000000")
    seq = _competition_files(tmp_path / "seq" / "competition")
    conc = _competition_files(tmp_path / "conc" / "competition")
    replay = _competition_files(tmp_path / "replay" / "competition")
    assert len([k for k in seq if k.startswith("actions_")]) == 3
    assert conc == seq
    assert replay == conc
    # one driver at a time: at most its two side-by-side agents were ever in flight
    assert seq_peak <= 2
    steps = [json.loads(line) for k, v in seq.items() if k.startswith("actions_")
             for line in v.splitlines()]
    assert len(steps) == 9
    assert all(s["token_usage"]["total_tokens"] > 0 for s in steps)


def test_competition_benchmark_last_line(tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    from tests.conftest import ROOT

    report = tmp_path / "report.json"
    proc = subprocess.run(
        # the shipped small market (600 cargo): the calibrated one draws 16,000 cargo a day
        [sys.executable, "benchmarks/llm_concurrency.py", "scenarios/competition-smoke.toml",
         "--drivers", "3", "--steps", "2", "--concurrency", "3", "--time-scale", "0.002",
         "--out", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"speedup [\d.]+x \(sequential [\d.]+ s, concurrent [\d.]+ s, "
                        r"identical events: yes\)", last), last
    assert "| 3 | 3 |" in proc.stdout
    data = json.loads(report.read_text())
    assert data["world"] == "competition"
    seq, conc = data["runs"]
    assert seq["concurrency"] == 1
    assert conc["concurrency"] == 3
    assert seq["steps"] == conc["steps"] == 6
    assert conc["identical"] is True
    assert conc["replay_identical"] is True
    assert seq["in_flight"]["max"] <= 2
    # the last line's figures are the report's
    s, c = (float(x) for x in re.findall(r"(?:sequential|concurrent) ([\d.]+) s", last))
    assert s == seq["loop_s"]
    assert c == conc["loop_s"]
