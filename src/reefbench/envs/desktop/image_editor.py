"""The desktop image editor's prepared settings (Drawing, GTK3).

Drawing keeps its settings in GSettings. The app starts with ``GSETTINGS_BACKEND=keyfile``
(:data:`ENV`), so they live in a text file of the home that the baseline writes and every
reset restores, instead of a binary dconf database shared with the session. The settings
written here take away what would make a start depend on the home's history: the "first
time you use Drawing" help dialog (``last-version``) and a window size left by the last
episode; labels are shown on the tool buttons so their names reach the element list.

The variable must reach Drawing however it is started, not only from the launcher: a
playtest started it from a terminal (``drawing chart.png &``), where it read dconf, showed
the first-start dialog and wrote its settings there, and the episode ended as a side effect
the agent had not caused. So ``drawing`` on the sandbox's ``PATH`` is a launcher script
(:func:`sandbox_files`) that sets the variable and runs the real program.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# Debian 12's drawing package; the dialog appears when the major.minor version differs.
VERSION = "1.0.2"
ENV = {"GSETTINGS_BACKEND": "keyfile"}
KEYFILE = Path(".config/glib-2.0/settings/keyfile")
# First on the sandbox's PATH (sandbox.SANDBOX_PATH).
LAUNCHERS_DIR = "/run/reef/bin"

_SETTINGS = f"""[com/github/maoschanz/drawing]
last-version='{VERSION}'
maximized=true
show-labels=true
replace-alpha='white'
"""


def write_image_editor_settings(home: Path) -> Path:
    """Write Drawing's settings into ``home`` (a baseline being built); returns the file."""
    path = home / KEYFILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_SETTINGS)
    return path


def sandbox_files(directory: Path) -> dict[str, Path]:
    """Sandbox path -> host file: the ``drawing`` launcher (written into ``directory``),
    shown read-only in :data:`LAUNCHERS_DIR`; none when Drawing is not installed."""
    binary = shutil.which("drawing")
    if binary is None:
        return {}
    directory.mkdir(parents=True, exist_ok=True)
    launcher = directory / "drawing"
    variables = " ".join(f"{k}={v}" for k, v in ENV.items())
    launcher.write_text(f'#!/bin/sh\n{variables} exec {binary} "$@"\n')
    launcher.chmod(0o755)
    return {f"{LAUNCHERS_DIR}/drawing": launcher}
