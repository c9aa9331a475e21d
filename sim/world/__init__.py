"""The generator world: a SimPy run over Guangdong's counties.

world (the run), driver (one driver's process), events and recorder (what happens and its
Parquet), cargo, cargo_stream (the calibrated market), market (search), dispatch and actions
(what a policy may decide), effects (side effects deferred to an event), step_log (decisions as
official step records), driver_preferences (drawing, scoring and writing the 24-kind rules),
order_costs (what an order costs and whether it fits), competition_files (official-format files
read into this world). It knows nothing of memory or agents: a driver calls its `Policy`.
"""
