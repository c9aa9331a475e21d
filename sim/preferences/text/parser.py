"""The text parser: every registered kind's recogniser scores the text; the best candidate wins.

The recognisers live in the kind classes (`Kind.recognise`, sim/preferences/kinds/), so a kind's
text patterns sit beside its params, test and penalty; this module only runs them in registry
order (K-number) over one shared `Facts`. Each score counts the kind's keyword groups and is
lowered by the §8 disambiguation cues that point at a neighbouring kind; equal scores keep
registry order. A text no recogniser claims (or any failure while reading it) yields None, never
an exception: a preference that cannot be read is reported as unparsed by the callers.
"""

from __future__ import annotations

import logging

from sim.preferences.kinds import REGISTRY
from sim.preferences.text.common import Claim
from sim.preferences.text.extract import Facts, facts

log = logging.getLogger(__name__)
MIN_SCORE = 1.5
MAX_CHARS = 2000


def candidates(text: str, f: Facts | None = None) -> list[Claim]:
    """Every kind's reading of the text, best first (for debugging and the eval); `f` the
    text's facts when the caller has them already."""
    f = f if f is not None else facts(text)
    out = []
    for kind in REGISTRY.values():
        try:
            c = kind.recognise(f)
        except (ValueError, IndexError, KeyError, TypeError, ZeroDivisionError, OverflowError):
            log.debug("recogniser of %s failed on %r", kind.name, text, exc_info=True)
            c = None
        if c is not None:
            out.append(c)
    return sorted(out, key=lambda c: -c.score)
