"""English month names as drivers write them (Mar, March, Sept), one pattern for every reader
that finds a date: the date reader and the corrections that drop a replaced date."""

from __future__ import annotations

# an alternation without a group; callers add \b and the optional abbreviation stop
MONTH_NAMES_EN = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                  r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")

__all__ = ["MONTH_NAMES_EN"]
