"""A module binds each of its top-level names once (a name means one thing).

extract.py held two constants named `_NO_UNIT`, the units that stop a four-digit number
being read as a clock and those after a month.day; the second bound the name, so the
functions that read it at call time got the wrong set, and "≤1200 kilometers" read as ≤12:00
(tests/test_preftext_parser.py::test_a_four_digit_distance_in_kilometres_is_no_clock). Two
`_DAY_PART`s there worked only because one was read at import and the other at call time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "memory", "agents")


def rebound(source: str) -> dict[str, list[int]]:
    """Top-level names bound more than once (assignments, functions, classes), with their
    lines; names bound in branches (try/except imports, TYPE_CHECKING) are not top-level."""
    lines: dict[str, list[int]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            names = [node.target.id] if isinstance(node.target, ast.Name) else []
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        else:
            names = []
        for n in names:
            lines.setdefault(n, []).append(node.lineno)
    return {n: at for n, at in lines.items() if len(at) > 1}


def test_no_module_binds_a_top_level_name_twice() -> None:
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    assert len(files) > 100  # the packages were found
    found = {str(p.relative_to(ROOT)): r for p in files
             if (r := rebound(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_a_second_binding_is_found() -> None:
    src = "A = 1\ndef f():\n    return A\nA = 2\nclass C: ...\nC = 3\nx: int = 1\n"
    assert rebound(src) == {"A": [1, 4], "C": [5, 6]}
    assert rebound("try:\n    import a\nexcept ImportError:\n    a = None\n") == {}
