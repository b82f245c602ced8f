"""Checkpoints on the desktop session's settings (xfconf) and what the desktop shows.

A setting in the store is not yet a change the user sees: xfdesktop draws the wallpaper
from its channel and names the file it drew in a root-window property
(``XFDESKTOP_IMAGE_FILE_0``), so :func:`wallpaper_shows` checks both, and a stored path
the desktop never drew (a typo, a file that does not exist: xfdesktop names it all the
same) fails.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.xsession import STYLE_PROPERTY, WALLPAPER_PROPERTY
from reefbench.errors import ActionFailed

DESKTOP_CHANNEL = "xfce4-desktop"
# xfdesktop's image-style values, by the name its settings app shows.
WALLPAPER_STYLES = {
    "None": 0,
    "Centered": 1,
    "Tiled": 2,
    "Stretched": 3,
    "Scaled": 4,
    "Zoomed": 5,
    "Spanning Screens": 6,
}


def _xfconf_keys(channel: str, prop: str, **_: Any) -> list[str]:
    return [f"xfconf:{channel}{prop}"]


def _wallpaper_keys(**_: Any) -> list[str]:
    return [f"xfconf:{DESKTOP_CHANNEL}{WALLPAPER_PROPERTY}"]


def _style_keys(**_: Any) -> list[str]:
    return [f"xfconf:{DESKTOP_CHANNEL}{STYLE_PROPERTY}"]


def xfconf_value(env: DesktopDevice, channel: str, prop: str) -> str | None:
    """A property of an xfconf channel as ``xfconf-query`` prints it (None: unset)."""
    done = env.session.run(["xfconf-query", "-c", channel, "-p", prop], timeout=5)
    return done.stdout.strip() if done.returncode == 0 else None


@evaluator(governs=_xfconf_keys)
def xfconf_equals(channel: str, prop: str, value: str, env: DesktopDevice) -> EvalResult:
    """A property of a desktop settings channel (xfconf) equals the value.

    Args:
        channel: The channel, e.g. "xsettings" or "xfce4-desktop".
        prop: The property path, e.g. "/Net/ThemeName".
        value: Expected value as xfconf-query prints it.
    """
    current = xfconf_value(env, channel, prop)
    return EvalResult(success=current == value, message=f"{channel} {prop} is {current!r}")


def _root_property(env: DesktopDevice, name: str) -> str:
    done = subprocess.run(
        ["xprop", "-root", name],
        capture_output=True,
        text=True,
        env=env.session.host_env(),
        timeout=5,
        check=False,
    )
    _, _, value = done.stdout.partition(" = ")
    return value.strip().strip('"')


def _picture_exists(env: DesktopDevice, path: str) -> bool:
    try:
        return env.session.host_path(path).is_file()
    except ActionFailed:  # a system picture (/usr/share/backgrounds): read-only, shared
        return Path(path).is_file()


@evaluator(governs=_wallpaper_keys)
def wallpaper_shows(value: str, env: DesktopDevice) -> EvalResult:
    """The desktop's wallpaper is this picture: stored in xfdesktop's settings and drawn.

    Args:
        value: The picture's path as the agent sees it (e.g. "~/Wallpapers/coast.png");
            named ``value`` because it is the state's value (two tasks' wallpapers clash).
    """
    wanted = "/home/user" + value[1:] if value.startswith("~") else value
    stored = xfconf_value(env, DESKTOP_CHANNEL, WALLPAPER_PROPERTY)
    if stored != wanted:
        return EvalResult(success=False, message=f"the wallpaper setting is {stored!r}")
    # xfdesktop names the file it was told to draw even when there is nothing to draw.
    if not _picture_exists(env, wanted):
        return EvalResult(success=False, message=f"there is no picture {value}")
    drawn = _root_property(env, "XFDESKTOP_IMAGE_FILE_0")
    return EvalResult(success=drawn == wanted, message=f"the desktop shows {drawn!r}")


@evaluator(governs=_style_keys)
def wallpaper_style(value: str, env: DesktopDevice) -> EvalResult:
    """The wallpaper is drawn in this style (a name the Desktop Settings app shows).

    Args:
        value: "Centered", "Tiled", "Stretched", "Scaled" or "Zoomed".
    """
    current = xfconf_value(env, DESKTOP_CHANNEL, STYLE_PROPERTY)
    expected = str(WALLPAPER_STYLES.get(value, -1))
    return EvalResult(success=current == expected, message=f"the wallpaper style is {current!r}")


SETTINGS_CHANNEL = "xsettings"
# The Appearance app writes each font twice: into xfconf's xsettings channel (what an
# Xfce settings daemon serves to apps) and into GSettings' desktop interface schema (what
# GTK and GNOME apps read without one). The session runs no xfsettingsd, so the GSettings
# copy is the one that reaches apps here.
INTERFACE_SCHEMA = "org.gnome.desktop.interface"
FONT_KEYS = {"/Gtk/FontName": "font-name", "/Gtk/MonospaceFontName": "monospace-font-name"}


def _font_keys(prop: str, **_: Any) -> list[str]:
    return [f"xfconf:{SETTINGS_CHANNEL}{prop}", f"gsetting:{INTERFACE_SCHEMA}/{FONT_KEYS[prop]}"]


@evaluator(governs=_font_keys)
def desktop_font(prop: str, value: str, env: DesktopDevice) -> EvalResult:
    """A desktop font is this one, stored in the session's settings and the one apps read.

    Args:
        prop: "/Gtk/FontName" (the default font) or "/Gtk/MonospaceFontName".
        value: A Pango font description, e.g. "Nimbus Sans 13".
    """
    stored = xfconf_value(env, SETTINGS_CHANNEL, prop)
    if stored != value:
        return EvalResult(success=False, message=f"{SETTINGS_CHANNEL} {prop} is {stored!r}")
    done = env.session.run(["gsettings", "get", INTERFACE_SCHEMA, FONT_KEYS[prop]], timeout=5)
    served = done.stdout.strip().strip("'") if done.returncode == 0 else None
    return EvalResult(success=served == value, message=f"apps are given the font {served!r}")
