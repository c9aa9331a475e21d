"""The OpenAI-compatible provider's factory: the stack `[llm] backend = "openai"` (or "llm") runs.

A client for the scenario's server (key from its env var, retries left to RetryModel), the
adapter that also times queue wait, first token and decode (streamed when `[llm] stream`), and
a wall-clock deadline per request. The classes live in agents/llm/model.py; this module is what
agents/llm/providers.py imports when a scenario names the provider.
"""

from __future__ import annotations

import openai

from agents.llm.model import DeadlineModel, LanguageModel, TimedOpenAIModel
from sim.redact import add_secret_from_env


def from_config(llm_cfg) -> LanguageModel:
    # registered with the redactor before the first request: nothing written quotes it
    key = add_secret_from_env(llm_cfg.api_key_env) or "sk-no-key"
    client = openai.OpenAI(base_url=llm_cfg.base_url, api_key=key, timeout=llm_cfg.timeout_s,
                           max_retries=0)
    timed = TimedOpenAIModel(client, llm_cfg.model, llm_cfg.response_format, llm_cfg.stream)
    return DeadlineModel(timed, llm_cfg.timeout_s)
