"""What a model agent is sent per step: prompt tokens and image bytes by observation
policy and action set, on a fixed set of reef-v1 tasks of the suite's typical length.

Each task is played once per action set by the oracle on the real devices (all of the
suite's environments, as in ``reef run``). At every step the oracle's turn is also handed
to one single agent per observation policy, whose provider records the request and
answers with the oracle's own calls, so every shadow agent sees exactly the results,
history and observations an LLM making those moves would. The request is built by the
real request builder (``to_openai_messages`` and the OpenAI tool schemas, what
``--model openai/...`` and ``openai-compatible/...`` send).

Counting:

* text tokens: the JSON of messages (images left out) and tool definitions as the
  official SDK writes it into the request body (:func:`as_sent`), tokenised with
  ``o200k_base`` (GPT-4o's encoding; ``bpe-openai`` ships it, so no download);
* image tokens: OpenAI's published formula for ``detail: high`` (fit in 2048x2048, shortest
  side 768, 170 per 512-px tile + 85), and Anthropic's (long side at most 1568, about
  1.15 MP, ``w*h/750``) as ``anthropic_image_tokens``;
* image bytes: the PNG bytes the request carries (before base64).

Figures, one JSON object per line (``{"metric", "value", "unit", ...}``):

``prompt_tokens_per_step``   mean text + image tokens of one request, per policy and set
``image_bytes_per_step``     mean PNG bytes of one request
``images_per_step``          mean number of images of one request
``text_tokens_per_step``     the text part alone (system prompt, tools, messages)
``tool_tokens_per_step``     the tool definitions alone (the same in every task and step)
``prompt_tokens_per_step_from_4``  the mean from step 4 on, once the history window is
                             full: what each step of a longer episode costs
``prompt_tokens_ratio``      a policy's tokens per step over ``before``'s (what agents sent
                             before observation policies: the issue's target for the
                             default policy is at most 0.40) and over ``all``'s
``prompt_tokens_ratio_steps_1_to_3``, ``prompt_tokens_ratio_from_4``  the same ratio over
                             the first three steps (every device's first screenshot is
                             still in the window) and over the rest

``observe`` names the policy; ``before`` is ``all`` with every tool description repeated
in the system prompt and every text part of a message sent apart, i.e. the request of
the code before policies. Its tool definitions
are frozen (``bench/data/agent_tokens_before_tools.json``, by action set and tool name: the
definitions as sent before they were compacted), and so are the notes of its environment
descriptions (``bench/data/agent_tokens_before_environments.json``: per environment, the
note of today and the note it replaces, as they were before the devices' shared sentences
were said once; read whole, one line per environment), so the target stays relative to
what was sent then; a tool missing there (a task's extra action) is sent as today.

Tasks: per platform, the first ``--per-platform`` (2) by id whose reference solution is
within 3 calls of the suite's median (reef-v1: 23.5, so 20 to 27 calls; ``--calls LOW HIGH``
chooses another band, ``--tasks`` names tasks).

Usage: ``python bench/agent_tokens.py [--tasks ID ...] [--calls LOW HIGH]
[--per-platform N] [--action-sets marks ...]`` (needs the desktop, browser and phone
stacks; about a minute per action set).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import math
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reefbench import Episode, Task
from reefbench.actions.sets import ACTION_SETS
from reefbench.actions.spec import Action
from reefbench.agents import ModelSettings, OracleAgent, SingleAgent
from reefbench.agents.observation import OBSERVATION_POLICIES
from reefbench.agents.providers import Message, ProviderReply, ToolCall, ToolSpec
from reefbench.agents.providers.openai.chat import to_openai_messages
from reefbench.agents.tools import SEPARATOR
from reefbench.environments.contract import Environment
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.suites import get_suite

PLATFORMS = ("desktop", "phone", "browser", "cross")
# Tasks are drawn from the suite's typical length: its median reference length, give or
# take BAND calls (reef-v1: 20 to 27). The first steps of an episode carry every device's
# first screenshot and the later ones mostly one, so a set of short tasks would weigh those
# first steps as if episodes were a third of their length.
BAND = 3
# From this step on the history window is full: what every later step of a long episode costs.
LATE = 4
FROZEN_TOOLS = Path(__file__).parent / "data" / "agent_tokens_before_tools.json"
FROZEN_ENVIRONMENTS = Path(__file__).parent / "data" / "agent_tokens_before_environments.json"


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 3), "unit": unit, **extra}))


# ------------------------------------------------------------------ counting
def openai_image_tokens(width: int, height: int) -> int:
    """OpenAI's ``detail: high`` cost: fit 2048x2048, shortest side 768, 512-px tiles."""
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def anthropic_image_tokens(width: int, height: int) -> int:
    """Anthropic's cost: long side at most 1568 and about 1.15 MP, then ``w*h/750``."""
    scale = min(1.0, 1568 / max(width, height), math.sqrt(1_150_000 / (width * height)))
    return math.ceil(width * scale * height * scale / 750)


