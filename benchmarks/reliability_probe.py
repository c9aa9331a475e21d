"""Hostile inputs, faults and interruptions tried as a user would (issue 10), with a tally.

    python benchmarks/reliability_probe.py [ROOT]   # ROOT: a checkout to probe (default: here)

Every case runs `python -m agents.app.cli` from ROOT in a subprocess, in a scratch directory,
and is classed: `clear` (the expected outcome: a clear error with exit 2, or a run that ends
well when the input is acceptable), `traceback` (a Python traceback or internal error), `hang`
(past the case's timeout), `lost` (exit 0 on input that should be refused, rows lost or mixed,
a write outside runs/). The fault server comes from THIS checkout's agents/testing/fakes.py,
so an older ROOT can be probed with it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from agents.testing.fakes import FAULTS, FaultServer  # noqa: E402

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
BASE = '[scenario]\nname = "p"\nseed = 1\ndays = 0.1\n\n[drivers]\ncount = 2\n'
DEFAULT4 = (HERE / "scenarios" / "default.toml").read_text().replace("days = 7", "days = 4")
TB = ("Traceback", "internal error")


def cli(args: list[str], cwd: Path, timeout: float) -> tuple[int | str, str]:
    try:
        p = subprocess.run([sys.executable, "-m", "agents.app.cli", *args], cwd=cwd,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", ""
    return p.returncode, p.stderr


def classify_reject(rc: int | str, err: str) -> str:
    if rc == "hang":
        return "hang"
    if any(t in err for t in TB):
        return "traceback"
    return "clear" if rc == 2 and "error:" in err else "lost"


def reject_case(d: Path, text: str | bytes, run: bool = True) -> str:
    """Input that must be refused: validate, then (if it passed) a bounded run."""
    s = d / "s.toml"
    s.write_bytes(text if isinstance(text, bytes) else text.encode())
    rc, err = cli(["validate", str(s)], d, 30)
    out = classify_reject(rc, err)
    if rc == 0 and run:
        rc, err = cli(["run", str(s), "--no-progress"], d, 30)
        out = "lost" if rc == 0 else classify_reject(rc, err)
    return out


def run_ok_case(d: Path, text: str, extra: list[str] = (), timeout: float = 60) -> str:
    """Input that is acceptable: it must run to the end, exit 0, results written."""
    s = d / "s.toml"
    s.write_text(text)
    rc, err = cli(["run", str(s), "--out", str(d / "o"), "--no-progress", *extra], d, timeout)
    if rc == "hang":
        return "hang"
    if any(t in err for t in TB):
        return "traceback"
    return "clear" if rc == 0 and (d / "o" / "summary.json").exists() else "lost"


def fixed(did: str, extra: str = "") -> str:
    return f'\n[[drivers.fixed]]\ndriver_id = "{did}"\nlat = 23.1\nlng = 113.3\n{extra}'


def scenario_cases() -> dict[str, object]:
    b = BASE
    return {
        "days=nan": b.replace("days = 0.1", "days = nan"),
        "days=inf": b.replace("days = 0.1", "days = inf"),
        "days=1e9": b.replace("days = 0.1", "days = 1e9"),
        "detour=nan": b + "[geo]\ndetour_factor = nan\n",
        "speed=nan": b + "[geo]\nspeed_kmh = nan\n",
        "window=nan": b + "[cargo]\nload_window_minutes = [nan, 60]\n",
        "count=1e8": b.replace("count = 2", "count = 100000000"),
        "h3_res=15": b + "[geo]\nmarket_h3_res = 15\n",
        "rate=1e12": b + "[cargo]\nrate_per_hour = 1e12\n",
        "night_factor=1e300": b + "[cargo]\nnight_factor = 1e300\n",
        "start=garbage": b.replace("days = 0.1", 'days = 0.1\nstart = "garbage"'),
        "start=2026-02-29": b.replace("days = 0.1", 'days = 0.1\nstart = "2026-02-29T00:00:00"'),
        "start=tz": b.replace("days = 0.1", 'days = 0.1\nstart = "2026-03-02T00:00:00+08:00"'),
        "radius default>max": b + "[market]\ndefault_radius_km = 90\nmax_radius_km = 50\n",
        "tokenizer=bogus": b + '[llm]\ntokenizer = "gpt-17"\n',
        "name 300 chars": b.replace('"p"', '"' + "n" * 300 + '"'),
        "timeout_s=nan": b + "[llm]\ntimeout_s = nan\n",
        "binary file": bytes(range(256)) * 4,
        "non-UTF-8": b.encode() + b'\n[llm]\nmodel = "caf\xe9"\n',
        "deep nesting": b + "[llm]\nx = " + "[" * 3000 + "]" * 3000 + "\n",
        "duplicate fixed ids": b + fixed("A") + fixed("A"),
        "fixed id = generated": b.replace("count = 2", "count = 5") + fixed("D0003"),
    }


def escape_case(d: Path, name: str) -> str:
    (d / "w").mkdir()
    s = d / "w" / "s.toml"
    s.write_text(BASE.replace('"p"', json.dumps(name)))
    rc, err = cli(["run", str(s), "--no-progress"], d / "w", 60)
    if rc == "hang":
        return "hang"
    if any(t in err for t in TB):
        return "traceback"
    escaped = (d / "x").exists() or Path(name + "-s1").exists()
    return "lost" if escaped or rc == 0 else "clear"


def pref_cases(d: Path) -> dict[str, str]:
    out = {}
    for mode in ("bounded", "compressed"):
        t = (BASE + fixed("A", 'preferences = [{text = "x", structured = {kind = '
                               '"max_haul_km", params = {max_km = 80}}}]\n')
             + f'\n[memory]\nmode = "{mode}"\n')
        out[f"structured, no readable text ({mode})"] = run_ok_case(_sub(d), t)
        t = (BASE + fixed("A", 'preferences = [{text = "blorp zork", penalty_amount = 10}]\n')
             + f'\n[memory]\nmode = "{mode}"\n')
        out[f"unreadable text ({mode})"] = run_ok_case(_sub(d), t)
    return out


def _sub(d: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=d))


def fault_cases(d: Path) -> dict[str, str]:
    out = {}
    for name in sorted(FAULTS):
        with FaultServer(name) as srv:
            t = BASE.replace("count = 2", "count = 1").replace("days = 0.1", "days = 0.05") + (
                f'\n[llm]\nbackend = "llm"\nbase_url = "{srv.base_url}"\ntimeout_s = 1\n'
                "max_retries = 0\nmax_calls = 4\n")
            t0 = time.monotonic()
            res = run_ok_case(_sub(d), t, timeout=60)
            if res == "clear" and time.monotonic() - t0 > 30:
                res = "hang"  # 4 calls of timeout_s = 1 cannot take this long
            out[name] = res
    return out


def _parts_rows(out: Path, table: str) -> int:
    import pyarrow.parquet as pq

    try:
        return pq.read_table(out / table).num_rows
    except Exception:
        return 0


def interrupt_case(d: Path, sig: int, after_s: float) -> str:
    s = d / "s.toml"
    s.write_text(DEFAULT4)
    out = d / "o"
    p = subprocess.Popen([sys.executable, "-m", "agents.app.cli", "run", str(s), "--out",
                          str(out), "--no-progress"], cwd=d,
                         env={**os.environ, "PYTHONPATH": str(ROOT)},
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / "scenario.json").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(after_s)
    if p.poll() is not None:
        return "clear"
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        return "hang"
    if any(t in err for t in TB):
        return "traceback"
    ev, st = _parts_rows(out, "events.parquet"), _parts_rows(out, "steps.parquet")
    if sig == signal.SIGTERM:
        return "clear" if ev and st and "results" in err else "lost"
    return "clear" if ev and st else "lost"


def output_cases(d: Path) -> dict[str, str]:
    out = {}
    f = d / "afile"
    f.write_text("x")
    for name, target in (("--out is a file", f), ("--out under a file", f / "r"),
                         ("--out under /proc", Path("/proc/self/fs-probe"))):
        s = d / "s.toml"
        s.write_text(BASE)
        rc, err = cli(["run", str(s), "--out", str(target), "--no-progress"], d, 60)
        out[name] = classify_reject(rc, err)
    s = d / "l.toml"
    s.write_text(BASE + f'\n[memory]\nmode = "bounded"\nlessons = "{f}/lessons.db"\n')
    rc, err = cli(["run", str(s), "--out", str(d / "lo"), "--no-progress"], d, 60)
    if any(t in err for t in TB) and not (d / "lo" / "summary.json").exists():
        out["lesson store fails after run"] = "lost"
    elif rc not in (0, "hang") and (d / "lo" / "summary.json").exists():
        out["lesson store fails after run"] = "clear"
    else:
        out["lesson store fails after run"] = "traceback" if any(t in err for t in TB) else "lost"
    return out


def replay_cases(d: Path) -> dict[str, str]:
    from tests.test_replay import plausible

    out = {}
    rec = d / "rec"
    rec.mkdir()
    from agents.testing.fakes import ScriptedServer

    with ScriptedServer(plausible) as srv:
        t = BASE.replace("days = 0.1", "days = 0.05").replace("count = 2", "count = 1") + (
            f'\n[llm]\nbackend = "llm"\nbase_url = "{srv.base_url}"\ncache = "c.jsonl"\n'
            "timeout_s = 2\nmax_retries = 0\n")
        (rec / "s.toml").write_text(t)
        cli(["run", str(rec / "s.toml"), "--out", str(rec / "o"), "--no-progress"], rec, 120)
    good = (rec / "c.jsonl").read_bytes()

    def replay(name: str, blob: bytes | None, must_fail: bool, dirname: bool = False) -> None:
        c = _sub(d)
        (c / "s.toml").write_text(t.replace(srv.base_url, "http://127.0.0.1:9/v1"))
        if dirname:
            (c / "c.jsonl").mkdir()
        elif blob is not None:
            (c / "c.jsonl").write_bytes(blob)
        rc, err = cli(["run", str(c / "s.toml"), "--llm-replay", "--out", str(c / "o"),
                       "--no-progress"], c, 60)
        if rc == "hang":
            out[name] = "hang"
        elif any(x in err for x in TB):
            out[name] = "traceback"
        elif must_fail:
            out[name] = "clear" if rc != 0 and "error:" in err else "lost"
        else:
            out[name] = "clear" if rc == 0 else "lost"

    lines = good.splitlines(keepends=True)
    replay("torn last line", good + lines[0][:50], must_fail=False)
    replay("garbage line", lines[0] + b"not json\n", must_fail=True)
    replay("BOM", b"\xef\xbb\xbf" + good, must_fail=True)
    replay("non-UTF-8", lines[0] + b"\xff\xfe\n", must_fail=True)
    replay("cache is a directory", None, must_fail=True, dirname=True)
    replay("missing cache", None, must_fail=True)
    replay("empty cache", b"", must_fail=True)
    replay("half the calls missing", b"".join(lines[: len(lines) // 2]), must_fail=True)
    return out


def concurrency_cases(d: Path) -> dict[str, str]:
    out = {}
    s = d / "s.toml"
    s.write_text(DEFAULT4.replace("days = 4", "days = 2"))
    o = d / "o"
    args = [sys.executable, "-m", "agents.app.cli", "run", str(s), "--out", str(o),
            "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    a = subprocess.Popen(args, cwd=d, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (o / "scenario.json").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    b = subprocess.run(args, cwd=d, env=env, capture_output=True, text=True, timeout=120)
    a.communicate(timeout=120)
    out["two runs, one --out"] = ("clear" if b.returncode == 2 else
                                  "traceback" if any(t in b.stderr for t in TB) else "lost")
    for name, sweep_args in (("--seeds 1,x", ["--seeds", "1,x"]),
                             ("--seeds -1", ["--seeds", "-1"]),
                             ("--modes bogus", ["--modes", "bogus"])):
        t = d / "t.toml"
        t.write_text(BASE)
        rc, err = cli(["sweep", str(t), *sweep_args, "--out", str(d / "sw"), "--workers", "1"],
                      d, 120)
        out[name] = classify_reject(rc, err)
    (d / "a").mkdir()
    (d / "b").mkdir()
    (d / "a" / "t.toml").write_text(BASE)
    (d / "b" / "t.toml").write_text(BASE.replace("seed = 1", "seed = 2"))
    rc, err = cli(["sweep", str(d / "a" / "t.toml"), str(d / "b" / "t.toml"), "--out",
                   str(d / "sw2"), "--workers", "1"], d, 240)
    runs = list((d / "sw2" / "runs").iterdir()) if (d / "sw2" / "runs").exists() else []
    out["same-stem scenarios"] = ("traceback" if any(t in err for t in TB) else
                                  "clear" if rc == 0 and len(runs) == 2 else "lost")
    return out


def file_cases(d: Path) -> dict[str, str]:
    out = {}
    os.mkfifo(d / "fifo")
    (d / "adir").mkdir()
    targets = {"directory": d / "adir", "FIFO": d / "fifo", "device": "/dev/null",
               "/proc": "/proc/self/status"}
    for what, target in targets.items():
        for table, key in (("cargo", "file"), ("llm", "cache"), ("memory", "lessons")):
            text = BASE + f'\n[{table}]\n{key} = "{target}"\n'
            if table == "llm":
                text += 'backend = "llm"\nreplay = true\n'
            c = _sub(d)
            out[f"{table}.{key} = {what}"] = reject_case(c, text)
    return out


class Results(defaultdict):
    """Prints each case as it is classed, so a long probe shows progress and partial tallies."""

    def __init__(self) -> None:
        super().__init__(Cases)

    def __missing__(self, cat: str) -> Cases:
        self[cat] = Cases(cat)
        return self[cat]

    def __setitem__(self, cat: str, cases: dict) -> None:
        if not isinstance(cases, Cases):
            c = Cases(cat)
            c.update(cases)
            cases = c
        super().__setitem__(cat, cases)


class Cases(dict):
    def __init__(self, cat: str = "") -> None:
        super().__init__()
        self.cat = cat

    def __setitem__(self, name: str, outcome: str) -> None:
        print(f"case | {self.cat} | {name} | {outcome}", flush=True)
        super().__setitem__(name, outcome)

    def update(self, other: dict) -> None:
        for k, v in other.items():
            self[k] = v


def main() -> None:
    results = Results()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name, text in scenario_cases().items():
            results["1 scenario values"][name] = reject_case(_sub(d), text)
        for name in ("../x", f"{d}/abs"):  # inside the scratch dir: probes may run together
            results["1 scenario values"][f"name={name.replace(str(d), '<tmp>')}"] = (
                escape_case(_sub(d), name))
        bom = _sub(d)
        results["1 scenario values"]["BOM (accept)"] = run_ok_case(
            bom, "\ufeff" + BASE)
        results["2 preferences"] = pref_cases(d)
        results["4 model faults"] = fault_cases(d)
        for sig, at in ((signal.SIGTERM, 1.0), (signal.SIGTERM, 4.0),
                        (signal.SIGKILL, 1.5), (signal.SIGKILL, 4.0)):
            results["5 interruptions"][f"{signal.Signals(sig).name} at +{at}s"] = (
                interrupt_case(_sub(d), sig, at))
        results["5 interruptions"].update(output_cases(_sub(d)))
        results["6 record/replay"] = replay_cases(d)
        results["7 concurrency"] = concurrency_cases(_sub(d))
        results["8 files in scenarios"] = file_cases(d)
    print(f"probe of {ROOT}")
    print("| category | tried | clear | traceback | hang | lost |")
    print("|---|---|---|---|---|---|")
    for cat, cases in results.items():
        c = Counter(cases.values())
        print(f"| {cat} | {len(cases)} | {c['clear']} | {c['traceback']} | {c['hang']} | "
              f"{c['lost']} |")
    print()
    for cat, cases in results.items():
        bad = {k: v for k, v in cases.items() if v != "clear"}
        if bad:
            print(f"{cat}: {bad}")


if __name__ == "__main__":
    main()
