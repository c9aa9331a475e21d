"""Registry of the 24 competition preference kinds, discovered from the `kNN_*.py` modules.

Adding a kind is one module defining one `Kind` subclass (plus its test): its params, §7.6
test, penalty model, hint, text recogniser (`recognise`), mid-run progress (`progress`,
`scope`, `judged_at_end`), and for generated drivers its drawer (`draw`) and Chinese and
English templates (`zh`, `en`). The registry (in K-number order), the kind-name enum and params
table of the parsers (text/), the scorer, memory/rule_progress.py and the drivers' draw
(sim/preferences/draw.py) follow from it; tests/test_kind_one_file.py adds a throwaway 25th
module to a copy of the packages to prove it.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from sim.preferences.kinds.base import Kind, RuleContext
from sim.preferences.kinds.params import Params, ParamsError


def _discover() -> dict[str, type[Kind]]:
    found: dict[str, type[Kind]] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not re.fullmatch(r"k\d\d_\w+", mod.name):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        classes = [c for c in vars(module).values()
                   if isinstance(c, type) and issubclass(c, Kind) and c is not Kind
                   and c.__module__ == module.__name__]
        if len(classes) != 1:
            raise ImportError(f"{module.__name__} must define exactly one Kind, "
                              f"found {len(classes)}")
        (cls,) = classes
        if cls.name in found:
            raise ImportError(f"kind {cls.name} defined twice")
        found[cls.name] = cls
    return dict(sorted(found.items(), key=lambda kv: kv[1].number))


REGISTRY: dict[str, type[Kind]] = _discover()


def kind_names() -> list[str]:
    """The snake_case names in K-number order (the enum of the parsers' JSON schema)."""
    return list(REGISTRY)


def get_kind(name: str) -> type[Kind]:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ParamsError(f"kind: unknown kind {name!r}") from None


def params_schema(kind: str) -> dict:
    return get_kind(kind).Params.json_schema()


def preference_schema() -> dict:
    """JSON schema of a parsed preference {kind, params, penalty_amount, penalty_cap}."""
    return {
        "type": "object",
        "properties": {
            "kind": {"enum": kind_names()},
            "params": {"type": "object"},
            "penalty_amount": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "penalty_cap": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        },
        "required": ["kind", "params"],
        "oneOf": [
            {"properties": {"kind": {"const": n}, "params": params_schema(n)}}
            for n in kind_names()
        ],
    }


def build_rule(kind: str, params: dict) -> Kind:
    return get_kind(kind).from_dict(params)


__all__ = ["REGISTRY", "Kind", "Params", "ParamsError", "RuleContext", "build_rule",
           "get_kind", "kind_names", "params_schema", "preference_schema"]
