"""The LLM layer against a real HTTP server on loopback: repair, fallback, timeouts, secrets,
schema dialects, and the analyst's refusal of unavailable cargo."""

from __future__ import annotations

import json
import os
from pathlib import Path

import openai
import pytest

from agents.app.runner import run_scenario
from agents.llm.calls import AgentCaller, CallContext, CallRecord
from agents.llm.language_model import LLMError
from agents.llm.openai_adapter import OpenAIModel
from agents.llm.resilience import RetryModel
from agents.roles.cargo_analyst import CARGO, CargoAnalystAgent
from agents.roles.search_agent import SEARCH
from agents.testing.fakes import ScriptedModel, ScriptedServer, constant
from memory.views import Candidate, CargoAnalysisView
from sim.geo import Geography, Point
from sim.scenario import Scenario
from sim.world.cargo import CargoView
from sim.world.order_costs import evaluate
from tests.conftest import Run

CTX = CallContext("D1", 1, 0.0, "bounded")
# the search schema's keys only: a key the schema forbids makes a reply invalid
GOOD_SEARCH = json.dumps({"search": True, "grid": "here", "radius_km": 23.1, "reason": "r"})


def _model(srv: ScriptedServer, timeout: float = 5.0, fmt: str = "auto") -> OpenAIModel:
    client = openai.OpenAI(base_url=srv.base_url, api_key="k", timeout=timeout, max_retries=0)
    return OpenAIModel(client, "scripted", fmt)


def _caller(model, records: list) -> AgentCaller:
    from memory.tokens import TokenCounter

    return AgentCaller("llm", model, TokenCounter(), records.append)


def _search_call(caller: AgentCaller) -> dict:
    return caller.call(SEARCH, "## view\n", None, CTX, lambda: {"fallback": True},
                       lambda out: {"radius_km": float(out["radius_km"])}
                       if "radius_km" in out else out)


def test_malformed_reply_gets_repair_then_fallback() -> None:
    replies = iter(["not json at all", GOOD_SEARCH])
    with ScriptedServer(lambda body: (200, next(replies))) as srv:
        records: list[CallRecord] = []
        out = _search_call(_caller(_model(srv), records))
    assert out == {"radius_km": 23.1}
    assert records[0].outcome == "repaired"
    assert records[0].calls == 2
    assert records[0].prompt_tokens == 200  # the server's usage, summed over both requests
    assert "not valid" in srv.requests[1]["messages"][-1]["content"]

    with ScriptedServer(constant("{broken")) as srv:
        records = []
        out = _search_call(_caller(_model(srv), records))
    assert out == {"fallback": True}
    assert records[0].outcome == "fallback"
    assert records[0].cause.startswith("invalid after repair")


def test_server_that_never_answers_times_out_and_falls_back() -> None:
    with ScriptedServer(lambda body: ("hang", 3.0)) as srv:
        records: list[CallRecord] = []
        model = RetryModel(_model(srv, timeout=0.2), max_retries=1, backoff_s=0.01)
        out = _search_call(_caller(model, records))
        assert len(srv.requests) == 2  # one try and one retry
    assert out == {"fallback": True}
    assert records[0].cause == "timeout"


def test_schema_dialect_detected_once() -> None:
    def llama_like(body: dict):  # llama-cpp-python answers 500 to json_schema
        if body.get("response_format", {}).get("type") == "json_schema":
            return 500, "Input should be 'text' or 'json_object'"
        return 200, GOOD_SEARCH

    with ScriptedServer(llama_like) as srv:
        model = _model(srv)
        for _ in range(3):
            model.complete([{"role": "user", "content": "x"}], schema=SEARCH.schema)
        kinds = [r.get("response_format", {}).get("type") for r in srv.requests]
    assert kinds == ["json_schema", "json_object", "json_object", "json_object"]
    assert srv.requests[1]["response_format"]["schema"] == SEARCH.schema
    assert model.schema_format == "json_object"

    with ScriptedServer(constant(GOOD_SEARCH)) as srv:  # a vLLM-like server keeps json_schema
        model = _model(srv)
        model.complete([{"role": "user", "content": "x"}], schema=SEARCH.schema)
        assert srv.requests[0]["response_format"]["json_schema"]["schema"] == SEARCH.schema
    assert model.schema_format == "json_schema"


