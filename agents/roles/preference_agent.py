"""PreferenceAgent: parses preference text into structured kinds, and says what is due now."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import BOOL, ID, NUM, STR, Prompt, compression_adapter, obj
from agents.roles.feasibility import (
    errand_target,
    minutes_to_night_end,
    night_now,
    rest_today,
    visit_target,
)
from agents.roles.registry import AgentSpec, register
from memory.view_builders import PreferenceViews
from memory.views import PreferenceView
from sim.clock import DAY
from sim.geo import in_guangdong
from sim.preference_text import PreferenceParseError, parse_preference, place
from sim.preferences import Preference, PrefKind

PREFERENCE = Prompt(
    agent="preference", version="preference-v1",
    system=(
        "You are the PreferenceAgent. From the driver's preferences and their progress, say "
        "what the driver must do now to avoid penalties: rest (wait) for some minutes, go to a "
        "place, or nothing. Use only places in the view. Answer with JSON only."),
    schema=obj({"wait_minutes": NUM, "go": BOOL, "lat": NUM, "lng": NUM, "reason": STR},
               ["wait_minutes", "go", "lat", "lng", "reason"]),
)

PREFERENCE_PARSE = Prompt(
    agent="preference_parse", version="preference-parse-v1",
    system=(
        "Convert one truck driver's preference, written in English or Chinese, to JSON. "
        "kind is one of rest_days, visit, forbidden_zone, daily_empty_km, night_no_driving, "
        "errand. days: days per month (rest_days, visit). place: a Guangdong county name "
        "(visit, forbidden_zone). km: daily empty km limit. start_hour/end_hour: the no-driving "
        "window. steps: place names in order and deadline_day (errand). Unused fields: 0 or "
        "empty. Answer with JSON only."),
    schema=obj({"kind": {"type": "string", "enum": ["rest_days", "visit", "forbidden_zone",
                                                    "daily_empty_km", "night_no_driving",
                                                    "errand"]},
                "days": NUM, "place": ID, "km": NUM, "start_hour": NUM, "end_hour": NUM,
                "steps": {"type": "array", "items": ID, "maxItems": 4}, "deadline_day": NUM},
               ["kind", "days", "place", "km", "start_hour", "end_hour", "steps",
                "deadline_day"]),
)


@dataclass(frozen=True, slots=True)
class PreferenceAdvice:
    wait_minutes: float
    go: tuple[float, float] | None
    reason: str
    # limits computed from the structured preferences, whatever backend advised
    drive_minutes_left: float = float("inf")  # until a no-driving window starts
    empty_km_left: float = float("inf")  # before today's empty-km limit is broken
    at_stake: float = float("inf")  # a competition rule's fine the advice avoids

    def main_input(self, brief: bool) -> tuple[str, Any] | None:
        wait = round(self.wait_minutes)
        if not brief:
            return "preference", {"wait_minutes": wait, "go": self.go, "reason": self.reason}
        if not wait and self.go is None:  # nothing due says nothing
            return None
        out: dict = {"wait_minutes": wait} if wait else {"go": self.go}
        out["reason"] = self.reason
        return "preference", out


def limits(prefs: tuple[Preference, ...], progress: tuple[dict, ...],
           now: float) -> tuple[float, float]:
    drive, empty = float("inf"), float("inf")
    for p, s in zip(prefs, progress, strict=False):
        if p.kind is PrefKind.NIGHT_NO_DRIVING:
            h = (now % DAY) / 60.0
            drive = min(drive, ((p.start_hour - h) % 24) * 60.0)
        elif p.kind is PrefKind.DAILY_EMPTY_KM:
            today = s.get("empty_km_today", 0.0)
            if today <= p.km:  # once broken, the day's penalty is sunk
                empty = min(empty, p.km - today)
    return drive, empty


def to_parse_output(p: Preference) -> dict:
    """A structured preference in the parse schema's terms (place names, not coordinates)."""
    return {"kind": str(p.kind), "days": p.days, "place": p.place.name if p.place else "",
            "km": p.km, "start_hour": p.start_hour, "end_hour": p.end_hour,
            "steps": [s.name for s in p.steps], "deadline_day": p.deadline_day}


