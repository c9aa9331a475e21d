"""`freightsim preferences parse FILE` and `freightsim preferences eval`.

parse: reads a competition drivers file (a JSON array; preferences as strings or objects with
`content`/`text`) or our JSON Lines drivers (one driver object per line) and prints one JSON
object per preference. Exit 0 when every preference parses, 1 when some do not, 2 for a file
that cannot be read (reported as file:line message).
eval: scores the text parser on data/preference_eval.jsonl (or --file) per split and kind:
exact, kind and parameter accuracy, a confusion matrix, ambiguous and confidently wrong counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from sim.competition.drivers_file import driver_rows
from sim.scenario import ScenarioError


class DriversFileError(Exception):
    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class PreferenceText:
    driver_id: str
    index: int  # 1-based within the driver, counting the non-empty texts
    text: str


def _driver_entries(path: Path, line: int, row: object) -> list[PreferenceText]:
    if not isinstance(row, dict):
        raise DriversFileError(path, line, f"a driver object, got {type(row).__name__}")
    did = row.get("driver_id")
    if not isinstance(did, str | int) or str(did).strip() == "":
        raise DriversFileError(path, line, "driver_id: a non-empty string")
    prefs = row.get("preferences", [])
    if not isinstance(prefs, list):
        raise DriversFileError(path, line, f"driver {did}: preferences must be an array")
    out: list[PreferenceText] = []
    for p in prefs:
        if isinstance(p, str):
            text = p
        elif isinstance(p, dict):
            text = p.get("content", p.get("text"))
            if not isinstance(text, str):
                raise DriversFileError(path, line, f"driver {did}: a preference object needs a "
                                                   "string content or text")
        else:
            raise DriversFileError(path, line, f"driver {did}: a preference must be a string or "
                                               f"an object, got {type(p).__name__}")
        if text.strip():  # the scorer ignores empty contents
            out.append(PreferenceText(str(did), len(out) + 1, text))
    return out


def read_drivers_file(path: Path) -> list[PreferenceText]:
    """Every non-empty preference text of a drivers file, in file order. The rows come from
    the one drivers-file reader (JSON array or JSON Lines, each row with its line); only the
    texts are read from them, so a file of bare texts (strings as preferences) parses too."""
    try:
        buf = path.read_bytes()
    except OSError as exc:
        raise DriversFileError(path, 0, f"cannot read: {exc}") from None
    out: list[PreferenceText] = []
    rows = 0
    try:
        for n, row in driver_rows(path, buf):
            rows += 1
            out += _driver_entries(path, n, row)
    except ScenarioError as exc:
        raise DriversFileError(path, exc.line or 0,
                               f"{exc.key}: expected {exc.expected}, found {exc.found!r}"
                               ) from None
    if not rows:
        raise DriversFileError(path, 1, "no drivers")
    return out


def _model(args: argparse.Namespace):
    """An OpenAI-compatible model when --base-url is given (key from $OPENAI_API_KEY)."""
    if not args.base_url:
        return None
    import os

    import openai

    from agents.llm.openai_adapter import OpenAIModel
    from agents.llm.resilience import RetryModel
    client = openai.OpenAI(base_url=args.base_url, timeout=args.timeout, max_retries=0,
                           api_key=os.environ.get("OPENAI_API_KEY", "") or "sk-no-key")
    return RetryModel(OpenAIModel(client, args.model), max_retries=2)


def cmd_parse(args: argparse.Namespace) -> int:
    from agents.roles.preference_parse import choose_reading

    try:
        entries = read_drivers_file(Path(args.file))
    except DriversFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    model = _model(args)
    unparsed = 0
    for e in entries:
        r = choose_reading(e.text, model)
        if r.disagreement is not None:
            d = r.disagreement
            print(f"disagreement ({d.field}) on {e.driver_id}#{e.index}: parser "
                  f"{json.dumps(d.parser.to_dict(), ensure_ascii=False)} vs model "
                  f"{json.dumps(d.model.to_dict(), ensure_ascii=False)}", file=sys.stderr)
        p = r.preference
        unparsed += p is None
        print(json.dumps({"driver_id": e.driver_id, "index": e.index, "text": e.text,
                          "kind": p.kind if p else "unparsed", "params": p.params if p else None,
                          "penalty_amount": p.penalty_amount if p else None,
                          "penalty_cap": p.penalty_cap if p else None,
                          "parsed_by": r.parsed_by}, ensure_ascii=False))
    if unparsed:
        print(f"{unparsed} of {len(entries)} preferences unparsed", file=sys.stderr)
    return 1 if unparsed else 0


def cmd_eval(args: argparse.Namespace) -> int:
    from sim.preferences.text.evaluate import (
        format_confusion,
        format_params,
        format_score,
        load_rows,
        score,
    )

    text = Path(args.file).read_text(encoding="utf-8") if args.file else None
    rows = load_rows(text)
    present = list(dict.fromkeys(str(r.get("split")) for r in rows))
    splits = present if args.split == "all" else [args.split]
    for name in splits:
        s = score(rows, name)
        print(format_score(s))
        print(format_confusion(s))
        print(format_params(s))
        if args.misses:
            for r, got in s.misses:
                read = "unparsed" if got is None else json.dumps(got.to_dict(),
                                                                 ensure_ascii=False)
                print(f"  miss {r.get('id', '?')}: {read}")
    return 0


def add_preferences_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("preferences", help="parse preference texts; score the parser")
    psub = p.add_subparsers(dest="preferences_command", required=True)
    a = psub.add_parser("parse", help="print each preference of a drivers file as JSON")
    a.add_argument("file", help="competition drivers JSON array, or JSON Lines drivers")
    a.add_argument("--base-url", help="also ask this OpenAI-compatible server (model parser); "
                                      "it reads what the text parser cannot and is checked "
                                      "against it")
    a.add_argument("--model", default="default", help="model name for --base-url")
    a.add_argument("--timeout", type=float, default=60.0, help="seconds per model call")
    a.set_defaults(func=cmd_parse)
    e = psub.add_parser("eval", help="text-parser accuracy per kind on the evaluation set")
    e.add_argument("--split", default="all",
                   help="train, heldout, dev, ..., a prefix with * (heldout*: those splits "
                        "together) or all (each split in the file; default)")
    e.add_argument("--file", help="an evaluation JSON Lines file (default: the shipped one)")
    e.add_argument("--misses", action="store_true",
                   help="also print every row not read exactly (not for a held-out split "
                        "while the parser is being changed)")
    e.set_defaults(func=cmd_eval)
