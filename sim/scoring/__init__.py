"""The competition's official scorer (docs/competition.md §6-§7), rebuilt from the spec.

validate (§6 steps 1-7), pins (fixed readings of preference texts), progress (where each rule
stands during a run), scorer (`score_run`); `kinds/` one file per preference kind (§7.5-7.6).
The arithmetic it shares with the environment (time base, steps, windows, versions, penalties,
income) is sim/spec/. It knows nothing of agents or memory.
"""
