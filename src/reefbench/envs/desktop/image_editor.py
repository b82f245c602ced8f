"""The desktop image editor's prepared settings (Drawing, GTK3).

Drawing keeps its settings in GSettings. The app starts with ``GSETTINGS_BACKEND=keyfile``
(:data:`ENV`), so they live in a text file of the home that the baseline writes and every
reset restores, instead of a binary dconf database shared with the session. The settings
written here take away what would make a start depend on the home's history: the "first
time you use Drawing" help dialog (``last-version``) and a window size left by the last
episode; labels are shown on the tool buttons so their names reach the element list.
"""

from __future__ import annotations

from pathlib import Path

# Debian 12's drawing package; the dialog appears when the major.minor version differs.
VERSION = "1.0.2"
ENV = {"GSETTINGS_BACKEND": "keyfile"}
KEYFILE = Path(".config/glib-2.0/settings/keyfile")

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
