"""benchmarks/suite_time.py (the fresh-clone `make test` timer) refuses to run without the
compiled llama wheel the target allows to be cached, instead of timing a 6-minute build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_suite_timer_needs_the_cached_wheel(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "suite_time.py")],
                          capture_output=True, text=True, timeout=60,
                          env={"FREIGHTSIM_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert f"no compiled llama wheel in {tmp_path / 'wheels-portable'}" in proc.stderr
