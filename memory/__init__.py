"""Memory between decisions: stores updated by events, and the per-agent views built from them."""

from memory import modes as _modes  # noqa: F401  (registers the memory modes with the loader)
