"""Scenario files: TOML validated at the boundary into frozen dataclasses.

Every problem is reported as one `ScenarioError` naming the file, the line, the key, what was
expected and what was found, so `freightsim validate` can print it without a traceback.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import math
import re
import tomllib
import typing
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sim.geo import in_guangdong, load_counties
from sim.official.timebase import DAY
from sim.official.versions import settings_for
from sim.preferences.kinds import kind_names
from sim.scoring.scorer import read_preferences
from sim.typed_values import TypedValueError, convert


class ScenarioError(ValueError):
    """A scenario (or an imported data file) that cannot be used, with where and why."""

    def __init__(self, path: str | Path, key: str, expected: str, found: object,
                 line: int | None = None) -> None:
        self.path, self.key, self.expected, self.found, self.line = (
            str(path), key, expected, found, line)
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {key}: expected {expected}, found {found!r}")

    def __reduce__(self):  # survives the trip back from a sweep's worker process
        return (ScenarioError, (self.path, self.key, self.expected, self.found, self.line))


class RenamedSetting(DeprecationWarning):
    """A setting or its value written in a spelling that was renamed (`[scenario] rules`, now
    `ruleset`; `[memory] mode = "rules"`, now "bounded"): still read, for one release, as the
    new name."""


@dataclass(frozen=True)
class ScenarioMeta:
    name: str = "scenario"
    seed: int = 0
    days: float = 1.0
    start: str = "2026-03-02T00:00:00"
    # "competition": docs/competition.md's environment (sim/competition); `rules` before
    ruleset: str = "generator"
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
    # -- the calibrated market (docs/competition.md §9; sim/world/cargo_stream.py). Read only when
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
class PreferenceEntry:
    """A competition-kind preference (docs/competition.md §7.5) as a drivers file states it.

    `kind`/`params` is the structured form (docs/competition.md §7.5) when known; a rule read from
    text that nothing parsed has kind None and is scored by the scorer's text parser or reported as
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


def rule_from_entry(p: dict) -> PreferenceEntry:
    """A drivers-file preference object (or a `[[drivers.fixed]]` preference table, its `text`
    as `content`) as a competition rule; its numbers are read by the
    scorer as the official scorer reads them (a bad number reads as missing, not a crash)."""
    st = p.get("structured")
    kind = str(st.get("kind")) if isinstance(st, dict) and st.get("kind") else None
    params = st.get("params") if isinstance(st, dict) and isinstance(st.get("params"), dict) \
        else {}

    def num(v: Any) -> float | None:
        ok = isinstance(v, int | float) and not isinstance(v, bool)
        return float(v) if ok else None

    def wall(v: Any) -> str | None:
        return v if isinstance(v, str) else None

    return PreferenceEntry(str(p.get("content") or ""), kind, params, num(p.get("penalty_amount")),
                num(p.get("penalty_cap")), wall(p.get("start_time")), wall(p.get("end_time")))


@dataclass(frozen=True)
class DriverSpec:
    driver_id: str
    lat: float
    lng: float
    cost_per_km: float = 1.5
    # the driver's preferences (the 24 competition kinds), scored from its step log at the end
    rules: tuple[PreferenceEntry, ...] = ()


@dataclass(frozen=True)
class DriversConfig:
    count: int = 10
    cost_per_km: float = 1.5
    # competition-kind preferences drawn per generated driver (sim.preferences.draw); 0: none
    preferences_per_driver: int = 2
    fixed: tuple[DriverSpec, ...] = ()
    file: str | None = None
    preference_kinds: tuple[str, ...] = ()  # empty: all 24 kinds ("all" in the file)
    preference_lang: str = "zh"  # zh | en | mixed


