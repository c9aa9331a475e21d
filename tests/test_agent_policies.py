"""Each agent's deterministic policy on its own: a hand-built view in, the answer out.

These are the answers the `deterministic` backend gives and the fallback every model call ends
in, so each is pinned down here without a world, a memory or a model.
"""

from __future__ import annotations

import h3
import pytest

from agents.llm.calls import AgentCaller, CallContext
from agents.roles.cargo_analyst import CargoAnalystAgent, Ranking
from agents.roles.main_decision import MainDecisionAgent
from agents.roles.preference_agent import PreferenceAdvice, PreferenceAgent
from agents.roles.search_agent import SearchAdvice, SearchAgent
from memory.driver_memory import ActionRecord
from memory.market_memory import GridFact
from memory.rule_progress import RuleProgress, rules_from_entries
from memory.tokens import TokenCounter
from memory.views import (
    COMPACT,
    CargoAnalysisView,
    MainDecisionView,
    PreferenceView,
    SearchView,
)
from sim.geo import Geography, Point
from sim.official.timebase import DAY
from sim.world.cargo import CargoView
from sim.world.order_costs import evaluate

GUANGZHOU = Point(23.129, 113.264)
# K3 as a scenario or drivers file states it: no orders or moves from 22:00 to 06:00
QUIET = {"content": "22点到6点之间不接单不挪车", "penalty_amount": 100, "penalty_cap": 1000,
         "structured": {"kind": "quiet_window",
                        "params": {"start": "22:00", "end": "06:00", "count": "per_day"}}}


@pytest.fixture(scope="module")
def geo() -> Geography:
    return Geography.guangdong()


def _caller() -> AgentCaller:
    return AgentCaller("deterministic", None, TokenCounter(), lambda r: None)


def _grid(cell: str, value: float, streak: int = 0, last_t: float = -1.0) -> GridFact:
    lat, lng = h3.cell_to_latlng(cell)
    return GridFact(cell, lat, lng, value, 1 if last_t >= 0 else 0, 0.0, value, streak,
                    last_t >= 0, last_t)


def _cargo(cid: str, price: float) -> CargoView:
    return CargoView(cid, Point(23.13, 113.27), Point(22.55, 114.06), price, 30.0, 600.0,
                     600.0, 180.0, 130.0)


# -- preference ---------------------------------------------------------------------------
def _quiet_view(now: float) -> PreferenceView:
    """The preference view of a driver with K3 22:00-06:00 at `now`, from its RuleProgress."""
    rp = RuleProgress(rules_from_entries([QUIET], n_days=3), n_days=3,
                      initial=Point(GUANGZHOU.lat, GUANGZHOU.lng))
    pos = Point(GUANGZHOU.lat, GUANGZHOU.lng)
    states = rp.states(now, pos)
    return PreferenceView(mode="bounded", now=now,
                          rule_lines=tuple(r.status_line() for r in states),
                          todo_action=rp.todo(now, pos))


def test_preference_waits_out_a_quiet_window_then_has_nothing_due() -> None:
    late = _quiet_view(DAY + 23 * 60)
    out = PreferenceAgent.deterministic(late)
    assert out["wait_minutes"] == 7 * 60  # 23:00 -> 06:00, the rule's own todo
    assert out["go"] is False
    assert "#1 quiet_window [due]" in late.render()
    noon = _quiet_view(DAY + 12 * 60)
    assert PreferenceAgent.deterministic(noon)["reason"] == "nothing due"
    assert "#1 quiet_window [ok]" in noon.render()


# -- search -------------------------------------------------------------------------------
def test_search_stays_here_while_it_holds_value_else_goes_to_the_best_neighbour() -> None:
    here_cell = h3.latlng_to_cell(GUANGZHOU.lat, GUANGZHOU.lng, 5)
    other = next(c for c in h3.grid_ring(here_cell, 1))
    agent = SearchAgent(_caller(), 10.0, 30.0)

    def view(here_value: float, budget: int = 10) -> SearchView:
        here, best = _grid(here_cell, here_value), _grid(other, 400.0)
        return SearchView(mode="bounded", now=600.0, position=GUANGZHOU, budget_left=budget,
                          here=here, nearby=tuple(sorted((here, best), key=lambda g: -g.value)))

    assert agent.deterministic(view(300.0))["grid"] == "here"  # at least half the best
    assert agent.deterministic(view(100.0))["grid"] == other
    assert agent.deterministic(view(300.0, budget=0))["search"] is False


