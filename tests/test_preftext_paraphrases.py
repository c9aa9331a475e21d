"""Phrasings written for this test, none taken from the evaluation set: every kind in
Chinese and English, colloquial and formal, with distractor numbers (fines, caps, counts of
fines) beside the parameters. They probe that the recognisers generalise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.preferences.schema import same
from sim.preferences.text.reading import parse_preference

ROWS = [json.loads(line) for line in (Path(__file__).parent / "preftext_paraphrases.jsonl")
        .read_text(encoding="utf-8").splitlines()]
CASES = [(r["text"], r["kind"], r["params"]) for r in ROWS]
MONEY = [(r["text"], r["penalty_amount"], r["penalty_cap"]) for r in ROWS if "penalty_amount" in r]


@pytest.mark.parametrize(("text", "kind", "params"), CASES, ids=[c[0][:24] for c in CASES])
def test_paraphrase(text: str, kind: str, params: dict) -> None:
    got = parse_preference(text)
    assert got is not None
    assert got.kind == kind
    assert same(got.params, params), got.params


def test_fine_counts_become_caps_and_once_is_not_a_cap() -> None:
    capped = parse_preference("接单后空车去装货点不超过25公里，超过的每单罚80元，最多罚10次。")
    assert capped is not None
    assert (capped.penalty_amount, capped.penalty_cap) == (80.0, 800.0)
    once = parse_preference("不想进入圆心（22.54，114.06）半径5km的区域，最多扣一次，罚500元。")
    assert once is not None
    assert (once.params["mode"], once.penalty_amount, once.penalty_cap) == ("once", 500.0, None)


@pytest.mark.parametrize(("text", "amount", "cap"), MONEY, ids=[m[0][:24] for m in MONEY])
def test_fine_and_cap_phrasings(text: str, amount: float, cap: float | None) -> None:
    got = parse_preference(text)
    assert got is not None
    assert (got.penalty_amount, got.penalty_cap) == (amount, cap)
