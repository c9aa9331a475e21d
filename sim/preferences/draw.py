"""Preferences for generated drivers: a driver's rule set drawn from every competition kind
(docs/competition.md §7.5), with realistic fines and caps and a validity window.

Generated drivers need preferences that exercise the same kinds the real competition files do,
but our scorer must not depend on a parser to know what was drawn: each draw keeps its structured
form beside the text, and `to_official` writes it into the drivers-file object as the
`structured` extension. Which kinds, how many, the language, the fine and the window are drawn
here; each kind draws its own params and words its own texts in its module
(sim/preferences/kinds/kNN_*.py: `Kind.draw`, `Kind.zh`, `Kind.en`). Every random choice comes from
the caller's numpy Generator, in a fixed order, so a seed always draws the same drivers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from sim.preferences.kinds import REGISTRY, Params, kind_names
from sim.preferences.kinds.drawing import CargoMarket, DrawContext, draw_amounts
from sim.preferences.kinds.wording import fine_always_stated, fine_separator, fine_text

# the scoring registry's kinds, in K-number order (the order draws pick from, so seeded draws
# stay as they were)
KINDS: tuple[str, ...] = tuple(kind_names())

Lang = Literal["zh", "en", "mixed"]


@dataclass(frozen=True)
class DrawnPreference:
    """One drawn preference: its text and the structured form the text was rendered from."""

    text: str
    kind: str
    params: Params  # the kind's typed params
    penalty_amount: float
    penalty_cap: float | None
    start_time: str | None
    end_time: str | None


def to_official(dp: DrawnPreference) -> dict[str, Any]:
    """The drivers-file preference object (S2-S4 form) plus our `structured` extension."""
    return {
        "content": dp.text,
        "start_time": dp.start_time,
        "end_time": dp.end_time,
        "penalty_amount": dp.penalty_amount,
        "penalty_cap": dp.penalty_cap,
        "structured": {"kind": dp.kind, "params": dp.params.to_dict()},
    }


def draw_preferences(rng: np.random.Generator, n: int, *, lang: Lang = "zh",
                     kinds: set[str] | None = None, home: tuple[float, float],
                     start_day: dt.date, days: int,
                     cargo_ids: Sequence[str] | None = None,
                     market: CargoMarket | None = None) -> list[DrawnPreference]:
    """`n` preferences for one driver living at `home`, over `days` days from `start_day`.

    Kinds are drawn without repetition while `n` allows (one driver rarely states two rules of
    the same kind). A must-take rule names cargo of `market` (the scenario's, by listing day)
    listed inside its window, else one of `cargo_ids`, else a made-up id (no market known).
    """
    pool = [k for k in KINDS if kinds is None or k in kinds]
    unknown = set(kinds or ()) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown preference kinds: {sorted(unknown)}")
    if n < 0 or days < 1 or not pool:
        raise ValueError("need n >= 0, days >= 1 and at least one kind")
    picks = [str(k) for k in rng.choice(pool, size=n, replace=n > len(pool))]
    out = []
    for kind in picks:
        lg = lang if lang != "mixed" else ("zh" if rng.random() < 0.5 else "en")
        ctx = DrawContext(rng, (float(home[0]), float(home[1])), start_day, int(days), lg,
                          cargo_ids, market)
        cls = REGISTRY[kind]
        drawn = cls.draw(ctx)
        rule = cls(drawn.params)
        model = rule.penalty_model
        a, c = draw_amounts(ctx, model)
        text = str(ctx.pick((cls.zh if lg == "zh" else cls.en)(drawn.words)))
        if fine_always_stated(model) or rng.random() < 0.5:
            text += fine_separator(lg, model) + fine_text(lg, model, rule.drawn_fine_per(), a, c)
        # the kind's window is drawn even when the drawer fixed its own (a must-take rule's,
        # around its cargo's listing day), so the draws after it stay as they were
        window = cls.draw_window(ctx)
        first, last = drawn.window or window
        opens = drawn.opens_minute or 0
        s = f"{first.isoformat()} {opens // 60:02d}:{opens % 60:02d}:00"
        e = f"{last.isoformat()} 23:59:59"
        out.append(DrawnPreference(text, kind, drawn.params, float(a),
                                   None if c is None else float(c), s, e))
    return out
