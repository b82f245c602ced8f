"""Files that cross between the computer's browser and its desktop, as on a real computer.

reef's browser is the computer's web browser, so a file it downloads belongs in the
computer's ``~/Downloads``, where the desktop's file manager and image editor find it, and
a page's file chooser ("Choose files") opens the computer's files. That is how a photo
taken on the phone reaches the desktop as a file and goes back (camera roll → the
account's Files → Download → ``~/Downloads`` → the image editor → Choose files → Upload →
the phone's Gallery). The browser hands each finished download to, and takes each chosen
file from, a :class:`ComputerFiles` (the desktop implements it); without one, downloads
are discarded and file choosers cannot be answered, as before.
"""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath
from typing import Protocol, runtime_checkable


@runtime_checkable
class ComputerFiles(Protocol):
    """The computer's files as its browser reaches them."""

    files_description: str
    """Where downloads land and what a file chooser opens, for the browser's description."""

    def receive_download(self, name: str, source: Path) -> str:
        """Store a finished download named ``name`` (as the site suggests) from ``source``;
        return where it was saved, as the user sees it."""
        ...

    def file_to_upload(self, path: str) -> Path:
        """The file a person picks in a file chooser by its path as they see it
        (``~/Pictures/a.jpg``), where the browser can read it.

        Raises:
            ActionFailed: no such file, or a path outside the user's files.
        """
        ...


def safe_file_name(name: str, fallback: str = "download") -> str:
    """A site-suggested file name made safe to create in one folder: its last path
    component, without control characters or leading dots (no hidden or parent paths)."""
    base = PurePosixPath(name.replace("\\", "/")).name
    cleaned = "".join(ch for ch in base if ch.isprintable()).strip().lstrip(".").strip()
    return cleaned or fallback


def unused_path(folder: Path, name: str) -> Path:
    """``folder/name``, or ``name (1).ext``, ``name (2).ext``... when it is taken: the
    numbering Chromium and Firefox give a file downloaded again."""
    target = folder / name
    stem, dot, suffix = name.partition(".") if not name.startswith(".") else (name, "", "")
    number = 1
    while target.exists() or target.is_symlink():
        target = folder / f"{stem} ({number}){dot}{suffix}"
        number += 1
    return target


def store_download(folder: Path, name: str, source: Path) -> Path:
    """Copy a finished download into ``folder`` under a safe, unused name."""
    folder.mkdir(parents=True, exist_ok=True)
    target = unused_path(folder, safe_file_name(name))
    shutil.copyfile(source, target)
    return target
