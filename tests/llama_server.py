"""A usage-recording proxy for the integration tests (the server itself: agents/local_server)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler

from agents.testing.fakes import LoopbackServer
from agents.testing.local_server import llama_server

__all__ = ["UsageProxy", "llama_server"]


class UsageProxy(LoopbackServer):
    """A loopback HTTP proxy in front of the model server that keeps every `usage` it relays,
    so a test can compare what the server reported with what the run recorded."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.usages: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _relay(self, method: str) -> None:
                n = int(self.headers.get("content-length", 0))
                data = self.rfile.read(n) if n else None
                path = self.path.removeprefix("/v1")
                req = urllib.request.Request(outer.upstream + path, data=data, method=method,
                                             headers={"content-type": "application/json"})
                try:
                    with urllib.request.urlopen(req, timeout=600) as r:
                        status, body = r.status, r.read()
                except urllib.error.HTTPError as e:
                    status, body = e.code, e.read()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (its timeout): it never received this usage
                # counted once delivered: a reply the client abandoned is not a call it recorded
                if method == "POST" and status == 200:
                    outer.usages.append(json.loads(body).get("usage", {}))

            def do_GET(self) -> None:
                self._relay("GET")

            def do_POST(self) -> None:
                self._relay("POST")

        super().__init__(Handler)