@dataclass(frozen=True)
class PolicyConfig:
    wait_minutes: float = 30.0
    min_net_income: float = 50.0
    # how many yuan of earnings a yuan of preference fine weighs in the rule-aware agents'
    # choices: 1 prices a fine at its amount (most net after penalties); above 1 a driver
    # keeps rules that cost more than their fine (less penalty, less net). Scoring is unchanged.
    fine_weight: float = 1.0
    # the most keeping rules beyond their fines may cost, as a share of the driver's net
    # earned so far (a day at the prior rate to start with); rests taken for rules are booked
    # at what their minutes forgo less the fines they avoid at face value. Once spent, fines
    # weigh their amount again until earnings catch up: it bounds what fine_weight can cost
    # any one driver. None: no bound.
    compliance_budget: float | None = None
    # how many what-ifs a rule-aware step prices: "all" (today's: takes in batches of 12, rests
    # of 1-10 h and the rules' own lengths) or "lean" (takes in batches of 6, rests of 2 and
    # 8 h and the rules' own lengths): faster, and it changes decisions (docs/agents.md)
    what_ifs: str = "all"
    # under a daily order cap (K15) the order slot is scarce, not only the hour: a take is
    # charged its hours or this share of a slot's part of the day (a day over the cap),
    # whichever is longer, so short orders stop filling the day's few slots. 0: hours only
    slot_share: float = 0.5
    # what a take's destination is worth for the next order (memory.place_worth): the next
    # pickup drive expected there against here, at what a km of it costs, times this weight
    # (modes with the market layer). 0 (default): takes valued by their own net and hours
    # alone; at 1 it bought nothing measurable on 16 held-out months (docs/agents.md)
    place_weight: float = 0.0


@dataclass(frozen=True)
class MemoryConfig:
    mode: str = "bounded"
    low_yield_net: float = 150.0
    compress_threshold: int = 200
    shared_market: bool = False
    recent_actions: int = 8
    confirm_minutes: float = 30.0
    lessons: str | None = None


@dataclass(frozen=True)
class LLMConfig:
    backend: str = "deterministic"
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
    max_calls: int = 0  # 0: no limit; else calls past it fall back to the deterministic policy
    stream: bool = False  # stream replies: time to first token and decode time per call
    concurrency: int = 1  # decisions in flight at once (competition rules: drivers at once)
    lookahead_minutes: float = 0.0  # shared world: batch decisions this close in sim time
    driver_token_budget: int = 0  # 0: none; else calls past it fall back (cause token_budget)
    step_deadline_s: float = 0.0  # 0: none; else calls past it fall back (cause step_deadline)
    parallel_agents: bool = True  # preference and search agents asked side by side


@dataclass(frozen=True)
class PreferencesConfig:
    # a drivers-file preference neither parser can read: "warn" lists it (validate) and scores
    # it as unscored with a warning in summary.json; "error" stops validate and run before the
    # simulation, listing every one (sim.world.driver_preferences.check_unparsed)
    unparsed: str = "warn"
    # a pin file (JSON Lines: driver_id, index, kind, params) fixing the reading of chosen
    # drivers-file texts before any parser (sim/preferences/pins.py); relative to the scenario
    pins: str | None = None


@dataclass(frozen=True)
class OutputConfig:
    batch_rows: int = 20000


@dataclass(frozen=True)
class Scenario:
    path: str = "<memory>"
    scenario: ScenarioMeta = field(default_factory=ScenarioMeta)
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
            {**{k: v for k, v in dataclasses.asdict(s).items() if k != "rules"},
             "preferences": [r.to_official() for r in s.rules]}
            for s in self.drivers.fixed
        ]
        return d


TABLES: dict[str, type] = {
    "scenario": ScenarioMeta, "geo": GeoConfig, "cargo": CargoConfig, "market": MarketConfig,
    "drivers": DriversConfig, "policy": PolicyConfig, "memory": MemoryConfig, "llm": LLMConfig,
    "preferences": PreferencesConfig, "output": OutputConfig,
}
CHOICES = {
    ("scenario", "ruleset"): ("generator", "competition"),
    ("scenario", "scoring"): ("S1", "S2", "S3", "S4"),
    ("llm", "response_format"): ("auto", "json_schema", "json_object", "none"),
    ("cargo", "model"): ("poisson", "calibrated"),
    ("drivers", "preference_lang"): ("zh", "en", "mixed"),
    ("preferences", "unparsed"): ("warn", "error"),
    ("policy", "what_ifs"): ("all", "lean"),
}


# (table, key) -> {old spelling: new name}: values renamed, read with a RenamedSetting warning
RENAMED: dict[tuple[str, str], dict[str, str]] = {}
# (table, old key) -> new key: keys renamed, read with a RenamedSetting warning
RENAMED_KEYS = {("scenario", "rules"): "ruleset", ("drivers", "rule_kinds"): "preference_kinds",
                ("drivers", "rule_lang"): "preference_lang"}


