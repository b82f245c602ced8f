"""``reef doctor``: what this machine has, what is missing, and how to install it."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    needed_by: str
    fix: str
    required: bool


# (executable, Debian package, who needs it). Only the core is required today; the rest
# lists what the desktop, browser, phone and Android environments will use.
_TOOLS = [
    ("Xvfb", "xvfb", "desktop environment"),
    ("xdotool", "xdotool", "desktop environment"),
    ("tesseract", "tesseract-ocr", "OCR observations"),
    ("bwrap", "bubblewrap", "desktop sandbox"),
    ("openbox", "openbox", "desktop environment (window manager)"),
    ("rofi", "rofi", "desktop environment (search_app launcher)"),
    ("xfce4-terminal", "xfce4-terminal", "desktop environment (terminal)"),
    ("mousepad", "mousepad", "desktop environment (text editor)"),
    ("thunar", "thunar", "desktop environment (file manager)"),
    ("xprop", "x11-utils", "desktop environment"),
    ("dbus-daemon", "dbus", "desktop environment (session bus)"),
    ("xclip", "xclip", "desktop clipboard evaluator"),
    ("chromium", "chromium", "browser and phone environments"),
    ("adb", "adb", "Android devices"),
]
_MODULES = [
    ("pydantic", "reefbench", True),
    ("networkx", "reefbench", True),
    ("typer", "reefbench", True),
    ("rich", "reefbench", True),
    ("docstring_parser", "reefbench", True),
    ("gymnasium", "reefbench[gym]", False),
    ("playwright", "reefbench[browser]", False),
]


def run_checks() -> list[Check]:
    checks = [
        Check(
            "python",
            sys.version_info >= (3, 11),
            sys.version.split()[0],
            "reefbench",
            "install Python 3.11 or newer",
            True,
        )
    ]
    for module, extra, required in _MODULES:
        found = importlib.util.find_spec(module) is not None
        checks.append(
            Check(
                module,
                found,
                "importable" if found else "not installed",
                extra,
                f"pip install '{extra}'",
                required,
            )
        )
    for exe, package, needed_by in _TOOLS:
        path = shutil.which(exe)
        checks.append(
            Check(
                exe,
                path is not None,
                path or "not found",
                needed_by,
                f"apt-get install {package}",
                False,
            )
        )
    devices = adb_devices_check()
    if devices is not None:
        checks.append(devices)
    return checks


def adb_devices_check(run: Any = None) -> Check | None:
    """The Android devices and emulators attached (``adb devices -l``, with a timeout);
    ``None`` when adb is not installed (its own check says so). ``run`` replaces the
    subprocess call in tests."""
    exe = shutil.which("adb")
    if exe is None:
        return None
    from reefbench.envs.android.transport import list_devices
    from reefbench.errors import ReefError

    fix = "connect a phone with USB debugging on, or start an emulator (see envs/android/README.md)"
    try:
        devices = list_devices(exe, timeout=10.0, run=run)
    except ReefError as exc:
        return Check("adb devices", False, str(exc), "Android environment", fix, False)
    ready = [d for d in devices if d.state == "device"]
    detail = ", ".join(d.label for d in devices) or "no device attached"
    return Check("adb devices", bool(ready), detail, "Android environment", fix, False)
