"""`freightsim compete`: a competition agent (or ours) under the official loop
(docs/competition.md).

The agent class is constructed once as `CLASS(api)` and called as `decide(driver_id)`. The api
is sim/competition's, plus `model_chat_completion` through our [llm] settings (record/replay
cache, the round's budgets) and an optional `memory_view`. Outputs go to `<out>/competition/`.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from agents.app.rundir import RunDirLock, check_out_dir
from agents.app.simkit_shim import install as install_simkit
from agents.llm import providers
from sim.competition.drivers_file import load_driver_records
from sim.competition.env import Api, CompetitionEnv, RoundSettings, archive_results, run_stamp
from sim.competition.log import write_atomic
from sim.competition.records import load_cargo_table
from sim.geo import Geography
from sim.preferences.kinds.drawing import CargoMarket
from sim.redact import add_secret_from_env, redact, redact_obj
from sim.scenario import Scenario, ScenarioError

INPUTS_FILE = "freightsim_inputs.json"
# our agents' per-call and per-step logs, beside competition/
CALL_TABLES = ("llm_calls.parquet", "steps.parquet")
INCOME_FILE = "monthly_income_202603.json"


def load_agent_class(spec: str) -> type:
    """MODULE:CLASS, where MODULE is a dotted module or a path to a .py file."""
    if ":" not in spec:
        raise ScenarioError("--agent", "--agent", "MODULE:CLASS", spec)
    mod_name, cls_name = spec.rsplit(":", 1)
    install_simkit()
    try:
        if mod_name.endswith(".py") or os.sep in mod_name:
            path = Path(mod_name).resolve()
            if not path.is_file():
                raise ScenarioError(path, "--agent", "an existing .py file", mod_name)
            for p in (str(path.parent.parent), str(path.parent)):
                if p not in sys.path:
                    sys.path.insert(0, p)
            spec_ = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(spec_)
            sys.modules[path.stem] = module
            spec_.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(mod_name)
    except ImportError as exc:
        raise ScenarioError("--agent", "--agent", "an importable agent module",
                            f"{mod_name} ({exc})") from None
    cls = getattr(module, cls_name, None)
    if not isinstance(cls, type):
        raise ScenarioError("--agent", "--agent", f"a class {cls_name} in {mod_name}",
                            "missing")
    return cls


class ChatGateway:
    """§3.5's model call: a non-streaming POST of the payload, answered from the [llm] cache
    when recorded (or only from it with replay), never through environment proxies.

    The reply is redacted (sim/redact.py) before the agent sees it: an agent that copies the
    model's words into its decision cannot write a key a server echoed into the action log,
    and a recorded reply replays to the very same decision."""

    def __init__(self, scenario: Scenario) -> None:
        cfg = scenario.llm
        self.cfg = cfg
        self.enabled = providers.get(cfg.backend).openai_compatible or cfg.replay
        self.url = cfg.base_url.rstrip("/") + "/chat/completions"
        self.key = add_secret_from_env(cfg.api_key_env)
        self.cache_path: Path | None = None
        if cfg.cache:
            p = Path(cfg.cache)
            self.cache_path = p if p.is_absolute() else Path(scenario.path).parent / p
        self.cache: dict[str, dict] = {}
        self._lock = threading.Lock()
        if self.cache_path is not None and self.cache_path.is_file():
            for line in self.cache_path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    if "response" in row:
                        self.cache[row["key"]] = row["response"]
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    @staticmethod
    def key_of(payload: dict) -> str:
        """sha256 of the payload, redacted: a secret is not part of a request's identity."""
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(redact(blob).encode("utf-8")).hexdigest()

    def complete(self, payload: dict) -> dict:
        if not self.enabled:
            raise RuntimeError("no model configured: set [llm] backend = \"llm\" (and base_url)")
        if not isinstance(payload, dict):
            raise TypeError("payload must be a dict (an OpenAI Chat Completions body)")
        body = dict(payload)
        body.setdefault("model", self.cfg.model)
        key = self.key_of(body)
        hit = self.cache.get(key)
        if hit is not None:
            return redact_obj(hit)  # a fresh copy, redacted even if recorded before redaction
        if self.cfg.replay:
            raise RuntimeError(f"replay miss for request {key[:12]}")
        req = urllib.request.Request(
            self.url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.key}"},
            method="POST")
        try:
            with self._opener.open(req, timeout=self.cfg.timeout_s) as resp:  # errors raise
                # redacted before parsing: a parse error carries the document along
                reply = json.loads(redact(resp.read().decode("utf-8")))
        except urllib.error.HTTPError as exc:  # its reason phrase is the server's to choose
            raise urllib.error.HTTPError(self.url, exc.code, redact(str(exc.reason)),
                                         exc.headers, None) from None
        if not isinstance(reply, dict):
            raise ValueError(f"model reply is not a JSON object: {type(reply).__name__}")
        reply = redact_obj(reply)
        if self.cache_path is not None:
            with self._lock:
                self.cache[key] = reply
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                with self.cache_path.open("a", encoding="utf-8") as fh:
                    fh.write(redact(json.dumps({"key": key, "request": body, "response": reply},
                                               ensure_ascii=False)) + "\n")
        return copy.deepcopy(reply)


