"""The preference language: the 24 kinds a driver's preference may be (docs/competition.md §7.5-§8).

kinds/ (one file per kind: params, test, penalty, text pattern, drawer and templates), schema
(the structured form every parser produces, and its check), text/ (the text parser), draw
(preferences for generated drivers), progress (where a rule stands during a run), pins (fixed
readings of texts). The vocabulary of text/ sits below the kinds; its parser above them.
"""
