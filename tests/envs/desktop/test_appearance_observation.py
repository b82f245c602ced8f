"""Faults a playtest of "adjust how the desktop looks" found in the Appearance app's Fonts
tab (issue 31), on the reader's JSON and on the real desktop: a font button listed without
the size it shows, a mixed check box listed as checked, two drop-downs named "None" by
their current item instead of by their labels, and the default wallpaper's screen-sized
copy dated at the host's time in the file chooser.
"""

from __future__ import annotations

import os
import shutil
import types
from pathlib import Path
from typing import Any

import pytest

from reefbench.environments.grounding import Candidate, ground, pick
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.a11y import parse_windows
from reefbench.envs.desktop.observation import take_snapshot
from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.x11 import XWindow
from reefbench.envs.desktop.xsession import DEFAULT_WALLPAPER

DESKTOP = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "xfconf-query"))
    or not Path("/usr/bin/python3").exists(),
    reason="needs Xvfb, bubblewrap, xdotool, openbox, xfconf and Debian's python3",
)


def _n(role: str, name: str, box: list[int], depth: int, **more: Any) -> dict[str, Any]:
    states = more.pop("states", ["sensitive"])
    return {"role": role, "name": name, "box": box, "depth": depth, "states": states, **more}


def _window(app: str, *nodes: dict[str, Any]) -> list[dict[str, Any]]:
    top = nodes[0]
    return [
        {"app": app, "pid": 5, "title": top["name"], "role": top["role"], "box": top["box"]}
        | {"nodes": list(nodes)}
    ]


# The Fonts tab as the reader gives it on a 1280x800 screen (read on the real desktop),
# after a font was chosen: the font buttons carry the label that labels them and what
# they show (the reader completes it from the setting they show).
FONTS_TAB = _window(
    "xfce4-appearance-settings",
    _n("dialog", "Appearance", [439, 131, 402, 565], 0),
    _n("page tab", "Fonts", [600, 163, 35, 30], 1, states=["selected", "sensitive"]),
    _n("panel", "Default Font", [461, 209, 358, 57], 2),
    _n("panel", "", [461, 226, 358, 40], 3),
    _n(
        "push button",
        "Nimbus Sans Regular",
        [473, 232, 346, 34],
        4,
        label="Default Font",
        value="Nimbus Sans Regular 12",
    ),
    _n("label", "Default Font", [461, 209, 93, 17], 3),
    _n("panel", "Rendering", [461, 359, 358, 125], 2),
    _n("panel", "", [461, 376, 358, 108], 3),
    _n("filler", "", [473, 382, 346, 102], 4),
    _n(
        "check box",
        "Enable anti-aliasing",
        [473, 382, 157, 22],
        5,
        states=["focusable", "checked", "sensitive", "indeterminate"],
    ),
    _n("panel", "", [473, 410, 346, 74], 5),
    _n("panel", "", [485, 410, 334, 74], 6),
    _n("combo box", "None", [599, 450, 220, 34], 7),
    _n("label", "Sub-pixel order:", [485, 450, 102, 34], 7),
    _n("combo box", "None", [599, 410, 220, 34], 7),
    _n("label", "Hinting:", [485, 410, 51, 34], 7),
    _n("panel", "DPI", [461, 502, 358, 57], 2),
    _n("filler", "", [473, 525, 346, 34], 3),
    _n("check box", "Custom DPI setting:", [473, 525, 157, 34], 4, states=["checked", "sensitive"]),
    _n("check box", "Show images in menus", [473, 560, 157, 22], 4),
)
FONTS_X = [XWindow(1, "Appearance", "Xfce4-appearance-settings", 5, (439, 131, 402, 565))]


def _lines(raw: list[dict[str, Any]]) -> list[str]:
    frame = Frame(bytes(1280 * 800 * 4), 1280, 800)
    snapshot = take_snapshot(frame, parse_windows(raw), FONTS_X, FONTS_X[0], ocr="never")
    return [m.line().split("] ", 1)[1] for m in snapshot.marks.marks]


