"""Scenario files: TOML validated at the boundary into frozen dataclasses.

Every problem is reported as one `ScenarioError` naming the file, the line, the key, what was
expected and what was found, so `freightsim validate` can print it without a traceback.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.clock import DAY
from sim.geo import in_guangdong
from sim.preferences import Preference, PrefKind, preference_from_dict


class ScenarioError(ValueError):
    """A scenario (or an imported data file) that cannot be used, with where and why."""

    def __init__(self, path: str | Path, key: str, expected: str, found: object,
                 line: int | None = None) -> None:
        self.path, self.key, self.expected, self.found, self.line = (
            str(path), key, expected, found, line)
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {key}: expected {expected}, found {found!r}")


@dataclass(frozen=True)
class Meta:
    name: str = "scenario"
    seed: int = 0
    days: float = 1.0
    start: str = "2026-03-02T00:00:00"
    rules: str = "generator"  # "competition": COMPETITION.md's environment (sim/competition)
    scoring: str = "S4"  # competition scoring version S1-S4 (§7.1)
    max_steps: int = 20000  # competition: steps per driver


@dataclass(frozen=True)
class GeoConfig:
    market_h3_res: int = 6
    memory_h3_res: int = 5
    detour_factor: float = 1.3
    speed_kmh: float = 60.0
    speed_profile: tuple[float, ...] = (1.0,) * 24


# Calibrated-market defaults (assumptions where §9 reports nothing; see scenarios/competition.toml)
CALIBRATED_HOUR_WEIGHTS: tuple[float, ...] = (
    1.0, 0.6, 0.4, 0.3, 0.3, 0.6, 1.5, 3.0, 5.0, 6.5, 6.5, 5.5,
    4.0, 4.5, 5.5, 5.5, 5.0, 4.0, 3.0, 2.5, 2.0, 1.8, 1.5, 1.2)
CALIBRATED_ORIGIN_CITY_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("Shenzhen", 21.0), ("Dongguan", 16.0), ("Guangzhou", 14.0), ("Foshan", 12.0),
    ("Huizhou", 8.0), ("Jieyang", 5.0), ("Meizhou", 4.0), ("Shantou", 3.0), ("Zhongshan", 3.0),
    ("Jiangmen", 2.0), ("Zhuhai", 1.5), ("Chaozhou", 1.5), ("Zhaoqing", 1.5), ("Qingyuan", 1.0),
    ("Shanwei", 1.0), ("Heyuan", 1.0), ("Zhanjiang", 1.0), ("Maoming", 1.0), ("Yangjiang", 0.5),
    ("Shaoguan", 0.5), ("Yunfu", 0.5))
CALIBRATED_CATEGORY_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("蔬菜", 12.0), ("水果", 10.0), ("建材", 14.0), ("化工塑料", 9.0), ("煤炭矿产", 5.0),
    ("机械设备", 10.0), ("食品饮料", 12.0), ("鲜活水产品", 5.0), ("服饰纺织皮革", 7.0),
    ("快递快运搬家", 8.0), ("日用百货", 4.0), ("电子电器", 4.0))
CALIBRATED_TRUCK_LENGTH_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("4.2米", 35.0), ("6.8米", 15.0), ("7.6米", 8.0), ("9.6米", 20.0), ("13米", 10.0),
    ("17.5米", 7.0), ("3.8米", 5.0))


@dataclass(frozen=True)
class CargoConfig:
    rate_per_hour: float = 60.0
    night_factor: float = 0.3
    day_start_hour: int = 7
    day_end_hour: int = 21
    competitor_share: float = 0.35
    price_base: float = 150.0
    price_per_km: float = 4.0
    price_noise: float = 0.25
    lead_minutes: tuple[float, float] = (30.0, 240.0)
    load_window_minutes: tuple[float, float] = (60.0, 360.0)
    remove_before_window_end_minutes: tuple[float, float] = (0.0, 60.0)
    load_minutes: float = 30.0
    unload_minutes: float = 30.0
    destination_scale_km: float = 150.0
    file: str | None = None
    # -- the calibrated market (COMPETITION.md §9; sim/cargo_stream.py). Read only when
    # model = "calibrated", so "poisson" scenarios draw exactly what they always drew.
    model: str = "poisson"
    cargo_per_day: float = 16000.0
    hour_weights: tuple[float, ...] = CALIBRATED_HOUR_WEIGHTS
    origin_city_weights: tuple[tuple[str, float], ...] = CALIBRATED_ORIGIN_CITY_WEIGHTS
    dest_bandwidth_km: float = 25.0
    haul_km_range: tuple[float, float] = (2.0, 330.0)
    haul_short_share: float = 0.45
    haul_short_median_km: float = 28.0
    haul_short_sigma: float = 0.6
    haul_long_median_km: float = 160.0
    haul_long_sigma: float = 0.45
    line_price_base: float = 167.0  # yuan; price on straight-line km, as the scorer measures
    line_price_per_km: float = 4.58
    line_price_noise: float = 0.12
    cost_fixed_minutes: float = 164.0  # loading + unloading; cost_time_minutes excludes pickup
    cost_minutes_per_km: float = 2.36
    cost_noise: float = 0.1
    online_median_minutes: float = 85.0
    online_sigma: float = 0.7
    online_minutes_range: tuple[float, float] = (10.0, 1440.0)
    window_share: float = 0.7
    window_lead_minutes: tuple[float, float] = (0.0, 240.0)
    window_length_minutes: tuple[float, float] = (60.0, 600.0)
    category_weights: tuple[tuple[str, float], ...] = CALIBRATED_CATEGORY_WEIGHTS
    truck_length_weights: tuple[tuple[str, float], ...] = CALIBRATED_TRUCK_LENGTH_WEIGHTS


@dataclass(frozen=True)
class MarketConfig:
    search_max_results: int = 50
    default_radius_km: float = 30.0
    max_radius_km: float = 80.0
    daily_query_budget: int = 80
    search_min_minutes: int = 1


@dataclass(frozen=True)
class Rule:
    """A competition-kind preference (COMPETITION.md §7.5) as a drivers file states it.

    `kind`/`params` is the structured form (PREF_PARAMS.md) when known; a rule read from text
    that nothing parsed has kind None and is scored by the scorer's text parser or reported as
    unscored. `to_official` is the drivers-file object sim.scoring reads.
    """

    text: str
    kind: str | None = None
    params: dict = field(default_factory=dict, hash=False, compare=False)
    penalty_amount: float | None = None
    penalty_cap: float | None = None
    start_time: str | None = None
    end_time: str | None = None

    def to_official(self) -> dict:
        out: dict = {"content": self.text, "start_time": self.start_time,
                     "end_time": self.end_time}
        if self.penalty_amount is not None or self.penalty_cap is not None:
            # no amount: the scorer takes the text parser's amount and cap
            out.update(penalty_amount=self.penalty_amount, penalty_cap=self.penalty_cap)
        if self.kind is not None:
            out["structured"] = {"kind": self.kind, "params": self.params}
        return out


@dataclass(frozen=True)
class DriverSpec:
    driver_id: str
    lat: float
    lng: float
    cost_per_km: float = 1.5
    preferences: tuple[Preference, ...] = ()
    rules: tuple[Rule, ...] = ()  # competition kinds, scored from the step log at the end


@dataclass(frozen=True)
class DriversConfig:
    count: int = 10
    cost_per_km: float = 1.5
    preferences_per_driver: int = 2
    fixed: tuple[DriverSpec, ...] = ()
    file: str | None = None
    # competition-kind rules drawn for generated drivers (sim.preference_draw); 0 draws none
    rules_per_driver: int = 0
    rule_kinds: tuple[str, ...] = ()  # empty: all 24 kinds ("all" in the file)
    rule_lang: str = "zh"  # zh | en | mixed


@dataclass(frozen=True)
class PolicyConfig:
    wait_minutes: float = 30.0
    min_net_income: float = 50.0


@dataclass(frozen=True)
class MemoryConfig:
    mode: str = "rules"
    low_yield_net: float = 150.0
    compress_threshold: int = 200
    shared_market: bool = False
    recent_actions: int = 8
    confirm_minutes: float = 30.0
    lessons: str | None = None


@dataclass(frozen=True)
class LLMConfig:
    backend: str = "rules"
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "local"
    api_key_env: str = "FREIGHTSIM_API_KEY"
    timeout_s: float = 30.0
    max_retries: int = 2
    backoff_s: float = 0.5
    response_format: str = "auto"
    temperature: float = 0.0
    max_tokens: int = 256
    tokenizer: str = "qwen3"
    cache: str | None = None
    replay: bool = False
    max_calls: int = 0  # 0: no limit; else model requests after this many fall back to rules
    concurrency: int = 1  # competition rules: drivers simulated at once (threads)


@dataclass(frozen=True)
class PreferencesConfig:
    # a drivers-file preference neither parser can read: "warn" lists it (validate) and scores
    # it as unscored with a warning in summary.json; "error" stops validate and run before the
    # simulation, listing every one (sim.world_rules.check_unparsed)
    unparsed: str = "warn"


@dataclass(frozen=True)
class OutputConfig:
    batch_rows: int = 20000


@dataclass(frozen=True)
class Scenario:
    path: str = "<memory>"
    scenario: Meta = field(default_factory=Meta)
    geo: GeoConfig = field(default_factory=GeoConfig)
    cargo: CargoConfig = field(default_factory=CargoConfig)
    market: MarketConfig = field(default_factory=MarketConfig)
    drivers: DriversConfig = field(default_factory=DriversConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    llm: LLMConfig = field(default_factory=LLMConfig)
    preferences: PreferencesConfig = field(default_factory=PreferencesConfig)
    output: OutputConfig = field(default_factory=OutputConfig)

    @property
    def minutes(self) -> float:
        return self.scenario.days * DAY

    def with_overrides(self, **tables: dict[str, Any]) -> Scenario:
        """A copy with some fields replaced, e.g. with_overrides(memory={"mode": "full"})."""
        changes = {t: dataclasses.replace(getattr(self, t), **v) for t, v in tables.items()}
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["drivers"]["fixed"] = [
            {**dataclasses.asdict(s), "preferences": [p.to_dict() | {"text": p.text}
                                                     for p in s.preferences]}
            for s in self.drivers.fixed
        ]
        return d


TABLES: dict[str, type] = {
    "scenario": Meta, "geo": GeoConfig, "cargo": CargoConfig, "market": MarketConfig,
    "drivers": DriversConfig, "policy": PolicyConfig, "memory": MemoryConfig, "llm": LLMConfig,
    "preferences": PreferencesConfig, "output": OutputConfig,
}
CHOICES = {
    ("scenario", "rules"): ("generator", "competition"),
    ("scenario", "scoring"): ("S1", "S2", "S3", "S4"),
    ("llm", "response_format"): ("auto", "json_schema", "json_object", "none"),
    ("cargo", "model"): ("poisson", "calibrated"),
    ("drivers", "rule_lang"): ("zh", "en", "mixed"),
    ("preferences", "unparsed"): ("warn", "error"),
}


def register_choices(table: str, key: str, values: tuple[str, ...]) -> None:
    """Let the layer that owns a setting's values name them (memory registers its modes, the
    LLM layer its providers as `[llm] backend`), so the file is checked against the one list
    without the world knowing what they mean."""
    CHOICES[(table, key)] = tuple(values)
POSITIVE = {
    ("scenario", "days"), ("geo", "detour_factor"), ("geo", "speed_kmh"),
    ("cargo", "rate_per_hour"), ("cargo", "load_minutes"), ("cargo", "unload_minutes"),
    ("cargo", "destination_scale_km"), ("market", "search_max_results"),
    ("market", "default_radius_km"), ("market", "max_radius_km"),
    ("market", "daily_query_budget"), ("drivers", "cost_per_km"), ("policy", "wait_minutes"),
    ("memory", "compress_threshold"), ("memory", "recent_actions"),
    ("memory", "confirm_minutes"), ("llm", "timeout_s"),
    ("llm", "max_tokens"), ("output", "batch_rows"),
    ("scenario", "max_steps"), ("llm", "concurrency"),
}
NON_NEGATIVE = {
    ("cargo", "night_factor"), ("cargo", "price_base"), ("cargo", "price_per_km"),
    ("cargo", "price_noise"), ("drivers", "count"), ("llm", "backoff_s"), ("llm", "max_calls"),
    ("drivers", "preferences_per_driver"), ("drivers", "rules_per_driver"),
    ("market", "search_min_minutes"), ("llm", "max_retries"), ("llm", "temperature"),
    ("scenario", "seed"),
}
RANGES = {"lead_minutes", "load_window_minutes", "remove_before_window_end_minutes",
          "haul_km_range", "online_minutes_range", "window_lead_minutes", "window_length_minutes"}
POSITIVE |= {("cargo", k) for k in ("cargo_per_day", "dest_bandwidth_km", "haul_short_median_km",
                                   "haul_long_median_km", "online_median_minutes")}
NON_NEGATIVE |= {("cargo", k) for k in (
    "haul_short_sigma", "haul_long_sigma", "line_price_base", "line_price_per_km",
    "line_price_noise", "cost_fixed_minutes", "cost_minutes_per_km", "cost_noise", "online_sigma")}
WEIGHT_TABLE = tuple[tuple[str, float], ...]


class _Ctx:
    """Where we are in the file, to point errors at a line."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines = path, text.splitlines()

    def line_of(self, table: str, key: str | None = None) -> int | None:
        header = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}(\.[\w.]+)?\s*\]\]?")
        any_header = re.compile(r"^\s*\[")
        inside = False
        for n, line in enumerate(self.lines, 1):
            if header.match(line):
                if key is None:
                    return n
                inside = True
            elif any_header.match(line):
                inside = False
            elif inside and key and re.match(rf"^\s*{re.escape(key)}\s*=", line):
                return n
        return None

    def fail(self, table: str, key: str | None, expected: str, found: object) -> ScenarioError:
        name = f"[{table}] {key}" if key else f"[{table}]"
        return ScenarioError(self.path, name, expected, found, self.line_of(table, key))


