"""The grounding-model agent: one screenshot in, one parsed action out, mapped to the
device's own coordinate actions.

Each turn the model sees the screenshot of one device (the *current* one: the first device
of the task until the model switches), at the size its profile asks for, and answers in
its own format. The agent parses the reply (:mod:`.uitars`, :mod:`.qwen`), maps each point
back to the device screenshot's pixels with a
:class:`reefbench.environments.pointer.Scale` for the image actually sent, and turns it
into the device's call with :func:`reefbench.environments.pointer.to_calls`.
``switch(device=...)`` changes the current device: when the reply does nothing else, the
model is asked again at once with that device's screenshot (at most :data:`MAX_SWITCHES`
times a turn). Model output that cannot be read, or asks for something the device cannot
do, is the turn's ``invalid`` report with the reason, so the run's invalid-action
tolerance applies; calls read before the problem still run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reefbench.actions.spec import Action, ActionCall
from reefbench.agents.grounding_models.parsed import Control, Gesture, ModelAction, Parsed
from reefbench.agents.grounding_models.profiles import GroundingProfile, fit
from reefbench.agents.images import image_mime
from reefbench.agents.llm import DEFAULT_HISTORY, Conversation
from reefbench.agents.providers.base import ImagePart, Part, Provider, TextPart
from reefbench.environments.pointer import (
    Direction,
    PointerKind,
    PointerOp,
    Scale,
    first_device,
    png_size,
    resize_png,
    to_calls,
)
from reefbench.environments.root import ROOT
from reefbench.episodes.protocol import NO_ACTION, UNPARSABLE, AgentOutput, CallResult, Turn, Usage
from reefbench.errors import InvalidAction

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

MAX_SWITCHES = 2
SCREENSHOT = "screenshot"
DevicePoint = tuple[int, int]
_DIRECTIONS: dict[str, Direction] = {"up": "up", "down": "down", "left": "left", "right": "right"}
_KINDS: dict[str, PointerKind] = {"desktop": "desktop", "browser": "browser", "touch": "touch"}


@dataclass(frozen=True, slots=True)
class _View:
    """The screenshot of the current device as sent, and how to map points back."""

    device: str
    image: bytes
    scale: Scale


class GroundingAgent:
    """An open grounding model (UI-TARS, Qwen-VL) over any provider, usually an
    OpenAI-compatible server (``reef run --model openai-compatible/...@URL --grounding
    uitars``).

    Args:
        provider: The model.
        profile: Its output format and coordinate system (:data:`.profiles.PROFILES`).
        history: Earlier exchanges (screenshot and reply) repeated in each request.
        max_image_side: Send smaller screenshots: relative coordinates fit the image into
            this side; pixel coordinates cap its pixels (:meth:`GroundingProfile.model_size`).
        name: The agent's label (default: the model and the profile).
    """

    def __init__(
        self,
        provider: Provider,
        profile: GroundingProfile,
        *,
        history: int | None = DEFAULT_HISTORY,
        max_image_side: int | None = None,
        name: str | None = None,
    ) -> None:
        self.provider = provider
        self.profile = profile
        self.history = history
        self.max_image_side = max_image_side
        self.name = name or f"{provider.name} grounding:{profile.name}"
        self.devices: dict[str, PointerKind] = {}  # device -> pointer kind, in the task's order
        self.current: str | None = None
        self._instruction = ""
        self._descriptions: dict[str, str] = {}
        self._root: set[str] = set()
        self._pointer: dict[str, DevicePoint] = {}
        self._conversation: Conversation | None = None

    # ------------------------------------------------------------------ protocol
    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        self.devices = {
            env: kind
            for env, actions in action_spaces.items()
            if env != ROOT and (kind := pointer_kind(actions)) is not None
        }
        self.current = first_device(task, self.devices) if self.devices else None
        self._instruction = task.instruction
        self._descriptions = dict(descriptions)
        self._root = {a.name for a in action_spaces.get(ROOT, [])}
        self._pointer = {}
        self._conversation = Conversation(self.provider, "", history=self.history)

    def act(self, turn: Turn) -> AgentOutput:
        conversation = self._conversation
        if conversation is None:
            raise RuntimeError("act() called before reset(): the episode resets agents first")
        if self.current is None:
            return AgentOutput(invalid="no device of this task takes coordinates")
        notes = feedback(turn.previous)
        usage = Usage()
        text: list[str] = []
        for _ in range(MAX_SWITCHES + 1):
            view = self._view(turn.observations, self.current)
            if isinstance(view, str):
                return AgentOutput(message="\n".join(text), usage=usage, invalid=view)
            conversation.system = self._system(view)
            parts: list[Part] = [TextPart(n) for n in notes]
            parts += [TextPart(self._caption(turn.step, view)), ImagePart(view.image, "image/png")]
            reply = conversation.ask(parts)
            usage = usage + reply.usage
            text.append(reply.text)
            before = self.current
            calls, problem = self.calls(self.profile.parse(reply.text), view)
            if calls or problem is not None or self.current == before:
                return AgentOutput(
                    message="\n".join(text), calls=calls, usage=usage, invalid=problem
                )
            notes = [f"You switched to {self.current}."]
        return AgentOutput(
            message="\n".join(text),
            usage=usage,
            invalid=f"switched devices {MAX_SWITCHES + 1} times in one step without acting",
        )

    # ------------------------------------------------------------------ parts
    def calls(self, parsed: Parsed, view: _View) -> tuple[list[ActionCall], str | None]:
        """The calls of a parsed reply on ``view``'s device, and the first problem (a
        switch ends the reply: what follows it was aimed at a screen the model had not
        seen yet)."""
        calls: list[ActionCall] = []
        for action in parsed.actions:
            try:
                if isinstance(action, Control) and action.kind == "switch":
                    self._switch(action.text)
                    return calls, parsed.error
                calls += self._action(action, view)
            except InvalidAction as exc:
                return calls, str(exc)
        return calls, parsed.error

    def _action(self, action: ModelAction, view: _View) -> list[ActionCall]:
        if isinstance(action, Control):
            return self._control(action)
        kind = self.devices[view.device]
        op = self._op(action, view)
        if op.kind == "type" and op.text.endswith("\n"):
            # UI-TARS submits with a trailing newline: type, then press Enter.
            typed = PointerOp(kind="type", text=op.text.rstrip("\n"))
            enter = PointerOp(kind="key", keys=("enter",))
            ops = [typed, enter] if typed.text else [enter]
            return [call for o in ops for call in to_calls(view.device, kind, o)]
        if op.kind == "scroll" and kind == "desktop" and op.x is not None:
            # The desktop scrolls where the mouse is: bring it to the model's point first.
            move = PointerOp(kind="move", x=op.x, y=op.y)
            return [*to_calls(view.device, kind, move), *to_calls(view.device, kind, op)]
        return to_calls(view.device, kind, op)

    def _op(self, gesture: Gesture, view: _View) -> PointerOp:
        at = self._point(gesture.at, view)
        to = self._point(gesture.to, view)
        if gesture.kind == "drag" and at is None:
            at = self._pointer.get(view.device)
            if at is None:
                raise InvalidAction("a drag from the pointer needs the pointer placed first")
        if gesture.kind == "scroll" and at is None and self.devices[view.device] == "touch":
            width, height = view.scale.device  # a touch screen scrolls where it is swiped
            at = (width // 2, height // 2)
        if at is not None:
            self._pointer[view.device] = to or at
        direction = _DIRECTIONS.get(gesture.direction or "down")
        if direction is None:
            raise InvalidAction(f"direction {gesture.direction!r}: up, down, left or right")
        return PointerOp(
            kind=gesture.kind,
            x=None if at is None else at[0],
            y=None if at is None else at[1],
            to_x=None if to is None else to[0],
            to_y=None if to is None else to[1],
            text=gesture.text,
            keys=gesture.keys,
            direction=direction,
            amount=3 if gesture.amount is None else gesture.amount,
        )

    def _point(self, point: tuple[float, float] | None, view: _View) -> DevicePoint | None:
        if point is None:
            return None
        x, y = view.scale.to_device(point[0], point[1])
        return int(x), int(y)

    def _control(self, action: Control) -> list[ActionCall]:
        if action.kind == "finish":
            if action.text and "submit" in self._root:
                return [ActionCall(env=ROOT, name="submit", arguments={"answer": action.text})]
            return [ActionCall(env=ROOT, name="complete")]
        if action.kind == "infeasible":
            reason = action.text.strip() or "no reason given"
            return [ActionCall(env=ROOT, name="infeasible", arguments={"reason": reason})]
        if action.kind == "wait":
            return [ActionCall(env=ROOT, name="wait")] if "wait" in self._root else []
        kind = action.text.strip() or "information"
        return [ActionCall(env=ROOT, name="call_user", arguments={"kind": kind})]

    def _switch(self, device: str) -> None:
        if device not in self.devices:
            raise InvalidAction(
                f"switch: no device {device!r}; the devices are {', '.join(self.devices)}"
            )
        self.current = device

    def _view(self, observations: Mapping[str, Mapping[str, Any]], device: str) -> _View | str:
        shot = screenshot(observations.get(device, {}))
        if shot is None:
            return f"no screenshot of {device} in this step's observations"
        size = png_size(shot)
        model = self.profile.model_size(size, self.max_image_side)
        if self.profile.coordinates == "relative":
            sent = size if self.max_image_side is None else fit(size, self.max_image_side)
            image = resize_png(shot, sent)  # unchanged when the size is the same
            return _View(device, image, Scale.normalized(size, span=model[0]))
        image = resize_png(shot, model)
        return _View(device, image, Scale(device=size, model=model))

    def _system(self, view: _View) -> str:
        order = [view.device, *(d for d in self.devices if d != view.device)]
        listed = [(d, self.devices[d], self._descriptions.get(d, "")) for d in order]
        return self.profile.system_prompt(self._instruction, listed, view.scale.model)

    def _caption(self, step: int, view: _View) -> str:
        width, height = view.scale.model
        size = "" if self.profile.coordinates == "relative" else f", {width}x{height} pixels"
        return f"Step {step}. Screenshot of {view.device}{size}:"


def pointer_kind(actions: Sequence[Action]) -> PointerKind | None:
    """The pointer kind of a device from its action space: what its environment class
    declares (``Environment.pointer_kind``), else what its coordinate actions say."""
    for action in actions:
        declared = _KINDS.get(str(getattr(action.env_type, "pointer_kind", None)))
        if declared is not None:
            return declared
    names = {a.name for a in actions}
    if names & {"tap_at", "tap"}:
        return "touch"
    if "click_at" in names:
        return "desktop" if "drag" in names else "browser"
    return None


def screenshot(values: Mapping[str, Any]) -> bytes | None:
    """The PNG screenshot among one device's observations (``screenshot`` first)."""
    ordered = [values.get(SCREENSHOT), *values.values()]
    for value in ordered:
        if isinstance(value, bytes | bytearray) and image_mime(bytes(value)) == "image/png":
            return bytes(value)
    return None


def feedback(previous: Sequence[CallResult]) -> list[str]:
    """What the model hears about its last reply: whether each action worked (without
    the device's coordinates, which are not the model's), and why a reply was refused."""
    lines: list[str] = []
    for result in previous:
        if result.call.name in (NO_ACTION, UNPARSABLE):
            lines.append(f"Your previous reply was not accepted: {result.error}")
        elif result.status == "ok":
            lines.append(f"Your action {result.call.name} on {result.call.env} worked.")
        else:
            lines.append(
                f"Your action {result.call.name} on {result.call.env} {result.status}: "
                f"{result.error}"
            )
    return lines
