"""How long does `make test` take from a fresh clone? The 8-minute target of the project brief.

usage: python benchmarks/suite_time.py [--target-s 480] [--json PATH] [--keep]

Clones the committed HEAD of this checkout into a temporary folder and runs there, with an
empty freightsim cache except the compiled llama-cpp-python wheel (which the target allows to
be cached: it takes about 6 minutes to build), first `make .venv/.llm-installed` (the venv and
the install), then `make test` (the browser check, ruff and the whole suite). Prints each
phase's wall time and the total against the target; exits 1 when over it or when the suite
fails. CI=true is set as CI sets it. Run it on an otherwise idle machine: the suite uses both
cores, so anything else running shows up in the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wheels_dir() -> Path:
    cache = Path(os.environ.get("FREIGHTSIM_CACHE", Path.home() / ".cache" / "freightsim"))
    return cache / "wheels-portable"


def phase(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> tuple[float, int]:
    t0 = time.perf_counter()
    with log.open("a") as f:
        rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT).returncode
    return time.perf_counter() - t0, rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target-s", type=float, default=480.0)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = ap.parse_args(argv)
    wheels = wheels_dir()
    if not any(wheels.glob("llama_cpp_python-*.whl")):
        print(f"no compiled llama wheel in {wheels}: run `make test` once first", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="suite-time-"))
    clone, cache, log = tmp / "clone", tmp / "cache", tmp / "make.log"
    cache.mkdir()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {**os.environ, "CI": "true", "FREIGHTSIM_CACHE": str(cache), "WHEELS": str(wheels)}
    try:
        install_s, rc = phase(["make", ".venv/.llm-installed"], clone, env, log)
        test_s, rc_test = phase(["make", "test"], clone, env, log) if rc == 0 else (0.0, rc)
        total = install_s + test_s
        res = {"commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone,
                                        capture_output=True, text=True).stdout.strip(),
               "install_s": round(install_s, 1), "test_s": round(test_s, 1),
               "total_s": round(total, 1), "target_s": args.target_s,
               "passed": rc == 0 and rc_test == 0,
               "within": rc == 0 and rc_test == 0 and total <= args.target_s,
               "cores": os.cpu_count()}
        tail = log.read_text(errors="replace").strip().splitlines()[-1:]
        print(f"install {install_s:.0f} s, lint and tests {test_s:.0f} s, total {total:.0f} s "
              f"(target {args.target_s:.0f} s); suite {'passed' if res['passed'] else 'FAILED'}"
              f": {tail[0] if tail else ''}")
        if args.json:
            args.json.write_text(json.dumps(res, indent=2))
        return 0 if res["within"] else 1
    finally:
        if args.keep:
            print(f"clone and log kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
