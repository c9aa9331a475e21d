"""The garbage collector's pace while a run loop runs: one fact, shared by both run loops.

A month keeps hundreds of MB of long-lived objects (memory stores, rule logs, the market), and
at CPython's default thresholds (a young collection every 700 container allocations, an older
one every 10 of those) the collector rescans them again and again: 16 s of a 114-s
`scenarios/month.toml` run in `bounded` mode (docs/benchmarks.md, "The collector's pace").
Inside `paced_collector()` young collections run every 100,000 allocations; cycles are still
collected, less often, and the process's settings come back when the outermost loop ends.
Collection never changes what a run decides: the same events, steps and summary either way.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# (young, middle, old): measured on the month, the young collections fall from 4,127 to 25
# and their time from 16.3 s to 1.6 s, with the peak RSS within 3% (docs/benchmarks.md)
LOOP_THRESHOLDS = (100_000, 50, 100)


class _Pace:
    """Who holds the raised pace: loops nest (a bench runs worlds) or overlap (threads of a
    sweep), and the settings they found come back only when the last of them ends."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.holders = 0
        self.saved: tuple[int, ...] = gc.get_threshold()

    def enter(self) -> None:
        with self.lock:
            if self.holders == 0:
                self.saved = gc.get_threshold()
                gc.set_threshold(*LOOP_THRESHOLDS)
            self.holders += 1

    def leave(self) -> None:
        with self.lock:
            self.holders -= 1
            if self.holders == 0:
                gc.set_threshold(*self.saved)


_PACE = _Pace()


@contextmanager
def paced_collector() -> Iterator[None]:
    """Run the body with the loop's collector thresholds, then restore the caller's."""
    _PACE.enter()
    try:
        yield
    finally:
        _PACE.leave()
