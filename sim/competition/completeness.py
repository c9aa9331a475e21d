"""Is a run directory a whole run? Checked against its own inputs, before anyone scores it.

A competition run killed halfway leaves some drivers' action logs (each rewritten whole every
second, so the last one may stop short of its driver's end) and no run summary (written once,
after every driver). Scored as it stands, it reads like a result: the drivers it has, "failed
drivers 0". `check_run_complete` compares the directory with what the run set out to do:

- the drivers it was to run (the drivers file its `freightsim_inputs.json` names, or
  `--drivers`; else the run summary's own list);
- the run summary: present, whole JSON, with each driver's completed steps and end reason;
- each driver's action log: present when the summary says it took steps, every line whole
  JSON, steps numbered 1..n, and as many as the summary says it completed. Without a summary,
  a log whose last step reaches the horizon is complete (the driver ran out of time); any
  other is unconfirmed, since nothing says why it stopped.

A generator-world run directory (no action logs) is checked for its `summary.json` and
`drivers.parquet`, which the world writes once the run ends. Nothing here imports the scorer:
`freightsim score`, `bench` and `report` call it and decide what to do with the answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from sim.competition.log import summary_name
from sim.official.timebase import MONTH_PREFIX

INPUTS_FILE = "freightsim_inputs.json"
LOG_GLOB = f"actions_{MONTH_PREFIX}_*.jsonl"
SUMMARY_KEYS = ("driver_completed_steps",)  # what a summary must hold to check logs against
WORLD_FILES = ("summary.json", "drivers.parquet")  # what a generator-world run writes at its end


class LogState(StrEnum):
    COMPLETE = "complete"
    NO_LOG = "no_log"  # the run was to drive it (or says it took steps); no action log
    TORN_LOG = "torn_log"  # a line that is not whole JSON, or steps out of sequence
    SHORT_LOG = "short_log"  # fewer steps than the summary says it completed
    LONG_LOG = "long_log"  # more steps than the summary says: the log or summary is stale
    NOT_ENDED = "not_ended"  # in the run's drivers, but the summary gives it no end reason
    UNCONFIRMED = "unconfirmed"  # no run summary to say how its log ends
    UNEXPECTED = "unexpected"  # a log for a driver the run's drivers file does not list


class SummaryState(StrEnum):
    OK = "ok"
    MISSING = "missing"
    TORN = "torn"


@dataclass(frozen=True)
class DriverCompleteness:
    driver_id: str
    state: LogState
    detail: str
    steps_logged: int = 0
    steps_expected: int | None = None
    end_reason: str | None = None
    log_file: Path | None = None

    @property
    def complete(self) -> bool:
        return self.state is LogState.COMPLETE

    def to_json(self) -> dict:
        return {"state": self.state.value, "detail": self.detail,
                "steps_logged": self.steps_logged, "steps_expected": self.steps_expected,
                "end_reason": self.end_reason}


@dataclass(frozen=True)
class Completeness:
    """The answer: per driver, and for the run as a whole (summary, inputs)."""

    folder: Path
    summary: SummaryState
    summary_detail: str
    drivers: tuple[DriverCompleteness, ...]
    problems: tuple[str, ...] = field(default=())  # run-level, beyond the summary

    @property
    def complete(self) -> bool:
        return (self.summary is SummaryState.OK and not self.problems
                and all(d.complete for d in self.drivers))

    @property
    def incomplete(self) -> tuple[DriverCompleteness, ...]:
        return tuple(d for d in self.drivers if not d.complete)

    def messages(self) -> list[str]:
        """One line per problem: the run's first, then each incomplete driver."""
        out = self.run_problems()
        out += [f"driver {d.driver_id}: {d.detail}" for d in self.incomplete]
        return out

    def run_problems(self) -> list[str]:
        return ([] if self.summary is SummaryState.OK else [self.summary_detail]) + list(
            self.problems)

    def to_json(self) -> dict:
        return {"complete": self.complete, "summary": self.summary.value,
                "problems": self.run_problems(),
                "incomplete_drivers": {d.driver_id: d.to_json() for d in self.incomplete}}


@dataclass(frozen=True)
class _Log:
    path: Path
    steps: int  # whole, in-sequence records before the first problem
    last_minute: int | None
    problem: str | None


