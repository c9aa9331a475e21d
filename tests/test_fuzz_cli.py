"""Property-based fuzzing of what users hand the command line (issue 10).

For any generated scenario TOML, and any generated competition JSON Lines file a scenario
points at, `freightsim validate` and a bounded `freightsim run` in a subprocess end with exit
0 or exit 2 and a `file:line` message: never a traceback, never an internal error, never past
a timeout. Example counts are modest (each example is one subprocess) so the suite stays quick
on two cores.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.scenario import TABLES, load_scenario, work_estimate
from tests.conftest import cli

VALIDATE_TIMEOUT = 60
RUN_TIMEOUT = 120
RUN_WORK_LIMIT = 3000  # run only scenarios this small (a few seconds); validate runs all

# derandomized, so every run asks the same examples: 15 and 12 each (a subprocess, 1-2 s of
# CPU each) keep the three fuzz tests near a minute of CPU on two cores
FUZZ = settings(max_examples=15, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ_JSONL = settings(FUZZ, max_examples=12)

BASE = {"scenario": {"name": "fuzz", "days": 0.1, "seed": 1},
        "drivers": {"count": 2, "preferences_per_driver": 1},
        "cargo": {"rate_per_hour": 20}, "memory": {"mode": "bounded"}}

SPECIAL_STRINGS = ["", "garbage", "../x", "/etc/passwd", "/dev/null", "/proc/self/status",
                   "2026-02-29T00:00:00", "2026-03-02T00:00:00+08:00", "2026-03-02",
                   "qwen3", "gpt-17", "x" * 300, "rules", "bounded", "deterministic", "llm", "off",
                   "full", "compressed",
                   "json_schema", "名字", "a\u202eb", "\ufeff", "nan"]
scalars = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, 1, -1, 2, 15, 16, 24, 10**6, 10**9]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 1e-300]),
    st.booleans(),
    st.sampled_from(SPECIAL_STRINGS),
    st.text(max_size=20),
)
values = st.one_of(scalars, st.lists(scalars, max_size=30),
                   st.dictionaries(st.sampled_from(["lat", "lng", "kind", "x"]), scalars,
                                   max_size=3))
table_names = st.sampled_from([*TABLES, "bogus"])


def _keys(table: str) -> list[str]:
    import dataclasses

    cls = TABLES.get(table)
    names = [f.name for f in dataclasses.fields(cls)] if cls else []
    return [*names, "bogus_key"]


@st.composite
def overrides(draw) -> list[tuple[str, str, object]]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        table = draw(table_names)
        out.append((table, draw(st.sampled_from(_keys(table))), draw(values)))
    return out


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml_document(tables: dict[str, dict]) -> str:
    lines = []
    for table, kv in tables.items():
        lines.append(f"[{table}]")
        lines += [f"{k} = {toml_value(v)}" for k, v in kv.items()]
        lines.append("")
    return "\n".join(lines)


mutations = st.one_of(
    st.none(),
    st.tuples(st.just("insert"), st.integers(0, 400), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("bom"), st.just(0), st.just(b"\xef\xbb\xbf")),
    st.tuples(st.just("nest"), st.integers(50, 5000), st.just(b"")),
)


def mutate(blob: bytes, m: tuple | None) -> bytes:
    if m is None:
        return blob
    kind, n, data = m
    if kind == "insert":
        i = n % (len(blob) + 1)
        return blob[:i] + data + blob[i:]
    if kind == "bom":
        return data + blob
    return blob + b"\n[llm]\nbogus = " + b"[" * n + b"]" * n + b"\n"


def assert_clean_exit(proc: subprocess.CompletedProcess[str], files: list[Path]) -> None:
    err = proc.stderr
    assert "Traceback" not in err, err[-2000:]
    assert "internal error" not in err, err[-2000:]
    assert proc.returncode in (0, 2), (proc.returncode, err[-2000:])
    if proc.returncode == 2:
        names = "|".join(re.escape(str(f)) for f in files)
        first = next(ln for ln in err.splitlines() if ln.startswith("error:"))
        assert re.match(rf"^error: ({names})(:\d+)?: .+: expected .+, found ", first), first


def _runnable(path: Path) -> bool:
    """Whether the file loads here and is small enough to run (a model run needs a server: the
    fault-server tests cover it). Anything else, a crash of this check included, goes to
    `validate`, which must then refuse it cleanly or accept it."""
    try:
        sc = load_scenario(path)
    except Exception:
        return False
    return sc.llm.backend != "llm" and work_estimate(sc) <= RUN_WORK_LIMIT


def _validate_then_run(path: Path, files: list[Path]) -> None:
    """Mostly one subprocess per example: `run` checks what `validate` checks before it starts,
    so a scenario that loads here and is small goes straight to `run`; every other file goes
    to `validate`. A refused run must be refused by `validate` too."""
    if not _runnable(path):
        v = cli("validate", str(path), timeout=VALIDATE_TIMEOUT)
        assert_clean_exit(v, files)
        return
    out = path.parent / "out"
    r = cli("run", str(path), "--out", str(out), "--no-progress", timeout=RUN_TIMEOUT)
    assert_clean_exit(r, files)
    if r.returncode == 2:  # a data file or preference the loader here does not open
        v = cli("validate", str(path), timeout=VALIDATE_TIMEOUT)
        assert_clean_exit(v, files)
        assert v.returncode == 2, "run refused what validate accepts: " + r.stderr[-2000:]
        return
    assert (out / "summary.json").exists()  # an accepted scenario runs to the end


@FUZZ
@given(overrides(), mutations)
def test_fuzzed_scenario_toml(changes: list[tuple[str, str, object]], m: tuple | None) -> None:
    tables = {t: dict(kv) for t, kv in BASE.items()}
    for table, key, v in changes:
        tables.setdefault(table, {})[key] = v
    try:
        text = toml_document(tables)
    except TypeError:
        return
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fuzz.toml"
        path.write_bytes(mutate(text.encode("utf-8", "surrogatepass"), m))
        _validate_then_run(path, [path])


# -- competition JSON Lines ------------------------------------------------------------------
CARGO_ROW = {"cargo_id": "C1", "create_time": "2026-03-02 00:10:00",
             "remove_time": "2026-03-02 02:00:00", "start": {"lat": 23.13, "lng": 113.26},
             "end": {"lat": 22.54, "lng": 114.06}, "load_time": None,
             "cost_time_minutes": 60, "price": 50000}
DRIVER_ROW = {"driver_id": "X1", "current_lat": 23.1, "current_lng": 113.3, "cost_per_km": 1.5,
              "preferences": [{"content": "Rest at least 4 days every month.",
                               "penalty_amount": 300, "penalty_cap": 1200}]}
json_scalars = st.one_of(
    scalars, st.none(),
    st.sampled_from(["2026-03-02 01:00:00+08:00", "2026-03-02T01:00:00Z", "2026-02-30 00:00",
                     "100", "1e400", {"lat": math.nan, "lng": 113.0},
                     {"lat": "23", "lng": "113"}, [], {}]))
json_values = st.one_of(json_scalars, st.lists(json_scalars, max_size=3))


@st.composite
def jsonl_file(draw, row: dict) -> bytes:
    rows = []
    for i in range(draw(st.integers(1, 5))):
        r = dict(row)
        for k in r:
            if "id" in k:
                r[k] = f"{r[k]}-{i}"
        for _ in range(draw(st.integers(0, 3))):
            r[draw(st.sampled_from(sorted(row)))] = draw(json_values)
        if draw(st.booleans()) and draw(st.booleans()):
            r.pop(draw(st.sampled_from(sorted(row))))
        rows.append(json.dumps(r, ensure_ascii=False).encode())
    raw = draw(st.sampled_from([None, b"\xff\xfe bad", b"[" * 100_000 + b"]" * 100_000,
                                b"\xef\xbb\xbf{}", b'{"cargo_id": 1', b"", b"null"]))
    if raw is not None:
        rows.insert(draw(st.integers(0, len(rows))), raw)
    if draw(st.booleans()):
        rows.append(rows[0])  # a duplicate id
    return b"\n".join(rows) + b"\n"


def _jsonl_case(table: str, blob: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        data = Path(d) / f"{table}.jsonl"
        data.write_bytes(blob)
        path = Path(d) / "fuzz.toml"
        tables = {t: dict(kv) for t, kv in BASE.items()}
        tables[table]["file"] = data.name
        path.write_text(toml_document(tables))
        _validate_then_run(path, [path, data])


@FUZZ_JSONL
@given(jsonl_file(CARGO_ROW))
def test_fuzzed_cargo_jsonl(blob: bytes) -> None:
    _jsonl_case("cargo", blob)


@FUZZ_JSONL
@given(jsonl_file(DRIVER_ROW))
def test_fuzzed_driver_jsonl(blob: bytes) -> None:
    _jsonl_case("drivers", blob)


@pytest.mark.parametrize("table", ["cargo", "drivers"])
def test_valid_jsonl_runs(table: str) -> None:
    """The base rows are valid, so the fuzz above starts from files that run."""
    row = CARGO_ROW if table == "cargo" else DRIVER_ROW
    _jsonl_case(table, json.dumps(row).encode() + b"\n")
