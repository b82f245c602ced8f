"""Evidence of which application saved a file: the apps' own records, read on the host.

"Use vim" or "in the text editor" is only checked if the file's content came from that
app. A process name seen once proves nothing (the editor may be open while the terminal
writes the file), and watching every write (inotify, fanotify) would need a daemon in the
sandbox. The apps keep records of their own that are enough:

* **mousepad** (like every GTK app) adds each file it opens or saves to
  ``~/.local/share/recently-used.xbel``, with its name ("Mousepad") and the time to the
  microsecond. The file was saved by mousepad when mousepad's record of it is not older
  than the file's modification time: a later write by any other program makes the file
  newer than the record.
* **vim** runs with the baseline's ``~/.vimrc`` (:data:`VIMRC`), which keeps Debian's
  defaults and logs every write (``BufWritePost``) with the SHA-256 of the bytes written.
  The file was saved by vim when its current content is what vim last wrote to it: exact,
  whatever the clocks say.

Both records live in the agent's home, so a determined agent could forge them from the
terminal; they rule out the plausible mistakes (doing the job with another tool while
the app sits open), not deliberate forgery.
"""

from __future__ import annotations

import hashlib
import posixpath
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

RECENT_FILES = ".local/share/recently-used.xbel"
VIM_LOG = ".local/state/reef/vim-writes.log"
_BOOKMARK = "{http://www.freedesktop.org/standards/desktop-bookmarks}application"
# Apps whose record this module reads, by the name a task uses.
APPS: tuple[str, ...] = ("mousepad", "vim")

VIMRC = f"""\" reefbench: Debian's defaults, plus a log of every file vim writes (SHA-256 of
\" the bytes, and the path), so a checkpoint can tell a file vim saved from one another
\" program wrote.
silent! source $VIMRUNTIME/defaults.vim
function! s:ReefLogWrite(path) abort
  let bytes = join(readfile(a:path, 'b'), "\\n")
  call writefile([sha256(bytes) . "\\t" . a:path], $HOME . '/{VIM_LOG}', 'a')
endfunction
augroup reef_writes
  autocmd!
  autocmd BufWritePost * silent! call s:ReefLogWrite(expand('<afile>:p'))
augroup END
"""


def write_vim_config(home: Path) -> None:
    """Put :data:`VIMRC` and the log's folder into a home tree (the desktop's baseline)."""
    (home / VIM_LOG).parent.mkdir(parents=True, exist_ok=True)
    (home / ".vimrc").write_text(VIMRC)


def mousepad_saves(home: Path) -> dict[str, float]:
    """Sandbox path -> when mousepad last recorded the file (POSIX seconds)."""
    recent = home / RECENT_FILES
    try:
        root = ET.fromstring(recent.read_bytes())
    except (OSError, ET.ParseError):
        return {}
    found: dict[str, float] = {}
    for bookmark in root.iter("bookmark"):
        href = urlsplit(bookmark.get("href", ""))
        if href.scheme != "file":
            continue
        for app in bookmark.iter(_BOOKMARK):
            if app.get("name", "").casefold() == "mousepad":
                when = datetime.fromisoformat(app.get("modified", "").replace("Z", "+00:00"))
                found[unquote(href.path)] = when.timestamp()
    return found


def vim_writes(home: Path) -> dict[str, str]:
    """Sandbox path -> SHA-256 of what vim last wrote to it."""
    try:
        lines = (home / VIM_LOG).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in lines:
        digest, _, path = line.partition("\t")
        if path:
            found[posixpath.normpath(path)] = digest
    return found


def saved_by(
    app: str, home: Path, sandbox_path: str, host_file: Path, clock_offset: float = 0.0
) -> tuple[bool, str]:
    """Whether ``app`` saved the file as it is now, and why (a sentence for the result).

    ``clock_offset``: seconds the sandbox's clock runs ahead of the host's (the world
    time, :mod:`.faketime`): the app records its save in the sandbox's time, the kernel
    stamps the file's modification time in the host's."""
    if app == "mousepad":
        recorded = mousepad_saves(home).get(sandbox_path)
        if recorded is None:
            return False, f"mousepad has no record of saving {sandbox_path}"
        # mousepad records the file after writing it; a later write by another program
        # leaves the file newer than the record.
        if host_file.stat().st_mtime > recorded - clock_offset:
            return False, f"{sandbox_path} changed after mousepad last saved it"
        return True, f"mousepad saved {sandbox_path}"
    if app == "vim":
        digest = vim_writes(home).get(sandbox_path)
        if digest is None:
            return False, f"vim never wrote {sandbox_path}"
        if hashlib.sha256(host_file.read_bytes()).hexdigest() != digest:
            return False, f"{sandbox_path} is not what vim last wrote to it"
        return True, f"vim wrote {sandbox_path} as it is now"
    raise ValueError(f"no record of app {app!r}; known: {', '.join(APPS)}")
