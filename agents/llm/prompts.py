"""Every prompt and output schema, one entry per agent, versioned.

Stable text (role, rules, schema) comes first and the volatile view last, so a server's prefix
cache reuses the head across steps and drivers. Bump `version` when a text changes: it is part
of the replay key, so old recordings stop matching instead of silently answering new prompts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Prompt:
    agent: str
    version: str
    system: str
    schema: dict

    def messages(self, view_text: str, inputs: dict | None = None) -> list[dict]:
        user = view_text
        if inputs:
            user += "## inputs from other agents\n" + json.dumps(
                inputs, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
        return [{"role": "system", "content": self.system}, {"role": "user", "content": user}]


def _obj(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


NUM = {"type": "number"}
# no maxLength: llama.cpp's grammar for bounded strings makes sampling several times slower;
# max_tokens bounds the reply instead
STR = {"type": "string"}
ID = {"type": "string"}
BOOL = {"type": "boolean"}

SEARCH = Prompt(
    agent="search", version="search-v2",
    system=(
        "You are the SearchAgent of a truck driver in Guangdong. Decide whether to query the "
        "cargo market now and where. Use the memory view: prefer grids with high value, skip "
        "grids with a low-yield streak, keep the daily query budget, and stay near preference "
        "anchors. grid: a grid id from the view, or \"here\" for where the driver stands. "
        "Answer with JSON only."),
    schema=_obj({"search": BOOL, "grid": ID, "radius_km": NUM, "reason": STR},
                ["search", "grid", "radius_km", "reason"]),
)

PREFERENCE = Prompt(
    agent="preference", version="preference-v1",
    system=(
        "You are the PreferenceAgent. From the driver's preferences and their progress, say "
        "what the driver must do now to avoid penalties: rest (wait) for some minutes, go to a "
        "place, or nothing. Use only places in the view. Answer with JSON only."),
    schema=_obj({"wait_minutes": NUM, "go": BOOL, "lat": NUM, "lng": NUM, "reason": STR},
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
    schema=_obj({"kind": {"type": "string", "enum": ["rest_days", "visit", "forbidden_zone",
                                                     "daily_empty_km", "night_no_driving",
                                                     "errand"]},
                 "days": NUM, "place": ID, "km": NUM, "start_hour": NUM, "end_hour": NUM,
                 "steps": {"type": "array", "items": ID, "maxItems": 4}, "deadline_day": NUM},
                ["kind", "days", "place", "km", "start_hour", "end_hour", "steps",
                 "deadline_day"]),
)

CARGO = Prompt(
    agent="cargo_analyst", version="cargo-v1",
    system=(
        "You are the CargoAnalystAgent. Rank the candidate cargo by net income (price minus "
        "empty and loaded km times cost per km) among those the driver can reach before the "
        "loading window closes and finish before the end, respecting the preference "
        "constraints. Never name an id from failed_cargo_ids, stale_cargo_ids or "
        "unavailable_cargo_ids, and never an id that is not a candidate. Answer with JSON only."),
    schema=_obj({"ranked": {"type": "array", "items": ID, "maxItems": 5}, "reason": STR},
                ["ranked", "reason"]),
)

MAIN = Prompt(
    agent="main_decision", version="main-v1",
    system=(
        "You are the MainDecisionAgent of a truck driver. Choose the next action: take_order "
        "(a cargo_id from the ranked candidates), search, wait (minutes) or reposition (lat, "
        "lng). Follow preference advice first. If recent waits or searches gave nothing, do "
        "not repeat them: reposition toward a better grid. Give a one-line short_plan. Answer "
        "with JSON only."),
    schema=_obj({"action": {"type": "string", "enum": ["take_order", "search", "wait",
                                                       "reposition"]},
                 "cargo_id": ID, "minutes": NUM, "lat": NUM, "lng": NUM, "short_plan": STR},
                ["action", "cargo_id", "minutes", "lat", "lng", "short_plan"]),
)

def _adapter(agent: str, focus: str) -> Prompt:
    """The MemoryPromptAdapter for one agent: what that agent decides, and the common rules."""
    return Prompt(
        agent=f"compress_{agent}", version=f"compress-{agent}-v2",
        system=(
            f"You are MemoryPromptAdapter. Compress the memory view into at most 5 short hints "
            f"for the {agent} agent: {focus}. Keep grid ids, cargo ids and coordinates exactly "
            "as given; invent nothing. Answer with JSON only."),
        schema=_obj({"bullets": {"type": "array", "items": STR, "maxItems": 5}}, ["bullets"]),
    )


COMPRESS = {
    "search": _adapter("search", "grids worth searching, grids to avoid for repeated low "
                       "yield, whether the query budget is high, search lessons"),
    "preference": _adapter("preference", "each preference's progress and what is still due, "
                           "with its place"),
    "cargo_analyst": _adapter("cargo_analyst", "which cargo is worth taking and what is "
                              "blacklisted or discarded"),
    "main_decision": _adapter("main_decision", "the pattern of recent actions and outcomes"),
}

ALL = {p.agent: p for p in (SEARCH, PREFERENCE, PREFERENCE_PARSE, CARGO, MAIN,
                            *COMPRESS.values())}
