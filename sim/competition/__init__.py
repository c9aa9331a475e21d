"""The competition environment (docs/competition.md), one job per module.

records (files in), clock (minutes and wall clock), pool (per-driver k-nearest), actions (the
arithmetic of wait/reposition/take_order), env (the run loop and the agent api), log (action logs
and run summary). `generator_files` keeps the generator world's `[cargo] file` import working.
"""

from sim.competition.generator_files import load_cargo, load_drivers

__all__ = ["load_cargo", "load_drivers"]
