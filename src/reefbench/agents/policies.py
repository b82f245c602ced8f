"""Agent systems over a model (CRAB §6.1, App. B): single agent, multi-agent by
functionality, multi-agent by environment.

Each system is itself an :class:`~reefbench.agents.Agent` (``reset``/``act``) composed of
model roles; the tokens of all roles are summed into the turn's usage, and output of any
role that cannot be read becomes the turn's ``invalid`` report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar

from reefbench.actions.spec import Action
from reefbench.agents.descriptions import environments_text
from reefbench.agents.llm import (
    DEFAULT_HISTORY,
    DEFAULT_HISTORY_SCREENSHOTS,
    ActingRole,
    Mode,
    ObservationParts,
    PlanningRole,
    episode_results,
    observation_parts,
    results_text,
)
from reefbench.agents.observation import DEFAULT_OBSERVE, Observer, get_observation_policy
from reefbench.agents.prompts import Prompts, turn_rules
from reefbench.agents.providers.base import Part, Provider, TextPart
from reefbench.agents.shared_parameters import shared_text
from reefbench.agents.tools import SKIP_TOOL, Toolbox
from reefbench.environments.root import ROOT
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE
from reefbench.episodes.protocol import NO_ACTION, AgentOutput, CallResult, Turn, Usage
from reefbench.errors import ConfigError

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

POLICIES = ("single", "by-func", "by-env")
# ``$action_descriptions`` of a native tool-calling role under ``prompt_tools="none"``.
TOOLS_SENT = "(each one is sent with this request as a tool definition)"
_RoleT = TypeVar("_RoleT")


@dataclass(frozen=True)
class ModelSettings:
    """How a policy talks to its model.

    Attributes:
        mode: ``native`` tool calling, or ``json`` actions in text (models without tools).
        history: Earlier exchanges repeated in each request; ``None`` (the default):
            the whole episode, compactly (:class:`~reefbench.agents.llm.Conversation`).
            CRAB kept 2.
        history_images: Keep screenshots in those earlier exchanges.
        screenshots: At most this many screenshots per request, the newest (3, as
            Anthropic's computer-use reference loop); ``None``: no cap.
        max_image_side: Downscale screenshots so their longer side fits (needs Pillow).
        prompts: The prompt templates (defaults: package data).
        observe: The observation policy (:mod:`reefbench.agents.observation`): which
            devices' observations each request carries.
        invalid_tolerance: The run's invalid-action tolerance, which the prompt states
            (the episode enforces it).
        prompt_tools: How a native tool-calling role's system prompt lists the tools:
            ``none`` (a note that they come as definitions: every name, parameter and
            description is in the definitions sent with each request, so a list in the
            prompt repeated ~130 tokens of names a request), ``names`` (by environment)
            or ``full`` (every description again, as before). JSON mode always lists
            them in full: it has no other description of the tools.
        environments: How prompts listing several environments describe them:
            ``shared`` (a sentence several descriptions share once, on a line naming
            them: :func:`~reefbench.agents.descriptions.environments_text`) or ``each``
            (every description whole, as prompts were before; the token bench's
            ``before``).
        join_text: Send adjacent text parts of a request's message as one part (the same
            text; each part costs a wrapper): :func:`~reefbench.agents.llm.joined`.
            ``False`` sends every part apart, as requests were before.
    """

    mode: Mode = "native"
    history: int | None = DEFAULT_HISTORY
    history_images: bool = True
    screenshots: int | None = DEFAULT_HISTORY_SCREENSHOTS
    max_image_side: int | None = None
    prompts: Prompts = field(default_factory=Prompts.default)
    observe: str = DEFAULT_OBSERVE
    invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE
    prompt_tools: Literal["none", "names", "full"] = "none"
    environments: Literal["shared", "each"] = "shared"
    join_text: bool = True

    def __post_init__(self) -> None:
        get_observation_policy(self.observe)  # an unknown name fails when configured

    @property
    def json_mode(self) -> bool:
        return self.mode == "json"

    @property
    def supersede(self) -> bool:
        return get_observation_policy(self.observe).supersede

    @property
    def shares_parameters(self) -> bool:
        """Whether a tool-calling role's definitions leave out the parameter facts its
        prompt states once (:mod:`reefbench.agents.shared_parameters`): in native mode,
        unless the prompt repeats every description (``prompt_tools="full"``)."""
        return not self.json_mode and self.prompt_tools != "full"

    def toolbox(self, action_spaces: Mapping[str, Sequence[Action]]) -> Toolbox:
        """The tools of a role that acts in every environment of ``action_spaces``."""
        return Toolbox(action_spaces, shared=self.shares_parameters)

    def tool_list(self, toolbox: Toolbox) -> str:
        """The ``$action_descriptions`` of a role that calls ``toolbox``'s tools."""
        if self.json_mode or self.prompt_tools == "full":
            return toolbox.describe()
        listed = toolbox.index() if self.prompt_tools == "names" else TOOLS_SENT
        return f"{listed}\n{shared_text()}" if toolbox.shared else listed

    def environments_text(self, descriptions: Mapping[str, str]) -> str:
        """The ``$env_description`` of a role that sees several environments."""
        if self.environments == "each":
            return "\n".join(f"- {n}: {' '.join(t.split())}" for n, t in descriptions.items())
        return environments_text(descriptions)

    def turn_rules(self, step_limit: int | None = None) -> str:
        """The turn rules the role prompts state (``$turn_rules``), with the episode's
        step budget when given."""
        return turn_rules(self.prompts, self.invalid_tolerance, self.observe, step_limit)

    def observer(self) -> Observer:
        """A fresh observer for one role and episode."""
        return Observer(get_observation_policy(self.observe), self.history)


