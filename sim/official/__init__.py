"""The competition's shared arithmetic (docs/competition.md §2, §6-§7), used by the generator
world, the competition environment, the scorer and the agents alike.

timebase (minutes, days, wall clock, drive minutes), cargo_index (the raw cargo file as the
scorer reads it), steps (the step model of §7.2), windows (validity windows §7.3), versions
(S1-S4 §7.1), penalties (§7.4), income (§6 step 8). Distances live in sim/geo.py.
"""