def _type_name(tp: Any) -> str:
    if tp == WEIGHT_TABLE:
        return "a table of name = weight"
    if tp in (tuple[float, float],):
        return "a list of two numbers [start, end]"
    if typing.get_origin(tp) is tuple:
        return "a list of numbers"
    if isinstance(tp, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp) if a is not type(None))
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(
        tp, str(tp))


def _coerce(ctx: _Ctx, table: str, key: str, tp: Any, v: Any) -> Any:
    if isinstance(tp, types.UnionType):
        inner = next(a for a in typing.get_args(tp) if a is not type(None))
        return _coerce(ctx, table, key, inner, v)
    if tp is bool:
        if not isinstance(v, bool):
            raise ctx.fail(table, key, "true or false", v)
        return v
    if tp is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ctx.fail(table, key, "an integer", v)
        return v
    if tp is float:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ctx.fail(table, key, "a number", v)
        return float(v)
    if tp is str:
        if not isinstance(v, str):
            raise ctx.fail(table, key, "a string", v)
        return v
    if tp == WEIGHT_TABLE:
        ok = isinstance(v, dict) and all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in v.values())
        if not ok:
            raise ctx.fail(table, key, _type_name(tp), v)
        return tuple((str(k), float(x)) for k, x in v.items())
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        ok = isinstance(v, list) and all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in v)
        if not ok or (args[-1] is not Ellipsis and len(v) != len(args)):
            raise ctx.fail(table, key, _type_name(tp), v)
        return tuple(float(x) for x in v)
    raise ctx.fail(table, key, _type_name(tp), v)


