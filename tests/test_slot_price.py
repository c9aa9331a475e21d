"""A capped driver's takes are priced by the order slot as well as the hour (`SlotPrice`).

Failure class "a capped day filled with short orders": under a daily order cap (K15) the
scarce thing is the order slot, not the hour, yet a take was charged only its hours at the
driver's own net per working minute, which short orders make high. A blind driver with a cap
of two (BA08, east market, S4) took 78 orders at 1,089 of gross each where the greedy took 51
at 1,696, and ended 1,425 below its floor. A capped driver's take is now charged its hours or
`[policy] slot_share` of the day over the cap, whichever is longer."""

from __future__ import annotations

import pytest

from memory.memory_agent import MemoryAgent
from memory.time_price import SlotPrice, TimePrice
from sim.geo import Geography
from sim.official.timebase import DAY
from sim.scenario import DriverSpec, load_scenario
from sim.world.events import EventBus
from tests.competition_logs import LogBuilder
from tests.test_deadhead_pacing import ROOT
from tests.test_order_slots_and_stops import CAP, SLOT_CARGO, Opt
from tests.test_rule_progress import pref, progress
from tests.test_scoring_run import HOME

FLAT_RATE = TimePrice(1.0)


def test_a_take_is_charged_its_hours_or_its_slot_whichever_is_longer():
    slot = SlotPrice(1.0, FLAT_RATE.factors, slot_minutes=360.0)
    short, long_ = Opt(net=500.0, finish=120.0), Opt(net=800.0, finish=600.0)
    # by the hour the short take is worth more (380 against 200)
    assert FLAT_RATE.value(short, 0.0) == pytest.approx(380.0)
    assert FLAT_RATE.value(long_, 0.0) == pytest.approx(200.0)
    # by the slot it uses, the short take is charged 360 minutes, the long one its own 600
    assert slot.value(short, 0.0) == pytest.approx(140.0)
    assert slot.value(long_, 0.0) == pytest.approx(200.0)
    assert slot.value(long_, 0.0) > slot.value(short, 0.0)
    # rests and drives are priced by their minutes alone, as before
    assert slot.cost(0.0, 60.0) == FLAT_RATE.cost(0.0, 60.0)
    # and the views say so, beside the rate
    assert slot.lines() == [*TimePrice(1.0).lines(),
                            "a take is charged at least 360 min (its slot under the daily "
                            "order cap)"]


def agent(entries: list[dict], slot_share: float | None = None) -> MemoryAgent:
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml")
    if slot_share is not None:
        sc = sc.with_overrides(policy={"slot_share": slot_share})
    b = LogBuilder("d1", *HOME, SLOT_CARGO).wait(10)
    a = MemoryAgent("cargo-market-driver", Geography.guangdong(detour_factor=1.0),
                    DriverSpec("d1", *HOME), sc, EventBus(), None)
    a.attach_rules(progress(entries, b, SLOT_CARGO))
    return a


def test_a_capped_driver_prices_by_the_slot_of_its_tightest_cap():
    a = agent([CAP, pref("max_orders_per_day", {"max_orders": 4}, amount=100)])
    got = a.slot_price(TimePrice(1.3))
    assert isinstance(got, SlotPrice)
    assert got.rate == 1.3
    assert got.slot_minutes == pytest.approx(0.5 * DAY / 2)  # the default share, cap 2
    assert agent([CAP], slot_share=1.0).slot_price(TimePrice(1.3)).slot_minutes == DAY / 2


def test_no_cap_a_waived_cap_no_share_or_no_price_leave_the_price_as_it_was():
    tp = TimePrice(1.3)
    assert agent([pref("max_haul_km", {"max_km": 500})]).slot_price(tp) is tp
    waived = agent([CAP])
    assert waived.rules is not None
    waived.rules.waive(waived.rules.rules[0].index)
    assert waived.slot_price(tp) is tp
    assert agent([CAP], slot_share=0.0).slot_price(tp) is tp
    unpriced = TimePrice(0.0)
    assert agent([CAP]).slot_price(unpriced) is unpriced
