"""Latency per decision step on a real model server: `bounded` vs `compressed` views, same steps.

usage: python benchmarks/llm_latency.py [SCENARIO] [--base-url URL] [--drivers N] [--every K]
                                        [--max-tokens T] [--out report.json]

The scenario (default scenarios/month.toml) runs twice with the deterministic backend, under
`bounded` and under `compressed` memory. The deterministic agents decide the same under both (a
test holds this), so step k of driver d is the same situation in both runs; the exact prompts of
every K-th step of the first N drivers are kept and sent side by side, alternating which mode
goes first, to an OpenAI-compatible server: the local llama.cpp server from the `llm-server`
extra (started here) unless --base-url names another (vLLM on a GPU, say).

With the default --max-tokens 1 and no response format each call is timed to its first token:
the prompt processing that the memory view controls. Reply decoding is the same work in both
modes for the same replies, so it would only dilute the ratio; raise --max-tokens to include it.
Compression calls at the sampled drivers are timed too and amortised at the run's rate of
compression calls per step.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.app.runner import build_run  # noqa: E402
from sim.scenario import load_scenario  # noqa: E402

MODES = ("bounded", "compressed")


def capture(sc, drivers: set[str], every: int, max_compress: int) -> tuple[dict, dict]:
    """Run once; return {(driver, step): [messages per agent call]}, compression messages and
    the run's compression calls per step."""
    steps: dict[tuple[str, int], list[list[dict]]] = {}
    compress: list[list[dict]] = []

    def capture_call(ctx, prompt, view, inputs) -> None:
        if ctx.driver_id in drivers:
            text = view if isinstance(view, str) else view.render()
            msgs = prompt.messages(text, inputs)
            if prompt.agent.startswith("compress"):
                if len(compress) < max_compress:
                    compress.append(msgs)
            elif ctx.step % every == 0:
                steps.setdefault((ctx.driver_id, ctx.step), []).append(msgs)

    world, services = build_run(sc, None)
    services.call_hooks.append(capture_call)
    world.run()
    log = services.log
    n_steps = max(len(log.step_tokens), 1)
    rate = {"compress_calls_per_step": log.compress_calls / n_steps,
            "tokens_per_step": float(np.mean(log.step_tokens)),
            "tokens_per_step_with_compression": (sum(log.step_tokens) + log.compress_tokens)
            / n_steps}
    return {"steps": steps, "compress": compress}, rate


