"""An emulated OpenAI-compatible model server with a latency model, for tests and benchmarks.

It answers `/v1/chat/completions` the way a GPU server spends time, without a GPU:

    queue wait  (FIFO, while `max_batch` sequences are already being served)
    + overhead_ms + prompt_tokens * 1000 / prefill_tok_per_s   -> first token (TTFT)
    + completion_tokens * 1000 / decode_tok_per_s              -> last token

Every modelled duration is multiplied by `time_scale` before the server sleeps, so with
`time_scale=0.01` a month of calls runs a hundred times faster with every ratio kept (queueing
included, since all durations shrink alike).

Stated assumptions of the defaults (change them with the LatencyModel fields or the CLI flags):
a 30B-class mixture-of-experts model with about 3B active parameters on one data-centre GPU,
prefill about 10,000 prompt tokens/s, decode about 60 tokens/s per sequence, up to 128
sequences batched (continuous batching: a sequence decodes at full speed whatever the number of
neighbours, up to the batch limit; beyond it requests wait in FIFO order), 50 ms per request.
No prefix cache is modelled (usage reports no cached tokens).

Replies are deterministic functions of the request, so two runs that send the same requests get
the same replies whatever their order or timing. The server cannot run the agents' deterministic
policy (it has no world), so the default responder returns a minimal answer valid for each
agent's schema (`minimal_answer`): search "here", rank nothing, no preference action, one
compression bullet, and for the main decision `search` or `wait` chosen from a hash of the
prompt; a `reason`/`short_plan` string is padded to `output_tokens` tokens so decode time is
that of a realistic reply. Pass another `responder` to answer differently.

Timing headers on every answer (real milliseconds, i.e. already scaled): `x-queue-ms` (waiting
for a batch slot), `x-processing-ms` (from slot to last byte). The server counts sequences in
service (`in_flight`, `max_in_flight`) and keeps a (time, in_flight) trace for benchmarks.

Run it alone: `python -m agents.testing.emulated_server --port 8011 --time-scale 0.01`.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from agents.testing.fakes import LoopbackServer
from memory.tokens import TokenCounter


@dataclass(frozen=True)
class LatencyModel:
    """Modelled seconds per request; see the module docstring for the assumptions."""

    overhead_ms: float = 50.0
    prefill_tok_per_s: float = 10_000.0
    decode_tok_per_s: float = 60.0
    max_batch: int = 128
    time_scale: float = 1.0  # real seconds slept per modelled second

    def first_token_s(self, prompt_tokens: int) -> float:
        return self.overhead_ms / 1000 + prompt_tokens / self.prefill_tok_per_s

    def decode_s(self, completion_tokens: int) -> float:
        return completion_tokens / self.decode_tok_per_s

    def call_s(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Modelled seconds of one request served without queueing."""
        return self.first_token_s(prompt_tokens) + self.decode_s(completion_tokens)


# A responder gets the request body and returns the reply text.
Responder = Callable[[dict], str]


