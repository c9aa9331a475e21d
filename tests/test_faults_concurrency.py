"""Faults under concurrency (issue 23, item 3): the fault shapes of agents/testing/fakes.py
played against `run` (our agents) and `compete` (a competition agent) under competition rules
with `[llm] concurrency` 1 and 8. Every driver ends (its agents fall back, or it stops with a
clear error), no decision outlives the step timeout, the action logs of concurrency 8 are
byte for byte those of concurrency 1, and each call's fallback cause is recorded.

The server picks the fault from the request itself (a hash of its body), not from the order
requests arrive in, so "the same fault sequence" means the same thing with 1 or 8 drivers in
flight. Loopback only, every server and run bounded in time; the whole file runs in seconds.
"""

from __future__ import annotations

import hashlib
import json
import socket
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from agents.app.compete import run_competition
from agents.testing.fakes import FAULTS, ScriptedServer
from sim.scenario import Scenario, load_scenario
from tests.conftest import ROOT, SCENARIOS

STAMP = "20260301_000000"
AGENT = str(ROOT / "tests/agents/comp_agent.py") + ":ModelDecisionService"
STEP_TIMEOUT_S = 10.0
# a representative subset: server errors, a rate limit, bodies the client cannot read, a
# reply that parses but is no answer, a connection cut short, and a server that never answers
MIXED = ("http_500", "http_429", "html_200", "nan_in_reply", "truncated_body", "usage_string")
SLOW = ("hang",)


class MixedFaultServer(ScriptedServer):
    """Plays one of `shapes` on each request, chosen by a hash of the request body."""

    def __init__(self, shapes: tuple[str, ...]) -> None:
        self.shapes = shapes

        def respond(body: dict):
            blob = json.dumps(body, sort_keys=True).encode()
            shape = shapes[int(hashlib.sha256(blob).hexdigest(), 16) % len(shapes)]
            return FAULTS[shape][0](body)

        super().__init__(respond)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _scenario(base_url: str, timeout_s: float, max_steps: int = 2) -> Scenario:
    # the schema dialect is fixed: "auto" detection switches on the first 4xx/5xx, and which
    # request meets it first depends on the threads (docs/reliability.md)
    return load_scenario(SCENARIOS / "competition-smoke.toml").with_overrides(
        scenario={"days": 1, "max_steps": max_steps}, memory={"mode": "bounded"},
        llm={"backend": "openai", "base_url": base_url, "timeout_s": timeout_s,
             "max_retries": 0, "response_format": "json_object"})


def _run(sc: Scenario, out: Path, concurrency: int, agent: str | None) -> tuple[dict, float]:
    t0 = time.monotonic()
    summary = run_competition(sc.with_overrides(llm={"concurrency": concurrency}), out, agent,
                              stamp=STAMP, step_timeout_s=STEP_TIMEOUT_S)
    return summary, time.monotonic() - t0


def _logs(out: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8")
            for p in sorted((out / "competition").glob("actions_*.jsonl"))}


def _calls(out: Path) -> pd.DataFrame:
    """Each driver's calls in its own order (drivers interleave on threads)."""
    calls = pq.read_table(out / "llm_calls.parquet").to_pandas()
    cols = ["driver_id", "step", "agent", "outcome", "cause", "calls"]
    return calls[cols].sort_values(["driver_id"], kind="stable").reset_index(drop=True)


def _check_pair(tmp_path: Path, sc: Scenario, agent: str | None) -> tuple[dict, Path]:
    outs = {}
    for n in (1, 8):
        out = tmp_path / f"c{n}"
        summary, wall = _run(sc, out, n, agent)
        reasons = summary["driver_end_reasons"]
        assert len(reasons) == 3
        assert set(reasons.values()) <= {"normal", "max_steps"}, reasons  # fell back, went on
        assert not summary["driver_simulation_failures"]
        assert wall < 3 * STEP_TIMEOUT_S  # no driver waited out a step timeout, none hung
        outs[n] = (summary, out)
    logs1, logs8 = _logs(outs[1][1]), _logs(outs[8][1])
    assert len(logs1) == 3
    assert logs8 == logs1
    return outs[1][0], outs[1][1]


@pytest.mark.parametrize("shapes", [MIXED, SLOW], ids=["mixed", "hang"])
def test_run_our_agents_fall_back_identically_at_1_and_8(tmp_path: Path, shapes) -> None:
    with MixedFaultServer(shapes) as srv:
        # a hung server costs a timeout per call: one step per driver is enough; the mixed
        # shapes all answer at once, so their timeout is long enough that a busy machine
        # never turns one of their answers into a timeout on one run and not the other
        slow = shapes == SLOW
        sc = _scenario(srv.base_url, 0.2 if slow else 2.0, 1 if slow else 2)
        _, out = _check_pair(tmp_path, sc, None)
        assert srv.requests
    c1, c8 = _calls(out), _calls(tmp_path / "c8")
    assert c8.equals(c1)
    assert (c1.outcome == "fallback").all()  # no shape gives an answer
    causes = set(c1.cause.str.split(":").str[0])
    expected = {FAULTS[s][1].split(":")[0] for s in shapes}
    assert causes <= expected | {"invalid after repair", "bad_response", "connection"}
    assert causes & expected  # the causes of the shapes played are recorded per call


def test_run_with_the_server_down(tmp_path: Path) -> None:
    sc = _scenario(f"http://127.0.0.1:{_free_port()}/v1", 0.3)
    _check_pair(tmp_path, sc, None)
    assert set(_calls(tmp_path / "c1").cause) == {"connection"}


@pytest.mark.parametrize("shapes", [MIXED, SLOW], ids=["mixed", "hang"])
def test_compete_agent_meets_the_faults_identically_at_1_and_8(tmp_path: Path,
                                                              shapes) -> None:
    """A competition agent calling model_chat_completion gets an exception for each fault
    (an HTTP error, a timeout, a body that is not JSON) and decides without the model."""
    with MixedFaultServer(shapes) as srv:
        sc = _scenario(srv.base_url, 0.3)
        _, out = _check_pair(tmp_path, sc, AGENT)
        assert srv.requests
    # the agent notes what its model call gave on each take: here, what it raised
    notes = {json.loads(line)["action"].get("note") for text in _logs(out).values()
             for line in text.splitlines()} - {None}
    assert notes
    assert any(n.endswith(("Error", "IncompleteRead", "timeout")) for n in notes), notes


def test_a_decision_past_the_step_timeout_ends_its_driver_only(tmp_path: Path) -> None:
    """A model that holds the decision past the step timeout: the driver ends with
    decision_timeout (the clear error of §3.6), the others go on, and the run ends in about
    one step timeout per driver (one in all with 8 at once), never waiting for the server."""
    with MixedFaultServer(("hang",)) as srv:
        sc = _scenario(srv.base_url, 3.0)
        walls = {}
        for n in (1, 8):
            t0 = time.monotonic()
            summary = run_competition(sc.with_overrides(llm={"concurrency": n}),
                                      tmp_path / f"c{n}", stamp=STAMP, step_timeout_s=0.5)
            walls[n] = time.monotonic() - t0
            assert set(summary["driver_end_reasons"].values()) == {"decision_timeout"}
            assert summary["completed_steps"] == 0
    # the model's own timeout (3 s) is never waited out: not once per driver, not even once
    assert walls[1] < 2 * 3.0
    assert walls[8] < 3.0
