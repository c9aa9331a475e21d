"""Secrets stay secret (issue 23, item 1): against a server that echoes the request's
Authorization header into its reply content, its response headers, its error bodies and its
status line, no file a run writes (run directory, record/replay cache, lesson store) and
nothing it prints holds the configured key, for `run`, `compete` and `bench`; and a redacted
cache still replays the run that recorded it."""

from __future__ import annotations

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from agents.app.cli import main
from agents.llm.record_replay import RecordReplayModel, request_key
from agents.testing.fakes import LoopbackServer, ScriptedModel
from sim.redact import REDACTED, add_secret, forget_secrets, redact, redact_column
from tests.conftest import ROOT, SCENARIOS

# not `sk-`-shaped: only the configured key's registration can catch it
KEY = "fsk_live_9Zq7TESTsecret0123456789abc"
KEY_ENV = "FS_REDACTION_TEST_KEY"
AGENT = str(ROOT / "tests/agents/comp_agent.py") + ":ModelDecisionService"


def _fill(schema: dict | None, echo: str) -> object:
    """A reply of the schema's shape whose every string is the echo."""
    if not isinstance(schema, dict):
        return echo
    t = schema.get("type")
    if "enum" in schema:
        return schema["enum"][0]
    if t == "object":
        return {k: _fill(v, echo) for k, v in schema.get("properties", {}).items()}
    if t == "array":
        return []
    if t == "boolean":
        return False
    if t in ("number", "integer"):
        return schema.get("minimum", 1)
    return echo


class EchoServer(LoopbackServer):
    """An OpenAI-compatible server that echoes the Authorization header back, a different
    way on each request: in schema-shaped content, as bare content, in a 500's error body, in
    a response header the client reads (x-queue-ms) and in the status line."""

    SHAPES = ("content", "bare", "error_body", "header", "status_line", "content")

    def __init__(self, shapes: tuple[str, ...] = SHAPES) -> None:
        self.shapes = shapes
        self.n = itertools.count()
        self.lock = threading.Lock()
        self.seen: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                auth = self.headers.get("authorization", "")
                with outer.lock:
                    i = next(outer.n)
                    outer.seen.append(auth)
                shape = outer.shapes[i % len(outer.shapes)]
                token = auth.split()[-1] if auth else ""
                echo = f"{auth} (your key: {token})"
                rf = body.get("response_format") or {}
                schema = (rf.get("json_schema") or {}).get("schema") or rf.get("schema")
                content = json.dumps(_fill(schema, echo)) if shape == "content" else \
                    f"{token} is what you sent me, {echo}"
                reply = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                                   "total_tokens": 15}}
                status, headers = 200, [("x-echo", auth)]
                if shape == "error_body":
                    status, reply = 500, {"error": {"message": f"bad key {echo}"}}
                if shape == "header":
                    headers.append(("x-queue-ms", echo))
                data = json.dumps(reply).encode()
                try:
                    if shape == "status_line":
                        self.send_response(503, f"Unavailable for {token}")
                    else:
                        self.send_response(status)
                    for k, v in headers:
                        self.send_header(k, v)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        super().__init__(Handler)


