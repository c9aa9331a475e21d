"""The text parser compiles each pattern once (sim/preferences/text/rx.py).

`re`'s own cache holds 512 patterns; the parser uses more than that, so going through `re`
recompiled most of them for every text (37.7 ms a text against 2.5 ms).
"""

from __future__ import annotations

import ast
from pathlib import Path

from sim.preferences.text import rx
from sim.preferences.text.reading import parse_preference

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ("每天至少连续休息6小时，违反一次罚200元", "Never take more than 3 orders a day.",
         "3月10日到3月12日不要去深圳市南山区", "家在广州市天河区，每晚23点前回家")


def test_a_second_parse_compiles_nothing() -> None:
    for t in TEXTS:
        parse_preference(t)
    first = rx.compile.cache_info()
    assert first.currsize > 100
    for t in TEXTS:
        parse_preference(t)
    again = rx.compile.cache_info()
    assert again.misses == first.misses
    assert again.hits > first.hits


def test_no_parser_module_matches_through_re_directly() -> None:
    calls = {"search", "match", "fullmatch", "findall", "finditer", "sub", "split"}
    files = [*(ROOT / "sim" / "preferences" / "text").glob("*.py"),
             *(ROOT / "sim" / "preferences" / "kinds").glob("k*.py")]
    assert len(files) > 24
    for path in files:
        if path.name == "rx.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                assert node.func.attr not in calls, f"{path.name}:{node.lineno} re.{node.func.attr}"
