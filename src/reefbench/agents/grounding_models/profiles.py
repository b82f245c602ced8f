"""Grounding profiles: an output format plus a coordinate system, chosen by name.

The name is the model family as its model cards call it (``--grounding uitars``):

========== ================= ==========================================================
name       output format     coordinates
========== ================= ==========================================================
uitars     UI-TARS text      pixels of the image sent, resized as Qwen2.5-VL does
                             (UI-TARS-1.5)
uitars-1.0 UI-TARS text      0..1000 on both axes (UI-TARS 1.0)
qwen2.5-vl Qwen tool calls   pixels of the image sent, resized as Qwen2.5-VL does
qwen3-vl   Qwen tool calls   0..1000 on both axes (Qwen3-VL)
========== ================= ==========================================================

For pixel coordinates the agent itself sends the screenshot at the size the model's
image processor would use (:func:`smart_resize`: sides multiples of 28, the pixel count
within bounds), so the coordinates the model answers in are those of a known image
whatever the server does; for 0..1000 coordinates the screenshot goes as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from reefbench.agents.grounding_models.parsed import Parsed
from reefbench.errors import ConfigError

# Qwen2.5-VL's image processor (and UI-TARS-1.5's deployment guide).
FACTOR = 28
MIN_PIXELS = 100 * FACTOR * FACTOR
MAX_PIXELS = 16384 * FACTOR * FACTOR
SPAN = 1000

Format = Literal["uitars", "qwen"]
Coordinates = Literal["pixels", "relative"]


def smart_resize(
    width: int,
    height: int,
    *,
    factor: int = FACTOR,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
) -> tuple[int, int]:
    """The size Qwen2.5-VL's processor gives an image: each side the nearest multiple of
    ``factor``, scaled (keeping the aspect ratio) into ``min_pixels..max_pixels``."""
    w = max(factor, round(width / factor) * factor)
    h = max(factor, round(height / factor) * factor)
    if w * h > max_pixels:
        beta = math.sqrt(width * height / max_pixels)
        w = max(factor, math.floor(width / beta / factor) * factor)
        h = max(factor, math.floor(height / beta / factor) * factor)
    elif w * h < min_pixels:
        beta = math.sqrt(min_pixels / (width * height))
        w = math.ceil(width * beta / factor) * factor
        h = math.ceil(height * beta / factor) * factor
    return w, h


def fit(device: tuple[int, int], max_side: int) -> tuple[int, int]:
    """``device`` shrunk (never enlarged) so that its longer side is at most ``max_side``."""
    from reefbench.environments.pointer import Scale

    return Scale.fit(device, max_width=max_side, max_height=max_side).model


@dataclass(frozen=True, slots=True)
class GroundingProfile:
    """How to talk to one family of grounding models.

    Attributes:
        name: What ``--grounding`` takes.
        format: ``uitars`` (``Action: click(start_box=...)``) or ``qwen``
            (``<tool_call>{"name": "computer_use", ...}</tool_call>``).
        coordinates: ``pixels`` of the image sent (resized by :func:`smart_resize`) or
            ``relative`` (0..``SPAN`` on both axes).
        summary: One line for ``--help``.
    """

    name: str
    format: Format
    coordinates: Coordinates
    summary: str

    def parse(self, text: str) -> Parsed:
        from reefbench.agents.grounding_models.qwen import parse_qwen
        from reefbench.agents.grounding_models.uitars import parse_uitars

        parser: Callable[[str], Parsed] = parse_uitars if self.format == "uitars" else parse_qwen
        return parser(text)

    def model_size(self, device: tuple[int, int], max_side: int | None = None) -> tuple[int, int]:
        """The size of the image the model answers about (``SPAN`` x ``SPAN`` if relative).

        ``max_side`` caps the pixels at those of the screenshot fitted into a square of that
        side; set it to match a server whose image processor has a lower ``max_pixels``
        (it would shrink the image again, and the model would answer about that one).
        """
        if self.coordinates == "relative":
            return SPAN, SPAN
        if max_side is None:
            return smart_resize(*device)
        width, height = fit(device, max_side)
        return smart_resize(*device, max_pixels=max(FACTOR * FACTOR, width * height))

    def system_prompt(
        self,
        instruction: str,
        devices: Sequence[tuple[str, str, str]],
        size: tuple[int, int],
    ) -> str:
        """The system prompt for a task: ``devices`` are (name, pointer kind, description),
        the one shown first first; ``size`` is :meth:`model_size` of the screenshot shown."""
        from reefbench.agents.grounding_models import qwen, uitars
        from reefbench.agents.grounding_models.prompt_files import template

        names = [name for name, _, _ in devices]
        kinds = {kind for _, kind, _ in devices}
        listing = _devices_text(devices)
        if self.format == "qwen":
            return template("qwen").substitute(
                instruction=instruction,
                devices=listing,
                tools=qwen.tool_definition(kinds, names, size),
            )
        return template("uitars").substitute(
            instruction=instruction,
            devices=listing,
            action_space=uitars.action_space(kinds, names),
            coordinates=self._coordinates_note(),
        )

    def _coordinates_note(self) -> str:
        if self.coordinates == "relative":
            return (
                "Coordinates are relative, 0 to 1000 on each axis: (0,0) is the top-left and "
                "(1000,1000) the bottom-right corner of the screenshot."
            )
        return "Coordinates are pixels of the screenshot you see, from its top-left corner."


def _devices_text(devices: Sequence[tuple[str, str, str]]) -> str:
    lines = [
        f"- {name} ({_KIND_WORDS.get(kind, kind)}): {' '.join(text.split())}"
        for name, kind, text in devices
    ]
    if len(devices) > 1:
        lines.append(
            "You see one device at a time (each screenshot says which), starting with "
            f"{devices[0][0]}; switch to see and act on another."
        )
    return "\n".join(lines)


_KIND_WORDS = {"desktop": "a desktop computer", "browser": "a web browser", "touch": "a phone"}

PROFILES: dict[str, GroundingProfile] = {
    p.name: p
    for p in (
        GroundingProfile("uitars", "uitars", "pixels", "UI-TARS-1.5: click(start_box=...), pixels"),
        GroundingProfile("uitars-1.0", "uitars", "relative", "UI-TARS 1.0: 0..1000 coordinates"),
        GroundingProfile("qwen2.5-vl", "qwen", "pixels", "Qwen2.5-VL computer_use, pixels"),
        GroundingProfile("qwen3-vl", "qwen", "relative", "Qwen3-VL computer_use, 0..1000"),
    )
}


def get_profile(name: str) -> GroundingProfile:
    """The profile called ``name``, or the one-line error listing them."""
    profile = PROFILES.get(name.strip().lower())
    if profile is None:
        raise ConfigError(f"unknown grounding format {name!r}; choose one of {', '.join(PROFILES)}")
    return profile


def profiles_help() -> str:
    """What ``--grounding`` takes (for ``reef run --help``)."""
    return "; ".join(f"{p.name} ({p.summary})" for p in PROFILES.values())
