"""`freightsim` in a process of its own per call, without paying the start-up every time.

A CLI call from the tests used to be `python -m agents.app.cli ...`: a new interpreter that
imports numpy, pandas, pyarrow and the package and loads the Qwen tokenizer, about 1.7 s of CPU
before the command starts, and the suite makes a few hundred such calls. Here one server process
per test worker does that once and forks a child per call. The child is a process of its own
(its pid, exit status, stdout and stderr files, working directory and environment as the call
asks), runs `agents.app.cli.main` as `python -m agents.app.cli` would, and ends with its exit
status, so what the tests assert is what a user's shell sees.

What a fork does not give: a fresh import (a module that fails to import shows in its first
child, not in a new interpreter), and a new hash seed per call. Tests that need either run the
real interpreter: `cli(..., fresh=True)`, the signal tests (tests/test_interrupts.py) and the
wheel test, which runs the installed `freightsim` script. FREIGHTSIM_TEST_CLI=spawn sends every
call to a new interpreter as before.

The server speaks JSON lines on its stdin and stdout: a request {argv, env, cwd, stdout,
stderr} is answered by {"pid": N} once the child runs and {"rc": N} once it has ended. The
server serves one call at a time: each test worker has its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "agents" / "app" / "cli.py"

# what the commands import lazily, imported once in the server (a child that needs more
# imports it itself)
PRELOAD = (
    "agents.app.cli", "agents.app.runner", "agents.app.compete", "agents.app.bench",
    "agents.app.bench_competition", "agents.app.report", "agents.app.preferences_cmd",
    "agents.llm.providers", "sim.world.cargo_stream", "sim.competition.completeness",
    "sim.scoring.scorer", "sim.world.competition_files", "sim.world.driver_preferences",
    "pandas", "pyarrow.parquet", "tqdm",
)


# -- the server ------------------------------------------------------------------------------
def _preload() -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from memory.tokens import TokenCounter

    TokenCounter()  # the tokenizer's vocabulary, loaded once (cached per process)


def _child(req: dict) -> None:
    """Runs in the forked child; never returns."""
    rc = 1
    try:
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, path in ((1, req["stdout"]), (2, req["stderr"])):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
        # the streams a new interpreter has: stdout block-buffered, stderr by line
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                          closefd=False, buffering=1)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        sys.argv = [str(CLI), *req["argv"]]
        from sim.redact import forget_secrets

        forget_secrets()  # keys are read from this call's environment, as at a fresh start
        from agents.app.cli import main

        rc = main(req["argv"])
    except SystemExit as exc:  # what the interpreter makes of sys.exit(code)
        code = exc.code
        if code is None:
            rc = 0
        elif isinstance(code, int):
            rc = code
        else:
            print(code, file=sys.stderr)
            rc = 1
    except BaseException:  # the interpreter prints it and exits 1
        traceback.print_exc()
        rc = 1
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(rc if isinstance(rc, int) and 0 <= rc < 256 else 1)


def serve() -> None:
    _preload()
    reply = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # a stray print of the server goes to stderr, never into the replies
    sys.stdout = sys.stderr
    for line in sys.stdin:
        req = json.loads(line)
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req)
        reply.write(json.dumps({"pid": pid}) + "\n")
        reply.flush()
        _, status = os.waitpid(pid, 0)
        reply.write(json.dumps({"rc": os.waitstatus_to_exitcode(status)}) + "\n")
        reply.flush()


# -- the client ------------------------------------------------------------------------------
class ForkedCli:
    """The test worker's side: starts the server on first use and sends it one call at a
    time (a lock keeps calls from threads apart)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()

    def _server(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.cli_fork"], cwd=ROOT, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": str(ROOT)})
        return self.proc

    def _reply(self, proc: subprocess.Popen[str], deadline: float | None) -> dict | None:
        assert proc.stdout is not None
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([proc.stdout], [], [], wait)
        if not ready:
            return None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the CLI fork server ended (exit {proc.wait()})")
        return json.loads(line)

    def run(self, args: list[str], env: dict[str, str], timeout: float
            ) -> subprocess.CompletedProcess[str]:
        with self.lock:
            return self._run(args, env, timeout)

    def _run(self, args: list[str], env: dict[str, str], timeout: float
             ) -> subprocess.CompletedProcess[str]:
        proc = self._server()
        assert proc.stdin is not None
        with tempfile.TemporaryDirectory() as tmp:
            out, err = Path(tmp) / "stdout", Path(tmp) / "stderr"
            proc.stdin.write(json.dumps({"argv": args, "env": env, "cwd": str(ROOT),
                                         "stdout": str(out), "stderr": str(err)}) + "\n")
            proc.stdin.flush()
            pid = self._reply(proc, None)["pid"]
            got = self._reply(proc, time.monotonic() + timeout)
            if got is None:  # as subprocess.run: kill it, then raise
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                self._reply(proc, None)
                raise subprocess.TimeoutExpired(["freightsim", *args], timeout,
                                                out.read_bytes(), err.read_bytes())
            return subprocess.CompletedProcess(
                [sys.executable, "-m", "agents.app.cli", *args], got["rc"],
                out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8"))

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None


if __name__ == "__main__":
    serve()