def timed(client, messages: list[dict], max_tokens: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    r = client.chat.completions.create(model="local", messages=messages, max_tokens=max_tokens,
                                       temperature=0.0)
    return time.perf_counter() - t0, int(r.usage.prompt_tokens if r.usage else 0)


def measure(base_url: str, caught: dict, max_tokens: int) -> dict:
    import openai

    client = openai.OpenAI(base_url=base_url, api_key="local", timeout=600, max_retries=0)
    keys = sorted(set(caught["bounded"]["steps"]) & set(caught["compressed"]["steps"]))
    out = {m: {"step_s": [], "step_tokens": [], "compress_s": [], "compress_tokens": []}
           for m in MODES}
    # one untimed call, the longest prompt of the first step: it pages the weights in and
    # sizes the server's buffers (llama.cpp reserves its compute buffers when the context is
    # made, so every prompt of the step, as this did before, warmed nothing more)
    first = [msgs for mode in MODES for msgs in caught[mode]["steps"][keys[0]]]
    timed(client, max(first, key=lambda m: sum(len(x["content"]) for x in m)), 1)
    for i, key in enumerate(keys):
        order = MODES if i % 2 == 0 else MODES[::-1]
        for mode in order:
            lat = tok = 0
            for msgs in caught[mode]["steps"][key]:
                s, n = timed(client, msgs, max_tokens)
                lat += s
                tok += n
            out[mode]["step_s"].append(lat)
            out[mode]["step_tokens"].append(tok)
        print(f"  step {i + 1}/{len(keys)} {key}: "
              f"bounded {out['bounded']['step_s'][-1]:.2f} s, "
              f"compressed {out['compressed']['step_s'][-1]:.2f} s", flush=True)
    for msgs in caught["compressed"]["compress"]:
        s, n = timed(client, msgs, max_tokens)
        out["compressed"]["compress_s"].append(s)
        out["compressed"]["compress_tokens"].append(n)
    out["pairs"] = len(keys)
    return out


def report(m: dict, rates: dict) -> dict:
    res: dict = {"pairs": m["pairs"]}
    for mode in MODES:
        d = m[mode]
        step = np.array(d["step_s"])
        per_call = float(np.mean(d["compress_s"])) if d["compress_s"] else 0.0
        amort = per_call * rates[mode]["compress_calls_per_step"]
        res[mode] = {
            "latency_per_step_s_mean": round(float(step.mean()), 3),
            "latency_per_step_s_p50": round(float(np.percentile(step, 50)), 3),
            "latency_per_step_s_p95": round(float(np.percentile(step, 95)), 3),
            "compression_call_s_mean": round(per_call, 3),
            "compression_calls_per_step": round(rates[mode]["compress_calls_per_step"], 4),
            "latency_per_step_s_with_compression": round(float(step.mean()) + amort, 3),
            "server_prompt_tokens_per_step": round(float(np.mean(d["step_tokens"])), 1),
            "run_tokens_per_step": round(rates[mode]["tokens_per_step"], 1),
        }
    r, c = res["bounded"], res["compressed"]
    res["ratio_compressed_vs_bounded"] = {
        "latency_per_step": round(c["latency_per_step_s_mean"] / r["latency_per_step_s_mean"], 4),
        "latency_per_step_with_compression": round(
            c["latency_per_step_s_with_compression"] / r["latency_per_step_s_with_compression"], 4),
        "server_prompt_tokens_per_step": round(
            c["server_prompt_tokens_per_step"] / r["server_prompt_tokens_per_step"], 4),
    }
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "month.toml"))
    ap.add_argument("--base-url", help="an OpenAI-compatible server (default: start llama.cpp)")
    ap.add_argument("--drivers", type=int, default=3, help="sample the first N drivers")
    ap.add_argument("--every", type=int, default=50, help="sample every K-th decision step")
    ap.add_argument("--max-tokens", type=int, default=1)
    ap.add_argument("--compress-calls", type=int, default=12, help="compression calls to time")
    ap.add_argument("--out", type=Path, help="write the report as JSON here too")
    args = ap.parse_args()
    sc = load_scenario(args.scenario)
    drivers = {f"D{i:04d}" for i in range(args.drivers)}
    caught, rates = {}, {}
    for mode in MODES:
        t0 = time.perf_counter()
        caught[mode], rates[mode] = capture(sc.with_overrides(memory={"mode": mode}), drivers,
                                            args.every, args.compress_calls)
        print(f"{mode}: run {time.perf_counter() - t0:.0f} s, "
              f"{len(caught[mode]['steps'])} sampled steps", flush=True)
    if args.base_url:
        m = measure(args.base_url, caught, args.max_tokens)
    else:
        from agents.testing.local_server import llama_server

        with llama_server(n_ctx=16384) as base:
            m = measure(base, caught, args.max_tokens)
    res = report(m, rates)
    res.update(scenario=sc.scenario.name, seed=sc.scenario.seed, max_tokens=args.max_tokens,
               server=args.base_url or "local llama.cpp, gemma3 270M q4_k_m, CPU")
    print(json.dumps(res, indent=2))
    r = res["ratio_compressed_vs_bounded"]
    print(f"latency per step compressed/bounded: {r['latency_per_step']:.3f} "
          f"({100 * (1 - r['latency_per_step']):.1f}% less; "
          f"{100 * (1 - r['latency_per_step_with_compression']):.1f}% less with compression)")
    if args.out:
        args.out.write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
