"""`freightsim bench`: one scenario under each memory mode, same seed, one report.

Ratios between modes are computed from runs made side by side in one invocation. The report
(JSON + Markdown) can be stored as a baseline and later checked against: token figures are
exact with the deterministic backend and a real tokenizer, so the gate is deterministic in CI.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from agents.app.evaluate import ProbeRecorder, Sample
from agents.app.runner import build_run
from agents.llm.providers import uses_model
from agents.roles.registry import agent_names
from memory.modes import mode_names
from sim.analysis.metrics import quality
from sim.scenario import Scenario
from sim.world.recorder import read_events, write_text_atomic


def _pct(x: pd.Series, q: float, digits: int = 2) -> float:
    return round(float(np.percentile(x, q)), digits) if len(x) else 0.0


def _opt_mean(df: pd.DataFrame, col: str) -> float | None:
    """Mean of a column the server may not fill (None when it never did, or no column)."""
    if col not in df or df[col].isna().all():
        return None
    return round(float(df[col].mean()), 6)


def _opt_pct(df: pd.DataFrame, col: str, q: float) -> float | None:
    if col not in df or df[col].isna().all():
        return None
    return _pct(df[col].dropna(), q, 6)


def _split(key: str):
    return lambda m: m.get("latency_split_per_step_s", {}).get(key)


def mode_report(sc: Scenario, run_dir: Path, wall_s: float) -> dict:
    steps = pq.read_table(run_dir / "steps.parquet").to_pandas()
    events = read_events(run_dir).to_pandas()
    drivers = pq.read_table(run_dir / "drivers.parquet").to_pandas()
    n = max(len(steps), 1)
    with_c = (steps.prompt_tokens.sum() + steps.compress_prompt_tokens.sum()) / n
    total = steps.prompt_tokens + steps.completion_tokens
    by_day = steps.groupby("day").prompt_tokens.mean()
    failed = events[events.kind == "take_failed"].reason.value_counts().to_dict()
    q = quality(events, drivers, sc.scenario.days, sc.geo.memory_h3_res, sc.memory.low_yield_net)
    return {
        "steps": len(steps),
        "tokens_per_step": {
            "mean": round(float(steps.prompt_tokens.mean()), 2),
            "p50": _pct(steps.prompt_tokens, 50), "p95": _pct(steps.prompt_tokens, 95),
            "mean_with_compression": round(float(with_c), 2),
            "mean_total_with_completion": round(float(total.mean()), 2),
            "by_agent": {a: round(float(steps[f"{a}_prompt_tokens"].mean()), 2)
                         for a in agent_names()},
            "first_day": round(float(by_day.iloc[0]), 2),
            "second_day": round(float(by_day.iloc[min(1, len(by_day) - 1)]), 2),
            "last_day": round(float(by_day.iloc[-1]), 2),
        },
        "compression": {"calls": int(steps.compress_calls.sum()),
                        "prompt_tokens": int(steps.compress_prompt_tokens.sum()),
                        "calls_per_step": round(float(steps.compress_calls.sum()) / n, 4)},
        "latency_per_step_s": {"p50": _pct(steps.latency_s, 50, 6),
                               "p95": _pct(steps.latency_s, 95, 6)},
        # what the driver waited, and where the server spent it: fewer prompt tokens shorten
        # time to first token (prefill) only, so TTFT and decode are reported apart
        "latency_split_per_step_s": {
            "critical_path_p50": _opt_pct(steps, "critical_path_s", 50),
            "critical_path_p95": _opt_pct(steps, "critical_path_s", 95),
            "queue_mean": _opt_mean(steps, "queue_s"),
            "ttft_mean": _opt_mean(steps, "ttft_s"), "ttft_p95": _opt_pct(steps, "ttft_s", 95),
            "decode_mean": _opt_mean(steps, "decode_s"),
            "decode_p95": _opt_pct(steps, "decode_s", 95)},
        "llm_calls_per_step": round(float(steps.llm_calls.sum()) / n, 3),
        "quality": {**q, "failed_takes_by_reason": dict(sorted(failed.items()))},
        "wall_s": round(wall_s, 2),
    }


RECALL_GATE = 0.98  # compressed fact recall may not fall below this share of bounded mode's
RECALL_GATE_MIN_PROBES = 10  # a fact kind is gated on its own once bounded asked this many


def run_mode(sc: Scenario, run_dir: Path, keep_texts: bool) -> ProbeRecorder | None:
    """One run, with the fact probes observing every agent call (None for memory off)."""
    world, services = build_run(sc, run_dir)
    rec = None
    if services is not None:
        rec = ProbeRecorder(world, services, keep_texts=keep_texts)
        services.call_hooks.append(rec)
    world.run()
    return rec


def run_bench(sc: Scenario, out: Path, modes: tuple[str, ...] | None = None,
              model_eval: dict | None = None) -> dict:
    """`model_eval` (optional): {"model": LanguageModel, "steps": n, "max_questions": k,
    "max_tokens": t or None} asks a model the probes and the main decision on n sampled steps
    of every mode."""
    report: dict = {"scenario": sc.scenario.name, "seed": sc.scenario.seed,
                    "days": sc.scenario.days, "drivers": sc.drivers.count,
                    "backend": sc.llm.backend, "modes": {}}
    recall: dict[str, dict] = {}
    samples: dict[str, dict[tuple[str, int], Sample]] = {}
    for mode in modes or mode_names():
        t0 = time.perf_counter()
        run_dir = out / mode
        rec = run_mode(sc.with_overrides(memory={"mode": mode}), run_dir,
                       keep_texts=model_eval is not None and mode != "full")
        report["modes"][mode] = mode_report(sc, run_dir, time.perf_counter() - t0)
        if rec is not None:
            recall[mode] = rec.summary()
            report["modes"][mode]["quality"]["fact_recall"] = recall[mode]["recall"]
            samples[mode] = rec.samples
    report["ratios"] = ratios(report["modes"])
    report["ablation"] = ablation(report["modes"], recall.get("compressed", {}).get(
        "compact_saved_per_step"))
    report["quality"] = {
        "fact_recall": {m: r["recall"] for m, r in recall.items()},
        "fact_recall_by_agent": {m: r["by_agent"] for m, r in recall.items()},
        "fact_recall_by_kind": {m: r["by_kind"] for m, r in recall.items()},
        "probes_by_kind": {m: r["probes_by_kind"] for m, r in recall.items()},
        "probes_by_agent": {m: r["probes_by_agent"] for m, r in recall.items()},
        # the hindsight optimum needs independent drivers (competition rules)
        "hindsight_share": dict.fromkeys(report["modes"]),
        "hindsight_note": "not applicable: shared world (drivers compete for one market)",
    }
    if model_eval is not None:
        from agents.app.evaluate import model_quality

        report["quality"]["model"] = model_quality(
            samples, model_eval["model"], model_eval.get("steps", 5),
            model_eval.get("max_questions", 0), model_eval.get("max_tokens"))
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "report.json", json.dumps(report, indent=2))
    write_text_atomic(out / "report.md", markdown(report))
    return report


def ratios(m: dict) -> dict:
    out = {}
    for a, b in (("compressed", "bounded"), ("bounded", "full"), ("compressed", "full")):
        if a in m and b in m:
            ta, tb = m[a]["tokens_per_step"], m[b]["tokens_per_step"]
            out[f"{a}_vs_{b}"] = {
                "tokens_per_step": round(ta["mean"] / tb["mean"], 4),
                "tokens_per_step_with_compression": round(
                    ta["mean_with_compression"] / tb["mean_with_compression"], 4),
                "reduction_pct": round(100 * (1 - ta["mean"] / tb["mean"]), 1),
                "reduction_with_compression_pct": round(
                    100 * (1 - ta["mean_with_compression"] / tb["mean_with_compression"]), 1),
            }
    return out


def ablation(m: dict, compact_saved: float | None = None) -> dict:
    """The token cut of `compressed` against `bounded`, split by cause (tokens per step, with
    compression calls): filtering (bounded -> bounded-filtered), digesting with compact
    lines (bounded-filtered -> compressed), and the same two measured the other way round
    (bounded -> compressed-unfiltered -> compressed); the two orders differ by the
    interaction."""
    need = ("bounded", "bounded-filtered", "compressed-unfiltered", "compressed")
    if not all(x in m for x in need):
        return {}
    t = {x: m[x]["tokens_per_step"]["mean_with_compression"] for x in need}
    cut = t["bounded"] - t["compressed"]

    def share(x: float) -> float:
        return round(100 * x / cut, 1) if cut else 0.0

    st, sf, cu, co = (t[x] for x in need)
    f1, d1 = st - sf, sf - co
    d2, f2 = st - cu, cu - co
    out = {"cut_tokens_per_step": round(cut, 2),
            "filter_first": {"filtering": round(f1, 2), "digest_and_compact": round(d1, 2),
                             "filtering_pct": share(f1), "digest_and_compact_pct": share(d1)},
            "digest_first": {"digest_and_compact": round(d2, 2), "filtering": round(f2, 2),
                             "digest_and_compact_pct": share(d2), "filtering_pct": share(f2)}}
    if compact_saved is not None:
        # compact lines alone: compressed views printed verbose minus compact, on the probed
        # steps; the rest of the digest-and-compact part is what digesting saved
        c = min(compact_saved, d1)
        out["filter_first"].update(compact=round(c, 2), digest=round(d1 - c, 2),
                                   compact_pct=share(c), digest_pct=share(d1 - c))
    return out


def _agent_tokens(agent: str):
    return lambda m: m["tokens_per_step"]["by_agent"][agent]


def markdown(r: dict) -> str:
    modes = list(r["modes"])
    rows = [
        ("prompt tokens/step mean", lambda m: m["tokens_per_step"]["mean"]),
        ("prompt tokens/step p50", lambda m: m["tokens_per_step"]["p50"]),
        ("prompt tokens/step p95", lambda m: m["tokens_per_step"]["p95"]),
        ("… with compression calls", lambda m: m["tokens_per_step"]["mean_with_compression"]),
        ("… first / last day", lambda m: f"{m['tokens_per_step']['first_day']:.0f} / "
                                         f"{m['tokens_per_step']['last_day']:.0f}"),
        *[(f"… {a}", _agent_tokens(a)) for a in agent_names()],
        ("compression calls", lambda m: m["compression"]["calls"]),
        ("latency/step p50 s", lambda m: m["latency_per_step_s"]["p50"]),
        ("latency/step p95 s", lambda m: m["latency_per_step_s"]["p95"]),
        ("critical path/step p50 s", _split("critical_path_p50")),
        ("… queue wait/step mean s", _split("queue_mean")),
        ("… TTFT (prefill)/step mean s", _split("ttft_mean")),
        ("… decode/step mean s", _split("decode_mean")),
        ("LLM calls/step", lambda m: m["llm_calls_per_step"]),
        ("net income per driver-day", lambda m: m["quality"]["net_income_per_driver_day"]),
        ("preference penalty per driver", lambda m: m["quality"]["penalty_per_driver"]),
        ("failed takes", lambda m: m["quality"]["failed_takes"]),
        ("stale or failed-cargo takes", lambda m: m["quality"]["stale_or_failed_takes"]),
        ("repeated low-yield searches", lambda m: m["quality"]["repeated_low_yield_searches"]),
        ("wall s", lambda m: m["wall_s"]),
    ]
    lines = [f"# bench: {r['scenario']} (seed {r['seed']}, {r['days']:g} days, "
             f"{r['drivers']} drivers, backend {r['backend']})", "",
             "| figure | " + " | ".join(modes) + " |", "|---|" + "---|" * len(modes)]
    for label, f in rows:
        lines.append(f"| {label} | " + " | ".join(str(f(r["modes"][m])) for m in modes) + " |")
    lines += ["", "| ratio | tokens/step | with compression | reduction |", "|---|---|---|---|"]
    for k, v in r["ratios"].items():
        lines.append(f"| {k} | {v['tokens_per_step']} | {v['tokens_per_step_with_compression']}"
                     f" | {v['reduction_pct']}% ({v['reduction_with_compression_pct']}% with "
                     "compression calls) |")
    return "\n".join(summary_table(r) + lines[1:] + ablation_lines(r)) + "\n"


def _fmt(x: object, pct: bool = False) -> str:
    if x is None:
        return "n/a"
    if pct:
        return f"{100 * float(x):.1f}%"
    return str(x)


def summary_table(r: dict) -> list[str]:
    """The one table: per mode, what it costs and what a reader (or the policy) gets from it."""
    q = r.get("quality", {})
    model = q.get("model")
    rec = q.get("fact_recall", {})
    share = q.get("hindsight_share", {})
    head = ["mode", "tokens/step", "… with compression", "fact recall"]
    if model:
        head += [f"QA accuracy ({model['model']})", "decision agreement vs bounded"]
    head += ["income/driver-day", "share of hindsight optimum"]
    out = [r["title"] if "title" in r else
           f"# bench: {r['scenario']} (seed {r['seed']}, {r['days']:g} days, "
           f"{r['drivers']} drivers, backend {r['backend']})", "",
           "| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for mode, m in r["modes"].items():
        t = m["tokens_per_step"]
        row = [mode, str(t["mean"]), str(t["mean_with_compression"]), _fmt(rec.get(mode))]
        if model:
            acc = model["qa"].get(mode, {}).get("accuracy")
            agree = model["decision_agreement"]["bounded_vs_compressed"]
            row += [_fmt(acc), {"bounded": "(reference)", "compressed": _fmt(agree)}.get(mode,
                                                                                 "n/a")]
        row += [str(m["quality"]["net_income_per_driver_day"]), _fmt(share.get(mode), True)]
        out.append("| " + " | ".join(row) + " |")
    notes = []
    if q.get("hindsight_note"):
        notes.append(f"Share of hindsight optimum: {q['hindsight_note']}.")
    if model:
        d = model["decision_agreement"]
        notes.append(f"Model figures: {model['steps']} sampled steps per mode, "
                     f"{d['unanswered']} of {d['steps']} decision pairs unanswered.")
    return out + (["", *notes] if notes else []) + [""]


def ablation_lines(r: dict) -> list[str]:
    a = r.get("ablation")
    out = []
    by = r.get("quality", {}).get("fact_recall_by_agent", {})
    if by:
        agents = sorted({x for v in by.values() for x in v})
        out += ["", "| fact recall by agent | " + " | ".join(agents) + " |",
                "|---|" + "---|" * len(agents)]
        out += [f"| {m} | " + " | ".join(_fmt(v.get(x)) for x in agents) + " |"
                for m, v in by.items()]
    if a:
        f = a["filter_first"]
        out += ["", f"Token cut compressed vs bounded: {a['cut_tokens_per_step']} tokens/step "
                "(with compression calls). Filtering (bounded -> bounded-filtered): "
                f"{f['filtering']} ({f['filtering_pct']}%); digest and compact lines "
                f"(bounded-filtered -> compressed): {f['digest_and_compact']} "
                f"({f['digest_and_compact_pct']}%)"
                + (f", of which compact lines {f['compact']} ({f['compact_pct']}%) and "
                   f"digesting {f['digest']} ({f['digest_pct']}%)" if "compact" in f else "")
                + ". The other order (bounded -> compressed-unfiltered -> compressed): digest "
                f"and compact {a['digest_first']['digest_and_compact_pct']}%, filtering "
                f"{a['digest_first']['filtering_pct']}%."]
    return out


@dataclass(frozen=True)
class Regression:
    mode: str
    figure: str
    baseline: float
    now: float

    def __str__(self) -> str:
        return f"{self.mode}: {self.figure} {self.baseline} -> {self.now}"


def check(report: dict, baseline: dict, tolerance: float = 0.05) -> list[Regression]:
    """Figures that moved the wrong way beyond the tolerance (relative)."""
    out = []
    for mode, now in report["modes"].items():
        base = baseline["modes"].get(mode)
        if base is None:
            continue
        worse_if_up = [("tokens_per_step.mean", now["tokens_per_step"]["mean"],
                        base["tokens_per_step"]["mean"]),
                       ("tokens_per_step.p95", now["tokens_per_step"]["p95"],
                        base["tokens_per_step"]["p95"]),
                       ("tokens_per_step.mean_with_compression",
                        now["tokens_per_step"]["mean_with_compression"],
                        base["tokens_per_step"]["mean_with_compression"]),
                       ("quality.penalty_per_driver", now["quality"]["penalty_per_driver"],
                        base["quality"]["penalty_per_driver"])]
        for name, n, b in worse_if_up:
            if n > b * (1 + tolerance) + 1e-9:
                out.append(Regression(mode, name, b, n))
        for name in ("stale_or_failed_takes", "repeated_low_yield_searches"):
            n, b = now["quality"][name], base["quality"][name]
            if n > b * (1 + tolerance) + 2:  # small counts: allow two more
                out.append(Regression(mode, f"quality.{name}", b, n))
        n, b = (now["quality"]["net_income_per_driver_day"],
                base["quality"]["net_income_per_driver_day"])
        if n < b * (1 - tolerance):
            out.append(Regression(mode, "quality.net_income_per_driver_day", b, n))
        if uses_model(report.get("backend")) and uses_model(baseline.get("backend")):
            n, b = now["latency_per_step_s"]["p95"], base["latency_per_step_s"]["p95"]
            if n > b * (1 + tolerance):
                out.append(Regression(mode, "latency_per_step_s.p95", b, n))
    # the memory's saving itself: a mode's token ratio to another may not creep back up
    for pair, now_r in report.get("ratios", {}).items():
        base_r = baseline.get("ratios", {}).get(pair)
        if base_r is None:
            continue
        for name in ("tokens_per_step", "tokens_per_step_with_compression"):
            if now_r[name] > base_r[name] * (1 + tolerance) + 1e-9:
                out.append(Regression(pair, f"ratio.{name}", base_r[name], now_r[name]))
    return out + recall_gate(report)


def recall_gate(report: dict, share: float = RECALL_GATE) -> list[Regression]:
    """`compressed` must state at least `share` of what `bounded` states: over all probes, and
    for each agent that bounded was probed on at least RECALL_GATE_MIN_PROBES times (a digest
    that drops one agent's facts hides in the overall figure). No baseline needed."""
    q = report.get("quality", {})
    rec = q.get("fact_recall", {})
    if "compressed" not in rec or "bounded" not in rec:
        return []
    out = []
    if rec["compressed"] < share * rec["bounded"]:
        out.append(Regression("compressed_vs_bounded", "quality.fact_recall", rec["bounded"],
                              rec["compressed"]))
    by = q.get("fact_recall_by_agent", {})
    n = q.get("probes_by_agent", {}).get("bounded", {})
    for agent, r in by.get("bounded", {}).items():
        c = by.get("compressed", {}).get(agent)
        if c is not None and n.get(agent, 0) >= RECALL_GATE_MIN_PROBES and c < share * r:
            out.append(Regression("compressed_vs_bounded", f"quality.fact_recall.{agent}", r, c))
    return out