class HarnessApi(Api):
    """The official four methods, plus freightsim's memory as an optional extra."""

    def __init__(self, env: CompetitionEnv, gateway: ChatGateway) -> None:
        super().__init__(env)
        self._gateway = gateway
        self.memory_views: dict[str, Any] = {}  # driver id -> callable(agent) -> str

    def model_chat_completion(self, payload: dict) -> dict:
        reply = self._gateway.complete(payload)
        self.add_usage(reply.get("usage"))  # a null count raises here, uncounted (§3.5)
        return reply

    def memory_view(self, driver_id: str, agent: str = "main_decision") -> str:
        """freightsim's memory view for one agent role of this driver (our adapter only)."""
        fn = self.memory_views.get(driver_id)
        if fn is None:
            raise KeyError(f"no freightsim memory for driver {driver_id!r} in this run")
        return fn(agent)


def official_cargo_file(scenario: Scenario, dest: Path) -> Path:
    try:
        from sim.world.cargo_stream import official_cargo_records
    except ImportError:
        raise ScenarioError(scenario.path, "[cargo] file",
                            "a cargo file (generated official cargo needs sim.world.cargo_stream, "
                            "which this build lacks)", "no file") from None
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n"
                   for r in official_cargo_records(scenario))
    write_atomic(dest, text)
    return dest


def official_listings(scenario: Scenario, geo: Geography) -> CargoMarket:
    """The cargo this environment will list (the scenario's cargo file, else the calibrated
    market `official_cargo_file` writes), by listing day, for must-take rules to name."""
    from sim.world.cargo import Cargo
    from sim.world.cargo_listings import MarketListings
    from sim.world.cargo_stream import scenario_start, world_cargo
    from sim.world.competition_files import load_world_cargo

    s, start = scenario, scenario_start(scenario)
    spare = np.random.default_rng(0)  # competitor draws only; ids and times do not use it
    def from_file(path: str) -> Iterator[Cargo]:  # read only if a must-take rule is drawn
        yield from load_world_cargo(path, start, geo, 0.0, spare)

    cargo = from_file(s.cargo.file) if s.cargo.file is not None else world_cargo(s, geo, spare)
    return MarketListings(cargo, start)


def official_drivers(scenario: Scenario) -> list[dict]:
    """The scenario's drivers (file, fixed or generated, as the generator world makes them) in
    the official drivers.json form."""
    d = scenario.drivers
    if d.file is not None:
        return [r.raw for r in load_driver_records(d.file)]
    from sim.world.world import World  # the generator's own driver draw, so both worlds agree

    s = scenario
    geo = Geography.guangdong(detour_factor=s.geo.detour_factor, speed_kmh=s.geo.speed_kmh,
                              speed_profile=tuple(s.geo.speed_profile),
                              market_h3_res=s.geo.market_h3_res)
    rng = np.random.default_rng(np.random.SeedSequence(s.scenario.seed).spawn(4)[1])
    specs = World._driver_specs(SimpleNamespace(scenario=s, geo=geo, rng_drivers=rng,
                                                listings=official_listings(s, geo)))
    return [{"driver_id": x.driver_id, "name": x.driver_id, "vehicle_no": "",
             "truck_length": "", "cost_per_km": x.cost_per_km, "current_lat": x.lat,
             "current_lng": x.lng,
             "preferences": [r.to_official() for r in x.rules]}
            for x in specs]


def round_settings(scenario: Scenario, **overrides: Any) -> RoundSettings:
    s = scenario
    kw: dict[str, Any] = {"days": int(s.scenario.days), "speed_kmh": s.geo.speed_kmh,
                          "max_steps": s.scenario.max_steps, "concurrency": s.llm.concurrency}
    kw.update({k: v for k, v in overrides.items() if v is not None})
    return RoundSettings.for_version(s.scenario.scoring, **kw)


def run_competition(scenario: Scenario, out: str | Path, agent_spec: str | None = None,
                    stamp: str | None = None, on_agent: Any = None, **overrides: Any) -> dict:
    """Run the competition loop; returns the run summary (also written to disk). `on_agent`,
    if given, is called with the agent before the loop starts (the bench counts tokens)."""
    from sim.world.driver_preferences import check_unparsed

    check_unparsed(scenario)  # [preferences] unparsed = "error": stop before anything is written
    check_out_dir(Path(out))
    comp = Path(out) / "competition"
    comp.mkdir(parents=True, exist_ok=True)
    # one writer per run directory, as for the generator world; the lock file sits beside
    # competition/, whose regular files a new run archives (§4.7)
    lock = RunDirLock(Path(out))
    for name in CALL_TABLES:  # our agents' call log of an earlier run must not mix in
        if (Path(out) / name).is_dir():
            shutil.rmtree(Path(out) / name)
    try:
        return _run_locked(scenario, comp, agent_spec, stamp, on_agent, overrides)
    finally:
        lock.release()


