"""Independent runs (a sweep's scenario x seed x mode, a bench's modes and agents) on one
machine's process pool or on a Ray cluster: the one place that knows the engines.

Each run draws everything from its own scenario's seed, so results do not depend on the engine,
the worker count or the order in which runs finish; they come back in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

ENGINES = ("local", "ray")


def run_all(fn: Callable[..., Any], calls: Sequence[tuple], *, engine: str = "local",
            workers: int = 1) -> list[Any]:
    """`[fn(*args) for args in calls]`, in worker processes (`local`, `workers` of them; one
    worker runs in this process) or as Ray tasks on `workers` CPUs. `fn` must be importable
    at module level (workers import it)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if engine == "ray":
        try:
            import ray
        except ImportError:
            raise SystemExit("engine ray needs the ray extra: pip install -e '.[ray]'") from None
        ray.init(num_cpus=workers, include_dashboard=False, ignore_reinit_error=True,
                 log_to_driver=False)
        task = ray.remote(fn)
        try:
            return ray.get([task.remote(*args) for args in calls])
        finally:
            ray.shutdown()
    if workers <= 1 or len(calls) <= 1:
        return [fn(*args) for args in calls]
    with ProcessPoolExecutor(max_workers=min(workers, len(calls))) as pool:
        return list(pool.map(fn, *zip(*calls, strict=True)))
