"""``BrowserEnvironment``: the browser device with the agent's browser action space."""

from __future__ import annotations

from reefbench.envs.browser.actions import (
    ACTION_SET_ACTIONS,
    BROWSER_ACTIONS,
    OBSERVATIONS,
    accessibility,
)
from reefbench.envs.browser.device import BrowserDevice


class BrowserEnvironment(BrowserDevice):
    """Chromium with tabs, Set-of-Marks and an accessibility tree (arguments: see
    :class:`~reefbench.envs.browser.device.BrowserDevice`)."""

    default_action_space = BROWSER_ACTIONS
    default_observation_space = OBSERVATIONS
    action_set_actions = ACTION_SET_ACTIONS
    tree_observations = (accessibility,)