def _build(ctx: _Ctx, table: str, cls: type, raw: Any, skip: tuple[str, ...] = ()) -> Any:
    if not isinstance(raw, dict):
        raise ctx.fail(table, None, "a table", raw)
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    kwargs: dict[str, Any] = {}
    for key, v in raw.items():
        if key in skip:
            continue
        if key not in names:
            raise ctx.fail(table, key, f"one of the known keys ({', '.join(sorted(names))})",
                           "unknown key")
        val = _coerce(ctx, table, key, hints[key], v)
        if (table, key) in POSITIVE and val <= 0:
            raise ctx.fail(table, key, "a value greater than zero", v)
        if (table, key) in NON_NEGATIVE and val < 0:
            raise ctx.fail(table, key, "a value of zero or more", v)
        if (table, key) in CHOICES and val not in CHOICES[(table, key)]:
            raise ctx.fail(table, key, "one of " + ", ".join(CHOICES[(table, key)]), v)
        if key in RANGES:
            if val[1] < val[0]:
                raise ctx.fail(table, key, "a window whose end is not before its start", v)
            if val[0] < 0:
                raise ctx.fail(table, key, "minutes of zero or more", v)
        kwargs[key] = val
    return cls(**kwargs)


def _check_geo(ctx: _Ctx, g: GeoConfig) -> None:
    for key in ("market_h3_res", "memory_h3_res"):
        res = getattr(g, key)
        if not 0 <= res <= 15:
            raise ctx.fail("geo", key, "an H3 resolution from 0 to 15", res)
    if g.memory_h3_res > g.market_h3_res:
        raise ctx.fail("geo", "memory_h3_res",
                       f"a resolution no finer than market_h3_res ({g.market_h3_res})",
                       g.memory_h3_res)
    if len(g.speed_profile) != 24 or any(x <= 0 for x in g.speed_profile):
        raise ctx.fail("geo", "speed_profile", "24 positive hourly speed factors",
                       list(g.speed_profile))


