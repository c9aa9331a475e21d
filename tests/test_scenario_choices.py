"""Settings whose values a higher layer owns are checked by a bare `load_scenario` too.

`[memory] mode` and `[llm] backend` are registered by memory/ and agents/llm/; sim/scenario.py
finds them through the `freightsim.scenario_choices` entry points, so a notebook that loads a
scenario with nothing but `sim.scenario` imported gets the same error as the CLI.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BARE = """
import sys
from sim.scenario import ScenarioError, parse_scenario
assert "memory" not in sys.modules and "agents" not in sys.modules, "imported too early"
try:
    parse_scenario({text!r}, "s.toml")
except ScenarioError as e:
    print(e)
else:
    print("accepted")
"""


def _bare(text: str) -> str:
    out = subprocess.run([sys.executable, "-c", BARE.format(text=text)], cwd="/",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize(("table", "key", "listed"), [
    ("memory", "mode", "compressed"), ("llm", "backend", "openai")])
def test_bare_load_refuses_an_unknown_value(table: str, key: str, listed: str) -> None:
    msg = _bare(f'[{table}]\n{key} = "bogus"\n')
    assert msg.startswith("s.toml:2: "), msg
    assert f"[{table}] {key}" in msg
    assert "'bogus'" in msg
    assert listed in msg


def test_bare_load_accepts_a_registered_value() -> None:
    assert _bare('[memory]\nmode = "compressed"\n[llm]\nbackend = "openai"\n') == "accepted"


def test_the_world_layer_names_no_higher_layer() -> None:
    tree = ast.parse((ROOT / "sim" / "scenario.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"memory", "agents"}


def test_every_entry_point_registers_what_it_claims() -> None:
    from importlib.metadata import entry_points

    from sim.scenario import CHOICE_PLUGINS, CHOICES, load_choice_plugins
    names = {ep.name for ep in entry_points(group=CHOICE_PLUGINS)}
    assert names == {"memory", "llm"}
    load_choice_plugins()
    assert {("memory", "mode"), ("llm", "backend")} <= set(CHOICES)
