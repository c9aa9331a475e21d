"""The freight world: clock, geography, cargo, market, drivers, preferences, events.

Nothing in here knows about agents or memory: a driver calls the `Policy` it is given.
"""
