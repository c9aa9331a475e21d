"""`score_run`: the official scorer over a run's competition files (§6, §7).

Reads `<run_dir>/competition/freightsim_inputs.json` (or a directory holding the files directly,
with overrides), validates each driver's action log, computes income and the penalty of every
preference, and returns a `ScoreReport` whose `to_official_json()` is the §6 output shape.

A preference's kind comes, in order, from a pin (sim/preferences/pins.py: a sidecar file fixing the
reading of chosen texts), a freightsim extension field `"structured": {"kind", "params"}` on the
preference object, else from an injected text parser (default: the text parser's `read_preference`
when importable); a preference none can read is reported as unscored with a warning and penalty
0, and one the parser reads with doubt (two kinds compete, a parameter is missing) is scored with
its best reading and reported as ambiguous with every reading.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.geo import Point
from sim.official.cargo_index import CargoFileError, CargoRecord, load_cargo_index
from sim.official.income import Income, compute_income
from sim.official.steps import StepLog
from sim.official.timebase import DAY
from sim.official.versions import (
    DEFAULT_VERSION,
    PrefCount,
    ScoringVersion,
    VersionSettings,
    settings_for,
)
from sim.official.windows import Window
from sim.preferences.kinds import Kind, ParamsError, RuleContext, build_rule
from sim.preferences.pins import Pin, PinFileError, Pins, check_pins, load_pins, pins_of
from sim.preferences.text.reading import read_preference
from sim.scoring.validate import TOKEN_KEYS, LogContext, LogValidationError, validate_log

INPUTS_FILE = "freightsim_inputs.json"
SUMMARY_FILE = "run_summary_202603.json"
LOG_GLOB = "actions_202603_*.jsonl"
MONTH = "2026-03"
COST_MEANING = "cost = distance_km * cost_per_km (yuan): every km driven, loaded or empty"
COST_METRIC = ("distance_km = sum of reposition distance_km + accepted takes' pickup_deadhead_km "
               "+ haul_distance_km; net_income = gross_income - cost - preference_penalty")

Parser = Callable[[str], Any]  # -> {"kind", "params", "penalty_amount", "penalty_cap"} or None


class ScoringInputError(ValueError):
    """The run cannot be scored at all (missing or malformed input files)."""


@dataclass
class RuleReport:
    index: int  # 1-based position among the driver's preference entries
    label: str
    text: str
    kind: str | None
    counters: dict[str, Any]
    penalty: float  # rounded to 2 dp on its own
    unscored: str | None = None  # why the preference was not scored
    reading: str = "parsed"  # how its kind was decided: parsed (or structured), ambiguous, pinned

    def to_official(self) -> dict:
        return {"rule": self.label, "counters": self.counters, "penalty": self.penalty,
                "preference_text": self.text}


@dataclass
class DriverReport:
    driver_id: str
    income: Income
    token_usage: dict[str, int]
    calculation_aborted: bool
    validation_error: str | None
    rules: list[RuleReport] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def to_official(self) -> dict:
        return {
            "driver_id": self.driver_id,
            "income": self.income.to_dict(),
            "token_usage": dict(self.token_usage),
            "calculation_aborted": self.calculation_aborted,
            "validation_error": self.validation_error,
            "preference_check": {"rules": [r.to_official() for r in self.rules]},
        }


@dataclass
class ScoreReport:
    version: ScoringVersion
    n_days: int
    drivers: list[DriverReport]
    result_files_count: int
    simulate_time_seconds: float | None
    warnings: list[str] = field(default_factory=list)
    month: str = MONTH
    ambiguous: list[dict] = field(default_factory=list)  # read with doubt, scored as the best
    pins: int = 0  # readings fixed by a pin file

    def driver(self, driver_id: str) -> DriverReport:
        return next(d for d in self.drivers if d.driver_id == driver_id)

    def to_official_json(self) -> dict:
        failed = {d.driver_id: d.validation_error or "" for d in self.drivers
                  if d.calculation_aborted}
        tokens = {k: sum(d.token_usage[k] for d in self.drivers) for k in TOKEN_KEYS}
        return {
            "month": self.month,
            "simulate_time_seconds": self.simulate_time_seconds,
            "result_files_count": self.result_files_count,
            "drivers": [d.to_official() for d in self.drivers],
            "summary": {
                "total_net_income_all_drivers":
                    round(sum(d.income.net_income for d in self.drivers), 2),
                "total_preference_penalty":
                    round(sum(d.income.preference_penalty for d in self.drivers), 2),
                "total_token_usage": tokens,
                "failed_driver_count": len(failed),
                "failed_drivers": failed,
            },
            "cost_meaning": COST_MEANING,
            "cost_metric": COST_METRIC,
        }


# --------------------------------------------------------------------------- preferences

@dataclass(frozen=True)
class Preference:
    index: int
    text: str
    amount: float
    cap: float | None
    window: Window
    rule: Kind | None
    unscored: str | None
    zero_cap_uncapped: bool | None = None
    ambiguous: str | None = None  # the parser's doubt: why, and every reading
    pinned: Pin | None = None


def default_parser() -> Parser | None:
    """The text parser with its confidence (a Reading: best form, status, readings)."""
    return read_preference


def _doubt(parsed: object) -> tuple[object, str | None]:
    """A Reading-like result (`best`, `status`, `reason`, `readings`) -> (its best form, the
    ambiguity message or None); any other parser result passes through."""
    if not hasattr(parsed, "status") or not hasattr(parsed, "best"):
        return parsed, None
    status = str(getattr(parsed.status, "value", parsed.status))
    if status != "ambiguous":
        return parsed.best, None
    readings = "; ".join(getattr(parsed, "readings", []) or [])
    return parsed.best, f"{parsed.reason} [readings: {readings}]"


def _num(v: object) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        return float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def parsed_dict(parsed: object) -> dict | None:
    """A parser may return a dict or an object with `to_dict()` (a ParsedPreference) or any
    dataclass; a Reading (the text parser's read_preference) gives its best form; anything else
    reads as 'not understood'."""
    if hasattr(parsed, "status") and hasattr(parsed, "best"):
        parsed = parsed.best
    if parsed is None or isinstance(parsed, dict):
        return parsed
    to_dict = getattr(parsed, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if dataclasses.is_dataclass(parsed) and not isinstance(parsed, type):
        return dataclasses.asdict(parsed)
    return None


def _resolve(text: str, structured: object, parser: Parser | None
             ) -> tuple[Kind | None, dict | None, str | None, str | None]:
    """-> (rule, parsed dict or None, reason unscored, ambiguity message)."""
    parsed: dict | None = None
    doubt = None
    if isinstance(structured, dict):
        parsed = structured
    elif parser is not None and text:
        try:
            best, doubt = _doubt(parser(text))
            parsed = parsed_dict(best)
        except Exception as exc:  # a broken parser must not stop scoring
            return None, None, f"parser raised {type(exc).__name__}: {exc}", None
    if not parsed:
        why = "no parser available" if parser is None else "text not understood by the parser"
        return None, None, why, doubt
    try:
        return (build_rule(str(parsed.get("kind")), parsed.get("params") or {}), parsed, None,
                doubt)
    except ParamsError as exc:
        return None, parsed, f"bad structured form: {exc}", doubt


def _text_money(text: str, parser: Parser | None) -> tuple[float | None, float | None]:
    """The fine and cap a text states, read by the parser (a pin without its own amounts)."""
    if parser is None or not text:
        return None, None
    try:
        best, _ = _doubt(parser(text))
        d = parsed_dict(best) or {}
    except Exception:
        return None, None
    return _num(d.get("penalty_amount")), _num(d.get("penalty_cap"))


def _pinned(pin: Pin, text: str, amount: float | None, cap: float | None, has_cap: bool,
            parser: Parser | None) -> tuple[Kind, float, float | None]:
    """A pinned preference's rule and money: the pin's amounts where it states them, else the
    entry's own, else the text's."""
    if amount is None and not pin.has_amount:
        amount, text_cap = _text_money(text, parser)
        cap = cap if has_cap else text_cap
    if pin.has_amount:
        amount = pin.penalty_amount
    if pin.has_cap:
        cap = pin.penalty_cap
    return build_rule(pin.kind, pin.params), amount or 0.0, cap


def read_preferences(entries: list, settings: VersionSettings, parser: Parser | None,
                     n_days: int = 31, pins: Mapping[int, Pin] | None = None
                     ) -> list[Preference]:
    """The driver's preferences as the scorer reads them; `pins` (by 1-based index, see
    sim/preferences/pins.py) fix chosen readings before any parser."""
    out: list[Preference] = []
    pins = pins or {}
    for i, entry in enumerate(entries, 1):
        pin = pins.get(i)
        if isinstance(entry, str):
            if not entry.strip() or settings.version is ScoringVersion.S2:
                continue  # S2: a string entry has amount 0 and cap 0 and is dropped
            window = Window.from_bounds(None, None, n_days=n_days)
            if pin is not None:
                rule, amount, cap = _pinned(pin, entry.strip(), None, None, False, parser)
                out.append(Preference(i, entry.strip(), amount, cap, window, rule, None,
                                      pinned=pin))
                continue
            rule, parsed, why, doubt = _resolve(entry.strip(), None, parser)
            amount = _num((parsed or {}).get("penalty_amount")) or 0.0
            cap = _num((parsed or {}).get("penalty_cap"))
            out.append(Preference(i, entry.strip(), amount, cap, window, rule, why,
                                  ambiguous=doubt))
            continue
        if not isinstance(entry, dict):
            continue
        text = str(entry.get("content") or entry.get("text") or "").strip()
        structured = entry.get("structured")
        if not text and structured is None:
            continue  # empty contents are ignored
        if pin is not None:
            zc = structured.get("zero_cap_uncapped") if isinstance(structured, dict) else None
            rule, amount, cap = _pinned(pin, text, _num(entry.get("penalty_amount")),
                                        _num(entry.get("penalty_cap")), "penalty_cap" in entry,
                                        parser)
            out.append(Preference(i, text, amount, cap,
                                  Window.from_bounds(entry.get("start_time"),
                                                     entry.get("end_time"), n_days=n_days),
                                  rule, None, zc if isinstance(zc, bool) else None, pinned=pin))
            continue
        rule, parsed, why, doubt = _resolve(text, structured, parser)
        amount = _num(entry.get("penalty_amount"))
        cap = _num(entry.get("penalty_cap"))
        if amount is None and parsed:  # an object without its own amount: the text's
            amount = _num(parsed.get("penalty_amount"))
            cap = cap if "penalty_cap" in entry else _num(parsed.get("penalty_cap"))
        zc = structured.get("zero_cap_uncapped") if isinstance(structured, dict) else None
        out.append(Preference(i, text, amount or 0.0, cap,
                              Window.from_bounds(entry.get("start_time"), entry.get("end_time"),
                                                 n_days=n_days),
                              rule, why, zc if isinstance(zc, bool) else None, doubt))
    return out


def _how(p: Preference) -> str:
    if p.pinned is not None:
        return "pinned"
    return "ambiguous" if p.ambiguous is not None else "parsed"


def score_preferences(prefs: list[Preference], log: StepLog, settings: VersionSettings,
                      n_days: int, initial: Point | None) -> tuple[list[RuleReport], float]:
    """-> (one report per preference, unrounded driver total)."""
    rules, total = [], 0.0
    for p in prefs:
        if p.rule is None:
            rules.append(RuleReport(p.index, "unscored", p.text, None, {}, 0.0, p.unscored))
            continue
        if not log.steps and settings.empty_log_scores_zero:
            rules.append(RuleReport(p.index, p.rule.label, p.text, p.rule.name,
                                    {"empty_log": True}, 0.0, reading=_how(p)))
            continue
        ctx = RuleContext(settings, n_days, p.rule.name, p.window, initial)
        counters = p.rule.violations(log, ctx)
        pen = p.rule.penalty(counters, p.amount, p.cap, ctx,
                             zero_cap_uncapped=p.zero_cap_uncapped)
        total += pen
        rules.append(RuleReport(p.index, p.rule.label, p.text, p.rule.name, counters,
                                round(pen, 2), reading=_how(p)))
    return rules, total


# --------------------------------------------------------------------------- inputs

@dataclass(frozen=True)
class RunInputs:
    folder: Path
    cargo_path: Path
    drivers_path: Path
    n_days: int
    speed_kmh: float
    version: ScoringVersion
    summary: dict | None
    log_files: list[Path]
    pins: Path | None = None  # the pin file the run was made with (freightsim_inputs.json)


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScoringInputError(f"cannot read {what} {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ScoringInputError(f"{what} {path} is not valid JSON: {exc}") from None


def resolve_inputs(run_dir: Path, *, version: str | None = None, cargo: Path | None = None,
                   drivers: Path | None = None, days: int | None = None,
                   speed: float | None = None) -> RunInputs:
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ScoringInputError(f"run directory {run_dir} does not exist")
    folder = run_dir / "competition" if (run_dir / "competition").is_dir() else run_dir
    inputs: dict = {}
    if (folder / INPUTS_FILE).is_file():
        inputs = _read_json(folder / INPUTS_FILE, "inputs file")
        if not isinstance(inputs, dict):
            raise ScoringInputError(f"{folder / INPUTS_FILE} must hold a JSON object")

    def path_of(override: Path | None, key: str, flag: str) -> Path:
        if override is not None:
            return Path(override)
        if inputs.get(key):
            p = Path(inputs[key])
            return p if p.is_absolute() else folder / p
        raise ScoringInputError(f"no {key} file: {folder / INPUTS_FILE} is missing or has no "
                                f"'{key}'; pass {flag}")

    summary = None
    if (folder / SUMMARY_FILE).is_file():
        summary = _read_json(folder / SUMMARY_FILE, "run summary")
    n = days
    if n is None and isinstance(summary, dict):
        n = summary.get("simulation_duration_days")
    if n is None:
        n = inputs.get("simulation_duration_days")
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise ScoringInputError(f"simulation_duration_days must be an int > 0 (from {SUMMARY_FILE}"
                                f", {INPUTS_FILE} or --days), got {n!r}")
    sp = speed if speed is not None else inputs.get("reposition_speed_km_per_hour", 60.0)
    if not isinstance(sp, int | float) or isinstance(sp, bool) or sp <= 0:
        raise ScoringInputError(f"reposition_speed_km_per_hour must be > 0, got {sp!r}")
    try:
        v = settings_for(version or inputs.get("scoring_version") or DEFAULT_VERSION).version
    except ValueError as exc:
        raise ScoringInputError(str(exc)) from None
    logs = sorted(folder.glob(LOG_GLOB))
    if not logs:
        raise ScoringInputError(f"no {LOG_GLOB} files in {folder}")
    pins = None
    if inputs.get("pins"):
        pins = Path(inputs["pins"]) if Path(inputs["pins"]).is_absolute() \
            else folder / inputs["pins"]
    return RunInputs(folder, path_of(cargo, "cargo", "--cargo"),
                     path_of(drivers, "drivers", "--drivers"), n, float(sp), v,
                     summary if isinstance(summary, dict) else None, logs, pins)


def read_driver_rows(path: Path) -> dict[str, dict]:
    """The drivers file as the official scorer reads it (a JSON array, or JSON Lines), by
    driver id: leniently, not through the environment's strict loader."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScoringInputError(f"cannot read drivers file {path}: {exc.strerror}") from None
    try:
        rows = json.loads(text)
    except json.JSONDecodeError:
        try:  # freightsim's own JSON Lines form
            rows = [json.loads(x) for x in text.splitlines() if x.strip()]
        except json.JSONDecodeError as exc:
            raise ScoringInputError(f"drivers file {path} is not a JSON array: {exc}") from None
    if not isinstance(rows, list) or not rows:
        raise ScoringInputError(f"drivers file {path} must be a non-empty JSON array")
    out = {}
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not str(row.get("driver_id") or "").strip():
            raise ScoringInputError(f"drivers file {path}: entry {i} has no driver_id")
        if row.get("preferences", []) is None or not isinstance(row.get("preferences", []),
                                                                  list):
            raise ScoringInputError(f"drivers file {path}: driver {row['driver_id']}: "
                                    f"preferences must be a list")
        cost = row.get("cost_per_km", 0)
        if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
            raise ScoringInputError(f"drivers file {path}: driver {row['driver_id']}: "
                                    f"cost_per_km must be a number >= 0, got {cost!r}")
        out[str(row["driver_id"]).strip()] = row
    return out


