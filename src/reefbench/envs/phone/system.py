"""The phone's own state: system settings, the call log and the clock.

It lives in the environment object (not in the browser), so evaluators read it without a
page, setup actions write it directly, and a reset is a copy of the baseline. The shell's
pages change it through ``/__phone/api/...`` requests that the environment answers itself.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from reefbench.errors import ActionFailed

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
            :data:`reefbench.worldtime.DEFAULT_NOW`.
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
