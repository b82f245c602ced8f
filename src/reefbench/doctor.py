"""``reef doctor``: what this machine has, what is missing, and how to install it."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from dataclasses import dataclass


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
    return checks
