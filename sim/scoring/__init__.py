"""The competition's official scorer (docs/competition.md §6-§7), rebuilt from the spec.

One job per module: `timebase` (minutes, haversine), `cargo` (the raw cargo index), `steps`
(the step model of §7.2), `windows` (validity windows §7.3), `versions` (S1-S4 §7.1),
`penalties` (§7.4), `kinds/` (one file per preference kind, §7.5-7.6), `validate` (§6 steps
1-7), `income` (§6 step 8), `scorer` (`score_run`). It knows nothing of agents or memory.
"""

from sim.scoring.scorer import ScoreReport, ScoringInputError, score_run
from sim.scoring.versions import ScoringVersion, VersionSettings, settings_for

__all__ = ["ScoreReport", "ScoringInputError", "ScoringVersion", "VersionSettings", "score_run",
           "settings_for"]
