"""Model QA and decision agreement on a small bench slice, through the real CLI.

Against ScriptedServer (a real OpenAI-compatible HTTP server whose replies come from a function
that reads the view the way a careful reader would): the figures follow the views, and a
replay from the recorded cache reproduces them with no server. The same slice also runs
against the local llama.cpp model (the `llm-server` extra, marked `llm`). A
270M base model proves the plumbing (questions asked, answers scored, decisions compared,
replay exact), not that its answers or decisions mean anything; that test lives with the
other model tests in test_llm_integration.py, so one worker's model server answers them all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from agents.testing.fakes import ScriptedServer
from tests.conftest import SCENARIOS, cli

SLICE = ("--days", "0.25", "--modes", "bounded,compressed", "--qa-steps", "3",
         "--qa-max-questions", "4")


def reader(body: dict) -> tuple[int, str]:
    """Answers budget questions from the view's `budget left N`, says no to every take
    question, and takes the first ranked cargo (else waits) as the main decision."""
    fmt = body.get("response_format") or {}
    name = (fmt.get("json_schema") or {}).get("name")
    text = body["messages"][-1]["content"]
    if name == "qa":
        question = text.rsplit("## question\n", 1)[-1]
        answer = "unknown"
        if "queries are left" in question:
            found = re.findall(r"budget left (\d+)", text)
            answer = found[0] if found else "unknown"
        elif question.startswith("May the driver take"):
            answer = "no"
        return 200, json.dumps({"answer": answer})
    ranked = re.search(r'"ranked":\[\{"cargo_id":"([^"]+)"', text)
    if ranked:
        out = {"action": "take_order", "cargo_id": ranked.group(1), "minutes": 0}
    else:
        out = {"action": "wait", "cargo_id": "", "minutes": 10}
    return 200, json.dumps({**out, "lat": 0, "lng": 0, "short_plan": "scripted"})


def _model_figures(out: Path) -> dict:
    return json.loads((out / "report.json").read_text())["quality"]["model"]


def run_slice(out: Path, *extra: str, timeout: int = 600) -> dict:
    proc = cli("bench", str(SCENARIOS / "bench.toml"), "--out", str(out), *SLICE, *extra,
               timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "QA accuracy" in (out / "report.md").read_text()
    return _model_figures(out)


def test_qa_and_agreement_against_scripted_server(tmp_path: Path) -> None:
    with ScriptedServer(reader) as srv:
        got = run_slice(tmp_path / "live", "--base-url", srv.base_url, "--model", "scripted")
        requests = len(srv.requests)
        # each reply capped as the probe needs: an answer 64 tokens, a decision 96
        caps = {(b["response_format"]["json_schema"]["name"], b["max_tokens"])
                for b in srv.requests}
        assert {cap for name, cap in caps if name == "qa"} == {64}
        assert {cap for name, cap in caps if name != "qa"} == {96}
    qa = got["qa"]
    assert got["steps"] == 3
    assert set(qa) == {"bounded", "compressed"}
    # the same steps, the same facts: the same questions in both modes
    assert qa["bounded"]["questions"] == qa["compressed"]["questions"] > 0
    assert requests == 2 * qa["bounded"]["questions"] + 2 * got["steps"]
    # the reader answers budget and no-offer questions right and nothing else
    for mode in qa.values():
        assert 0 < mode["accuracy"] < 1
        assert mode["unanswered"] == 0
    d = got["decision_agreement"]
    assert d["steps"] == 3
    assert d["unanswered"] == 0
    assert d["bounded_vs_compressed"] == 1.0  # both views carry the same ranking
    # replay: the recorded answers, no server, the same figures
    cache = tmp_path / "live" / "qa-cache.jsonl"
    again = run_slice(tmp_path / "replay", "--llm-replay", "--llm-cache", str(cache),
                       "--model", "scripted")
    assert again == got


def test_qa_max_tokens_caps_every_reply(tmp_path: Path) -> None:
    """`--qa-max-tokens N`: every probe and decision asks at most N tokens (a slow server's
    budget), and the probes run as before."""
    with ScriptedServer(reader) as srv:
        got = run_slice(tmp_path / "capped", "--base-url", srv.base_url, "--model", "scripted",
                        "--qa-steps", "1", "--qa-max-tokens", "7")
        assert srv.requests
        assert {b["max_tokens"] for b in srv.requests} == {7}
    assert got["decision_agreement"]["steps"] == 1
    bad = cli("bench", str(SCENARIOS / "bench.toml"), "--qa-max-tokens", "0")
    assert bad.returncode == 2
    assert "--qa-max-tokens" in bad.stderr