# -- cargo analyst ------------------------------------------------------------------------
def test_analyst_ranks_the_feasible_options_by_net(geo: Geography) -> None:
    prices = {"C1": 900.0, "C2": 2000.0, "C3": 1500.0}
    opts = tuple(evaluate(geo, _cargo(c, p), GUANGZHOU, 0.0, 1.5) for c, p in prices.items())
    out = CargoAnalystAgent.deterministic(CargoAnalysisView(mode="bounded", now=0.0, feasible=opts))
    assert out["ranked"] == ["C2", "C3", "C1"]
    assert out["reason"] == "3 feasible of 0"
    assert CargoAnalystAgent.constraints({"preference": PreferenceAdvice(30.0, None, "")}) == {
        "wait_minutes": 30}
    assert CargoAnalystAgent.constraints({}) is None


# -- main decision ------------------------------------------------------------------------
def test_main_follows_preference_then_takes_the_best_ranked_order(geo: Geography) -> None:
    agent = MainDecisionAgent(_caller(), geo, 30.0)
    view = MainDecisionView(mode="bounded", now=600.0, position=GUANGZHOU)
    no_search = SearchAdvice(False, 0.0, 0.0, 10.0, "")
    best = evaluate(geo, _cargo("C2", 2000.0), GUANGZHOU, 600.0, 1.5)
    ranked = Ranking((best,), "")
    rest = PreferenceAdvice(45.0, None, "night")
    assert agent.deterministic(view, rest, no_search, ranked)["action"] == "wait"
    free = PreferenceAdvice(0.0, None, "")
    got = agent.deterministic(view, free, no_search, ranked)
    assert (got["action"], got["cargo_id"]) == ("take_order", "C2")
    idle = agent.deterministic(view, free, no_search, Ranking((), ""))
    assert (idle["action"], idle["minutes"]) == ("wait", 30.0)


def test_a_rest_is_held_against_a_take_with_its_fines_counted_once(geo: Geography) -> None:
    """Failure class "a rest valued twice": a take's net already carries the fine it adds over
    resting (the cargo analyst's ranking, after `rule_filter`), and that same fine is the
    rest's saving. Held against each other, the fine counts once: a rest forgoing 300 to
    keep a 500 fine loses to a take still worth 100 after that fine (before, 500 - 300 = 200
    beat it), and beats one worth less than -300 after it."""
    import dataclasses

    from memory.views import RestOption

    agent = MainDecisionAgent(_caller(), geo, 30.0)
    no_search = SearchAdvice(False, 0.0, 0.0, 10.0, "")
    free = PreferenceAdvice(0.0, None, "nothing due")
    view = MainDecisionView(mode="bounded", now=600.0, position=GUANGZHOU,
                            rests=(RestOption(600, saving=500.0, cost=300.0),))
    base = evaluate(geo, _cargo("C2", 2000.0), GUANGZHOU, 600.0, 1.5)
    for net, want in ((100.0, "take_order"), (-250.0, "take_order"), (-350.0, "wait")):
        ranked = Ranking((dataclasses.replace(base, net=net),), "")
        assert agent.deterministic(view, free, no_search, ranked)["action"] == want, net
    # a rest that itself breaks a rule the take is charged for (a curfew out of reach from
    # here) carries that fine too: forgoing 300 and breaking 500, it loses to a take at -600
    fined = MainDecisionView(mode="bounded", now=600.0, position=GUANGZHOU,
                             rests=(RestOption(600, saving=500.0, cost=300.0, fines=500.0),))
    ranked = Ranking((dataclasses.replace(base, net=-600.0),), "")
    assert agent.deterministic(view, free, no_search, ranked)["action"] == "wait"
    assert agent.deterministic(fined, free, no_search, ranked)["action"] == "take_order"
    # the same for a due rule's own wait: 500 kept for 300 forgone, against a take worth 100
    due = PreferenceAdvice(600.0, None, "quiet window", at_stake=500.0, cost=300.0)
    ranked = Ranking((dataclasses.replace(base, net=100.0),), "")
    assert agent.deterministic(MainDecisionView(mode="bounded", now=600.0, position=GUANGZHOU),
                               due, no_search, ranked)["action"] == "take_order"
    assert due.value == 200.0
    assert due.beside_takes == -300.0
    # advice without a price (a model's own wait) is followed over the take
    assert PreferenceAdvice(45.0, None, "night").beside_takes == float("inf")


def test_main_inputs_are_each_advice_in_its_own_terms(geo: Geography) -> None:
    best = evaluate(geo, _cargo("C2", 2000.0), GUANGZHOU, 600.0, 1.5)
    advice = {"preference": PreferenceAdvice(0.0, None, "nothing due"),
              "search": SearchAdvice(True, 23.1, 113.3, 10.0, "r", "here"),
              "cargo_analyst": Ranking((best,), "")}
    full = MainDecisionAgent.inputs(MainDecisionView(mode="bounded", now=0.0), advice)
    assert set(full) == {"preference", "search", "ranked"}
    brief = MainDecisionAgent.inputs(MainDecisionView(mode="compressed", now=0.0,
                                                      renderer=COMPACT), advice)
    assert set(brief) == {"search", "ranked"}  # no preference advice: nothing said
    assert brief["search"] == {"grid": "here"}


