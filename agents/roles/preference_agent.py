"""PreferenceAgent: says what the driver's preferences ask for now (wait, go somewhere, nothing).

Its facts are the driver's RuleProgress (memory/rule_progress.py), the one preference state: the
view's rule lines and the first due rule's `todo`. Preference text is read by the scorer's own
parsers (sim/preferences/text, agents/roles/preference_parse.py for a model), not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import BOOL, NUM, STR, Prompt, compression_adapter, obj
from agents.roles.registry import AgentSpec, register
from memory.view_builders import PreferenceViews
from memory.views import PreferenceView
from sim.geo import in_guangdong
from sim.official.timebase import DAY

PREFERENCE = Prompt(
    agent="preference", version="preference-v3",
    system=(
        "You are the PreferenceAgent. From the driver's preference rules and their status, say "
        "what the driver must do now to avoid penalties: rest (wait) for some minutes, go to a "
        "place, take a promised cargo by its id (cargo_id), or nothing. A due action shows "
        "what it saves in fines and what it forgoes; when it forgoes more than it saves, "
        "answer nothing (the rule is cheaper to break). Use only places and cargo ids in the "
        "view. Answer with JSON only."),
    schema=obj({"wait_minutes": NUM, "go": BOOL, "lat": NUM, "lng": NUM, "reason": STR,
                "cargo_id": STR},
               ["wait_minutes", "go", "lat", "lng", "reason"]),
)


@dataclass(frozen=True, slots=True)
class PreferenceAdvice:
    wait_minutes: float
    go: tuple[float, float] | None
    reason: str
    at_stake: float = float("inf")  # the fines following the advice avoids
    cost: float = 0.0  # what following it forgoes (time at the driver's rate, km, fines)
    take: str = ""  # a promised cargo to take now, by id (its place unknown)
    takes_uncharged: bool = False  # no take's value carries at_stake (Todo.takes_uncharged)

    @property
    def value(self) -> float:
        """What following the advice is worth over spending the time at the driver's rate:
        comparable with a take's value (net after fines less its hours at that rate)."""
        return self.at_stake - self.cost

    @property
    def beside_takes(self) -> float:
        """The value to hold against a take's: the take's own value already carries the
        fines it adds over keeping the rule, so the fines this advice keeps are not counted a
        second time (failure class "a rest valued twice"). Advice whose fine no take is
        charged (a stop of a sequence, a point to reach: a dated stop missed by a take and by
        a rest in place alike) and advice without a price (a model's own, `at_stake`
        infinite) keep their whole value."""
        if self.takes_uncharged or self.at_stake == float("inf"):
            return self.value
        return -self.cost

    def main_input(self, brief: bool) -> tuple[str, Any] | None:
        wait = round(self.wait_minutes)
        if not brief:
            out = {"wait_minutes": wait, "go": self.go, "reason": self.reason}
            if self.take:
                out["take"] = self.take
            return "preference", out
        if not wait and self.go is None and not self.take:  # nothing due says nothing
            return None
        out = ({"take": self.take} if self.take else {"wait_minutes": wait} if wait
               else {"go": self.go})
        out["reason"] = self.reason
        return "preference", out


class PreferenceAgent:
    prompt = PREFERENCE

    def __init__(self, caller: AgentCaller) -> None:
        self.caller = caller

    @staticmethod
    def deterministic(view: PreferenceView) -> dict:
        """The deterministic answer: what the first due rule asks for (its RuleProgress
        `todo`: wait N minutes, or go to a point) when that avoids more in fines than it
        forgoes; a rule that costs more to keep than to break is broken knowingly."""
        t = view.todo_action  # the first due rule (memory/rule_progress.py)
        if t is not None and t.at_stake <= t.cost:
            return {"wait_minutes": 0, "go": False, "lat": 0.0, "lng": 0.0,
                    "reason": f"break ({t.reason}): saves {t.at_stake:.0f}, "
                              f"forgoes {t.cost:.0f}"}
        if t is not None and t.action == "take":
            return {"wait_minutes": 0, "go": False, "lat": 0.0, "lng": 0.0,
                    "cargo_id": t.cargo_id, "reason": t.reason}
        if t is not None and t.action == "wait":
            return {"wait_minutes": min(t.minutes, DAY), "go": False, "lat": 0.0, "lng": 0.0,
                    "reason": t.reason}
        if t is not None:
            return {"wait_minutes": 0, "go": True, "lat": t.lat, "lng": t.lng,
                    "reason": t.reason}
        return {"wait_minutes": 0, "go": False, "lat": 0.0, "lng": 0.0, "reason": "nothing due"}

    def advise(self, view: PreferenceView, advice: Mapping[str, Any],
               ctx: CallContext) -> PreferenceAdvice:
        def validate(out: dict) -> PreferenceAdvice:
            wait = float(out["wait_minutes"])
            if not 0 <= wait <= DAY:
                raise InvalidOutputError(f"wait_minutes {wait} outside 0..{DAY}")
            go = None
            if out["go"]:
                lat, lng = float(out["lat"]), float(out["lng"])
                if not in_guangdong(lat, lng):
                    raise InvalidOutputError(f"place ({lat}, {lng}) outside Guangdong")
                go = (lat, lng)
            t = view.todo_action
            take = str(out.get("cargo_id") or "")
            if take and (t is None or t.action != "take" or take != t.cargo_id):
                raise InvalidOutputError(f"cargo_id {take!r} is not a promised cargo due now")
            ours = t is not None and t.reason == out.get("reason")
            return PreferenceAdvice(wait, go, str(out.get("reason", "")),
                                    at_stake=t.at_stake if ours else float("inf"),
                                    cost=t.cost if ours else 0.0, take=take,
                                    takes_uncharged=ours and t.takes_uncharged)

        return self.caller.call(self.prompt, view, None, ctx, lambda: self.deterministic(view),
                                validate)


register(AgentSpec(
    name="preference", prompt=PREFERENCE, view=PreferenceView, views=PreferenceViews(),
    order=1, stage=0,
    compress_prompt=compression_adapter(
        "preference", "each preference rule's status and what is still due, with its place"),
    make=lambda caller, geo, sc: PreferenceAgent(caller),
))