def register_choices(table: str, key: str, values: tuple[str, ...],
                     renamed: Mapping[str, str] | None = None) -> None:
    """Let the layer that owns a setting's values name them (memory registers its modes, the
    LLM layer its providers as `[llm] backend`), so the file is checked against the one list
    without the world knowing what they mean. `renamed` maps the old spellings that layer
    still reads to their new names (its own alias table; `None` keeps the one registered)."""
    CHOICES[(table, key)] = tuple(values)
    if renamed is not None:
        RENAMED[(table, key)] = dict(renamed)


def current_choice(table: str, key: str, value: str, where: str = "") -> str:
    """The name a setting's value goes by now: an old spelling becomes its new name with a
    RenamedSetting warning that names the new spelling; any other value is returned as is."""
    new = RENAMED.get((table, key), {}).get(value)
    if new is None:
        return value
    warnings.warn(f"{where + ': ' if where else ''}[{table}] {key} = {value!r} is deprecated: "
                  f"write {new!r} (the old spelling is read as {new!r} for one more release)",
                  RenamedSetting, stacklevel=2)
    return new


CHOICE_PLUGINS = "freightsim.scenario_choices"
_plugins_loaded = False


def load_choice_plugins() -> None:
    """Import the layers that own some settings' values, as the package metadata names them.

    `[memory] mode` and `[llm] backend` take values registered by memory/ and agents/; this
    module may not import them, yet a bare `load_scenario` must check those keys too. Each layer
    lists its registering module under the `freightsim.scenario_choices` entry-point group in
    pyproject.toml, and importing it registers its choices (`register_choices`). Loaded once;
    a source tree that was never installed has no entry points and checks what is registered.
    """
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in importlib.metadata.entry_points(group=CHOICE_PLUGINS):
        ep.load()
POSITIVE = {
    ("scenario", "days"), ("geo", "detour_factor"), ("geo", "speed_kmh"),
    ("cargo", "rate_per_hour"), ("cargo", "load_minutes"), ("cargo", "unload_minutes"),
    ("cargo", "destination_scale_km"), ("market", "search_max_results"),
    ("market", "default_radius_km"), ("market", "max_radius_km"),
    ("market", "daily_query_budget"), ("drivers", "cost_per_km"), ("policy", "wait_minutes"),
    ("policy", "fine_weight"), ("memory", "compress_threshold"), ("memory", "recent_actions"),
    ("memory", "confirm_minutes"), ("llm", "timeout_s"),
    ("llm", "max_tokens"), ("output", "batch_rows"),
    ("scenario", "max_steps"), ("llm", "concurrency"),
}
NON_NEGATIVE = {
    ("cargo", "night_factor"), ("cargo", "price_base"), ("cargo", "price_per_km"),
    ("cargo", "price_noise"), ("drivers", "count"), ("llm", "backoff_s"), ("llm", "max_calls"),
    ("drivers", "preferences_per_driver"), ("policy", "compliance_budget"),
    ("policy", "slot_share"), ("policy", "place_weight"), ("market", "search_min_minutes"),
    ("llm", "max_retries"),
    ("llm", "temperature"),
    ("scenario", "seed"), ("llm", "lookahead_minutes"), ("llm", "driver_token_budget"),
    ("llm", "step_deadline_s"),
}
RANGES = {"lead_minutes", "load_window_minutes", "remove_before_window_end_minutes",
          "haul_km_range", "online_minutes_range", "window_lead_minutes", "window_length_minutes"}
POSITIVE |= {("cargo", k) for k in ("cargo_per_day", "dest_bandwidth_km", "haul_short_median_km",
                                   "haul_long_median_km", "online_median_minutes")}
NON_NEGATIVE |= {("cargo", k) for k in (
    "haul_short_sigma", "haul_long_sigma", "line_price_base", "line_price_per_km",
    "line_price_noise", "cost_fixed_minutes", "cost_minutes_per_km", "cost_noise", "online_sigma")}
