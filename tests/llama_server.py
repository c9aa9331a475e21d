"""A usage-recording proxy for the integration tests (the server itself: agents/local_server)."""

from __future__ import annotations

import urllib.error
import urllib.request

from agents.local_server import llama_server

__all__ = ["UsageProxy", "llama_server"]


class UsageProxy:
    """A loopback HTTP proxy in front of the model server that keeps every `usage` it relays,
    so a test can compare what the server reported with what the run recorded."""

    def __init__(self, upstream: str) -> None:
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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
                if method == "POST" and status == 200:
                    outer.usages.append(json.loads(body).get("usage", {}))
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._relay("GET")

            def do_POST(self) -> None:
                self._relay("POST")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> UsageProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
