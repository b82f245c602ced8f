"""The remote-environment wire format: JSON only, versioned, validated on both ends.

Nothing here carries code. Agent actions travel as an action *name* plus JSON arguments
(validated again by the server's own action space); setup steps and evaluators travel as
an import reference (``package.module:name``) plus JSON arguments and are resolved on the
server only among modules it allows. Binary observations (screenshots) travel as base64
with their MIME type.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

PROTOCOL_VERSION = 1
TOKEN_HEADER = "authorization"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionInfo(_Message):
    name: str
    description: str
    parameters: dict[str, Any]


class EnvironmentInfo(_Message):
    protocol: int = PROTOCOL_VERSION
    name: str
    description: str
    action_space: list[ActionInfo]
    observation_space: list[str]
    # What each action set adds to the space (reefbench.actions.sets); absent: nothing.
    action_sets: dict[str, list[ActionInfo]] = Field(default_factory=dict)
    # What each set leaves out of the space, and the observations it swaps in, by name.
    action_set_removes: dict[str, list[str]] = Field(default_factory=dict)
    action_set_observations: dict[str, list[str]] = Field(default_factory=dict)


class ResetRequest(_Message):
    """A reset for a new episode under the run's action set."""

    action_set: str = Field(default="marks", min_length=1, max_length=40)


class StepRequest(_Message):
    action: str = Field(min_length=1, max_length=200)
    arguments: dict[str, Any] = Field(default_factory=dict)


class StepReply(_Message):
    status: Literal["ok", "failed", "invalid"]
    result: Any = None
    error: str | None = None


class RefRequest(_Message):
    """A setup step or an evaluator: an import reference and its JSON arguments."""

    ref: str = Field(min_length=3, max_length=300)
    arguments: dict[str, Any] = Field(default_factory=dict)


class EvaluateReply(_Message):
    success: bool
    message: str = ""
    progress: float | None = None


class Observation(_Message):
    kind: Literal["json", "bytes"]
    value: Any = None
    mime: str | None = None
    base64: str | None = None


class ObserveReply(_Message):
    observations: dict[str, Observation]


def encode_observation(value: Any) -> Observation:
    if isinstance(value, bytes | bytearray):
        mime = "image/png" if bytes(value[:4]) == b"\x89PNG" else "application/octet-stream"
        return Observation(kind="bytes", mime=mime, base64=base64.b64encode(value).decode())
    return Observation(kind="json", value=value)


def decode_observation(observation: Observation) -> Any:
    if observation.kind == "bytes":
        return base64.b64decode(observation.base64 or "")
    return observation.value
