"""Free-text preferences (Chinese and English) to the agreed structured form of the 24 kinds.

`parse_preference(text)` is the rules parser; `validate(obj)` checks any other parser's output
(the model's) against the same schema. sim-side: imports nothing from memory or agents.
"""

from sim.preftext.parser import candidates, parse_preference
from sim.preftext.types import (
           KINDS,
           SCHEMA,
           InvalidPreferenceError,
           ParsedPreference,
           same,
           validate,
)

__all__ = ["KINDS", "SCHEMA", "InvalidPreferenceError", "ParsedPreference", "candidates",
           "parse_preference", "same", "validate"]
