"""The MemoryAgent's compressor: the model (or the extractive rule) turns a view into bullets.

Every digest passes a grounding check against the stores; one that names an unseen grid,
cargo or coordinate is rejected (a `compression_rejected` event with the cause) and the
extractive digest is used instead.
"""

from __future__ import annotations

from collections.abc import Callable

import h3

from agents.llm.calls import AgentCaller, CallContext, InvalidOutputError
from agents.llm.prompts import COMPRESS
from memory.digest import MAX_BULLETS, extractive, ungrounded
from memory.memory_agent import Compressed, MemoryAgent
from memory.views import View


def known_coords(memory: MemoryAgent) -> list[tuple[float, float]]:
    pts = [h3.cell_to_latlng(c) for c in memory.market.grids]
    for r in memory.cargo.records.values():
        pts += [(r.cargo.origin.lat, r.cargo.origin.lng), (r.cargo.dest.lat, r.cargo.dest.lng)]
    for p in memory.spec.preferences:
        if p.place is not None:
            pts.append((p.place.lat, p.place.lng))
        pts += [(s.lat, s.lng) for s in p.steps]
    return pts


class CompressorAgent:
    """Implements memory's Compressor protocol for one driver."""

    def __init__(self, caller: AgentCaller, context: Callable[[], CallContext],
                 on_reject: Callable[[CallContext, str, list[str]], None] | None = None) -> None:
        self.caller, self.context, self.on_reject = caller, context, on_reject

    def compress(self, view: View, memory: MemoryAgent) -> Compressed:
        ctx = self.context()
        fallback = extractive(view)
        cells = set(memory.market.grids) | {g.cell for g in getattr(view, "nearby", ())}
        ids = set(memory.cargo.records)

        def validate(out: dict) -> list[str]:
            bullets = [str(b) for b in out["bullets"]]
            if not bullets or len(bullets) > MAX_BULLETS:
                raise InvalidOutputError(f"expected 1 to {MAX_BULLETS} bullets, got {len(bullets)}")
            bad = ungrounded(bullets, cells, ids, known_coords(memory))
            if bad:
                if self.on_reject is not None:
                    self.on_reject(ctx, view.agent, bad)
                return fallback
            return bullets

        bullets = self.caller.call(COMPRESS[view.agent], view, None, ctx,
                                   lambda: {"bullets": fallback}, validate)
        r = self.caller.last  # the record of the call just made
        assert r is not None
        return Compressed(tuple(bullets), r.prompt_tokens, r.completion_tokens, r.latency_s,
                          r.outcome)