WEIGHT_TABLE = tuple[tuple[str, float], ...]
# Upper limits: beyond them a value is a typo, not a scenario (a speed of 1e9 km/h, a batch of
# 1e18 rows). Each is far past anything the shipped scenarios or the competition use.
UPPER: dict[tuple[str, str], float] = {
    ("scenario", "days"): 366, ("scenario", "seed"): 2**63 - 1,
    ("geo", "detour_factor"): 5, ("geo", "speed_kmh"): 300,
    ("cargo", "rate_per_hour"): 100_000, ("cargo", "night_factor"): 10,
    ("cargo", "day_start_hour"): 24, ("cargo", "day_end_hour"): 24,
    ("cargo", "competitor_share"): 1, ("cargo", "price_base"): 1e7,
    ("cargo", "price_per_km"): 1e5, ("cargo", "price_noise"): 5,
    ("cargo", "load_minutes"): 1440, ("cargo", "unload_minutes"): 1440,
    ("cargo", "destination_scale_km"): 2000,
    ("market", "search_max_results"): 10_000, ("market", "default_radius_km"): 1000,
    ("market", "max_radius_km"): 1000, ("market", "daily_query_budget"): 1_000_000,
    ("market", "search_min_minutes"): 1440,
    ("drivers", "count"): 10_000, ("drivers", "cost_per_km"): 1000,
    ("drivers", "preferences_per_driver"): 24,
    ("policy", "wait_minutes"): 1440, ("policy", "min_net_income"): 1e7,
    ("policy", "fine_weight"): 100, ("policy", "compliance_budget"): 100,
    ("policy", "slot_share"): 1, ("policy", "place_weight"): 100,
    ("memory", "low_yield_net"): 1e7,
    ("memory", "compress_threshold"): 1_000_000,
    ("memory", "recent_actions"): 1000, ("memory", "confirm_minutes"): 1440 * 31,
    ("llm", "timeout_s"): 3600, ("llm", "max_retries"): 10, ("llm", "backoff_s"): 60,
    ("llm", "temperature"): 2, ("llm", "max_tokens"): 32_768, ("llm", "max_calls"): 10_000_000,
    ("output", "batch_rows"): 10_000_000,
}
LOWER: dict[tuple[str, str], float] = {
    ("policy", "min_net_income"): -1e7, ("memory", "low_yield_net"): -1e7,
    ("cargo", "day_start_hour"): 0, ("cargo", "day_end_hour"): 0,
}
RANGE_MAX_MINUTES = 1440 * 31  # lead, load window and removal offsets: at most a month
MAX_FILE_BYTES = 4 * 2**20  # a scenario is a few hundred lines; anything this big is not one
MAX_NAME = 64
NAME = re.compile(r"^\w[\w.-]*$")  # one path component under runs/: no separators, no ".."
TOKENIZERS = ("qwen3", "llama3", "cl100k_base", "o200k_base", "o200k_harmony")  # quicktok ships
# The work a scenario implies, to refuse one that would not finish: each generated cargo is a
# few events, each driver-day a few hundred decisions. month.toml is about 0.8 million units.
WORK_PER_DRIVER_DAY = 200
MAX_H3_RES = 9
MAX_WORK = 20_000_000