@dataclass
class Count:
    text_tokens: int = 0
    image_tokens: int = 0
    anthropic_image_tokens: int = 0
    image_bytes: int = 0
    images: int = 0
    tool_tokens: int = 0
    step: int = 0


def as_sent(value: Any) -> str:
    """``value`` as JSON the way the official SDK puts it in the request body: no spaces
    after separators, text not escaped to ASCII (``openai._utils._json.openapi_dumps``,
    httpx's defaults). ``json.dumps``'s own defaults add a space after every comma and
    colon: some 800 tokens more for the same tool list."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def count_request(payload: Mapping[str, Any], encoder: Any) -> Count:
    """Tokens and image bytes of one Chat Completions payload (messages + tools)."""
    from PIL import Image

    count = Count()
    messages = []
    for message in payload["messages"]:
        content = message.get("content")
        if isinstance(content, list):
            kept = []
            for part in content:
                if part.get("type") != "image_url":
                    kept.append(part)
                    continue
                data = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                with Image.open(io.BytesIO(data)) as image:
                    width, height = image.size
                count.images += 1
                count.image_bytes += len(data)
                count.image_tokens += openai_image_tokens(width, height)
                count.anthropic_image_tokens += anthropic_image_tokens(width, height)
            message = {**message, "content": kept}
        messages.append(message)
    count.tool_tokens = len(encoder.encode(as_sent(payload["tools"])))
    count.text_tokens = len(encoder.encode(as_sent(messages))) + count.tool_tokens
    return count


def mean_tokens(counts: Sequence[Count]) -> float:
    """Mean prompt tokens (text and OpenAI image tokens) of ``counts``' requests."""
    return statistics.fmean(c.text_tokens + c.image_tokens for c in counts)


# ------------------------------------------------------------------ shadow agents
BEFORE = "before"
# The default policy with the history of before issue 31 (the last two exchanges, every
# screenshot in them): what the whole-episode default (item 6) is compared with.
TWO_TURNS = "changed-history-2"


def variants() -> dict[str, ModelSettings]:
    """Every observation policy, ``before``: what agents sent before policies (every
    observation, history screenshots, every tool description repeated in the prompt and
    no parameter said once, text parts apart, two turns of history), and
    ``changed-history-2``: the default policy with the two-turn history of before."""
    return {
        BEFORE: ModelSettings(
            observe="all",
            prompt_tools="full",
            environments="each",
            join_text=False,
            history=2,
            screenshots=None,
        ),
        **{name: ModelSettings(observe=name) for name in OBSERVATION_POLICIES},
        TWO_TURNS: ModelSettings(history=2, screenshots=None),
    }


def frozen_tools() -> dict[str, dict[str, Any]]:
    """Action set -> tool name -> the OpenAI tool definition ``before`` sends."""
    frozen: dict[str, dict[str, Any]] = json.loads(FROZEN_TOOLS.read_text("utf-8"))
    return frozen


def frozen_environments() -> dict[str, list[tuple[str, str]]]:
    """Environment -> (today's note, the note ``before`` reads) pairs."""
    frozen: dict[str, list[list[str]]] = json.loads(FROZEN_ENVIRONMENTS.read_text("utf-8"))
    return {env: [(new, old) for new, old in pairs] for env, pairs in frozen.items()}


