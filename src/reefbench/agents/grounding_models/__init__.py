"""Open grounding models (UI-TARS, Qwen-VL) over OpenAI-compatible servers: a profile
says how the model writes actions and coordinates, a parser reads its replies, and
:class:`GroundingAgent` plays them on the task's devices through their coordinate
actions (:mod:`reefbench.environments.pointer`).

Not to be confused with :mod:`reefbench.environments.grounding`, which maps element *names* to mark
numbers for the ``a11y`` action set and the oracle.
"""

from reefbench.agents.grounding_models.agent import GroundingAgent, pointer_kind
from reefbench.agents.grounding_models.parsed import Control, Gesture, ModelAction, Parsed
from reefbench.agents.grounding_models.profiles import (
    PROFILES,
    GroundingProfile,
    get_profile,
    profiles_help,
    smart_resize,
)
from reefbench.agents.grounding_models.qwen import parse_qwen
from reefbench.agents.grounding_models.uitars import parse_uitars

__all__ = [
    "PROFILES",
    "Control",
    "Gesture",
    "GroundingAgent",
    "GroundingProfile",
    "ModelAction",
    "Parsed",
    "get_profile",
    "parse_qwen",
    "parse_uitars",
    "pointer_kind",
    "profiles_help",
    "smart_resize",
]
