"""Penalty models (§7.4) with each scoring version's cap semantics (§7.1), and the registry."""

from __future__ import annotations

import pytest

from sim.official.penalties import (
    apply_cap,
    p_count,
    p_event,
    p_km,
    p_must_take,
    p_once,
    p_short,
)
from sim.official.versions import ScoringVersion, settings_for
from sim.preferences.kinds import (
    REGISTRY,
    ParamsError,
    RuleContext,
    build_rule,
    kind_names,
    params_schema,
    preference_schema,
)

S1, S2, S3, S4 = (settings_for(v) for v in ScoringVersion)


def test_p_count_cap_per_version():
    # 3 violations at 100 each, cap 250.
    assert p_count(3, 100, 250, S1) == 250
    assert p_count(3, 100, 250, S2) == 250
    assert p_count(3, 100, 250, S3) == 250
    assert p_count(3, 100, 250, S4) == 300  # S4 never applies the cap
    for s in (S1, S2, S3, S4):
        assert p_count(3, 100, None, s) == 300  # null cap = uncapped


def test_zero_cap_s2_uncapped_unless_the_rule_says_literal_s3_gives_zero():
    assert p_count(3, 100, 0, S2) == 300
    assert p_count(3, 100, 0, S2, zero_cap_uncapped=False) == 0
    assert p_count(3, 100, 0, S3) == 0
    assert p_count(3, 100, 0, S4) == 300


def test_p_km_caps_like_p_count():
    assert p_km(12.5, 2.0, 20.0, S3) == 20.0
    assert p_km(12.5, 2.0, 0.0, S2) == 25.0
    assert p_km(12.5, 2.0, 20.0, S4) == 25.0


def test_p_once_charge_per_version():
    assert p_once(False, 100, 80, S3) == 0
    assert p_once(True, 100, 80, S1) == 100
    assert p_once(True, 100, 80, S2) == 80  # C if non-zero
    assert p_once(True, 100, 0, S2) == 100  # else A
    assert p_once(True, 100, None, S2) == 100
    assert p_once(True, 100, 80, S3) == 80  # min(A, C)
    assert p_once(True, 100, 150, S3) == 100
    assert p_once(True, 100, None, S3) == 100
    assert p_once(True, 100, 80, S4) == 100  # A


def test_p_short_p_event_and_must_take():
    assert p_short(3, 40) == 120
    assert p_event(30, 2.0, False, 500, None) == 60
    assert p_event(30, 2.0, True, 500, None) == 560
    assert p_event(30, 2.0, True, 500, 100) == 100
    assert p_must_take(True, 500, None) == 500
    assert p_must_take(True, 500, 300) == 300
    assert p_must_take(True, 500, 0) == 500  # "C or infinity": a zero cap is no cap
    assert p_must_take(False, 500, 300) == 0


def test_s3_k5_ignores_the_cap_but_k6_does_not():
    ctx5 = RuleContext(S3, 31, "forbidden_cargo_category")
    ctx6 = RuleContext(S3, 31, "forbidden_cargo_place")
    k5 = build_rule("forbidden_cargo_category", {"categories": ["煤炭矿产"]})
    k6 = build_rule("forbidden_cargo_place", {"place": "东莞"})
    assert k5.penalty({"violations": 4}, 100, 150, ctx5) == 400
    assert k6.penalty({"violations": 4}, 100, 150, ctx6) == 150
    assert apply_cap(400, 150, S2, exempt=True) == 400


def test_registry_names_numbers_and_schema():
    names = kind_names()
    assert len(names) == 24
    assert [REGISTRY[n].number for n in names] == list(range(1, 25))
    assert preference_schema()["properties"]["kind"]["enum"] == names
    s = params_schema("route_stops_on_day")
    assert s["required"] == ["date", "stops"]
    assert s["properties"]["stops"]["items"]["required"] == ["lat", "lng", "arrive_by"]


@pytest.mark.parametrize(("kind", "params", "field"), [
    ("daily_continuous_rest", {"min_minutes": "eight"}, "min_minutes"),
    ("daily_continuous_rest", {"min_minutes": 60, "days": "sundays"}, "days"),
    ("quiet_window", {"start": "25:00", "end": "06:00"}, "start"),
    ("home_by_curfew", {"lat": 22.5, "lng": 114.0, "curfew": "22:00"}, "quiet_until"),
    ("stay_inside_bbox", {"lat_min": 23, "lat_max": 22, "lng_min": 113, "lng_max": 114},
     "lat_min"),
    ("date_region_avoid", {"dates": ["2026-3-2"], "place": "东莞"}, "dates[0]"),
    ("route_stops_on_day", {"date": "2026-03-02", "stops": [{"lat": 22.5, "lng": 114.0}]},
     "stops[0].arrive_by"),
    ("monthly_category_quota", {"category": "水果", "month": "2026-04", "min_orders": 2,
                                "carry_from": {"category": "蔬菜", "month": "March",
                                               "min_orders": 1}}, "carry_from.month"),
    ("home_stay_event", {"w0": "2026-03-01 08:00"}, "w0"),
    ("max_haul_km", {"max_km": 100, "unit": "km"}, "unit"),
])
def test_params_errors_name_the_field(kind, params, field):
    with pytest.raises(ParamsError) as err:
        build_rule(kind, params)
    assert str(err.value).startswith(f"{kind}.{field}:")


def test_params_round_trip_and_defaults():
    p = {"category": "水果", "month": "2026-04", "min_orders": 2,
         "carry_from": {"category": "蔬菜", "month": "2026-03", "min_orders": 3}}
    rule = build_rule("monthly_category_quota", p)
    assert rule.params.to_dict() == p
    k17 = build_rule("min_visit_days", {"lat": 22.5, "lng": 114.0, "min_days": 3})
    assert k17.params.radius_km == 1.0
    k22 = build_rule("dwell_at_point_on_day", {"date": "2026-03-02", "lat": 22.5, "lng": 114.0,
                                               "min_dwell_minutes": 60})
    assert k22.params.radius_km == 2.0
    for name, cls in REGISTRY.items():
        assert cls.__module__.endswith(f"k{cls.number:02d}_{name}")
