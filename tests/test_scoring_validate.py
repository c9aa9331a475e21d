"""§6 validation (each abort cause), income rounding and the payment horizon H per version."""

from __future__ import annotations

import json

import pytest

from sim.official.cargo_index import index_cargo
from sim.official.income import compute_income
from sim.official.versions import settings_for
from sim.scoring.validate import LogContext, LogValidationError, validate_log
from tests.competition_logs import LogBuilder, cargo_row

HOME = (22.54, 114.05)
NORTH = (22.63, 114.05)
DG = (23.02, 113.75)
CARGO = [cargo_row("c1", NORTH, DG, window=(30, 200), cost_time=90, price=123_456),
         cargo_row("old", HOME, DG, remove=5)]


def good_log() -> LogBuilder:
    return LogBuilder("d1", *HOME, CARGO).wait(10, scan=3).reposition(22.60, 114.05) \
        .take("c1").take("old")


def check(records: list[dict], version: str = "S2", days: int = 31):
    ctx = LogContext(settings_for(version), index_cargo(CARGO), 60.0,
                     settings_for(version).horizon_days(days) * 1440)
    return validate_log([json.dumps(r, ensure_ascii=False) for r in records], ctx)


def test_a_correct_log_validates_and_sums_income_and_tokens():
    b = good_log()
    b.records[0]["token_usage"] = {"prompt_tokens": 5, "completion_tokens": 2,
                                   "reasoning_tokens": 1, "total_tokens": 7}
    out = check(b.records)
    assert out.gross_yuan == pytest.approx(1234.56)
    km = b.records[1]["result"]["distance_km"] + b.records[2]["result"]["pickup_deadhead_km"] \
        + b.records[2]["result"]["haul_distance_km"]
    assert out.distance_km == pytest.approx(km)
    assert out.tokens == {"prompt_tokens": 5, "completion_tokens": 2, "reasoning_tokens": 1,
                          "total_tokens": 7}


def _abort(records, version="S2", match=""):
    with pytest.raises(LogValidationError) as err:
        check(records, version)
    assert match in str(err.value)
    return err.value


@pytest.mark.parametrize(("mutate", "type_name", "match"), [
    (lambda r: r[0]["action"].update(action="sleep"), "ValueError", "unknown action"),
    (lambda r: r[0].update(action="wait"), "ValueError", "action must be an object"),
    (lambda r: r[0]["action"].update(params=[1]), "TypeError", "params must be an object"),
    (lambda r: r[0].update(position_before=None), "ValueError", "position_before"),
    (lambda r: r[1].update(result="ok"), "KeyError", "missing result"),
    (lambda r: r[0].update(token_usage=[1, 2]), "TypeError", "token_usage"),
    (lambda r: r[1].update(step_elapsed_minutes=-1), "ValueError", ">= 0"),
    (lambda r: r[1].pop("query_scan_cost_minutes"), "KeyError", "query_scan_cost_minutes"),
    (lambda r: r[0].update(step_elapsed_minutes=12), "ValueError", "scan 3 + exec 10"),
    (lambda r: r[1]["result"].update(simulation_progress_minutes=40), "ValueError",
     "previous end"),
    (lambda r: r[0].update(position_after={"lat": "22.5", "lng": 114.0}), "ValueError",
     "position_after"),
    (lambda r: r[0]["position_after"].update(lat=22.5402), "ValueError", "moved"),
    (lambda r: r[1]["position_after"].update(lat=22.61), "ValueError", "reposition target"),
    (lambda r: (r[1]["action"]["params"].update(latitude=22.70),
                r[1]["position_after"].update(lat=22.70)), "ValueError", "reposition exec"),
    (lambda r: r[3]["action"]["params"].update(cargo_id="nope"), "KeyError", "not in the dataset"),
    (lambda r: r[2]["action"]["params"].update(cargo_id=""), "ValueError", "without cargo_id"),
    (lambda r: r[2]["position_after"].update(lng=113.76), "ValueError", "drop point"),
    (lambda r: r[2].update(action_exec_cost_minutes=r[2]["action_exec_cost_minutes"] + 1),
     "ValueError", "!= scan"),
])
def test_each_abort_cause(mutate, type_name, match):
    b = good_log()
    mutate(b.records)
    err = _abort(b.records, match=match)
    assert err.type_name == type_name
    assert str(err).startswith(f"{type_name}: line ")


def test_a_line_that_is_not_json_aborts():
    ctx = LogContext(settings_for("S4"), index_cargo(CARGO), 60.0, 31 * 1440)
    lines = [*good_log().lines(), "{not json"]
    with pytest.raises(LogValidationError) as err:
        validate_log(lines, ctx)
    assert str(err.value).startswith("JSONDecodeError: line 5:")


def test_action_name_is_lowercased():
    b = good_log()
    b.records[0]["action"]["action"] = "WAIT"
    check(b.records)


