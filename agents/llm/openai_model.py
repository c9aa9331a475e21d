"""The OpenAI-compatible provider: chat completions over an `openai.OpenAI` client.

The adapter is handed its client, so the same code talks to vLLM, llama.cpp's server or any
other OpenAI-compatible endpoint. This module is imported only when a scenario names the
provider (agents/llm/providers.py), so `openai` is loaded only by runs that call a server.
"""

from __future__ import annotations

import os
import threading
import time

import openai

from agents.llm.model import Completion, LanguageModel, LLMError

SCHEMA_FORMATS = ("json_schema", "json_object", "none")


def response_format(kind: str, schema: dict | None, name: str) -> dict | None:
    """How to ask for schema-constrained JSON: vLLM takes json_schema, llama.cpp json_object."""
    if schema is None or kind == "none":
        return None
    if kind == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True}}
    return {"type": "json_object", "schema": schema}


class OpenAIModel(LanguageModel):
    """Chat completions over the `openai` client, detecting the server's JSON-schema dialect.

    With `schema_format="auto"` the first schema call tries json_schema (vLLM, OpenAI); a
    server that rejects it (llama-cpp-python answers 500) is asked again with json_object +
    schema, and that choice is kept for the rest of the run.
    """

    def __init__(self, client: openai.OpenAI, model: str, schema_format: str = "auto") -> None:
        self.client, self.name = client, model
        self.schema_format = None if schema_format == "auto" else schema_format
        self._lock = threading.Lock()

    def _create(self, messages: list[dict], fmt: str, schema: dict | None, name: str,
                max_tokens: int, temperature: float):
        kwargs: dict = {"model": self.name, "messages": messages, "max_tokens": max_tokens,
                        "temperature": temperature, "seed": 0}
        rf = response_format(fmt, schema, name)
        if rf is not None:
            kwargs["response_format"] = rf
        return self.client.chat.completions.create(**kwargs)

    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 schema_name: str = "output", max_tokens: int = 256,
                 temperature: float = 0.0) -> Completion:
        t0 = time.perf_counter()
        fmt = self.schema_format or "json_schema"
        try:
            try:
                resp = self._create(messages, fmt, schema, schema_name, max_tokens, temperature)
            except openai.APIStatusError as exc:
                if self.schema_format is not None or schema is None or exc.status_code < 400:
                    raise
                resp = self._create(messages, "json_object", schema, schema_name, max_tokens,
                                    temperature)
                fmt = "json_object"
            if schema is not None and self.schema_format is None:
                with self._lock:
                    self.schema_format = fmt
        except openai.APITimeoutError as exc:
            raise LLMError("timeout", str(exc)) from None
        except openai.APIConnectionError as exc:
            raise LLMError("connection", str(exc)) from None
        except openai.APIStatusError as exc:
            raise LLMError(f"http_{exc.status_code}", exc.message[:200]) from None
        latency = time.perf_counter() - t0
        if not resp.choices:
            raise LLMError("empty_response")
        text = resp.choices[0].message.content or ""
        usage = resp.usage
        cached = None
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        if details is not None and getattr(details, "cached_tokens", None) is not None:
            cached = int(details.cached_tokens)
        return Completion(text, int(usage.prompt_tokens) if usage else 0,
                          int(usage.completion_tokens) if usage else 0, cached, latency)


def from_config(llm_cfg) -> LanguageModel:
    """The provider's factory: a client for the scenario's [llm] server, key from its env var."""
    key = os.environ.get(llm_cfg.api_key_env, "") or "sk-no-key"
    client = openai.OpenAI(base_url=llm_cfg.base_url, api_key=key, timeout=llm_cfg.timeout_s,
                           max_retries=0)
    return OpenAIModel(client, llm_cfg.model, llm_cfg.response_format)
