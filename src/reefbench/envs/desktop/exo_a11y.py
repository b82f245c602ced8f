"""The file items of Thunar's icon and compact views in the accessibility tree: the GTK
module ``exo_a11y_module.c``, built here and loaded by every GTK 3 app of the sandbox.

Thunar draws its icon and compact views with exo's ``ExoIconView``. exo 4.18 carries an
accessible implementation for it (each file an ``icon`` with its name as text, its box and
an "activate" action) but installs it only when GTK's accessibility registry looks as GTK
2's did, so under GTK 3 the view was a ``panel`` with no children: the element list showed
Thunar's buttons and places but not one file (playtest E5, issue 31), and an agent had to
double-click by coordinates. The module installs exo's own implementation at start-up
(how: the C source's comment); in a program without exo it does nothing.

It is compiled with the system's ``cc`` the first time a desktop starts, into the user's
cache (keyed by the source's hash), and shown read-only inside the sandbox at
:data:`SANDBOX_PATH`; ``GTK_MODULES`` names it (:func:`sandbox_env`).
"""

from __future__ import annotations

from pathlib import Path

from reefbench.envs.desktop import native_build

SOURCE = Path(__file__).with_name("exo_a11y_module.c")
SANDBOX_PATH = "/run/reef/exo_a11y.so"
"""Where the built module appears inside the sandbox (``/run`` is the sandbox's own tmpfs)."""


def cache_dir() -> Path:
    """Where built modules are kept: ``$XDG_CACHE_HOME/reefbench/gtk-modules``."""
    return native_build.cache_dir("gtk-modules")


def build(cache: Path | None = None) -> Path:
    """The module built from :data:`SOURCE` (compiled on first use, then reused).

    Raises:
        EnvironmentFailure: no C compiler, or the compiler rejected the source.
    """
    return native_build.build_library(
        SOURCE,
        cache or cache_dir(),
        "the desktop's GTK module",
        "the desktop builds a GTK module that lists Thunar's files",
    )


def sandbox_files() -> dict[str, Path]:
    """Sandbox path -> host file: the module, shown read-only inside."""
    return {SANDBOX_PATH: build()}


def sandbox_env() -> dict[str, str]:
    """The variable that makes GTK 3 apps load the module (an absolute path is loaded as
    is; GTK 2 apps, if any, would skip it: it finds no GTK 3 symbols)."""
    return {"GTK_MODULES": SANDBOX_PATH}
