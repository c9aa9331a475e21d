"""The calibrated market: official cargo records (§2.2), `freightsim export-cargo`, its scenario
keys, and that it leaves the default generator's draws alone."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from sim.geo import PREFECTURES_ZH, Geography, in_guangdong, load_counties, official_place_name
from sim.scenario import CargoConfig, ScenarioError, load_scenario, parse_scenario
from sim.world.cargo import CargoGenerator
from sim.world.cargo_stream import (
    official_cargo_records,
    official_km,
    records_frame,
    simulated_takes,
    world_cargo,
)
from tests.conftest import SCENARIOS, cli

CLOCK = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
FIELDS = ["cargo_id", "create_time", "remove_time", "start", "end", "load_time",
          "cost_time_minutes", "price", "cargo_name", "truck_length"]
PLACES = {official_place_name(c.city_en, c.name_zh) for c in load_counties()}


def _clock(value: object) -> datetime:
    assert isinstance(value, str)
    assert CLOCK.match(value), value
    return datetime.strptime(value, "%Y-%m-%d %H:%M:%S")


def _two_decimals(x: object) -> None:
    assert isinstance(x, float)
    assert round(x, 2) == x, x
    assert len(repr(x).split(".")[1]) <= 2, x


def check_official_cargo(rec: dict) -> None:
    """Field by field, the official cargo line (docs/competition.md §2.2) with our stricter choices:
    string ids, an explicit null or [start, end] window, int cost and int fen."""
    assert list(rec) == FIELDS
    assert isinstance(rec["cargo_id"], str)
    assert rec["cargo_id"].strip() == rec["cargo_id"] != ""
    create, remove = _clock(rec["create_time"]), _clock(rec["remove_time"])
    assert remove >= create
    assert create >= datetime(2026, 3, 1)
    for end in ("start", "end"):
        p = rec[end]
        assert isinstance(p, dict)
        assert sorted(p) == ["city", "lat", "lng"]
        _two_decimals(p["lat"])
        _two_decimals(p["lng"])
        assert in_guangdong(p["lat"], p["lng"])
        assert p["city"] in PLACES
    lt = rec["load_time"]
    if lt is not None:
        assert isinstance(lt, list)
        assert len(lt) == 2
        assert _clock(lt[1]) >= _clock(lt[0])
    for key in ("cost_time_minutes", "price"):
        assert type(rec[key]) is int
        assert rec[key] >= 0
    assert isinstance(rec["cargo_name"], str)
    assert rec["cargo_name"].strip() == rec["cargo_name"] != ""
    assert re.fullmatch(r"\d+(\.\d+)?米", rec["truck_length"])


def _small_scenario(tmp_path: Path, days: int = 1, per_day: int = 4000) -> Path:
    """scenarios/competition.toml, shortened: the file a user would edit."""
    text = (SCENARIOS / "competition.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^days = .*$", f"days = {days}", text)
    text = re.sub(r"(?m)^cargo_per_day = .*$", f"cargo_per_day = {per_day}", text)
    path = tmp_path / "small.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_export_round_trip_is_byte_identical_and_every_record_is_official(tmp_path: Path) -> None:
    sc_path = _small_scenario(tmp_path, days=2)
    out = tmp_path / "cargo.jsonl"
    proc = cli("export-cargo", str(sc_path), str(out))
    assert proc.returncode == 0, proc.stderr
    raw = out.read_bytes()
    lines = raw.decode("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    again = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
    assert again == raw
    assert "广东省" in lines[0]  # raw UTF-8, not \u escapes
    for rec in records:
        check_official_cargo(rec)
    assert len({r["cargo_id"] for r in records}) == len(records)
    creates = [r["create_time"] for r in records]
    assert creates == sorted(creates)
    assert creates[-1] < "2026-03-03 00:00:00"
    assert len(records) == pytest.approx(8000, rel=0.05)
    # same seed, same bytes; another seed, another market
    proc = cli("export-cargo", str(sc_path), str(tmp_path / "again.jsonl"))
    assert (tmp_path / "again.jsonl").read_bytes() == raw
    proc = cli("export-cargo", str(sc_path), str(tmp_path / "other.jsonl"), "--seed", "9")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "other.jsonl").read_bytes() != raw


def test_export_refuses_a_poisson_scenario(tmp_path: Path) -> None:
    proc = cli("export-cargo", str(SCENARIOS / "smoke.toml"), str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2
    assert "[cargo] model" in proc.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_market_matches_the_reported_figures(tmp_path: Path) -> None:
    """One day of the shipped calibration against docs/competition.md §9, with sampling slack."""
    sc = load_scenario(SCENARIOS / "competition.toml").with_overrides(scenario={"days": 1})
    df = records_frame(official_cargo_records(sc))
    assert len(df) == pytest.approx(16000, rel=0.03)
    assert df.km.min() >= 2.0
    assert df.km.max() <= 330.0
    assert df.km.max() > 250  # long hauls exist, not just the short mode
    top5 = set(df.origin_city.value_counts().index[:5])
    assert top5 == {"深圳市", "东莞市", "佛山市", "广州市", "惠州市"}
    east = df.origin_city.isin(["揭阳市", "梅州市"]).mean()
    assert 0.05 < east < 0.15
    short = df[(df.km > 24) & (df.km < 34)]
    long = df[(df.km > 210) & (df.km < 250)]
    assert short.price.mean() == pytest.approx(300, rel=0.08)
    assert long.price.mean() == pytest.approx(1220, rel=0.08)
    assert (long.price / long.km).median() == pytest.approx(5.3, rel=0.08)
    online = df["remove"] - df["create"]
    assert online.median() == pytest.approx(85, abs=5)
    assert 0.2 < df.window_start.isna().mean() < 0.4  # some windows are null
    ex, late, _ = simulated_takes(df, np.random.default_rng(0))
    slope, intercept = np.polyfit(df.km[~late], ex[~late], 1)
    assert intercept == pytest.approx(237, abs=20)
    assert slope == pytest.approx(2.37, abs=0.15)
    for name in ("蔬菜", "水果", "建材", "化工塑料", "煤炭矿产", "机械设备", "食品饮料",
                 "鲜活水产品", "服饰纺织皮革", "快递快运搬家"):
        assert (df.category == name).any()


def test_records_are_deterministic_and_streamed() -> None:
    sc = load_scenario(SCENARIOS / "competition.toml").with_overrides(
        scenario={"days": 0.5}, cargo={"cargo_per_day": 2000})
    a = list(official_cargo_records(sc))
    gen = official_cargo_records(sc)
    assert next(gen) == a[0]  # a generator: rows come before the horizon is drawn
    assert list(official_cargo_records(sc)) == a
    assert a[-1]["create_time"] < "2026-03-01 12:00:00"
    late = sc.with_overrides(scenario={"start": "2026-03-01T12:00:00"})
    b = list(official_cargo_records(late))
    assert b[0]["create_time"] >= "2026-03-01 12:00:00"
    # volume follows the clock hour: a half day from noon against one from midnight
    w = sc.cargo.hour_weights
    assert len(b) / len(a) == pytest.approx(sum(w[12:]) / sum(w[:12]), rel=0.12)
    assert len(a) == pytest.approx(2000 * sum(w[:12]) / sum(w), rel=0.12)


def test_place_names_are_official_style() -> None:
    assert official_place_name("Shenzhen", "宝安区") == "广东省深圳市宝安区"
    assert official_place_name("Dongguan", "东莞市") == "广东省东莞市"
    assert {c.city_en for c in load_counties()} == set(PREFECTURES_ZH)


def test_default_generator_draws_are_untouched_by_the_new_keys() -> None:
    """model = "poisson" (the default) never reads the calibrated keys: same draws as before."""
    geo = Geography.guangdong()
    odd = CargoConfig(rate_per_hour=3000, cargo_per_day=5, haul_short_share=1.0,
                      window_share=0.0, line_price_base=1.0, cost_fixed_minutes=0.0,
                      hour_weights=(1.0,) * 24, category_weights=(("x", 1.0),))
    plain = CargoConfig(rate_per_hour=3000)

    def first(cfg: CargoConfig) -> list:
        gen = CargoGenerator(cfg, geo, np.random.default_rng(4)).arrivals(600)
        return [next(gen) for _ in range(200)]

    assert first(odd) == first(plain)


def test_world_reads_the_calibrated_market_as_the_official_loader_would() -> None:
    sc = load_scenario(SCENARIOS / "competition.toml").with_overrides(
        scenario={"days": 0.25}, cargo={"cargo_per_day": 1000, "competitor_share": 0.0})
    recs = list(official_cargo_records(sc))
    cargo = list(world_cargo(sc, Geography.guangdong(detour_factor=1.0),
                             np.random.default_rng(0)))
    assert [c.cargo_id for c in cargo] == [r["cargo_id"] for r in recs]
    for c, r in zip(cargo, recs, strict=True):
        assert c.price == r["price"] / 100
        assert c.cost_minutes == r["cost_time_minutes"]
        assert c.create_time == int(c.create_time)  # floored minutes, §2.1
        km = official_km(np.array(r["start"]["lat"]), np.array(r["start"]["lng"]),
                         np.array(r["end"]["lat"]), np.array(r["end"]["lng"]))
        assert c.distance_km == pytest.approx(float(km), rel=1e-3)
        if r["load_time"] is None:
            assert (c.load_start, c.load_end) == (c.create_time, c.remove_time)


@pytest.mark.parametrize(("cargo", "key"), [
    ('model = "real"', "[cargo] model"),
    ("window_share = 1.5", "[cargo] window_share"),
    ("hour_weights = [1, 2, 3]", "[cargo] hour_weights"),
    ("haul_km_range = [0, 330]", "[cargo] haul_km_range"),
    ("haul_km_range = [330, 2]", "[cargo] haul_km_range"),
    ("origin_city_weights = { Atlantis = 3 }", "[cargo] origin_city_weights"),
    ('category_weights = { "蔬菜" = "many" }', "[cargo] category_weights"),
    ("truck_length_weights = {}", "[cargo] truck_length_weights"),
    ("cargo_per_day = 0", "[cargo] cargo_per_day"),
])
def test_bad_calibration_keys_are_reported(cargo: str, key: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(f"[cargo]\n{cargo}\n", "bad.toml")
    assert err.value.key == key
    assert err.value.line == 2