def _check_cargo(ctx: _Ctx, c: CargoConfig) -> None:
    """The calibrated market's keys that single-value checks cannot catch."""
    from sim.geo import load_counties

    for key in ("haul_short_share", "window_share"):
        if not 0.0 <= getattr(c, key) <= 1.0:
            raise ctx.fail("cargo", key, "a share from 0 to 1", getattr(c, key))
    if len(c.hour_weights) != 24 or min(c.hour_weights) < 0 or sum(c.hour_weights) <= 0:
        raise ctx.fail("cargo", "hour_weights", "24 hourly weights of zero or more, not all zero",
                       list(c.hour_weights))
    if c.haul_km_range[0] <= 0:
        raise ctx.fail("cargo", "haul_km_range", "a shortest haul above 0 km",
                       list(c.haul_km_range))
    cities = {county.city_en for county in load_counties()}
    for key in ("origin_city_weights", "category_weights", "truck_length_weights"):
        table = getattr(c, key)
        if not table or min(w for _, w in table) < 0 or sum(w for _, w in table) <= 0:
            raise ctx.fail("cargo", key, "weights of zero or more, not all zero", dict(table))
        if any(not name.strip() for name, _ in table):
            raise ctx.fail("cargo", key, "non-empty names", dict(table))
    unknown = sorted({name for name, _ in c.origin_city_weights} - cities)
    if unknown:
        raise ctx.fail("cargo", "origin_city_weights",
                       f"Guangdong cities ({', '.join(sorted(cities))})", unknown)
