"""The import order of the code, read from every module's imports (function bodies and
TYPE_CHECKING blocks included, since an import there still ties two modules together):

- layers: sim imports neither memory nor agents, memory does not import agents;
- no cycle between the modules of any package (sim, memory, agents), a cycle made only of
  `if TYPE_CHECKING:` imports included, nor between the rooms of sim (sim/<room>/ packages and
  top-level modules, each taken as one);
- no import of another module's private (_underscore) name, neither `from m import _x` nor
  `m._x` on an imported module.

The checks are plain functions over a graph, so each is also fed a small graph it must reject.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "memory", "agents")
# a lower layer never imports a higher one
LAYER = {"sim": 0, "memory": 1, "agents": 2}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: str  # the imported module, dotted
    names: tuple[str, ...]  # names taken from it (empty for `import m`)
    line: int


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for p in sorted((root / pkg).rglob("*.py")):
            out[module_name(p, root)] = p
    return out


def _resolve(source: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".") if is_package else source.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(source: str, text: str, known: set[str], is_package: bool = False
               ) -> Iterator[Import]:
    """Every import of a project module in `text`, wherever it stands in the file."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PACKAGES:
                    yield Import(source, a.name, (), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve(source, is_package, node)
            if mod.split(".")[0] not in PACKAGES:
                continue
            plain = []
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if sub in known:  # `from pkg import module`
                    yield Import(source, sub, (), node.lineno)
                else:
                    plain.append(a.name)
            if plain:
                yield Import(source, mod, tuple(plain), node.lineno)


def private_uses(source: str, text: str, known: set[str], is_package: bool = False
                 ) -> Iterator[str]:
    """`from m import _x`, and `alias._x` where alias names an imported project module."""
    tree = ast.parse(text)
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PACKAGES:
                    aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve(source, is_package, node)
            if mod.split(".")[0] not in PACKAGES:
                continue
            for a in node.names:
                if f"{mod}.{a.name}" in known:
                    aliases[a.asname or a.name] = f"{mod}.{a.name}"
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    yield f"{source}:{node.lineno}: imports {mod}.{a.name}"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            dotted = _dotted(node.value)
            if dotted in aliases:
                yield f"{source}:{node.lineno}: uses {aliases[dotted]}.{node.attr}"


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def upward(edges: Iterable[Import]) -> list[str]:
    return [f"{e.source}:{e.line}: imports {e.target}" for e in edges
            if LAYER[e.source.split(".")[0]] < LAYER[e.target.split(".")[0]]]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def room(module: str, known: set[str]) -> str:
    """sim.world.cargo -> sim.world; a top-level module of sim is a room of its own."""
    parts = module.split(".")
    return ".".join(parts[:2])


def graph_of(edges: Iterable[Import], key=lambda m: m) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for e in edges:
        a, b = key(e.source), key(e.target)
        if a != b:
            g.setdefault(a, set()).add(b)
    return g


def _project(root: Path = ROOT) -> tuple[list[Import], list[str]]:
    mods = modules(root)
    known = set(mods)
    edges, private = [], []
    for name, path in mods.items():
        text = path.read_text(encoding="utf-8")
        pkg = path.name == "__init__.py"
        edges += [e for e in imports_of(name, text, known, pkg) if e.target in known]
        private += list(private_uses(name, text, known, pkg))
    for folder in ("tests", "benchmarks", "scripts"):  # they use the code as its users do
        for path in sorted((root / folder).rglob("*.py")):
            name = module_name(path, root)
            private += list(private_uses(name, path.read_text(encoding="utf-8"), known))
    return edges, private


def package_cycles(edges: Iterable[Import]) -> list[list[str]]:
    """The cycles between the modules inside each package (an import across packages is the
    layer check's business)."""
    edges = list(edges)
    return [c for pkg in PACKAGES for c in cycles(graph_of(
        e for e in edges if e.source.split(".")[0] == pkg == e.target.split(".")[0]))]


@pytest.fixture(scope="module")
def project() -> tuple[list[Import], list[str]]:
    """The project's imports and private uses, read once by the worker that runs this file
    (at collection, every worker paid for it)."""
    return _project()


def sim_edges(edges: list[Import]) -> list[Import]:
    return [e for e in edges if e.source.startswith("sim.") and e.target.startswith("sim.")]


def test_no_upward_import(project) -> None:
    assert upward(project[0]) == []


def test_no_cycle_between_sim_modules(project) -> None:
    assert cycles(graph_of(sim_edges(project[0]))) == []


def test_no_cycle_inside_any_package(project) -> None:
    assert package_cycles(project[0]) == []


def test_no_cycle_between_sim_rooms(project) -> None:
    known = set(modules())
    assert cycles(graph_of(sim_edges(project[0]), lambda m: room(m, known))) == []


def test_no_private_name_crosses_a_module(project) -> None:
    assert project[1] == []


def test_the_graph_is_read_at_all(project) -> None:
    """An empty graph would pass every check above."""
    edges = project[0]
    assert len(edges) > 300
    assert any(e.source == "sim.world.world" and e.target == "sim.world.driver" for e in edges)


# ------------------------------------------------------------- the checks can fail


def test_a_cycle_is_found() -> None:
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_an_upward_import_and_a_function_body_cycle_are_found() -> None:
    known = {"sim.a", "sim.b", "agents.x"}
    a = "import agents.x\n\ndef f():\n    from sim.b import g\n"
    b = "from sim.a import h\n"
    edges = list(imports_of("sim.a", a, known)) + list(imports_of("sim.b", b, known))
    assert upward(edges) == ["sim.a:1: imports agents.x"]
    assert cycles(graph_of(e for e in edges if e.target.startswith("sim."))) == [
        ["sim.a", "sim.b"]]


def test_a_private_name_is_found() -> None:
    known = {"sim.a", "sim.b"}
    text = "from sim.b import _x, y\nfrom sim import b\n\nb._z()\nb.__name__\n"
    assert list(private_uses("sim.a", text, known)) == [
        "sim.a:1: imports sim.b._x", "sim.a:4: uses sim.b._z"]


def test_a_type_only_cycle_inside_a_package_is_found(tmp_path: Path) -> None:
    """Two modules of a small package that name each other's types only under TYPE_CHECKING
    (what memory's modes, view builders and agent once did) still make a cycle."""
    pkg = tmp_path / "memory"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "agent.py").write_text("from memory.modes import MODES\n")
    (pkg / "modes.py").write_text(
        "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from memory.agent import Agent\n\nMODES: dict = {}\n")
    (pkg / "views.py").write_text("from memory import modes\n")
    edges, private = _project(tmp_path)
    assert private == []
    assert package_cycles(edges) == [["memory.agent", "memory.modes"]]
    (pkg / "modes.py").write_text("MODES: dict = {}\n")  # the type moved out: no cycle
    assert package_cycles(_project(tmp_path)[0]) == []