def test_a_font_button_is_named_by_its_label_and_shows_font_and_size() -> None:
    """GtkFontButton draws "Nimbus Sans Regular" and "12" in two labels; its accessible
    name is the first alone, so the list lacked the size the screenshot shows."""
    assert 'push button "Default Font" value="Nimbus Sans Regular 12"' in _lines(FONTS_TAB)


def test_the_reader_reads_the_size_a_font_button_shows_from_its_setting(
    a11y_reader: types.ModuleType,
) -> None:
    size = a11y_reader.font_size
    assert size("Nimbus Sans 12", "Nimbus Sans Regular") == "12"
    assert size("Sans 10", "Sans Regular") == "10"
    assert size("DejaVu Sans Semi-Condensed 10.5", "DejaVu Sans Condensed") == "10.5"
    assert size("Sans 14px", "Sans Regular") == "14px"
    # The setting and the button read at different moments: another family, no size.
    assert size("Nimbus Sans 12", "Sans Regular") == ""
    assert size("Sans", "Sans Regular") == ""


def test_a_mixed_check_box_is_listed_as_mixed_and_the_others_as_they_are() -> None:
    lines = _lines(FONTS_TAB)
    assert 'check box "Enable anti-aliasing" (mixed)' in lines, lines
    assert 'check box "Custom DPI setting:" (checked)' in lines, lines
    assert 'check box "Show images in menus" (unchecked)' in lines, lines


def test_a_drop_down_is_named_by_the_label_beside_it_and_shows_its_choice() -> None:
    lines = _lines(FONTS_TAB)
    assert 'combo box "Hinting" value="None"' in lines, lines
    assert 'combo box "Sub-pixel order" value="None"' in lines, lines


# Desktop Settings' Background tab (read on the real desktop): the folder drop-down sits
# in a file chooser button of its own size, a sibling of "Folder:" through it.
BACKGROUND_TAB = _window(
    "xfdesktop-settings",
    _n("dialog", "Desktop", [373, 126, 655, 598], 0),
    _n("panel", "", [395, 548, 611, 74], 1),
    _n("label", "Color:", [395, 588, 44, 34], 2),
    _n("label", "Folder:", [395, 548, 44, 34], 2),
    _n("combo box", "Solid color", [451, 588, 174, 34], 2),
    _n("combo box", "Zoomed", [823, 548, 183, 34], 2),
    _n("label", "Style:", [774, 548, 37, 34], 2),
    _n("filler", "", [451, 548, 174, 34], 2),
    _n("combo box", "xfce", [451, 548, 174, 34], 3),
    _n("filler", "", [395, 628, 611, 34], 1),
    _n("check box", "Change the background ", [395, 628, 186, 34], 2),
    _n("combo box", "in minutes:", [593, 628, 139, 34], 2),
)


def test_a_wrapped_drop_down_is_named_by_the_label_beside_its_wrapper() -> None:
    lines = _lines(BACKGROUND_TAB)
    assert 'combo box "Folder" value="xfce"' in lines, lines
    assert 'combo box "Style" value="Zoomed"' in lines, lines
    assert 'combo box "Color" value="Solid color"' in lines, lines
    # No label beside it (a check box is): it keeps the name GTK gives.
    assert 'combo box "in minutes:"' in lines, lines
    # Text checks still read what the drop-downs show.
    assert "Zoomed" in parse_windows(BACKGROUND_TAB)[0].text().splitlines()


def test_a_stored_solution_still_finds_an_element_by_the_choice_it_showed_as_its_name() -> None:
    """reef-v1's solutions click ``combo box "Zoomed"`` and ``push button "Sans Regular"``,
    as the lists named them then; a name still wins over a choice."""
    candidates = [
        Candidate(1, "Style", "combo box", choice="Zoomed"),
        Candidate(2, "Default Font", "push button", choice="Sans Regular 10"),
        Candidate(3, "Zoomed", "menu item"),
    ]
    assert pick(candidates, "Zoomed", "combo box") == 1
    assert pick(candidates, "Sans Regular", "push button") == 2
    assert pick(candidates, "Style", "combo box") == 1
    assert pick(candidates, "Zoomed") == 3


