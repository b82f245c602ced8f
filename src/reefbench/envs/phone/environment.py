"""``PhoneEnvironment``: the phone device with CRAB's Android actions and its observations.

The device (:class:`~reefbench.envs.phone.device.PhoneDevice`) is Chromium in mobile
emulation showing the phone shell; this class gives it the touch action space it shares
with a real Android device (:mod:`reefbench.envs.ui.actions`), what each action set
changes in it, and the observations. It is the kind the registry names.
"""

from __future__ import annotations

from collections.abc import Sequence

from reefbench.actions.spec import Action
from reefbench.envs.phone.device import SET_DESCRIPTIONS, PhoneDevice
from reefbench.envs.ui.actions import (
    ACTION_SET_ACTIONS,
    ACTION_SET_OBSERVATIONS,
    ACTION_SET_REMOVES,
    TOUCH_ACTIONS,
    touch_observations,
)


class PhoneEnvironment(PhoneDevice):
    """The phone (arguments: see :class:`~reefbench.envs.phone.device.PhoneDevice`)."""

    default_action_space = TOUCH_ACTIONS
    action_set_actions = ACTION_SET_ACTIONS
    action_set_removes = ACTION_SET_REMOVES
    action_set_observations = ACTION_SET_OBSERVATIONS
    action_set_descriptions = SET_DESCRIPTIONS

    @classmethod
    def observations(cls, observe_xml: bool) -> Sequence[Action]:
        return touch_observations(observe_xml)
