"""The blind drivers files (benchmarks/blind_drivers/) and the set builder that runs them.

Written from the kind definitions by someone who had read neither the text reader nor the
phrase bank, they are the evaluation closest to the drivers files we will be checked on."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest

from sim.geo import haversine_km
from sim.preferences.kinds import build_rule, kind_names
from sim.scenario import load_scenario
from sim.scoring.scorer import read_driver_rows
from sim.world.cargo_stream import official_cargo_records

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "benchmarks" / "blind_drivers"
# file -> (driver id prefix, drivers)
FILES = {"drivers_blind_a.json": ("BA", 16), "drivers_blind_b.json": ("BB", 16),
         "drivers_blind_c.json": ("BC", 20), "drivers_blind_h.json": ("BH", 20),
         "drivers_blind_i.json": ("BI", 20), "drivers_blind_j.json": ("BJ", 20),
         "drivers_blind_k.json": ("BK", 20), "drivers_blind_l.json": ("BL", 20),
         "drivers_blind_m.json": ("BM", 20), "drivers_blind_n.json": ("BN", 20),
         "drivers_blind_o.json": ("BO", 20), "drivers_blind_p.json": ("BP", 20),
         "drivers_blind_q.json": ("BQ", 20), "drivers_blind_r.json": ("BR", 20),
         "drivers_blind_s.json": ("BS", 20), "drivers_blind_t.json": ("BT", 20),
         "drivers_blind_u.json": ("BU", 20), "drivers_blind_v.json": ("BV", 20),
         "drivers_blind_w.json": ("BW", 20), "drivers_blind_x.json": ("BX", 20),
         "drivers_blind_y.json": ("BY", 20), "drivers_blind_ca.json": ("CA", 20),
         "drivers_blind_z.json": ("BZ", 20), "drivers_blind_cb.json": ("CB", 20),
         "drivers_blind_cc.json": ("CC", 20), "drivers_blind_cd.json": ("CD", 20),
         "drivers_blind_ce.json": ("CE", 20), "drivers_blind_cf.json": ("CF", 20),
         "drivers_blind_cg.json": ("CG", 20), "drivers_blind_ch.json": ("CH", 20),
         "drivers_blind_ci.json": ("CI", 20), "drivers_blind_cj.json": ("CJ", 20),
         "drivers_blind_ck.json": ("CK", 20), "drivers_blind_cl.json": ("CL", 20),
         "drivers_blind_cm.json": ("CM", 20),
         "drivers_blind_cn.json": ("CN", 20)}


def one_promise_on_day_two(name: str, tmp_path: Path) -> tuple[dict, dict, Path]:
    """(driver row, its must-take rule, the file holding that driver alone): the file's first
    driver with a must-take rule, the rule moved to 2 March so a two-day draw lists it."""
    rows = json.loads((BLIND / name).read_text(encoding="utf-8"))
    row = copy.deepcopy(next(r for r in rows if any(
        p["structured"]["kind"] == "must_take_cargo" for p in r["preferences"])))
    rule = next(p for p in row["preferences"] if p["structured"]["kind"] == "must_take_cargo")
    rule["start_time"], rule["end_time"] = "2026-03-02 07:00:00", "2026-03-02 23:59:59"
    src = tmp_path / "blind.json"
    src.write_text(json.dumps([row], ensure_ascii=False), encoding="utf-8")
    return row, rule, src


def builder():
    path = ROOT / "benchmarks" / "policy_eval" / "blind_set.py"
    spec = importlib.util.spec_from_file_location("blind_set", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("blind_set", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_blind_file_holds_every_kind_in_rules_the_scorer_reads(name: str) -> None:
    rows = json.loads((BLIND / name).read_text(encoding="utf-8"))
    prefix, count = FILES[name]
    assert [r["driver_id"] for r in rows] == [f"{prefix}{i:02d}" for i in range(1, count + 1)]
    kinds = set()
    for r in rows:
        assert 3 <= len(r["preferences"]) <= 4
        for p in r["preferences"]:
            params = dict(p["structured"]["params"])
            if p["structured"]["kind"] == "must_take_cargo":
                assert params["cargo_id"] == "{CARGO}"
                assert "{CARGO}" in p["content"]
                params["cargo_id"] = "C00000001"
            build_rule(p["structured"]["kind"], params)  # raises on a bad gold reading
            kinds.add(p["structured"]["kind"])
    assert kinds == set(kind_names())


def test_a_blind_set_names_a_cargo_listed_that_day_near_the_driver(tmp_path: Path) -> None:
    """The builder's must-take cargo is a real cargo of the market draw, listed on the rule's
    day near the driver; the set runs in the harness as a fresh split."""
    bs = builder()
    row, rule, src = one_promise_on_day_two("drivers_blind_a.json", tmp_path)
    toml, drivers = bs.build([src], "calibrated", 515, tmp_path / "set")
    sc = load_scenario(str(toml))
    assert sc.scenario.seed == 515
    assert Path(sc.drivers.file).resolve() == drivers.resolve()
    got = read_driver_rows(drivers)[row["driver_id"]]
    filled = next(p for p in got["preferences"]
                  if p["structured"]["kind"] == "must_take_cargo")
    cid = filled["structured"]["params"]["cargo_id"]
    assert cid != "{CARGO}"
    assert cid in filled["content"]
    assert "{CARGO}" not in filled["content"]
    cargo = next(r for r in official_cargo_records(sc.with_overrides(scenario={"days": 2}))
                 if r["cargo_id"] == cid)
    assert filled["start_time"] == cargo["create_time"]
    assert cargo["create_time"].startswith("2026-03-02")
    assert haversine_km(row["current_lat"], row["current_lng"], cargo["start"]["lat"],
                        cargo["start"]["lng"]) <= 30
    # the other rules are the blind file's own, untouched
    assert [p for p in got["preferences"] if p is not filled] == [
        p for p in row["preferences"] if p is not rule]


def test_a_blind_file_without_the_token_is_refused_by_driver(tmp_path: Path) -> None:
    bs = builder()
    rows = json.loads((BLIND / "drivers_blind_b.json").read_text(encoding="utf-8"))
    for r in rows:
        for p in r["preferences"]:
            if p["structured"]["kind"] == "must_take_cargo":
                p["structured"]["params"]["cargo_id"] = "C123"
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(bs.BlindFileError, match=r"bad\.json: driver BB\d\d, must-take rule 1: "
                                                r"cargo_id expected '\{CARGO\}', found 'C123'"):
        bs.build([src], "calibrated", 515, tmp_path / "set")
    assert bs.main([str(src), "--out", str(tmp_path / "set")]) == 2


def test_a_budget_set_gives_each_driver_without_a_budget_one_the_reader_reads() -> None:
    """`--budgets SEED`: the deadhead-pacing check on drivers it was not tuned on. Every
    driver without a K9 rule gets one, uncapped, in the ranges said, in its own texts'
    language, for the month its other rules span, worded so the text reader gets it
    exactly; the drivers that had one are left out; the draw is the seed's."""
    from sim.scoring.scorer import default_parser

    bs = builder()
    rows = json.loads((BLIND / "drivers_blind_b.json").read_text(encoding="utf-8"))
    had = {r["driver_id"] for r in rows
           if any(p["structured"]["kind"] == bs.BUDGET for p in r["preferences"])}
    assert had  # the file has drivers with a budget: they must be left out
    out = bs.with_budgets(rows, 9)
    assert [r["driver_id"] for r in out] == [r["driver_id"] for r in rows
                                              if r["driver_id"] not in had]
    parse = default_parser()
    by_id = {r["driver_id"]: r for r in rows}
    langs = set()
    for r in out:
        *others, rule = r["preferences"]
        assert others == by_id[r["driver_id"]]["preferences"]
        assert rule["structured"]["kind"] == bs.BUDGET
        assert rule["penalty_cap"] is None
        km = rule["structured"]["params"]["max_km"]
        assert bs.BUDGET_KM[0] <= km <= bs.BUDGET_KM[1]
        assert bs.BUDGET_FINE[0] <= rule["penalty_amount"] <= bs.BUDGET_FINE[1]
        month = [p for p in others if p["structured"]["kind"] != bs.MUST_TAKE]
        assert rule["start_time"] == min(p["start_time"] for p in month)
        assert rule["end_time"] == max(p["end_time"] for p in month)
        zh = sum(bool(bs.CJK.search(p["content"])) for p in others)
        lang = "zh" if 2 * zh >= len(others) else "en"
        assert bool(bs.CJK.search(rule["content"])) == (lang == "zh")
        langs.add(lang)
        reading = parse(rule["content"])
        got = (reading.best if hasattr(reading, "best") else reading).to_dict()
        assert got["kind"] == bs.BUDGET, rule["content"]
        assert got["params"]["max_km"] == km, rule["content"]
    assert langs == {"zh", "en"}
    assert bs.with_budgets(rows, 9) == out
    assert bs.with_budgets(rows, 10) != out


