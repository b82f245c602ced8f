"""Native computer-use agents: each provider's own interface, through its official SDK.

* Anthropic's ``computer`` tool (:mod:`.anthropic`), OpenAI's ``computer_use_preview`` tool in
  the Responses API (:mod:`.openai`) and Gemini's computer use (:mod:`.gemini`).
* :class:`ComputerUseAgent` (:mod:`.base`) is the agent every interface plays through:
  one device is shown at a time (``switch_device(name)`` moves to another), screenshots
  are scaled for the model and its coordinates mapped back with
  :class:`reefbench.environments.pointer.Scale`, and its actions become the devices' own coordinate
  actions through :func:`reefbench.environments.pointer.to_calls`.

Which runs use them: :func:`wants_computer_use` (the rule ``reef run`` applies).
"""

from reefbench.agents.computer_use.base import (
    DEFAULT_SAFETY,
    SAFETY_POLICIES,
    SWITCH,
    ComputerUseAgent,
    NativeInterface,
    NativeReply,
    Outcome,
    Request,
    SafetyCheck,
    SafetyPolicy,
)
from reefbench.agents.computer_use.displays import Screen, find_devices, pointer_kind
from reefbench.agents.computer_use.selection import COMPUTER_USE_MODES, wants_computer_use

__all__ = [
    "COMPUTER_USE_MODES",
    "DEFAULT_SAFETY",
    "SAFETY_POLICIES",
    "SWITCH",
    "ComputerUseAgent",
    "NativeInterface",
    "NativeReply",
    "Outcome",
    "Request",
    "SafetyCheck",
    "SafetyPolicy",
    "Screen",
    "find_devices",
    "pointer_kind",
    "wants_computer_use",
]
