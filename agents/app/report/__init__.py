"""`freightsim report RUN_DIR [RUN_DIR2]`: one self-contained HTML page of a run (or two).

Either world's run directory is read into one model (`model.py`), thinned where a large run
would make the page heavy (`reduce.py`), drawn as Plotly figures (`figures.py`) and written as
one file with Plotly's JavaScript embedded (`page.py`): nothing is fetched when it is opened.
"""

from __future__ import annotations

from pathlib import Path

from agents.app.report.model import RunData


def read_run(run_dir: Path) -> RunData:
    """A run directory of either ruleset: competition files win when both are there."""
    from agents.app.report.competition_run import read_competition_run
    from agents.app.report.generator_run import read_generator_run
    from agents.app.report.reduce import reduce_run

    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ValueError(f"{run_dir}: no such run directory")
    # a run killed halfway still reports what it wrote; the run-completeness check, when it
    # lands (check_run_complete(run_dir)), belongs here, its findings in run.notes
    from sim.scoring.scorer import ScoringInputError

    try:
        if (run_dir / "competition").is_dir() or any(run_dir.glob("actions_*.jsonl")):
            run = read_competition_run(run_dir)
        else:
            run = read_generator_run(run_dir)
    except ScoringInputError as exc:  # a drivers or cargo file the scorer cannot read
        raise ValueError(f"{run_dir}: {exc}") from None
    reduce_run(run)
    return run


def build_report(run_dirs: list[Path], out: Path) -> Path:
    """Write the report of one run (or two, compared driver by driver) to `out`."""
    from plotly.offline import get_plotlyjs

    from agents.app.report.page import render

    runs = [read_run(Path(p)) for p in run_dirs]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(runs, get_plotlyjs()), encoding="utf-8")
    return out
