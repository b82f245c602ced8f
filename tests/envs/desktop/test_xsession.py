"""The desktop session (xfce4-panel, xfdesktop) and its settings' checkpoints, on a real
desktop: the panel and the wallpaper are there from the first observation, the session's
windows never count as the app in front, and the wallpaper checkpoint needs both the
setting and the drawn picture."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reefbench.benchmark import checks as hp
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import session_evaluators as sev
from reefbench.envs.desktop.xsession import (
    DEFAULT_WALLPAPER,
    SESSION_WINDOW_CLASSES,
    WALLPAPER_PROPERTY,
    desktop_xml,
    screen_sized_wallpaper,
)
from reefbench.plumbing.waiting import wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xfdesktop", "xfce4-panel", "xprop"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xfdesktop, xfce4-panel, xprop and Debian's python3",
    ),
]


def test_the_baseline_channel_names_the_default_wallpaper() -> None:
    assert f'value="{DEFAULT_WALLPAPER}"' in desktop_xml()
    assert 'value="/x.png"' in desktop_xml("/x.png")


def test_a_large_wallpaper_is_copied_at_the_size_that_covers_the_screen(tmp_path: Path) -> None:
    from PIL import Image

    big, small = tmp_path / "big.jpg", tmp_path / "small.png"
    Image.new("RGB", (3000, 1500), "teal").save(big)
    Image.new("RGB", (640, 400), "teal").save(small)
    assert screen_sized_wallpaper(big, (1280, 800), tmp_path / "copy.jpg")
    with Image.open(tmp_path / "copy.jpg") as copy:
        assert copy.size == (1600, 800)  # zoomed: the height decides, nothing upscaled
    assert not screen_sized_wallpaper(small, (1280, 800), tmp_path / "none.jpg")
    assert not screen_sized_wallpaper(tmp_path / "missing.jpg", (1280, 800), tmp_path / "x.jpg")
    assert not (tmp_path / "none.jpg").exists()


def test_the_sandbox_shows_the_screen_sized_default_wallpaper(desk: DesktopEnvironment) -> None:
    from PIL import Image

    with Image.open(DEFAULT_WALLPAPER) as system:
        if system.width <= desk.config.width:
            pytest.skip("this system's default wallpaper is not larger than the screen")
    desk.reset()
    assert desk.session.dir is not None
    copy = desk.session.dir / "wallpaper.jpg"
    inside = desk.session.run(["stat", "-c", "%s", DEFAULT_WALLPAPER], timeout=5)
    assert inside.stdout.strip() == str(copy.stat().st_size)
    # The setting and the drawn picture still name the system's path.
    assert sev.wallpaper_shows(value=DEFAULT_WALLPAPER).evaluate(desk).success


def test_panel_and_wallpaper_are_up_after_a_reset(desk: DesktopEnvironment) -> None:
    desk.reset()
    classes = {w.wm_class for w in desk.x11.stacking()}
    assert "Xfce4-panel" in classes
    names = [m.name for m in desk.observe_now().marks.marks]
    assert "Applications" in names  # the panel's menu button is an element
    assert sev.wallpaper_shows(value=DEFAULT_WALLPAPER).evaluate(desk).success


def test_a_click_on_the_wallpaper_leaves_no_app_in_front(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.step("click_at", {"x": 640, "y": 500})
    active = desk.x11.active()
    assert active is None or active.wm_class not in SESSION_WINDOW_CLASSES
    assert desk.exiting_apps() == []


def test_wallpaper_checkpoint_needs_the_setting_and_the_drawn_picture(
    desk: DesktopEnvironment,
) -> None:
    desk.reset()
    hp.draw_picture(path="~/Pictures/sea.png", width=320, height=200, color="navy").run(desk)
    check = sev.wallpaper_shows(value="~/Pictures/sea.png")
    assert not check.evaluate(desk).success
    channel, prop = sev.DESKTOP_CHANNEL, WALLPAPER_PROPERTY
    # A path to no picture is stored but never drawn: still not the wallpaper.
    desk.session.run(["xfconf-query", "-c", channel, "-p", prop, "-s", "/home/user/none.png"])
    assert (
        sev.xfconf_equals(channel=channel, prop=prop, value="/home/user/none.png")
        .evaluate(desk)
        .success
    )
    assert not sev.wallpaper_shows(value="~/none.png").evaluate(desk).success
    desk.session.run(
        ["xfconf-query", "-c", channel, "-p", prop, "-s", "/home/user/Pictures/sea.png"]
    )
    assert wait_until(lambda: check.evaluate(desk).success, 10.0)
    assert not sev.wallpaper_style(value="Tiled").evaluate(desk).success
    assert sev.wallpaper_style(value="Zoomed").evaluate(desk).success


def test_the_file_manager_runs_as_itself_beside_the_desktop(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.step("search_app", {"name": "files"})
    comms = {p["comm"] for p in desk.session.processes()}
    assert "thunar" in comms and "Thunar" not in comms  # no daemon took its window


def test_font_checkpoint_needs_the_font_where_apps_read_it(desk: DesktopEnvironment) -> None:
    desk.reset()
    prop = "/Gtk/FontName"
    check = sev.desktop_font(prop=prop, value="Nimbus Sans 13")
    assert not check.evaluate(desk).success
    # Set behind the Appearance app's back in xfconf only: no app is given the font.
    desk.session.run(
        ["xfconf-query", "-c", sev.SETTINGS_CHANNEL, "-p", prop, "-s", "Nimbus Sans 13"]
    )
    assert not check.evaluate(desk).success
    desk.session.run(["gsettings", "set", sev.INTERFACE_SCHEMA, "font-name", "Nimbus Sans 13"])
    assert check.evaluate(desk).success
    assert not sev.desktop_font(prop=prop, value="Nimbus Sans 12").evaluate(desk).success
    assert check.state_keys() == {
        "xfconf:xsettings/Gtk/FontName",
        "gsetting:org.gnome.desktop.interface/font-name",
    }
    desk.reset()  # the next episode starts from the baseline's fonts
    assert not check.evaluate(desk).success