def from_parse_output(out: dict, text: str, amount: float, cap: float) -> Preference:
    """Validate a parse against the world: known kind, real county names, sane numbers."""
    try:
        kind = PrefKind(out["kind"])
        base = {"kind": kind, "text": text, "penalty_amount": amount, "penalty_cap": cap}
        if kind is PrefKind.REST_DAYS:
            return Preference(**base, days=int(out["days"]))
        if kind is PrefKind.VISIT:
            return Preference(**base, days=int(out["days"]), place=place(out["place"]))
        if kind is PrefKind.FORBIDDEN_ZONE:
            return Preference(**base, place=place(out["place"]))
        if kind is PrefKind.DAILY_EMPTY_KM:
            return Preference(**base, km=float(out["km"]))
        if kind is PrefKind.NIGHT_NO_DRIVING:
            return Preference(**base, start_hour=int(out["start_hour"]) % 24,
                              end_hour=int(out["end_hour"]) % 24)
        return Preference(**base, steps=tuple(place(s) for s in out["steps"]),
                          deadline_day=int(out["deadline_day"]))
    except (PreferenceParseError, KeyError, ValueError, TypeError) as exc:
        raise InvalidOutputError(str(exc)) from None


def same_meaning(a: Preference, b: Preference) -> bool:
    """Parses agree when kind and parameters agree (zone radius aside: text may omit it)."""
    return to_parse_output(a) == to_parse_output(b)


class PreferenceAgent:
    prompt = PREFERENCE

    def __init__(self, caller: AgentCaller) -> None:
        self.caller = caller

    def parse(self, text: str, amount: float, cap: float, ctx: CallContext) -> Preference:
        def rules() -> dict:
            return to_parse_output(parse_preference(text, amount, cap))

        return self.caller.call(PREFERENCE_PARSE, f"## preference\n{text}\n", None, ctx, rules,
                                lambda out: from_parse_output(out, text, amount, cap))

    @staticmethod
    def rules(view: PreferenceView) -> dict:
        """The deterministic answer: wait out a night window or a needed rest day, else go to
        an errand stop or a place whose visit days are due, else nothing."""
        prefs, prog, now = view.preferences, view.progress, view.now
        night = night_now(prefs, now)
        if night is not None:
            return {"wait_minutes": minutes_to_night_end(night, now), "go": False,
                    "lat": 0.0, "lng": 0.0, "reason": "no driving in the night window"}
        if rest_today(prefs, prog, now):
            return {"wait_minutes": DAY - now % DAY, "go": False, "lat": 0.0, "lng": 0.0,
                    "reason": "rest day needed this month"}
        for target, why in ((errand_target(prefs, prog), "errand step due"),
                            (visit_target(prefs, prog, now), "visit days due")):
            if target is not None:
                return {"wait_minutes": 0, "go": True, "lat": target.lat,
                        "lng": target.lng, "reason": why}
        t = view.todo_action  # a due competition rule (memory/rule_progress.py)
        if t is not None and t.action == "wait":
            return {"wait_minutes": min(t.minutes, DAY), "go": False, "lat": 0.0, "lng": 0.0,
                    "reason": t.reason}
        if t is not None:
            return {"wait_minutes": 0, "go": True, "lat": t.lat, "lng": t.lng,
                    "reason": t.reason}
        return {"wait_minutes": 0, "go": False, "lat": 0.0, "lng": 0.0, "reason": "nothing due"}

    def advise(self, view: PreferenceView, advice: Mapping[str, Any],
               ctx: CallContext) -> PreferenceAdvice:
        prefs, prog, now = view.preferences, view.progress, view.now

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
            return PreferenceAdvice(wait, go, str(out.get("reason", "")),
                                    *limits(prefs, prog, now),
                                    at_stake=t.at_stake if t is not None
                                    and t.reason == out.get("reason") else float("inf"))

        return self.caller.call(self.prompt, view, None, ctx, lambda: self.rules(view), validate)


register(AgentSpec(
    name="preference", prompt=PREFERENCE, view=PreferenceView, views=PreferenceViews(),
    order=1, stage=0,
    compress_prompt=compression_adapter(
        "preference", "each preference's progress and what is still due, with its place"),
    make=lambda caller, geo, sc: PreferenceAgent(caller),
))
