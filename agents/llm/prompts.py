"""Prompts and output schemas: the Prompt type, schema helpers, one formatter of agent inputs.

Each agent's own prompt and compression adapter live in its module under agents/roles (the
agents' registry holds them); the preference parse prompt lives with the preference agent.

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
        return [{"role": "system", "content": self.system},
                {"role": "user", "content": view_text + inputs_text(inputs)}]


def inputs_text(inputs: dict | None) -> str:
    """Other agents' answers as the prompt carries them: the one formatter, used for the real
    message and for counting its tokens, so counted tokens are the sent prompt's."""
    if not inputs:
        return ""
    return "## inputs from other agents\n" + json.dumps(
        inputs, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def obj(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


NUM = {"type": "number"}
# no maxLength: llama.cpp's grammar for bounded strings makes sampling several times slower;
# max_tokens bounds the reply instead
STR = {"type": "string"}
ID = {"type": "string"}
BOOL = {"type": "boolean"}


def compression_adapter(agent: str, focus: str) -> Prompt:
    """The MemoryPromptAdapter for one agent: what that agent decides, and the common rules."""
    return Prompt(
        agent=f"compress_{agent}", version=f"compress-{agent}-v2",
        system=(
            f"You are MemoryPromptAdapter. Compress the memory view into at most 5 short hints "
            f"for the {agent} agent: {focus}. Keep grid ids, cargo ids and coordinates exactly "
            "as given; invent nothing. Answer with JSON only."),
        schema=obj({"bullets": {"type": "array", "items": STR, "maxItems": 5}}, ["bullets"]),
    )
