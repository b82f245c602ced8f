"""Every program reefbench, its environments and its suites run, declared once.

Each entry is a Debian package with the executables it must provide, who needs it, the
desktop apps (as tasks name them in ``metadata.apps``) that cannot work without it, and
whether the set-up installs it. Everything else reads this table:

* ``system-packages.txt``, which ``scripts/setup-system.sh`` installs, is its rendering
  (:func:`packages_file_text`; ``reef doctor --system-packages`` prints it, and a test
  keeps the file equal to it);
* ``reef doctor`` checks each entry on this machine;
* an episode whose task names an app with a missing tool ends as ``env_error`` naming the
  tool and its package, before anything runs: a machine without ImageMagick must not
  score an agent as failing an image task.

An executable can be present and still be the wrong program (a stand-in ``convert`` that
is not ImageMagick), so an entry may carry a probe: arguments to run and a word the output
must contain.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass

SYSTEM_PACKAGES_FILE = "system-packages.txt"


@dataclass(frozen=True)
class Probe:
    """``executable *args`` must exit 0 and print ``expect`` (stdout or stderr)."""

    executable: str
    args: tuple[str, ...]
    expect: str


@dataclass(frozen=True)
class SystemPackage:
    """One Debian package reefbench needs.

    Attributes:
        package: The Debian package name (what ``apt-get install`` takes).
        needed_by: Who runs it, for people reading ``reef doctor``.
        group: Heading under which ``system-packages.txt`` lists it.
        executables: Programs it must put on ``PATH`` (or absolute paths); empty for
            libraries, fonts and data, which are checked with ``dpkg-query``.
        apps: Desktop apps (``TaskMetadata.apps`` names) that need it: a task naming one
            of them does not run without it.
        optional: Not installed by the set-up; used when present.
        probe: A check that the executable is the right program.
    """

    package: str
    needed_by: str
    group: str
    executables: tuple[str, ...] = ()
    apps: tuple[str, ...] = ()
    optional: bool = False
    probe: Probe | None = None

    @property
    def install_hint(self) -> str:
        return f"apt-get install {self.package}"


_CORE = "Core: the two make commands, the venv, process tools"
_DESKTOP = "Desktop environment: X server, input, window manager, buses, sandbox"
_APPS = "Desktop applications (light, GTK, accessible through AT-SPI) and their tools"
_OFFICE = "Office suite on the desktop (LibreOffice Writer, Calc, Impress; GTK3 for AT-SPI)"
_OCR = "OCR"
_BROWSER = "Browser and phone environments (Playwright drives Debian's Chromium)"
_ANDROID = "Android devices over ADB (real devices or emulators attached by the user)"
_OPTIONAL = "Optional desktop apps: used when installed, never installed by the set-up"

PACKAGES: tuple[SystemPackage, ...] = (
    SystemPackage(
        "python3", "the sandbox and make setup (Python 3.11+)", _CORE, ("/usr/bin/python3",)
    ),
    SystemPackage("python3-venv", "make setup (.venv)", _CORE),
    SystemPackage("python3-pip", "make setup (.venv)", _CORE),
    SystemPackage("make", "make run, make test", _CORE, ("make",)),
    SystemPackage("git", "duplicates checks, source checkouts", _CORE, ("git",)),
    SystemPackage("procps", "desktop tasks (pkill in the terminal)", _CORE, ("pkill", "ps")),
    SystemPackage("psmisc", "desktop terminal (killall, fuser)", _CORE, ("killall",)),
    SystemPackage(
        "util-linux", "X servers bound to the harness (setpriv --pdeathsig)", _CORE, ("setpriv",)
    ),
    SystemPackage("xvfb", "desktop environment (X server)", _DESKTOP, ("Xvfb",)),
    SystemPackage("xauth", "desktop environment (X authority)", _DESKTOP, ("xauth",)),
    SystemPackage("xdotool", "desktop input", _DESKTOP, ("xdotool",)),
    SystemPackage("x11-utils", "desktop windows (xprop, xwininfo)", _DESKTOP, ("xprop",)),
    SystemPackage("xclip", "desktop clipboard", _DESKTOP, ("xclip",)),
    SystemPackage("openbox", "desktop window manager", _DESKTOP, ("openbox",)),
    SystemPackage("dbus", "desktop session bus", _DESKTOP),
    SystemPackage("dbus-daemon", "desktop session bus", _DESKTOP, ("dbus-daemon",)),
    SystemPackage("dbus-x11", "desktop session bus (dbus-launch)", _DESKTOP, ("dbus-launch",)),
    SystemPackage("dbus-user-session", "desktop session bus", _DESKTOP),
    SystemPackage(
        "at-spi2-core",
        "desktop accessibility tree",
        _DESKTOP,
        ("/usr/libexec/at-spi-bus-launcher",),
    ),
    SystemPackage("gir1.2-atspi-2.0", "desktop accessibility tree", _DESKTOP),
    SystemPackage("python3-gi", "desktop accessibility tree", _DESKTOP),
    SystemPackage("python3-pyatspi", "desktop accessibility tree", _DESKTOP),
    SystemPackage("dconf-service", "desktop settings (GSettings)", _DESKTOP),
    SystemPackage("dconf-gsettings-backend", "desktop settings (GSettings)", _DESKTOP),
    SystemPackage("libglib2.0-bin", "desktop settings (gsettings)", _DESKTOP, ("gsettings",)),
    SystemPackage("bubblewrap", "desktop sandbox", _DESKTOP, ("bwrap",)),
    SystemPackage("libfaketime", "desktop clock (the task's world time in the sandbox)", _DESKTOP),
    SystemPackage(
        "gcc",
        "desktop clock and element list (builds the file-time shim and the GTK module "
        "that lists Thunar's icon-view files)",
        _DESKTOP,
        ("cc",),
    ),
    SystemPackage("libc6-dev", "desktop clock (the file-time shim's C headers)", _DESKTOP),
    SystemPackage(
        "xfce4-panel",
        "desktop session (panel: app menu, window buttons, clock)",
        _DESKTOP,
        ("xfce4-panel",),
    ),
    SystemPackage(
        "xfdesktop4",
        "desktop session (wallpaper, desktop icons) and the Desktop Settings app",
        _DESKTOP,
        ("xfdesktop", "xfdesktop-settings"),
        ("desktop-settings",),
    ),
    SystemPackage(
        "xfce4-settings",
        "the Appearance settings app (theme, fonts)",
        _DESKTOP,
        ("xfce4-appearance-settings",),
        ("appearance",),
    ),
    SystemPackage("xfconf", "desktop settings store (xfconf-query)", _DESKTOP, ("xfconf-query",)),
    SystemPackage("rofi", "desktop launcher (search_app)", _APPS, ("rofi",)),
    SystemPackage(
        "xfce4-terminal", "desktop terminal", _APPS, ("xfce4-terminal",), ("terminal", "vim")
    ),
    SystemPackage("mousepad", "desktop text editor", _APPS, ("mousepad",), ("mousepad",)),
    SystemPackage("thunar", "desktop file manager", _APPS, ("thunar",), ("thunar",)),
    SystemPackage("vim", "desktop editor in the terminal", _APPS, ("vim",), ("vim",)),
    SystemPackage(
        "imagemagick",
        "desktop image tasks (convert, identify)",
        _APPS,
        ("convert", "identify"),
        ("imagemagick",),
        probe=Probe("convert", ("-version",), "ImageMagick"),
    ),
    SystemPackage(
        "drawing",
        "desktop image editor (Drawing: rotate, flip, crop, scale, filters, export)",
        _APPS,
        ("drawing",),
        ("image-editor",),
    ),
    SystemPackage("adwaita-icon-theme", "desktop apps' icons", _APPS),
    SystemPackage("fonts-dejavu-core", "desktop and OCR text", _APPS),
    SystemPackage("fonts-dejavu-extra", "desktop and OCR text", _APPS),
    # Nimbus Sans/Mono and URW Gothic: the appearance tasks' look-alike font faces (also
    # pulled in by Ghostscript today, named here so the tasks never depend on that).
    SystemPackage("fonts-urw-base35", "font faces the appearance tasks choose among", _APPS),
    SystemPackage(
        "libreoffice-writer",
        "desktop word processor (LibreOffice Writer)",
        _OFFICE,
        ("lowriter",),
        ("writer",),
        probe=Probe("libreoffice", ("--version",), "LibreOffice"),
    ),
    SystemPackage(
        "libreoffice-calc",
        "desktop spreadsheet (LibreOffice Calc)",
        _OFFICE,
        ("localc",),
        ("calc",),
    ),
    SystemPackage(
        "libreoffice-impress",
        "desktop presentations (LibreOffice Impress)",
        _OFFICE,
        ("loimpress",),
        ("impress",),
    ),
    # The GTK3 VCL plugin: without it LibreOffice draws with its own X11 toolkit, which
    # has no AT-SPI bridge, and its elements never reach the element list.
    SystemPackage(
        "libreoffice-gtk3",
        "LibreOffice's accessibility (GTK3 toolkit, AT-SPI)",
        _OFFICE,
        (),
        ("writer", "calc", "impress"),
    ),
    SystemPackage(
        "libatk-adaptor",
        "GTK apps' AT-SPI bridge (LibreOffice's elements in the element list)",
        _OFFICE,
    ),
    SystemPackage("tesseract-ocr", "OCR observations", _OCR, ("tesseract",)),
    SystemPackage("tesseract-ocr-eng", "OCR observations (English)", _OCR),
    SystemPackage("chromium", "browser and phone environments", _BROWSER, ("chromium",)),
    SystemPackage("adb", "Android environment", _ANDROID, ("adb",)),
    SystemPackage("gimp", "desktop image editing", _OPTIONAL, ("gimp",), ("gimp",), optional=True),
)


def installed_by_setup() -> list[SystemPackage]:
    """The packages ``make setup`` installs (every one that is not optional)."""
    return [p for p in PACKAGES if not p.optional]


def packages_file_text() -> str:
    """``system-packages.txt`` as the set-up reads it: one package a line, by group."""
    lines = [
        "# Debian packages reefbench needs, one per line: scripts/setup-system.sh installs the",
        "# missing ones (with --no-install-recommends, so everything used is named here).",
        "# Generated from reefbench/host/system_packages.py by `reef doctor --system-packages`;",
        "# edit that table, not this file (a test keeps the two equal).",
    ]
    group = ""
    for package in installed_by_setup():
        if package.group != group:
            group = package.group
            lines.append(f"# {group}")
        lines.append(package.package)
    return "\n".join(lines) + "\n"


def missing_executables(package: SystemPackage) -> list[str]:
    """The executables of ``package`` that are not on ``PATH`` (or fail its probe)."""
    missing = [exe for exe in package.executables if _locate(exe) is None]
    if not missing and package.probe is not None:
        path = _locate(package.probe.executable)
        if path is None or not _probe(path, _mtime(path), package.probe):
            missing.append(package.probe.executable)
    return missing


def package_installed(package: SystemPackage) -> bool | None:
    """Whether dpkg has ``package`` installed; ``None`` where there is no dpkg."""
    query = shutil.which("dpkg-query")
    if query is None:
        return None
    done = subprocess.run(
        [query, "-W", "-f=${Status}", package.package],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.returncode == 0 and "install ok installed" in done.stdout


def missing_for_apps(apps: Iterable[str]) -> list[tuple[str, SystemPackage]]:
    """(executable, package) for every tool missing here that one of ``apps`` needs."""
    wanted = set(apps)
    return [
        (exe, package)
        for package in PACKAGES
        if wanted.intersection(package.apps)
        for exe in missing_executables(package)
    ]


def describe_missing(missing: list[tuple[str, SystemPackage]]) -> str:
    """One line naming the missing tools and how to install them."""
    tools = ", ".join(f"{exe} (Debian package {package.package})" for exe, package in missing)
    packages = " ".join(sorted({package.package for _, package in missing}))
    return (
        f"missing tool(s) on this machine: {tools}; run `make setup` or apt-get install {packages}"
    )


def _locate(executable: str) -> str | None:
    if os.path.isabs(executable):
        return executable if os.access(executable, os.X_OK) else None
    return shutil.which(executable)


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


@functools.lru_cache(maxsize=64)
def _probe(path: str, mtime: float, probe: Probe) -> bool:
    """Cached per path and modification time: episodes check their tools every time."""
    try:
        done = subprocess.run(
            [path, *probe.args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and probe.expect in done.stdout + done.stderr
