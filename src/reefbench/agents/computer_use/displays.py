"""The devices a computer-use model drives, each as its own display.

Native computer-use interfaces assume one screen. An episode may have several devices (a
desktop, a phone, a browser), so the agent shows the model one device at a time and offers
``switch_device(name)``; which devices exist comes from the action spaces (a device is any
environment with coordinate actions), not from the task, so the list never hints at which
devices matter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from reefbench.actions.spec import Action
from reefbench.environments.pointer import PointerKind, Scale, png_size, resize_png

# Coordinate actions that tell a device kind apart (emitted by
# reefbench.environments.pointer.to_calls).
_TOUCH = "tap_at"
_DESKTOP = ("click_at", "drag", "hotkey")
_BROWSER = ("click_at", "goto")

KIND_WORDS: dict[PointerKind, str] = {
    "desktop": "a Linux desktop (mouse and keyboard)",
    "browser": "a desktop web browser page (mouse and keyboard; no drags)",
    "touch": "a phone touch screen (a click is a tap, a drag is a swipe; keys: home, back, enter)",
}


def pointer_kind(actions: Sequence[Action]) -> PointerKind | None:
    """How a device with these actions is driven by coordinates, or ``None`` (not a
    screen: the root environment, the cloud services).

    The environment class declares it (``Environment.pointer_kind``), but an agent sees only
    actions; an action's ``env`` annotation names the class it runs in, and where that is a
    base class without the declaration the coordinate actions themselves tell the kinds apart.
    """
    for act in actions:
        declared = getattr(act.env_type, "pointer_kind", None)
        if declared is not None:
            return declared  # type: ignore[no-any-return]
    names = {a.name for a in actions}
    if _TOUCH in names:
        return "touch"
    if all(n in names for n in _DESKTOP):
        return "desktop"
    if all(n in names for n in _BROWSER):
        return "browser"
    return None


def find_devices(action_spaces: Mapping[str, Sequence[Action]]) -> dict[str, PointerKind]:
    """Environment name -> pointer kind, for every environment that is a screen."""
    found: dict[str, PointerKind] = {}
    for name, actions in action_spaces.items():
        kind = pointer_kind(actions)
        if kind is not None:
            found[name] = kind
    return found


ScaleRule = Callable[[tuple[int, int]], Scale]


@dataclass(frozen=True, slots=True)
class Screen:
    """One device's latest screenshot as the model sees it.

    Attributes:
        device: The environment's name.
        kind: How it is driven.
        png: The image sent to the model (already scaled).
        scale: Model coordinates <-> the device's screenshot pixels.
    """

    device: str
    kind: PointerKind
    png: bytes
    scale: Scale

    @property
    def size(self) -> tuple[int, int]:
        """The size of the image the model sees."""
        return png_size(self.png)


def screen_for(
    device: str, kind: PointerKind, screenshot: bytes, rule: ScaleRule, *, resize: bool = True
) -> Screen:
    """The screenshot scaled for the model by the provider's ``rule``.

    ``resize=False`` sends the screenshot as it is (models answering in normalised
    coordinates, whose scale does not depend on the image's size).
    """
    scale = rule(png_size(screenshot))
    png = resize_png(screenshot, scale.model) if resize else screenshot
    return Screen(device, kind, png, scale)
