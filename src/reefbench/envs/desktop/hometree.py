"""The desktop's home tree as data: what files there are, and whether writes are landing.

Used twice: :meth:`DesktopDevice.on_settle_state` waits until the tree stops changing before
checkpoints read it (an editor's save lands a few milliseconds after the key press), and
the side-effect diff compares the tree after the episode with the tree after setup.

A snapshot is one ``stat`` per entry (``os.scandir`` reuses the directory read); content
hashes are computed only for files whose size or mtime changed, so a snapshot of a home of
a few hundred files costs a few milliseconds.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

# Paths (relative to the home, "/"-separated) that change in every session whatever the
# agent does, with the reason each is not the agent's doing. A prefix ending in "/" covers
# a folder.
NOISE: dict[str, str] = {
    ".cache/": "caches (fontconfig, thumbnails, mesa) are rebuilt by every app",
    ".local/share/recently-used.xbel": "GTK records every file opened or saved",
    ".local/share/xorg/": "the X server's log",
    ".local/share/Mousepad/": "mousepad's session data (open documents, search history)",
    ".local/state/": "apps' session state (window sizes, histories)",
    ".config/pulse/": "sound server cookie written at start",
    ".config/chromium/": "the browser profile (history, cookies, caches)",
    ".config/xfce4/": "the terminal's and panel's own state",
    ".config/Mousepad/": "mousepad's session and window state",
    ".config/Thunar/": "the file manager's window state",
    ".config/mimeapps.list": "the file manager's 'open with' default: its Set Default "
    "Application dialog ticks 'use as default' when a file type has no handler yet",
    ".config/glib-2.0/settings/keyfile": "the image editor's settings (GSettings' keyfile "
    "backend): Drawing writes its window state and last tool there at every exit",
    ".config/dconf/": "settings are compared as settings, not as the database file",
    ".config/libreoffice/": "LibreOffice's profile: its extension registry, caches and lock "
    "are rewritten at every start and exit (documents are saved elsewhere and stay seen)",
    ".dbus/": "session bus addresses",
    ".pki/": "the browser's certificate store",
    ".viminfo": "vim's history of commands and marks",
    ".lesshst": "less's search history",
    ".bash_history": "the terminal's command history",
    ".python_history": "the Python prompt's history",
    ".Xauthority": "the display's session cookie",
}
# File names an editor writes while a save is in progress or a buffer is open: GIO saves
# through ".goutputstream-XXXXXX" then renames; vim keeps ".name.swp" and writes "name~";
# LibreOffice keeps ".~lock.NAME#" beside an open document (the baseline profile turns
# locking off; a profile the agent changes may turn it on again).
_PENDING_PREFIXES = (".goutputstream-",)
_LOCK_PREFIXES = (".~lock.",)
_EDITOR_NOISE_SUFFIXES = (".swp", ".swo", ".swx", "~")


@dataclass(frozen=True, slots=True)
class Entry:
    """One path's metadata: kind ("file", "dir", "link"), size, permission bits, mtime."""

    kind: str
    size: int
    mode: int
    mtime_ns: int


Tree = dict[str, Entry]


def holds_noise(rel: str) -> bool:
    """A folder on the way to a noise path (``.local`` for ``.local/share/...``): apps
    create it as a side effect of their noise."""
    return any(p.startswith(rel + "/") for p in NOISE)


def is_noise(rel: str) -> bool:
    """A path every session changes whatever the agent does (see :data:`NOISE`), or an
    editor's backup/swap/in-progress file."""
    name = rel.rsplit("/", 1)[-1]
    if name.startswith(_PENDING_PREFIXES + _LOCK_PREFIXES) or name.endswith(_EDITOR_NOISE_SUFFIXES):
        return True
    if any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in NOISE):
        return True
    # GLib writes such a file through "NAME.XXXXXX" and renames it (g_file_set_contents): a
    # snapshot taken meanwhile saw the temporary file "deleted" (a CI gate failed on it).
    return any(rel.startswith(p + ".") and len(rel) == len(p) + 7 for p in NOISE)


