"""A rest taken to keep a capped rule is booked against it: once resting out every day would
cost more over the month than the rule's cap can, the rule is broken knowingly. (Failure class
"rests for a capped fine": at fine_weight 2.5 a driver rested ten hours at midday each day for
a daily rest capped at 3,000 a month, and earned 20k less than the memory-off greedy.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.memory_agent import MemoryAgent, rule_filter
from memory.rule_progress import RuleProgress, rules_from_entries
from memory.step_state import StepState
from memory.time_price import UNPRICED
from memory.views import Candidate
from sim.geo import Geography, Point
from sim.scenario import DriverSpec, load_scenario
from sim.world.actions import Observation, Outcome, OutcomeKind
from sim.world.cargo import CargoView
from sim.world.events import EventBus
from sim.world.order_costs import Option
from tests.competition_logs import LogBuilder, cargo_row
from tests.test_rule_progress import CARGO, pref
from tests.test_scoring_run import HOME, NORTH

ROOT = Path(__file__).resolve().parents[1]
DAYS = 31


def rested_agent(cap: float | None, weight: float = 1.0, budget: float | None = None,
                 amount: float = 200.0) -> tuple[MemoryAgent, int]:
    """A driver with a daily 10-hour rest rule (`amount` a day, `cap` a month) who drives
    early on day 1 and then rests the ten hours the rule asks for; the agent's index for that
    rule."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        policy={"fine_weight": weight, "compliance_budget": budget}, scenario={"days": DAYS})
    entries = [pref("daily_continuous_rest", {"min_minutes": 600, "days": "all"},
                    amount=amount, cap=cap)]
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version="S2", parser=None),
                      n_days=DAYS, version="S2", initial=Point(*HOME))
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(rp)
    b = LogBuilder("d1", *HOME, CARGO).wait(1440 + 3 * 60).reposition(*NORTH)  # 3 h rested
    for rec in b.records:
        rp.on_step(rec)

    def obs(t: float, done: Outcome) -> Observation:
        return Observation("d1", float(t), DAYS * 1440.0, Point(b.lat, b.lng), 1.5, 0.0, 0,
                           0.0, 0.0, 10, last_outcome=done)

    state = agent.refresh(obs(b.t, Outcome()))
    minutes = next(r.minutes for r in state.rests if r.minutes == 600)
    b.wait(minutes)
    rp.on_step(b.records[-1])
    agent.refresh(obs(b.t, Outcome(OutcomeKind.WAITED, amount=float(minutes))))
    return agent, rp.rules[0].index


def test_a_rest_is_booked_against_the_capped_rule_it_kept():
    agent, i = rested_agent(cap=100_000.0)
    assert agent.forgone.get(i, 0.0) > 0  # the rest's minutes, at the driver's rate
    assert i not in agent.rules.waived  # a month of such rests costs less than the cap


def test_a_capped_rule_not_worth_a_month_of_rests_is_waived():
    agent, i = rested_agent(cap=400.0)
    assert i in agent.rules.waived
    agent_heavy, j = rested_agent(cap=400.0, weight=100.0)  # fines weigh a hundredfold
    assert j not in agent_heavy.rules.waived


def test_a_spent_compliance_budget_weighs_fines_at_their_amount_again():
    """`[policy] compliance_budget`: what rests for rules forgo beyond the fines they avoid is
    bounded by a share of the driver's earnings; once spent, the weight falls back to 1."""
    spent, i = rested_agent(cap=400.0, weight=100.0, budget=0.0)
    assert spent.overspent > 0  # ten hours forgone against a 200 fine
    assert spent.fine_weight() == 1.0
    assert i in spent.rules.waived  # as at weight 1
    room, j = rested_agent(cap=400.0, weight=100.0, budget=10.0)
    assert room.fine_weight() == 100.0
    assert j not in room.rules.waived


