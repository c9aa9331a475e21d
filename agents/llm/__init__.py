"""The LLM layer: model interface and wrappers, the OpenAI adapter, call/repair/fallback,
prompts and token accounting. It knows nothing of the agents that use it."""

# registers the providers as the choices of `[llm] backend`
from agents.llm import providers as _providers  # noqa: F401
