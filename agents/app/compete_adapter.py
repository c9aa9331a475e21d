"""Our agents (baseline or the memory pipeline) as a competition agent, so both compare 1:1.

One `FreightsimAgent` serves every driver (as the official loop constructs one instance). Per
driver it keeps our Policy and a private event bus; each `decide` reads the previous step's
record from `query_decision_history`, turns it into our events (so memory stores learn from
what the api returned), builds our Observation and asks the policy. A `Search` decision is a
`query_cargo` inside the same decide (its minutes are the step's scan cost), after which the
policy is asked again.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from agents.app.runner import build_services, uses_agents
from agents.roles.baseline import GreedyPolicy
from agents.roles.pipeline import AgentPolicy
from memory.rule_progress import RuleProgress, rules_from_entries
from sim.competition.drivers_file import DriverRecord
from sim.competition.records import cargo_key, parse_cost_minutes
from sim.geo import Geography, Point, haversine_km
from sim.official.timebase import parse_wall, to_minutes
from sim.preferences.pins import pins_of
from sim.scenario import DriverSpec, Scenario
from sim.world.actions import (
    NO_OUTCOME,
    Decision,
    Observation,
    Outcome,
    OutcomeKind,
    Reposition,
    Search,
    TakeOrder,
    Wait,
)
from sim.world.cargo import CargoView
from sim.world.driver_preferences import scenario_pins
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

NO_WINDOW_END = 1e9
MAX_SEARCHES_PER_STEP = 3


def cargo_view(item: dict, now: int) -> CargoView | None:
    """Our view of one query item (price already in yuan); None if it cannot be taken."""
    c = item["cargo"]
    try:
        o = Point(float(c["start"]["lat"]), float(c["start"]["lng"]))
        d = Point(float(c["end"]["lat"]), float(c["end"]["lng"]))
        cost = parse_cost_minutes(c.get("cost_time_minutes"))
        remove = to_minutes(parse_wall(c["remove_time"]))
    except (KeyError, TypeError, ValueError):
        return None
    if cost is None or cost < 0:
        return None
    lt = c.get("load_time")
    if lt is None:
        w0, w1 = float(now), NO_WINDOW_END
    else:
        a = parse_wall(lt[0]) if isinstance(lt, list) and len(lt) == 2 else None
        b = parse_wall(lt[1]) if a is not None else None
        if a is None or b is None or b < a:
            return None
        w0, w1 = float(to_minutes(a)), float(to_minutes(b))
    return CargoView(cargo_key(c["cargo_id"]), o, d, float(c.get("price", 0.0)), w0, w1,
                     float(remove), float(cost), haversine_km(o.lat, o.lng, d.lat, d.lng))


@dataclass
class _Driver:
    spec: DriverSpec
    policy: Any
    bus: EventBus
    seen_steps: int = 0
    income: float = 0.0
    orders: int = 0
    empty_km: float = 0.0
    loaded_km: float = 0.0
    last_search: tuple = ()
    last_search_time: float | None = None
    last_outcome: Outcome = NO_OUTCOME
    views: dict[str, CargoView] = field(default_factory=dict)
    rules: RuleProgress | None = None  # competition rules, fed each official record


class FreightsimAgent:
    def __init__(self, api: Any, scenario: Scenario, drivers: list[DriverRecord],
                 out_dir: Path | None = None) -> None:
        self.api, self.sc = api, scenario
        self.records = {d.driver_id: d for d in drivers}
        self.horizon = int(scenario.scenario.days) * 1440
        self.geo = Geography.guangdong(detour_factor=1.0, speed_kmh=scenario.geo.speed_kmh,
                                       market_h3_res=scenario.geo.market_h3_res)
        # with out_dir, every model call is a row of <out_dir>/llm_calls.parquet (its outcome
        # and fallback cause) and every decision one of steps.parquet, as in the generator world
        self.services = build_services(scenario, out_dir) if uses_agents(scenario) else None
        # our model calls count as the step's token_usage. A call may be answered on another
        # thread than the driver's (preference and search agents side by side), where the api
        # cannot tell which driver is active under [llm] concurrency > 1; so usage is kept per
        # driver (the call record names it) and handed to the api as decide returns
        self._usage: dict[str, list[int]] = {}
        self._usage_lock = threading.Lock()
        if self.services is not None:
            log, sink = self.services.log, self.services.log.sink

            def counted(r: Any) -> None:
                sink(r)
                if r.backend == "llm":
                    with self._usage_lock:
                        u = self._usage.setdefault(r.driver_id, [0, 0])
                        u[0] += r.prompt_tokens
                        u[1] += r.completion_tokens

            log.sink = counted
        self.drivers: dict[str, _Driver] = {}
        self._views: dict[object, CargoView | None] = {}  # parsed query items, by cargo id
        # every driver's policy and rules, in file order, before the loop: the loop then
        # starts deciding at once (with [llm] concurrency > 1 these would otherwise be built
        # one driver at a time under the interpreter lock) and construction order never
        # depends on thread timing
        for rec in drivers:
            self._driver(rec.driver_id)

    def _count_usage(self, driver_id: str) -> None:
        """The driver's model tokens since the last call, against its current decision."""
        with self._usage_lock:
            u = self._usage.pop(driver_id, None)
        if u is not None:
            self.api.add_usage({"prompt_tokens": u[0], "completion_tokens": u[1],
                                "total_tokens": u[0] + u[1]})

    def _driver(self, driver_id: str) -> _Driver:
        d = self.drivers.get(driver_id)
        if d is not None:
            return d
        rec = self.records[driver_id]
        spec = DriverSpec(driver_id, rec.lat, rec.lng, rec.cost_per_km)
        bus = EventBus()
        if self.services is None:
            policy: Any = GreedyPolicy(self.geo, self.sc)
        else:
            world = SimpleNamespace(bus=bus, geo=self.geo, horizon=float(self.horizon))
            policy = AgentPolicy(world, spec, self.services)
            mem = policy.memory
            if hasattr(self.api, "memory_views"):
                self.api.memory_views[driver_id] = lambda agent: str(
                    mem.step(self._observe(self.drivers[driver_id], None)).views[agent])
        d = _Driver(spec, policy, bus, rules=self._rules(rec))
        if d.rules is not None and self.services is not None:  # memory off stays unaware
            policy.memory.attach_rules(d.rules)
        self.drivers[driver_id] = d
        return d

    def _rules(self, rec: DriverRecord) -> RuleProgress | None:
        """The driver's competition rules, read as the scorer reads them; None without any."""
        days = int(self.sc.scenario.days)
        specs = rules_from_entries(list(rec.preferences), n_days=days,
                                   version=self.sc.scenario.scoring,
                                   pins=pins_of(scenario_pins(self.sc), rec.driver_id))
        if not any(r.rule is not None for r in specs):
            return None
        return RuleProgress(specs, n_days=days, version=self.sc.scenario.scoring,
                            initial=Point(rec.lat, rec.lng), speed_kmh=self.sc.geo.speed_kmh)

    # -- what the api returned becomes our events ---------------------------------------
    def _absorb(self, d: _Driver, rec: dict) -> None:
        if d.rules is not None:
            d.rules.on_step(rec)
        did, res, act = d.spec.driver_id, rec["result"], rec["action"]
        t1 = res["simulation_progress_minutes"]
        t0 = t1 - rec["action_exec_cost_minutes"]
        a, b = rec["position_before"], rec["position_after"]
        pa, pb = Point(a["lat"], a["lng"]), Point(b["lat"], b["lng"])
        name = str(act.get("action", "")).strip().lower()
        if name == "wait":
            d.bus.publish(Waited(t0, did, float(t1 - t0)))
            d.last_outcome = Outcome(OutcomeKind.WAITED, amount=float(t1 - t0))
        elif name == "reposition":
            km = float(res.get("distance_km", 0.0))
            d.empty_km += km
            d.bus.publish(Drove(t1, did, t0, pa.lat, pa.lng, pb.lat, pb.lng, km, False))
            d.last_outcome = Outcome(OutcomeKind.REPOSITIONED, amount=km)
        elif name == "take_order":
            cid = str(res.get("cargo_id", act.get("params", {}).get("cargo_id", "")))
            if res.get("accepted"):
                v = d.views.get(cid)
                empty, loaded = res["pickup_deadhead_km"], res["haul_distance_km"]
                price = v.price if v is not None else 0.0
                cost = (empty + loaded) * d.spec.cost_per_km
                d.bus.publish(OrderTaken(t0, did, cid, t0, t0, t1, empty, loaded))
                d.bus.publish(OrderCompleted(t1, did, cid, price, cost, price - cost,
                                             bool(res.get("income_eligible", True)), pb.lat,
                                             pb.lng))
                d.orders += 1
                d.income += price - cost
                d.empty_km += empty
                d.loaded_km += loaded
                d.last_outcome = Outcome(OutcomeKind.COMPLETED, cid, amount=price - cost)
            else:
                why = "window_missed" if res.get("detail") == "load_time_window_expired" \
                    else "expired"
                d.bus.publish(TakeFailed(t1, did, cid, why))
                d.last_outcome = Outcome(OutcomeKind.TAKE_FAILED, cid, why)

    def _observe(self, d: _Driver, status: dict | None) -> Observation:
        if status is None:
            status = self.api.get_driver_status(d.spec.driver_id)
        now = status["simulation_progress_minutes"]
        return Observation(
            driver_id=d.spec.driver_id, now=float(now), horizon=float(self.horizon),
            position=Point(status["current_lat"], status["current_lng"]),
            cost_per_km=d.spec.cost_per_km, income=d.income, orders=d.orders,
            empty_km=d.empty_km, loaded_km=d.loaded_km, query_budget_left=10**6,
            last_search=d.last_search, last_search_time=d.last_search_time,
            last_outcome=d.last_outcome)

    def _search(self, d: _Driver, a: Search, obs: Observation) -> None:
        lat = obs.position.lat if a.lat is None else a.lat
        lng = obs.position.lng if a.lng is None else a.lng
        got = self.api.query_cargo(d.spec.driver_id, lat, lng)
        if d.rules is not None:
            for it in got["items"]:
                d.rules.add_cargo(it.get("cargo") or {}, price_in_yuan=True)
        views = tuple(v for it in got["items"]
                      if (v := self._view(it, int(obs.now))) is not None)
        d.views.update((v.cargo_id, v) for v in views)
        best = max((v.route(self.geo, obs.position, d.spec.cost_per_km)[0] for v in views),
                   default=0.0)
        d.bus.publish(SearchDone(obs.now, d.spec.driver_id, lat, lng, 0.0,
                                 math.ceil(len(got["items"]) / 10), 10**6, views,
                                 best_net=best))
        d.last_search, d.last_search_time = views, obs.now
        d.last_outcome = Outcome(OutcomeKind.SEARCHED, amount=len(views))

    def _view(self, item: dict, now: int) -> CargoView | None:
        """`cargo_view`, parsed once per cargo id (queries answer the same cargo again and
        again); a cargo with no loading window opens it at `now`."""
        cid = item["cargo"].get("cargo_id")
        got = self._views.get(cid, False)
        if got is False:
            got = self._views[cid] = cargo_view(item, now)
        if got is not None and item["cargo"].get("load_time") is None:
            got = dataclasses.replace(got, load_start=float(now))
        return got

    def _publish(self, d: _Driver, t: float, dec: Decision) -> None:
        a = dec.action
        params: dict[str, Any] = {}
        if isinstance(a, Wait):
            params["minutes"] = a.minutes
        elif isinstance(a, Reposition):
            params.update(lat=a.lat, lng=a.lng)
        if dec.short_plan:
            params["short_plan"] = dec.short_plan
        d.bus.publish(ActionChosen(t, d.spec.driver_id, a.name,
                                   a.cargo_id if isinstance(a, TakeOrder) else None, params,
                                   dec.reason or None))

    def decide(self, driver_id: str) -> dict:
        try:
            return self._decide(driver_id)
        finally:
            self._count_usage(driver_id)

    def _decide(self, driver_id: str) -> dict:
        d = self._driver(driver_id)
        hist = self.api.query_decision_history(driver_id, 1)
        if hist["total_steps"] > d.seen_steps:
            for rec in hist["records"]:
                self._absorb(d, rec)
            d.seen_steps = hist["total_steps"]
        for _ in range(MAX_SEARCHES_PER_STEP):
            obs = self._observe(d, None)
            dec = d.policy.decide(obs)
            self._publish(d, obs.now, dec)
            a = dec.action
            if isinstance(a, Search):
                self._search(d, a, obs)
                continue
            return official_action(dec)
        return {"action": "wait", "params": {"duration_minutes": 1},
                "reason": "searched enough this step"}


def official_action(dec: Decision) -> dict:
    a = dec.action
    if isinstance(a, TakeOrder):
        out = {"action": "take_order", "params": {"cargo_id": a.cargo_id}}
    elif isinstance(a, Reposition):
        out = {"action": "reposition", "params": {"latitude": a.lat, "longitude": a.lng}}
    else:
        minutes = max(1, math.ceil(a.minutes)) if math.isfinite(a.minutes) else 60
        out = {"action": "wait", "params": {"duration_minutes": minutes}}
    if dec.reason:
        out["reason"] = dec.reason
    return out