def driver_id_of(path: Path) -> str:
    """The third '_'-separated field of actions_202603_<id>_<date>_<time>.jsonl."""
    parts = path.name.split("_")
    return parts[2] if len(parts) > 2 else ""


# --------------------------------------------------------------------------- scoring

def _score_file(path: Path, driver: dict, prefs: list[Preference], inputs: RunInputs,
                settings: VersionSettings, cargo: Mapping[str, CargoRecord], expected: int | None
                ) -> tuple[DriverReport, str | None]:
    did = driver_id_of(path)
    zero = dict.fromkeys(TOKEN_KEYS, 0)
    horizon = settings.horizon_days(inputs.n_days) * DAY
    try:
        cost_per_km = float(driver.get("cost_per_km", 0))
        _check_rule_count(len(prefs), settings, expected)
        lines = path.read_text(encoding="utf-8").splitlines()
        vlog = validate_log(lines, LogContext(settings, cargo, inputs.speed_kmh, horizon))
    except LogValidationError as exc:
        return DriverReport(did, Income.zero(), zero, True, str(exc), files=[str(path)]), str(exc)
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"{type(exc).__name__}: {exc}"
        return DriverReport(did, Income.zero(), zero, True, msg, files=[str(path)]), msg
    log = StepLog.from_records(vlog.records, cargo, accepted_truthy=settings.accepted_truthy)
    initial = None
    if _num(driver.get("current_lat")) is not None and _num(driver.get("current_lng")) is not None:
        initial = Point(float(driver["current_lat"]), float(driver["current_lng"]))
    rules, penalty = score_preferences(prefs, log, settings, inputs.n_days, initial)
    income = compute_income(vlog.gross_yuan, vlog.distance_km, cost_per_km, penalty)
    return DriverReport(did, income, vlog.tokens, False, None, rules, [str(path)]), None


