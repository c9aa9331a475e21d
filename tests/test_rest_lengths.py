"""A rest never runs longer than the rule needs: the time rules offer the rest lengths that end
just as they are kept (a night window's end, a daily rest's minimum, a curfew's quiet time),
and a driver about to rest for a night window waits exactly to its end."""

from __future__ import annotations

from memory.rule_progress import RuleProgress, rules_from_entries
from sim.geo import Point
from tests.competition_logs import LogBuilder
from tests.test_rule_progress import CARGO, DAYS, pref
from tests.test_scoring_run import HOME, NORTH


def lengths(entries: list[dict], builder: LogBuilder) -> tuple[int, ...]:
    rp = RuleProgress(rules_from_entries(entries, n_days=DAYS, version="S4", parser=None),
                      n_days=DAYS, version="S4", initial=Point(*HOME))
    for rec in builder.records:
        rp.on_step(rec)
    return rp.rest_lengths(builder.t, Point(builder.lat, builder.lng))


def test_a_night_window_offers_the_rest_to_its_end():
    e = [pref("rest_window_full_coverage", {"start": "23:00", "end": "06:00"})]
    b = LogBuilder("d1", *HOME, CARGO).wait(21 * 60 + 5)  # 21:05 on day 0
    assert lengths(e, b) == (535,)  # to 06:00, not the next round hour count
    b.wait(3 * 60)  # 00:05, inside the window: to its end
    assert lengths(e, b) == (355,)


def test_a_quiet_window_far_ahead_offers_nothing_yet():
    e = [pref("quiet_window", {"start": "21:30", "end": "06:30", "count": "per_day"})]
    b = LogBuilder("d1", *HOME, CARGO).wait(7 * 60)  # 07:00: tonight's window is 14.5 h away
    assert lengths(e, b) == ()


def test_a_daily_rest_offers_what_is_left_of_today_then_tomorrows_stretch():
    e = [pref("daily_continuous_rest", {"min_minutes": 600, "days": "all"})]
    b = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait(13 * 60)  # 13 h resting
    assert lengths(e, b) == (24 * 60 - b.t + 600,)  # today kept: tomorrow's 00:00-10:00
    b2 = LogBuilder("d1", *HOME, CARGO).wait(240).reposition(*NORTH)
    need = 600  # the reposition broke the run: a whole stretch from now
    assert lengths(e, b2) == (need,)


def test_a_curfew_offers_the_quiet_time_only_at_home():
    e = [pref("home_by_curfew", {"lat": HOME[0], "lng": HOME[1], "radius_km": 1.0,
                                 "curfew": "23:00", "quiet_until": "07:00"})]
    b = LogBuilder("d1", *HOME, CARGO).wait(21 * 60)  # 21:00 at home
    assert lengths(e, b) == (600,)  # to 07:00
    away = LogBuilder("d1", *HOME, CARGO).reposition(*NORTH).wait(20 * 60)
    assert lengths(e, away) == ()
