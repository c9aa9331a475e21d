"""The greedy driver over raw observations only: the memory-off baseline.

It sees what a driver sees at one step (its last search's results and the outcome of its last
action) and nothing older. That is exactly the write-up's stage one, and why it keeps trying
cargo that already left and re-searching places that just gave nothing.
"""

from __future__ import annotations

from agents.roles.feasibility import densest_nearby
from memory.memory_agent import rule_filter
from memory.rule_progress import RuleProgress
from sim.geo import Geography, Point, great_circle_km
from sim.scenario import Scenario
from sim.world.actions import (
    Decision,
    Observation,
    OutcomeKind,
    Reposition,
    Search,
    TakeOrder,
    Wait,
)
from sim.world.order_costs import Option, evaluate, takeable


class GreedyPolicy:
    """Search near, take the best net order reachable in time, else reposition, else wait."""

    def __init__(self, geo: Geography, scenario: Scenario,
                 rules: RuleProgress | None = None) -> None:
        """`rules`: the driver's competition rules (fed by the caller); None leaves the
        greedy unaware of them, as the memory-off baseline is."""
        self.geo, self.sc, self.rules = geo, scenario, rules
        self.cfg = scenario.policy
        self.research_after = 30.0
        self.refresh_after_failure = 10.0

    # Hooks a memory-aware policy overrides ---------------------------------------------------
    def candidates(self, obs: Observation) -> list[Option]:
        last = obs.last_outcome
        last_failed = last.cargo_id if last.failed else None
        return [evaluate(self.geo, c, obs.position, obs.now, obs.cost_per_km)
                for c in obs.last_search if c.cargo_id != last_failed]

    def should_search(self, obs: Observation) -> bool:
        """Refresh the market view when it is missing, old, from elsewhere, or just failed us."""
        if obs.query_budget_left <= 0:
            return False
        if obs.last_search_time is None:
            return True
        age = obs.now - obs.last_search_time
        last = obs.last_outcome
        return (age >= self.research_after
                or last.kind in (OutcomeKind.COMPLETED, OutcomeKind.REPOSITIONED)
                or (last.failed and age >= self.refresh_after_failure))

    def search_action(self, obs: Observation) -> Search:
        return Search()

    def reposition_target(self, obs: Observation) -> Point | None:
        return densest_nearby(self.geo, obs.position)

    # The decision ------------------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        due = self.rule_todo(obs)
        if due is not None and isinstance(due.action, Wait):
            # a rule's wait forgoes work: followed unless an order on offer now earns more
            # than its fine (a drive to a rule's point is always made)
            if self.should_search(obs):
                return Decision(self.search_action(obs), reason="look for cargo")
            best = self.best_option(obs)
            if best is not None and best.net > self.rules.todo(  # type: ignore[union-attr]
                    obs.now, Point(obs.position.lat, obs.position.lng)).at_stake:
                return Decision(TakeOrder(best.cargo.cargo_id),
                                reason=f"best net {best.net:.0f} beats the rule's fine")
        if due is not None:
            return due
        if self.should_search(obs):
            return Decision(self.search_action(obs), reason="look for cargo")
        best = self.best_option(obs)
        if best is not None:
            return Decision(TakeOrder(best.cargo.cargo_id),
                            reason=f"best net {best.net:.0f}")
        target = self.reposition_target(obs)
        if target is not None:
            return Decision(Reposition(target.lat, target.lng), reason="toward denser market")
        return Decision(Wait(self.cfg.wait_minutes), reason="nothing worth doing")

    def rule_todo(self, obs: Observation) -> Decision | None:
        """A due competition rule's action: wait it out, or drive to its point."""
        if self.rules is None:
            return None
        t = self.rules.todo(obs.now, Point(obs.position.lat, obs.position.lng))
        if t is None:
            return None
        if t.action == "wait":
            return Decision(Wait(float(max(1, t.minutes))), reason=t.reason)
        if great_circle_km(obs.position.lat, obs.position.lng, t.lat, t.lng) > 0.5:
            return Decision(Reposition(t.lat, t.lng), reason=t.reason)
        return None

    def best_option(self, obs: Observation) -> Option | None:
        ok = [o for o in self.candidates(obs)
              if takeable(o, obs.now, obs.horizon, self.cfg.min_net_income)]
        if self.rules is not None:  # net after the penalty the take would add (rule_filter)
            ok.sort(key=lambda o: (-o.net, o.cargo.cargo_id))
            pos = Point(obs.position.lat, obs.position.lng)
            pairs = rule_filter(self.rules, [(o, o) for o in ok], obs.now, pos,
                                self.cfg.min_net_income)
            ok = [o for _, o in pairs]
        best = None
        for o in ok:
            if best is None or (o.net, o.cargo.cargo_id) > (best.net, best.cargo.cargo_id):
                best = o
        return best