def test_take_exec_must_equal_pickup_wait_and_cost_time():
    b = good_log()
    rec = b.records[2]
    rec["action_exec_cost_minutes"] += 1
    rec["step_elapsed_minutes"] += 1
    rec["result"]["simulation_progress_minutes"] += 1
    for later in b.records[3:]:  # keep the clock chain consistent after it
        later["result"]["simulation_progress_minutes"] += 1
    _abort(b.records, match="take exec")


def test_accepted_take_must_be_online_and_reach_its_window():
    b = LogBuilder("d1", *HOME, CARGO).wait(10).take("c1")  # arrival 10 + 11 = 21
    closed = [cargo_row("c1", NORTH, DG, window=(0, 20), cost_time=90)]
    ctx = LogContext(settings_for("S4"), index_cargo(closed), 60.0, 31 * 1440)
    with pytest.raises(LogValidationError, match="loading window"):
        validate_log(b.lines(), ctx)
    at_end = [cargo_row("c1", NORTH, DG, window=(0, 21), cost_time=90)]  # equal is fine
    b2 = LogBuilder("d1", *HOME, at_end).wait(10).take("c1")
    ctx = LogContext(settings_for("S4"), index_cargo(at_end), 60.0, 31 * 1440)
    validate_log(b2.lines(), ctx)
    offline = [cargo_row("c1", NORTH, DG, create=11, window=(30, 200), cost_time=90)]
    ctx = LogContext(settings_for("S4"), index_cargo(offline), 60.0, 31 * 1440)
    with pytest.raises(LogValidationError, match="not online"):
        validate_log(b.lines(), ctx)


def test_fractional_wait_is_logged_rounded_and_aborts():
    # The simulator runs int(7.996) = 7 minutes but logs the duration as round(7.996, 2) = 8.0.
    b = LogBuilder("d1", *HOME, CARGO).wait(7)
    b.records[0]["action"]["params"]["duration_minutes"] = 8.0
    _abort(b.records, match="wait exec 7 != duration 8")


def test_s3_s4_skip_the_four_lenient_checks():
    b = good_log()
    b.records[0].update(token_usage="n/a")
    b.records[0].update(step_elapsed_minutes=13)  # still end - prev_end; scan+exec is 13
    b.records[1]["position_after"]["lat"] = 22.61  # reposition end position
    b.records[2]["position_after"]["lng"] = 113.76  # accepted-take end position
    for v in ("S3", "S4"):
        check(b.records, v)
    bad = good_log()
    bad.records[0].update(step_elapsed_minutes=12)
    bad.records[0]["result"]["simulation_progress_minutes"] = 12
    for later in bad.records[1:]:
        later["result"]["simulation_progress_minutes"] -= 1
    with pytest.raises(LogValidationError):  # but end - prev_end == elapsed stays
        check(bad.records, "S4")


def test_failed_takes_add_nothing_even_the_expired_window_deadhead():
    cargo = [cargo_row("w", NORTH, DG, window=(0, 5))]
    b = LogBuilder("d1", *HOME, cargo).take("w")
    assert b.records[0]["result"]["pickup_deadhead_km"] > 0
    ctx = LogContext(settings_for("S2"), index_cargo(cargo), 60.0, 30 * 1440)
    out = validate_log(b.lines(), ctx)
    assert (out.gross_yuan, out.distance_km) == (0.0, 0.0)


@pytest.mark.parametrize(("version", "days", "paid_at", "unpaid_at"), [
    ("S1", 31, 30 * 1440, 30 * 1440 + 1),
    ("S2", 31, 30 * 1440, 30 * 1440 + 1),
    ("S3", 31, 31 * 1440, 31 * 1440 + 1),
    ("S3", 40, 31 * 1440, 31 * 1440 + 1),
    ("S4", 40, 40 * 1440, 40 * 1440 + 1),
])
def test_payment_horizon_h_per_version(version, days, paid_at, unpaid_at):
    for end, paid in ((paid_at, True), (unpaid_at, False)):
        cargo = [cargo_row("c", HOME, DG, cost_time=600, remove=60 * 1440, price=50_000)]
        b = LogBuilder("d1", *HOME, cargo).wait(end - 600).take("c")  # snap pickup: 0 minutes
        assert b.records[-1]["result"]["simulation_progress_minutes"] == end
        ctx = LogContext(settings_for(version), index_cargo(cargo), 60.0,
                         settings_for(version).horizon_days(days) * 1440)
        out = validate_log(b.lines(), ctx)
        assert out.gross_yuan == (500.0 if paid else 0.0)
        assert out.distance_km > 0  # the km are costed either way


def test_income_rounding_order():
    inc = compute_income(1000.006, 100.004, 1.5, 0.004)
    assert inc.gross_income == 1000.01
    assert inc.distance_km == 100.0
    assert inc.cost == 150.01  # 150.006 rounded, not 100.0 * 1.5
    assert inc.preference_penalty == 0.0
    assert inc.net_income == round(round(1000.006 - 150.006, 2) - 0.0, 2)
    inc = compute_income(100.0, 0.0, 1.0, 33.335)
    assert inc.net_income == round(100.0 - round(33.335, 2), 2)
