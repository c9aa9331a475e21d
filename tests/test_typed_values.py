"""The one reader of typed values (sim/typed_values.py) that scenario tables, preference params
and the parsers' structured forms all go through: calendar-true formats, finite numbers, errors
that name the place, what was expected and what was found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest

from sim.typed_values import HHMM, Date, Month, Range, TypedValueError, Wall, convert

BAD = [
    (Month, "2026-13"), (Month, "2026-00"), (Wall, "2026-03-01 25:99:99"),
    (Wall, "2026-02-30 08:00:00"), (Date, "2026-02-30"), (Date, "2026-3-1"), (HHMM, "24:00"),
    (HHMM, "7:30"), (float, float("nan")), (float, float("inf")), (int, 2.5), (int, True),
    (float, "3"), (str, "   "), (str, "a\x00b"), (bool, 1), (Literal["a", "b"], "c"),
    (list[int], 5), (tuple[float, float], [1.0]),
]


@pytest.mark.parametrize(("tp", "value"), BAD)
def test_rejects_what_no_calendar_or_number_line_holds(tp: object, value: object) -> None:
    with pytest.raises(TypedValueError) as err:
        convert(value, tp, "params.x")
    assert err.value.where == "params.x"
    assert err.value.found is value
    assert str(err.value).startswith("params.x: expected ")


@pytest.mark.parametrize(("tp", "value", "want"), [
    (Month, "2026-12", "2026-12"), (Wall, "2026-03-31 23:59:59", "2026-03-31 23:59:59"),
    (Date, "2028-02-29", "2028-02-29"), (HHMM, "00:00", "00:00"), (int, 3.0, 3),
    (float, 2, 2.0), (str, " 水果 ", "水果"), (list[float], [1, 2.5], (1.0, 2.5)),
    (tuple[tuple[str, float], ...], {"a": 1, "b": 2.5}, (("a", 1.0), ("b", 2.5))),
    (int | None, None, None),
])
def test_reads_good_values_into_their_types(tp: object, value: object, want: object) -> None:
    got = convert(value, tp, "x")
    assert got == want
    assert type(got) is type(want)


def test_a_range_and_a_nested_object_name_the_inner_field() -> None:
    from typing import Annotated

    @dataclass(frozen=True)
    class Stop:
        lat: Annotated[float, Range(-90, 90)]

        @classmethod
        def from_dict(cls, d: dict, *, where: str) -> Stop:
            return cls(convert(d.get("lat"), Annotated[float, Range(-90, 90)], f"{where}.lat"))

    assert convert([{"lat": 23.1}], list[Stop], "stops") == (Stop(23.1),)
    with pytest.raises(TypedValueError, match=r"stops\[1\]\.lat: expected a value in \[-90, 90\]"):
        convert([{"lat": 23.1}, {"lat": 91}], list[Stop], "stops")


QUOTA = {"kind": "monthly_category_quota", "penalty_amount": 300,
         "params": {"category": "水果", "month": "2026-03", "min_orders": 3, "carry_from": None}}
HOME = {"kind": "home_stay_event", "penalty_amount": None, "params": {
    "w0": "2026-03-10 08:00:00", "w1": "2026-03-10 12:00:00", "w_end": "2026-03-11 08:00:00",
    "pickup_lat": 23.1, "pickup_lng": 113.3, "home_lat": 23.2, "home_lng": 113.4,
    "radius_km": 1.0, "min_pickup_dwell_minutes": 10, "rate_per_minute": 2.0}}


@pytest.mark.parametrize(("form", "key", "bad"), [
    (QUOTA, "month", "2026-13"), (HOME, "w1", "2026-03-10 25:99:99")])
def test_a_parsers_structured_form_is_checked_by_the_same_reader(form: dict, key: str,
                                                                  bad: str) -> None:
    """A model's reply (sim.preferences.schema.validate) and the scorer's kind (Params.from_dict)
    refuse the same impossible month and clock time, naming the field."""
    from sim.preferences.kinds import ParamsError, build_rule
    from sim.preferences.schema import InvalidPreferenceError, validate

    good = validate(form)
    assert good.params[key] == form["params"][key]
    build_rule(form["kind"], form["params"])
    broken = {**form, "params": {**form["params"], key: bad}}
    with pytest.raises(InvalidPreferenceError, match=rf"params\.{key}: expected"):
        validate(broken)
    with pytest.raises(ParamsError, match=rf"\.{key}: expected"):
        build_rule(form["kind"], broken["params"])
