"""The smoke scenario against a real local model server (llama.cpp serving a small GGUF).

What the small base model decides is not asserted; the plumbing is: every reply parsed or fell
back with a recorded cause, recorded tokens equal the server's usage, latency is recorded, and
the model's preference parses are scored against the text parser. Every test that needs the
model server is in this file, so `--dist loadfile` runs them on one worker with one server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.app.runner import run_scenario
from sim.scenario import Scenario
from sim.world.recorder import read_events
from tests.llama_server import UsageProxy
from tests.test_model_eval import run_slice

pytestmark = [pytest.mark.llm, pytest.mark.slow]




def test_smoke_against_local_model(tmp_path: Path, smoke: Scenario, model_server: str) -> None:
    # the smoke scenario cut to two drivers and three hours, and a budget of 6 model calls
    # (enough for every agent to be asked once and a repair): a 270M model on a CPU core spends
    # seconds per constrained reply and the suite has minutes; calls past the budget fall back
    # to the rules (cause call_budget), which the checks below include. 24 tokens a reply: the
    # JSON grammar costs about 0.13 s a token over Gemma's 262k vocabulary, and a cut reply is
    # repaired or falls back with its cause, which is what this test checks (64 took 30 s more)
    sc = smoke.with_overrides(
        scenario={"days": 3 / 24}, drivers={"count": 2},
        llm={"backend": "llm", "timeout_s": 120.0, "max_retries": 1, "max_tokens": 24,
             "max_calls": 6, "cache": str(tmp_path / "cache.jsonl")})
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
    assert 0 < served.calls.sum() == len(proxy.usages) <= 6
    assert served.prompt_tokens.sum() == sum(u["prompt_tokens"] for u in proxy.usages)
    assert served.completion_tokens.sum() == sum(u["completion_tokens"] for u in proxy.usages)
    assert (served.latency_s > 0).all()
    steps = pq.read_table(tmp_path / "run" / "steps.parquet").to_pandas()
    assert (steps[steps.llm_calls > 0].latency_s > 0).all()
    lat = steps[steps.llm_calls > 0].latency_s
    print(f"\nlocal model: {s['steps']} steps, {len(proxy.usages)} requests, outcomes "
          f"{s['call_outcomes']}, latency per model step p50 {lat.median():.1f}s "
          f"p95 {lat.quantile(0.95):.1f}s")


def test_latency_benchmark_pairs_steps_against_the_server(tmp_path: Path,
                                                          model_server: str) -> None:
    """benchmarks/llm_latency.py: the same steps under bounded and compressed, timed on a real
    server; one driver's early steps (a 270M model on 2 busy cores spends a minute on a late
    step's bounded views; the README's figures come from the month)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    scenario = tmp_path / "latency.toml"  # bench, with digests early enough for a few samples
    scenario.write_text((root / "scenarios" / "bench.toml").read_text().replace(
        'mode = "bounded"', 'mode = "bounded"\ncompress_threshold = 60'))
    out = tmp_path / "latency.json"
    proc = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "llm_latency.py"), str(scenario),
         "--base-url", model_server, "--drivers", "1", "--every", "12", "--compress-calls", "1",
         "--out", str(out)],
        capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(out.read_text())
    assert res["pairs"] >= 2
    for mode in ("bounded", "compressed"):
        assert res[mode]["latency_per_step_s_mean"] > 0
        assert res[mode]["server_prompt_tokens_per_step"] > 0
    assert res["compressed"]["compression_call_s_mean"] > 0
    # the server counted fewer prompt tokens for the compressed steps
    assert res["compressed"]["server_prompt_tokens_per_step"] < res["bounded"][
        "server_prompt_tokens_per_step"]
    assert "latency per step compressed/bounded" in proc.stdout


def test_qa_and_agreement_against_local_model(tmp_path: Path, model_server: str) -> None:
    # one step, one question per mode: a 270M model on a CPU core spends seconds per reply
    # (the scripted-server test in test_model_eval.py asks more and checks the figures)
    # 24 tokens a reply: the JSON grammar costs about 0.13 s a token on this server, and a cut
    # reply counts as unanswered, which the checks below allow
    small = ("--qa-steps", "1", "--qa-max-questions", "1", "--qa-max-tokens", "24")
    got = run_slice(tmp_path / "live", "--base-url", model_server, "--model", "local", *small)
    for mode in got["qa"].values():
        assert mode["questions"] == 1
        assert mode["accuracy"] is None or 0 <= mode["accuracy"] <= 1
    assert got["decision_agreement"]["steps"] == 1
    print(f"\nlocal model QA/agreement (plumbing, not quality): {json.dumps(got)}")
    again = run_slice(tmp_path / "replay", "--llm-replay", "--llm-cache",
                       str(tmp_path / "live" / "qa-cache.jsonl"), "--model", "local", *small)
    assert again == got
