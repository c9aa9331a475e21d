"""What the driver's time is worth, hour by hour: the price every decision weighs.

A take that holds the truck for nine hours, a rest that keeps tonight's quiet window, a drive
to a rule's point: each forgoes the orders the driver could have hauled meanwhile. That price
is the driver's earning rate (driver memory: net earned per minute so far, a prior blended in)
times how the market pays at each clock hour against its average (market memory: the best
order rate its searches found per hour of day). A rest placed in the hours the market pays
least then costs little, and one placed at the morning peak costs a lot.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from memory.place_worth import PlaceWorth
from sim.official.timebase import DAY
from sim.world.order_costs import Option

HOUR = 60
FLAT = (1.0,) * 24


@dataclass(frozen=True)
class TimePrice:
    """Yuan a minute of the driver's time is worth: `rate` times the clock hour's `factors`."""

    rate: float = 0.0
    factors: tuple[float, ...] = FLAT
    place: PlaceWorth | None = None  # what a take's destination is worth for the next one

    def __bool__(self) -> bool:
        return self.rate > 0.0

    @cached_property
    def _costs(self) -> dict[tuple[float, float], float]:
        return {}

    def cost(self, start: float, minutes: float) -> float:
        """What the minutes from `start` forgo (hour by hour; 0 when time is not priced).
        Kept per (start, minutes): a step ranks and weighs each take's value several times."""
        if self.rate <= 0.0 or minutes <= 0:
            return 0.0
        key = (start, minutes)
        got = self._costs.get(key)
        if got is None:
            if len(self._costs) > 4096:  # a price kept for long (a prior) stays small
                self._costs.clear()
            got = self._costs[key] = self._cost(start, minutes)
        return got

    def _cost(self, start: float, minutes: float) -> float:
        total, t, end = 0.0, float(start), float(start) + float(minutes)
        while t < end:
            h = int(t % DAY // HOUR)
            nxt = (t // HOUR + 1) * HOUR
            if not nxt < end:  # min(end, nxt), without the call
                nxt = end
            total += (nxt - t) * self.factors[h]
            t = nxt
        return self.rate * total

    def value(self, o: Option, now: float) -> float:
        """A take's net (after any fine already taken off) less what its hours forgo."""
        v = o.net - self.cost(now, max(0.0, o.finish - now))
        return v if self.place is None else v + self.place.delta(o)

    def lines(self) -> list[str]:
        """The price as a view prints it: the rate (and what a take's "dest+N" means, when
        destinations are valued), and the hours that pay least and most. Worked out once:
        each of a step's views prints it."""
        return list(self._lines)

    @cached_property
    def _lines(self) -> tuple[str, ...]:
        return tuple(self._render())

    def _render(self) -> list[str]:
        """`lines`, worked out."""
        if not self:
            return []
        out = [f"time is worth {self.rate:.2f}/min on average" + (
            "; a take's dest+N: yuan its destination saves on the next pickup drive"
            if self.place is not None else "")]
        if self.factors != FLAT:
            lo = sorted(range(24), key=lambda h: (self.factors[h], h))[:4]
            hi = sorted(range(24), key=lambda h: (-self.factors[h], h))[:2]
            out.append("hours cheapest " + " ".join(
                f"{h:02d}h x{self.factors[h]:.1f}" for h in sorted(lo)) + ", dearest "
                + " ".join(f"{h:02d}h x{self.factors[h]:.1f}" for h in sorted(hi)))
        return out


@dataclass(frozen=True)
class SlotPrice(TimePrice):
    """The time price of a driver with a daily order cap: a take holds the truck for its
    hours, and it also uses one of the day's few order slots, so it is charged at least
    `slot_minutes` (`[policy] slot_share` of the day over the cap). Short orders valued by
    their hours alone filled a capped day and pushed its long hauls past the cap (failure
    class "a capped day filled with short orders": BA08, 78 orders at 1,089 of gross against
    the greedy's 51 at 1,696). Rests and drives are priced by `cost`, as before."""

    slot_minutes: float = 0.0

    def value(self, o: Option, now: float) -> float:
        v = o.net - self.cost(now, max(0.0, o.finish - now, self.slot_minutes))
        return v if self.place is None else v + self.place.delta(o)

    def lines(self) -> list[str]:
        """The time price's lines, and the least a take is charged for its order slot."""
        return [*super().lines(),
                f"a take is charged at least {self.slot_minutes:.0f} min (its slot under the "
                f"daily order cap)"]


class HourRates:
    """The best order rate (net per minute of the take) searches found, by clock hour.

    Each hour's figure is a running mean; an hour never seen counts as average. Factors are
    each hour's mean over the mean of the seen hours, bounded so one odd search cannot make an
    hour free or priceless."""

    LO, HI = 0.2, 2.5

    def __init__(self) -> None:
        self.sum = [0.0] * 24
        self.n = [0] * 24
        self._factors: tuple[float, ...] | None = None  # kept until a search teaches an hour

    def add(self, t: float, rate: float) -> None:
        h = int(t % DAY // HOUR)
        self.sum[h] += max(0.0, rate)
        self.n[h] += 1
        self._factors = None

    def factors(self) -> tuple[float, ...]:
        """Each hour's factor (see the class); worked out again only after `add`, `seed` or
        `set_state`: a step asks for them every time, a search changes them."""
        if self._factors is None:
            self._factors = self._worked_out()
        return self._factors

    def _worked_out(self) -> tuple[float, ...]:
        seen = [self.sum[h] / self.n[h] for h in range(24) if self.n[h]]
        if len(seen) < 2:
            return FLAT
        mean = sum(seen) / len(seen)
        if mean <= 0:
            return FLAT
        return tuple(min(self.HI, max(self.LO, self.sum[h] / self.n[h] / mean)) if self.n[h]
                     else 1.0 for h in range(24))

    def seed(self, factors: tuple[float, ...], weight: int = 3) -> None:
        """Start from an earlier run's shape (lessons), as if `weight` searches a clock hour
        had found it; this run's own searches then outweigh it within days."""
        for h in range(24):
            self.sum[h] += factors[h] * weight
            self.n[h] += weight
        self._factors = None

    def get_state(self) -> dict:
        return {"sum": list(self.sum), "n": list(self.n)}

    def set_state(self, s: dict) -> None:
        self.sum, self.n = list(s["sum"]), list(s["n"])
        self._factors = None


UNPRICED = TimePrice()  # modes without the market layer: takes ranked by plain net
