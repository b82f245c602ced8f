"""A native model's "wait" lets time pass: Gemini's ``wait_5_seconds`` waited nothing, so
a command still running was shown unfinished again at once and the step was lost."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.responses import ResponseComputerToolCall

from reefbench.actions.spec import ActionCall
from reefbench.agents.providers.anthropic.computer_use import (
    computer_request as anthropic_request,
)
from reefbench.agents.providers.gemini.computer_use import computer_request as gemini_request
from reefbench.agents.providers.openai.computer_use import WAIT_SECONDS
from reefbench.agents.providers.openai.computer_use import computer_request as openai_request
from reefbench.environments import root
from reefbench.environments.root import MAX_WAIT_SECONDS, RootEnvironment
from reefbench.errors import InvalidAction


def _wait(seconds: float) -> ActionCall:
    return ActionCall(env="root", name="wait", arguments={"seconds": seconds})


def test_geminis_wait_5_seconds_waits_five_seconds() -> None:
    request = gemini_request("c1", "wait_5_seconds", {})
    assert request.kind == "action" and request.call == _wait(5)


@pytest.mark.parametrize(("duration", "seconds"), [(3, 3), (0.5, 0.5), (90, MAX_WAIT_SECONDS)])
def test_anthropics_wait_waits_its_duration(duration: float, seconds: float) -> None:
    request = anthropic_request("c1", {"action": "wait", "duration": duration})
    assert request.kind == "action" and request.call == _wait(seconds)


@pytest.mark.parametrize("duration", [-1, 101, "soon", True])
def test_anthropics_wait_with_a_bad_duration_is_invalid(duration: Any) -> None:
    request = anthropic_request("c1", {"action": "wait", "duration": duration})
    assert request.kind == "invalid" and "duration" in (request.error or "")


def test_openais_wait_waits_as_its_guide_does() -> None:
    item = ResponseComputerToolCall.model_validate(
        {
            "id": "cu_1",
            "call_id": "call_1",
            "type": "computer_call",
            "status": "completed",
            "pending_safety_checks": [],
            "action": {"type": "wait"},
        }
    )
    request = openai_request(item)
    assert request.kind == "action" and request.call == _wait(WAIT_SECONDS) and WAIT_SECONDS > 0


def test_root_wait_lets_the_time_asked_for_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr(root.time, "sleep", slept.append)
    env = RootEnvironment()
    assert env.step("wait", {"seconds": 2.5}) == "waited 2.5 s"
    assert env.step("wait") == "waited"  # look again at once: nothing slept
    assert slept == [2.5]


@pytest.mark.parametrize("seconds", [-1, MAX_WAIT_SECONDS + 1])
def test_root_wait_outside_its_schema_is_invalid(
    seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(root.time, "sleep", pytest.fail)
    schema = root.wait.parameters_schema
    assert schema["properties"]["seconds"]["maximum"] == MAX_WAIT_SECONDS
    with pytest.raises(InvalidAction, match="seconds"):
        RootEnvironment().step("wait", {"seconds": seconds})
