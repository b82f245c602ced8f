"""Observations a model can trust, on a real desktop (issue 17's Save As case).

After Ctrl+S in mousepad the observation used to be a black frame with the Save As
dialog's boxes drawn on it (GTK maps the dialog before it paints it), and after saving it
still showed the dialog. Each observation here must be what the screen settles on: the
frame equals one taken after a long quiet wait, and the element list matches it.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from reefbench.environments.grounding import ground
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.settling import unpainted
from reefbench.envs.desktop.xsession import SESSION_WINDOW_CLASSES

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Debian's python3",
    ),
]


def _settled_frame(desk: DesktopEnvironment) -> Frame:
    """The screen after it stayed unchanged for a long time: what it settles on."""
    frame, settle = desk.screen.wait_stable(quiet=1.0, timeout=15.0)
    assert settle.stable
    return frame


def _png_equals(png: bytes, frame: Frame) -> bool:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes() == frame.image().convert("RGB").tobytes()


def _save_as(desk: DesktopEnvironment) -> None:
    """A fresh desktop with the text editor's Save As dialog open over "hello reef"."""
    desk.reset()
    desk.step("search_app", {"name": "text editor"})
    desk.step("write_text", {"text": "hello reef"})
    desk.step("hotkey", {"keys": ["ctrl", "s"]})


def test_save_as_dialog_is_observed_painted_and_gone_after_saving(
    desk: DesktopEnvironment,
) -> None:
    _save_as(desk)
    assert desk.last_settle_seconds > 0
    obs = desk.observe()
    dialog = [w for w in desk.snapshot.stacking if w.title == "Save As"] if desk.snapshot else []
    assert dialog, "the Save As dialog is mapped"
    assert desk.snapshot is not None
    assert not unpainted(desk.snapshot.frame, desk.snapshot.stacking)
    assert desk.snapshot.frame.raw == _settled_frame(desk).raw
    assert "Focused window: 'Save As'" in obs["elements"]
    assert 'push button "Save" (disabled)' in obs["elements"]  # nothing typed yet
    assert 'text "Name" value=""' in obs["elements"]  # the field is named by its label

    desk.step("write_text", {"text": "garnet.txt"})
    obs = desk.observe()
    assert 'text "Name" value="garnet.txt"' in obs["elements"]
    assert 'push button "Save"' in obs["elements"]
    assert 'push button "Save" (disabled)' not in obs["elements"]

    desk.step("click", {"elem": ground(desk, "Save", "push button", current=True)})
    obs = desk.observe()
    assert desk.snapshot is not None
    apps = [w for w in desk.snapshot.stacking if w.wm_class not in SESSION_WINDOW_CLASSES]
    assert [w.title for w in apps] == ["~/garnet.txt - Mousepad"]
    assert "Focused window: '~/garnet.txt - Mousepad'" in obs["elements"]
    for leftover in ('"Cancel"', '"Save"', '"Name"', '"Create Folder"', "table cell"):
        assert leftover not in obs["elements"]
    assert 'value="hello reef"' in obs["elements"]  # the editor's text is its value
    assert desk.snapshot.frame.raw == _settled_frame(desk).raw
    # The screenshot the agent gets is that frame with the marks drawn: unmarked, equal.
    assert _png_equals(desk.snapshot.png(), desk.snapshot.frame)


def _check_box_line(listed: str) -> str:
    return next(x for x in listed.splitlines() if " check box " in x)


def test_check_boxes_show_their_state_and_it_follows_a_click(desk: DesktopEnvironment) -> None:
    desk.reset(action_set="a11y")
    desk.step("search_app", {"name": "text editor"})
    desk.step("click_on", {"name": "Edit", "role": "menu"})
    desk.step("click_on", {"name": "Preferences"})
    before = _check_box_line(desk.observe()["elements"])
    assert before.endswith(("(checked)", "(unchecked)")), before
    elem = int(before[1 : before.index("]")])
    desk.step("click", {"elem": elem})
    after = next(x for x in desk.observe()["elements"].splitlines() if x.startswith(f"[{elem}] "))
    flipped = "(checked)" if before.endswith("(unchecked)") else "(unchecked)"
    assert after.endswith(flipped), (before, after)


def test_enter_in_the_save_as_dialog_is_observed_after_the_dialog_closed(
    desk: DesktopEnvironment,
) -> None:
    # Enter in Mousepad's Save As saves and then closes the dialog, half a second later
    # on an idle machine, with the screen unchanged meanwhile: a quiet screen settled on
    # the open dialog, and the Ctrl+Q that followed went to the dialog, not the editor.
    _save_as(desk)
    desk.step("write_text", {"text": "/home/user/Documents/garnet.txt"})
    desk.step("press", {"key": "enter"})
    titles = [w.title for w in desk.x11.stacking()]
    assert "Save As" not in titles
    assert "~/Documents/garnet.txt - Mousepad" in titles
    assert (desk.session.home / "Documents" / "garnet.txt").read_text() == "hello reef"
    desk.step("hotkey", {"keys": ["ctrl", "q"]})
    assert not [w for w in desk.x11.stacking() if w.wm_class == "Mousepad"]
    # A new editor opens at once (the old one took the launch with it as it exited).
    desk.step("search_app", {"name": "text editor"})
    assert [w.title for w in desk.x11.stacking() if w.wm_class == "Mousepad"] == [
        "Untitled 1 - Mousepad"
    ]
