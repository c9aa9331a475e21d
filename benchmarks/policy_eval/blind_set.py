"""Turn blind drivers files (benchmarks/blind_drivers/) into a set `policy_eval.py` runs.

The blind files were written by someone who had read neither the text reader nor the phrase
bank (`phrases.py`), from the kind definitions only, so they measure the reader and the
policy on wording nobody tuned to. Their must-take rules say a day and hold the token
`{CARGO}`; this fills each with a cargo of the market draw listed that day near the driver
(the same choice as `make_drivers.py`) and sets the rule's start to its listing time.

    python benchmarks/policy_eval/blind_set.py benchmarks/blind_drivers/drivers_blind_*.json \\
        --market east --seed 515 --out runs/blind-east   # or calibrated, west, delta
    python benchmarks/policy_eval.py --set-dir runs/blind-east --split fresh --market east \\
        --read text ...

`--budgets SEED` makes a set for one failure class instead: every driver without a monthly
deadhead budget (K9) is given one, uncapped, drawn from SEED (600-2,000 km at 30-200 yuan a
km), worded by the phrase bank in the language of the driver's own texts; the drivers that
had a budget are left out. It checks the budget pacing (docs/agents.md) on drivers and
markets the pacing was not tuned on.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_drivers import (  # noqa: E402
    FRESH,
    FRESH_MARKETS,
    Home,
    file_name,
    pick_must_take,
    set_market_seed,
)
from phrases import k09  # noqa: E402

from sim.geo import County, haversine_km, load_counties  # noqa: E402
from sim.preferences.kinds import build_rule  # noqa: E402

TOKEN = "{CARGO}"
MUST_TAKE = "must_take_cargo"
BUDGET = "max_total_deadhead_km"
BUDGET_KM = (600, 2000)  # the drawn budget's range, km a month
BUDGET_FINE = (30, 200)  # its fine's range, yuan a km past it
CJK = re.compile(r"[\u4e00-\u9fff]")


class BlindFileError(ValueError):
    """A blind drivers file that cannot make a set; the message names file, driver, rule."""


def must_take_rules(rows: list[dict], where: str) -> list[tuple[str, dict, dict]]:
    """(key, driver row, rule) for each must-take rule; the key is the driver id, with the
    rule's position added when a driver has more than one."""
    out = []
    for row in rows:
        ks = [p for p in row["preferences"] if p["structured"]["kind"] == MUST_TAKE]
        for j, p in enumerate(ks):
            if p["structured"]["params"].get("cargo_id") != TOKEN:
                raise BlindFileError(f"{where}: driver {row['driver_id']}, must-take rule "
                                     f"{j + 1}: cargo_id expected {TOKEN!r}, found "
                                     f"{p['structured']['params'].get('cargo_id')!r}")
            key = row["driver_id"] if len(ks) == 1 else f"{row['driver_id']}#{j + 1}"
            out.append((key, row, p))
    return out


def nearest_county(lat: float, lng: float) -> County:
    return min(load_counties(), key=lambda c: haversine_km(lat, lng, c.lat, c.lng))


def wants_of(rules: list[tuple[str, dict, dict]]) -> list[tuple[str, Home, dict, int]]:
    """What `pick_must_take` looks for: near the driver's start, on the rule's day, fitting
    the driver's other rules."""
    wants = []
    for key, row, p in rules:
        lat, lng = float(row["current_lat"]), float(row["current_lng"])
        others = {q["structured"]["kind"]: q["structured"]["params"]
                  for q in row["preferences"] if q["structured"]["kind"] != MUST_TAKE}
        day = int(p["start_time"][8:10]) - 1
        wants.append((key, Home(nearest_county(lat, lng), lat, lng), others, day))
    return wants