def _no_action_notes(previous: Sequence[CallResult]) -> list[str]:
    return [
        f"Your previous reply was not accepted: {r.error}"
        for r in previous
        if r.call.name == NO_ACTION
    ]


def _invalid(errors: Sequence[str]) -> str | None:
    return "; ".join(errors) if errors else None


def _step(turn: Turn) -> TextPart:
    budget = "" if turn.step_limit is None else f" of {turn.step_limit}"
    return TextPart(f"Step {turn.step}{budget}. Current observations:")


def _observe(
    observer: Observer,
    turn: Turn,
    parts: list[Part],
    max_image_side: int | None,
    only: str | None = None,
) -> ObservationParts:
    """Append what the observation policy sends this step (observations, then one note
    per device left out) to ``parts``; returns where each device's observation is.
    ``only`` restricts to one environment (a sub-agent's)."""
    observations = turn.observations
    previous = turn.previous
    if only is not None:
        observations = {only: observations[only]} if only in observations else {}
        previous = [r for r in previous if r.call.env == only]
    chosen = observer.select(turn.step, observations, previous)
    index: ObservationParts = {}
    parts += observation_parts(
        chosen.carried, max_image_side=max_image_side, index=index, offset=len(parts)
    )
    parts += [TextPart(note) for note in chosen.notes]
    return index


class SingleAgent:
    """One model sees everything and calls actions in every environment."""

    def __init__(
        self, provider: Provider, settings: ModelSettings | None = None, name: str | None = None
    ) -> None:
        self.provider = provider
        self.settings = settings or ModelSettings()
        self.name = name or f"{provider.name} single"
        self._role: ActingRole | None = None
        self._observer = self.settings.observer()

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        s = self.settings
        toolbox = s.toolbox(action_spaces)
        system = s.prompts.render(
            "single",
            s.json_mode,
            task_description=task.instruction,
            env_description=s.environments_text(descriptions),
            action_descriptions=s.tool_list(toolbox),
            turn_rules=s.turn_rules(task.step_limit),
        )
        self._role = ActingRole(
            self.provider,
            system,
            toolbox,
            mode=s.mode,
            history=s.history,
            history_images=s.history_images,
            screenshots=s.screenshots,
            supersede=s.supersede,
            join_text=s.join_text,
        )
        self._observer = s.observer()

    def act(self, turn: Turn) -> AgentOutput:
        role = _ready(self._role)
        parts = role.feed(episode_results(turn.previous), _no_action_notes(turn.previous))
        parts.append(_step(turn))
        carried = _observe(self._observer, turn, parts, self.settings.max_image_side)
        out = role.act(parts, carried)
        return AgentOutput(
            message=out.text, calls=out.calls, usage=out.usage, invalid=_invalid(out.errors)
        )


class ByFunctionAgent:
    """A planner that sees the observations and writes instructions, and a tool agent
    that turns them into calls without seeing the environments (CRAB's Multi-Func)."""

    def __init__(
        self, provider: Provider, settings: ModelSettings | None = None, name: str | None = None
    ) -> None:
        self.provider = provider
        self.settings = settings or ModelSettings()
        self.name = name or f"{provider.name} by-func"
        self._planner: PlanningRole | None = None
        self._tool: ActingRole | None = None
        self._observer = self.settings.observer()

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        s = self.settings
        toolbox = s.toolbox(action_spaces)
        actions = toolbox.describe()
        planner = s.prompts.render(
            "planner_by_func",
            task_description=task.instruction,
            env_description=s.environments_text(descriptions),
            action_descriptions=actions,
            turn_rules=s.turn_rules(task.step_limit),
        )
        tool = s.prompts.render("tool_agent", s.json_mode, action_descriptions=s.tool_list(toolbox))
        self._planner = PlanningRole(
            self.provider,
            planner,
            history=s.history,
            history_images=s.history_images,
            screenshots=s.screenshots,
            supersede=s.supersede,
            join_text=s.join_text,
        )
        self._tool = ActingRole(
            self.provider, tool, toolbox, mode=s.mode, history=s.history, join_text=s.join_text
        )
        self._observer = s.observer()

    def act(self, turn: Turn) -> AgentOutput:
        planner, tool = _ready(self._planner), _ready(self._tool)
        parts: list[Part] = []
        if turn.previous:
            parts.append(TextPart(results_text(turn.previous)))
        parts.append(_step(turn))
        carried = _observe(self._observer, turn, parts, self.settings.max_image_side)
        plan = planner.act(parts, carried)
        instruction = tool.feed(episode_results(turn.previous), _no_action_notes(turn.previous))
        instruction.append(TextPart(f"Instruction:\n{plan.text}"))
        out = tool.act(instruction)
        return AgentOutput(
            message=f"[planner] {plan.text}\n[tool agent] {out.text}".strip(),
            calls=out.calls,
            usage=plan.usage + out.usage,
            invalid=_invalid([f"tool agent: {e}" for e in out.errors]),
        )


