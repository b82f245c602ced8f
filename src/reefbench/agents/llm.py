"""Model-backed roles: a conversation with a history window, observations as content
parts, real action results fed back, and model output parsed into action calls.

A *role* is one model with one system prompt. The single agent is one acting role; the
multi-agent policies (:mod:`reefbench.agents.policies`) compose planning and acting roles.

Feedback is honest: every call's real status, result and error go back to the model that
made it. In native tool-calling mode each tool call is answered on its own id (as every
provider requires); in JSON mode the results are listed as text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reefbench.actions.spec import ActionCall
from reefbench.agents.images import downscale, image_mime
from reefbench.agents.providers.base import (
    ImagePart,
    Message,
    Part,
    Provider,
    ProviderReply,
    TextPart,
    ToolCall,
    ToolResultPart,
    ToolSpec,
)
from reefbench.agents.tools import SKIP, Toolbox
from reefbench.episodes.protocol import NO_ACTION, UNPARSABLE, CallResult, Usage
from reefbench.errors import ConfigError

Mode = Literal["native", "json"]
MODES: tuple[Mode, ...] = ("native", "json")
# The whole episode: every earlier reasoning text, call and result (CRAB kept two turns,
# and a model could not tell which parts of a long task it had done). ``--history N``
# still keeps only the last N exchanges.
DEFAULT_HISTORY: int | None = None
# Screenshots a request carries, the newest ones: Anthropic's computer-use reference loop
# keeps the 3 most recent (``only_n_most_recent_images=3``); older ones become a note.
DEFAULT_HISTORY_SCREENSHOTS = 3
# Exchanges at the end of the history whose results are repeated whole; earlier results
# are clipped to RESULT_CHARS_EARLIER (what the model acted on next is in its own reply).
RECENT_EXCHANGES = 2
MAX_RESULT_CHARS = 4000
RESULT_CHARS_EARLIER = 600
# Which parts of a user message are which device's observation: device -> part positions.
ObservationParts = dict[str, list[int]]


# ------------------------------------------------------------------ conversation
class Conversation:
    """A system prompt, the episode's earlier exchanges, and the provider to ask.

    Args:
        provider: The model.
        system: System prompt.
        tools: Tools offered natively (empty for planners and JSON mode).
        history: How many earlier exchanges (user message + reply) each request repeats;
            ``None`` (the default): all of them, so the model reads its whole episode:
            each earlier reasoning text, call and result (results older than the last
            :data:`RECENT_EXCHANGES` exchanges clipped to :data:`RESULT_CHARS_EARLIER`
            characters), each device's latest observation, and the newest screenshots.
        history_images: Keep screenshots of earlier exchanges; ``False`` replaces them with
            a short note to save tokens.
        screenshots: At most this many screenshots per request, the newest (the new
            message's first); older ones become a note. ``None``: no cap.
        supersede: Replace a device's observation in an earlier exchange by a one-line
            note when a later message of the request carries that device again (see
            :mod:`reefbench.agents.observation`), so a request shows each device once.
        join_text: Send each run of adjacent text parts of a user message as one part
            (the same text, fewer part wrappers; :func:`joined`).
    """

    def __init__(
        self,
        provider: Provider,
        system: str,
        tools: Sequence[ToolSpec] = (),
        *,
        history: int | None = DEFAULT_HISTORY,
        history_images: bool = True,
        screenshots: int | None = DEFAULT_HISTORY_SCREENSHOTS,
        supersede: bool = False,
        join_text: bool = False,
    ) -> None:
        if history is not None and history < 0:
            raise ConfigError(f"history must be 0 or more turns, not {history}")
        if screenshots is not None and screenshots < 0:
            raise ConfigError(f"screenshots must be 0 or more, not {screenshots}")
        self.provider = provider
        self.system = system
        self.tools = list(tools)
        self.history = history
        self.history_images = history_images
        self.screenshots = screenshots
        self.supersede = supersede
        self.join_text = join_text
        self.exchanges: list[tuple[Message, Message]] = []
        self._carried: list[ObservationParts] = []  # per exchange: device -> part indices

    def ask(self, parts: list[Part], carried: ObservationParts | None = None) -> ProviderReply:
        """One request: the window, then ``parts``. ``carried`` says which of ``parts``
        are which device's observation (:func:`observation_parts` with ``index``)."""
        user = Message("user", parts)
        messages = [*self.window(set(carried or {})), user]
        messages[0] = _detach_results(messages[0])
        if self.screenshots is not None:
            messages = _newest_images(messages, self.screenshots)
        if self.join_text:
            messages = [joined(m) for m in messages]
        reply = self.provider.complete(self.system, messages, self.tools)
        self.exchanges.append((user, reply.as_message()))
        self._carried.append(dict(carried or {}))
        if self.history is not None:
            keep = max(self.history, 1)
            del self.exchanges[:-keep]
            del self._carried[:-keep]
        return reply

    def window(self, later: set[str] | None = None) -> list[Message]:
        """The earlier exchanges a request repeats; ``later`` names the devices the new
        message carries (their earlier observations are superseded)."""
        count = len(self.exchanges) if self.history is None else self.history
        count = min(count, len(self.exchanges))
        if not count:
            return []
        seen = set(later or ())
        out: list[Message] = []
        pairs = list(zip(self.exchanges[-count:], self._carried[-count:], strict=True))
        for age, ((user, assistant), carried) in enumerate(reversed(pairs)):
            if self.supersede:
                user = _superseded(user, carried, seen)
                seen |= set(carried)
            if age >= RECENT_EXCHANGES:
                user = _clipped_results(user)
            out = [user if self.history_images else _without_images(user), assistant, *out]
        return out


def _clipped_results(message: Message) -> Message:
    """``message`` with long tool results (native mode) and result lists (JSON mode)
    clipped to :data:`RESULT_CHARS_EARLIER` characters: an earlier exchange is kept
    compact."""
    parts: list[Part] = []
    changed = False
    for part in message.parts:
        if isinstance(part, ToolResultPart) and len(part.content) > RESULT_CHARS_EARLIER:
            part = ToolResultPart(
                part.call_id, part.name, _clip_earlier(part.content), part.is_error
            )
            changed = True
        elif (
            isinstance(part, TextPart)
            and part.text.startswith(RESULTS_HEADINGS)
            and len(part.text) > RESULT_CHARS_EARLIER
        ):
            part = TextPart(_clip_earlier(part.text))
            changed = True
        parts.append(part)
    return Message(message.role, parts, message.native) if changed else message


def _clip_earlier(text: str) -> str:
    more = len(text) - RESULT_CHARS_EARLIER
    return f"{text[:RESULT_CHARS_EARLIER]}... ({more} more characters, shown at the time)"


def _newest_images(messages: list[Message], keep: int) -> list[Message]:
    """``messages`` with only the newest ``keep`` images; older ones become a note."""
    total = sum(isinstance(p, ImagePart) for m in messages for p in m.parts)
    drop = total - keep
    if drop <= 0:
        return messages
    out: list[Message] = []
    for message in messages:
        if drop <= 0 or not any(isinstance(p, ImagePart) for p in message.parts):
            out.append(message)
            continue
        parts: list[Part] = []
        for part in message.parts:
            if isinstance(part, ImagePart) and drop > 0:
                parts.append(TextPart("(earlier screenshot omitted)"))
                drop -= 1
            else:
                parts.append(part)
        out.append(Message(message.role, parts, message.native))
    return out


def _superseded(message: Message, carried: ObservationParts, later: set[str]) -> Message:
    """``message`` with the observation parts of devices in ``later`` replaced by a note."""
    gone = {i: env for env in carried if env in later for i in carried[env]}
    if not gone:
        return message
    parts: list[Part] = []
    for i, part in enumerate(message.parts):
        env = gone.get(i)
        if env is None:
            parts.append(part)
        elif i == min(carried[env]):
            parts.append(TextPart(f"[{env}] (observation superseded by a later one)"))
    return Message(message.role, parts, message.native)


def _detach_results(message: Message) -> Message:
    """Tool results whose call fell out of the window become plain text (APIs reject
    results that answer no call in the request)."""
    if message.role != "user" or not any(isinstance(p, ToolResultPart) for p in message.parts):
        return message
    lines = [
        f"Result of your earlier call {p.name}: {p.content}"
        for p in message.parts
        if isinstance(p, ToolResultPart)
    ]
    rest = [p for p in message.parts if not isinstance(p, ToolResultPart)]
    return Message("user", [TextPart("\n".join(lines)), *rest])


def joined(message: Message) -> Message:
    """``message`` with each run of adjacent text parts as one part, lines joined.

    The same text in fewer parts: every part costs its own wrapper in a request (about
    seven tokens in Chat Completions' JSON), and a step's labels, element lists and notes
    made some 15 text parts a request. The conversation keeps the parts apart (a device's
    observation is superseded part by part); only what is sent is joined. A reply goes
    back as it came."""
    if message.role != "user":
        return message
    parts: list[Part] = []
    for part in message.parts:
        previous = parts[-1] if parts else None
        if isinstance(part, TextPart) and isinstance(previous, TextPart):
            parts[-1] = TextPart(f"{previous.text}\n{part.text}")
        else:
            parts.append(part)
    if len(parts) == len(message.parts):
        return message
    return Message(message.role, parts, message.native)


def _without_images(message: Message) -> Message:
    parts: list[Part] = [
        TextPart("(earlier screenshot omitted)") if isinstance(p, ImagePart) else p
        for p in message.parts
    ]
    return Message(message.role, parts, message.native)


# How result lists in text begin (JSON mode, the planners' "results of the last step").
RESULTS_HEADINGS = ("Results of your previous actions:", "Results of ")


# ------------------------------------------------------------------ observations
def observation_parts(
    observations: Mapping[str, Mapping[str, Any]],
    *,
    max_image_side: int | None = None,
    index: ObservationParts | None = None,
    offset: int = 0,
) -> list[Part]:
    """Observations as content: text as text, image bytes as images with their MIME type.

    ``index``, when given, is filled with each device's part positions (plus ``offset``,
    the parts that will precede these in the message), for :meth:`Conversation.ask`."""
    parts: list[Part] = []
    for env, values in observations.items():
        start = len(parts)
        for name, value in values.items():
            label = f"[{env}] {name}"
            if isinstance(value, bytes | bytearray):
                data = bytes(value)
                mime = image_mime(data)
                if mime is None:
                    parts.append(TextPart(f"{label}: <{len(data)} bytes of binary data>"))
                    continue
                if max_image_side is not None:
                    data, mime = downscale(data, mime, max_image_side)
                parts += [TextPart(f"{label}:"), ImagePart(data, mime)]
            elif isinstance(value, str):
                parts.append(TextPart(f"{label}:\n{value}"))
            else:
                parts.append(TextPart(f"{label}:\n{json.dumps(value, default=_jsonable)}"))
        if index is not None:
            index[env] = list(range(offset + start, offset + len(parts)))
    return parts


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    return str(value)


def describe_result(result: CallResult) -> str:
    """One line (or a few) saying what a call did: ``laptop.read_file(...) -> ok: ...``."""
    call = result.call
    if call.name in (NO_ACTION, UNPARSABLE):
        return f"your reply was not accepted: {result.error}"
    arguments = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    head = f"{call.env}.{call.name}({arguments})"
    if result.status == "ok":
        body = "" if result.result is None else str(result.result)
        return f"{head} -> ok" + (f": {_clip(body)}" if body else "")
    return f"{head} -> {result.status}: {_clip(result.error or '')}"


def results_text(results: Sequence[CallResult], header: str = "Results of the last step:") -> str:
    if not results:
        return ""
    return "\n".join([header, *(f"{i}. {describe_result(r)}" for i, r in enumerate(results, 1))])


def _clip(text: str) -> str:
    if len(text) <= MAX_RESULT_CHARS:
        return text
    return text[:MAX_RESULT_CHARS] + f"... ({len(text) - MAX_RESULT_CHARS} more characters)"


def episode_results(previous: Sequence[CallResult]) -> list[CallResult]:
    """The results of calls an agent sent (without the episode's records of bad turns)."""
    return [r for r in previous if r.call.name not in (NO_ACTION, UNPARSABLE)]


# ------------------------------------------------------------------ parsing model output
_CODE_BLOCK = re.compile(r"```(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def parse_json_actions(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """JSON-in-text actions: every fenced code block (or the whole reply if it is one
    JSON object) holding ``{"name": ..., "arguments": {...}}``; returns actions and errors."""
    blocks = _CODE_BLOCK.findall(text)
    if not blocks:
        stripped = text.strip()
        if not stripped.startswith("{"):
            return [], []
        blocks = [stripped]
    actions: list[dict[str, Any]] = []
    errors: list[str] = []
    for number, block in enumerate(blocks, 1):
        try:
            value = json.loads(block)
        except json.JSONDecodeError as exc:
            errors.append(f"code block {number} is not valid JSON ({exc})")
            continue
        if (
            not isinstance(value, dict)
            or not isinstance(value.get("name"), str)
            or not isinstance(value.get("arguments", {}), dict)
        ):
            errors.append(
                f'code block {number} must be {{"name": "<tool name>", "arguments": {{...}}}}'
            )
            continue
        actions.append({"name": value["name"], "arguments": dict(value.get("arguments", {}))})
    return actions, errors


# ------------------------------------------------------------------ acting role
@dataclass(slots=True)
class _Pending:
    """A tool call of the last reply and how its result will be found next turn."""

    call: ToolCall
    local: str | None = None  # answered by the agent itself (skip, parse error)
    is_error: bool = False


@dataclass(slots=True)
class RoleOutput:
    text: str
    calls: list[ActionCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    skipped: bool = False
    usage: Usage = field(default_factory=Usage)


class ActingRole:
    """A model that answers with action calls, natively or as JSON in text.

    Each turn: the results of its previous calls (``feed``) plus whatever content the
    policy adds, one request, and the reply parsed into action calls. Problems with a call
    (unknown tool, malformed arguments) are collected as errors, which the policy reports
    as invalid output; the model is told about them on the call's own id next turn.
    """

    def __init__(
        self,
        provider: Provider,
        system: str,
        toolbox: Toolbox,
        *,
        mode: Mode = "native",
        history: int | None = DEFAULT_HISTORY,
        history_images: bool = True,
        screenshots: int | None = DEFAULT_HISTORY_SCREENSHOTS,
        supersede: bool = False,
        join_text: bool = False,
    ) -> None:
        self.toolbox = toolbox
        self.mode = mode
        tools = toolbox.specs if mode == "native" else ()
        self.conversation = Conversation(
            provider,
            system,
            tools,
            history=history,
            history_images=history_images,
            screenshots=screenshots,
            supersede=supersede,
            join_text=join_text,
        )
        self._pending: list[_Pending] = []
        self._loose: list[str] = []  # problems of the last reply tied to no call

    @property
    def expects(self) -> int:
        """How many results of the episode this role waits for (its calls last turn)."""
        return sum(1 for p in self._pending if p.local is None)

    def feed(self, results: Sequence[CallResult], notes: Sequence[str] = ()) -> list[Part]:
        """Content answering the previous turn: results of this role's calls, in order."""
        queue = list(results)
        parts: list[Part] = []
        lines: list[str] = []
        for number, pending in enumerate(self._pending, 1):
            call = pending.call
            if pending.local is not None:
                content, is_error = pending.local, pending.is_error
            elif queue:
                result = queue.pop(0)
                content = describe_result(result)
                is_error = result.status != "ok"
            else:
                content, is_error = "not executed: the step ended before this call", True
            if self.mode == "native":
                parts.append(ToolResultPart(call.id, call.name, content, is_error))
            else:
                lines.append(f"{number}. {call.name}: {content}")
        self._pending = []
        if lines:
            parts.append(TextPart("Results of your previous actions:\n" + "\n".join(lines)))
        if self._loose:
            problems = "\n".join(f"- {e}" for e in self._loose)
            parts.append(TextPart(f"Your previous reply could not be fully read:\n{problems}"))
            self._loose = []
        parts += [TextPart(note) for note in notes]
        return parts

    def act(self, parts: list[Part], carried: ObservationParts | None = None) -> RoleOutput:
        reply = self.conversation.ask(parts, carried)
        out = RoleOutput(text=reply.text, usage=reply.usage)
        if self.mode == "native":
            calls = reply.tool_calls
        else:
            actions, errors = parse_json_actions(reply.text)
            out.errors += errors
            self._loose += errors
            calls = [
                ToolCall(f"json-{i}", a["name"], a["arguments"]) for i, a in enumerate(actions)
            ]
        for call in calls:
            if call.error is not None:
                problem = f"tool call {call.name or '?'} could not be read: {call.error}"
                out.errors.append(problem)
                self._pending.append(_Pending(call, local=problem, is_error=True))
            elif call.name in self.toolbox.extra:
                out.skipped = out.skipped or call.name == SKIP
                self._pending.append(_Pending(call, local=f"{call.name}: done"))
            else:
                decoded = self.toolbox.decode(call.name, call.arguments)
                if isinstance(decoded, str):
                    out.errors.append(decoded)
                    self._pending.append(_Pending(call, local=decoded, is_error=True))
                else:
                    out.calls.append(decoded)
                    self._pending.append(_Pending(call))
        return out


class PlanningRole:
    """A model that answers in prose (a planner): no tools, just the conversation."""

    def __init__(
        self,
        provider: Provider,
        system: str,
        *,
        history: int | None = DEFAULT_HISTORY,
        history_images: bool = True,
        screenshots: int | None = DEFAULT_HISTORY_SCREENSHOTS,
        supersede: bool = False,
        join_text: bool = False,
    ) -> None:
        self.conversation = Conversation(
            provider,
            system,
            history=history,
            history_images=history_images,
            screenshots=screenshots,
            supersede=supersede,
            join_text=join_text,
        )

    def act(self, parts: list[Part], carried: ObservationParts | None = None) -> ProviderReply:
        return self.conversation.ask(parts, carried)