def described_before(descriptions: Mapping[str, str]) -> dict[str, str]:
    """``descriptions`` with today's notes put back as ``before`` had them. Notes, not
    whole descriptions, are frozen: a description has run-time parts (the browser names
    the services' URL and port)."""
    out = dict(descriptions)
    for env, pairs in frozen_environments().items():
        if env not in out:
            continue
        text = out[env]
        for new, old in pairs:
            text = text.replace(new, old)
        if text == out[env]:
            sys.exit(
                f"error: none of the frozen notes of {env!r} is in its description: "
                f"update {FROZEN_ENVIRONMENTS.name} (today's note, the note before) pairs"
            )
        out[env] = text
    return out


class Recorder:
    """A provider that keeps each request's payload and answers with the next calls.

    ``frozen`` (tool name -> definition) replaces today's definitions, for ``before``.
    """

    name = "bench/recorder"

    def __init__(self, frozen: Mapping[str, Any] | None = None) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.reply: list[ToolCall] = []
        self.frozen = frozen or {}

    def complete(
        self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()
    ) -> ProviderReply:
        self.payloads.append(
            {
                "messages": to_openai_messages(system, messages),
                "tools": [self.frozen.get(t.name) or t.schema("openai") for t in tools],
            }
        )
        return ProviderReply("", list(self.reply))


@dataclass
class Shadowed:
    """The oracle plays; one single agent per variant (:func:`variants`) is sent the same
    turns."""

    oracle: OracleAgent
    action_set: str
    recorders: dict[str, Recorder] = field(default_factory=dict)
    shadows: dict[str, SingleAgent] = field(default_factory=dict)
    name: str = "oracle+shadows"
    # A PrivilegedAgent (so the episode attaches the environments the oracle grounds its
    # calls in) that observes every turn: the shadows are sent those observations.
    # Without the attribute the episode took it for an ordinary agent and never attached
    # it: the oracle's first named call was invalid and episodes ended after 1-3 steps.
    observes: bool = True

    def attach(self, envs: Mapping[str, Environment]) -> None:
        self.oracle.attach(envs)

    def reset(
        self, task: Task, action_spaces: Mapping[str, list[Action]], descriptions: Mapping[str, str]
    ) -> None:
        self.oracle.reset(task, action_spaces, descriptions)
        before = frozen_tools()[self.action_set]
        before_descriptions = described_before(descriptions)
        for variant, settings in variants().items():
            self.recorders[variant] = Recorder(before if variant == BEFORE else None)
            self.shadows[variant] = SingleAgent(self.recorders[variant], settings)
            self.shadows[variant].reset(
                task, action_spaces, before_descriptions if variant == BEFORE else descriptions
            )

    def act(self, turn: Turn) -> AgentOutput:
        output = self.oracle.act(turn)
        calls = [
            ToolCall(f"call-{turn.step}-{i}", f"{c.env}{SEPARATOR}{c.name}", dict(c.arguments))
            for i, c in enumerate(output.calls)
        ]
        for observe, shadow in self.shadows.items():
            self.recorders[observe].reply = calls
            shadow.act(turn)
        return output


# ------------------------------------------------------------------ the run
def calls_band(tasks: Sequence[Task]) -> tuple[int, int]:
    """The reference lengths of a typical episode: the suite's median, plus or minus
    BAND calls."""
    middle = statistics.median(len(t.reference_solution) for t in tasks)
    return max(1, math.floor(middle) - BAND), math.ceil(middle) + BAND


