"""The rules parser maps every shipped preference text to its stored structured form."""

from __future__ import annotations

import json

import pytest

import data
from sim.preference_text import PreferenceParseError, parse_preference
from sim.preferences import preference_from_dict

LIBRARY = [json.loads(line) for line in
           data.read_text("preferences.jsonl").splitlines()]


@pytest.mark.parametrize("row", LIBRARY, ids=[r["text"][:30] for r in LIBRARY])
def test_rules_parser_matches_library(row: dict) -> None:
    got = parse_preference(row["text"], row["penalty_amount"], row["penalty_cap"])
    want = preference_from_dict(dict(row["structured"], penalty_amount=row["penalty_amount"],
                                     penalty_cap=row["penalty_cap"]), text=row["text"])
    assert got == want


def test_library_covers_every_kind_in_both_languages() -> None:
    kinds = {(r["structured"]["kind"], r["text"].isascii()) for r in LIBRARY}
    for kind in ("rest_days", "visit", "forbidden_zone", "daily_empty_km",
                 "night_no_driving", "errand"):
        assert (kind, True) in kinds
        assert (kind, False) in kinds


@pytest.mark.parametrize("text", ["be nice", "Go home to Atlantis on at least 2 days each month."])
def test_unparseable_text_raises(text: str) -> None:
    with pytest.raises(PreferenceParseError):
        parse_preference(text)
