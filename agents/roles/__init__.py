"""The agents themselves (preference, search, cargo analysis, main decision, compression),
their deterministic policies, and the pipeline that composes them into a driver's policy."""