def test_main_decision_runs_through_the_caller(geo: Geography) -> None:
    records: list = []
    caller = AgentCaller("deterministic", None, TokenCounter(), records.append)
    agent = MainDecisionAgent(caller, geo, 30.0)
    view = MainDecisionView(mode="bounded", now=600.0, position=GUANGZHOU,
                            recent_actions=(ActionRecord(500.0, "search", "", "0 found"),))
    advice = {"preference": PreferenceAdvice(0.0, None, ""),
              "search": SearchAdvice(False, 0.0, 0.0, 10.0, ""),
              "cargo_analyst": Ranking((), "")}
    d = agent.advise(view, advice, CallContext("D1", 1, 600.0, "bounded"))
    assert d.action.name == "wait"
    assert records[-1].agent == "main_decision"
    assert records[-1].prompt_tokens > 0


def test_a_market_move_past_a_spent_deadhead_budget_is_not_made(geo: Geography) -> None:
    """Failure class "market moves past a spent deadhead budget": a blind driver under S4
    (100 yuan a km over 1,200 km, no cap) shuttled 248 times between markets and paid 801,945.
    A move toward a better grid or a denser market is made only while what it adds in fines
    is at most what its driving is worth at the driver's rate (about a minute a km)."""
    from memory.rule_progress import EmptyKmFine
    from memory.time_price import TimePrice

    agent = MainDecisionAgent(_caller(), geo, 30.0)
    no_search = SearchAdvice(False, 0.0, 0.0, 10.0, "")
    free = PreferenceAdvice(0.0, None, "nothing due")
    far = h3.latlng_to_cell(23.40, 113.50, 6)  # about 38 km from Guangzhou
    base = {"mode": "bounded", "now": 600.0, "position": GUANGZHOU, "here_value": 100.0,
            "best_grid": _grid(far, 900.0), "waits_without_order": 2, "last_action": "wait",
            "time_price": TimePrice(1.5)}
    km = GUANGZHOU.km_to(*h3.cell_to_latlng(far))
    for empty_km, want in (((), "reposition"),  # no budget: moves are free
                           ((EmptyKmFine(0.0, 100.0),), "wait"),  # 100/km: stay
                           ((EmptyKmFine(km + 1.0, 100.0),), "reposition"),  # within budget
                           ((EmptyKmFine(0.0, 1.0),), "reposition")):  # 1/km < 1.5/min
        view = MainDecisionView(**base, empty_km=empty_km)
        got = agent.deterministic(view, free, no_search, Ranking((), ""))
        assert got["action"] == want, empty_km
    view = MainDecisionView(**base, empty_km=(EmptyKmFine(10.0, 100.0),))
    assert view.move_fine(*h3.cell_to_latlng(far)) == pytest.approx((km - 10.0) * 100.0)
    assert "empty km: 10 km of budget left, then 100/km in fines, no cap" in view.render()


def test_a_stuck_driver_with_no_move_that_pays_searches_once_a_wait(geo: Geography) -> None:
    """Failure class "a dry market searched twice a wait": a driver in an empty market at night
    searched two grids, waited 30 minutes and searched two more, all night (scenarios/month.toml
    seed 11: 90 repeated low-yield searches, 28 with this). Stuck and with no move that pays,
    it searches one grid and then waits; not stuck, it still looks at a second grid first."""
    from memory.rule_progress import EmptyKmFine
    from memory.time_price import TimePrice

    agent = MainDecisionAgent(_caller(), geo, 30.0)
    search = SearchAdvice(True, GUANGZHOU.lat, GUANGZHOU.lng, 30.0, "best nearby grid")
    free = PreferenceAdvice(0.0, None, "nothing due")
    # a spent deadhead budget at 100 a km: no move pays
    base = {"mode": "bounded", "now": 600.0, "position": GUANGZHOU,
            "empty_km": (EmptyKmFine(0.0, 100.0),), "time_price": TimePrice(1.5)}

    def act(**kw: object) -> str:
        view = MainDecisionView(**base, **kw)
        return agent.deterministic(view, free, search, Ranking((), ""))["action"]

    assert act(fruitless_searches=2, searches_in_row=0, last_action="wait") == "search"
    assert act(fruitless_searches=2, searches_in_row=1, last_action="search") == "wait"
    assert act(fruitless_searches=0, searches_in_row=1, last_action="search") == "search"
    assert act(fruitless_searches=0, searches_in_row=2, last_action="search") == "wait"
