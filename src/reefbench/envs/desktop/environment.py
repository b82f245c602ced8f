"""``DesktopEnvironment``: the desktop device with the agent's desktop action space."""

from __future__ import annotations

from reefbench.envs.desktop.actions import ACTION_SET_ACTIONS, DESKTOP_ACTIONS, OBSERVATIONS
from reefbench.envs.desktop.device import DesktopDevice


class DesktopEnvironment(DesktopDevice):
    """A sandboxed desktop session with Set-of-Marks observations (arguments: see
    :class:`~reefbench.envs.desktop.device.DesktopDevice`)."""

    default_action_space = DESKTOP_ACTIONS
    default_observation_space = OBSERVATIONS
    action_set_actions = ACTION_SET_ACTIONS
