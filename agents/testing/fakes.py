"""Fakes shipped with the package, injected in tests (never patched in by string path).

`ScriptedModel` is a LanguageModel that answers from a list. `ScriptedServer` is a real
OpenAI-compatible HTTP server on a loopback port whose replies come from a function, so the
client, its timeouts and its retries are exercised over real sockets. `LoopbackServer` is the
free-port, threaded server both it and the tests' usage proxy run on.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from agents.llm.language_model import Completion, LanguageModel, LLMError


class ScriptedModel(LanguageModel):
    """Replies in order; an exception instance in the list is raised instead."""

    def __init__(self, replies: list[str | LLMError], name: str = "scripted") -> None:
        self.replies, self.name = list(replies), name
        self.requests: list[list[dict]] = []

    def complete(self, messages: list[dict], **kw) -> Completion:
        self.requests.append(messages)
        r = self.replies.pop(0) if self.replies else LLMError("script_exhausted")
        if isinstance(r, LLMError):
            raise r
        return Completion(r, sum(len(m["content"]) for m in messages) // 4, len(r) // 4, None,
                          0.001)


# A responder gets the request body and returns (status, reply text), ("hang", seconds), or
# one of the fault shapes: ("raw", Raw(...)) sends exactly those bytes, ("completion", dict)
# sends that dict as the whole response body, ("trickle", (body bytes, seconds per byte)).
Responder = Callable[[dict], tuple[int | str, object]]


@dataclass(frozen=True)
class Raw:
    """A response sent byte for byte: any status, headers and body, even a lying length."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("content-type", "application/json"),)
    content_length: int | None = None  # None: the true length


def constant(text: str) -> Responder:
    return lambda body: (200, text)


class LoopbackServer:
    """An HTTP server on a free loopback port, served from a thread for a `with` block."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ScriptedServer(LoopbackServer):
    """`with ScriptedServer(responder) as srv:` then point a client at `srv.base_url`."""

    def __init__(self, responder: Responder, prompt_tokens: int = 100,
                 completion_tokens: int = 20) -> None:
        self.responder = responder
        self.usage = (prompt_tokens, completion_tokens)
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                self._send(200, {"object": "list", "data": [{"id": "scripted"}]})

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(n) or b"{}")
                outer.requests.append(body)
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, payload = outer.responder(body)
                if status == "hang":
                    time.sleep(float(payload))
                    return
                if status == "raw":
                    self._raw(payload)
                    return
                if status == "completion":
                    self._send(200, payload)
                    return
                if status == "trickle":
                    self._trickle(*payload)
                    return
                if status != 200:
                    self._send(int(status), {"error": {"message": str(payload)}})
                    return
                p, c = outer.usage
                self._send(200, {
                    "id": "cmpl-1", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "scripted"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": payload}}],
                    "usage": {"prompt_tokens": p, "completion_tokens": c,
                              "total_tokens": p + c},
                })

            def _raw(self, r: Raw) -> None:
                try:
                    self.send_response(r.status)
                    for k, v in r.headers:
                        self.send_header(k, v)
                    n = len(r.body) if r.content_length is None else r.content_length
                    self.send_header("content-length", str(n))
                    self.end_headers()
                    self.wfile.write(r.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _trickle(self, data: bytes, every_s: float) -> None:
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    for i in range(len(data)):
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                        time.sleep(every_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send(self, status: int, obj: dict) -> None:
                data = json.dumps(obj).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        super().__init__(Handler)


def completion_body(content: object, usage: object = None) -> dict:
    """A chat-completion response whose content (and usage) may be anything at all."""
    return {"id": "cmpl-1", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            if usage is None else usage}


def _json(obj: dict) -> bytes:
    return json.dumps(obj).encode()


# Each malformed-reply and network-fault shape a server has been seen to produce (issue 10),
# with the fallback cause a run must record for it. A test runs a scenario against each.
FAULTS: dict[str, tuple[Responder, str]] = {
    "content_number": (lambda b: ("completion", completion_body(42)), "bad_response"),
    "content_object": (lambda b: ("completion", completion_body({"search": True})),
                       "bad_response"),
    "choices_empty_object": (lambda b: ("completion", {"id": "x", "object": "chat.completion",
                                                       "created": 0, "model": "m",
                                                       "choices": [{}]}), "bad_response"),
    "choices_missing": (lambda b: ("completion", {"id": "x", "model": "m"}), "bad_response"),
    "usage_string": (lambda b: ("completion", completion_body('{"a": 1}', "lots")),
                     "bad_response"),
    "html_200": (lambda b: ("raw", Raw(200, b"<html><body>502 Bad Gateway</body></html>",
                                       (("content-type", "text/html"),))), "bad_response"),
    "deep_json": (lambda b: ("raw", Raw(200, b"[" * 200_000 + b"]" * 200_000)),
                  "bad_response"),
    "usage_1e400": (lambda b: ("raw", Raw(200, _json(completion_body("{}")).replace(
        b'"prompt_tokens": 10', b'"prompt_tokens": 1e400'))), "bad_response"),
    "nan_in_reply": (lambda b: (200, '{"search": true, "grid": "here", "radius_km": NaN, '
                                     '"reason": "x", "wait_minutes": NaN, "go": false, '
                                     '"lat": NaN, "lng": NaN}'), "invalid after repair"),
    "inf_in_reply": (lambda b: (200, '{"search": true, "grid": "here", "radius_km": 1e400, '
                                     '"reason": "x", "wait_minutes": 1e400, "go": false, '
                                     '"lat": 1e400, "lng": 1e400}'), "invalid after repair"),
    "deep_reply": (lambda b: (200, "[" * 5_000 + "]" * 5_000), "invalid after repair"),
    "forbidden_keys": (lambda b: (200, '{"search": false, "grid": "here", "radius_km": 5, '
                                       '"reason": "x", "wait_minutes": 0, "go": false, '
                                       '"lat": 0, "lng": 0, "system_override": 1}'),
                       "invalid after repair"),
    "huge_reply": (lambda b: (200, "x" * 200_000), "bad_response"),
    "truncated_body": (lambda b: ("raw", Raw(200, b'{"choices": [', content_length=4000)),
                       "connection"),
    "trickle": (lambda b: ("trickle", (_json(completion_body("{}")), 0.5)), "timeout"),
    "hang": (lambda b: ("hang", 5.0), "timeout"),
    "http_500": (lambda b: (500, "boom"), "http_500"),
    "http_429": (lambda b: ("raw", Raw(429, b'{"error": {"message": "slow down"}}',
                                       (("content-type", "application/json"),
                                        ("retry-after", "0.05")))), "http_429"),
}


class FaultServer(ScriptedServer):
    """A ScriptedServer that plays one fault shape from FAULTS on every request."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self.expected_cause = FAULTS[fault][1]
        super().__init__(FAULTS[fault][0])