def _tiny_llm(smoke: Scenario, base_url: str, **llm) -> Scenario:
    return smoke.with_overrides(
        scenario={"days": 0.125}, drivers={"count": 1},
        llm={"backend": "llm", "base_url": base_url, "timeout_s": 2.0, "max_retries": 0,
             "backoff_s": 0.01, **llm})


def test_run_completes_when_model_hangs(tmp_path: Path, smoke: Scenario) -> None:
    with ScriptedServer(lambda body: ("hang", 2.0)) as srv:
        sc = _tiny_llm(smoke, srv.base_url, timeout_s=0.1)
        result = run_scenario(sc, tmp_path)
    run = Run(tmp_path)
    assert result.summary["steps"] > 0
    fallbacks = run.events[run.events.kind == "llm_fallback"]
    assert len(fallbacks) == result.summary["call_outcomes"]["fallback"] > 0
    assert set(fallbacks.detail.map(lambda d: json.loads(d)["cause"])) == {"timeout"}


def test_api_key_never_logged(tmp_path: Path, smoke: Scenario, capfd) -> None:
    secret = "sk-freightsim-test-5ecret-0000"
    os.environ["FREIGHTSIM_API_KEY"] = secret
    try:
        with ScriptedServer(constant("{}")) as srv:
            run_scenario(_tiny_llm(smoke, srv.base_url), tmp_path, progress=True)
            auth = {h.get("authorization") for h in srv.headers}
    finally:
        del os.environ["FREIGHTSIM_API_KEY"]
    assert auth == {f"Bearer {secret}"}  # it was used...
    out, err = capfd.readouterr()
    assert secret not in out + err  # ...and never written anywhere
    for f in tmp_path.rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f


def _analysis_view() -> CargoAnalysisView:
    def cv(cid: str, price: float) -> CargoView:
        return CargoView(cid, Point(23.13, 113.27), Point(22.55, 114.06), price, 30.0, 600.0,
                         600.0, 180.0, 130.0)

    pos, geo = Point(23.129, 113.264), Geography.guangdong()
    c1, c2 = cv("C1", 2000.0), cv("C2", 900.0)
    return CargoAnalysisView(
        mode="bounded", now=0.0, position=pos, cost_per_km=1.5,
        candidates=(Candidate(c1, 1800.0, 1.0), Candidate(c2, 900.0, 1.0),
                    Candidate(cv("C3", 5000.0), 4800.0, 1.0, status="failed")),
        # what the memory's feasibility check leaves of them: the active two
        feasible=tuple(evaluate(geo, c, pos, 0.0, 1.5) for c in (c1, c2)),
        failed_cargo_ids=("C3",), stale_cargo_ids=("C4",), blocked_ids=frozenset({"C3", "C4"}))


@pytest.mark.parametrize("backend", ["deterministic", "llm"])
def test_cargo_analyst_never_returns_unavailable_ids(backend: str) -> None:
    from memory.tokens import TokenCounter

    records: list[CallRecord] = []
    model = ScriptedModel([json.dumps({"ranked": ["C3", "C1"], "reason": "greedy"}),
                           json.dumps({"ranked": ["C4"], "reason": "still"})])
    caller = AgentCaller(backend, model, TokenCounter(), records.append)
    view = _analysis_view()
    ranking = CargoAnalystAgent(caller).advise(view, {}, CTX)
    ids = [o.cargo.cargo_id for o in ranking.options]
    assert ids == ["C1", "C2"]
    assert not set(ids) & view.blocked_ids
    if backend == "llm":  # the model named failed ids twice: replaced by the rules ranking
        assert records[0].outcome == "fallback"
        assert "unavailable" in records[0].cause
        assert len(model.requests) == 2


def test_scripted_model_raises_errors() -> None:
    m = ScriptedModel([LLMError("connection")])
    with pytest.raises(LLMError):
        m.complete([{"role": "user", "content": "x"}])
    assert CARGO.version == "cargo-v1"
