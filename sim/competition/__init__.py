"""The competition environment (docs/competition.md), one job per module.

records (the cargo file in), drivers_file (the drivers file in), pool (per-driver k-nearest),
actions (the arithmetic of wait/reposition/take_order), env (the run loop and the agent api), log
(action logs and run summary), completeness (whether a run's outputs are whole). Its time base
is sim/official/timebase.py.
"""
