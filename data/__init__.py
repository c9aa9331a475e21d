"""Reference data shipped inside the package (county table, preference library, evaluation
sets), read through importlib.resources so an installed wheel finds it anywhere."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path


def read_text(name: str) -> str:
    """The UTF-8 text of a shipped data file."""
    return files(__name__).joinpath(name).read_text(encoding="utf-8")


def path(name: str) -> Path:
    """A filesystem path to a shipped data file (the package is installed unzipped)."""
    with as_file(files(__name__).joinpath(name)) as p:
        return Path(p)
