"""The model parser with a scripted model: schema validation, fallbacks, disagreements."""

from __future__ import annotations

import json

from agents.llm.language_model import LLMError
from agents.roles.preference_parse import (
    SCHEMA,
    choose_reading,
    compare,
    parse_with_model,
)
from agents.testing.fakes import ScriptedModel
from sim.preferences.schema import KINDS
from sim.preferences.text.reading import parse_preference

REST = {"kind": "daily_continuous_rest", "params": {"min_minutes": 480, "days": "all"},
        "penalty_amount": 200, "penalty_cap": 3000}
TEXT = "每天至少连续休息8小时，不满足扣钱200元，封顶3000元"


def test_schema_offers_every_kind() -> None:
    assert set(SCHEMA["properties"]["kind"]["enum"]) == {*KINDS, "unparsed"}


def test_valid_reply_is_validated_into_a_preference() -> None:
    model = ScriptedModel([json.dumps(REST)])
    got = parse_with_model(model, TEXT)
    assert got.error is None
    assert got.preference is not None
    assert got.preference.params == REST["params"]
    assert model.requests[0][-1]["content"] == TEXT


def test_bad_replies_are_errors_not_crashes() -> None:
    bad = ["not json", json.dumps({"kind": "fly_to_moon", "params": {}}),
           json.dumps({**REST, "params": {"min_minutes": "eight"}}),
           json.dumps({**REST, "params": {"min_minutes": 480, "days": "all", "x": 1}}),
           json.dumps({"kind": "unparsed", "params": {}}), LLMError("timeout")]
    model = ScriptedModel(bad)
    errors = [parse_with_model(model, TEXT).error for _ in bad]
    assert [e.split(":")[0] for e in errors] == ["json", "schema", "schema", "schema",
                                                 "unparsed", "llm"]


def test_agreeing_model_gives_no_disagreement() -> None:
    r = choose_reading(TEXT, ScriptedModel([json.dumps(REST)]))
    assert r.parsed_by == "parser"
    assert r.disagreement is None


def test_disagreement_is_reported_and_rules_win() -> None:
    other = {**REST, "params": {"min_minutes": 420, "days": "all"}}
    r = choose_reading(TEXT, ScriptedModel([json.dumps(other)]))
    assert r.parsed_by == "parser"
    assert r.preference == parse_preference(TEXT)
    assert r.disagreement is not None
    assert r.disagreement.field == "params"
    assert r.disagreement.model.params["min_minutes"] == 420
    kind = {**REST, "kind": "min_full_off_days", "params": {"min_days": 8}}
    d = compare(TEXT, parse_preference(TEXT), parse_with_model(
        ScriptedModel([json.dumps(kind)]), TEXT).preference)
    assert d is not None
    assert d.field == "kind"


def test_model_reads_what_the_rules_cannot() -> None:
    text = "老婆说了，干这行别太拼，身体要紧"
    assert parse_preference(text) is None
    r = choose_reading(text, ScriptedModel([json.dumps(REST)]))
    assert r.parsed_by == "model"
    assert r.preference is not None
    none = choose_reading(text, ScriptedModel([LLMError("connection")]))
    assert none.parsed_by == "none"
    assert none.model_error == "llm:connection"
