"""``BrowserEnvironment``: the browser device with the agent's browser action space."""

from __future__ import annotations

from typing import Any

from reefbench.envs.browser.actions import (
    ACTION_SET_ACTIONS,
    ACTION_SET_OBSERVATIONS,
    ACTION_SET_REMOVES,
    BROWSER_ACTIONS,
    OBSERVATIONS,
    accessibility,
    choose_file,
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.computer is not None:  # a page's file chooser opens the computer's files
            self.add_action(choose_file)