def _check_competition(ctx: _Ctx, m: Meta) -> None:
    """Competition rules count whole days of integer minutes from 2026-03-01 (§2.1, §2.4)."""
    if m.rules == "competition" and not float(m.days).is_integer():
        raise ctx.fail("scenario", "days", "a whole number of days under competition rules",
                       m.days)


def _rule_kinds(ctx: _Ctx, v: Any) -> tuple[str, ...]:
    """`rule_kinds = "all"` (every kind) or a list of the spec's snake_case kind names."""
    from sim.scoring.kinds import kind_names

    kinds = kind_names()

    if v == "all":
        return ()
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        raise ctx.fail("drivers", "rule_kinds", '"all" or a list of kind names', v)
    unknown = [x for x in v if x not in kinds]
    if unknown:
        raise ctx.fail("drivers", "rule_kinds", "kind names from " + ", ".join(kinds), unknown)
    return tuple(v)


def _driver_spec(ctx: _Ctx, i: int, raw: Any, default_cost: float) -> DriverSpec:
    table = "drivers.fixed"
    if not isinstance(raw, dict):
        raise ctx.fail(table, None, "a table per driver", raw)
    known = {"driver_id", "lat", "lng", "cost_per_km", "preferences"}
    for key in raw:
        if key not in known:
            raise ctx.fail(table, key, f"one of {', '.join(sorted(known))}", "unknown key")
    lat = _coerce(ctx, table, "lat", float, raw.get("lat"))
    lng = _coerce(ctx, table, "lng", float, raw.get("lng"))
    if not in_guangdong(lat, lng):
        raise ctx.fail(table, "lat", "a start inside Guangdong (lat 20.2-25.55, lng 109.65-117.35)",
                       [lat, lng])
    prefs = []
    for p in raw.get("preferences", []):
        try:
            prefs.append(preference_from_dict(p))
        except (KeyError, ValueError, TypeError) as exc:
            kinds = ", ".join(k.value for k in PrefKind)
            raise ctx.fail(table, "preferences", f"a preference of kind {kinds} with its "
                           "parameters", p) from exc
    return DriverSpec(
        driver_id=str(raw.get("driver_id", f"D{i:04d}")), lat=lat, lng=lng,
        cost_per_km=_coerce(ctx, table, "cost_per_km", float,
                            raw.get("cost_per_km", default_cost)),
        preferences=tuple(prefs),
    )


