"""The renamed "rules" (issue 21): memory mode `rules` is `bounded`, LLM backend `rules` is
`deterministic`, the `[scenario] rules` key is `ruleset`. The old spellings still work for one
release, in a scenario file and on the command line, each with a warning that names the new
spelling, and give the very same run; bench reports and baselines written with the old names
are read under the new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from agents.app.bench import check
from agents.app.cli import main
from agents.app.renamed_keys import current_report
from agents.llm import providers
from memory import modes
from sim.scenario import RenamedSetting, ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[1]
OLD = """[scenario]
name = "old-names"
days = 0.1

[drivers]
count = 2
preferences_per_driver = 1

[memory]
mode = "{mode}"

[llm]
backend = "{backend}"
"""


def _write(tmp_path: Path, name: str, mode: str, backend: str) -> Path:
    p = tmp_path / name
    p.write_text(OLD.format(mode=mode, backend=backend), encoding="utf-8")
    return p


def test_registries_hold_the_new_names_only() -> None:
    assert {"bounded", "bounded-filtered"} <= set(modes.mode_names())
    assert not {"rules", "rules-filtered"} & set(modes.mode_names())
    assert "deterministic" in providers.provider_names()
    assert "rules" not in providers.provider_names()
    assert not providers.get("deterministic").uses_model
    # each family's alias table maps only to names its registry holds
    assert set(modes.RENAMED.values()) <= set(modes.mode_names())
    assert set(providers.RENAMED.values()) <= set(providers.provider_names())


def test_old_spellings_in_a_scenario_warn_and_read_as_the_new(tmp_path: Path) -> None:
    new = load_scenario(_write(tmp_path, "new.toml", "bounded", "deterministic"))
    old_path = _write(tmp_path, "old.toml", "rules", "rules")
    with pytest.warns(RenamedSetting) as got:
        old = load_scenario(old_path)
    messages = [str(w.message) for w in got]
    assert messages == [
        f"{old_path}:10: [memory] mode = 'rules' is deprecated: write 'bounded' (the old "
        "spelling is read as 'bounded' for one more release)",
        f"{old_path}:13: [llm] backend = 'rules' is deprecated: write 'deterministic' (the old "
        "spelling is read as 'deterministic' for one more release)"]
    assert old.memory == new.memory
    assert old.llm == new.llm
    assert old.to_dict() | {"path": ""} == new.to_dict() | {"path": ""}


def test_the_old_ruleset_key_warns_and_reads_as_ruleset(tmp_path: Path) -> None:
    head = '[scenario]\nname = "c"\ndays = 1\n'
    old, new, both = (tmp_path / f"{n}.toml" for n in ("old", "new", "both"))
    old.write_text(head + 'rules = "competition"\n', encoding="utf-8")
    new.write_text(head + 'ruleset = "competition"\n', encoding="utf-8")
    both.write_text(head + 'rules = "competition"\nruleset = "generator"\n', encoding="utf-8")
    with pytest.warns(RenamedSetting, match=rf"{old}:4: \[scenario\] rules is deprecated: "
                      "write ruleset"):
        got = load_scenario(old)
    assert got.scenario == load_scenario(new).scenario
    assert got.scenario.ruleset == "competition"
    with pytest.raises(ScenarioError, match="ruleset alone"):
        load_scenario(both)


def test_old_preference_keys_warn_and_point_errors_at_their_line(tmp_path: Path) -> None:
    head = '[scenario]\nname = "c"\ndays = 1\n\n[drivers]\npreferences_per_driver = 2\n'
    old, new, bad = (tmp_path / f"{n}.toml" for n in ("old", "new", "bad"))
    old.write_text(head + 'rule_kinds = ["quiet_window"]\nrule_lang = "en"\n', encoding="utf-8")
    new.write_text(head + 'preference_kinds = ["quiet_window"]\npreference_lang = "en"\n',
                   encoding="utf-8")
    bad.write_text(head + 'rule_lang = "fr"\n', encoding="utf-8")
    with pytest.warns(RenamedSetting) as got:
        sc = load_scenario(old)
    assert [str(w.message).split(" (")[0] for w in got] == [
        f"{old}:7: [drivers] rule_kinds is deprecated: write preference_kinds",
        f"{old}:8: [drivers] rule_lang is deprecated: write preference_lang"]
    assert sc.drivers == load_scenario(new).drivers
    assert sc.drivers.preference_kinds == ("quiet_window",)
    with pytest.warns(RenamedSetting), pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert err.value.line == 7  # the value's line, written under the old key
    assert err.value.key == "[drivers] preference_lang"


def test_the_provider_lookup_reads_the_old_backend_name() -> None:
    with pytest.warns(RenamedSetting, match="write 'deterministic'"):
        assert providers.get("rules") is providers.get("deterministic")


def test_old_spellings_on_the_command_line_warn_and_run_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    sc = _write(tmp_path, "sc.toml", "off", "deterministic")
    assert main(["run", str(sc), "--memory", "rules", "--out", str(tmp_path / "old"),
                 "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "warning: --memory: [memory] mode = 'rules' is deprecated: write 'bounded'" in err
    assert main(["run", str(sc), "--memory", "bounded", "--out", str(tmp_path / "new"),
                 "--no-progress"]) == 0
    assert "deprecated" not in capsys.readouterr().err
    old, new = (json.loads((tmp_path / d / "summary.json").read_text()) for d in ("old", "new"))
    # what the machine measured (wall time, memory) differs run to run; everything else not
    timing = {k for k in old if "time" in k or k.endswith("_s") or "seconds" in k
              or k.startswith("peak_")}
    assert old["memory_mode"] == new["memory_mode"] == "bounded"
    assert {k: v for k, v in old.items() if k not in timing} == {
        k: v for k, v in new.items() if k not in timing}
    for d in ("old", "new"):  # the deterministic policies answered every call
        calls = pd.read_parquet(tmp_path / d / "llm_calls.parquet")
        assert set(calls.backend) == set(calls.outcome) == {"deterministic"}


def test_bench_runs_an_old_mode_name_under_the_new(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    sc = _write(tmp_path, "sc.toml", "off", "deterministic")
    assert main(["bench", str(sc), "--modes", "rules,compressed", "--out",
                 str(tmp_path / "b")]) == 0
    assert "warning: --modes: [memory] mode = 'rules' is deprecated" in capsys.readouterr().err
    report = json.loads((tmp_path / "b" / "report.json").read_text())
    assert list(report["modes"]) == ["bounded", "compressed"]
    assert "compressed_vs_bounded" in report["ratios"]


def test_validate_names_the_new_spelling(tmp_path: Path,
                                         capsys: pytest.CaptureFixture) -> None:
    sc = _write(tmp_path, "sc.toml", "rules-filtered", "deterministic")
    assert main(["validate", str(sc)]) == 0
    err = capsys.readouterr().err
    assert f"warning: {sc}:10: [memory] mode = 'rules-filtered' is deprecated: write " \
           "'bounded-filtered'" in err


BACK = {new: old for old, new in modes.RENAMED.items()}


def _old_key(key: str) -> str:
    return "_vs_".join(BACK.get(m, m) for m in key.split("_vs_"))


def _old_names(x: object) -> object:
    """A bench report as written before the renames: every mode name in a key, at any depth,
    back to its old spelling, and the old backend name."""
    if isinstance(x, dict):
        return {_old_key(k): ("rules" if k == "backend" and v == "deterministic"
                              else _old_names(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [_old_names(v) for v in x]
    return x


@pytest.mark.parametrize("name", ["bench", "bench-competition", "month"])
def test_an_old_baseline_reads_as_the_committed_one(name: str) -> None:
    committed = json.loads((ROOT / "benchmarks" / "baselines" / f"{name}.json").read_text())
    old = _old_names(committed)
    if name == "bench-competition":
        old = {("rules" if k == "ruleset" else k): v for k, v in old.items()}
    assert "rules" in old["modes"]
    assert "bounded" not in old["modes"]
    assert current_report(old) == committed
    assert current_report(committed) == committed


def test_the_gate_compares_an_old_baseline_mode_by_mode() -> None:
    """Unmapped, an old baseline would hold no `bounded` mode and the check would skip it."""
    report = json.loads((ROOT / "benchmarks" / "baselines" / "bench.json").read_text())
    leaner = _old_names(report)
    leaner["modes"]["rules"]["tokens_per_step"]["mean"] *= 0.9
    assert ("bounded", "tokens_per_step.mean") in {
        (r.mode, r.figure) for r in check(report, current_report(leaner))}
    assert ("bounded", "tokens_per_step.mean") not in {
        (r.mode, r.figure) for r in check(report, leaner)}
