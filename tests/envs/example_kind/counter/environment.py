"""The environment: the device with its action and observation spaces."""

from __future__ import annotations

from counter.actions import COUNTER_ACTIONS, OBSERVATIONS
from counter.device import CounterDevice


class CounterEnvironment(CounterDevice):
    """A tally counter agents press (arguments: see :class:`CounterDevice`)."""

    default_action_space = COUNTER_ACTIONS
    default_observation_space = OBSERVATIONS