class _Ctx:
    """Where we are in the file, to point errors at a line."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines = path, text.splitlines()

    def line_of(self, table: str, key: str | None = None) -> int | None:
        header = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}(\.[\w.]+)?\s*\]\]?")
        any_header = re.compile(r"^\s*\[")
        # a key may stand in the file under its old spelling (RENAMED_KEYS)
        spellings = "|".join(re.escape(k) for k in (key or "", *(
            old for (t, old), new in RENAMED_KEYS.items() if t == table and new == key)))
        inside = False
        for n, line in enumerate(self.lines, 1):
            if header.match(line):
                if key is None:
                    return n
                inside = True
            elif any_header.match(line):
                inside = False
            elif inside and key and re.match(rf"^\s*(?:{spellings})\s*=", line):
                return n
        return None

    def fail(self, table: str, key: str | None, expected: str, found: object) -> ScenarioError:
        name = f"[{table}] {key}" if key else f"[{table}]"
        return ScenarioError(self.path, name, expected, found, self.line_of(table, key))


def _coerce(ctx: _Ctx, table: str, key: str, tp: Any, v: Any) -> Any:
    """One value of a table, read by the one typed-value reader (sim/typed_values.py)."""
    try:
        return convert(v, tp, f"[{table}] {key}")
    except TypedValueError as e:
        raise ctx.fail(table, key, e.expected, e.found) from None


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
        if table == "scenario" and key == "start" and isinstance(v, datetime):
            v = v.isoformat() if v.tzinfo is None else v  # an unquoted TOML local date-time
        val = _coerce(ctx, table, key, hints[key], v)
        if isinstance(val, str) and (table, key) in RENAMED:
            line = ctx.line_of(table, key)
            val = current_choice(table, key, val, f"{ctx.path}:{line}" if line else str(ctx.path))
        hi, lo = UPPER.get((table, key)), LOWER.get((table, key))
        if hi is not None and isinstance(val, int | float) and val > hi:
            raise ctx.fail(table, key, f"a value of at most {hi:g}", v)
        if lo is not None and isinstance(val, int | float) and val < lo:
            raise ctx.fail(table, key, f"a value of at least {lo:g}", v)
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
            if val[1] > RANGE_MAX_MINUTES:
                raise ctx.fail(table, key, f"minutes of at most {RANGE_MAX_MINUTES}", v)
        kwargs[key] = val
    return cls(**kwargs)


def _check_geo(ctx: _Ctx, g: GeoConfig) -> None:
    # finer than 9 (cells of ~0.1 km2) a 30 km search ring holds millions of cells
    for key in ("market_h3_res", "memory_h3_res"):
        res = getattr(g, key)
        if not 0 <= res <= 15:
            raise ctx.fail("geo", key, "an H3 resolution from 0 to 15", res)
        if res > MAX_H3_RES:
            raise ctx.fail("geo", key, f"an H3 resolution of at most {MAX_H3_RES} (finer cells "
                           "make one search ring millions of cells)", res)
    if g.memory_h3_res > g.market_h3_res:
        raise ctx.fail("geo", "memory_h3_res",
                       f"a resolution no finer than market_h3_res ({g.market_h3_res})",
                       g.memory_h3_res)
    if len(g.speed_profile) != 24 or any(not 0 < x <= 10 for x in g.speed_profile):
        raise ctx.fail("geo", "speed_profile", "24 hourly speed factors above 0, at most 10",
                       list(g.speed_profile))


def _check_cargo(ctx: _Ctx, c: CargoConfig) -> None:
    """The calibrated market's keys that single-value checks cannot catch."""
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
def _check_competition(ctx: _Ctx, m: ScenarioMeta) -> None:
    """Competition rules count whole days of integer minutes from 2026-03-01 (§2.1, §2.4)."""
    if m.ruleset == "competition" and not float(m.days).is_integer():
        raise ctx.fail("scenario", "days", "a whole number of days under competition rules",
                       m.days)


def _preference_kinds(ctx: _Ctx, v: Any) -> tuple[str, ...]:
    """`preference_kinds = "all"` (every kind) or a list of the spec's snake_case kind names."""
    kinds = kind_names()

    if v == "all":
        return ()
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        raise ctx.fail("drivers", "preference_kinds", '"all" or a list of kind names', v)
    unknown = [x for x in v if x not in kinds]
    if unknown:
        raise ctx.fail("drivers", "preference_kinds", "kind names from " + ", ".join(kinds),
                       unknown)
    return tuple(v)

