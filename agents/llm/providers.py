"""LLM providers, one registry: what `[llm] backend` may name and how its model is built.

An entry names a provider and a factory that builds its live model from the scenario's [llm]
table; the factory imports the provider's module when a scenario names it (mem0's
utils/factory.py), so a provider with its own client library costs nothing to runs that do not
use it. Everything else composes the same way over any provider:
retries, then record/replay from `[llm] cache` (a replayed run never builds the live model),
then the call budget. `deterministic` has no factory: the agents' deterministic policies
answer. `rules` is its old spelling (RENAMED): read for one release, with a warning.

Scenario validation and every check of "does this run ask a model" derive from PROVIDERS, so a
new provider is its own module, one `register(Provider(...))` line at the bottom of this file
with a factory that imports that module, and its test (tests/test_registries.py registers a
throwaway one from the test alone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agents.llm.budgets import CallLimitModel
from agents.llm.language_model import LanguageModel, LLMError
from agents.llm.record_replay import SingleFlightRecordReplayModel
from agents.llm.resilience import RetryModel
from sim.scenario import current_choice, register_choices

if TYPE_CHECKING:
    from sim.scenario import LLMConfig

DETERMINISTIC = "deterministic"
# old spelling -> current provider name, read with a deprecation warning for one release
RENAMED = {"rules": DETERMINISTIC}


@dataclass(frozen=True)
class Provider:
    name: str
    # builds the live model from [llm]; None: no model, the deterministic policies answer
    factory: Callable[[LLMConfig], LanguageModel] | None
    aliases: tuple[str, ...] = ()  # other names a scenario may use for it
    # whether [llm] base_url is a raw OpenAI Chat Completions endpoint (the competition
    # harness's chat gateway posts to it)
    openai_compatible: bool = False

    @property
    def uses_model(self) -> bool:
        return self.factory is not None


PROVIDERS: dict[str, Provider] = {}


def _names() -> tuple[str, ...]:
    return tuple(n for p in PROVIDERS.values() for n in (p.name, *p.aliases))


def register(provider: Provider) -> Provider:
    others = {n for p in PROVIDERS.values() if p.name != provider.name
              for n in (p.name, *p.aliases)}
    if others & {provider.name, *provider.aliases}:
        raise ValueError(f"provider name {provider.name!r} or an alias is taken")
    PROVIDERS[provider.name] = provider
    register_choices("llm", "backend", _names(), RENAMED)
    return provider


def unregister(name: str) -> None:
    """Drop a provider (tests that register a throwaway one clean up with this)."""
    PROVIDERS.pop(name, None)
    register_choices("llm", "backend", _names())


def provider_names() -> tuple[str, ...]:
    """Every name `[llm] backend` accepts, aliases included."""
    return _names()


def get(name: str) -> Provider:
    name = current_choice("llm", "backend", name)
    for p in PROVIDERS.values():
        if name == p.name or name in p.aliases:
            return p
    raise KeyError(f"unknown LLM provider {name!r}; one of {', '.join(_names())}")


def uses_model(name: str | None) -> bool:
    """Whether a run with this backend asks a model (False for an unknown name, e.g. an old
    report's)."""
    try:
        return name is not None and get(name).uses_model
    except KeyError:
        return False


def build_model(llm_cfg: LLMConfig, cache_path: Path | None) -> LanguageModel | None:
    """The model stack a scenario's [llm] table asks for: provider -> retries ->
    record/replay -> call budget; None for a provider without a model."""
    provider = get(llm_cfg.backend)
    if not provider.uses_model:
        return None
    inner: LanguageModel | None = None
    if not llm_cfg.replay:
        assert provider.factory is not None
        inner = RetryModel(provider.factory(llm_cfg), llm_cfg.max_retries, llm_cfg.backoff_s)
    if cache_path is None:
        if inner is None:
            raise LLMError("replay_miss", "replay needs [llm] cache")
        model: LanguageModel = inner
    else:
        model = SingleFlightRecordReplayModel(inner, cache_path, llm_cfg.replay, llm_cfg.model)
    if llm_cfg.max_calls:
        model = CallLimitModel(model, llm_cfg.max_calls)
    return model


def _openai(llm_cfg: LLMConfig) -> LanguageModel:
    from agents.llm.openai_adapter import from_config

    return from_config(llm_cfg)


# `llm` is the name scenarios used before there was more than one provider
register(Provider(DETERMINISTIC, None))
register(Provider("openai", _openai, aliases=("llm",), openai_compatible=True))