def _read_log(path: Path) -> _Log:
    try:
        blob = path.read_bytes()
    except OSError as exc:
        return _Log(path, 0, None, f"unreadable ({exc.strerror})")
    lines = blob.split(b"\n")
    torn_tail = lines[-1] != b""  # every whole line ends with a newline
    steps, last = 0, None
    for n, raw in enumerate(lines[:-1] if not torn_tail else lines, 1):
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            where = "its last line is cut short" if n == len(lines) else f"line {n} is not JSON"
            return _Log(path, steps, last, f"{where} after {steps} whole steps")
        if not isinstance(rec, dict) or rec.get("step") != steps + 1:
            found = rec.get("step") if isinstance(rec, dict) else type(rec).__name__
            return _Log(path, steps, last, f"line {n}: expected step {steps + 1}, found {found}")
        steps += 1
        res = rec.get("result")
        minute = res.get("simulation_progress_minutes") if isinstance(res, dict) else None
        last = minute if isinstance(minute, int) else last
    return _Log(path, steps, last, None)


def _read_json(path: Path) -> tuple[object | None, str | None]:
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except OSError as exc:
        return None, f"unreadable ({exc.strerror})"
    except (UnicodeDecodeError, ValueError) as exc:
        return None, f"not whole JSON ({exc})"


