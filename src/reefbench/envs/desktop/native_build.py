"""Small C libraries the desktop sandbox preloads or loads, built on this machine.

Two fixes to what an agent sees need native code that Debian bookworm does not ship: the
file-time shim (:mod:`.filetime`) and the GTK module that lists Thunar's icon-view files
(:mod:`.exo_a11y`). Each is one C file in the package, compiled with the system's ``cc``
the first time a desktop needs it, into the user's cache and keyed by the source's hash
(an edited source is rebuilt; a built one is reused by every later desktop).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from reefbench.errors import EnvironmentFailure

PACKAGES = "gcc libc6-dev"
"""The Debian packages that provide ``cc`` and the C library's headers."""


def cache_dir(name: str) -> Path:
    """Where built libraries of one kind are kept: ``$XDG_CACHE_HOME/reefbench/<name>``
    (``~/.cache`` without it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reefbench" / name


def build_library(source: Path, folder: Path, what: str, needed_for: str) -> Path:
    """The shared library built from ``source`` into ``folder`` (compiled on first use,
    then reused). ``what`` names it in errors ("the desktop's file-time shim");
    ``needed_for`` says why a compiler is needed ("the desktop's world clock builds a
    file-time shim").

    Raises:
        EnvironmentFailure: no C compiler, a cache that cannot be written, or the compiler
            rejected the source (each one line naming what to install or set).
    """
    code = source.read_bytes()
    target = folder / f"{source.stem}-{hashlib.sha256(code).hexdigest()[:16]}.so"
    if target.is_file():
        return target
    compiler = shutil.which("cc")
    if compiler is None:
        raise EnvironmentFailure(f"{needed_for} and needs a C compiler: apt-get install {PACKAGES}")
    # Built beside the target and renamed into place: a concurrent build (another
    # desktop, another harness) never loads a half-written library.
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix=f".{source.stem}-", suffix=".so", dir=folder)
    except OSError as error:
        raise EnvironmentFailure(
            f"cannot build {what} in {folder}: {error.strerror} "
            "(set XDG_CACHE_HOME to a writable folder)"
        ) from None
    os.close(fd)
    try:
        done = subprocess.run(
            [compiler, "-shared", "-fPIC", "-O2", "-Wall", "-o", partial, str(source)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if "error" in line]
            detail = (lines or done.stderr.splitlines() or ["no output"])[0]
            raise EnvironmentFailure(
                f"building {what} with {compiler} failed: {detail} (apt-get install {PACKAGES})"
            )
        os.replace(partial, target)
    finally:
        Path(partial).unlink(missing_ok=True)
    return target
