"""The tests' forked `freightsim` (tests/cli_fork.py) answers as a new interpreter does: the same
exit status, stdout and stderr for a success, a refused file and a usage error, and a timeout
that kills the call and leaves the server serving."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cli_fork import ForkedCli
from tests.conftest import ROOT, SCENARIOS, cli


@pytest.mark.parametrize("args", [
    ["validate", str(SCENARIOS / "smoke.toml")],  # exit 0, a table on stdout
    ["validate", "BAD"],  # exit 2, one error line naming the file
    ["validate", "--no-such-flag"],  # argparse's usage error, exit 2
    ["run", "BAD.toml", "--out", "OUT"],  # a refused run: nothing written
])
def test_a_forked_call_answers_as_a_new_interpreter(tmp_path: Path, args: list[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario]\ndays = -1\n")
    args = [{"BAD": str(bad), "BAD.toml": str(bad), "OUT": str(tmp_path / "out")}.get(a, a)
            for a in args]
    forked, fresh = cli(*args), cli(*args, fresh=True)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode, fresh.stdout, fresh.stderr)
    assert "Traceback" not in forked.stderr


def test_a_forked_call_reads_the_callers_environment(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A key set after the server started is this call's secret, redacted as at a fresh start:
    the child runs with the caller's environment, not the server's."""
    key = "forked-call-test-secret-0123456789"  # not key-shaped: redacted only as a secret
    path = tmp_path / "secret.toml"
    path.write_text(f'[scenario]\nname = "{key}"\ndays = 1\n')
    cli("validate", str(SCENARIOS / "smoke.toml"))  # the server is up before the key is set
    monkeypatch.setenv("OPENAI_API_KEY", key)
    forked, fresh = cli("validate", str(path)), cli("validate", str(path), fresh=True)
    assert forked.returncode == fresh.returncode == 0
    assert forked.stdout == fresh.stdout
    assert key not in forked.stdout
    assert "[REDACTED]" in forked.stdout
    monkeypatch.delenv("OPENAI_API_KEY")
    assert key in cli("validate", str(path)).stdout  # and no longer once it is gone


def test_a_timeout_kills_the_call_and_the_server_serves_on(tmp_path: Path) -> None:
    runner = ForkedCli()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            runner.run(["run", str(SCENARIOS / "month.toml"), "--out", str(tmp_path / "m"),
                        "--no-progress"], env, timeout=2.0)
        again = runner.run(["validate", str(SCENARIOS / "smoke.toml")], env, timeout=60)
        assert again.returncode == 0
        assert "ok" in again.stdout
    finally:
        runner.close()
