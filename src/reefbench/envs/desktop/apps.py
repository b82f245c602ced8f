"""The desktop's applications: what they are, how they start, how to recognise them.

Chosen for being light, real, accessible through AT-SPI and installable from Debian:
openbox (window manager), rofi (launcher behind ``search_app``), xfce4-terminal (GTK
terminal), mousepad (GTK editor), thunar (GTK file manager), vim (in the terminal) and
Chromium, and LibreOffice Writer, Calc and Impress (GTK3 toolkit, so their elements reach
AT-SPI; a prepared profile in the baseline home, :mod:`reefbench.envs.desktop.office`). GIMP
is used when installed; :func:`missing_apps` tells tasks that need it why they are skipped.

The launcher shows exactly these apps: the sandbox's ``/usr/share/applications`` is
replaced by the ``.desktop`` files written by :func:`write_desktop_files`, so a search
never lands on a settings dialog or an app the benchmark does not know.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

# Drawing's settings in a text file of the home (the baseline writes it).
from reefbench.envs.desktop.image_editor import ENV as _IMAGE_EDITOR_ENV


@dataclass(frozen=True)
class AppSpec:
    """One application of the desktop.

    Attributes:
        name: Short id used by tasks (``"terminal"``).
        title: Name shown in the launcher (``"Terminal"``).
        argv: Command that starts it (inside the sandbox), without a file argument.
        process: Process name (``comm``) of its main process, for process evaluators.
        wm_class: X window class of its windows.
        keywords: Further words the launcher matches.
        executable: Binary that must exist for the app to be available.
        terminal: Runs inside the terminal (vim).
        env: Extra environment variables it needs (non-secret).
        ready_title: Words its window's title has once the app takes input. LibreOffice
            maps its window (titled "LibreOffice 7.4") before the document is loaded, and
            keys pressed in that moment are lost; the title names the document when it is
            ready.
        ready_element: Name of an element its window lists once it is laid out. Drawing
            maps a window titled "Drawing" and fills it a moment later; an observation in
            between lists none of its tools.
        kind: What it is, in a few words the agent reads after its title in every list
            of the desktop's apps (``search_app``'s description, the desktop's).
        optional: Not part of every desktop: listed as "if installed".
    """

    name: str
    title: str
    argv: tuple[str, ...]
    process: str
    wm_class: str
    keywords: tuple[str, ...] = ()
    executable: str = ""
    terminal: bool = False
    env: dict[str, str] = field(default_factory=dict)
    ready_title: str = ""
    ready_element: str = ""
    kind: str = ""
    optional: bool = False

    @property
    def binary(self) -> str:
        return self.executable or self.argv[0]

    def available(self) -> bool:
        return shutil.which(self.binary) is not None


CHROMIUM_FLAGS = (
    "--no-sandbox",  # the desktop sandbox is the sandbox; root in a user namespace
    "--force-renderer-accessibility",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--password-store=basic",
    "--disable-features=Translate,MediaRouter",
)

# GTK3 toolkit: the one whose accessibility reaches AT-SPI (the default outside a known
# desktop session is LibreOffice's own X11 toolkit, which has none).
_OFFICE_ENV = {"SAL_USE_VCLPLUGIN": "gtk3"}


APPS: dict[str, AppSpec] = {
    a.name: a
    for a in (
        AppSpec(
            "terminal",
            "Terminal",
            ("xfce4-terminal", "--disable-server"),
            "xfce4-terminal",
            "Xfce4-terminal",
            ("shell", "console", "command line", "xfce4-terminal"),
            kind="xfce4-terminal",
        ),
        AppSpec(
            "editor",
            "Text Editor",
            ("mousepad",),
            "mousepad",
            "Mousepad",
            ("mousepad", "notepad", "text"),
            kind="mousepad",
        ),
        AppSpec(
            "files",
            "Files",
            ("thunar",),
            "thunar",
            "Thunar",
            ("file manager", "thunar", "folder", "explorer"),
            kind="thunar, file manager",
        ),
        AppSpec(
            "vim",
            "Vim",
            ("xfce4-terminal", "--disable-server", "-x", "vim"),
            "vim",
            "Xfce4-terminal",
            ("vi", "editor"),
            executable="vim",
            terminal=True,
            kind="in the terminal",
        ),
        AppSpec(
            "browser",
            "Chromium",
            ("chromium", *CHROMIUM_FLAGS),
            "chromium",
            "Chromium",
            ("web browser", "internet", "chrome"),
            env={"ACCESSIBILITY_ENABLED": "1"},
            kind="web browser",
        ),
        # LibreOffice: one process (soffice.bin) for the three apps, a window class each.
        # --norestore: no document-recovery dialog after an app was killed at reset;
        # --nologo: no splash window for search_app to mistake for the app's window.
        AppSpec(
            "writer",
            "LibreOffice Writer",
            ("libreoffice", "--writer", "--norestore", "--nologo"),
            "soffice.bin",
            "libreoffice-writer",
            ("word processor", "document", "writer", "office", "text document"),
            executable="lowriter",
            env=_OFFICE_ENV,
            ready_title=" - LibreOffice Writer",
            kind="word processor",
        ),
        AppSpec(
            "calc",
            "LibreOffice Calc",
            ("libreoffice", "--calc", "--norestore", "--nologo"),
            "soffice.bin",
            "libreoffice-calc",
            ("spreadsheet", "calc", "office", "table", "excel"),
            executable="localc",
            env=_OFFICE_ENV,
            ready_title=" - LibreOffice Calc",
            kind="spreadsheet",
        ),
        AppSpec(
            "impress",
            "LibreOffice Impress",
            ("libreoffice", "--impress", "--norestore", "--nologo"),
            "soffice.bin",
            "libreoffice-impress",
            ("presentation", "slides", "impress", "office", "powerpoint"),
            executable="loimpress",
            env=_OFFICE_ENV,
            ready_title=" - LibreOffice Impress",
            kind="presentation",
        ),
        # The session's settings (xfconf): the wallpaper, and the theme and fonts.
        AppSpec(
            "desktop-settings",
            "Desktop Settings",
            ("xfdesktop-settings",),
            "xfdesktop-settings",
            "Xfdesktop-settings",
            ("wallpaper", "background", "desktop", "settings"),
            kind="wallpaper",
        ),
        AppSpec(
            "appearance",
            "Appearance",
            ("xfce4-appearance-settings",),
            "xfce4-appearance-settings",
            "Xfce4-appearance-settings",
            ("theme", "fonts", "style", "look", "settings"),
            kind="theme and fonts",
        ),
        # Drawing (GTK3, 11 small Debian packages): rotate, flip, crop, scale, colour
        # filters and export as another format, every control an AT-SPI element; GIMP
        # (74 packages) stays an optional extra.
        AppSpec(
            "image-editor",
            "Drawing",
            ("drawing",),
            "drawing",
            "Drawing",
            ("image editor", "picture", "photo", "paint", "crop", "rotate"),
            env=_IMAGE_EDITOR_ENV,
            ready_element="Pencil",
            kind="image editor: rotate, flip, crop, scale, filters",
        ),
        AppSpec(
            "gimp",
            "GIMP",
            ("gimp", "--no-splash"),
            "gimp",
            "Gimp",
            ("image editor",),
            kind="image editor",
            optional=True,
        ),
    )
}

WINDOW_MANAGER = ("openbox", "--sm-disable")
LAUNCHER = ("rofi", "-show", "drun", "-no-lazy-grab", "-terminal", "xfce4-terminal")


def app(name: str) -> AppSpec:
    """The app called ``name`` (a key of :data:`APPS`)."""
    try:
        return APPS[name]
    except KeyError:
        from reefbench.errors import ConfigError

        raise ConfigError(
            f"unknown desktop app {name!r}: choose one of {', '.join(sorted(APPS))}"
        ) from None


def apps_text() -> str:
    """Every app of :data:`APPS` as the agent reads them, ``Title (kind)``, comma-separated:
    the one source of ``search_app``'s list and the desktop's description, so neither
    can leave an app out (a test compares them)."""
    return ", ".join(
        f"{a.title} ({a.kind}{'; if installed' if a.optional else ''})"
        if a.kind
        else a.title + (" (if installed)" if a.optional else "")
        for a in APPS.values()
    )


def missing_apps(names: list[str] | tuple[str, ...]) -> list[str]:
    """Which of ``names`` cannot run here, as 'name (needs binary)' strings."""
    return [f"{n} (needs {app(n).binary})" for n in names if not app(n).available()]


def _desktop_entry(spec: AppSpec) -> str:
    # Exec is split by the launcher on spaces; none of our arguments contains one.
    exec_line = " ".join(spec.argv)
    if spec.env:
        exec_line = "env " + " ".join(f"{k}={v}" for k, v in spec.env.items()) + " " + exec_line
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={spec.title}\n"
        f"Exec={exec_line}\n"
        f"Keywords={';'.join(spec.keywords)};\n"
        "Terminal=false\n"
        f"StartupWMClass={spec.wm_class}\n"
    )


def write_desktop_files(directory: Path) -> list[str]:
    """Write one ``.desktop`` file per available app; returns the names written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in APPS.values():
        if spec.available():
            (directory / f"reef-{spec.name}.desktop").write_text(_desktop_entry(spec))
            written.append(spec.name)
    return written
