"""Agents that drive the world: deterministic policies and LLM-backed agents over memory views."""
