"""The freight simulator, one room per concern (each imports only those before it):

geo, categories, typed_values, redact (one fact each); official/ (the competition's shared
arithmetic); preferences/ (the preference language: kinds, text parser, draw); scoring/ (the
official scorer); scenario (the scenario loader); competition/ (the competition environment);
world/ (the generator world); analysis/ (hindsight and metrics). Nothing in here knows about
agents or memory.
"""
