"""The phone's own state: system settings, the call log and the clock.

It lives in the environment object (not in the browser), so evaluators read it without a
page, setup actions write it directly, and a reset is a copy of the baseline. The shell's
pages change it through ``/__phone/api/...`` requests that the environment answers itself.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from reefbench.errors import ActionFailed

if TYPE_CHECKING:
    from reefbench.envs.ui.device import TouchSnapshot
    from reefbench.envs.ui.hierarchy import UIHierarchy

# Setting -> default. Booleans are switches; strings are free text.
DEFAULT_SETTINGS: dict[str, bool | str] = {
    "wifi": True,
    "bluetooth": False,
    "airplane_mode": False,
    "dark_mode": False,
    "do_not_disturb": False,
    "bluetooth_name": "Reef Phone",
}
SETTING_LABELS = {
    "wifi": "Wi-Fi",
    "bluetooth": "Bluetooth",
    "airplane_mode": "Airplane mode",
    "dark_mode": "Dark theme",
    "do_not_disturb": "Do not disturb",
    "bluetooth_name": "Device name",
}
CALL_KINDS = ("outgoing", "incoming", "missed")


def parse_now(value: str) -> str:
    """``YYYY-MM-DDTHH:MM`` (seconds dropped), or :class:`ActionFailed` saying the format."""
    try:
        return datetime.fromisoformat(value.strip()).strftime("%Y-%m-%dT%H:%M")
    except ValueError:
        raise ActionFailed(f"time {value!r} is not 'YYYY-MM-DDTHH:MM'") from None


@dataclass
class PhoneState:
    """Settings, call log and clock of one phone.

    Attributes:
        settings: Current values (keys of :data:`DEFAULT_SETTINGS`).
        calls: Call log, newest last: ``{"number", "kind", "time"}``.
        now: The phone's clock as ``YYYY-MM-DDTHH:MM``; ``None`` follows the services'
            account clock when the phone has services, else
            :data:`reefbench.tasks.worldtime.DEFAULT_NOW`.
    """

    settings: dict[str, bool | str] = field(default_factory=lambda: dict(DEFAULT_SETTINGS))
    calls: list[dict[str, str]] = field(default_factory=list)
    now: str | None = None

    def copy(self) -> PhoneState:
        return copy.deepcopy(self)

    def set(self, key: str, value: Any) -> None:
        """Change one setting, checking the key and the value's type."""
        if key not in DEFAULT_SETTINGS:
            raise ActionFailed(
                f"the phone has no setting {key!r}; known: {', '.join(DEFAULT_SETTINGS)}"
            )
        default = DEFAULT_SETTINGS[key]
        if isinstance(default, bool):
            if isinstance(value, str) and value.lower() in ("true", "false", "on", "off"):
                value = value.lower() in ("true", "on")
            if not isinstance(value, bool):
                raise ActionFailed(f"setting {key} is on/off (true or false), not {value!r}")
        else:
            if not isinstance(value, str) or not value.strip() or len(value) > 64:
                raise ActionFailed(f"setting {key} needs a text of 1 to 64 characters")
            value = value.strip()
        self.settings[key] = value

    def add_call(self, number: str, kind: str = "outgoing", time: str = "") -> dict[str, str]:
        digits = "".join(ch for ch in number if ch.isdigit() or ch in "+*#")
        if not digits:
            raise ActionFailed(f"{number!r} has no digits to call")
        if kind not in CALL_KINDS:
            raise ActionFailed(f"call kind must be one of {', '.join(CALL_KINDS)}, not {kind!r}")
        entry = {"number": digits, "kind": kind, "time": parse_now(time) if time else ""}
        self.calls.append(entry)
        return entry

    def as_json(self, now: str) -> dict[str, Any]:
        return {"settings": dict(self.settings), "calls": list(self.calls), "now": now}


def clock_label(now: str) -> str:
    """``09:30`` for the status bar."""
    return datetime.fromisoformat(now).strftime("%H:%M")


def date_label(now: str) -> str:
    """``Tue, Nov 12`` for the home screen (as Android's date widget writes it)."""
    moment = datetime.fromisoformat(now)
    return f"{moment.strftime('%a, %b')} {moment.day}"


CLOCK_ID = "clock"
"""Resource id (``…:id/clock``) of the status bar's clock in the phone's dump."""


def _clock_text(ui: UIHierarchy) -> str:
    node = ui.find(resource_id=CLOCK_ID)
    return node.text if node is not None else ""


def clock_boxes(ui: UIHierarchy, image_scale: float) -> list[tuple[int, int, int, int]]:
    """Where the status bar shows the time, as ``x, y, width, height`` in the pixels of a
    screenshot with ``image_scale`` screenshot pixels per device pixel."""
    boxes = []
    for node in ui.iter():
        if node.resource_id.endswith(f":id/{CLOCK_ID}"):
            x1, y1, x2, y2 = (round(v * image_scale) for v in node.bounds)
            boxes.append((x1, y1, max(1, x2 - x1), max(1, y2 - y1)))
    return boxes


def only_the_clock_changed(before: TouchSnapshot, after: TouchSnapshot) -> bool:
    """Whether ``after`` shows what ``before`` showed but for the status bar's time: the
    same elements, and every pixel that differs inside the clock's box."""
    from PIL import Image

    from reefbench.perception.image import differs_only_inside

    if before.png == after.png or before.image_scale != after.image_scale:
        return False
    # The element list quotes the clock's text ("Text on screen"): the two lists must be
    # the same once the old time reads as the new one (the pixels check everything else).
    old_time, new_time = _clock_text(before.ui), _clock_text(after.ui)
    listed = before.marks.marks.text()
    if old_time and new_time:
        listed = listed.replace(f'"{old_time}"', f'"{new_time}"')
    if listed != after.marks.marks.text():
        return False
    with Image.open(io.BytesIO(before.png)) as old, Image.open(io.BytesIO(after.png)) as new:
        return differs_only_inside(old, new, clock_boxes(after.ui, after.image_scale))
