"""Side effects held back while a decision is computed off the simulation thread.

A decision computed on a worker thread (see sim.dispatch) must not publish events or write
records as it goes: their order would follow the order replies arrive in. Inside `captured()`
every `defer(fn)` (and every EventBus.publish, which defers itself) is queued on the calling
thread instead of run; the dispatcher runs the queues on the simulation thread in a fixed order.
Outside `captured()` `defer(fn)` runs fn at once, so code that never meets a dispatcher behaves
exactly as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_local = threading.local()


def defer(fn: Callable[[], object]) -> None:
    """Run fn now, or queue it when this thread is computing a captured decision."""
    queue = getattr(_local, "queue", None)
    if queue is None:
        fn()
    else:
        queue.append(fn)


def capturing() -> bool:
    return getattr(_local, "queue", None) is not None


@contextmanager
def captured() -> Iterator[list[Callable[[], object]]]:
    """Queue this thread's deferred effects in the yielded list until the block ends."""
    previous = getattr(_local, "queue", None)
    queue: list[Callable[[], object]] = []
    _local.queue = queue
    try:
        yield queue
    finally:
        _local.queue = previous
