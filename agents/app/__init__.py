"""The application: the `freightsim` CLI, the runner that wires a scenario to a world, bench
and sweep."""