@pytest.mark.parametrize("market", ["west", "delta"])
def test_a_blind_set_on_a_market_nothing_was_tuned_on(tmp_path: Path, market: str) -> None:
    """`--market` offers the fresh-only markets too: the set's TOML is that market's own
    (its cargo model, seed replaced) and its must-take cargo is one of that market's draw."""
    bs = builder()
    row, _, src = one_promise_on_day_two("drivers_blind_b.json", tmp_path)
    out = tmp_path / "set"
    assert bs.main([str(src), "--market", market, "--seed", "77", "--out", str(out)]) == 0
    toml = out / f"{market}-fresh.toml"
    own = tomllib.loads((ROOT / "benchmarks" / "policy_eval" / f"{market}-fresh.toml")
                        .read_text(encoding="utf-8"))
    made = tomllib.loads(toml.read_text(encoding="utf-8"))
    assert made["cargo"] == own["cargo"]  # the market's cargo model, not the calibrated one
    sc = load_scenario(str(toml))
    assert sc.scenario.seed == 77
    got = read_driver_rows(Path(sc.drivers.file))[row["driver_id"]]
    cid = next(p for p in got["preferences"]
               if p["structured"]["kind"] == "must_take_cargo")["structured"]["params"][
        "cargo_id"]
    assert any(r["cargo_id"] == cid for r in official_cargo_records(
        sc.with_overrides(scenario={"days": 2})))
    with pytest.raises(SystemExit) as bad:  # argparse names the markets it offers
        bs.main([str(src), "--market", "north", "--out", str(out)])
    assert bad.value.code == 2
