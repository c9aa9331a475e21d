"""The policy evaluation set (benchmarks/policy_eval/) and its harness (benchmarks/policy_eval.py).

The drivers files must load as the official loop and scorer load them, every gold reading must
be one the scorer builds, each split must cover all 24 kinds in both languages; the harness
must run a tiny cut end to end and its checks must fail where they have to.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from sim.competition.drivers_file import load_driver_records
from sim.official.versions import settings_for
from sim.preferences.kinds import build_rule, kind_names
from sim.scenario import load_scenario
from sim.scoring.scorer import read_driver_rows, read_preferences

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "benchmarks" / "policy_eval"
FILES = {"tune": ["drivers_tune.json", "drivers_tune_east.json"],
         "heldout": ["drivers_heldout.json", "drivers_heldout_east.json"]}
MIN_DRIVERS = {"tune": 30, "heldout": 20}
CJK = re.compile(r"[\u4e00-\u9fff]")


def harness():
    spec = importlib.util.spec_from_file_location("policy_eval", ROOT / "benchmarks" /
                                                  "policy_eval.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("policy_eval", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("split", list(FILES))
def test_split_files_load_validate_and_cover_every_kind(split):
    ids_by_file = []
    for name in FILES[split]:
        path = SET / name
        rows = read_driver_rows(path)  # the scorer's loader
        records = load_driver_records(path)  # the official loop's loader
        assert len(rows) == len(records) >= MIN_DRIVERS[split]
        kinds, langs = set(), set()
        for did, row in rows.items():
            prefs = row["preferences"]
            assert 3 <= len(prefs) <= 4, did
            for p in prefs:
                st = p["structured"]
                build_rule(st["kind"], st["params"])  # raises on a bad structured form
                kinds.add(st["kind"])
                text = p["content"]
                latin = len(re.findall(r"[A-Za-z]", text))
                langs.add("zh" if len(CJK.findall(text)) > latin else "en")
                assert p["penalty_amount"] > 0
            for version in ("S2", "S4"):
                read = read_preferences(prefs, settings_for(version), parser=None)
                assert [r.unscored for r in read] == [None] * len(prefs), did
        assert set(kind_names()) == kinds, sorted(set(kind_names()) - kinds)
        assert langs == {"zh", "en"}
        ids_by_file.append(sorted(rows))
    assert ids_by_file[0] == ids_by_file[1]  # the markets' files hold the same drivers


def test_splits_are_disjoint_and_markets_differ_only_in_must_take_cargo():
    tune = json.loads((SET / "drivers_tune.json").read_text(encoding="utf-8"))
    held = json.loads((SET / "drivers_heldout.json").read_text(encoding="utf-8"))
    assert not {r["driver_id"] for r in tune} & {r["driver_id"] for r in held}
    assert not {p["content"] for r in tune for p in r["preferences"]} & \
        {p["content"] for r in held for p in r["preferences"]}
    east = json.loads((SET / "drivers_tune_east.json").read_text(encoding="utf-8"))
    n_k19 = 0
    for a, b in zip(tune, east, strict=True):
        for pa, pb in zip(a["preferences"], b["preferences"], strict=True):
            if pa["structured"]["kind"] == "must_take_cargo":
                n_k19 += 1
                cid = pa["structured"]["params"]["cargo_id"]
                assert cid in pa["content"]
                assert pb["structured"]["params"]["cargo_id"] \
                    in pb["content"]
            else:
                assert pa == pb
    assert n_k19 >= 3


def test_scenarios_point_at_their_split():
    for market in ("calibrated", "east"):
        for split in FILES:
            sc = load_scenario(str(SET / f"{market}-{split}.toml"))
            assert Path(sc.drivers.file).name in FILES[split]
            assert sc.scenario.days == 31
            assert sc.scenario.ruleset == "competition"
    assert load_scenario(str(SET / "calibrated-tune.toml")).scenario.seed == \
        load_scenario(str(ROOT / "scenarios" / "competition.toml")).scenario.seed


def _result(mod, mode, rows):
    return mod.RunResult("S2", mode, [mod.DriverResult(did, net, gross, 0.0, pen, {}, 1, 1, 0,
                                                       0) for did, net, gross, pen in rows],
                         0.0, "")


def test_checks_pass_and_fail_on_the_issue_targets():
    mod = harness()
    greedy = _result(mod, "off", [("A", 1000, 2000, 400), ("B", 1000, 2000, 400)])
    good = _result(mod, "x", [("A", 1300, 1900, 100), ("B", 1300, 2000, 100)])
    c = mod.check_against_greedy(greedy, good)
    assert c.ok
    assert c.net_ratio == 1.3
    assert c.penalty_share == 0.25
    # same total, but B loses more than 5% of greedy's gross (100): named
    uneven = _result(mod, "y", [("A", 1700, 2500, 100), ("B", 899, 2000, 100)])
    c = mod.check_against_greedy(greedy, uneven)
    assert c.net_ok
    assert c.penalty_ok
    assert not c.drivers_ok
    assert not c.ok
    assert [w["driver_id"] for w in c.worse_drivers] == ["B"]
    costly = _result(mod, "z", [("A", 1300, 2000, 201), ("B", 1300, 2000, 0)])
    assert not mod.check_against_greedy(greedy, costly).penalty_ok


def test_harness_runs_a_tiny_cut_end_to_end(tmp_path, capsys):
    mod = harness()
    args = ["--days", "1", "--drivers", "T10,T30", "--versions", "S2", "--out", str(tmp_path)]
    rc = mod.main([*args, "--modes", "off,bounded"])
    rep = json.loads(next(tmp_path.glob("report-*.json")).read_text(encoding="utf-8"))
    entry = rep["versions"]["S2"]
    assert set(entry["modes"]) == {"off", "bounded"}
    for body in entry["modes"].values():
        assert [d["driver_id"] for d in body["drivers"]] == ["T10", "T30"]
        for d in body["drivers"]:
            assert d["net"] == pytest.approx(d["gross"] - d["cost"] - d["penalty"], abs=0.05)
            assert d["steps"] >= 1
            assert d["longest_wait"] <= 1440 + 60
        assert body["totals"]["net"] == pytest.approx(sum(d["net"] for d in body["drivers"]))
    assert entry["checks"]["best_mode"] == "bounded"
    assert rc == (0 if entry["checks"]["ok"] else 1)
    # scoring the same runs again gives the same figures without running them
    first = json.dumps(entry["modes"]["bounded"]["drivers"])
    assert mod.main([*args, "--modes", "off,bounded", "--reuse"]) == rc
    again = json.loads(next(tmp_path.glob("report-*.json")).read_text(encoding="utf-8"))
    assert json.dumps(again["versions"]["S2"]["modes"]["bounded"]["drivers"]) == first
    out = capsys.readouterr().out
    assert "checks against off" in out
    assert "T10" in out
    # the greedy against itself can never earn 1.25x its own net: the checks must fail
    # (agents reading the texts alone, as in the competition; still scored with the gold)
    rc = mod.main([*args, "--modes", "off", "--read", "text", "--json",
                   str(tmp_path / "self.json")])
    self_check = json.loads((tmp_path / "self.json").read_text(encoding="utf-8"))
    assert self_check["agents_read"] == "text"
    text_run = Path(self_check["versions"]["S2"]["modes"]["off"]["run_dir"])
    given = json.loads((text_run / "competition" / "drivers.json").read_text(encoding="utf-8"))
    assert all("structured" not in p for r in given for p in r["preferences"])
    assert rc == 1
    assert self_check["versions"]["S2"]["checks"]["ok"] is False
    # bad input is refused before anything runs
    assert mod.main([*args, "--modes", "nosuchmode"]) == 2
    assert mod.main([*args[:2], "--drivers", "X99", "--out", str(tmp_path)]) == 2


def test_a_run_with_a_driver_ended_by_an_error_is_not_whole_and_fails(tmp_path, monkeypatch,
                                                                      capsys):
    """Failure class "a partial run passed as whole": a driver whose agent raised mid-month
    keeps a whole-looking log of its first steps, and the scorer scores that partial month.
    The report must name the driver and fail its checks, whatever the figures."""
    from agents.app.compete_adapter import FreightsimAgent

    mod = harness()
    real = FreightsimAgent.decide
    calls = {"T30": 0}

    def flaky(self, driver_id):
        if driver_id == "T30":
            calls["T30"] += 1
            if calls["T30"] == 3:
                raise RuntimeError("agent bug on the third step")
        return real(self, driver_id)

    monkeypatch.setattr(FreightsimAgent, "decide", flaky)
    args = ["--days", "1", "--drivers", "T10,T30", "--versions", "S2", "--out", str(tmp_path),
            "--modes", "off"]
    rc = mod.main([*args, "--json", str(tmp_path / "broken.json")])
    rep = json.loads((tmp_path / "broken.json").read_text(encoding="utf-8"))
    body = rep["versions"]["S2"]["modes"]["off"]
    assert rc == 1
    assert set(body["not_whole"]) == {"T30"}
    assert "agent bug on the third step" in body["not_whole"]["T30"]
    assert rep["versions"]["S2"]["checks"]["per_mode"]["off"]["whole"] is False
    assert "NOT WHOLE [off] T30" in capsys.readouterr().out
    # the same runs scored again (--reuse) are still not whole; a log cut short is named too
    run = Path(body["run_dir"]) / "competition"
    t10 = next(run.glob("*_T10_*"))
    lines = t10.read_text(encoding="utf-8").splitlines(keepends=True)
    t10.write_text("".join(lines[:-1]), encoding="utf-8")
    assert mod.main([*args, "--reuse", "--json", str(tmp_path / "again.json")]) == 1
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    why = again["versions"]["S2"]["modes"]["off"]["not_whole"]
    assert set(why) == {"T10", "T30"}
    assert f"{len(lines) - 1} of {len(lines)} steps" in why["T10"]
    # and a whole run of the same drivers is whole
    monkeypatch.setattr(FreightsimAgent, "decide", real)
    mod.main([*args, "--json", str(tmp_path / "whole.json")])
    whole = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
    assert whole["versions"]["S2"]["modes"]["off"]["not_whole"] == {}
    assert whole["versions"]["S2"]["checks"]["per_mode"]["off"]["whole"] is True


def test_stuck_drivers_are_named_no_order_for_days_and_shuttling(tmp_path):
    # two failure classes found on the month (docs/agents.md): a driver repositioning between
    # two points for days, and one without an order for more than two days
    mod = harness()
    a, b = {"lat": 23.9, "lng": 115.7}, {"lat": 23.93, "lng": 115.78}

    def rec(act, end, exe, before, after, accepted=None):
        r = {"action": {"action": act}, "step_elapsed_minutes": exe,
             "action_exec_cost_minutes": exe, "position_before": before,
             "position_after": after, "result": {"simulation_progress_minutes": end}}
        if accepted is not None:
            r["result"]["accepted"] = accepted
        return json.dumps(r)

    lines = [rec("take_order", 600, 600, a, a, True)]
    t = 600
    for _ in range(4):  # a -> b -> a -> b ...: three returns
        lines.append(rec("reposition", t + 10, 10, a, b))
        lines.append(rec("reposition", t + 20, 10, b, a))
        t += 20
    lines.append(rec("take_order", 4 * 1440, 600, a, a, True))  # starts after 3 days idle
    log = tmp_path / "actions.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")

    class Income:
        net_income = gross_income = cost = preference_penalty = 0.0

    class Driver:
        driver_id, rules, files, income = "T1", [], [str(log)], Income()
        calculation_aborted, validation_error = False, None

    class Report:
        version, n_days, drivers = "S2", 5, [Driver()]

    (d,) = mod.summarise(Report())
    assert d.shuttles == 7
    assert d.longest_without_order == 4 * 1440 - 600 - 600
    fails = d.failure_classes()
    assert "7 repositions back and forth" in fails
    assert any(f.startswith("no order for 76 h") for f in fails)


def test_a_long_wait_the_drivers_own_rules_ask_for_is_not_named_a_failure(tmp_path):
    """Failure class "a day-long wait" named P10's two whole days off (2,939 minutes in a row)
    and P06's family event: waits its rules ask for. They are named only past what the rules
    ask (N days off in a row, an event's window, each with a night's slack)."""
    mod = harness()
    rows = [{"driver_id": "A", "preferences": [
                {"structured": {"kind": "min_full_off_days", "params": {"min_days": 2}}}]},
            {"driver_id": "B", "preferences": [
                {"structured": {"kind": "home_stay_event", "params": {
                    "w0": "2026-03-27 16:00:00", "w1": "2026-03-28 09:00:00",
                    "w_end": "2026-03-28 09:00:00"}}}]},
            {"driver_id": "C", "preferences": [
                {"structured": {"kind": "quiet_window", "params": {"start": "21:30"}}}]}]
    path = tmp_path / "drivers.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    asked = mod.waits_asked(path)
    assert asked == {"A": 2 * 1440 + 720, "B": 17 * 60 + 720, "C": 720}

    def named(did, wait):
        d = mod.DriverResult(did, 0, 0, 0, 0, {}, 1, 1, wait, wait, wait_asked=asked[did])
        return [f for f in d.failure_classes() if f.startswith("wait of")]

    assert named("A", 2939) == []  # two days off in a row
    assert named("A", 4000) == ["wait of 4000 min (> 12 h nor what its rules ask)"]
    assert named("B", 816) == []  # home for the event
    assert named("C", 816) == ["wait of 816 min (> 12 h)"]


def test_lessons_are_taught_by_one_run_and_loaded_by_the_next(tmp_path):
    """`--lessons`: the memory modes' runs load the store and add what they learnt; the greedy
    neither reads nor teaches; runs in parallel are refused (each teaches the next)."""
    from memory.lessons import load_time_prior

    mod = harness()
    store = tmp_path / "lessons.sqlite"
    args = ["--days", "1", "--drivers", "T10,T30", "--versions", "S2", "--modes",
            "off,bounded", "--lessons", str(store)]
    assert mod.main([*args, "--out", str(tmp_path / "x"), "--jobs", "2"]) == 2
    assert not store.exists()
    mod.main([*args, "--out", str(tmp_path / "first")])
    prior = load_time_prior(store)
    assert prior is not None
    assert prior.rate > 0
    mod.main([*args, "--out", str(tmp_path / "second")])
    rep = json.loads(next((tmp_path / "second").glob("report-*.json")).read_text("utf-8"))
    assert rep["policy"]["lessons"] == str(store)
    runs = {m: Path(b["run_dir"]) for m, b in rep["versions"]["S2"]["modes"].items()}
    taught = json.loads((runs["bounded"] / mod.LESSONS_FILE).read_text("utf-8"))
    assert taught["lessons_loaded"] > 0  # the first run's lessons, read by the second
    assert sum(taught["lessons"].values()) > 0
    assert not (runs["off"] / mod.LESSONS_FILE).exists()


def maker():
    spec = importlib.util.spec_from_file_location("make_drivers", SET / "make_drivers.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_drivers", mod)
    spec.loader.exec_module(mod)
    return mod


def test_a_fresh_set_is_new_repeatable_and_runs_in_the_harness(tmp_path):
    """`make_drivers.py --fresh SEED`: drivers and a market draw nobody has tuned on, the same
    for the same seed, read by the harness with `--set-dir` (a check on files we do not have,
    as the targets will be checked). Seeds 36 and 51 draw their must-take cargo on the third
    day, so each call reads three days of the market, not fifteen."""
    mk = maker()
    assert mk.main(["--fresh", "36", "--drivers", "8", "--out", str(tmp_path / "a")]) == 0
    mk.main(["--fresh", "36", "--drivers", "8", "--out", str(tmp_path / "b")])
    mk.main(["--fresh", "51", "--drivers", "8", "--out", str(tmp_path / "c")])
    a, b, c = (tmp_path / x / "drivers_fresh.json" for x in "abc")
    assert a.read_bytes() == b.read_bytes()  # one seed, one set
    assert a.read_bytes() != c.read_bytes()
    toml = tmp_path / "a" / "calibrated-fresh.toml"
    sc = load_scenario(str(toml))
    held = load_scenario(str(SET / "calibrated-heldout.toml"))
    assert sc.scenario.seed != held.scenario.seed  # a new draw of the market...
    assert sc.cargo == held.cargo  # ...of the same market model
    assert Path(sc.drivers.file).resolve() == a.resolve()
    rows = read_driver_rows(a)
    assert sorted(rows) == [f"P{i:02d}" for i in range(1, 9)]
    shipped = {p["content"] for f in (*FILES["tune"], *FILES["heldout"])
               for r in json.loads((SET / f).read_text(encoding="utf-8"))
               for p in r["preferences"]}
    texts = [p["content"] for r in rows.values() for p in r["preferences"]]
    assert sum(t in shipped for t in texts) < len(texts) / 2  # new drivers, not a copy
    for r in rows.values():
        assert 3 <= len(r["preferences"]) <= 4
        for p in r["preferences"]:
            build_rule(p["structured"]["kind"], p["structured"]["params"])
    assert {p["structured"]["kind"] for r in rows.values() for p in r["preferences"]} == set(
        kind_names())  # every kind, as in the shipped splits
    with pytest.raises(SystemExit):  # too few drivers to hold every kind
        mk.main(["--fresh", "36", "--drivers", "5", "--out", str(tmp_path / "d")])
    # the harness reads it from --set-dir; a set that is not there is refused before any run
    mod = harness()
    out = tmp_path / "pe"
    args = ["--set-dir", str(tmp_path / "a"), "--split", "fresh", "--days", "1", "--drivers",
            "P01,P02", "--versions", "S2", "--modes", "off", "--out", str(out)]
    assert mod.main(args) == 1  # the greedy alone fails its own 1.25x
    rep = json.loads(next(out.glob("report-*.json")).read_text(encoding="utf-8"))
    assert (rep["split"], rep["market_seed"]) == ("fresh", sc.scenario.seed)
    assert [d["driver_id"] for d in rep["versions"]["S2"]["modes"]["off"]["drivers"]] == [
        "P01", "P02"]
    assert mod.main([*args[:1], str(tmp_path / "none"), *args[2:]]) == 2


DELTA = {"Shenzhen", "Dongguan", "Guangzhou", "Foshan"}


def _origin_share(cargo, cities: set[str]) -> float:
    w = dict(cargo.origin_city_weights)
    return sum(v for k, v in w.items() if k in cities) / sum(w.values())


def _night_market(sc, others) -> None:
    """west: its busiest hour in the evening (the calibrated one's in the morning), sparser."""
    hours = sc.cargo.hour_weights
    assert hours.index(max(hours)) >= 19
    assert others[0].hour_weights.index(max(others[0].hour_weights)) < 12
    assert sc.cargo.cargo_per_day < min(o.cargo_per_day for o in others)


def _short_haul_delta(sc, others) -> None:
    """delta: more short hauls, shorter listings and more of its origins in the delta's four
    big cities than any other market; a realistic month's size."""
    c = sc.cargo
    assert c.haul_short_share > max(o.haul_short_share for o in others)
    assert c.online_median_minutes < min(o.online_median_minutes for o in others)
    assert _origin_share(c, DELTA) > max(_origin_share(o, DELTA) for o in others)
    assert c.cargo_per_day >= 16000


@pytest.mark.parametrize(("market", "check"), [("west", _night_market),
                                              ("delta", _short_haul_delta)])
def test_a_fresh_set_on_a_market_of_its_own(tmp_path, market, check):
    """`make_drivers.py --fresh SEED --market west|delta`: the third and fourth markets have no
    tune or held-out split (no agent was tuned on them), only fresh draws; each model is
    unlike every other market's (`check`), and the harness runs it with `--market`."""
    mk = maker()
    assert mk.main(["--fresh", "36", "--market", market, "--drivers", "8", "--out",
                    str(tmp_path / "w")]) == 0
    toml = tmp_path / "w" / f"{market}-fresh.toml"
    sc = load_scenario(str(toml))
    assert sc.scenario.seed == 36
    drivers = tmp_path / "w" / f"drivers_fresh_{market}.json"
    assert Path(sc.drivers.file).resolve() == drivers.resolve()
    others = [load_scenario(str(SET / f"{m}-heldout.toml")).cargo for m in ("calibrated", "east")]
    for m in ("west", "delta"):  # the other fresh market, as a draw writes it
        if m != market:
            assert mk.main(["--fresh", "36", "--market", m, "--drivers", "8", "--out",
                            str(tmp_path / m)]) == 0
            others.append(load_scenario(str(tmp_path / m / f"{m}-fresh.toml")).cargo)
    assert all(sc.cargo != o for o in others)
    check(sc, others)
    rows = read_driver_rows(drivers)
    assert {p["structured"]["kind"] for r in rows.values() for p in r["preferences"]} == set(
        kind_names())
    out = tmp_path / "pe"
    args = ["--set-dir", str(tmp_path / "w"), "--split", "fresh", "--market", market, "--days",
            "1", "--drivers", "P01", "--versions", "S2", "--modes", "off", "--out", str(out)]
    assert harness().main(args) == 1  # a run, judged: the greedy alone fails its own 1.25x
    rep = json.loads(next(out.glob(f"report-{market}-*.json")).read_text(encoding="utf-8"))
    assert (rep["market"], rep["market_seed"]) == (market, 36)
    assert rep["versions"]["S2"]["modes"]["off"]["drivers"][0]["gross"] > 0


def test_the_policy_knobs_reach_each_runs_scenario():
    """`--fine-weight`, `--what-ifs` and `--place-weight` are the scenario's [policy] of every
    memory-mode job (the report's `policy` names them)."""
    mod = harness()
    split = ROOT / "benchmarks" / "policy_eval"
    job = mod.Job("calibrated", "tune", "S2", "cargo-market-driver", 1,
                  str(split / "drivers_tune.json"), str(split / "drivers_tune.json"), "run",
                  fine_weight=2.0, what_ifs="lean", place_weight=1.5)
    policy = mod.scenario_for(job).policy
    assert (policy.fine_weight, policy.what_ifs, policy.place_weight) == (2.0, "lean", 1.5)
    default = mod.Job("calibrated", "tune", "S2", "off", 1, job.drivers_file, job.cargo_file,
                      "run")
    assert mod.scenario_for(default).policy.place_weight == 0.0