@pytest.fixture
def key_env(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    yield KEY
    forget_secrets()


def _scan(paths: list[Path], printed: str) -> list[str]:
    """Every file under the paths (and the console) that holds the key or a long piece of it;
    Parquet files by their values, since their columns are compressed."""
    pieces = [KEY.encode(), KEY[4:20].encode(), KEY[-16:].encode()]
    hits = [f"console: {printed[max(0, printed.find(KEY) - 40):][:120]!r}"
            for p in pieces if p.decode() in printed]
    n = 0
    for root in paths:
        files = [root] if root.is_file() else [f for f in root.rglob("*") if f.is_file()]
        for f in files:
            n += 1
            blob = f.read_bytes()
            if f.suffix == ".parquet":  # compressed columns: scan the values
                blob += json.dumps(pq.read_table(f).to_pylist(), default=str,
                                   ensure_ascii=False).encode()
            hits += [f"{f}: {p.decode()!r}" for p in pieces if p in blob]
    assert n > 0, "nothing was scanned"
    return hits


def _toml(tmp: Path, base_url: str, body: str, llm: str = "") -> Path:
    p = tmp / "scenario.toml"
    p.write_text(body + f'\n[llm]\nbackend = "openai"\nbase_url = "{base_url}"\n'
                 f'api_key_env = "{KEY_ENV}"\ncache = "{tmp / "responses.jsonl"}"\n'
                 'timeout_s = 2.0\nmax_retries = 0\nresponse_format = "json_schema"\n'
                 + llm, encoding="utf-8")
    return p


SMOKE = """[scenario]
name = "redact"
seed = 1
days = 0.1
[cargo]
rate_per_hour = 40
[drivers]
count = 2
preferences_per_driver = 2
[memory]
mode = "bounded"
lessons = "{lessons}"
"""


def test_run_writes_no_key(tmp_path: Path, key_env: str, capfd) -> None:
    with EchoServer() as srv:
        sc = _toml(tmp_path, srv.base_url, SMOKE.format(lessons=tmp_path / "lessons.sqlite"))
        code = main(["run", str(sc), "--out", str(tmp_path / "out"), "--no-progress"])
    assert code == 0
    assert {f"Bearer {KEY}"} == set(srv.seen)  # the key was sent...
    out, err = capfd.readouterr()
    assert _scan([tmp_path], out + err) == []  # ...and written nowhere
    calls = pq.read_table(tmp_path / "out" / "llm_calls.parquet").to_pandas()
    causes = " ".join(calls.cause.dropna())
    assert "http_500" in causes  # the error shapes were met
    assert "bad_response" in causes
    assert REDACTED in causes  # and quoted the server, redacted
    cache = (tmp_path / "responses.jsonl").read_text(encoding="utf-8")
    assert REDACTED in cache
    assert (tmp_path / "lessons.sqlite").is_file()


def test_redacted_cache_replays_the_recorded_run(tmp_path: Path, key_env: str) -> None:
    # only answers: a failed call is not recorded, so it could not be replayed either
    with EchoServer(("content", "bare")) as srv:
        sc = _toml(tmp_path, srv.base_url, SMOKE.format(lessons=tmp_path / "lessons.sqlite")
                   .replace('lessons = ', '# lessons = '))
        assert main(["run", str(sc), "--out", str(tmp_path / "rec"), "--no-progress"]) == 0
    # no server, another key: the cache alone answers every call
    assert main(["run", str(sc), "--out", str(tmp_path / "rep"), "--no-progress",
                 "--llm-replay"]) == 0
    a = pq.read_table(tmp_path / "rec" / "llm_calls.parquet").to_pandas()
    b = pq.read_table(tmp_path / "rep" / "llm_calls.parquet").to_pandas()
    cols = ["driver_id", "step", "agent", "outcome", "cause", "prompt_tokens"]
    assert a[cols].equals(b[cols])
    ev = [json.loads((tmp_path / d / "summary.json").read_text())["orders"]
          for d in ("rec", "rep")]
    assert ev[0] == ev[1]


COMPETE = """[scenario]
name = "redact-comp"
days = 1
ruleset = "competition"
max_steps = 3
[cargo]
file = "{root}/competition-smoke/cargo_dataset.jsonl"
[drivers]
file = "{root}/competition-smoke/drivers.json"
[memory]
mode = "{mode}"
"""


@pytest.mark.parametrize("agent", ["ours", "theirs"])
def test_compete_writes_no_key(tmp_path: Path, key_env: str, capfd, agent: str) -> None:
    with EchoServer() as srv:
        sc = _toml(tmp_path, srv.base_url, COMPETE.format(root=SCENARIOS, mode="bounded"),
                   'concurrency = 3\n')
        args = ["compete", str(sc), "--out", str(tmp_path / "out"),
                "--timestamp", "20260301_000000"]
        if agent == "theirs":  # it copies the model's first 20 characters into its action
            args += ["--agent", AGENT]
        assert main(args) == 0
    assert srv.seen
    assert set(srv.seen) == {f"Bearer {KEY}"}
    out, err = capfd.readouterr()
    assert _scan([tmp_path], out + err) == []
    logs = list((tmp_path / "out" / "competition").glob("actions_*.jsonl"))
    assert len(logs) == 3
    if agent == "ours":  # every call and its cause, beside competition/
        calls = pq.read_table(tmp_path / "out" / "llm_calls.parquet").to_pandas()
        assert set(calls.driver_id) == {d["driver_id"] for d in json.loads(
            (SCENARIOS / "competition-smoke/drivers.json").read_text(encoding="utf-8"))}
        assert calls.cause.dropna().str.contains("http_500").any()


def test_bench_writes_no_key(tmp_path: Path, key_env: str, capfd) -> None:
    with EchoServer() as srv:
        sc = _toml(tmp_path, srv.base_url, SMOKE.format(lessons=tmp_path / "lessons.sqlite")
                   .replace('lessons = ', '# lessons = '))
        code = main(["bench", str(sc), "--modes", "bounded", "--out", str(tmp_path / "bench")])
    assert code == 0
    assert srv.seen
    out, err = capfd.readouterr()
    assert _scan([tmp_path], out + err) == []
    assert (tmp_path / "bench" / "report.json").is_file()


# -- the redactor itself ----------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Authorization: Bearer abc.DEF-123_456~xyz",
    '{"error": "invalid key sk-proj-AbCdEf0123456789xyz"}',
    "https://user:hunter2pass@api.example.com/v1",
    "GET /v1?api_key=0123456789abcdef",
    '{"access_token": "ya29.a0AfH6SMBx"}',
])
def test_patterns_are_redacted(text: str) -> None:
    out = redact(text)
    assert REDACTED in out
    for secret in ("abc.DEF-123_456~xyz", "AbCdEf0123456789xyz", "hunter2pass",
                   "0123456789abcdef", "ya29.a0AfH6SMBx"):
        assert secret not in out
    if text.startswith("{"):
        json.loads(out)  # JSON text stays JSON


