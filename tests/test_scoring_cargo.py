"""The scorer's reading of the raw cargo file (§2.2, §4.8): what aborts the run, what does not."""

from __future__ import annotations

import json

import pytest

from sim.official.cargo_index import CargoFileError, load_cargo_index, parse_cargo_row
from sim.official.timebase import wall_to_minutes
from tests.competition_logs import cargo_row

HOME, DG = (22.54, 114.05), (23.02, 113.75)


def write(tmp_path, rows):
    p = tmp_path / "cargo.jsonl"
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n"
                         for r in rows), encoding="utf-8")
    return p


def test_trimmed_ids_last_line_wins_and_lines_without_id_skipped(tmp_path):
    a = cargo_row(" 55 ", HOME, DG, price=100)
    b = cargo_row(55, HOME, DG, price=200)
    no_id = {k: v for k, v in cargo_row("x", HOME, DG).items() if k != "cargo_id"}
    idx = load_cargo_index(write(tmp_path, [a, "", no_id, b]))
    assert list(idx) == ["55"]
    assert idx["55"].price_fen == 200


def test_reversed_window_reads_as_none_and_remove_before_create_is_kept(tmp_path):
    r = cargo_row("1", HOME, DG, window=(100, 50), create=500, remove=400)
    c = load_cargo_index(write(tmp_path, [r]))["1"]
    assert c.window is None
    assert (c.create_min, c.remove_min) == (500, 400)


@pytest.mark.parametrize("change", [
    {"load_time": ["2026-03-01 00:00:00"]},
    {"load_time": ["", "2026-03-01 02:00:00"]},
    {"load_time": "2026-03-01 00:00:00"},
    {"load_time": ["2026-03-01 00:00", "2026-03-01 02:00:00"]},
    {"cost_time_minutes": "90 min"},
    {"cost_time_minutes": None},
    {"start": {"lat": "north", "lng": 114.0, "city": "深圳"}},
    {"end": None},
    {"create_time": None},
])
def test_malformed_lines_abort_the_run_with_the_line_number(tmp_path, change):
    rows = [cargo_row("ok", HOME, DG), {**cargo_row("bad", HOME, DG), **change}]
    with pytest.raises(CargoFileError, match=r"cargo.jsonl:2: malformed"):
        load_cargo_index(write(tmp_path, rows))


def test_cost_time_forms_accepted_by_int():
    for value, want in (("90", 90), (90.9, 90), (0, 0)):
        assert parse_cargo_row({**cargo_row("c", HOME, DG),
                                "cost_time_minutes": value}).cost_time_minutes == want


def test_wall_time_floors_seconds_and_rejects_other_formats():
    assert wall_to_minutes("2026-03-01 00:00:59") == 0
    assert wall_to_minutes("2026-02-28 23:59:59") == -1
    assert wall_to_minutes("2026-03-02 00:01:00") == 1441
    for bad in ("2026-03-01T00:00:00", "2026-02-30 00:00:00", "2026-03-01 24:00:00",
                "2026-03-01"):
        with pytest.raises(ValueError, match=r"time data|out of range"):
            wall_to_minutes(bad)


def test_the_last_file_read_is_kept_while_its_bytes_are_the_same(tmp_path):
    """Scoring a run twice parses its cargo file once; a file rewritten in place (same size,
    perhaps the same timestamp) is read again, and the index cannot be changed by a caller."""
    p = write(tmp_path, [cargo_row(1, HOME, DG, price=100)])
    first = load_cargo_index(p)
    assert load_cargo_index(p) is first
    write(tmp_path, [cargo_row(1, HOME, DG, price=200)])  # the same length, other bytes
    again = load_cargo_index(p)
    assert again is not first
    assert again["1"].price_fen == 200
    with pytest.raises(TypeError):
        again["2"] = again["1"]  # read-only: the kept index is shared by every caller
