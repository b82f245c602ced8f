"""``DesktopEnvironment``: the desktop device with the agent's desktop action space."""

from __future__ import annotations

from reefbench.envs.desktop.actions import (
    ACTION_SET_ACTIONS,
    ACTION_SET_OBSERVATIONS,
    ACTION_SET_REMOVES,
    DESKTOP_ACTIONS,
    OBSERVATIONS,
)
from reefbench.envs.desktop.device import SET_DESCRIPTIONS, DesktopDevice


class DesktopEnvironment(DesktopDevice):
    """A sandboxed desktop session with Set-of-Marks observations (arguments: see
    :class:`~reefbench.envs.desktop.device.DesktopDevice`)."""

    default_action_space = DESKTOP_ACTIONS
    default_observation_space = OBSERVATIONS
    action_set_actions = ACTION_SET_ACTIONS
    action_set_removes = ACTION_SET_REMOVES
    action_set_observations = ACTION_SET_OBSERVATIONS
    action_set_descriptions = SET_DESCRIPTIONS
