"""Scoring versions S1-S4 and the settings table of §7.1.

Each official release scored differently; a replica must pick one. Everything that differs is a
field here, so a kind or the validator asks its settings instead of testing the version name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ScoringVersion(StrEnum):
    S1 = "S1"  # preliminary v1: string preferences, fines in the text
    S2 = "S2"  # preliminary v2 / demo
    S3 = "S3"  # final round, local debug scorer
    S4 = "S4"  # final round, 92 days


class CapRule(StrEnum):
    """How P-count and P-km apply the cap C (§7.1 row 'P-count cap')."""

    NULL_UNCAPPED = "null_uncapped"  # S1, S3: None -> uncapped, else min(raw, C) (0 gives 0)
    NULL_OR_ZERO_UNCAPPED = "null_or_zero_uncapped"  # S2 (a per-rule option turns 0 literal)
    NEVER = "never"  # S4


class OnceRule(StrEnum):
    """What a failed one-shot (P-once) rule charges (§7.1 row 'P-once charge')."""

    AMOUNT = "amount"  # S1 (fixed in the text), S4 (no one-shot rules known: use A)
    CAP_IF_NONZERO = "cap_if_nonzero"  # S2: C if C is non-zero, else A
    MIN_AMOUNT_CAP = "min_amount_cap"  # S3: min(A, C), A when C is null


class PrefCount(StrEnum):
    NONE = "none"
    AT_LEAST = "at_least"
    EXACTLY = "exactly"


# Kinds S2 counts over the whole log, past the scored days and the rule's window (§7.1 note).
S2_WHOLE_LOG = frozenset({
    "forbidden_cargo_category", "max_haul_km", "max_pickup_deadhead_km",
    "max_total_deadhead_km", "stay_inside_bbox", "forbidden_circle", "min_visit_days",
})


@dataclass(frozen=True, slots=True)
class VersionSettings:
    version: ScoringVersion
    day_cap: int | None  # D and H use min(N, day_cap) days; None = N
    string_preferences: bool  # S1: entries are strings with the fine in the text
    coords_2dp: bool  # the release's logs round coordinates
    cap_rule: CapRule
    once_rule: OnceRule
    # Kinds whose validity window is applied; None = every kind (the generic reading of §7.3).
    window_kinds: frozenset[str] | None
    empty_log_scores_zero: bool
    lenient_checks: bool  # S3/S4 skip elapsed=scan+exec, end positions, token object type
    pref_count: PrefCount
    all_files: bool  # S1/S2 process every file of a driver (last wins); S3/S4 only the latest
    accepted_truthy: bool  # S2 reads `accepted` by truthiness; others need literal true
    whole_log_kinds: frozenset[str]
    cap_exempt_kinds: frozenset[str]  # kinds whose P-count ignores the cap in this version

    def horizon_days(self, n_days: int) -> int:
        return n_days if self.day_cap is None else min(n_days, self.day_cap)

    def window_applies(self, kind: str) -> bool:
        return self.window_kinds is None or kind in self.window_kinds


_TABLE: dict[ScoringVersion, VersionSettings] = {
    ScoringVersion.S1: VersionSettings(
        ScoringVersion.S1, 30, True, True, CapRule.NULL_UNCAPPED, OnceRule.AMOUNT,
        frozenset(), True, False, PrefCount.NONE, True, True, frozenset(), frozenset()),
    ScoringVersion.S2: VersionSettings(
        ScoringVersion.S2, 30, False, True, CapRule.NULL_OR_ZERO_UNCAPPED,
        OnceRule.CAP_IF_NONZERO, frozenset({"must_take_cargo"}), True, False,
        PrefCount.AT_LEAST, True, True, S2_WHOLE_LOG, frozenset()),
    ScoringVersion.S3: VersionSettings(
        ScoringVersion.S3, 31, False, False, CapRule.NULL_UNCAPPED, OnceRule.MIN_AMOUNT_CAP,
        frozenset({"forbidden_cargo_category", "forbidden_cargo_place",
                   "max_pickup_deadhead_km", "date_region_avoid", "min_region_order_days"}),
        True, True, PrefCount.EXACTLY, False, False, frozenset(),
        frozenset({"forbidden_cargo_category"})),
    ScoringVersion.S4: VersionSettings(
        ScoringVersion.S4, None, False, False, CapRule.NEVER, OnceRule.AMOUNT,
        frozenset({"rest_window_full_coverage", "monthly_category_quota",
                   "monthly_long_haul_cap"}),
        False, True, PrefCount.EXACTLY, False, False, frozenset(), frozenset()),
}

DEFAULT_VERSION = ScoringVersion.S4


def settings_for(version: ScoringVersion | str) -> VersionSettings:
    try:
        return _TABLE[ScoringVersion(str(version).strip().upper())]
    except ValueError:
        raise ValueError(f"scoring version must be S1, S2, S3 or S4, got {version!r}") from None