def parse_scenario(text: str, path: str | Path = "<string>") -> Scenario:
    path = Path(path)
    ctx = _Ctx(path, text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(path, "TOML", "valid TOML", str(exc),
                            int(m.group(1)) if m else None) from None
    for table in raw:
        if table not in TABLES:
            raise ScenarioError(path, f"[{table}]", "one of the tables "
                                + ", ".join(f"[{t}]" for t in TABLES), "unknown table",
                                ctx.line_of(table))
    parts: dict[str, Any] = {}
    for table, cls in TABLES.items():
        skip = ("fixed", "rule_kinds") if table == "drivers" else ()
        parts[table] = _build(ctx, table, cls, raw.get(table, {}), skip)
    if isinstance(raw.get("drivers"), dict) and "rule_kinds" in raw["drivers"]:
        parts["drivers"] = dataclasses.replace(
            parts["drivers"], rule_kinds=_rule_kinds(ctx, raw["drivers"]["rule_kinds"]))
    _check_geo(ctx, parts["geo"])
    _check_cargo(ctx, parts["cargo"])
    _check_competition(ctx, parts["scenario"])
    drivers_raw = raw.get("drivers", {}).get("fixed", [])
    if not isinstance(drivers_raw, list):
        raise ctx.fail("drivers", "fixed", "an array of tables [[drivers.fixed]]", drivers_raw)
    fixed = tuple(_driver_spec(ctx, i, d, parts["drivers"].cost_per_km)
                  for i, d in enumerate(drivers_raw))
    parts["drivers"] = dataclasses.replace(parts["drivers"], fixed=fixed)
    base = path.parent
    for table in ("cargo", "drivers"):
        f = parts[table].file
        if f is not None:
            resolved = (base / f).resolve()
            if not resolved.is_file():
                raise ctx.fail(table, "file", "an existing file (relative to the scenario)", f)
            parts[table] = dataclasses.replace(parts[table], file=str(resolved))
    return Scenario(path=str(path), **parts)


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    if not p.is_file():
        raise ScenarioError(p, "file", "an existing scenario file", str(p))
    return parse_scenario(p.read_text(encoding="utf-8"), p)
