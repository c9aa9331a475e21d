"""What memory views are worth to a model: fact recall, model QA and decision agreement.

`ProbeRecorder` observes every agent call of a run (an `AgentServices` call hook): at sampled
decision steps it derives the step's facts from the driver's stores and the true world
(memory/probes.py) and scores the text each agent is shown (its view plus the other agents'
inputs, as a model would read them). With a model (any OpenAI-compatible server), `model_quality`
asks the same facts as questions about each mode's text (exact match) and asks the main
decision for the same steps under `bounded` and `compressed` views (agreement rate).
Record/replay (`RecordReplayModel`) keeps those figures reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import openai

from agents.llm.calls import CallContext, Renderable
from agents.llm.language_model import LanguageModel, LLMError
from agents.llm.openai_adapter import OpenAIModel
from agents.llm.prompts import STR, Prompt, inputs_text, obj
from agents.llm.record_replay import RecordReplayModel
from agents.roles.main_decision import MAIN
from agents.roles.pipeline import AgentServices
from agents.roles.registry import agent_names
from memory.probes import Fact, Recall, derive
from memory.views import VERBOSE, View
from sim.world.world import World

SAMPLE_EVERY = 5  # probe every fifth decision step of each driver

QA = Prompt(
    agent="qa", version="qa-v1",
    system=("You read a truck driver's memory view and answer one question about it. Answer "
            "from the view only, as JSON with one string field `answer`."),
    schema=obj({"answer": STR}, ["answer"]),
)


@dataclass
class Sample:
    """One probed decision step: its facts, what each agent was shown, and whether each fact
    was stated (in `facts` order)."""

    driver: str
    step: int
    t: float
    facts: list[Fact]
    texts: dict[str, str] = field(default_factory=dict)
    stated: list[bool] = field(default_factory=list)
    main_messages: list[dict] | None = None


class ProbeRecorder:
    """A call hook: probes every `every`-th step of each driver (no random draw)."""

    def __init__(self, world: World, services: AgentServices, every: int = SAMPLE_EVERY,
                 keep_texts: bool = True) -> None:
        self.world, self.services, self.every = world, services, every
        self.keep_texts = keep_texts
        self.agents = set(agent_names())
        self.recall = Recall()
        self.samples: dict[tuple[str, int], Sample] = {}
        # what compact lines save on the sampled steps: each view's tokens printed verbose
        # minus printed compact (zero for views already verbose)
        self.compact_saved = 0

    def __call__(self, ctx: CallContext, prompt: Prompt, view: Renderable | str,
                 inputs: dict | None) -> None:
        if prompt.agent not in self.agents or ctx.step % self.every:
            return  # a compressor's call, or a step not sampled
        key = (ctx.driver_id, ctx.step)
        s = self.samples.get(key)
        if s is None:  # the step's first agent: the memory has refreshed, nothing acted yet
            market, now = self.world.market, ctx.t
            facts = derive(self.services.memories[ctx.driver_id],
                           lambda cid: market.check_take(cid, now) is None)
            s = self.samples[key] = Sample(ctx.driver_id, ctx.step, ctx.t, facts)
        body = view if isinstance(view, str) else view.render()
        if isinstance(view, View) and view.renderer.brief:
            count = self.services.counter
            self.compact_saved += count(replace(view, renderer=VERBOSE).render()) - count(body)
        s.texts[prompt.agent] = body + inputs_text(inputs)
        if prompt.agent == MAIN.agent:
            s.main_messages = prompt.messages(body, inputs)
        if len(s.texts) == len(self.agents):
            s.stated = self.recall.add(s.facts, s.texts)
            if not self.keep_texts:
                s.texts, s.main_messages = {}, None

    def summary(self) -> dict:
        n = max(len(self.samples), 1)
        return {**self.recall.summary(), "sampled_steps": len(self.samples),
                "compact_saved_per_step": round(self.compact_saved / n, 2)}


# -- a model reading the views ------------------------------------------------------------
def build_qa_model(base_url: str | None, model: str, cache: Path | None,
                   replay: bool = False, timeout_s: float = 120.0) -> LanguageModel:
    """An OpenAI-compatible model behind record/replay (replay needs only the cache)."""
    inner = None
    if not replay:
        if base_url is None:
            raise ValueError("a model needs --base-url (or --llm-replay with a cache)")
        client = openai.OpenAI(base_url=base_url, api_key="sk-no-key", timeout=timeout_s,
                               max_retries=0)
        inner = OpenAIModel(client, model)
    if cache is None:
        if inner is None:
            raise ValueError("replay needs a cache file")
        return inner
    return RecordReplayModel(inner, cache, replay, model)


def normalise_answer(x: object) -> str:
    s = str(x).strip().strip(".`\"' ").lower()
    try:
        return f"{float(s):g}"
    except ValueError:
        return s


def _ask(model: LanguageModel, prompt: Prompt, messages: list[dict],
         max_tokens: int) -> dict | None:
    try:
        c = model.complete(messages, schema=prompt.schema, schema_name=prompt.agent,
                           max_tokens=max_tokens, temperature=0.0)
        out = json.loads(c.text.strip().strip("`").removeprefix("json").strip())
    except (LLMError, ValueError):
        return None
    return out if isinstance(out, dict) else None


def decision_of(reply: dict | None) -> tuple[str, str] | None:
    """The main decision's gist: the action, and the cargo for a take (what agreement
    compares; wait minutes and reposition points are not)."""
    if reply is None or not isinstance(reply.get("action"), str):
        return None
    a = reply["action"]
    return (a, str(reply.get("cargo_id", "")) if a == "take_order" else "")


def pick(keys: Sequence[tuple[str, int]], n: int) -> list[tuple[str, int]]:
    """n keys spread evenly over the sorted keys (deterministic)."""
    keys = sorted(keys)
    if n >= len(keys):
        return keys
    return [keys[round(i * (len(keys) - 1) / max(n - 1, 1))] for i in range(n)]


QA_REPLY_TOKENS = 64  # an answer: one short JSON object
DECISION_REPLY_TOKENS = 96  # a main decision: an action, its cargo or place, a reason


def model_quality(samples: dict[str, dict[tuple[str, int], Sample]], model: LanguageModel,
                  steps: int, max_questions: int = 0, max_tokens: int | None = None) -> dict:
    """QA accuracy per mode over the same `steps` sampled steps, and the main decision's
    agreement between `bounded` and `compressed` views on those steps. `max_tokens` caps
    every reply (default: 64 for an answer, 96 for a decision): on a slow server a reply cut
    short counts as unanswered, which the report shows."""
    kept = {m: s for m, s in samples.items() if any(x.texts for x in s.values())}
    common = set.intersection(*({k for k, x in s.items() if x.texts}
                                for s in kept.values())) if kept else set()
    keys = pick(list(common), steps)
    qa: dict[str, dict] = {}
    for mode, by_key in kept.items():
        right = asked = unanswered = 0
        for k in keys:
            s = by_key[k]
            facts = s.facts[:max_questions] if max_questions else s.facts
            for f in facts:
                text = s.texts.get(f.agent, "")
                msgs = QA.messages(text + f"## question\n{f.question}\n")
                out = _ask(model, QA, msgs, max_tokens or QA_REPLY_TOKENS)
                asked += 1
                if out is None:
                    unanswered += 1
                    continue
                right += normalise_answer(out.get("answer", "")) == normalise_answer(f.answer)
        qa[mode] = {"accuracy": round(right / asked, 4) if asked else None,
                    "questions": asked, "unanswered": unanswered}
    agree = n = unanswered = 0
    if "bounded" in kept and "compressed" in kept:
        for k in keys:
            got = [decision_of(_ask(model, MAIN, kept[m][k].main_messages or [],
                                    max_tokens or DECISION_REPLY_TOKENS))
                   for m in ("bounded", "compressed")]
            n += 1
            if None in got:
                unanswered += 1
            agree += got[0] is not None and got[0] == got[1]
    return {"model": model.name, "steps": len(keys), "qa": qa,
            "decision_agreement": {"bounded_vs_compressed": round(agree / n, 4) if n else None,
                                   "steps": n, "unanswered": unanswered}}