def test_a_night_kept_at_any_price_is_priced_at_face():
    """Failure class "a night kept at any price": a fine per day with no cap is never waived,
    and at `fine_weight` 3 a quiet window kept every night forwent seven times its fine. Once
    what keeping such a rule forwent per day passes its weighed fine, the rule weighs its
    amount (weight 1) from then on; the other rules keep the step's weight."""
    cheap, i = rested_agent(cap=None, weight=3.0, amount=100.0)
    # ten hours forgone over about a day and a half: ~380 a day, dear against 3 x 100 a day
    assert cheap.forgone[i] > 3.0 * 100.0
    assert cheap.at_face == {i}
    assert cheap.fine_weight() == 3.0  # the step's weight is unchanged ...
    assert cheap.weigh({i: 100.0, i + 1: 100.0}, 3.0) == pytest.approx(400.0)  # ... but i's 1
    heavy, j = rested_agent(cap=None, weight=100.0, amount=100.0)
    assert heavy.at_face == set()
    assert heavy.weigh({j: 100.0}, 100.0) == pytest.approx(10_000.0)
    assert rested_agent(cap=None, weight=1.0, amount=100.0)[0].at_face == set()  # nothing to undo
    capped, _ = rested_agent(cap=400.0, weight=3.0, amount=100.0)  # a cap: waived instead
    assert capped.at_face == set()


def test_a_take_fined_by_a_rule_at_face_weighs_its_fine_once():
    """`rule_filter` weighs rule by rule: a rule at face costs its amount, the rest `w` each."""
    agent = pushed_aside(3.0)
    rp = agent.rules
    view = {"fruit": 1000.0, "veg": 860.0}
    pairs = []
    for cid, price in view.items():
        cv = CargoView(cid, Point(*HOME), Point(*NORTH), price, 0.0, 600.0, 1440.0, 60.0, 50.0)
        pairs.append((Candidate(cv, price, 0.0), Option(cv, 0.0, 0.0, 60.0, price)))
    i = rp.rules[0].index
    weighed = {c.cargo.cargo_id: o.net for c, o in
               rule_filter(rp, pairs, 0.0, Point(*HOME), 0.0, fine_weight=3.0)}
    at_face = {c.cargo.cargo_id: o.net for c, o in
               rule_filter(rp, pairs, 0.0, Point(*HOME), 0.0, fine_weight=3.0,
                           at_face=frozenset({i}))}
    assert weighed["fruit"] == pytest.approx(1000.0 - 300.0)
    assert at_face["fruit"] == pytest.approx(1000.0 - 100.0)
    assert weighed["veg"] == at_face["veg"] == pytest.approx(860.0)


