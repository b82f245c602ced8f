"""The pristine home: a baseline tree copied into the sandbox's HOME on every reset.

The default baseline is a small, deterministic user profile: the usual folders and a GTK
configuration with cursor blinking and animations off, so that "the screen stopped
changing" really means the UI is idle. A task suite can add its own files on top by
passing a directory that is copied over the default.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from reefbench.envs.desktop.app_records import write_vim_config
from reefbench.envs.desktop.image_editor import write_image_editor_settings
from reefbench.envs.desktop.office import write_office_profile
from reefbench.envs.desktop.xsession import write_session_config

_GTK_SETTINGS = """[Settings]
gtk-cursor-blink=false
gtk-enable-animations=false
gtk-theme-name=Adwaita
gtk-font-name=DejaVu Sans 10
"""
# xfce4-terminal: no blinking cursor, no scrollbar flashing, a fixed first window size.
_TERMINAL_RC = """[Configuration]
MiscCursorBlinks=FALSE
MiscDefaultGeometry=90x24
MiscConfirmClose=FALSE
MiscShowUnsafePasteDialog=FALSE
ScrollingBar=TERMINAL_SCROLLBAR_NONE
"""
FOLDERS = ("Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos")


def write_default_baseline(target: Path) -> None:
    """Create the default home tree in ``target`` (which must not exist yet)."""
    target.mkdir(parents=True)
    for folder in FOLDERS:
        (target / folder).mkdir()
    gtk = target / ".config" / "gtk-3.0"
    gtk.mkdir(parents=True)
    (gtk / "settings.ini").write_text(_GTK_SETTINGS)
    terminal = target / ".config" / "xfce4" / "terminal"
    terminal.mkdir(parents=True)
    (terminal / "terminalrc").write_text(_TERMINAL_RC)
    write_vim_config(target)  # vim logs what it writes (evidence that vim made a change)
    write_office_profile(target)  # LibreOffice starts without first-start dialogs
    write_image_editor_settings(target)  # Drawing starts without its help dialog
    write_session_config(target)  # the panel and the wallpaper (xfconf channels)
    skel = Path("/etc/skel")
    if skel.is_dir():
        shutil.copytree(skel, target, dirs_exist_ok=True, symlinks=True)


def build_baseline(target: Path, extra: Path | None = None) -> Path:
    """The default baseline plus, if given, the files of ``extra`` copied over it."""
    write_default_baseline(target)
    if extra is not None:
        shutil.copytree(extra, target, dirs_exist_ok=True, symlinks=True)
    return target


def clear_directory(directory: Path) -> None:
    """Delete everything inside ``directory`` (not the directory: it is a mount point)."""
    with os.scandir(directory) as entries:
        for entry in entries:
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def restore_home(home: Path, baseline: Path) -> None:
    """Make ``home`` an exact copy of ``baseline``."""
    clear_directory(home)
    shutil.copytree(baseline, home, dirs_exist_ok=True, symlinks=True)
