"""Scoring a parser on the evaluation set (data/preference_eval.jsonl), per split and kind.

A row is right when kind and params both match (floats within 1e-6); kind-only accuracy is
reported beside it, and penalty amount/cap accuracy as a third figure.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sim.preftext.parser import parse_preference
from sim.preftext.types import ParsedPreference, same

EVAL_FILE = "preference_eval.jsonl"


def load_rows(text: str | None = None) -> list[dict]:
    if text is None:
        import data
        text = data.read_text(EVAL_FILE)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@dataclass
class KindScore:
    n: int = 0
    exact: int = 0
    kind_ok: int = 0
    money_ok: int = 0


@dataclass
class SplitScore:
    split: str
    kinds: dict[str, KindScore] = field(default_factory=dict)
    misses: list[tuple[dict, ParsedPreference | None]] = field(default_factory=list)

    def total(self) -> KindScore:
        t = KindScore()
        for k in self.kinds.values():
            t.n, t.exact, t.kind_ok, t.money_ok = (t.n + k.n, t.exact + k.exact,
                                                   t.kind_ok + k.kind_ok, t.money_ok + k.money_ok)
        return t

    @property
    def accuracy(self) -> float:
        t = self.total()
        return t.exact / t.n if t.n else 0.0


def score(rows: Iterable[dict], split: str,
          parser: Callable[[str], ParsedPreference | None] = parse_preference) -> SplitScore:
    out = SplitScore(split)
    for r in rows:
        if split != "all" and r.get("split") != split:
            continue
        got = parser(r["text"])
        ks = out.kinds.setdefault(r["kind"], KindScore())
        ks.n += 1
        kind_ok = got is not None and got.kind == r["kind"]
        exact = kind_ok and same(got.params, r["params"])
        money_ok = got is not None and same(
            [got.penalty_amount, got.penalty_cap],
            [r.get("penalty_amount"), r.get("penalty_cap")])
        ks.kind_ok += kind_ok
        ks.exact += exact
        ks.money_ok += money_ok
        if not exact:
            out.misses.append((r, got))
    return out


def format_score(s: SplitScore) -> str:
    lines = [f"split {s.split}: {s.total().exact}/{s.total().n} exact "
             f"({s.accuracy:.1%}), kind {s.total().kind_ok}/{s.total().n}, "
             f"amount+cap {s.total().money_ok}/{s.total().n}",
             f"  {'kind':<28} {'n':>3} {'exact':>7} {'kind':>7} {'money':>7}"]
    for k in sorted(s.kinds):
        v = s.kinds[k]
        lines.append(f"  {k:<28} {v.n:>3} {v.exact / v.n:>7.0%} {v.kind_ok / v.n:>7.0%} "
                     f"{v.money_ok / v.n:>7.0%}")
    return "\n".join(lines)