def _check_rule_count(n_rules: int, settings: VersionSettings, want: int | None) -> None:
    if want is None or settings.pref_count is PrefCount.NONE:
        return
    if settings.pref_count is PrefCount.AT_LEAST and n_rules < want:
        raise LogValidationError("ValueError", f"expected at least {want} preferences, "
                                               f"found {n_rules}")
    if settings.pref_count is PrefCount.EXACTLY and n_rules != want:
        raise LogValidationError("ValueError", f"expected exactly {want} preferences, "
                                               f"found {n_rules}")


def score_run(run_dir: Path, *, version: str | ScoringVersion | None = None,
              cargo: Path | None = None, drivers: Path | None = None, days: int | None = None,
              speed: float | None = None, parser: Parser | str | None = "default",
              expected_rule_counts: Mapping[str, int] | None = None,
              pins: Path | None = None) -> ScoreReport:
    """Score a run directory as the official scorer would (see the module docstring).

    `expected_rule_counts` stands in for the official per-driver calculator tables: when given,
    S2 aborts a driver with fewer preferences and S3/S4 with a different number. `pins` (a pin
    file, sim/preferences/pins.py) overrides the one the run was made with.
    """
    inputs = resolve_inputs(run_dir, version=None if version is None else str(version),
                            cargo=cargo, drivers=drivers, days=days, speed=speed)
    settings = settings_for(inputs.version)
    try:
        cargo_index = load_cargo_index(inputs.cargo_path)
    except CargoFileError as exc:
        raise ScoringInputError(str(exc)) from None
    driver_rows = read_driver_rows(inputs.drivers_path)
    use_parser = default_parser() if parser == "default" else parser
    warnings: list[str] = []
    pin_file = pins if pins is not None else inputs.pins
    pinned: Pins = {}
    if pin_file is not None:
        try:
            pinned = load_pins(pin_file)
            check_pins(pinned, {d: len(r.get("preferences") or []) for d, r in driver_rows.items()})
        except PinFileError as exc:
            raise ScoringInputError(str(exc)) from None
    ambiguous: list[dict] = []

    by_driver: dict[str, list[Path]] = {}
    for f in inputs.log_files:
        by_driver.setdefault(driver_id_of(f), []).append(f)

    reports = []
    for did in sorted(by_driver):
        files = by_driver[did] if settings.all_files else by_driver[did][-1:]
        row = driver_rows.get(did)
        if row is None:
            msg = f"KeyError: driver {did} is not in the drivers file"
            reports.append(DriverReport(did, Income.zero(), dict.fromkeys(TOKEN_KEYS, 0), True,
                                        msg, files=[str(f) for f in files]))
            continue
        prefs = read_preferences(row.get("preferences") or [], settings, use_parser,
                                 inputs.n_days, pins_of(pinned, did))
        for p in prefs:
            if p.rule is None:
                warnings.append(f"{inputs.drivers_path}: driver {did} preference {p.index} "
                                f"unscored ({p.unscored}): {p.text}")
            elif p.ambiguous is not None:
                warnings.append(f"{inputs.drivers_path}: driver {did} preference {p.index} "
                                f"ambiguous, scored as {p.rule.name} ({p.ambiguous}): {p.text}")
                ambiguous.append({"driver_id": did, "index": p.index, "text": p.text,
                                  "scored_as": p.rule.name, "why": p.ambiguous})
        errors, last = [], None
        for f in files:
            last, err = _score_file(f, row, prefs, inputs, settings, cargo_index,
                                    (expected_rule_counts or {}).get(did))
            if err:
                errors.append(err)
        assert last is not None
        if errors and not last.calculation_aborted:  # an earlier file's error still counts
            last.calculation_aborted = True
            last.validation_error = errors[-1]
        last.files = [str(f) for f in files]
        reports.append(last)

    sim_seconds = (inputs.summary or {}).get("simulate_time_seconds")
    return ScoreReport(inputs.version, inputs.n_days, reports, len(inputs.log_files),
                       sim_seconds if isinstance(sim_seconds, int | float) else None, warnings,
                       ambiguous=ambiguous, pins=len(pinned))


