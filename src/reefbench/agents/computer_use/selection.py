"""Which runs play through a provider's native computer-use interface.

The rule (``--computer-use auto``, the default): a model runs natively when its provider
has a computer-use interface (the provider table's computer-use column) and either the run
uses the ``pixels`` action set (coordinates only, as those interfaces are) or the model's
name says it is a computer-use model (``openai/computer-use-preview``,
``google/gemini-2.5-computer-use-preview-10-2025``), which answer only through that
interface. ``on`` demands it (a provider without one is an error), ``off`` keeps function
tools.
"""

from __future__ import annotations

from typing import Literal

from reefbench.agents.providers.registry import ModelSpec, provider_info
from reefbench.errors import ConfigError

ComputerUseMode = Literal["auto", "on", "off"]
COMPUTER_USE_MODES: tuple[ComputerUseMode, ...] = ("auto", "on", "off")
PIXELS = "pixels"
MODEL_MARK = "computer-use"


def wants_computer_use(spec: ModelSpec, action_set: str, mode: str = "auto") -> bool:
    """Whether ``spec`` plays through its native computer-use interface.

    Raises:
        ConfigError: an unknown mode, or ``on`` for a provider without such an interface.
    """
    if mode not in COMPUTER_USE_MODES:
        raise ConfigError(f"computer use {mode!r}: choose one of {', '.join(COMPUTER_USE_MODES)}")
    info = provider_info(spec.provider)
    if mode == "off":
        return False
    if info.computer_use is None:
        if mode == "on":
            raise ConfigError(
                f"model '{spec}': the {info.name} provider has no native computer-use "
                "interface (providers with one: "
                f"{', '.join(_with_computer_use())})"
            )
        return False
    return mode == "on" or action_set == PIXELS or MODEL_MARK in spec.model


def _with_computer_use() -> list[str]:
    from reefbench.agents.providers.registry import TABLE

    return [i.name for i in TABLE if i.computer_use is not None]
