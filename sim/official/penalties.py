"""Penalty models of §7.4 with each version's cap semantics (§7.1).

A = penalty_amount, C = penalty_cap (None = no cap given). Every function returns the unrounded
yuan amount; rounding happens once per rule and once per driver in the scorer.
"""

from __future__ import annotations

from enum import StrEnum

from sim.official.versions import CapRule, OnceRule, VersionSettings


class PenaltyModel(StrEnum):
    COUNT = "P-count"  # n*A, capped per version
    KM = "P-km"  # over_km*A, capped like P-count
    ONCE = "P-once"  # charged once when a month-level check fails
    SHORT = "P-short"  # missing*A, never capped
    EXTRA = "P-extra"  # sum of extra*A, never capped (K15, K21)
    EVENT = "P-event"  # rate*absence + A on failure, min(., C) unless C is null (K24)
    MUST_TAKE = "P-must-take"  # once: min(A, C or infinity) (K19)
    FLAT = "P-flat"  # A once, no cap (K11 in once mode: 'charge A once')


def apply_cap(raw: float, cap: float | None, settings: VersionSettings, *,
              exempt: bool = False, zero_cap_uncapped: bool | None = None) -> float:
    """Cap a P-count/P-km amount. `zero_cap_uncapped` is S2's per-rule option (default: yes)."""
    if exempt or cap is None or settings.cap_rule is CapRule.NEVER:
        return raw
    if settings.cap_rule is CapRule.NULL_OR_ZERO_UNCAPPED and cap == 0:
        return raw if zero_cap_uncapped in (None, True) else 0.0
    return min(raw, cap)


def p_count(n: float, amount: float, cap: float | None, settings: VersionSettings, *,
            exempt: bool = False, zero_cap_uncapped: bool | None = None) -> float:
    return apply_cap(n * amount, cap, settings, exempt=exempt, zero_cap_uncapped=zero_cap_uncapped)


def p_km(over_km: float, amount: float, cap: float | None, settings: VersionSettings, *,
         exempt: bool = False, zero_cap_uncapped: bool | None = None) -> float:
    return apply_cap(over_km * amount, cap, settings, exempt=exempt,
                     zero_cap_uncapped=zero_cap_uncapped)


def p_once(failed: bool, amount: float, cap: float | None, settings: VersionSettings) -> float:
    if not failed:
        return 0.0
    if settings.once_rule is OnceRule.CAP_IF_NONZERO:
        return cap if cap else amount
    if settings.once_rule is OnceRule.MIN_AMOUNT_CAP:
        return amount if cap is None else min(amount, cap)
    return amount


def p_short(missing: int, amount: float) -> float:
    return missing * amount


def p_extra(extra: int, amount: float) -> float:
    return extra * amount


def p_event(absence_minutes: int, rate: float, failed: bool, amount: float,
            cap: float | None) -> float:
    raw = rate * absence_minutes + (amount if failed else 0.0)
    return raw if cap is None else min(raw, cap)


def p_must_take(failed: bool, amount: float, cap: float | None) -> float:
    """min(A, C or infinity): a null or zero cap leaves A."""
    if not failed:
        return 0.0
    return min(amount, cap) if cap else amount
