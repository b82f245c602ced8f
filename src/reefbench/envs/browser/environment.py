"""``BrowserEnvironment``: the browser device with the agent's browser action space."""

from __future__ import annotations

from reefbench.envs.browser.actions import (
    ACTION_SET_ACTIONS,
    ACTION_SET_OBSERVATIONS,
    ACTION_SET_REMOVES,
    BROWSER_ACTIONS,
    OBSERVATIONS,
    accessibility,
)
from reefbench.envs.browser.device import SET_DESCRIPTIONS, BrowserDevice


class BrowserEnvironment(BrowserDevice):
    """Chromium with tabs, Set-of-Marks and an accessibility tree (arguments: see
    :class:`~reefbench.envs.browser.device.BrowserDevice`)."""

    default_action_space = BROWSER_ACTIONS
    default_observation_space = OBSERVATIONS
    action_set_actions = ACTION_SET_ACTIONS
    action_set_removes = ACTION_SET_REMOVES
    action_set_observations = ACTION_SET_OBSERVATIONS
    action_set_descriptions = SET_DESCRIPTIONS
    tree_observations = (accessibility,)
