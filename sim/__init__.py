"""The freight simulator, one room per concern (the import order runs down this list):

geo (geography), redact; spec/ (the competition's shared arithmetic); scoring/ (the official
scorer and the preference kinds); preftext/ (the rules parser of preference text); scenario
(the scenario loader); competition/ (the competition environment); world/ (the generator
world); analysis/ (hindsight and metrics). Nothing in here knows about agents or memory.
"""
