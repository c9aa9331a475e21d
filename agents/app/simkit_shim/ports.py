"""Typing-only protocols of the competition api (docs/competition.md §3); nothing here runs.

Any other name an agent imports from `simkit.ports` resolves to a permissive placeholder
protocol, because the official module's full list of names is not public.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class SimulationApiPort(Protocol):
    def get_driver_status(self, driver_id: str) -> dict[str, Any]: ...

    def query_cargo(self, driver_id: str, latitude: float, longitude: float,
                    k: int = 100) -> dict[str, Any]: ...

    def query_decision_history(self, driver_id: str, step: int) -> dict[str, Any]: ...

    def model_chat_completion(self, payload: dict[str, Any]) -> dict[str, Any]: ...


@runtime_checkable
class DecisionServicePort(Protocol):
    def decide(self, driver_id: str) -> dict[str, Any]: ...


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (Protocol,), {"__module__": __name__})
