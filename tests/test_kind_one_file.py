"""Adding a preference kind is adding one module: a throwaway 25th kind dropped into a copy of the
packages is parsed from text, scored, described mid-run and drawn for generated drivers with no
other file edited; and each of the 24 kinds keeps its drawer and text templates in its own file."""

from __future__ import annotations

import ast
import inspect
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The whole kind, as an engineer would write it: params, §7.6-style test, penalty model, hint,
# text patterns, progress, drawer and text templates. It counts repositions (empty moves) beyond
# a monthly allowance.
K25 = '''
"""K25 (throwaway): at most max_moves repositions over the run."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sim.preferences.text.common import Claim, hit
from sim.preferences.text.extract import Facts
from sim.preferences.kinds.params import Count, Params
from sim.preferences.kinds.base import Counters, Kind, RuleContext
from sim.preferences.kinds.drawing import DrawContext, Drawn
from sim.official.penalties import PenaltyModel
from sim.preferences.progress import Progress, ProgressContext, Status
from sim.official.steps import ActionKind, StepLog


@dataclass(frozen=True)
class MaxRepositionsParams(Params):
    max_moves: Count


class MaxRepositions(Kind):
    name = "max_repositions"
    number = 25
    family = "throwaway"
    model = PenaltyModel.COUNT
    Params = MaxRepositionsParams

    def violations(self, log: StepLog, ctx: RuleContext) -> Counters:
        moves = [s.index for s in log.steps
                 if s.action is ActionKind.REPOSITION and ctx.step_in_scope(s)]
        return {"violations": max(0, len(moves) - self.params.max_moves), "moves": moves}

    @classmethod
    def hint(cls, params: MaxRepositionsParams) -> str:
        return f"Make at most {params.max_moves} empty repositions in the whole run."

    def progress(self, ctx: ProgressContext, counters: Counters, penalty: float) -> Progress:
        status, fined = self.fined(penalty)
        n = len(counters["moves"])
        if status is Status.OK and n >= self.params.max_moves:
            status = Status.AT_RISK
        return status, f"repositions {n} of {self.params.max_moves}{fined}", None

    @staticmethod
    def recognise(f: Facts) -> Claim | None:
        m = re.search(r"(\\d+)\\s*(?:次)?\\s*(?:repositions?|调车)", f.num, re.I)
        if m is None or not hit(f, r"reposition|调车"):
            return None
        return Claim("max_repositions", 4.0, {"max_moves": int(m.group(1))})

    @classmethod
    def draw(cls, ctx: DrawContext) -> Drawn[MaxRepositionsParams]:
        n = int(ctx.step(2, 6, 1))
        return Drawn(MaxRepositionsParams(max_moves=n), {"n": n})

    @staticmethod
    def zh(v: dict[str, Any]) -> list[str]:
        return [f"这个月最多{v['n']}次调车。"]

    @staticmethod
    def en(v: dict[str, Any]) -> list[str]:
        return [f"At most {v['n']} repositions this month."]
'''

SCRIPT = r'''
import datetime as dt
import json
import numpy as np
from sim.preferences.draw import draw_preferences, to_official
from memory.rule_progress import DAY_KINDS, END_KINDS, STEP_KINDS, RuleProgress, rules_from_entries
from sim.preferences.schema import KINDS
from sim.preferences.text.reading import parse_preference
from sim.official.cargo_index import index_cargo
from sim.preferences.kinds import kind_names, preference_schema
from sim.scoring.scorer import default_parser, read_preferences, score_preferences
from sim.geo import Point
from sim.official.steps import StepLog
from sim.official.versions import settings_for
from competition_logs import LogBuilder

text = "这个月最多3次调车，多一次扣钱50元"
entry = {"content": text, "start_time": "2026-03-01 00:00:00",
         "end_time": "2026-03-31 23:59:59", "penalty_amount": 50.0, "penalty_cap": None}
home = (22.54, 114.05)
b = LogBuilder("d1", *home, [])
for i in range(5):
    b.reposition(22.54 + 0.05 * (i % 2), 114.05).wait(30)
s = settings_for("S4")
prefs = read_preferences([entry], s, default_parser(), 3)
log = StepLog.from_records(b.records, index_cargo([]))
reports, total = score_preferences(prefs, log, s, 3, Point(*home))
rp = RuleProgress(rules_from_entries([entry], n_days=3, version="S4"), n_days=3,
                  version="S4", initial=Point(*home))
for rec in b.records:
    rp.on_step(rec)
(state,) = rp.states(b.t)
drawn = [to_official(p) for p in draw_preferences(
    np.random.default_rng(1), 2, lang="mixed", kinds={"max_repositions"}, home=home,
    start_day=dt.date(2026, 3, 1), days=31)]
print(json.dumps({
    "names": kind_names(), "parser_kinds": list(KINDS),
    "enum": preference_schema()["properties"]["kind"]["enum"],
    "parsed": parse_preference(text).to_dict(), "total": total,
    "line": state.status_line(), "status": str(state.status), "penalty": state.penalty,
    "month_kind": "max_repositions" not in DAY_KINDS | STEP_KINDS | END_KINDS,
    "drawn": drawn,
    "reparsed": [parse_preference(d["content"]).to_dict() for d in drawn],
}, ensure_ascii=False))
'''


