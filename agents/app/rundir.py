"""The run directory: checked before anything is written, and locked while a run writes it.

Two runs into one directory would interleave their Parquet parts and overwrite each other's
summary with exit 0, so a run holds an exclusive `fcntl` lock on `<out>/.lock` for its whole
life; a second writer is refused with the first one's pid. The kernel drops the lock when the
process dies, so a killed run never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from sim.scenario import SPECIAL_ROOTS, ScenarioError

LOCK_NAME = ".lock"


def check_out_dir(out: Path) -> None:
    """Refuse an output directory that cannot hold a run, before the run starts."""
    resolved = out.resolve()
    text = str(resolved)
    if any(text == r or text.startswith(r + "/") for r in SPECIAL_ROOTS):
        raise ScenarioError(out, "--out", "a directory outside /proc, /sys and /dev", str(out))
    for parent in (resolved, *resolved.parents):
        if parent.exists():
            if not parent.is_dir():
                raise ScenarioError(out, "--out", "a directory (or a path where one can be "
                                    "made)", f"{parent} is a file")
            break
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScenarioError(out, "--out", "a directory that can be created",
                            exc.strerror or str(exc)) from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise ScenarioError(out, "--out", "a writable directory", "permission denied")


class RunDirLock:
    """An exclusive lock on a run directory, held until `release` or process exit."""

    def __init__(self, out: Path) -> None:
        self.path = out / LOCK_NAME
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ScenarioError(out, "--out", "a writable directory",
                                exc.strerror or str(exc)) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = os.pread(self.fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(self.fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise ScenarioError(out, "--out", "a run directory no other run is writing",
                                    f"in use by a running freightsim (pid {holder})") from None
            raise
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1

    def __del__(self) -> None:
        with contextlib.suppress(OSError):
            self.release()

