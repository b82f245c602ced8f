"""What the three native computer-use interfaces share: the requests a model makes, the
outcomes it is told, the safety-check policy, and the agent that turns them into an
episode's action calls.

Each provider module speaks its own wire format through its official SDK and hands the
agent provider-neutral :class:`Request` s in *model* coordinates; the agent maps them to
device pixels with the display's :class:`~reefbench.environments.pointer.Scale` and into
the device's own actions with :func:`~reefbench.environments.pointer.to_calls`. So an
episode played by a native agent has the same steps, checks and run files as any other:
only the agent differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol

from reefbench.actions.spec import Action, ActionCall, action
from reefbench.agents.computer_use.displays import (
    KIND_WORDS,
    Screen,
    find_devices,
    screen_for,
)
from reefbench.agents.llm import describe_result, episode_results
from reefbench.agents.providers.base import ToolSpec
from reefbench.environments.pointer import PointerKind, PointerOp, Scale, first_device, to_calls
from reefbench.environments.root import ROOT
from reefbench.episodes.protocol import NO_ACTION, AgentOutput, CallResult, Turn, Usage
from reefbench.errors import ConfigError, InvalidAction

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

SafetyPolicy = Literal["acknowledge", "refuse"]
SAFETY_POLICIES: tuple[SafetyPolicy, ...] = ("acknowledge", "refuse")
DEFAULT_SAFETY: SafetyPolicy = "acknowledge"
SWITCH = "switch_device"
# Rounds a reply may spend on requests the agent answers itself (a screenshot, a switch)
# before the turn gives up: bounds a model that only ever looks.
MAX_LOCAL_ROUNDS = 4
# The observation the model sees: the device's screenshot.
SCREENSHOT = "screenshot"


@dataclass(frozen=True, slots=True)
class SafetyCheck:
    """A provider's pending safety check on one computer call (OpenAI's
    ``pending_safety_checks``, Gemini's ``safety_decision``)."""

    id: str
    code: str
    message: str


RequestKind = Literal["pointer", "action", "switch", "look", "invalid"]


@dataclass(frozen=True, slots=True)
class Request:
    """One thing a model asked for, in its own coordinates.

    Attributes:
        call_id: The provider's id for the call (answered on that id).
        name: The provider's name for it (``left_click``, ``click_at``, ``complete``).
        kind: ``pointer`` (``ops`` on the current device), ``action`` (``call``: a root
            action or a device's own action such as the browser's ``goto``), ``switch``
            (to ``device``), ``look`` (answered with a screenshot, nothing runs), or
            ``invalid`` (``error`` says why).
        ops: Pointer ops in model coordinates.
        call: The action call of an ``action`` request (``env`` may be empty: the current
            device).
        device: The device a ``switch`` goes to.
        error: Why an ``invalid`` request cannot run.
        checks: Pending safety checks the provider attached.
        raw: The provider's own arguments, kept for the trajectory.
    """

    call_id: str
    name: str
    kind: RequestKind
    ops: tuple[PointerOp, ...] = ()
    call: ActionCall | None = None
    device: str | None = None
    error: str | None = None
    checks: tuple[SafetyCheck, ...] = ()
    raw: Any = None

    def label(self) -> str:
        """``name(arguments)``, for the agent's message in the trajectory."""
        return f"{self.name}({json.dumps(self.raw, default=str, sort_keys=True)})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a request did, told back to the model on its call id.

    Attributes:
        request: The request answered.
        ok: Whether it ran without an error.
        text: What happened, one line or a few.
        acknowledged: Safety checks acknowledged under the run's policy.
    """

    request: Request
    ok: bool
    text: str
    acknowledged: tuple[SafetyCheck, ...] = ()


@dataclass(slots=True)
class NativeReply:
    """A model's answer: its text, its requests in order, and the tokens used."""

    text: str
    requests: list[Request] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True, slots=True)
