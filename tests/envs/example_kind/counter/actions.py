"""What agents may do with the counter, what they see, and how tasks check it.

``env: CounterDevice`` is the typed extension point: the framework checks it when the action
runs, so routing ``press`` to another kind of environment fails with one clear error.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from counter.device import CounterDevice
from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.errors import ActionFailed


@action
def press(times: Annotated[int, Field(ge=1, le=100)], env: CounterDevice) -> str:
    """Press the counter's button.

    Args:
        times: How many presses.
    """
    env.count += times
    return f"the display shows {env.count}"


@action
def clear(env: CounterDevice) -> str:
    """Set the counter back to zero (it refuses when already at zero)."""
    if env.count == 0:
        raise ActionFailed("the counter is already at 0")
    env.count = 0
    return "cleared"


@action
def display(env: CounterDevice) -> str:
    """The number on the display (the observation)."""
    return str(env.count)


def _count_keys(**_: Any) -> list[str]:
    """The one piece of state a counter has."""
    return ["count:"]


@evaluator(governs=_count_keys)
def count_is(value: int, env: CounterDevice) -> EvalResult:
    """The display shows ``value``.

    Args:
        value: The expected count.
    """
    ok = env.count == value
    return EvalResult(success=ok, message=f"the display shows {env.count}, wanted {value}")


COUNTER_ACTIONS = (press, clear)
OBSERVATIONS = (display,)