def test_a_25th_kind_is_one_module(tmp_path: Path) -> None:
    for pkg in ("sim", "memory", "data"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "tests" / "competition_logs.py", tmp_path / "competition_logs.py")
    (tmp_path / "sim/preferences/kinds/k25_max_repositions.py").write_text(textwrap.dedent(K25))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["names"][-1] == "max_repositions"
    assert len(got["names"]) == 25
    assert got["parser_kinds"] == got["names"]
    assert got["enum"] == got["names"]
    assert got["parsed"] == {"kind": "max_repositions", "params": {"max_moves": 3},
                             "penalty_amount": 50.0, "penalty_cap": None}
    # 5 repositions against an allowance of 3: two fined at 50 each
    assert got["total"] == 100.0
    assert got["line"] == "#1 max_repositions [violated] repositions 5 of 3, fined 100 so far"
    assert got["status"] == "violated"
    assert got["penalty"] == 100.0
    assert got["month_kind"]  # no scope declared: re-tested over the whole log
    # generated drivers draw it: its own params and wording, a count fine when stated
    for d, back in zip(got["drawn"], got["reparsed"], strict=True):
        n = d["structured"]["params"]["max_moves"]
        assert d["structured"] == {"kind": "max_repositions", "params": {"max_moves": n}}
        assert 2 <= n <= 6
        assert d["content"].startswith((f"这个月最多{n}次调车", f"At most {n} repositions"))
        assert back["kind"] == "max_repositions"
        assert back["params"] == {"max_moves": n}


def test_the_copy_without_the_module_has_24_kinds(tmp_path: Path) -> None:
    """The control: the same copy and script minus the new module do not know the kind."""
    for pkg in ("sim", "data"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    code = ("from sim.preferences.kinds import kind_names; "
            "from sim.preferences.text.reading import parse_preference;"
            "print(len(kind_names()), parse_preference('这个月最多3次调车，多一次扣钱50元'))")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)},
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr
    n, parsed = run.stdout.split(" ", 1)
    assert n == "24"
    assert "max_repositions" not in parsed


# what a kind's module holds for generated drivers, and the generic drawer that may hold none of it
DRAW_PARTS = ("draw", "zh", "en")
GENERIC_DRAWER = ROOT / "sim" / "preferences" / "draw.py"


def test_every_kind_draws_and_words_itself_in_its_own_file() -> None:
    """Each kind's drawer and its Chinese and English templates are defined in the kind's own
    module, not borrowed from elsewhere; the generic drawer names no kind and defines no
    per-kind function (it picks kinds, languages, fines and windows, and asks the kind)."""
    from sim.preferences.kinds import REGISTRY

    misplaced = []
    for name, cls in REGISTRY.items():
        for part in DRAW_PARTS:
            fn = inspect.unwrap(getattr(vars(cls).get(part), "__func__", vars(cls).get(part)))
            if fn is None or fn.__module__ != cls.__module__:
                misplaced.append((name, part))
    assert misplaced == []
    tree = ast.parse(GENERIC_DRAWER.read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert strings.isdisjoint(REGISTRY), sorted(strings & set(REGISTRY))
    functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert functions == {"to_official", "draw_preferences"}