def chosen_tasks(
    tasks: list[Task], ids: Sequence[str], per_platform: int, calls: tuple[int, int]
) -> list[Task]:
    """``ids`` if given; else, per platform, the first tasks (by id) whose reference
    solution has ``calls`` (low, high) calls."""
    if ids:
        by_id = {t.id: t for t in tasks}
        missing = [i for i in ids if i not in by_id]
        if missing:
            sys.exit(f"error: no task {', '.join(missing)} in reef-v1")
        return [by_id[i] for i in ids]
    low, high = calls
    out: list[Task] = []
    for platform in PLATFORMS:
        fitting = sorted(
            (
                t
                for t in tasks
                if t.metadata.platform == platform and low <= len(t.reference_solution) <= high
            ),
            key=lambda t: t.id,
        )
        out += fitting[:per_platform]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="*", default=[], help="reef-v1 task ids")
    parser.add_argument("--per-platform", type=int, default=2)
    parser.add_argument(
        "--calls",
        nargs=2,
        type=int,
        metavar=("LOW", "HIGH"),
        help="draw tasks with LOW to HIGH reference calls (default: the suite's median +-3)",
    )
    parser.add_argument(
        "--action-sets", nargs="*", default=list(ACTION_SETS), choices=list(ACTION_SETS)
    )
    args = parser.parse_args()
    import bpe_openai

    encoder = bpe_openai.get_encoding("o200k_base")
    suite = get_suite("v1")
    loaded = suite.load()
    low, high = args.calls or calls_band(loaded)
    tasks = chosen_tasks(loaded, args.tasks, args.per_platform, (low, high))
    if not tasks:
        sys.exit(f"error: no reef-v1 task has {low} to {high} reference calls")
    counts: dict[tuple[str, str], list[Count]] = {}
    envs = suite.make_environments()
    try:
        for action_set in args.action_sets:
            for task in tasks:
                agent = Shadowed(OracleAgent(), action_set)
                result = Episode(task, agent, envs, action_set=action_set).run()
                if not result.success:
                    print(
                        f"warning: {task.id} [{action_set}] ended {result.termination}: "
                        f"{result.error}",
                        file=sys.stderr,
                    )
                for observe, recorder in agent.recorders.items():
                    steps = [count_request(p, encoder) for p in recorder.payloads]
                    for number, count in enumerate(steps, 1):
                        count.step = number
                    counts.setdefault((action_set, observe), []).extend(steps)
                    emit(
                        "prompt_tokens_per_step",
                        statistics.fmean(c.text_tokens + c.image_tokens for c in steps),
                        "tokens",
                        task=task.id,
                        platform=task.metadata.platform,
                        action_set=action_set,
                        observe=observe,
                        steps=len(steps),
                    )
    finally:
        for env in envs.values():
            env.stop()
    for (action_set, observe), steps in counts.items():
        tags = {"action_set": action_set, "observe": observe, "tasks": len(tasks)}
        tokens = mean_tokens(steps)
        emit("prompt_tokens_per_step", tokens, "tokens", **tags, steps=len(steps))
        emit(
            "text_tokens_per_step", statistics.fmean(c.text_tokens for c in steps), "tokens", **tags
        )
        emit(
            "anthropic_prompt_tokens_per_step",
            statistics.fmean(c.text_tokens + c.anthropic_image_tokens for c in steps),
            "tokens",
            **tags,
        )
        emit(
            "image_bytes_per_step", statistics.fmean(c.image_bytes for c in steps), "bytes", **tags
        )
        emit("images_per_step", statistics.fmean(c.images for c in steps), "images", **tags)
        emit(
            "tool_tokens_per_step", statistics.fmean(c.tool_tokens for c in steps), "tokens", **tags
        )
        late = [c.text_tokens + c.image_tokens for c in steps if c.step >= LATE]
        if late:
            emit(f"prompt_tokens_per_step_from_{LATE}", statistics.fmean(late), "tokens", **tags)
        for peer in (BEFORE, "all"):
            base = counts[(action_set, peer)]
            emit(
                "prompt_tokens_ratio",
                tokens / mean_tokens(base),
                "ratio",
                **tags,
                peer=peer,
                target=0.4,
            )
        # The two parts of an episode apart: the first steps carry every device's first
        # screenshot, the later ones what changed.
        for name, early in ((f"steps_1_to_{LATE - 1}", True), (f"from_{LATE}", False)):
            mine = [c for c in steps if (c.step < LATE) == early]
            theirs = [c for c in counts[(action_set, BEFORE)] if (c.step < LATE) == early]
            if mine:
                ratio = mean_tokens(mine) / mean_tokens(theirs)
                emit(f"prompt_tokens_ratio_{name}", ratio, "ratio", **tags, peer=BEFORE)


if __name__ == "__main__":
    main()
