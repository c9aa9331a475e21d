"""How many evaluation-set texts the default text parser reads as their gold `structured` form.

Agents run with `--read text` see only the texts, so a misread rule is planned wrong while the
scorer still charges the gold rule. This lists the rules read as another kind, or as the
right kind with other parameters (a gold parameter of null is not compared).

    python benchmarks/policy_eval/parser_agreement.py [drivers_tune.json ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sim.scoring.scorer import default_parser

HERE = Path(__file__).resolve().parent


def as_dict(parsed: object) -> dict | None:
    if parsed is None or isinstance(parsed, dict):
        return parsed
    if hasattr(parsed, "best"):  # the default parser returns a reading with its confidence
        return as_dict(parsed.best)
    return parsed.to_dict() if hasattr(parsed, "to_dict") else None


def agreement(path: Path) -> tuple[int, int, int, list[str]]:
    """-> (rules, right kind, right kind and params, one line per miss)."""
    parse = default_parser()
    if parse is None:
        raise SystemExit("no text parser in this build")
    n = kind_ok = exact = 0
    misses = []
    for row in json.loads(path.read_text(encoding="utf-8")):
        for p in row["preferences"]:
            n += 1
            gold = p["structured"]
            got = as_dict(parse(p["content"])) or {}
            if got.get("kind") != gold["kind"]:
                misses.append(f"{row['driver_id']} {gold['kind']} read as {got.get('kind')}: "
                              f"{p['content']}")
                continue
            kind_ok += 1
            params = got.get("params") or {}
            diff = {k: (params.get(k), v) for k, v in gold["params"].items()
                    if v is not None and params.get(k) != v}
            if diff:
                misses.append(f"{row['driver_id']} {gold['kind']} params (read, gold) {diff}: "
                              f"{p['content']}")
            else:
                exact += 1
    return n, kind_ok, exact, misses


def main(argv: list[str]) -> int:
    names = argv or ["drivers_tune.json", "drivers_heldout.json"]
    for name in names:
        path = Path(name) if Path(name).is_file() else HERE / name
        n, kind_ok, exact, misses = agreement(path)
        print(f"{path.name}: {n} rules, kind read right {kind_ok}, kind and params {exact}")
        for m in misses:
            print(f"  {m}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
