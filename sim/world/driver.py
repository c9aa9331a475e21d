"""A truck driver as a SimPy process: observe, ask the policy, act, let time pass."""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import simpy

from sim.geo import Geography, Point, in_guangdong
from sim.official.timebase import DAY
from sim.scenario import DriverSpec, MarketConfig
from sim.world.actions import (
    NO_OUTCOME,
    Decision,
    Observation,
    Outcome,
    OutcomeKind,
    Policy,
    Reposition,
    Search,
    TakeOrder,
    Wait,
)
from sim.world.dispatch import DecisionDispatcher
from sim.world.events import (
    ActionChosen,
    Drove,
    EventBus,
    OrderCompleted,
    OrderTaken,
    SearchDone,
    TakeFailed,
    Waited,
)
from sim.world.market import Market


@dataclass
class DriverState:
    position: Point
    income: float = 0.0
    gross: float = 0.0
    cost: float = 0.0
    orders: int = 0
    unpaid_orders: int = 0
    empty_km: float = 0.0
    loaded_km: float = 0.0
    busy_until: float = 0.0
    searches: int = 0
    waits: int = 0
    repositions: int = 0
    failed_takes: int = 0
    queries_by_day: dict[int, int] = field(default_factory=dict)


class Driver:
    def __init__(self, env: simpy.Environment, spec: DriverSpec, policy: Policy, market: Market,
                 geo: Geography, bus: EventBus, market_cfg: MarketConfig, horizon: float,
                 load_minutes: float, dispatcher: DecisionDispatcher | None = None) -> None:
        self.env, self.spec, self.policy, self.market = env, spec, policy, market
        self.geo, self.bus, self.mcfg, self.horizon = geo, bus, market_cfg, horizon
        self.load_minutes = load_minutes
        self.dispatcher = dispatcher
        self.id = spec.driver_id
        self.state = DriverState(position=Point(spec.lat, spec.lng))
        self.last_search: tuple = ()
        self.last_search_time: float | None = None
        self.last_outcome: Outcome = NO_OUTCOME
        self.process = env.process(self.run())

    # -- observation ---------------------------------------------------------------------
    def budget_left(self) -> int:
        used = self.state.queries_by_day.get(int(self.env.now // DAY), 0)
        return max(0, self.mcfg.daily_query_budget - used)

    def observe(self) -> Observation:
        s = self.state
        return Observation(
            driver_id=self.id, now=self.env.now, horizon=self.horizon, position=s.position,
            cost_per_km=self.spec.cost_per_km, income=s.income, orders=s.orders,
            empty_km=s.empty_km, loaded_km=s.loaded_km, query_budget_left=self.budget_left(),
            last_search=self.last_search, last_search_time=self.last_search_time,
            last_outcome=self.last_outcome,
        )

    # -- the process ---------------------------------------------------------------------
    def run(self) -> Generator[simpy.Event, Any, None]:
        while self.env.now < self.horizon:
            t0 = self.env.now
            if self.dispatcher is None or self.dispatcher.immediate:
                decision = self.policy.decide(self.observe())
            else:  # decided with the other drivers of its lookahead window (sim.world.dispatch)
                decision = yield self.dispatcher.submit(self.id, self.observe, self.policy)
            self.publish_choice(decision)
            yield from self.execute(decision)
            if self.env.now == t0:  # every decision costs at least a minute
                yield self.env.timeout(1)

    def publish_choice(self, d: Decision) -> None:
        a = d.action
        params: dict[str, Any] = {}
        cargo_id = None
        if isinstance(a, TakeOrder):
            cargo_id = a.cargo_id
        elif isinstance(a, Wait):
            params["minutes"] = a.minutes
        elif isinstance(a, Reposition):
            params.update(lat=a.lat, lng=a.lng)
        elif isinstance(a, Search):
            params.update(lat=a.lat, lng=a.lng, radius_km=a.radius_km)
        if d.short_plan:
            params["short_plan"] = d.short_plan
        self.bus.publish(ActionChosen(self.env.now, self.id, a.name, cargo_id,
                                      {k: v for k, v in params.items() if v is not None},
                                      d.reason or None))

    def execute(self, d: Decision) -> Generator[simpy.Event, Any, None]:
        a = d.action
        if isinstance(a, Search):
            yield from self.search(a)
        elif isinstance(a, TakeOrder):
            yield from self.take(a.cargo_id)
        elif isinstance(a, Wait):
            minutes = max(1.0, float(a.minutes))
            minutes = min(minutes, max(1.0, self.horizon - self.env.now))
            self.state.waits += 1
            self.bus.publish(Waited(self.env.now, self.id, minutes))
            self.last_outcome = Outcome(OutcomeKind.WAITED, amount=minutes)
            yield self.env.timeout(minutes)
        elif isinstance(a, Reposition):
            target = Point(a.lat, a.lng)
            if not in_guangdong(a.lat, a.lng):
                self.last_outcome = Outcome(OutcomeKind.REPOSITION_REJECTED,
                                            reason="target outside Guangdong")
                yield self.env.timeout(1)
                return
            self.state.repositions += 1
            km = self.geo.road_km(self.state.position, target)
            yield from self.drive(target, km, loaded=False)
            self.last_outcome = Outcome(OutcomeKind.REPOSITIONED, amount=km)

    def search(self, a: Search) -> Generator[simpy.Event, Any, None]:
        s = self.state
        center = s.position if a.lat is None or a.lng is None else Point(a.lat, a.lng)
        radius = min(a.radius_km or self.mcfg.default_radius_km, self.mcfg.max_radius_km)
        left = self.budget_left()
        if left <= 0:
            self.bus.publish(SearchDone(self.env.now, self.id, center.lat, center.lng, radius,
                                        self.mcfg.search_min_minutes, 0,
                                        rejected="budget_exhausted"))
            self.last_outcome = Outcome(OutcomeKind.SEARCH_REJECTED,
                                        reason="daily query budget used up")
            yield self.env.timeout(max(1, self.mcfg.search_min_minutes))
            return
        day = int(self.env.now // DAY)
        s.queries_by_day[day] = s.queries_by_day.get(day, 0) + 1
        s.searches += 1
        results = self.market.search(center, radius)
        minutes = max(self.mcfg.search_min_minutes, math.ceil(len(results) / 10))
        best = max((c.route(self.geo, center, self.spec.cost_per_km)[0] for c in results),
                   default=0.0)
        self.bus.publish(SearchDone(self.env.now, self.id, center.lat, center.lng, radius,
                                    minutes, left - 1, results, best_net=best))
        self.last_search, self.last_search_time = results, self.env.now
        self.last_outcome = Outcome(OutcomeKind.SEARCHED, amount=len(results))
        if minutes:
            yield self.env.timeout(minutes)

    def fail(self, cargo_id: str, reason: str) -> None:
        self.state.failed_takes += 1
        self.bus.publish(TakeFailed(self.env.now, self.id, cargo_id, reason))
        self.last_outcome = Outcome(OutcomeKind.TAKE_FAILED, cargo_id, reason)

    def take(self, cargo_id: str) -> Generator[simpy.Event, Any, None]:
        now = self.env.now
        reason = self.market.check_take(cargo_id, now)
        if reason is None:
            c = self.market.registry[cargo_id]
            empty_km = self.geo.road_km(self.state.position, c.origin)
            arrival = now + self.geo.drive_minutes(empty_km, now)
            if arrival > c.load_end:
                reason = "window_missed"
        if reason is not None:
            self.fail(cargo_id, reason)
            yield self.env.timeout(1)
            return
        c = self.market.book(cargo_id)
        load_begin = max(arrival, c.load_start)
        finish = load_begin + c.cost_minutes
        if finish > self.horizon:  # the competition's rule: it will earn nothing
            self.state.unpaid_orders += 1
        self.bus.publish(OrderTaken(now, self.id, cargo_id, arrival, load_begin, finish,
                                    empty_km, c.distance_km))
        yield from self.drive(c.origin, empty_km, loaded=False)
        if self.env.now < load_begin:
            yield self.env.timeout(load_begin - self.env.now)
        # loading, loaded drive and unloading are one timed block (the cargo's cost_time)
        depart = self.env.now + self.load_minutes
        yield self.env.timeout(self.load_minutes)
        yield from self.drive(c.dest, c.distance_km, loaded=True,
                              minutes=finish - self.env.now, t_start=depart)
        s = self.state
        cost = (empty_km + c.distance_km) * self.spec.cost_per_km
        net = c.price - cost
        s.orders += 1
        s.income += net
        s.gross += c.price
        s.cost += cost
        self.bus.publish(OrderCompleted(self.env.now, self.id, cargo_id, c.price, cost, net,
                                        True, c.dest.lat, c.dest.lng))
        self.last_outcome = Outcome(OutcomeKind.COMPLETED, cargo_id, amount=net)

    def drive(self, target: Point, km: float, loaded: bool, minutes: float | None = None,
              t_start: float | None = None) -> Generator[simpy.Event, Any, None]:
        t0 = self.env.now
        if minutes is None:
            minutes = self.geo.drive_minutes(km, t0)
        a = self.state.position
        if minutes > 0:
            yield self.env.timeout(minutes)
        self.state.position = target
        if loaded:
            self.state.loaded_km += km
        else:
            self.state.empty_km += km
        seg_start = t0 if t_start is None else min(t_start, self.env.now)
        self.bus.publish(Drove(self.env.now, self.id, seg_start, a.lat, a.lng, target.lat,
                               target.lng, km, loaded))