class Setup:
    """What a session needs to start: the system prompt and the function tools beside the
    native computer tool (``switch_device`` and the root actions)."""

    system: str
    tools: tuple[ToolSpec, ...]
    devices: Mapping[str, PointerKind]


class NativeSession(Protocol):
    """One episode's conversation with a provider's computer-use interface."""

    def send(self, outcomes: Sequence[Outcome], screen: Screen, note: str = "") -> NativeReply:
        """Answer the last reply's requests (the screenshot ``screen`` after them) and
        get the next reply; the first call has no outcomes and carries the task."""
        ...


class NativeInterface(Protocol):
    """A provider's computer-use interface: how it wants screenshots, and sessions."""

    name: str
    resize: bool
    """Whether screenshots are resized to the scale's model size (``False``: the model
    answers in normalised coordinates and sees the screenshot as it is)."""

    def scale(self, device: tuple[int, int]) -> Scale:
        """Model coordinates <-> a screenshot of this size, at the provider's preferred size."""
        ...

    def session(self, setup: Setup) -> NativeSession:
        """A fresh conversation for one episode."""
        ...


@action(name=SWITCH)
def switch_device(name: str) -> str:
    """Look at and act on another device; the screenshot that follows is of it.

    Args:
        name: The device, one of those the system prompt lists.
    """
    return name  # answered by the agent itself: no environment runs it


def switch_tool(devices: Mapping[str, PointerKind]) -> ToolSpec:
    """``switch_device(name)``: the documented way to move between displays."""
    return ToolSpec(
        SWITCH,
        f"Look at and act on another device (one of: {', '.join(devices)}); the next "
        "screenshot is of that device and your coordinates then refer to it.",
        switch_device,
    )


def system_prompt(task: Task, devices: Mapping[str, PointerKind], first: str) -> str:
    """The task, the devices (each its own screen), how to switch, and the turn rules."""
    listed = "\n".join(f"- {name}: {KIND_WORDS[kind]}" for name, kind in devices.items())
    return (
        "You operate a user's devices to carry out their task.\n\n"
        f"Task: {task.instruction}\n\n"
        "Devices (each is its own screen):\n"
        f"{listed}\n\n"
        f"You are looking at '{first}'. Call {SWITCH}(name) to look at another device; the "
        "screenshot that follows is of that device and your coordinates then refer to it. "
        "Coordinates always refer to the latest screenshot you were sent.\n"
        "When every part of the task is done, call complete. If the task asks for an "
        "answer, call submit(answer). If, after checking, what the task asks for does not "
        "exist or cannot be done on these devices, call infeasible(reason) instead of doing "
        "something else. call_user(kind) asks the user for what only they know "
        "(such as a password). The task also ends by itself as soon as all of it is done. "
        "An action that cannot run as written (an unknown action, arguments outside its "
        "schema) is invalid: its reason comes back to you, and by default the third "
        "invalid action in a row ends the task. An action that runs but fails, or that a "
        "device refuses, is not invalid: its result tells you why."
    )


def root_tools(actions: Sequence[Action]) -> tuple[ToolSpec, ...]:
    """The root actions (complete, submit, infeasible, call_user, wait) as ordinary
    function tools."""
    return tuple(ToolSpec(a.name, a.description, a) for a in actions)


@dataclass(slots=True)
class _Pending:
    request: Request
    calls: int = 0  # action calls it became (results to read next turn)
    local: Outcome | None = None


