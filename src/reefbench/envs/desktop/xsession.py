"""The desktop session around the apps: a panel, a wallpaper with desktop icons, xfconf.

A bare window manager on a black root window is not what a user sees, and an agent that
only ever met one learns nothing about finding its way on a real desktop. The session is
Xfce's: ``xfce4-panel`` (application menu, window buttons, a clock) at the top and
``xfdesktop`` (wallpaper, icons of the home, the file system and ~/Desktop's files).
Both read their configuration from xfconf (the ``xfconfd`` daemon, started by D-Bus on the
first query), whose XML files this module writes into the baseline home, so every reset
brings back the same panel and the same wallpaper.

The clock shows minutes, never seconds: the desktop settles on a quiet screen, and a
clock ticking every second would keep it busy forever.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

# Started in this order after the window manager; the panel and the desktop are the
# session's long-lived clients (not apps: tasks never start nor close them).
SESSION_PROGRAMS: tuple[tuple[str, ...], ...] = (
    ("xfdesktop", "--disable-wm-check"),
    ("xfce4-panel", "--disable-wm-check"),
)
# X window classes of the session's own windows: never "the app's window".
SESSION_WINDOW_CLASSES = frozenset({"Xfdesktop", "Xfce4-panel"})
XFCONF_DIR = ".config/xfce4/xfconf/xfce-perchannel-xml"
DEFAULT_WALLPAPER = "/usr/share/backgrounds/xfce/xfce-teal.jpg"
# xfdesktop names a monitor after its RandR output; Xvfb's only output is "screen".
WALLPAPER_PROPERTY = "/backdrop/screen0/monitorscreen/workspace0/last-image"
STYLE_PROPERTY = WALLPAPER_PROPERTY.rsplit("/", 1)[0] + "/image-style"
CLOCK_FORMAT = "%a %d %b %H:%M"

_PANEL_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="dark-mode" type="bool" value="false"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=6;x=0;y=0"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="icon-size" type="uint" value="16"/>
      <property name="size" type="uint" value="26"/>
      <property name="plugin-ids" type="array">
        <value type="int" value="1"/>
        <value type="int" value="2"/>
        <value type="int" value="3"/>
        <value type="int" value="4"/>
      </property>
    </property>
  </property>
  <property name="plugins" type="empty">
    <property name="plugin-1" type="string" value="applicationsmenu">
      <property name="button-title" type="string" value="Applications"/>
    </property>
    <property name="plugin-2" type="string" value="tasklist">
      <property name="grouping" type="uint" value="0"/>
    </property>
    <property name="plugin-3" type="string" value="separator">
      <property name="expand" type="bool" value="true"/>
      <property name="style" type="uint" value="0"/>
    </property>
    <property name="plugin-4" type="string" value="clock">
      <property name="mode" type="uint" value="2"/>
      <property name="digital-layout" type="uint" value="3"/>
      <property name="digital-time-format" type="string" value="{CLOCK_FORMAT}"/>
      <property name="digital-format" type="string" value="{CLOCK_FORMAT}"/>
      <property name="tooltip-format" type="string" value="%A %d %B %Y"/>
    </property>
  </property>
</channel>
"""


def desktop_xml(wallpaper: str = DEFAULT_WALLPAPER) -> str:
    """xfdesktop's channel: one wallpaper, zoomed, and file icons on the desktop."""
    base = WALLPAPER_PROPERTY.rsplit("/", 1)[0].split("/")[1:]
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-desktop" version="1.0">
  <property name="{base[0]}" type="empty">
    <property name="{base[1]}" type="empty">
      <property name="{base[2]}" type="empty">
        <property name="{base[3]}" type="empty">
          <property name="color-style" type="int" value="0"/>
          <property name="image-style" type="int" value="5"/>
          <property name="last-image" type="string" value="{wallpaper}"/>
        </property>
      </property>
    </property>
  </property>
  <property name="desktop-icons" type="empty">
    <property name="style" type="int" value="2"/>
    <property name="icon-size" type="uint" value="48"/>
    <property name="tooltip-size" type="double" value="64"/>
    <property name="file-icons" type="empty">
      <property name="show-removable" type="bool" value="false"/>
      <property name="show-trash" type="bool" value="false"/>
      <property name="show-filesystem" type="bool" value="false"/>
      <property name="show-home" type="bool" value="true"/>
    </property>
  </property>
  <property name="desktop-menu" type="empty">
    <property name="show-delete" type="bool" value="false"/>
  </property>
</channel>
"""


def write_session_config(home: Path) -> None:
    """Write the panel's and the desktop's xfconf channels into the baseline ``home``."""
    target = home / XFCONF_DIR
    target.mkdir(parents=True, exist_ok=True)
    (target / "xfce4-panel.xml").write_text(_PANEL_XML)
    (target / "xfce4-desktop.xml").write_text(desktop_xml())


def screen_sized_wallpaper(source: Path, screen: tuple[int, int], target: Path) -> bool:
    """Write ``source`` scaled down to just cover ``screen`` (as the zoomed style draws it)
    into ``target``; ``False`` (nothing written) when it is missing or not larger.

    Debian's default wallpaper is 3840x2400: decoding and scaling it took xfdesktop about
    200 ms of every desktop reset (the wallpaper came 320 ms after the session started, the
    panel 130 ms). The session shows this copy at the picture's own path, so what is stored
    and what xfdesktop names as drawn stay the same.
    """
    from PIL import Image

    try:
        with Image.open(source) as image:
            factor = max(screen[0] / image.width, screen[1] / image.height)
            if factor >= 1.0:
                return False
            size = (round(image.width * factor), round(image.height * factor))
            image.convert("RGB").resize(size, Image.Resampling.LANCZOS).save(
                target, "JPEG", quality=92
            )
    except OSError:
        return False
    return True


def session_windows_mapped(env: dict[str, str]) -> bool:
    """Whether the panel's window is among the window manager's clients (``xprop``)."""
    done = subprocess.run(
        ["xprop", "-root", "_NET_CLIENT_LIST"], capture_output=True, env=env, check=False
    )
    ids = done.stdout.decode(errors="replace").partition("#")[2]
    for raw in ids.split(","):
        wid = raw.strip()
        if not wid:
            continue
        cls = subprocess.run(
            ["xprop", "-id", wid, "WM_CLASS"], capture_output=True, env=env, check=False
        )
        if b'"Xfce4-panel"' in cls.stdout:
            return True
    return False
