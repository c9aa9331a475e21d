"""Stands in for the official demo's `simkit` package when it is not installed.

Competition agents do `from simkit.ports import ...` for type hints only; `install()` registers
this package as `simkit` (and `simkit.ports`) so such agents import unchanged.
"""

from __future__ import annotations

import importlib
import sys


def install() -> bool:
    """Register the shim unless a real `simkit` is importable; True if the shim was installed."""
    try:
        importlib.import_module("simkit.ports")
        return False
    except ImportError:
        pass
    from agents.app.simkit_shim import ports

    sys.modules["simkit"] = sys.modules[__name__]
    sys.modules["simkit.ports"] = ports
    return True