class ComputerUseAgent:
    """An agent that drives devices through a provider's native computer-use interface.

    Args:
        interface: The provider's interface (:mod:`.anthropic`, :mod:`.openai`,
            :mod:`.gemini`).
        safety: What to answer a pending safety check: ``acknowledge`` it (recorded in the
            trajectory, the action runs) or ``refuse`` (the action does not run and the turn
            is invalid output naming the check).
        name: The agent's label.
    """

    def __init__(
        self,
        interface: NativeInterface,
        *,
        safety: SafetyPolicy = DEFAULT_SAFETY,
        name: str | None = None,
    ) -> None:
        if safety not in SAFETY_POLICIES:
            raise ConfigError(
                f"safety-check policy {safety!r}: choose one of {', '.join(SAFETY_POLICIES)}"
            )
        self.interface = interface
        self.safety: SafetyPolicy = safety
        self.name = name or f"{interface.name} computer-use"
        self._session: NativeSession | None = None
        self._devices: dict[str, PointerKind] = {}
        self._current = ""
        self._screens: dict[str, bytes] = {}
        self._pending: list[_Pending] = []

    # ------------------------------------------------------------------ protocol
    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        self._devices = find_devices(action_spaces)
        if not self._devices:
            raise ConfigError(
                f"{self.name}: the task has no device with coordinate actions to drive"
            )
        self._current = first_device(task, self._devices)
        tools = (switch_tool(self._devices), *root_tools(action_spaces.get(ROOT, [])))
        setup = Setup(system_prompt(task, self._devices, self._current), tools, self._devices)
        self._session = self.interface.session(setup)
        self._screens = {}
        self._pending = []

    def act(self, turn: Turn) -> AgentOutput:
        if self._session is None:
            raise RuntimeError("act() called before reset(): the episode resets agents first")
        for device in self._devices:
            shot = turn.observations.get(device, {}).get(SCREENSHOT)
            if isinstance(shot, bytes | bytearray):
                self._screens[device] = bytes(shot)
        outcomes = self._outcomes(episode_results(turn.previous))
        note = _note(turn.previous)
        usage = Usage()
        lines: list[str] = []
        for round_ in range(MAX_LOCAL_ROUNDS):
            if round_:
                # The last reply asked only for what the agent answers itself: answer
                # exactly its requests now (and never again next turn).
                outcomes, note = self._outcomes([]), ""
            reply = self._session.send(outcomes, self._screen(), note)
            usage = usage + reply.usage
            if reply.text:
                lines.append(reply.text)
            calls, errors, answered_here, recorded = self._plan(reply.requests)
            lines += recorded
            if calls or errors or not answered_here:
                return AgentOutput(
                    message="\n".join(lines),
                    calls=calls,
                    usage=usage,
                    invalid="; ".join(errors) or None,
                )
        # The last reply's requests stay pending: the next turn answers them.
        return AgentOutput(
            message="\n".join(lines),
            usage=usage,
            invalid=f"{MAX_LOCAL_ROUNDS} replies in a row asked only for screenshots or switches",
        )

    # ------------------------------------------------------------------ internals
    def _screen(self) -> Screen:
        shot = self._screens.get(self._current)
        if shot is None:
            raise ConfigError(
                f"{self.name}: device '{self._current}' has no screenshot observation"
            )
        kind = self._devices[self._current]
        interface = self.interface
        return screen_for(self._current, kind, shot, interface.scale, resize=interface.resize)

    def _outcomes(self, results: Sequence[CallResult]) -> list[Outcome]:
        """Answers to every request of the last reply, each exactly once, in the reply's
        order (the providers refuse a result that answers no call of the previous turn,
        or one answered already); ``results`` are the episode's results of the action
        calls those requests became. Clears what is pending."""
        queue = list(results)
        outcomes: list[Outcome] = []
        for pending in self._pending:
            if pending.local is not None:
                outcomes.append(pending.local)
                continue
            mine, queue = queue[: pending.calls], queue[pending.calls :]
            acknowledged = pending.request.checks if self.safety == "acknowledge" else ()
            if len(mine) < pending.calls:
                text = "not executed: the step ended before this call"
                outcomes.append(Outcome(pending.request, False, text, acknowledged))
                continue
            ok = all(r.status == "ok" for r in mine)
            text = "; ".join(describe_result(r) for r in mine)
            outcomes.append(Outcome(pending.request, ok, text, acknowledged))
        self._pending = []
        return outcomes

    def _plan(
        self, requests: Sequence[Request]
    ) -> tuple[list[ActionCall], list[str], bool, list[str]]:
        """Action calls for a reply, its errors, whether the agent answered a request
        itself (a switch, a screenshot: pending until :meth:`_outcomes` sends it), and the
        lines recording what was asked (safety checks included)."""
        calls: list[ActionCall] = []
        errors: list[str] = []
        answered_here = False
        lines: list[str] = []
        switched = False
        for request in requests:
            lines.append(f"[{self._current}] {request.label()}")
            for check in request.checks:
                verdict = "acknowledged" if self.safety == "acknowledge" else "refused"
                lines.append(
                    f"safety check {check.id} ({check.code}): {check.message} -> {verdict}"
                )
            outcome, made = self._translate(request, switched)
            if request.kind == "switch" and outcome.ok:
                switched = True
            if outcome.ok and made is not None:
                calls += made
                self._pending.append(_Pending(request, calls=len(made)))
                continue
            self._pending.append(_Pending(request, local=outcome))
            if outcome.ok:
                answered_here = True
            else:
                errors.append(outcome.text)
        return calls, errors, answered_here, lines

    def _translate(
        self, request: Request, switched: bool
    ) -> tuple[Outcome, list[ActionCall] | None]:
        """The action calls a request becomes, or the outcome it gets right away."""
        if request.checks and self.safety == "refuse":
            codes = ", ".join(c.code for c in request.checks)
            return Outcome(request, False, f"refused by the safety-check policy ({codes})"), None
        if request.kind == "invalid":
            return Outcome(request, False, request.error or f"{request.name} cannot run"), None
        if request.kind == "switch":
            device = request.device or ""
            if device not in self._devices:
                known = ", ".join(self._devices)
                return Outcome(request, False, f"no device '{device}' (devices: {known})"), None
            if device not in self._screens:
                return Outcome(request, False, f"device '{device}' has no screenshot yet"), None
            self._current = device
            return Outcome(request, True, f"now looking at '{device}'"), None
        if request.kind == "look":
            return Outcome(request, True, f"screenshot of '{self._current}'"), None
        if switched and request.kind == "pointer":
            return Outcome(
                request,
                False,
                f"not executed: you switched devices in this reply; look at the new "
                f"screenshot of '{self._current}' before acting on it",
            ), None
        if request.kind == "action":
            assert request.call is not None
            env = request.call.env or self._current
            return Outcome(request, True, ""), [replace_env(request.call, env)]
        screen = self._screen()
        made: list[ActionCall] = []
        try:
            for op in request.ops:
                mapped = to_device(op, screen)
                if mapped.kind == "scroll" and screen.kind == "desktop" and mapped.x is not None:
                    # The desktop scrolls under the pointer: bring it to the model's point.
                    move = PointerOp("move", mapped.x, mapped.y)
                    made += to_calls(self._current, screen.kind, move)
                made += to_calls(self._current, screen.kind, mapped)
        except InvalidAction as exc:
            return Outcome(request, False, f"{request.name}: {exc}"), None
        return Outcome(request, True, ""), made


def replace_env(call: ActionCall, env: str) -> ActionCall:
    """The call sent to ``env``."""
    return (
        call if call.env == env else ActionCall(env=env, name=call.name, arguments=call.arguments)
    )


def to_device(op: PointerOp, screen: Screen) -> PointerOp:
    """An op in model coordinates as device pixels."""
    scale = screen.scale
    changes: dict[str, int] = {}
    if op.x is not None and op.y is not None:
        changes["x"], changes["y"] = scale.to_device(op.x, op.y)
    if op.to_x is not None and op.to_y is not None:
        changes["to_x"], changes["to_y"] = scale.to_device(op.to_x, op.to_y)
    return replace(op, **changes) if changes else op  # type: ignore[arg-type]


def _note(previous: Sequence[CallResult]) -> str:
    """What the episode refused last turn that answers no call of the model."""
    refused = [r.error for r in previous if r.call.name == NO_ACTION and r.error]
    if not refused:
        return ""
    return "Your previous reply was not accepted: " + "; ".join(refused)


NativeFactory = Callable[[], ComputerUseAgent]
