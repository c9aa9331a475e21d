"""The competition's official scorer (docs/competition.md §6-§7), rebuilt from the spec.

validate (§6 steps 1-7) and scorer (`score_run`: income, each preference kind's test and
penalty). The arithmetic it shares with the environment (time base, steps, windows, versions,
penalties, income) is sim/official/; the kinds are sim/preferences/kinds/.
"""