class ByEnvironmentAgent:
    """A lead planner, one sub-agent per environment (its own actions and observations)
    and a root agent that finishes the task (CRAB's Multi-Env).

    Every sub-agent reads the lead's whole instruction and either acts in its environment
    or calls ``skip``; a sub-agent that answers with neither is taken to skip as well.
    Calls run in environment order with the root agent's last, so a step's device actions
    happen before the root agent completes the task.
    """

    def __init__(
        self, provider: Provider, settings: ModelSettings | None = None, name: str | None = None
    ) -> None:
        self.provider = provider
        self.settings = settings or ModelSettings()
        self.name = name or f"{provider.name} by-env"
        self._planner: PlanningRole | None = None
        self._roles: dict[str, ActingRole] = {}
        self._observers: dict[str | None, Observer] = {}

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        s = self.settings
        self._planner = PlanningRole(
            self.provider,
            s.prompts.render(
                "planner_by_env",
                task_description=task.instruction,
                env_description=s.environments_text(descriptions),
                turn_rules=s.turn_rules(task.step_limit),
            ),
            history=s.history,
            history_images=s.history_images,
            screenshots=s.screenshots,
            supersede=s.supersede,
            join_text=s.join_text,
        )
        self._observers = {None: s.observer()}
        self._roles = {}
        devices = [e for e, actions in action_spaces.items() if e != ROOT and actions]
        for env in [*devices, ROOT] if ROOT in action_spaces else devices:
            toolbox = Toolbox({env: action_spaces[env]}, qualify=False, extra=[SKIP_TOOL])
            values = {
                "task_description": task.instruction,
                "action_descriptions": toolbox.describe(),
            }
            if env == ROOT:
                system = s.prompts.render("root_agent", s.json_mode, **values)
            else:
                values |= {"environment": env, "env_description": descriptions.get(env, "")}
                system = s.prompts.render("sub_agent", s.json_mode, **values)
            self._roles[env] = ActingRole(
                self.provider,
                system,
                toolbox,
                mode=s.mode,
                history=s.history,
                history_images=s.history_images,
                screenshots=s.screenshots,
                supersede=s.supersede,
                join_text=s.join_text,
            )
            self._observers[env] = s.observer()

    def act(self, turn: Turn) -> AgentOutput:
        planner = _ready(self._planner)
        side = self.settings.max_image_side
        parts: list[Part] = []
        if turn.previous:
            parts.append(TextPart(results_text(turn.previous, "Results of your team's last step:")))
        parts.append(_step(turn))
        plan = planner.act(parts, _observe(self._observers[None], turn, parts, side))
        output = AgentOutput(message=f"[lead] {plan.text}", usage=plan.usage)
        usage: Usage = plan.usage
        errors: list[str] = []
        messages = [f"[lead] {plan.text}"]
        queue = episode_results(turn.previous)
        for env, role in self._roles.items():
            mine, queue = queue[: role.expects], queue[role.expects :]
            content = role.feed(mine)
            content.append(TextPart(f"Instruction from the lead agent:\n{plan.text}"))
            carried: ObservationParts = {}
            if env in turn.observations:
                content.append(TextPart(f"Current state of {env}:"))
                carried = _observe(self._observers[env], turn, content, side, only=env)
            out = role.act(content, carried)
            usage = usage + out.usage
            output.calls += out.calls
            errors += [f"{env} agent: {e}" for e in out.errors]
            if out.calls or out.errors:
                called = ", ".join(c.name for c in out.calls)
                messages.append(f"[{env}] {out.text or called}")
            else:
                messages.append(f"[{env}] skip")
        output.message = "\n".join(messages)
        output.usage = usage
        output.invalid = _invalid(errors)
        return output


def _ready(role: _RoleT | None) -> _RoleT:
    if role is None:
        raise RuntimeError("act() called before reset(): the episode resets agents first")
    return role


AgentFactory = Callable[[], SingleAgent | ByFunctionAgent | ByEnvironmentAgent]


def policy_factory(
    policy: str, provider: Provider, settings: ModelSettings | None = None
) -> AgentFactory:
    """A factory of fresh agents of ``policy`` (``single``, ``by-func``, ``by-env``)."""
    classes: dict[str, type[SingleAgent | ByFunctionAgent | ByEnvironmentAgent]] = {
        "single": SingleAgent,
        "by-func": ByFunctionAgent,
        "by-env": ByEnvironmentAgent,
    }
    if policy not in classes:
        raise ConfigError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
    cls = classes[policy]
    return lambda: cls(provider, settings)
