"""Side effects held back while a decision is computed off the simulation thread.

A decision computed on a worker thread (see sim.world.dispatch) must not publish events or write
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


def side_by_side(*fns: Callable[[], object]) -> list[object]:
    """Run independent fns on threads at once; return their results in argument order.

    What each publishes or records is held back and released afterwards in argument order
    (queued in turn when the caller is itself captured), so the records do not depend on which
    finished first. The fns must not depend on one another's effects.
    """
    results: list[object] = [None] * len(fns)
    queues: list[list[Callable[[], object]]] = [[] for _ in fns]
    errors: list[BaseException | None] = [None] * len(fns)

    def run(i: int) -> None:
        with captured() as q:
            try:
                results[i] = fns[i]()
            except BaseException as exc:  # re-raised on the calling thread
                errors[i] = exc
        queues[i] = q

    threads = [threading.Thread(target=run, args=(i,)) for i in range(1, len(fns))]
    for t in threads:
        t.start()
    run(0)  # the first on this thread
    for t in threads:
        t.join()
    for e in errors:
        if e is not None:
            raise e
    for q in queues:
        for fn in q:
            defer(fn)
    return results
