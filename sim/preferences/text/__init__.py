"""The text parser: free-text preferences (Chinese and English) to the structured form of the
24 kinds (sim/preferences/schema.py).

`extract` (numbers, clocks, dates, places... read once into `Facts`), `rx` (the regex engine),
`common` (keyword groups, `hit`/`span` helpers and the `Claim` record), `parser` (runs every
registered kind's `recognise`), `evidence` (what establishes each kind in a text), `reading`
(`read_preference`: the best reading with its confidence; `parse_preference`: the best form) and
`evaluate` (accuracy on the evaluation sets). A kind's own text patterns live in its class,
sim/preferences/kinds/kNN_*.py; the vocabulary here imports no kind, the parser and reading do.
"""