def _driver_ids(path: Path) -> tuple[list[str] | None, str | None]:
    """The driver ids of a drivers file (the official JSON array, or JSON Lines)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return None, f"drivers file {path}: unreadable ({exc.strerror})"
    try:
        rows = json.loads(text)
    except ValueError:
        try:
            rows = [json.loads(x) for x in text.splitlines() if x.strip()]
        except ValueError as exc:
            return None, f"drivers file {path}: not JSON ({exc})"
    if not isinstance(rows, list):
        return None, f"drivers file {path}: not a JSON array"
    ids = [str(r.get("driver_id")).strip() for r in rows
           if isinstance(r, dict) and r.get("driver_id") is not None]
    return ids, None


def check_run_complete(run_dir: str | Path, drivers: str | Path | None = None,
                       days: int | None = None) -> Completeness:
    """Whether `run_dir` (a run directory, its competition/ folder, or a generator-world run
    directory) holds a whole run; `drivers` and `days` override what its inputs file says,
    as `freightsim score --drivers/--days` do."""
    run_dir = Path(run_dir)
    folder = run_dir / "competition" if (run_dir / "competition").is_dir() else run_dir
    logs = sorted(folder.glob(LOG_GLOB))
    if not logs and not (folder / INPUTS_FILE).is_file() and not (folder / summary_name()
                                                                     ).is_file():
        return _world_run(run_dir)
    problems: list[str] = []

    inputs: dict = {}
    if (folder / INPUTS_FILE).is_file():
        got, err = _read_json(folder / INPUTS_FILE)
        if isinstance(got, dict):
            inputs = got
        else:
            problems.append(f"{folder / INPUTS_FILE}: {err or 'not a JSON object'}")

    summary: dict | None = None
    spath = folder / summary_name()
    if not spath.is_file():
        s_state, s_detail = SummaryState.MISSING, (
            f"no run summary ({summary_name()}): the run did not finish")
    else:
        got, err = _read_json(spath)
        missing = [k for k in SUMMARY_KEYS if not isinstance(got, dict)
                   or not isinstance(got.get(k), dict)]
        if err or missing:
            s_state = SummaryState.TORN
            s_detail = f"run summary {spath.name} is torn: " + (
                err or f"no {', '.join(missing)}")
        else:
            s_state, s_detail, summary = SummaryState.OK, "", got  # type: ignore[assignment]

    expected: list[str] | None = None
    dpath = Path(drivers) if drivers is not None else (
        Path(inputs["drivers"]) if isinstance(inputs.get("drivers"), str) else None)
    if dpath is not None and not dpath.is_absolute() and drivers is None:
        dpath = folder / dpath
    if dpath is not None:
        expected, err = _driver_ids(dpath)
        if err:
            problems.append(err)
    if expected is None and summary is not None:
        expected = list(summary["driver_completed_steps"])
    if expected is None:
        problems.append("the run's drivers are unknown (no drivers file in "
                        f"{INPUTS_FILE} and no run summary): drivers without a log cannot be "
                        "named")

    by_driver: dict[str, list[Path]] = {}
    for p in logs:
        parts = p.name.split("_")
        by_driver.setdefault(parts[2] if len(parts) > 2 else "", []).append(p)
    n_days = days if days is not None else (summary or {}).get(
        "simulation_duration_days", inputs.get("simulation_duration_days"))
    horizon = n_days * 1440 if isinstance(n_days, int) and not isinstance(n_days, bool) \
        else None

    order = list(expected or [])
    order += sorted(d for d in by_driver if d not in set(order))
    out = [_check_driver(did, by_driver.get(did, []), summary, horizon,
                         expected is None or did in expected) for did in order]
    return Completeness(folder, s_state, s_detail, tuple(out), tuple(problems))


def _check_driver(did: str, files: list[Path], summary: dict | None, horizon: int | None,
                  expected: bool) -> DriverCompleteness:
    log = _read_log(files[-1]) if files else None  # the newest, as the scorer reads it
    logged = log.steps if log else 0
    path = log.path if log else None

    def state(s: LogState, detail: str, want: int | None = None,
              reason: str | None = None) -> DriverCompleteness:
        return DriverCompleteness(did, s, detail, logged, want, reason, path)

    if not expected:
        return state(LogState.UNEXPECTED, "an action log for a driver the run's drivers "
                     "file does not list")
    if log is not None and log.problem:
        return state(LogState.TORN_LOG, f"action log {log.path.name}: {log.problem}")
    if summary is None:
        if log is None:
            return state(LogState.NO_LOG, "no action log (the run stopped before this "
                         "driver started, or it is missing)")
        if horizon is not None and log.last_minute is not None and log.last_minute >= horizon:
            return state(LogState.COMPLETE, f"{logged} steps, its log reaches the horizon")
        at = f"minute {log.last_minute}" if log.last_minute is not None else "an unknown time"
        return state(LogState.UNCONFIRMED, f"action log stops after {logged} steps at "
                     f"{at}{f' of {horizon}' if horizon else ''}, and no run summary says "
                     "the driver ended there")
    want = summary["driver_completed_steps"].get(did)
    reasons = summary.get("driver_end_reasons")
    # the official summary names each driver's end reason; one without that table (an older
    # or hand-made one) is checked by the step counts alone
    reason = reasons.get(did) if isinstance(reasons, dict) else "not recorded"
    if reason is None or not isinstance(want, int):
        return state(LogState.NOT_ENDED, "the run summary gives it no end reason")
    if log is None and want > 0:
        return state(LogState.NO_LOG, f"no action log, though the run summary says "
                     f"{want} steps (end reason {reason})", want, reason)
    if logged < want:
        return state(LogState.SHORT_LOG, f"action log stops after {logged} of {want} "
                     f"steps, before its end reason ({reason})", want, reason)
    if logged > want:
        return state(LogState.LONG_LOG, f"action log has {logged} steps, the run summary "
                     f"{want}: one of them is from another run", want, reason)
    return state(LogState.COMPLETE, f"{logged} steps, end reason {reason}", want, reason)


def _world_run(run_dir: Path) -> Completeness:
    """A generator-world run directory: whole once the world wrote its end-of-run files."""
    problems = []
    for name in WORLD_FILES:
        p = run_dir / name
        if not p.exists():
            problems.append(f"no {name}: the run did not finish")
    s_state, s_detail = SummaryState.OK, ""
    if (run_dir / "summary.json").is_file():
        got, err = _read_json(run_dir / "summary.json")
        if err or not isinstance(got, dict):
            s_state = SummaryState.TORN
            s_detail = f"summary.json is torn: {err or 'not a JSON object'}"
    else:
        s_state, s_detail = SummaryState.MISSING, problems.pop(0)
    return Completeness(run_dir, s_state, s_detail, (), tuple(problems))


def mark_official(result: dict, completeness: Completeness) -> dict:
    """The official-format result (`ScoreReport.to_official_json()`) of a partial run, marked:
    `run_complete: false` with the reasons, each incomplete driver's entry with its own, and
    the summary's count and list of incomplete drivers (those without a log included, which
    have no entry). A complete run's result is returned unchanged, in the official format."""
    if completeness.complete:
        return result
    bad = {d.driver_id: d for d in completeness.incomplete}
    result["run_complete"] = False
    result["run_problems"] = completeness.run_problems()
    for entry in result.get("drivers", []):
        d = bad.get(entry.get("driver_id"))
        if d is not None:
            entry["incomplete"] = d.to_json()
    summary = result.setdefault("summary", {})
    summary["incomplete_driver_count"] = len(bad)
    summary["incomplete_drivers"] = {k: d.detail for k, d in bad.items()}
    return result
