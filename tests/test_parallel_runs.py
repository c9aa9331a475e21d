"""Independent runs on a process pool (agents/app/parallel.py): same results as one by one, in
the order given, whatever the worker count; a bench's modes run in parallel match a serial bench
field for field (wall times aside)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agents.app.bench_competition import run_competition_bench
from agents.app.parallel import run_all
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_results_come_back_in_order_from_other_processes():
    got = run_all(pid_and_square, [(x,) for x in range(6)], workers=2)
    assert [sq for _, sq in got] == [x * x for x in range(6)]
    assert all(pid != os.getpid() for pid, _ in got)  # really ran in workers
    assert {pid for pid, _ in run_all(pid_and_square, [(1,), (2,)])} == {os.getpid()}


@pytest.mark.parametrize(("kw", "msg"), [({"workers": 0}, "at least 1"),
                                      ({"engine": "threads"}, "engine must be one of")])
def test_bad_engine_or_worker_count_is_refused(kw, msg):
    with pytest.raises(ValueError, match=msg):
        run_all(pid_and_square, [(1,)], **kw)


def _without_walls(d):
    if isinstance(d, dict):
        return {k: _without_walls(v) for k, v in d.items() if k != "wall_s"}
    return d


def test_a_bench_run_on_two_workers_equals_the_serial_bench(tmp_path):
    sc = load_scenario(ROOT / "scenarios/competition-rules.toml")
    modes = ("off", "cargo-market-driver")
    one = run_competition_bench(sc, tmp_path / "one", modes, with_hindsight=False)
    two = run_competition_bench(sc, tmp_path / "two", modes, with_hindsight=False, workers=2)
    assert list(two["modes"]) == list(modes)
    assert _without_walls(one) == _without_walls(two)
    assert one["modes"]["off"]["quality"]["official"] != \
        one["modes"]["cargo-market-driver"]["quality"]["official"]