def _check_values(ctx: _Ctx, parts: dict[str, Any]) -> None:
    """Cross-field and format checks the per-key coercion cannot make."""
    meta: ScenarioMeta = parts["scenario"]
    if len(meta.name) > MAX_NAME or not NAME.match(meta.name) or ".." in meta.name:
        raise ctx.fail("scenario", "name", f"a name of 1-{MAX_NAME} letters, digits, '_', '-' "
                       "or '.' (it names the run directory under runs/)", meta.name)
    try:
        start = datetime.fromisoformat(meta.start)
    except ValueError:
        raise ctx.fail("scenario", "start", "a date-time like 2026-03-02T00:00:00",
                       meta.start) from None
    if start.tzinfo is not None:
        raise ctx.fail("scenario", "start", "a local date-time without a timezone offset",
                       meta.start)
    if not 2000 <= start.year <= 2100:
        raise ctx.fail("scenario", "start", "a year from 2000 to 2100", meta.start)
    m: MarketConfig = parts["market"]
    if m.default_radius_km > m.max_radius_km:
        raise ctx.fail("market", "default_radius_km",
                       f"a radius no larger than max_radius_km ({m.max_radius_km:g})",
                       m.default_radius_km)
    c: CargoConfig = parts["cargo"]
    if c.day_start_hour >= c.day_end_hour:
        raise ctx.fail("cargo", "day_start_hour",
                       f"an hour before day_end_hour ({c.day_end_hour})", c.day_start_hour)
    llm: LLMConfig = parts["llm"]
    if llm.tokenizer not in TOKENIZERS:
        raise ctx.fail("llm", "tokenizer", "one of " + ", ".join(TOKENIZERS), llm.tokenizer)
    if not re.match(r"^https?://[^\s]+$", llm.base_url):
        raise ctx.fail("llm", "base_url", "an http:// or https:// URL", llm.base_url)
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$", llm.api_key_env):
        raise ctx.fail("llm", "api_key_env", "the name of an environment variable",
                       llm.api_key_env)
    if not llm.model or len(llm.model) > 256:
        raise ctx.fail("llm", "model", "a model name of 1-256 characters", llm.model)


def work_estimate(sc: Scenario) -> int:
    """Rough units of work a scenario implies: generated cargo plus driver-days of decisions."""
    c, d = sc.cargo, sc.drivers
    cargo = 0 if c.file else c.rate_per_hour * 24 * sc.scenario.days
    drivers = max(d.count, len(d.fixed)) if d.file is None else 0
    return int(cargo + drivers * sc.scenario.days * WORK_PER_DRIVER_DAY)


def _check_work(ctx: _Ctx, sc: Scenario) -> None:
    w = work_estimate(sc)
    if w > MAX_WORK:
        raise ctx.fail("scenario", "days", f"a scenario of at most {MAX_WORK:,} work units "
                       f"(cargo generated + {WORK_PER_DRIVER_DAY} per driver-day), which is "
                       f"25x month.toml", f"{w:,} units ({sc.scenario.days:g} days, "
                       f"{sc.cargo.rate_per_hour:g} cargo/h, {sc.drivers.count} drivers)")


SPECIAL_ROOTS = ("/proc", "/sys", "/dev")


def check_data_path(resolved: Path, *, must_exist: bool) -> str | None:
    """Why a path a scenario names cannot be used as a data file, or None when it can."""
    text = str(resolved)
    if any(text == r or text.startswith(r + "/") for r in SPECIAL_ROOTS):
        return "a regular file (not under /proc, /sys or /dev)"
    if resolved.exists() or resolved.is_symlink():
        if resolved.is_dir():
            return "a regular file, not a directory"
        if not resolved.is_file():
            return "a regular file, not a device, FIFO or socket"
    elif must_exist:
        return "an existing file (relative to the scenario)"
    return None


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
    raw_prefs = raw.get("preferences", [])
    if not isinstance(raw_prefs, list) or len(raw_prefs) > 50:
        raise ctx.fail(table, "preferences", "a list of at most 50 preference tables",
                       raw_prefs)
    rules = tuple(_fixed_preference(ctx, p) for p in raw_prefs)
    driver_id = raw.get("driver_id", f"D{i:04d}")
    if not isinstance(driver_id, str) or not driver_id or len(driver_id) > 64:
        raise ctx.fail(table, "driver_id", "a driver id string of 1-64 characters", driver_id)
    cost = _coerce(ctx, table, "cost_per_km", float, raw.get("cost_per_km", default_cost))
    if not 0 < cost <= UPPER[("drivers", "cost_per_km")]:
        raise ctx.fail(table, "cost_per_km", "a value above 0, at most 1000", cost)
    return DriverSpec(driver_id=driver_id, lat=lat, lng=lng, cost_per_km=cost, rules=rules)


PREFERENCE_KEYS = ("text", "structured", "penalty_amount", "penalty_cap", "start_time",
                   "end_time")