@pytest.mark.parametrize("text", [
    "grid 8841a9b1c3fffff pays between 08:00 and 10:00",
    '"api_key_env": "FREIGHTSIM_API_KEY"',
    "http://127.0.0.1:8000/v1", "task-abcdefghijklmnopqrstu", "the bearer of the order",
    "每天至少要连续停车休息8个小时", "sk-no-key",
])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) is text or redact(text) == text


def test_registered_key_in_every_spelling_and_columns(key_env: str) -> None:
    odd = 'k3y"with\\quote-0001'
    add_secret(odd)
    add_secret(KEY)
    assert redact(f"a {KEY} b") == f"a {REDACTED} b"
    assert REDACTED in redact(json.dumps({"x": odd}))
    json.loads(redact(json.dumps({"x": odd})))
    col = ["plain", None, f"x{KEY}y"]
    assert redact_column(col) == ["plain", None, f"x{REDACTED}y"]
    clean = ["a", None, "b"]
    assert redact_column(clean) is clean


def test_record_replay_key_ignores_the_secret(tmp_path: Path, key_env: str) -> None:
    """A request that quotes the key (a repair echoing the reply) is the same request in a
    cache written redacted, and the run goes on with the reply the cache keeps."""
    add_secret(KEY)
    msgs = [{"role": "user", "content": f"you said {KEY}"}]
    assert request_key("m", msgs) == request_key("m", [{"role": "user",
                                                         "content": f"you said {REDACTED}"}])
    cache = tmp_path / "c.jsonl"
    live = RecordReplayModel(ScriptedModel([f"echo {KEY}"]), cache, replay=False)
    got = live.complete(msgs)
    assert KEY not in got.text
    assert KEY not in cache.read_text()
    again = RecordReplayModel(None, cache, replay=True, model_name=live.name).complete(msgs)
    assert again.text == got.text


def test_a_key_in_the_scenario_file_is_not_copied_out(tmp_path: Path, capfd) -> None:
    """A key pasted into a scenario (a URL's password, a preference's text) reaches no
    output: scenario.json, the preference tables, the step log, the console."""
    pasted, password = "sk-pasted0123456789abcdefXYZ", "hunter2secretpw"
    sc = tmp_path / "s.toml"
    sc.write_text(f'''[scenario]
name = "pasted"
days = 0.1
[drivers]
count = 0
[[drivers.fixed]]
driver_id = "A"
lat = 23.1
lng = 113.3
preferences = [{{text = "一天最多接2单，每多一单扣钱100元。 {pasted}"}}]
[memory]
mode = "bounded"
[llm]
base_url = "http://user:{password}@127.0.0.1:9/v1"
''', encoding="utf-8")
    assert main(["run", str(sc), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    out, err = capfd.readouterr()
    written = [f for f in (tmp_path / "out").rglob("*") if f.is_file()]
    assert any(f.name == "step_log.jsonl" for f in written)
    for f in written:
        blob = f.read_bytes()
        if f.suffix == ".parquet":
            blob += json.dumps(pq.read_table(f).to_pylist(), default=str,
                               ensure_ascii=False).encode()
        assert pasted[5:].encode() not in blob, f
        assert password.encode() not in blob, f
    assert pasted[5:] not in out + err
    scenario = json.loads((tmp_path / "out" / "scenario.json").read_text(encoding="utf-8"))
    assert REDACTED in json.dumps(scenario)


def test_console_is_redacted_for_the_whole_command(key_env: str, capsys) -> None:
    import sys

    from sim.redact import console_redacted

    add_secret(KEY)
    with console_redacted():
        print(f"error: the server said Bearer {KEY}")
        print(f"internal error: {KEY}", file=sys.stderr)
    out, err = capsys.readouterr()
    assert KEY not in out + err
    assert "Bearer [REDACTED]" in out
    assert err.strip() == f"internal error: {REDACTED}"
