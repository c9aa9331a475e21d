"""Memory between decisions: stores updated by events, and the per-agent views built from them."""
