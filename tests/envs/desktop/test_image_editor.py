"""The desktop image editor (Drawing) on a real desktop: opened by name, its tools and the
icon-only buttons of its transformation bar are elements named like their tooltips, a
photo opened, turned right and saved under another name through its GUI holds exactly the
pixels of the photo turned clockwise (and not those of a left turn), and one scaled and
saved as .jpg is a JPEG of the new size."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.image_editor import KEYFILE, write_image_editor_settings

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "drawing"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, Drawing and Debian's python3",
    ),
]
Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")


def _photo() -> Image.Image:
    """A picture no quarter turn or mirror leaves unchanged (a block in one corner)."""
    image = Image.new("RGB", (120, 80), (40, 90, 200))
    ImageDraw.Draw(image).rectangle((8, 8, 40, 30), fill=(255, 255, 255))
    return image


def _elem(desk: DesktopEnvironment, role: str, name: str) -> int:
    """The number of the element with this role and name in a fresh observation."""
    listing = str(desk.observe()["elements"])
    found = re.search(rf'\[(\d+)\] {re.escape(role)} "{re.escape(name)}"', listing)
    assert found, f"no {role} {name!r} in:\n{listing}"
    return int(found.group(1))


def _click(desk: DesktopEnvironment, role: str, name: str) -> None:
    desk.step("click", {"elem": _elem(desk, role, name)})


def _type_in_spin(desk: DesktopEnvironment, name: str, value: str) -> None:
    """Replace a spin button's number. The middle of Drawing's spin buttons is the unit
    icon, so the click goes on the number, at the left of the element's box."""
    box = next(
        n.box
        for w in desk.reader.windows()
        for n in w.nodes
        if (n.role, n.name) == ("spin button", name) and n.box
    )
    x, y, _, height = box
    desk.step("click_at", {"x": x + 20, "y": y + height // 2})
    desk.step("hotkey", {"keys": ["ctrl", "a"]})
    desk.step("write_text", {"text": f"{value}\t"})


def _open_in_editor(desk: DesktopEnvironment, path: str) -> None:
    """Start the editor by name and open ``path`` through its Open dialog (typing a path)."""
    desk.step("search_app", {"name": "image editor"})
    desk.step("hotkey", {"keys": ["ctrl", "o"]})
    desk.observe()
    desk.step("write_text", {"text": path + "\n"})
    desk.observe()


def _save_as(desk: DesktopEnvironment, path: str) -> None:
    """Save As ``path``: the dialog proposes "Untitled.png" with the stem selected, so all
    of it is replaced; the extension chooses the format."""
    desk.step("hotkey", {"keys": ["ctrl", "shift", "s"]})
    desk.observe()
    desk.step("hotkey", {"keys": ["ctrl", "a"]})
    desk.step("write_text", {"text": path + "\n"})
    desk.observe()


def test_the_settings_take_away_the_first_start_dialog(tmp_path: Path) -> None:
    written = write_image_editor_settings(tmp_path)
    assert written == tmp_path / KEYFILE
    assert "last-version='1.0.2'" in written.read_text()


def test_drawing_opens_by_name_with_named_tools(desk: DesktopEnvironment) -> None:
    desk.reset()
    assert "Drawing" in str(desk.step("search_app", {"name": "image editor"}))
    for tool in ("Crop", "Scale", "Rotate", "Filters"):
        _elem(desk, "list item", tool)
    listing = str(desk.observe()["elements"])
    assert "first time you use Drawing" not in listing


@pytest.mark.parametrize("turn", ["Rotate right", "Rotate left"])
def test_a_photo_turned_in_the_editor_and_saved_as_is_the_photo_turned(
    desk: DesktopEnvironment, turn: str
) -> None:
    desk.reset()
    _photo().save(desk.session.host_path("~/Pictures/receipt.png"))
    _open_in_editor(desk, "/home/user/Pictures/receipt.png")
    _click(desk, "list item", "Rotate")
    _click(desk, "push button", turn)
    _click(desk, "push button", "Apply transformation")
    _save_as(desk, "/home/user/Pictures/receipt-upright.png")
    saved = desk.session.host_path("~/Pictures/receipt-upright.png")
    assert saved.is_file()
    with Image.open(saved) as opened:
        found = opened.convert("RGB")
    clockwise = _photo().transpose(Image.Transpose.ROTATE_270)
    assert found.size == clockwise.size
    same = found.tobytes() == clockwise.tobytes()
    assert same is (turn == "Rotate right")
    # The original is untouched: the editor saved a copy.
    with Image.open(desk.session.host_path("~/Pictures/receipt.png")) as original:
        assert original.size == (120, 80)


def test_a_photo_scaled_in_the_editor_and_exported_as_jpeg_is_smaller_and_a_jpeg(
    desk: DesktopEnvironment,
) -> None:
    """The Scale tool's sizes are named, readable fields (proportions are not locked by
    default, so both are typed); the file name's extension chooses the format written."""
    desk.reset()
    _photo().save(desk.session.host_path("~/Pictures/receipt.png"))
    _open_in_editor(desk, "/home/user/Pictures/receipt.png")
    _click(desk, "list item", "Scale")
    assert 'spin button "Width" value="120"' in str(desk.observe()["elements"])
    _type_in_spin(desk, "Width", "60")
    _type_in_spin(desk, "Height", "40")
    spins = [line for line in str(desk.observe()["elements"]).splitlines() if "spin" in line]
    assert any('spin button "Width" value="60"' in line for line in spins), spins
    assert any('spin button "Height" value="40"' in line for line in spins), spins
    _click(desk, "push button", "Apply transformation")
    _save_as(desk, "/home/user/Pictures/receipt-small.jpg")
    saved = desk.session.host_path("~/Pictures/receipt-small.jpg")
    assert saved.is_file()
    with Image.open(saved) as opened:
        assert (opened.format, opened.size) == ("JPEG", (60, 40))


def test_drawing_started_from_a_shell_is_prepared_and_changes_no_setting(
    desk: DesktopEnvironment,
) -> None:
    """A playtest started Drawing from a terminal (``drawing chart.png &``): it read dconf
    instead of its prepared keyfile, showed the first-start dialog and wrote its settings
    there, and the episode ended as a side effect the agent had not caused."""
    from reefbench.plumbing.waiting import wait_until

    desk.reset()
    before = desk.on_state_snapshot()
    desk.session.spawn(["sh", "-c", "exec drawing"], name="shell")

    def listing() -> str | None:
        text = str(desk.observe()["elements"])
        return text if '"Pencil"' in text else None

    shown = wait_until(listing, 30)
    assert shown is not None, "Drawing did not open"
    assert "first time you use Drawing" not in shown
    desk.step("hotkey", {"keys": ["ctrl", "q"]})
    gone = wait_until(lambda: "drawing" not in desk.process_names() or None, 15)
    assert gone, "Drawing did not quit"
    changed = [c.description for c in desk.on_state_changes(before) if "setting" in c.key]
    assert changed == []
