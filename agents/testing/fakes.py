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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from agents.llm.model import Completion, LanguageModel, LLMError


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


# A responder gets the request body and returns (status, reply text) or ("hang", seconds).
Responder = Callable[[dict], tuple[int | str, str | float]]


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
