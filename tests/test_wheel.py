"""The package as a user installs it: a wheel in a fresh venv, run from an unrelated directory.

Nothing may be read from the checkout (data files ship inside the wheel, read through
importlib.resources), so the run happens with the checkout off the path entirely.

The wheel goes in with `--no-deps` by this venv's pip (`pip --python`, so the new venv needs no
pip of its own), and the new venv sees this venv's third-party packages through a `.pth` path
line: unpacking pandas, pyarrow and numpy again and bootstrapping pip took most of this test's
minute and proved only that pip works. `pip check` still proves that the wheel's declared
requirements are met. A path line does not run the `.pth` files of that folder, so this venv's
editable install of the checkout stays invisible (the `data.__file__` assertion below).
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT, SCENARIOS

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_wheel_installs_into_a_fresh_venv_and_runs_anywhere(tmp_path: Path) -> None:
    # build from a clean copy: no stale build/ of the checkout can leak into the wheel
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "runs", "*.egg-info", "__pycache__", ".*_cache"))
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, src,
                 cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("freightsim-*.whl")

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False, system_site_packages=False)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    pip = (sys.executable, "-m", "pip", "--python", bin_dir / "python")
    installed = _run(*pip, "install", "-q", "--no-deps", wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    purelib = Path(sysconfig.get_path("purelib", vars={"base": env_dir, "platbase": env_dir}))
    (purelib / "test-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    deps = _run(*pip, "check", cwd=tmp_path)
    assert deps.returncode == 0, deps.stdout + deps.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(SCENARIOS / "smoke.toml", elsewhere / "smoke.toml")
    # the code that runs is the installed copy, not the checkout
    where = _run(bin_dir / "python", "-c", "import data, agents; print(data.__file__)",
                 cwd=elsewhere)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(env_dir)

    run = _run(bin_dir / "freightsim", "run", "smoke.toml", "--out", "out", "--no-progress",
               cwd=elsewhere)
    assert run.returncode == 0, run.stderr
    summary = json.loads((elsewhere / "out" / "summary.json").read_text())
    assert summary["steps"] > 0
    assert summary["cargo_created"] > 0