# ---------------------------------------------------------------- on the real desktop


def _line(desk: DesktopEnvironment, start: str) -> str:
    listed = desk.observe_now().marks.text()
    found = [line for line in listed.splitlines() if line.split("] ", 1)[-1].startswith(start)]
    assert len(found) == 1, listed
    return found[0].split("] ", 1)[1]


@pytest.mark.integration
@DESKTOP
def test_the_fonts_tab_lists_what_it_shows(desk: DesktopEnvironment) -> None:
    from reefbench.envs.desktop.session_evaluators import xfconf_value
    from reefbench.plumbing.waiting import wait_until

    desk.reset()
    desk.step("search_app", {"name": "Appearance"})
    snapshot = desk.observe_now()
    tab = [m for m in snapshot.marks.marks if (m.role, m.name) == ("page tab", "Fonts")]
    assert tab, snapshot.marks.text()
    desk.step("click", {"elem": tab[0].id})
    assert _line(desk, 'push button "Default Font"') == (
        'push button "Default Font" value="Sans Regular 10"'
    )
    assert _line(desk, 'push button "Default Monospace Font"') == (
        'push button "Default Monospace Font" value="Monospace Regular 10"'
    )
    assert _line(desk, 'combo box "Hinting"') == 'combo box "Hinting" value="None"'
    assert _line(desk, 'combo box "Sub-pixel order"') == 'combo box "Sub-pixel order" value="None"'
    assert _line(desk, 'check box "Enable anti-aliasing"') == (
        'check box "Enable anti-aliasing" (mixed)'
    )
    assert _line(desk, 'check box "Custom DPI setting:"') == (
        'check box "Custom DPI setting:" (checked)'
    )
    # Stored solutions name the button by its font, as the list did.
    default = ground(desk, "Sans Regular", "push button", current=True)
    assert desk.snapshot is not None
    assert [m.name for m in desk.snapshot.marks.marks if m.id == default] == ["Default Font"]

    # A font chosen: the button shows it and its size (the app follows its setting).
    done = desk.session.run(
        ["xfconf-query", "-c", "xsettings", "-p", "/Gtk/FontName", "-s", "Nimbus Sans 12"]
    )
    assert done.returncode == 0, done.stderr
    wanted = 'push button "Default Font" value="Nimbus Sans Regular 12"'
    assert wait_until(lambda: wanted in desk.observe_now().marks.text(), 10.0), (
        desk.observe_now().marks.text()
    )

    # Clicked, the mixed check box is on or off, as the setting says.
    desk.step("click", {"elem": _mark_id(desk, "check box", "Enable anti-aliasing")})
    assert wait_until(lambda: xfconf_value(desk, "xsettings", "/Xft/Antialias") in ("0", "1"), 10)
    state = {"1": "checked", "0": "unchecked"}[
        str(xfconf_value(desk, "xsettings", "/Xft/Antialias"))
    ]
    assert _line(desk, 'check box "Enable anti-aliasing"') == (
        f'check box "Enable anti-aliasing" ({state})'
    )


def _mark_id(desk: DesktopEnvironment, role: str, name: str) -> int:
    found = [m.id for m in desk.observe_now().marks.marks if (m.role, m.name) == (role, name)]
    assert found, desk.snapshot.marks.text() if desk.snapshot else ""
    return found[0]


@pytest.mark.integration
@DESKTOP
def test_the_screen_sized_wallpaper_keeps_the_pictures_times(desk: DesktopEnvironment) -> None:
    """The copy shown at the picture's path is another file (smaller) with its times."""
    original = os.stat(DEFAULT_WALLPAPER)
    done = desk.session.run(["stat", "-c", "%s %Y %X", DEFAULT_WALLPAPER])
    assert done.returncode == 0, done.stderr
    size, mtime, atime = (int(v) for v in done.stdout.split())
    assert size != original.st_size  # the copy is what the sandbox shows
    assert (mtime, atime) == (int(original.st_mtime), int(original.st_atime))