def pushed_aside(weight: float) -> MemoryAgent:
    """A driver whose best take is fruit, fined 100 by a no-fruit rule, beside a vegetable take
    worth 140 less: at face value the fruit still pays 40 more; weighed `weight`-fold the rule
    pushes it aside. The agent after one step weighing the two."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        policy={"fine_weight": weight, "compliance_budget": 0.5}, scenario={"days": DAYS})
    entries = [pref("forbidden_cargo_category", {"categories": ["水果"]}, amount=100.0)]
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version="S2", parser=None),
                      n_days=DAYS, version="S2", initial=Point(*HOME))
    rows = [cargo_row("fruit", HOME, NORTH, category="水果", price=100_000),
            cargo_row("veg", HOME, NORTH, category="蔬菜", price=86_000)]
    for r in rows:
        rp.add_cargo(r)
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(rp)
    pairs = []
    for cid, price in (("fruit", 1000.0), ("veg", 860.0)):
        view = CargoView(cid, Point(*HOME), Point(*NORTH), price, 0.0, 600.0, 1440.0, 60.0,
                         50.0)
        pairs.append((Candidate(view, price, 0.0), Option(view, 0.0, 0.0, 60.0, price)))
    kept = rule_filter(rp, pairs, 0.0, Point(*HOME), 0.0, fine_weight=agent.fine_weight())
    agent.weigh_rules(pairs, kept, rp.states(0.0, Point(*HOME)), 0.0, Point(*HOME), UNPRICED,
                      0.0)
    return agent


def test_a_take_pushed_aside_by_weighted_fines_spends_the_compliance_budget():
    """Keeping a rule by passing over a take is spent from the budget as a rest is: what the
    take would have earned beyond its fine at face value (1,000 - 100 - 860 = 40 here). At
    weight 1 nothing is pushed aside that pays more after its fine, so nothing is spent."""
    heavy = pushed_aside(3.0)
    assert heavy.overspent == pytest.approx(40.0)
    assert heavy.forgone  # and the gap is booked against the rule, as before
    assert pushed_aside(1.0).overspent == 0.0


def drive_for(entries: list[dict], at: int) -> tuple[MemoryAgent, StepState, float]:
    """A driver at NORTH at minute `at` with the rules `entries` (weight 2.5, budget 0.2):
    the step's priced state, then the budget spent once it drove to the due rule's point."""
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml").with_overrides(
        policy={"fine_weight": 2.5, "compliance_budget": 0.2}, scenario={"days": DAYS})
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version="S2", parser=None),
                      n_days=DAYS, version="S2", initial=Point(*HOME))
    agent = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                        DriverSpec("d1", *HOME), sc, EventBus(), None)
    agent.attach_rules(rp)
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait_until(at)
    for rec in b.records:
        rp.on_step(rec)

    def obs(done: Outcome) -> Observation:
        return Observation("d1", float(b.t), DAYS * 1440.0, Point(b.lat, b.lng), 1.5, 0.0, 0,
                           0.0, 0.0, 10, last_outcome=done)

    state = agent.refresh(obs(Outcome()))
    assert state.todo is not None
    assert state.todo.action == "go"
    b.reposition(state.todo.lat, state.todo.lng)
    rp.on_step(b.records[-1])
    agent.refresh(obs(Outcome(OutcomeKind.REPOSITIONED)))
    return agent, state, agent.overspent


def test_the_drive_home_for_a_curfew_spends_the_compliance_budget():
    """A curfew is kept by a drive home and the night there: the night is booked as a rest
    is, the drive (its hours at the flat rate and its km) is spent from the budget when the
    driver follows it. Before, a driver whose budget should have run out kept driving home
    every evening and ended the month below the memory-off greedy. What the way home is worth
    is all the night there keeps, the curfew and the quiet window."""
    entries = [pref("home_by_curfew", {"lat": HOME[0], "lng": HOME[1], "radius_km": 1.0,
                                       "curfew": "23:00", "quiet_until": "07:00"},
                    amount=500.0),
               pref("quiet_window", {"start": "23:30", "end": "05:00", "count": "per_day"},
                    amount=300.0)]
    _, state, spent = drive_for(entries, 22 * 60 + 30)
    assert state.todo.cost > 7 * 60 * state.time_price.rate * min(state.time_price.factors)
    # the night at home keeps the quiet window too: both fines are at stake, weighed 2.5
    assert state.todo.at_stake == pytest.approx(2.5 * (500 + 300))
    assert spent > 0  # the drive's minutes and km; the fine is credited at the night's rest


def test_a_drive_that_keeps_its_fine_by_itself_spends_only_what_it_costs_beyond():
    """A drive back into a city box keeps its fine the moment it arrives (no rest follows):
    the budget is spent only by what the drive costs beyond that fine, here nothing."""
    box = pref("stay_inside_bbox", {"lat_min": 22.40, "lat_max": 22.60, "lng_min": 113.95,
                                    "lng_max": 114.15}, amount=2000.0)
    _, state, spent = drive_for([box], 10 * 60)
    assert state.todo.cost < state.todo.at_stake / 2.5  # a short drive, a big fine
    assert spent == 0.0
