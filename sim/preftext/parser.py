"""The rules parser: every kind recogniser scores the text; the best candidate wins.

Recognisers share the extracted `Facts`; each one's score counts its keyword groups and is
lowered by the §8 disambiguation cues that point at a neighbouring kind. A text no recogniser
claims (or any failure while reading it) yields None, never an exception: a preference that
cannot be read is reported as unparsed by the callers.
"""

from __future__ import annotations

import logging

from sim.preftext import kinds_cargo, kinds_geo, kinds_rest
from sim.preftext.common import Candidate
from sim.preftext.extract import facts
from sim.preftext.types import InvalidPreferenceError, ParsedPreference, validate

log = logging.getLogger(__name__)
RECOGNISERS = kinds_rest.RECOGNISERS + kinds_cargo.RECOGNISERS + kinds_geo.RECOGNISERS
MIN_SCORE = 1.5
MAX_CHARS = 2000


def candidates(text: str) -> list[Candidate]:
    """Every recogniser's reading of the text, best first (for debugging and the eval)."""
    f = facts(text)
    out = []
    for rec in RECOGNISERS:
        try:
            c = rec(f)
        except (ValueError, IndexError, KeyError, TypeError, ZeroDivisionError, OverflowError):
            log.debug("recogniser %s failed on %r", rec.__name__, text, exc_info=True)
            c = None
        if c is not None:
            out.append(c)
    return sorted(out, key=lambda c: -c.score)


def parse_preference(text: str) -> ParsedPreference | None:
    """The structured form of a free-text preference (Chinese or English), or None."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHARS:
        return None
    try:
        f = facts(text)
        cands = candidates(text)
    except Exception:  # never crash on a driver's text; report it unparsed instead
        log.debug("extraction failed on %r", text, exc_info=True)
        return None
    for c in cands:
        if c.score < MIN_SCORE:
            break
        try:
            p = validate({"kind": c.kind, "params": c.params})
        except InvalidPreferenceError:
            continue
        return ParsedPreference(p.kind, p.params, f.amount, f.cap)
    return None