def _fixed_preference(ctx: _Ctx, p: Any) -> PreferenceEntry:
    """One `[[drivers.fixed]] preferences` table: the competition drivers.json preference
    form with `text` for its `content` (read by the same reader as a drivers file,
    rule_from_entry). A `structured` form must be one the
    scorer reads (sim.scoring.scorer.read_preferences); a text alone is parsed at the run and,
    unreadable, handled by `[preferences] unparsed`
    (sim.world.driver_preferences.unparsed_preferences)."""
    table = "drivers.fixed"

    def fail(key: str, expected: str, found: object) -> ScenarioError:
        return ScenarioError(ctx.path, f"[{table}] {key}", expected, found,
                             ctx.line_of(table, "preferences"))

    if not isinstance(p, dict):
        raise fail("preferences", "a table {text, structured, penalty_amount, penalty_cap}", p)
    for k in p:
        if k not in PREFERENCE_KEYS:
            raise fail(f"preferences.{k}", f"one of {', '.join(PREFERENCE_KEYS)}", "unknown key")
    text, st = p.get("text", ""), p.get("structured")
    if not isinstance(text, str) or (not text.strip() and st is None):
        raise fail("preferences.text", "the preference's text (a non-empty string)", text)
    if st is not None and not (isinstance(st, dict) and isinstance(st.get("kind"), str)
                               and isinstance(st.get("params", {}), dict)):
        raise fail("preferences.structured",
                   "a table {kind = <one of the 24 kinds>, params = {...}}", st)
    for k, hi in (("penalty_amount", 1e7), ("penalty_cap", 1e9)):
        v = p.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)
                              or not math.isfinite(v) or not 0 <= v <= hi):
            raise fail(f"preferences.{k}", f"a finite number of yuan from 0 to {hi:g}", v)
    for k in ("start_time", "end_time"):
        if p.get(k) is not None and not isinstance(p[k], str):
            raise fail(f"preferences.{k}", "a wall time like 2026-03-01 00:00:00", p[k])
    rule = rule_from_entry({**{k: v for k, v in p.items() if k != "text"}, "content": text})
    if st is not None:  # the structured form as the scorer reads it, without a text parser
        got = read_preferences([rule.to_official()], settings_for("S4"), None)
        if got and got[0].rule is None:
            raise fail("preferences.structured",
                       f"a structured form the scorer reads ({got[0].unscored})", st)
    return rule


def parse_scenario(text: str, path: str | Path = "<string>") -> Scenario:
    load_choice_plugins()
    path = Path(path)
    text = text.removeprefix("\ufeff")  # a BOM some editors write
    ctx = _Ctx(path, text)
    if "\x00" in text:
        line = text[:text.index("\x00")].count("\n") + 1
        raise ScenarioError(path, "TOML", "a text file", "a NUL byte (a binary file?)", line)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(path, "TOML", "valid TOML", str(exc),
                            int(m.group(1)) if m else None) from None
    except RecursionError:
        raise ScenarioError(path, "TOML", "TOML nested a few levels deep",
                            "nesting too deep to read") from None
    for table in raw:
        if table not in TABLES:
            raise ScenarioError(path, f"[{table}]", "one of the tables "
                                + ", ".join(f"[{t}]" for t in TABLES), "unknown table",
                                ctx.line_of(table))
    raw = {t: _current_keys(ctx, t, body) if isinstance(body, dict) else body
           for t, body in raw.items()}
    drivers = raw.get("drivers")
    if isinstance(drivers, dict) and "rules_per_driver" in drivers:
        raise ctx.fail("drivers", "rules_per_driver", "preferences_per_driver (it now draws "
                       "the competition's preference kinds; rules_per_driver was removed)",
                       drivers["rules_per_driver"])
    parts: dict[str, Any] = {}
    for table, cls in TABLES.items():
        skip = ("fixed", "preference_kinds") if table == "drivers" else ()
        parts[table] = _build(ctx, table, cls, raw.get(table, {}), skip)
    if isinstance(raw.get("drivers"), dict) and "preference_kinds" in raw["drivers"]:
        parts["drivers"] = dataclasses.replace(
            parts["drivers"], preference_kinds=_preference_kinds(
                ctx, raw["drivers"]["preference_kinds"]))
    _check_geo(ctx, parts["geo"])
    _check_cargo(ctx, parts["cargo"])
    _check_competition(ctx, parts["scenario"])
    drivers_raw = raw.get("drivers", {}).get("fixed", [])
    if not isinstance(drivers_raw, list):
        raise ctx.fail("drivers", "fixed", "an array of tables [[drivers.fixed]]", drivers_raw)
    if len(drivers_raw) > UPPER[("drivers", "count")]:
        raise ctx.fail("drivers", "fixed", "at most 10000 fixed drivers", len(drivers_raw))
    fixed = tuple(_driver_spec(ctx, i, d, parts["drivers"].cost_per_km)
                  for i, d in enumerate(drivers_raw))
    _check_driver_ids(ctx, fixed, parts["drivers"].count)
    parts["drivers"] = dataclasses.replace(parts["drivers"], fixed=fixed)
    _check_values(ctx, parts)
    base = path.parent
    for table in ("cargo", "drivers"):
        f = parts[table].file
        if f is not None:
            resolved = (base / f).resolve()
            why = check_data_path(resolved, must_exist=True)
            if why is not None:
                raise ctx.fail(table, "file", why, f)
            parts[table] = dataclasses.replace(parts[table], file=str(resolved))
    if parts["preferences"].pins is not None:
        f = parts["preferences"].pins
        resolved = (base / f).resolve()
        why = check_data_path(resolved, must_exist=True)
        if why is not None:
            raise ctx.fail("preferences", "pins", why, f)
        parts["preferences"] = dataclasses.replace(parts["preferences"], pins=str(resolved))
    for table, key in (("llm", "cache"), ("memory", "lessons")):
        f = getattr(parts[table], key)
        if f is not None:
            resolved = (base / f).resolve() if not Path(f).is_absolute() else Path(f)
            why = check_data_path(resolved, must_exist=False)
            if why is not None:
                raise ctx.fail(table, key, why, f)
    sc = Scenario(path=str(path), **parts)
    _check_work(ctx, sc)
    return sc


