"""The agent protocol: what an episode hands an agent and what it expects back.

Core vocabulary (tasks, templates and episodes speak it), so it lives beside them and not in
:mod:`reefbench.agents`, which holds the agents that implement it.

An agent never touches an environment. It receives observations and the results of its
previous calls, and returns a message plus :class:`ActionCall` s naming a target
environment, an action and JSON arguments; the episode validates and routes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from reefbench.actions.spec import Action, ActionCall

if TYPE_CHECKING:
    from reefbench.environments.contract import Environment
    from reefbench.tasks.task import Task


class Usage(BaseModel):
    """Model tokens used; ``cached_tokens`` is the part of ``prompt_tokens`` served from cache."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
        )


NO_USAGE = Usage()  # shared default: agents without a model report no tokens


class AgentOutput(BaseModel):
    """An agent's answer for one turn.

    ``invalid`` reports model output the agent could not turn into calls (bad JSON, a
    malformed tool call): the episode records it as an invalid action, counts it against
    its tolerance and shows the text to the agent next turn. Parsable ``calls`` of the same
    turn still run afterwards if the episode goes on.
    """

    message: str = ""
    calls: list[ActionCall] = Field(default_factory=list)
    usage: Usage = NO_USAGE
    invalid: str | None = None


CallStatus = Literal["ok", "failed", "invalid"]
# Call names of the invalid records an episode writes for a turn without a usable call.
NO_ACTION = "<no action>"
UNPARSABLE = "<unparsable output>"


@dataclass(slots=True)
class CallResult:
    """What happened to one :class:`ActionCall`; fed back to the agent next turn."""

    call: ActionCall
    status: CallStatus
    result: Any = None
    error: str | None = None


@dataclass(slots=True)
class Turn:
    """Everything an agent sees at the start of a turn."""

    step: int
    observations: dict[str, dict[str, Any]]
    previous: list[CallResult] = field(default_factory=list)
    step_limit: int | None = None
    """The episode's step budget (``step`` of ``step_limit``); ``None``: not told."""


@runtime_checkable
class Agent(Protocol):
    """Anything with ``reset`` and ``act`` is an agent."""

    name: str

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        """Start a new episode of ``task``; ``action_spaces`` maps environment -> actions."""

    def act(self, turn: Turn) -> AgentOutput:
        """Decide the next action calls."""


@runtime_checkable
class PrivilegedAgent(Protocol):
    """An agent that plays stored solutions and may read the environments' observations
    directly: the oracle and the gates' scripted agents, which ground element names to the
    current mark numbers (:mod:`reefbench.environments.grounding`). The episode attaches its
    environments before :meth:`Agent.reset`; an agent under evaluation never has this.

    Optionally, ``observes = False``: the agent reads nothing from :attr:`Turn.observations`
    (it grounds each call in a fresh observation of the one device it acts on), so the
    episode skips the per-turn observation of every device — the gates' agents, for speed.
    It is not a member of the protocol: a privileged agent written before it (without the
    attribute) stays privileged and observes.
    """

    def attach(self, envs: Mapping[str, Environment]) -> None:
        """The episode's environments by name (the root included), until the next call."""
