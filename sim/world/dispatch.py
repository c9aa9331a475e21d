"""Decisions of many drivers in flight at once, with an event log that does not depend on timing.

Semantics (the shared world, `[llm] lookahead_minutes` = W, `[llm] concurrency` = N):

* W = 0 (the default): there is no batching. A driver asks its policy and acts at once, one
  driver after another in SimPy's event order: exactly the behaviour without a dispatcher.
* W > 0: the first driver that needs a decision at simulated time t0 opens a batch and the
  batch closes at t0 + W. Every driver that needs a decision before the close joins it: it
  observes the world then, at its own request time, and is suspended (its clock does not
  move; the rest of the world goes on: cargo arrives, expires, is taken by competitors, other
  drivers drive). At the close the world is frozen and all the batch's policies decide at once,
  up to N at a time on worker threads, each on its own observation; whatever a decision
  publishes or records while it is computed is held back (sim.world.effects). When all are back, the
  held effects are released and the decisions applied in the fixed order (request time, driver
  id), all at simulated time t0 + W. So a decision acts up to W minutes after what it saw (as if
  the driver had thought that long): a take can find its cargo gone or its window missed, and two
  drivers of one batch do not see each other's choice (the second take of one cargo fails as it
  would in the market). A policy that keeps its own memory reads it at the close, so it may know
  of events after its observation.
* The event log therefore depends only on what the policies answer, never on the order or the
  moment their answers arrive: N = 1 and N = 64 give the same log for the same replies, and a
  recorded run replays to the same log. A policy must only read the world while it decides
  (it runs while the world is frozen) and must publish through the EventBus or
  sim.world.effects.defer.

The dispatcher knows nothing of agents or models: it gets (driver id, how to observe, policy)
and hands back a SimPy event whose value is the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import simpy

from sim.world.actions import Decision, Observation, Policy
from sim.world.effects import captured


@dataclass
class _Request:
    t: float
    driver_id: str
    obs: Observation
    policy: Policy
    event: simpy.Event


class DecisionDispatcher:
    """Batches decision requests within a lookahead window and answers them concurrently."""

    def __init__(self, env: simpy.Environment, window_minutes: float = 0.0,
                 concurrency: int = 1) -> None:
        if window_minutes < 0 or concurrency < 1:
            raise ValueError("window_minutes must be >= 0 and concurrency >= 1")
        self.env, self.window, self.concurrency = env, float(window_minutes), concurrency
        self.batch: list[_Request] | None = None
        self.pool: ThreadPoolExecutor | None = None
        self.batches = 0
        self.decisions = 0
        self.max_batch = 0

    @property
    def immediate(self) -> bool:
        """Window 0: drivers decide inline, the dispatcher is not involved."""
        return self.window == 0

    def submit(self, driver_id: str, observe: Callable[[], Observation],
               policy: Policy) -> simpy.Event:
        """A SimPy event that succeeds with the decision when this driver's batch closes."""
        ev = self.env.event()
        if self.batch is None:
            self.batch = []
            close = self.env.timeout(self.window)
            close.callbacks.append(self._close)
        self.batch.append(_Request(self.env.now, driver_id, observe(), policy, ev))
        return ev

    def _close(self, _: simpy.Event) -> None:
        batch = sorted(self.batch or [], key=lambda r: (r.t, r.driver_id))
        self.batch = None
        self.batches += 1
        self.decisions += len(batch)
        self.max_batch = max(self.max_batch, len(batch))
        jobs = [(r, r.obs) for r in batch]
        if self.concurrency == 1 or len(batch) == 1:
            results = [_decide(r.policy, o) for r, o in jobs]
        else:
            if self.pool is None:
                self.pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="decide")
            futures = [self.pool.submit(_decide, r.policy, o) for r, o in jobs]
            results = [f.result() for f in futures]
        for r, (decision, effects) in zip(batch, results, strict=True):
            for fn in effects:
                fn()
            r.event.succeed(decision)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def stats(self) -> dict:
        return {"lookahead_minutes": self.window, "concurrency": self.concurrency,
                "decision_batches": self.batches, "batched_decisions": self.decisions,
                "max_decision_batch": self.max_batch}


def _decide(policy: Policy, obs: Observation) -> tuple[Decision, list[Callable[[], object]]]:
    with captured() as effects:
        decision = policy.decide(obs)
    return decision, effects
