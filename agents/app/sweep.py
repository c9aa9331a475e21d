"""`freightsim sweep`: scenarios x seeds x memory modes, on a process pool or on Ray.

Each run writes its own run directory; the sweep then gathers them into one Parquet dataset
partitioned by run (hive layout `run_id=.../`), readable by pandas, DuckDB or Polars, plus a
`runs.parquet` table with one summary row per run.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from agents.app.parallel import run_all
from sim.scenario import ScenarioError, load_scenario
from sim.world.recorder import read_events


@dataclass(frozen=True)
class RunSpec:
    scenario: str
    seed: int
    mode: str
    label: str = ""  # the scenario's name in run ids; the file stem unless two stems clash

    @property
    def run_id(self) -> str:
        return f"{self.label or Path(self.scenario).stem}-s{self.seed}-{self.mode}"


def scenario_labels(paths: list[str]) -> dict[str, str]:
    """A distinct run-id prefix per scenario file: its stem, plus a short hash of its full
    path when two files share a stem (a/default.toml and b/default.toml)."""
    stems: dict[str, int] = {}
    for p in paths:
        stems[Path(p).stem] = stems.get(Path(p).stem, 0) + 1
    return {p: Path(p).stem if stems[Path(p).stem] == 1 else
            f"{Path(p).stem}-{hashlib.sha256(p.encode()).hexdigest()[:6]}" for p in paths}


def run_one(spec: RunSpec, out: str) -> dict:
    """One run of the sweep (executed in a worker process or a Ray task)."""
    import dataclasses

    from agents.app.runner import run_scenario

    sc = load_scenario(spec.scenario)
    sc = dataclasses.replace(sc, scenario=dataclasses.replace(sc.scenario, seed=spec.seed))
    sc = sc.with_overrides(memory={"mode": spec.mode})
    result = run_scenario(sc, Path(out) / "runs" / spec.run_id)
    flat = {k: v for k, v in result.summary.items() if isinstance(v, int | float | str)}
    return {"run_id": spec.run_id, "scenario_file": spec.scenario, "memory": spec.mode, **flat,
            "failed_takes_json": json.dumps(result.summary["failed_takes"])}


def _execute(specs: list[RunSpec], out: Path, engine: str, workers: int) -> list[dict]:
    return run_all(run_one, [(s, str(out)) for s in specs], engine=engine, workers=workers)


def gather(out: Path, rows: list[dict]) -> Path:
    """Copy each run's tables into <out>/dataset/<table>/run_id=<id>/ and write runs.parquet."""
    ds = out / "dataset"
    if ds.exists():
        shutil.rmtree(ds)
    for row in rows:
        run_dir = out / "runs" / row["run_id"]
        for table in ("steps", "drivers", "events"):
            target = ds / table / f"run_id={row['run_id']}"
            target.mkdir(parents=True, exist_ok=True)
            if table == "events":
                t = read_events(run_dir)
            else:
                src = run_dir / f"{table}.parquet"
                if not src.exists():
                    continue
                t = pq.read_table(src)
            pq.write_table(t, target / "part-0.parquet")
    pq.write_table(pa.Table.from_pylist(rows), out / "runs.parquet")
    return ds


def sweep(scenarios: list[str], seeds: list[int], modes: list[str], out: Path,
          engine: str = "local", workers: int = 2) -> list[dict]:
    for s in scenarios:
        load_scenario(s)  # fail fast, before any worker starts
    paths = [str(Path(s).resolve()) for s in scenarios]
    dup = next((p for i, p in enumerate(paths) if p in paths[:i]), None)
    if dup is not None:
        raise ScenarioError(dup, "scenarios", "each scenario file once", "named twice")
    labels = scenario_labels(paths)
    specs = [RunSpec(p, seed, mode, labels[p]) for p in paths for seed in seeds for mode in modes]
    ids = [s.run_id for s in specs]
    if len(set(ids)) != len(ids):
        raise ScenarioError(out, "--seeds/--modes", "each run once", "a repeated run id")
    rows = _execute(specs, out, engine, workers)
    gather(out, rows)
    return rows