def _current_keys(ctx: _Ctx, table: str, body: dict) -> dict:
    """A table with each renamed key (RENAMED_KEYS) under its new name, warning once per key;
    the old and the new spelling together is an error (which one was meant?)."""
    out: dict[str, Any] = {}
    for key, v in body.items():
        new = RENAMED_KEYS.get((table, key))
        if new is None:
            out[key] = v
            continue
        line = ctx.line_of(table, key)
        if new in body:
            raise ctx.fail(table, key, f"{new} alone (its old spelling {key} was also given)", v)
        warnings.warn(f"{ctx.path}{f':{line}' if line else ''}: [{table}] {key} is deprecated: "
                      f"write {new} (the old spelling is read as {new} for one more release)",
                      RenamedSetting, stacklevel=3)
        out[new] = v
    return out


def _check_driver_ids(ctx: _Ctx, fixed: tuple[DriverSpec, ...], count: int) -> None:
    """Two drivers with one id would share a memory and a row; generated ids count on."""
    seen: set[str] = set()
    generated = {f"D{i:04d}" for i in range(len(fixed), max(count, len(fixed)))}
    for spec in fixed:
        if spec.driver_id in seen:
            raise ctx.fail("drivers.fixed", "driver_id", "a driver id used once",
                           spec.driver_id)
        if spec.driver_id in generated:
            raise ctx.fail("drivers.fixed", "driver_id", f"an id other than the generated "
                           f"D{len(fixed):04d}..D{max(count, len(fixed)) - 1:04d}",
                           spec.driver_id)
        seen.add(spec.driver_id)


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    why = check_data_path(p.resolve() if p.exists() else p, must_exist=True)
    if why is not None:
        raise ScenarioError(p, "file", why.replace("file", "scenario file", 1), str(p))
    try:
        with p.open("rb") as fh:
            blob = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(p, "file", "a readable scenario file", exc.strerror) from None
    if len(blob) > MAX_FILE_BYTES:
        raise ScenarioError(p, "file", f"a scenario of at most {MAX_FILE_BYTES // 2**20} MiB",
                            "a larger file")
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = blob[:exc.start].count(b"\n") + 1
        raise ScenarioError(p, "TOML", "UTF-8 text", f"byte {blob[exc.start]:#04x} that is "
                            "not UTF-8", line) from None
    return parse_scenario(text, p)
