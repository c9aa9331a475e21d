"""Scoring a parser on an evaluation set (data/preference_eval*.jsonl), per split and kind.

A row is right when kind and params both match (floats within 1e-6); kind-only accuracy is
reported beside it, and penalty amount/cap accuracy as a third figure. With the text parser
the report also has what a user needs to trust it: a confusion matrix of kinds, the accuracy of
each parameter where the kind is right, how many texts came out ambiguous, and how many were
read confidently as the wrong kind (the number that must stay 0).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sim.preferences.kinds import REGISTRY
from sim.preferences.schema import ParsedPreference, same
from sim.preferences.text.reading import Reading, ReadingStatus, read_preference

EVAL_FILE = "preference_eval.jsonl"
UNPARSED = "unparsed"


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
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)  # (gold, got) -> n
    params: dict[str, list[int]] = field(default_factory=dict)  # "kind.param" -> [ok, n]
    ambiguous: int = 0
    confident_wrong: list[tuple[dict, ParsedPreference]] = field(default_factory=list)

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

    @property
    def kind_accuracy(self) -> float:
        t = self.total()
        return t.kind_ok / t.n if t.n else 0.0

    @property
    def param_accuracy(self) -> float:
        ok = sum(v[0] for v in self.params.values())
        n = sum(v[1] for v in self.params.values())
        return ok / n if n else 0.0


def _rules_reader(text: str) -> Reading:
    return read_preference(text)


def score(rows: Iterable[dict], split: str,
          parser: Callable[[str], ParsedPreference | None] | None = None) -> SplitScore:
    """Score `parser` (default: the text parser, with its confidence) on the rows of `split`
    ("all": every row; "heldout*": every split starting with "heldout")."""
    out = SplitScore(split)
    for r in rows:
        name = str(r.get("split"))
        if split != "all" and name != split and not (
                split.endswith("*") and name.startswith(split[:-1])):
            continue
        reading = _rules_reader(r["text"]) if parser is None else None
        got = reading.best if reading is not None else parser(r["text"])  # type: ignore[misc]
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
        out.confusion[(r["kind"], got.kind if got is not None else UNPARSED)] += 1
        if kind_ok:
            for name, gold in r["params"].items():
                acc = out.params.setdefault(f"{r['kind']}.{name}", [0, 0])
                acc[0] += same(got.params.get(name), gold)
                acc[1] += 1
        if reading is not None and reading.status is ReadingStatus.AMBIGUOUS:
            out.ambiguous += 1
        elif got is not None and not kind_ok:
            out.confident_wrong.append((r, got))
        if not exact:
            out.misses.append((r, got))
    return out


def format_score(s: SplitScore) -> str:
    t = s.total()
    lines = [f"split {s.split}: {t.exact}/{t.n} exact ({s.accuracy:.1%}), kind {t.kind_ok}/{t.n} "
             f"({s.kind_accuracy:.1%}), params {s.param_accuracy:.1%} where the kind is right, "
             f"amount+cap {t.money_ok}/{t.n}; ambiguous {s.ambiguous}, "
             f"confidently wrong kind {len(s.confident_wrong)}",
             f"  {'kind':<28} {'n':>3} {'exact':>7} {'kind':>7} {'money':>7}"]
    for k in sorted(s.kinds):
        v = s.kinds[k]
        lines.append(f"  {k:<28} {v.n:>3} {v.exact / v.n:>7.0%} {v.kind_ok / v.n:>7.0%} "
                     f"{v.money_ok / v.n:>7.0%}")
    return "\n".join(lines)


def format_confusion(s: SplitScore) -> str:
    """The confusion matrix: a row per gold kind, a column per kind read (K-numbers; `U`
    unparsed); empty cells are dots so the off-diagonal ones stand out."""
    def short(kind: str) -> str:
        return "U" if kind == UNPARSED else f"K{REGISTRY[kind].number}"

    cols = [*REGISTRY, UNPARSED]
    lines = ["  confusion (rows: gold kind, columns: kind read):",
             "  " + " " * 5 + "".join(f"{short(c):>4}" for c in cols)]
    for g in REGISTRY:
        if not any(k[0] == g for k in s.confusion):
            continue
        cells = "".join(f"{s.confusion.get((g, c), 0) or '.':>4}" for c in cols)
        lines.append(f"  {short(g):<5}{cells}")
    return "\n".join(lines)


def format_params(s: SplitScore) -> str:
    """Accuracy of each parameter over the rows whose kind was read right."""
    lines = ["  parameters (where the kind is right):"]
    for name in sorted(s.params):
        ok, n = s.params[name]
        mark = "" if ok == n else "  <"
        lines.append(f"    {name:<44} {ok:>3}/{n:<3} {ok / n:>5.0%}{mark}")
    return "\n".join(lines)