def fill(rows: list[dict], rules: list[tuple[str, dict, dict]], picks: dict[str, dict]
         ) -> list[dict]:
    """The rows with every `{CARGO}` replaced by its picked cargo; rules checked by the
    scorer's own reader."""
    by_rule = {id(p): picks[key] for key, _, p in rules}
    out = []
    for row0 in rows:
        row = json.loads(json.dumps(row0))
        for p0, p in zip(row0["preferences"], row["preferences"], strict=True):
            pick = by_rule.get(id(p0))
            if pick is not None:
                p["content"] = p["content"].replace(TOKEN, pick["cargo_id"])
                p["structured"]["params"]["cargo_id"] = pick["cargo_id"]
                p["start_time"] = pick["create_time"]
                p["end_time"] = pick["create_time"][:10] + " 23:59:59"
            build_rule(p["structured"]["kind"], p["structured"]["params"])
        out.append(row)
    return out


def with_budgets(rows: list[dict], seed: int) -> list[dict]:
    """The drivers without a deadhead budget, each given an uncapped one drawn from `seed`
    (in row order, so the same rows and seed give the same set) and worded in the language
    most of the driver's texts are in."""
    rng = random.Random(seed)
    out = []
    for row0 in rows:
        if any(p["structured"]["kind"] == BUDGET for p in row0["preferences"]):
            continue
        row = json.loads(json.dumps(row0))
        zh = sum(bool(CJK.search(p["content"])) for p in row["preferences"])
        lang = "zh" if 2 * zh >= len(row["preferences"]) else "en"
        params = {"max_km": float(rng.randrange(BUDGET_KM[0], BUDGET_KM[1] + 1, 100))}
        fine = float(rng.randrange(BUDGET_FINE[0], BUDGET_FINE[1] + 1, 10))
        # the month the driver's other rules span (a must-take rule spans its day only)
        month = [p for p in row["preferences"] if p["structured"]["kind"] != MUST_TAKE]
        start = min(p["start_time"] for p in month)
        end = max(p["end_time"] for p in month)
        row["preferences"].append({
            "content": k09(params, fine, None, lang, rng), "start_time": start,
            "end_time": end, "penalty_amount": fine, "penalty_cap": None,
            "structured": {"kind": BUDGET, "params": params}})
        out.append(row)
    return out


def build(files: list[Path], market: str, seed: int, out_dir: Path,
          budgets: int | None = None) -> tuple[Path, Path]:
    """-> (market TOML, drivers file) in `out_dir`, for `policy_eval.py --split fresh`;
    with `budgets`, only the drivers `with_budgets` gives a budget."""
    rows: list[dict] = []
    rules: list[tuple[str, dict, dict]] = []
    for f in files:
        got = json.loads(f.read_text(encoding="utf-8"))
        if budgets is not None:
            got = with_budgets(got, budgets)
        rows += got
        rules += must_take_rules(got, str(f))
    ids = [r["driver_id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise BlindFileError(f"{', '.join(map(str, files))}: driver ids repeat")
    base = (HERE / FRESH_MARKETS[market]).read_text(encoding="utf-8")
    name = file_name(FRESH, market)
    out_dir.mkdir(parents=True, exist_ok=True)
    toml = out_dir / f"{market}-{FRESH}.toml"
    toml.write_text(set_market_seed(base, seed, name), encoding="utf-8")
    picks = pick_must_take(toml, wants_of(rules)) if rules else {}
    drivers = out_dir / name
    drivers.write_text(json.dumps(fill(rows, rules, picks), ensure_ascii=False, indent=2)
                       + "\n", encoding="utf-8")
    return toml, drivers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="blind drivers files")
    ap.add_argument("--market", choices=sorted(FRESH_MARKETS), default="calibrated",
                    help="the market drawn: a split's (calibrated, east) or a fresh-only one "
                         "(west, delta), on which nothing was tuned")
    ap.add_argument("--seed", type=int, default=515, help="the market draw's [scenario] seed")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--budgets", type=int, metavar="SEED",
                    help="only the drivers without a deadhead budget, each given one drawn "
                         "from SEED (the budget-pacing check)")
    args = ap.parse_args(argv)
    try:
        toml, drivers = build(args.files, args.market, args.seed, args.out, args.budgets)
    except (BlindFileError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {toml}\nwrote {drivers}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