def format_report(report: ScoreReport) -> str:
    """A per-driver table: gross, km, cost, penalty per preference, net."""
    lines = [f"scoring version {report.version}, {report.n_days} days, "
             f"{report.result_files_count} log files"]
    head = f"{'driver':<12} {'gross':>12} {'km':>10} {'cost':>11} {'penalty':>10} {'net':>12}"
    lines += [head, "-" * len(head)]
    for d in report.drivers:
        i = d.income
        lines.append(f"{d.driver_id:<12} {i.gross_income:>12,.2f} {i.distance_km:>10,.2f} "
                     f"{i.cost:>11,.2f} {i.preference_penalty:>10,.2f} {i.net_income:>12,.2f}")
        if d.calculation_aborted:
            lines.append(f"    ABORTED: {d.validation_error}")
        for r in d.rules:
            text = re.sub(r"\s+", " ", r.text)[:60]
            tag = r.label if r.unscored is None else f"unscored ({r.unscored})"
            if r.reading in ("ambiguous", "pinned"):
                tag += f" [{r.reading}]"
            lines.append(f"    #{r.index} {tag}: {r.penalty:,.2f}  {text}")
    total = report.to_official_json()["summary"]
    lines.append("-" * len(head))
    lines.append(f"total net {total['total_net_income_all_drivers']:,.2f}, penalty "
                 f"{total['total_preference_penalty']:,.2f}, failed drivers "
                 f"{total['failed_driver_count']}")
    return "\n".join(lines)