def scan(root: Path, *, include_noise: bool = False, pending: list[str] | None = None) -> Tree:
    """Every entry under ``root`` by relative path (symlinks are listed, not followed).

    Args:
        root: The home folder on the host.
        include_noise: Keep the paths :func:`is_noise` leaves out.
        pending: If given, receives the relative paths of saves in progress (an editor's
            temporary file not yet renamed into place).
    """
    tree: Tree = {}
    stack = [(str(root), "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # removed while we looked: the next scan sees it gone
            continue
        for item in entries:
            rel = prefix + item.name
            if pending is not None and item.name.startswith(_PENDING_PREFIXES):
                pending.append(rel)
            if not include_noise and is_noise(rel + ("/" if item.is_dir() else "")):
                continue
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                kind = "link"
            elif stat.S_ISDIR(info.st_mode):
                kind = "dir"
                stack.append((item.path, rel + "/"))
            else:
                kind = "file"
            size = info.st_size if kind == "file" else 0
            tree[rel] = Entry(kind, size, stat.S_IMODE(info.st_mode), info.st_mtime_ns)
    return tree


def digest(path: Path) -> str:
    """SHA-256 of a file's bytes (``""`` when it cannot be read)."""
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return ""


@dataclass(frozen=True, slots=True)
class HomeState:
    """The home tree with a content hash per file (hashes of unchanged files are reused
    from the snapshot before, so a diff hashes only what changed)."""

    tree: Tree
    hashes: dict[str, str]


def snapshot(root: Path) -> HomeState:
    """Entries and content hashes of the home tree, noise left out."""
    tree = scan(root)
    hashes = {rel: digest(root / rel) for rel, e in tree.items() if e.kind == "file"}
    return HomeState(tree, hashes)


def fingerprint(path: Path) -> str:
    """What one path holds, as text equal between two reads exactly when it is the same:
    ``absent``, a file's permission bits and content hash, a link's target, or a folder's
    entries with theirs (noise left out, as in :func:`snapshot`). The end check holds a
    state key no later step governs to this (:meth:`DesktopDevice.on_state_fingerprint`)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return "absent"
    if stat.S_ISLNK(info.st_mode):
        return f"link to {os.readlink(path)}"
    mode = stat.S_IMODE(info.st_mode)
    if not stat.S_ISDIR(info.st_mode):
        return f"file {mode:o} {digest(path)}"
    hashed = hashlib.sha256()
    for rel, entry in sorted(scan(path).items()):
        content = digest(path / rel) if entry.kind == "file" else ""
        hashed.update(f"{rel}\0{entry.kind}\0{entry.mode:o}\0{content}\n".encode())
    return f"folder {mode:o} {hashed.hexdigest()}"


def changes(root: Path, before: HomeState) -> list[tuple[str, str]]:
    """``(relative path, what happened)`` for every path added, deleted, overwritten,
    re-typed or re-moded since ``before`` (a folder's own mtime is not a change)."""
    now = scan(root)
    found: list[tuple[str, str]] = []
    for rel in sorted(before.tree.keys() - now.keys()):
        found.append((rel, f"deleted {_kind(before.tree[rel])} ~/{rel}"))
    for rel in sorted(now.keys() - before.tree.keys()):
        if not (now[rel].kind == "dir" and holds_noise(rel)):
            found.append((rel, f"created {_kind(now[rel])} ~/{rel}"))
    for rel in sorted(now.keys() & before.tree.keys()):
        old, new = before.tree[rel], now[rel]
        if old.kind != new.kind:
            found.append((rel, f"replaced {_kind(old)} ~/{rel} by a {_kind(new)}"))
        elif (
            new.kind == "file"
            and (old.size, old.mtime_ns) != (new.size, new.mtime_ns)
            and digest(root / rel) != before.hashes.get(rel)
        ):
            found.append((rel, f"changed the content of ~/{rel}"))
        if old.kind == new.kind and old.mode != new.mode:
            found.append((rel, f"changed the permissions of ~/{rel} to {new.mode:o}"))
    return found


def _kind(entry: Entry) -> str:
    return {"dir": "folder", "link": "link"}.get(entry.kind, "file")
