"""Preferences (the 24 competition kinds, the only ones) in the generator world: step log,
drawing, scoring, outputs."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pandas as pd
import pytest

from agents.app.runner import build_run
from sim.official.versions import settings_for
from sim.preferences.draw import KINDS
from sim.scenario import CALIBRATED_CATEGORY_WEIGHTS, DriverSpec, PreferenceEntry, ScenarioError
from sim.scenario import parse_scenario as parse
from sim.world.step_log import chained
from tests.conftest import SCENARIOS, Run, cli

BASE = """
[scenario]
name = "rules"
seed = {seed}
days = {days}
start = "2026-03-01T00:00:00"
[cargo]
model = "calibrated"
cargo_per_day = 3000
[drivers]
count = {count}
preferences_per_driver = {prefs}
{drivers}
[memory]
mode = "off"
"""


def scenario(seed: int = 5, days: int = 2, count: int = 3, drivers: str = "", prefs: int = 0):
    return parse(BASE.format(seed=seed, days=days, count=count, drivers=drivers, prefs=prefs))


def run_world(sc, out: Path):
    world, _ = build_run(sc, out)
    world.run()
    return world, Run(out)


@pytest.fixture(scope="module")
def all_kinds(tmp_path_factory: pytest.TempPathFactory):
    sc = scenario(prefs=24, drivers='preference_kinds = "all"\npreference_lang = "mixed"')
    return run_world(sc, tmp_path_factory.mktemp("all_kinds"))


def test_all_24_kinds_sum_per_driver(all_kinds) -> None:
    _world, run = all_kinds
    prefs = pd.read_parquet(run.dir / "preferences.parquet")
    assert set(prefs.kind) == set(KINDS)  # every kind drawn and scored, none unscored
    assert prefs.scored.all()
    assert (prefs.groupby("driver_id").size() == 24).all()
    per_driver = prefs.groupby("driver_id").penalty.sum()
    drivers = run.drivers.set_index("driver_id")
    for did, total in per_driver.items():
        # each rule is rounded on its own, the driver total once (INTERPRETATIONS.md 7)
        assert drivers.loc[did, "penalty"] == pytest.approx(total, abs=0.01 * 24)
        assert drivers.loc[did, "n_preferences"] == 24
    assert (drivers.score == drivers.income - drivers.penalty).all()
    assert set(drivers.columns).isdisjoint({"rule_penalty", "n_rules"})  # one penalty column
    assert run.drivers.penalty.sum() > 0  # the greedy baseline ignores the preferences
    rules = run.summary["preferences"]
    assert sum(v["penalty"] for v in rules["penalty_by_kind"].values()) == pytest.approx(
        run.summary["penalty"], abs=0.01 * len(prefs))
    assert rules["scoring_version"] == "S4"
    assert rules["unscored"] == []
    assert run.summary["score"] == pytest.approx(
        run.summary["net_income"] - run.summary["penalty"], abs=0.05)


def test_step_log_shape_and_chaining(all_kinds) -> None:
    world, run = all_kinds
    lines = (run.dir / "step_log.jsonl").read_text(encoding="utf-8").splitlines()
    recs = [json.loads(x) for x in lines]
    by_driver: dict[str, list[dict]] = {}
    for r in recs:
        by_driver.setdefault(r["driver_id"], []).append(r)
    horizon = world.horizon
    for did, rs in by_driver.items():
        assert [r["step"] for r in rs] == list(range(1, len(rs) + 1))
        assert chained(rs)
        assert rs[-1]["result"]["simulation_progress_minutes"] >= horizon
        for a, b in itertools.pairwise(rs):
            assert a["position_after"] == b["position_before"]
        for r in rs:
            assert r["action"]["action"] in ("wait", "reposition", "take_order")
            assert all(isinstance(r[k], int) for k in (
                "step_elapsed_minutes", "query_scan_cost_minutes", "action_exec_cost_minutes"))
        takes = [r for r in rs if r["action"]["action"] == "take_order"
                 and r["result"]["accepted"]]
        row = run.drivers.set_index("driver_id").loc[did]
        assert len(takes) == row.orders + row.unpaid_orders or len(takes) == row.orders + 1
        # a search is a zero-exec wait (never rest); its minutes are scan minutes
        searches = [r for r in rs if r["action"] == {"action": "wait",
                                                     "params": {"duration_minutes": 0}}]
        assert len(searches) == row.searches
        assert all(r["action_exec_cost_minutes"] == 0 for r in searches)


def test_known_violation_forbidden_category(tmp_path: Path) -> None:
    """A driver forbidden half the categories: the greedy driver takes them anyway, and K5
    counts exactly those takes (checked against the world's own cargo, not the scorer's)."""
    forbidden = [name for name, _ in CALIBRATED_CATEGORY_WEIGHTS[:6]]
    rule = PreferenceEntry("不拉" + "、".join(forbidden), "forbidden_cargo_category",
                {"categories": forbidden}, 100.0, None)
    spec = DriverSpec("K5", 22.75, 113.9, 1.5, (rule,))
    sc = scenario(seed=8, days=3, count=1).with_overrides(drivers={"fixed": (spec,)})
    world, run = run_world(sc, tmp_path / "out")
    steps = [json.loads(x) for x in (run.dir / "step_log.jsonl").read_text().splitlines()]
    taken = [r["result"]["cargo_id"] for r in steps
             if r["action"]["action"] == "take_order" and r["result"]["accepted"]]
    bad = [c for c in taken if world.market.registry[c].category in forbidden]
    assert bad, "the scenario must make the greedy driver take a forbidden category"
    prefs = pd.read_parquet(run.dir / "preferences.parquet")
    (row,) = prefs.itertuples()
    counters = json.loads(row.counters)
    assert counters["violations"] == len(bad)
    assert row.penalty == 100.0 * len(bad)  # null cap: uncapped in S4
    assert run.drivers.penalty.iloc[0] == 100.0 * len(bad)


def test_no_preferences_no_step_log(tmp_path: Path) -> None:
    world, run = run_world(scenario(count=2, days=1), tmp_path / "out")
    assert world.step_recorder is None
    assert not (run.dir / "preferences.parquet").exists()
    assert "preferences" not in run.summary
    assert (run.drivers.penalty == 0).all()


def test_drawn_rules_leave_other_streams_alone() -> None:
    from types import SimpleNamespace

    import numpy as np

    from sim.geo import Geography
    from sim.world.world import World

    def specs(sc):
        geo = Geography.guangdong()
        rng = np.random.default_rng(np.random.SeedSequence(sc.scenario.seed).spawn(4)[1])
        return World._driver_specs(SimpleNamespace(scenario=sc, geo=geo, rng_drivers=rng,
                                                   listings=None))

    a = specs(scenario(count=4))
    b = specs(scenario(count=4, prefs=3, drivers="preference_lang = \"en\""))
    assert [(x.lat, x.lng) for x in a] == [(x.lat, x.lng) for x in b]
    assert all(len(x.rules) == 3 for x in b)
    assert not any(x.rules for x in a)
    # English prose (category and place names stay Chinese, as cargo records write them)
    assert all(sum(c.isascii() for c in r.text) > 0.7 * len(r.text) for x in b for r in x.rules)


def test_rule_keys_validated() -> None:
    with pytest.raises(ScenarioError, match="preference_kinds"):
        scenario(prefs=2, drivers='preference_kinds = ["no_such_kind"]')
    with pytest.raises(ScenarioError, match="preference_lang"):
        scenario(prefs=2, drivers='preference_lang = "fr"')
    sc = scenario(prefs=2, drivers='preference_kinds = ["max_haul_km", "quiet_window"]')
    assert sc.drivers.preference_kinds == ("max_haul_km", "quiet_window")


def test_drivers_file_rules_never_crash(tmp_path: Path) -> None:
    """Official drivers-file objects: structured -> scored; unreadable text -> unscored with a
    warning; a plain string is a preference too."""
    drivers = [{
        "driver_id": "F1", "current_lat": 23.1, "current_lng": 113.3, "cost_per_km": 1.5,
        "preferences": [
            {"content": "每单空驶不超过30公里", "start_time": "2026-03-01 00:00:00",
             "end_time": "2026-03-02 23:59:59", "penalty_amount": 50, "penalty_cap": None,
             "structured": {"kind": "max_pickup_deadhead_km", "params": {"max_km": 30}}},
            {"content": "老婆说要早点回家吃饭，别太晚", "penalty_amount": 200,
             "penalty_cap": 400, "start_time": "2026-03-01 00:00:00"},
            "随便写写的一句话",
            {"content": "x", "structured": {"kind": "max_haul_km", "params": {"bad": 1}},
             "penalty_amount": 10, "penalty_cap": 10},
        ]}]
    (tmp_path / "drivers.json").write_text(json.dumps(drivers, ensure_ascii=False), "utf-8")
    text = BASE.format(seed=3, days=2, count=0, drivers='file = "drivers.json"', prefs=0)
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    proc = cli("run", str(path), "--out", str(out), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert "preference penalty" in proc.stdout
    run = Run(out)
    prefs = pd.read_parquet(out / "preferences.parquet").set_index("index")
    assert prefs.loc[1, "kind"] == "max_pickup_deadhead_km"
    assert prefs.loc[1, "scored"]
    unscored = run.summary["preferences"]["unscored"]
    try:
        import sim.preferences.text  # noqa: F401
    except ImportError:  # without a text parser the two prose rules cannot be read
        assert {u["index"] for u in unscored} >= {2, 3}
    assert 4 in {u["index"] for u in unscored}  # a bad structured form: unscored, no crash
    assert any("bad structured form" in w for w in run.summary["preferences"]["warnings"])
    assert not prefs.loc[4, "scored"]
    assert prefs.loc[4, "penalty"] == 0.0


def test_month_rules_scenario_parses() -> None:
    from sim.scenario import load_scenario

    sc = load_scenario(SCENARIOS / "month-rules.toml")
    assert sc.drivers.preferences_per_driver == 24
    assert sc.drivers.preference_kinds == ()
    assert settings_for(sc.scenario.scoring).version.value == "S4"


def test_compete_writes_per_preference_penalties(tmp_path: Path) -> None:
    """Competition rules with generated drivers carrying drawn rules: the run's own output has
    the scorer's report (official shape) and one table row per preference."""
    from tests.competition_data import cargo_rows, write_cargo

    write_cargo(tmp_path / "cargo.jsonl", cargo_rows(1, 150))
    p = tmp_path / "comp.toml"
    p.write_text('[scenario]\nname = "c"\ndays = 1\nruleset = "competition"\n'
                 'start = "2026-03-01T00:00:00"\n[cargo]\nfile = "cargo.jsonl"\n'
                 '[drivers]\ncount = 2\npreferences_per_driver = 3\n'
                 '[memory]\nmode = "off"\n', encoding="utf-8")
    proc = cli("compete", str(p), "--agent", "tests.agents.comp_agent:ModelDecisionService",
               "--out", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    comp = tmp_path / "o" / "competition"
    score = json.loads((comp / "monthly_income_202603.json").read_text(encoding="utf-8"))
    rules = [r for d in score["drivers"] for r in d["preference_check"]["rules"]]
    assert len(score["drivers"]) == 2
    assert len(rules) == 6
    assert all(r["rule"].startswith("K") for r in rules)  # structured: all scored
    table = (comp / "score_preferences.tsv").read_text(encoding="utf-8").splitlines()
    assert len(table) == 1 + 6
    total = sum(float(x.split("\t")[3]) for x in table[1:])
    assert total == pytest.approx(score["summary"]["total_preference_penalty"], abs=0.06)


def test_late_start_is_shifted_to_the_scorer_epoch(tmp_path: Path) -> None:
    """A world starting 2026-03-02 08:00 gets one wait step over the minutes before it."""
    text = BASE.format(seed=2, days=1, count=1, drivers="", prefs=2).replace(
        'start = "2026-03-01T00:00:00"', 'start = "2026-03-02T08:00:00"')
    world, run = run_world(parse(text), tmp_path / "out")
    recs = world.step_recorder.records("D0000")
    first = recs[0]
    assert first["action"] == {"action": "wait", "params": {"duration_minutes": 1920}}
    assert first["result"]["simulation_progress_minutes"] == 1920
    assert chained(recs)
    assert run.summary["preferences"]["days_scored"] == 3  # day 0, day 1 and the 08:00-08:00 run


def test_step_mapping_on_hand_built_events() -> None:
    """The documented mapping, event by event: search -> zero-exec wait with scan minutes, a
    fractional boundary rounded up, failed take unmoved, accepted take with world km, a
    reposition with its road km, and a take still running at the end closed at its finish."""
    from datetime import datetime

    from sim.geo import Geography, Point
    from sim.world.cargo import Cargo
    from sim.world.events import ActionChosen, Drove, EventBus, OrderTaken, SearchDone, TakeFailed
    from sim.world.step_log import StepRecorder

    geo = Geography.guangdong()
    home, pick, dest = Point(23.0, 113.0), Point(23.1, 113.1), Point(23.5, 113.6)
    c1 = Cargo("C1", pick, dest, 500.0, 0.0, 0.0, 999.0, 999.0, 200.0, 70.0,
               category="蔬菜")
    c2 = Cargo("C2", dest, home, 300.0, 0.0, 0.0, 9999.0, 9999.0, 100.0, 90.0)
    bus = EventBus()
    rec = StepRecorder(bus, geo, {"A": home}, datetime(2026, 3, 1), {"C1": c1, "C2": c2})
    pub = bus.publish
    pub(ActionChosen(0.0, "A", "search"))
    pub(SearchDone(0.0, "A", 23.0, 113.0, 30.0, 3, 79))
    pub(ActionChosen(3.0, "A", "take_order", "X"))
    pub(TakeFailed(3.0, "A", "X", "expired"))
    pub(ActionChosen(4.0, "A", "wait", None, {"minutes": 10.5}))
    pub(ActionChosen(14.5, "A", "take_order", "C1"))  # 14.5 -> step boundary 15
    pub(OrderTaken(14.5, "A", "C1", 30.0, 30.0, 230.0, 15.0, 70.0))
    pub(Drove(30.0, "A", 14.5, home.lat, home.lng, pick.lat, pick.lng, 15.0, False))
    pub(Drove(230.0, "A", 60.0, pick.lat, pick.lng, dest.lat, dest.lng, 70.0, True))
    pub(ActionChosen(230.0, "A", "reposition", None, {"lat": 23.6, "lng": 113.7}))
    pub(Drove(250.0, "A", 230.0, dest.lat, dest.lng, 23.6, 113.7, 18.0, False))
    pub(ActionChosen(250.0, "A", "take_order", "C2"))
    pub(OrderTaken(250.0, "A", "C2", 300.0, 300.0, 400.0, 12.0, 90.0))
    rec.finish(300.0)  # the run ends while C2 is under way
    r = rec.records("A")
    assert [x["action"]["action"] for x in r] == ["wait", "take_order", "wait", "take_order",
                                                  "reposition", "take_order"]
    assert (r[0]["query_scan_cost_minutes"], r[0]["action_exec_cost_minutes"]) == (3, 0)
    assert r[1]["result"]["accepted"] is False
    assert r[1]["position_after"] == r[1]["position_before"]
    assert r[1]["action_exec_cost_minutes"] == 1
    assert r[2]["result"]["simulation_progress_minutes"] == 15  # ceil(14.5)
    assert r[2]["action_exec_cost_minutes"] == 11
    assert r[3]["result"]["accepted"] is True
    assert r[3]["result"]["pickup_deadhead_km"] == 15.0
    assert r[3]["position_after"] == {"lat": dest.lat, "lng": dest.lng}
    assert r[4]["result"]["distance_km"] == round(geo.road_km(dest, Point(23.6, 113.7)), 2)
    assert r[5]["result"]["simulation_progress_minutes"] == 400
    assert r[5]["position_after"] == {"lat": home.lat, "lng": home.lng}
    assert chained(r)
    log = rec.step_log("A")
    assert [t.cargo.category for t in log.takes] == ["蔬菜", ""]
    assert log.rest_intervals == [(4, 15)]  # the wait only: search and takes are not rest
    assert log.takes[0].cargo.start_city.startswith("广东省")


FIXED_K15 = """
[[drivers.fixed]]
driver_id = "K15"
lat = 22.75
lng = 113.9
preferences = [{text = "一天最多接1单，每多一单扣钱100元。"}]
"""


def test_fixed_driver_text_preference_penalised_as_the_scorer_says(tmp_path: Path) -> None:
    """A [[drivers.fixed]] preference given as text only (K15, at most 1 order a day, 100 yuan
    per extra order): the greedy driver takes more, and drivers.parquet's one penalty column is
    exactly that count from the step log times 100; score = income - penalty."""
    text = BASE.format(seed=8, days=3, count=0, drivers="", prefs=0) + FIXED_K15
    _world, run = run_world(parse(text), tmp_path / "out")
    steps = [json.loads(x) for x in (run.dir / "step_log.jsonl").read_text().splitlines()]
    per_day: dict[int, int] = {}
    for r in steps:
        if r["action"]["action"] == "take_order" and r["result"]["accepted"]:
            start = r["result"]["simulation_progress_minutes"] - r["step_elapsed_minutes"]
            day = (start + r["query_scan_cost_minutes"]) // 1440
            per_day[day] = per_day.get(day, 0) + 1
    extra = sum(max(0, n - 1) for n in per_day.values())
    assert extra > 0, "the greedy driver must take more than one order on some day"
    (row,) = run.drivers.itertuples()
    assert row.penalty == 100.0 * extra
    assert row.n_preferences == 1
    assert row.score == pytest.approx(row.income - row.penalty)
    prefs = pd.read_parquet(run.dir / "preferences.parquet")
    assert list(prefs.kind) == ["max_orders_per_day"]  # read by the text parser
    assert run.summary["penalty"] == pytest.approx(100.0 * extra)


def test_rules_per_driver_names_its_replacement() -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(drivers="rules_per_driver = 3")
    e = err.value
    assert e.key == "[drivers] rules_per_driver"
    assert "preferences_per_driver" in e.expected
    assert e.found == 3
    assert e.line == BASE.format(seed=5, days=2, count=3, drivers="rules_per_driver = 3",
                                 prefs=0).splitlines().index("rules_per_driver = 3") + 1


@pytest.mark.parametrize(("table", "key"), [
    ('{text = "x", structured = {kind = "no_such_kind", params = {}}}', "structured"),
    ('{text = "x", structured = {kind = "max_haul_km", params = {bad = 1}}}', "structured"),
    ('{text = "一天最多接2单", penalty_amount = -5}', "penalty_amount"),
    ('{text = "一天最多接2单", colour = "red"}', "colour"),
    ('{penalty_amount = 5}', "text"),
    ('"一天最多接2单"', "preferences"),
])
def test_bad_fixed_preferences_are_scenario_errors(table: str, key: str) -> None:
    text = BASE.format(seed=1, days=1, count=0, drivers="", prefs=0) + (
        f'[[drivers.fixed]]\nlat = 23.1\nlng = 113.3\npreferences = [{table}]\n')
    with pytest.raises(ScenarioError) as err:
        parse(text, "s.toml")
    assert err.value.path == "s.toml"
    assert err.value.key.startswith("[drivers.fixed] preferences")
    assert key in err.value.key or key == "preferences"


def test_fixed_structured_preference_is_the_competition_form() -> None:
    text = BASE.format(seed=1, days=1, count=0, drivers="", prefs=0) + (
        '[[drivers.fixed]]\nlat = 23.1\nlng = 113.3\npreferences = [{text = "少跑长途", '
        'penalty_amount = 50, structured = {kind = "max_haul_km", params = {max_km = 80}}}]\n')
    (spec,) = parse(text).drivers.fixed
    (rule,) = spec.rules
    assert rule.to_official() == {"content": "少跑长途", "start_time": None, "end_time": None,
                                  "penalty_amount": 50.0, "penalty_cap": None,
                                  "structured": {"kind": "max_haul_km",
                                                 "params": {"max_km": 80}}}


def test_generated_month_draws_only_the_24_kinds() -> None:
    """Every shipped generator scenario's generated drivers carry `preferences_per_driver`
    preferences, each of one of the 24 kinds, all structured (nothing left to a parser)."""
    from types import SimpleNamespace

    import numpy as np

    from sim.geo import Geography
    from sim.scenario import load_scenario
    from sim.world.world import World

    for name in ("month.toml", "month-rules.toml", "default.toml"):
        sc = load_scenario(SCENARIOS / name)
        rng = np.random.default_rng(np.random.SeedSequence(sc.scenario.seed).spawn(4)[1])
        specs = World._driver_specs(SimpleNamespace(scenario=sc, geo=Geography.guangdong(),
                                                    rng_drivers=rng, listings=None))
        assert len(specs) == sc.drivers.count
        n = sc.drivers.preferences_per_driver
        assert n > 0
        assert all(len(s.rules) == n for s in specs)
        kinds = {r.kind for s in specs for r in s.rules}
        assert kinds <= set(KINDS)
        if n >= 3:
            assert len(kinds) > 10  # drawn across the registry, not a fixed few


MUST_TAKE = 'preference_kinds = ["must_take_cargo"]'


def _must_take(specs) -> list[PreferenceEntry]:
    return [r for s in specs for r in s.rules if r.kind == "must_take_cargo"]


def _opens_at_listing(start: str, end: str, created: str) -> bool:
    """The window opens at the cargo's listing, as in the competition's data: on the first
    whole minute the cargo is online (the official clock counts a cargo created at 12:30:23
    online from minute 12:30), so a promise tried when its window opens finds it."""
    opens, made = pd.Timestamp(start), pd.Timestamp(created)
    return (made.floor("min") <= opens < made + pd.Timedelta(minutes=1)
            and opens <= pd.Timestamp(end))


def _listed_inside(rule: PreferenceEntry, created: dict[str, str]) -> bool:
    """The rule's cargo is a cargo of the run, online when the rule's window opens."""
    cid = rule.params["cargo_id"]
    return cid in created and _opens_at_listing(rule.start_time, rule.end_time, created[cid])


def test_must_take_rules_name_cargo_the_market_lists_inside_their_window(tmp_path) -> None:
    """A drawn K19 id that the market never lists costs every agent the fine, and a take of a
    missing id aborts the official scoring: each drawn id is a cargo of the exported market
    (`freightsim export-cargo`), created inside the rule's window, and the competition drivers
    file and the generator world name the same cargo."""
    from agents.app.compete import official_drivers
    from sim.world.cargo_stream import official_cargo_records

    sc = parse(BASE.format(seed=11, days=4, count=8, prefs=1, drivers=MUST_TAKE).replace(
        "cargo_per_day = 3000", "cargo_per_day = 400").replace(
        'start = "2026-03-01T00:00:00"', 'start = "2026-03-01T00:00:00"\nruleset = "competition"'))
    created = {r["cargo_id"]: r["create_time"] for r in official_cargo_records(sc)}
    drivers = official_drivers(sc)
    rules = [p for d in drivers for p in d["preferences"]]
    assert len(rules) == 8
    for p in rules:
        cid = p["structured"]["params"]["cargo_id"]
        assert cid in created, cid
        assert _opens_at_listing(p["start_time"], p["end_time"], created[cid]), (cid, p)
        assert cid in p["content"]
    assert len({p["structured"]["params"]["cargo_id"] for p in rules}) > 1
    world, _ = build_run(sc, tmp_path / "w")
    assert [r.to_official() for s in world.specs for r in s.rules] == rules


def test_must_take_rules_of_a_poisson_market_name_cargo_it_lists(tmp_path) -> None:
    """The generator's own market (no calibrated model): the world lists every drawn id inside
    its rule's window, and the draw leaves the cargo the world lists unchanged."""
    sc = parse(BASE.format(seed=3, days=2, count=5, prefs=1, drivers=MUST_TAKE).replace(
        'model = "calibrated"\ncargo_per_day = 3000\n', "rate_per_hour = 20\n"))
    plain = parse(BASE.format(seed=3, days=2, count=5, prefs=0, drivers="").replace(
        'model = "calibrated"\ncargo_per_day = 3000\n', "rate_per_hour = 20\n"))
    world, run = run_world(sc, tmp_path / "a")
    made = run.kind("cargo_created")
    created = {c: str(pd.Timestamp("2026-03-01") + pd.Timedelta(minutes=t))
               for c, t in zip(made.cargo_id, made.t, strict=True)}
    rules = _must_take(world.specs)
    assert len(rules) == 5
    assert all(_listed_inside(r, created) for r in rules), [r.params for r in rules]
    _, other = run_world(plain, tmp_path / "b")
    assert list(other.kind("cargo_created").cargo_id) == list(made.cargo_id)


def test_market_listings_read_ahead_then_hand_every_cargo_to_the_world_once() -> None:
    from datetime import date, datetime
    from types import SimpleNamespace

    from sim.world.cargo_listings import MarketListings

    def cargo(i: int, minute: float) -> SimpleNamespace:
        return SimpleNamespace(cargo_id=f"X{i}", create_time=minute, remove_time=minute + 90,
                               origin=SimpleNamespace(lat=23.0, lng=113.0))

    rows = [cargo(1, 10), cargo(2, 600), cargo(3, 1500), cargo(4, 1600), cargo(5, 4400)]
    m = MarketListings(rows, datetime(2026, 3, 1))
    assert list(m.listed_on(date(2026, 3, 2)).ids) == ["X3", "X4"]
    assert list(m.listed_on(date(2026, 3, 1)).ids) == ["X1", "X2"]  # read already, kept
    assert list(m.listed_on(date(2026, 3, 3)).ids) == []  # nothing created that day
    assert list(m.listed_on(date(2026, 3, 2)).online_minutes) == [90.0, 90.0]
    day2 = m.listed_on(date(2026, 3, 2))
    assert all(0 <= x < 1440 for x in day2.listed_minute)  # minutes into its own day
    assert [c.cargo_id for c in m] == ["X1", "X2", "X3", "X4", "X5"]
    with pytest.raises(RuntimeError):
        m.listed_on(date(2026, 3, 4))
