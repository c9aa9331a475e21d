"""Income of a validated driver (§6 step 8): rounding order as the official scorer's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Income:
    gross_income: float
    distance_km: float
    cost: float
    preference_penalty: float
    net_income: float

    @classmethod
    def zero(cls) -> Income:
        return cls(0.0, 0.0, 0.0, 0.0, 0.0)

    def to_dict(self) -> dict:
        return {"gross_income": self.gross_income, "distance_km": self.distance_km,
                "cost": self.cost, "preference_penalty": self.preference_penalty,
                "net_income": self.net_income}


def compute_income(gross_yuan: float, distance_km: float, cost_per_km: float,
                   penalty: float) -> Income:
    """gross, km, cost and net each rounded to 2 dp from unrounded values; then the penalty
    (rounded) comes off the rounded net and the result is rounded again."""
    cost = distance_km * cost_per_km
    net = round(gross_yuan - cost, 2)
    pen = round(penalty, 2)
    return Income(round(gross_yuan, 2), round(distance_km, 2), round(cost, 2), pen,
                  round(net - pen, 2))