def _run_locked(scenario: Scenario, comp: Path, agent_spec: str | None, stamp: str | None,
                on_agent: Any, overrides: dict[str, Any]) -> dict:
    settings = round_settings(scenario, **overrides)
    cargo_path = Path(scenario.cargo.file) if scenario.cargo.file else None
    drivers = official_drivers(scenario)
    stamp = stamp or run_stamp()
    archive_results(comp, stamp)  # before writing this run's inputs next to the logs
    if cargo_path is None:
        cargo_path = official_cargo_file(scenario, comp / "cargo_dataset.jsonl")
    drivers_path = comp / "drivers.json"
    write_atomic(drivers_path, json.dumps(drivers, ensure_ascii=False, indent=2))
    table = load_cargo_table(cargo_path)
    records = load_driver_records(drivers_path)
    env = CompetitionEnv(table, records, settings, comp, stamp)
    api = HarnessApi(env, ChatGateway(scenario))
    env.api = api
    if agent_spec is not None:
        agent = load_agent_class(agent_spec)(api)
    else:
        from agents.app.compete_adapter import FreightsimAgent

        agent = FreightsimAgent(api, scenario, records, out_dir=comp.parent)
    if on_agent is not None:
        on_agent(agent)
    write_atomic(comp / INPUTS_FILE, json.dumps({
        "cargo": str(cargo_path.resolve()), "drivers": str(drivers_path.resolve()),
        "reposition_speed_km_per_hour": settings.speed_kmh,
        "simulation_duration_days": settings.days, "scoring_version": settings.scoring,
        # `score` applies the same pins as the run (docs/preferences.md)
        **({"pins": scenario.preferences.pins} if scenario.preferences.pins else {}),
    }, indent=2))
    try:
        summary = env.run(agent, archive=False)
    finally:  # our agents' llm_calls.parquet and steps.parquet, whole
        services = getattr(agent, "services", None)
        if services is not None and agent_spec is None:
            services.log.close()
    if services is not None and agent_spec is None and scenario.memory.lessons is not None:
        from agents.app.runner import learn_safely  # what this run teaches the next one

        summary.update(learn_safely(None, services))
    try:
        from sim.scoring.scorer import ScoringInputError, score_run
    except ImportError:
        return summary
    try:
        report = score_run(comp)
    except ScoringInputError:  # e.g. no driver logged a step: no action files to score
        return summary
    write_score(comp, report)
    return summary


def write_score(comp: Path, report) -> None:
    """The scorer's report as the official §6 income file (next to the logs it scored) and
    `score_preferences.tsv` (one row per preference: driver, index, rule, penalty, counters,
    text), so a run's own output carries the per-preference penalties without a separate
    `freightsim score`."""
    write_atomic(comp / INCOME_FILE,
                 json.dumps(report.to_official_json(), ensure_ascii=False, indent=2))
    lines = ["driver_id\tindex\trule\tpenalty\tunscored\tcounters\ttext"]
    for d in report.drivers:
        for r in d.rules:
            cells = [d.driver_id, str(r.index), r.label, f"{r.penalty:.2f}", r.unscored or "",
                     json.dumps(r.counters, ensure_ascii=False, default=str), r.text]
            lines.append("\t".join(c.replace("\t", " ").replace("\n", " ") for c in cells))
    write_atomic(comp / "score_preferences.tsv", "\n".join(lines) + "\n")
    # what the parser could not read with confidence, beside the scores it shaped
    write_atomic(comp / "preference_readings.json", json.dumps({
        "ambiguous": report.ambiguous, "pinned": report.pins,
        "unscored": [{"driver_id": d.driver_id, "index": r.index, "text": r.text,
                      "reason": r.unscored} for d in report.drivers for r in d.rules
                     if r.unscored is not None]}, ensure_ascii=False, indent=2))


def print_summary(summary: dict, comp: Path) -> None:
    reasons: dict[str, int] = {}
    for r in summary["driver_end_reasons"].values():
        reasons[r] = reasons.get(r, 0) + 1
    print(f"drivers: {len(summary['driver_completed_steps'])}, steps: "
          f"{summary['completed_steps']}, end reasons: "
          + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for did, msg in summary["driver_simulation_failures"].items():
        print(f"  {did}: {msg}")
    print(f"wall time (s): {summary['simulate_time_seconds']}")
    print(f"results: {comp}/ (action logs, run_summary_202603.json, {INPUTS_FILE})")


def validate_inputs(scenario: Scenario) -> list[str]:
    """`validate` for competition rules: open both files strictly (a bad row raises with its
    line) and describe them (the CLI lists unparsed preferences for either world)."""
    from sim.official.timebase import wall_time

    notes = []
    if scenario.cargo.file:
        t = load_cargo_table(scenario.cargo.file)
        lo, hi = t.time_range()
        notes.append(f"cargo {scenario.cargo.file}: {len(t):,} rows, listed {wall_time(lo)} .. "
                     f"delisted by {wall_time(hi)}")
    else:
        notes.append("cargo: generated (sim.world.cargo_stream)")
    drivers = official_drivers(scenario)
    notes.append(f"drivers: {len(drivers)}")
    return notes
