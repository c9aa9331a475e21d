"""The LLM layer: model interface and wrappers, the OpenAI adapter, call/repair/fallback,
prompts and token accounting. It knows nothing of the agents that use it."""
