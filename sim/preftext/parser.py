"""The rules parser: every registered kind's recogniser scores the text; the best candidate wins.

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
from sim.preftext.common import Candidate
from sim.preftext.extract import Facts, facts
from sim.preftext.types import ParsedPreference

log = logging.getLogger(__name__)
MIN_SCORE = 1.5
MAX_CHARS = 2000


def candidates(text: str, f: Facts | None = None) -> list[Candidate]:
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


def parse_preference(text: str) -> ParsedPreference | None:
    """The structured form of a free-text preference (Chinese or English), or None. The best
    reading even when another kind competes: `sim.preftext.reading.read_preference` says how
    sure it is, and the callers that score or run report the ambiguous ones."""
    from sim.preftext.reading import read_preference

    return read_preference(text).best