def request_digest(body: dict) -> str:
    blob = json.dumps(body.get("messages", []), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def schema_name(body: dict) -> str:
    rf = body.get("response_format") or {}
    if rf.get("type") == "json_schema":
        return str(rf.get("json_schema", {}).get("name", ""))
    schema = rf.get("schema") or {}
    props = set(schema.get("properties", {}))
    for name, keys in (("main_decision", {"action"}), ("cargo_analyst", {"ranked"}),
                       ("search", {"grid"}), ("preference", {"wait_minutes"}),
                       ("compress", {"bullets"})):
        if keys <= props:
            return name
    return ""


def minimal_answer(name: str, digest: str) -> dict:
    """The smallest reply each agent accepts; the main decision alternates by prompt hash."""
    if name == "search":
        return {"search": True, "grid": "here", "radius_km": 30, "reason": ""}
    if name == "preference":
        return {"wait_minutes": 0, "go": False, "lat": 0, "lng": 0, "reason": ""}
    if name == "cargo_analyst":
        return {"ranked": [], "reason": ""}
    if name == "main_decision":
        action = "search" if int(digest[:8], 16) % 2 else "wait"
        return {"action": action, "cargo_id": "", "minutes": 30, "lat": 0, "lng": 0,
                "short_plan": ""}
    if name.startswith("compress"):
        return {"bullets": ["no change"]}
    return {"answer": ""}


class SchemaResponder:
    """Minimal schema-valid answers, the free-text field padded to about `output_tokens`."""

    PAD_FIELDS = ("reason", "short_plan")

    def __init__(self, counter: TokenCounter, output_tokens: int = 40) -> None:
        self.counter, self.output_tokens = counter, output_tokens

    def __call__(self, body: dict) -> str:
        out = minimal_answer(schema_name(body), request_digest(body))
        text = json.dumps(out)
        field = next((f for f in self.PAD_FIELDS if f in out), None)
        missing = self.output_tokens - self.counter(text)
        if field is not None and missing > 0:
            out[field] = " ".join(["ok"] * missing)  # " ok" is one token in Qwen's BPE
            text = json.dumps(out)
        return text


class BatchSlots:
    """At most `size` holders; others wait in strict arrival (FIFO) order."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cond = threading.Condition()
        self.queue: deque[int] = deque()
        self.ticket = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.served = 0
        self.trace: list[tuple[float, int]] = []

    def acquire(self) -> None:
        with self.cond:
            self.ticket += 1
            me = self.ticket
            self.queue.append(me)
            while self.queue[0] != me or self.in_flight >= self.size:
                self.cond.wait()
            self.queue.popleft()
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.trace.append((time.perf_counter(), self.in_flight))
            self.cond.notify_all()

    def stats(self, reset: bool = False) -> dict:
        """Served count, peak and the (seconds, in flight) trace; `reset` starts a new one."""
        with self.cond:
            t0 = self.trace[0][0] if self.trace else 0.0
            out = {"served": self.served, "max_in_flight": self.max_in_flight,
                   "trace": [(round(t - t0, 4), n) for t, n in self.trace]}
            if reset:
                self.trace, self.served, self.max_in_flight = [], 0, self.in_flight
        return out

    def release(self) -> None:
        with self.cond:
            self.in_flight -= 1
            self.served += 1
            self.trace.append((time.perf_counter(), self.in_flight))
            self.cond.notify_all()


class EmulatedServer(LoopbackServer):
    """`with EmulatedServer(LatencyModel(time_scale=0.01)) as srv:` then use `srv.base_url`."""

    def __init__(self, latency: LatencyModel | None = None, responder: Responder | None = None,
                 counter: TokenCounter | None = None, output_tokens: int = 40,
                 chunk_tokens: int = 8) -> None:
        self.latency = latency or LatencyModel()
        self.counter = counter or TokenCounter()
        self.responder = responder or SchemaResponder(self.counter, output_tokens)
        self.slots = BatchSlots(self.latency.max_batch)
        self.chunk_tokens = chunk_tokens
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects
            # headers and body go out in two writes: with Nagle on, the second waits ~40 ms
            # for the client's delayed ACK on every keep-alive request
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.split("?")[0].endswith("/stats"):
                    self._json(200, outer.slots.stats(reset="reset" in self.path), {})
                    return
                self._json(200, {"object": "list", "data": [{"id": "emulated"}]}, {})

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(n) or b"{}")
                outer.serve(self, body)

            def _json(self, status: int, obj: dict, headers: dict[str, str]) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler)
        # a hundred clients connect at once: a listen backlog of 5 would drop SYNs (1 s retries)
        self.httpd.socket.listen(1024)

    def prompt_tokens(self, body: dict) -> int:
        # content tokens plus a few per message for the chat template's role markers
        return sum(self.counter(str(m.get("content", ""))) + 4 for m in body.get("messages", []))

    def serve(self, h: BaseHTTPRequestHandler, body: dict) -> None:
        lat, scale = self.latency, self.latency.time_scale
        text = self.responder(body)
        p, c = self.prompt_tokens(body), max(1, self.counter(text))
        t_arrive = time.perf_counter()
        self.slots.acquire()
        t_slot = time.perf_counter()
        held = [True]

        def done() -> None:  # the last token is out: the slot frees before the bytes go
            if held[0]:
                held[0] = False
                self.slots.release()

        try:
            queue_ms = 1000 * (t_slot - t_arrive)
            time.sleep(lat.first_token_s(p) * scale)
            usage = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
            model = body.get("model", "emulated")
            if body.get("stream"):
                self._stream(h, body, text, c, usage, model, queue_ms, done)
                return
            time.sleep(lat.decode_s(c) * scale)
            done()
            proc_ms = 1000 * (time.perf_counter() - t_slot)
            h._json(200, {  # type: ignore[attr-defined]
                "id": "cmpl-emu", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": usage,
            }, {"x-queue-ms": f"{queue_ms:.3f}", "x-processing-ms": f"{proc_ms:.3f}"})
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            done()

    def _stream(self, h: BaseHTTPRequestHandler, body: dict, text: str, c: int, usage: dict,
                model: str, queue_ms: float, done: Callable[[], None]) -> None:
        """Server-sent events: the text in `chunk_tokens`-sized pieces, decode time between."""
        h.send_response(200)
        h.send_header("content-type", "text/event-stream")
        h.send_header("cache-control", "no-cache")
        h.send_header("x-queue-ms", f"{queue_ms:.3f}")
        h.send_header("connection", "close")
        h.end_headers()
        h.close_connection = True

        def send(obj: dict | str) -> None:
            data = obj if isinstance(obj, str) else json.dumps(obj)
            h.wfile.write(f"data: {data}\n\n".encode())
            h.wfile.flush()

        def chunk(delta: dict, finish: str | None = None) -> dict:
            return {"id": "cmpl-emu", "object": "chat.completion.chunk", "created": 0,
                    "model": model, "choices": [{"index": 0, "delta": delta,
                                                 "finish_reason": finish}]}

        n_chunks = max(1, -(-c // self.chunk_tokens))
        step = -(-len(text) // n_chunks)
        per_chunk = self.latency.decode_s(c) * self.latency.time_scale / n_chunks
        send(chunk({"role": "assistant", "content": text[:step]}))
        for i in range(1, n_chunks):
            time.sleep(per_chunk)
            send(chunk({"content": text[i * step:(i + 1) * step]}))
        time.sleep(per_chunk)
        done()
        send(chunk({}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            send({"id": "cmpl-emu", "object": "chat.completion.chunk", "created": 0,
                  "model": model, "choices": [], "usage": usage})
        send("[DONE]")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    d = LatencyModel()
    ap.add_argument("--overhead-ms", type=float, default=d.overhead_ms)
    ap.add_argument("--prefill-tok-s", type=float, default=d.prefill_tok_per_s)
    ap.add_argument("--decode-tok-s", type=float, default=d.decode_tok_per_s)
    ap.add_argument("--max-batch", type=int, default=d.max_batch)
    ap.add_argument("--time-scale", type=float, default=d.time_scale)
    ap.add_argument("--output-tokens", type=int, default=40)
    a = ap.parse_args(argv)
    lat = LatencyModel(a.overhead_ms, a.prefill_tok_s, a.decode_tok_s, a.max_batch, a.time_scale)
    srv = EmulatedServer(lat, output_tokens=a.output_tokens)
    with srv:
        print(srv.base_url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            srv.thread.join()


if __name__ == "__main__":
    main()
