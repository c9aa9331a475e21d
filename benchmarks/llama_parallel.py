"""What several requests in flight give against the local llama.cpp server on this machine's cores.

usage: python benchmarks/llama_parallel.py [--requests 8] [--in-flight 4] [--max-tokens 128]
           [--out report.json]

llama-cpp-python's OpenAI-compatible server (the `llm-server` extra, 0.3.x) has no parallel
slots: every completion takes one process-wide lock (`llama_cpp/server/app.py`,
`get_llama_proxy`), so requests sent at once are answered one after another, and its settings
have no n_parallel. What can run side by side on one machine is several server processes. This
script times the same requests (real agent prompts, recorded from a tiny competition run against
the emulated server) three ways:

  1 server, all cores, one request at a time        (the sequential baseline)
  1 server, all cores, `--in-flight` requests at once (queued behind the lock)
  N servers, cores split between them, `--in-flight` requests at once, spread round-robin

and prints requests/s, wall time and speedup against the baseline. The model is gemma-3 270M
(q4_k_m) on CPU, asked for JSON with the schema as llama.cpp takes it (json_object).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import openai

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.llm.language_model import LLMError  # noqa: E402
from agents.llm.openai_adapter import OpenAIModel  # noqa: E402
from agents.testing.emulated_server import EmulatedServer, LatencyModel  # noqa: E402
from agents.testing.local_server import llama_server  # noqa: E402
from sim.scenario import load_scenario  # noqa: E402


def recorded_requests(n: int) -> list[dict]:
    """The first n model requests of a one-driver competition run, as our agents sent them."""
    from agents.app.compete import run_competition

    with tempfile.TemporaryDirectory() as tmp, EmulatedServer(LatencyModel(time_scale=0)) as srv:
        cache = Path(tmp) / "cache.jsonl"
        sc = load_scenario(ROOT / "scenarios" / "competition.toml").with_overrides(
            scenario={"days": 1, "max_steps": 3}, drivers={"count": 1},
            memory={"mode": "bounded"},
            llm={"backend": "llm", "base_url": srv.base_url, "cache": str(cache),
                 "response_format": "json_schema"})
        run_competition(sc, Path(tmp) / "run", stamp="20260301_000000")
        rows = [json.loads(x)["request"] for x in cache.read_text().splitlines() if x.strip()]
    return rows[:n]


def timed(bases: list[str], requests: list[dict], in_flight: int, max_tokens: int) -> dict:
    models = [OpenAIModel(openai.OpenAI(base_url=b, api_key="x", max_retries=0, timeout=600),
                          "local", "json_object") for b in bases]

    def ask(i: int) -> tuple[float, int, int, bool]:
        r = requests[i]
        t0 = time.perf_counter()
        try:
            c = models[i % len(models)].complete(r["messages"], schema=r["schema"],
                                                 schema_name=r["schema_name"],
                                                 max_tokens=max_tokens, temperature=0.0)
            return time.perf_counter() - t0, c.prompt_tokens, c.completion_tokens, True
        except LLMError:
            return time.perf_counter() - t0, 0, 0, False

    for m in models:  # load the weights and warm the caches before timing
        m.complete([{"role": "user", "content": "hi"}], max_tokens=1)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(in_flight) as pool:
        out = list(pool.map(ask, range(len(requests))))
    wall = time.perf_counter() - t0
    return {"wall_s": round(wall, 2), "requests_per_s": round(len(requests) / wall, 3),
            "mean_latency_s": round(sum(x[0] for x in out) / len(out), 2),
            "prompt_tokens": sum(x[1] for x in out),
            "completion_tokens": sum(x[2] for x in out), "ok": sum(x[3] for x in out)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=8)
    ap.add_argument("--in-flight", type=int, default=4)
    ap.add_argument("--servers", type=int, default=None, help="default: one per core")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 2
    servers = a.servers or cores
    requests = recorded_requests(a.requests)
    print(f"{len(requests)} recorded agent requests "
          f"({', '.join(sorted({r['schema_name'] for r in requests}))}), {cores} cores, "
          f"max_tokens {a.max_tokens}", flush=True)
    per = max(1, cores // servers)
    plans = [(f"1 server x{cores} threads, 1 in flight", 1, cores, 1),
             (f"1 server x{cores} threads, {a.in_flight} in flight", 1, cores, a.in_flight),
             (f"{servers} servers x{per} thread(s), {a.in_flight} in flight", servers, per,
              a.in_flight)]
    rows = []
    for label, n, threads, k in plans:
        with ExitStack() as stack:
            bases = [stack.enter_context(llama_server(threads=threads)) for _ in range(n)]
            r = timed(bases, requests, k, a.max_tokens)
        r.update(setup=label, servers=n, threads_per_server=threads, in_flight=k)
        rows.append(r)
        print(f"  {label}: {r['wall_s']} s, {r['requests_per_s']} requests/s, mean latency "
              f"{r['mean_latency_s']} s, {r['ok']}/{len(requests)} answered", flush=True)
    base = rows[0]["wall_s"]
    print()
    print("| setup | wall s | requests/s | mean latency s | speedup |")
    print("|---|---|---|---|---|")
    for r in rows:
        r["speedup"] = round(base / r["wall_s"], 2)
        print(f"| {r['setup']} | {r['wall_s']} | {r['requests_per_s']} | "
              f"{r['mean_latency_s']} | {r['speedup']} |")
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
