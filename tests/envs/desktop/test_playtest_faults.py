"""Faults a playtest found in desktop observations (issue 31), on the reader's JSON and
on the real desktop: Calc formulas cut at their first ':', a window shot before it was
drawn, Desktop Settings' spin buttons named after the wrong row, its current wallpaper
and its Default Icons check boxes missing, and the panel clock named by its date alone.
"""

from __future__ import annotations

import shutil
import types
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from reefbench.envs.desktop import DesktopEnvironment, a11y, settling
from reefbench.envs.desktop.a11y import parse_windows
from reefbench.envs.desktop.observation import take_snapshot
from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.x11 import XWindow
from reefbench.envs.desktop.xsession import CLOCK_FORMAT

DESKTOP = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "localc"))
    or not Path("/usr/bin/python3").exists(),
    reason="needs Xvfb, bubblewrap, xdotool, openbox, LibreOffice and Debian's python3",
)


def _n(role: str, name: str, box: list[int] | None, depth: int, **more: Any) -> dict[str, Any]:
    return {
        "role": role,
        "name": name,
        "box": box,
        "depth": depth,
        "states": more.pop("states", ["sensitive"]),
        **more,
    }


def _window(app: str, *nodes: dict[str, Any], pid: int = 5) -> list[dict[str, Any]]:
    top = nodes[0]
    return [
        {"app": app, "pid": pid, "title": top["name"], "role": top["role"], "box": top["box"]}
        | {"nodes": list(nodes)}
    ]


# ---------------------------------------------------------------- 1. Calc formulas


def test_libreoffice_escapes_are_undone_and_a_cut_value_is_told_apart(
    a11y_reader: types.ModuleType,
) -> None:
    reader = a11y_reader
    # As LibreOffice 7.4's GTK bridge hands them over (read on the real desktop).
    assert reader.unescape_attribute('IF(A1\\="Food"\\,1\\,2)') == ('IF(A1="Food",1,2)', False)
    assert reader.unescape_attribute("SUMIF(B2\\") == ("SUMIF(B2", True)
    assert reader.unescape_attribute("B1+8") == ("B1+8", False)
    assert reader.unescape_attribute('A1&"a\\\\b"') == ('A1&"a\\b"', False)


# ---------------------------------------------------------------- 3. Desktop Settings


def test_a_spin_button_is_named_by_the_label_on_its_row_to_its_left() -> None:
    """Desktop Settings' Icons tab lists each row's field before its label: the label just
    before the icon size's spin button in the tree is the next row's."""
    raw = _window(
        "xfdesktop-settings",
        _n("panel", "", [407, 227, 599, 306], 0),
        _n("combo box", "Top Left Vertical", [662, 307, 197, 34], 1),
        _n("label", "Icons orientation:", [407, 307, 243, 34], 1),
        _n("spin button", "", [662, 267, 118, 34], 1, text="48"),
        _n("label", "Icon size:", [407, 267, 243, 34], 1),
        _n("label", "px", [790, 267, 20, 34], 1),  # on its row, but to its right
    )
    names = [(n.role, n.name) for n in parse_windows(raw)[0].nodes]
    assert names[3] == ("spin button", "Icon size")


DEFAULT_ICONS = _window(
    "xfdesktop-settings",
    _n("dialog", "Desktop", [373, 126, 655, 598], 0),
    _n("tree table", "", [408, 575, 582, 86], 1),
    _n("table cell", "", [448, 576, 540, 21], 2),
    _n("table cell", "", [448, 576, 20, 21], 3, states=["checked", "checkable", "sensitive"]),
    _n("table cell", "", [474, 576, 16, 21], 3),
    _n("table cell", "Home", [496, 576, 534, 21], 3, text="Home"),
    _n("table cell", "", [448, 599, 540, 21], 2),
    _n("table cell", "", [448, 599, 20, 21], 3, states=["checkable", "sensitive"]),
    _n("table cell", "", [474, 599, 16, 21], 3),
    _n("table cell", "Trash", [496, 599, 534, 21], 3, text="Trash"),
)


def test_a_tree_views_check_boxes_are_listed_checked_or_not_where_they_are_drawn() -> None:
    """What the real Icons tab gives: its check boxes are drawn at x 430-446, one
    expander width (20 px) left of where GTK reports them."""
    frame = Frame(bytes(1280 * 800 * 4), 1280, 800)
    stacking = [XWindow(1, "Desktop", "Xfdesktop-settings", 5, (373, 126, 655, 598))]
    windows = parse_windows(DEFAULT_ICONS)
    snapshot = take_snapshot(frame, windows, stacking, stacking[0], ocr="never")
    boxes = {m.line().split("] ", 1)[1]: m.box for m in snapshot.marks.marks}
    assert boxes['check box "Home" (checked)'] == (428, 576, 20, 21)
    assert boxes['check box "Trash" (unchecked)'] == (428, 599, 20, 21)


# ---------------------------------------------------------------- 4. the panel clock

PANEL = _window(
    "xfce4-panel",
    _n("frame", "", [0, 0, 640, 27], 0),
    _n("toggle button", "Applications", [0, 0, 100, 26], 1),
    _n("toggle button", "2024-06-03", [540, 0, 99, 26], 1),
)


def test_the_clock_is_named_by_the_day_and_time_it_shows() -> None:
    windows = a11y.name_clock(parse_windows(PANEL), datetime(2024, 6, 3, 9, 0), CLOCK_FORMAT)
    assert [n.name for n in windows[0].nodes][1:] == ["Applications", "Mon 03 Jun 09:00"]
    # A time that is not the panel's own day leaves the app's name.
    other = a11y.name_clock(parse_windows(PANEL), datetime(2024, 6, 4, 0, 0), CLOCK_FORMAT)
    assert other[0].nodes[2].name == "2024-06-03"


def _panel_at(minute: int, *, extra: bool = False) -> Any:
    from PIL import Image, ImageDraw

    windows = a11y.name_clock(parse_windows(PANEL), datetime(2024, 6, 3, 9, minute), CLOCK_FORMAT)
    image = Image.new("RGB", (640, 480), (40, 40, 40))
    draw = ImageDraw.Draw(image)
    draw.rectangle((545 + 3 * minute, 5, 553 + 3 * minute, 20), fill=(250, 250, 250))
    if extra:
        draw.rectangle((100, 200, 300, 220), fill=(250, 250, 250))
    raw = image.convert("RGBX").tobytes("raw", "BGRX")
    return take_snapshot(Frame(raw, 640, 480), windows, [], None, ocr="never")


def test_a_clock_tick_alone_keeps_the_observation() -> None:
    before = _panel_at(0)
    assert 'toggle button "Mon 03 Jun 09:00"' in before.marks.text()
    assert settling.clock_ticked(before, _panel_at(1))
    assert not settling.clock_ticked(before, _panel_at(1, extra=True))


# ---------------------------------------------------------------- 2. late drawing

# A settings dialog as it is mapped: its a11y tree is complete, its frame is drawn, its
# labels and buttons not yet (as Calc's window was, right after it was started).
DIALOG = _window(
    "xfdesktop-settings",
    _n("frame", "Desktop", [100, 100, 400, 300], 0),
    _n("page tab", "Background", [110, 110, 80, 24], 1),
    _n("label", "Wallpaper for my desktop", [110, 140, 200, 20], 1),
    _n("check box", "Apply to all workspaces", [110, 340, 180, 20], 1),
    _n("push button", "Close", [420, 360, 60, 28], 1),
)
DIALOG_X = [XWindow(9, "Desktop", "Xfdesktop-settings", 5, (100, 100, 400, 300))]


def _frame(*boxes: tuple[int, int, int, int]) -> Frame:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (640, 480), (200, 200, 200))
    draw = ImageDraw.Draw(image)
    for x, y, w, h in boxes:
        draw.rectangle((x, y, x + w - 1, y + h - 1), fill=(20, 20, 20))
        draw.rectangle((x + 2, y + 2, x + w // 2, y + h - 3), fill=(240, 240, 240))
    return Frame(image.convert("RGBX").tobytes("raw", "BGRX"), 640, 480)


TERMINAL_ONLY = _frame((0, 0, 90, 60))
BLANK_DIALOG = _frame((0, 0, 90, 60), (100, 100, 400, 6))
DRAWN_DIALOG = _frame(
    (0, 0, 90, 60),
    (100, 100, 400, 6),
    (110, 110, 80, 24),
    (110, 140, 200, 20),
    (110, 340, 180, 20),
    (420, 360, 60, 28),
)


class _LateScreen:
    """The dialog mapped after the view settled on the terminal alone: blank for its
    first frames, then drawn."""

    def __init__(self) -> None:
        self.frames = [BLANK_DIALOG] * 3 + [DRAWN_DIALOG]

    def _next(self) -> Frame:
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    def grab(self) -> Frame:
        return self._next()

    def wait_stable(self, **_: Any) -> tuple[Frame, Any]:
        return self._next(), None


def test_an_observation_after_a_window_appeared_waits_until_it_is_drawn() -> None:
    from reefbench.envs.desktop.device import DesktopDevice

    windows = parse_windows(DIALOG)
    device = object.__new__(DesktopDevice)
    device._screen = _LateScreen()  # type: ignore[assignment]
    device._x11 = types.SimpleNamespace(  # type: ignore[assignment]
        stacking=lambda: list(DIALOG_X), active=lambda: DIALOG_X[0]
    )
    device._reader = types.SimpleNamespace(windows=lambda: windows)  # type: ignore[assignment]
    device.session = types.SimpleNamespace(now=None, clock_offset=0)  # type: ignore[assignment]
    device.settle_quiet, device.settle_timeout, device.ocr = 0.0, 5.0, "never"
    device.snapshot = None
    # What settling saw: the terminal alone, before the dialog was mapped.
    device.view = settling.View(TERMINAL_ONLY, (), (), None, True, 0.1)
    snapshot = device.observe_now()
    assert snapshot.frame.raw == DRAWN_DIALOG.raw
    assert not settling.undrawn(snapshot.frame, snapshot.windows, snapshot.stacking)


# ---------------------------------------------------------------- on the real desktop


def _mark(snapshot: Any, role: str, name: str) -> Any:
    found = [m for m in snapshot.marks.marks if (m.role, m.name) == (role, name)]
    assert found, snapshot.marks.text()
    return found[0]


@pytest.mark.integration
@DESKTOP
def test_calc_formulas_come_unescaped_and_the_current_cells_whole(
    desk: DesktopEnvironment,
) -> None:
    """LibreOffice 7.4's bridge cuts a formula's attribute at its first ':' or ';': the
    current cell's comes whole from the input line, another's is marked cut, and one
    without them comes whole, its escapes undone."""
    desk.reset()
    desk.step("search_app", {"name": "spreadsheet"})
    desk.step(
        "write_text",
        {"text": 'Travel\t24\t=SUMIF(A1:A1000;"Travel";B1:B1000)\t=IF(A1="Travel",1,2)\n'},
    )
    snapshot = desk.observe_now()
    assert _mark(snapshot, "table cell", "D1").formula == '=IF(A1="Travel",1,2)'
    assert _mark(snapshot, "table cell", "C1").formula == "=SUMIF(A1\u2026"
    desk.step("click", {"elem": _mark(snapshot, "table cell", "C1").id})
    cell = _mark(desk.observe_now(), "table cell", "C1")
    assert cell.value == "24"
    assert cell.formula in (
        '=SUMIF(A1:A1000;"Travel";B1:B1000)',
        '=SUMIF(A1:A1000,"Travel",B1:B1000)',
    )


@pytest.mark.integration
@DESKTOP
def test_desktop_settings_lists_its_current_wallpaper_sizes_and_default_icons(
    desk: DesktopEnvironment,
) -> None:
    from reefbench.envs.desktop.session_evaluators import DESKTOP_CHANNEL, xfconf_value
    from reefbench.plumbing.waiting import wait_until

    desk.reset()
    desk.step("search_app", {"name": "Desktop Settings"})
    snapshot = desk.observe_now()
    thumbs = [m for m in snapshot.marks.marks if m.role == "icon" and m.box[1] > 100]
    selected = [m for m in thumbs if "selected" in m.states]
    assert len(selected) == 1 and selected[0].name.startswith("xfce-"), [m.line() for m in thumbs]
    desk.step("click", {"elem": _mark(snapshot, "page tab", "Icons").id})
    snapshot = desk.observe_now()
    listed = snapshot.marks.text()
    assert 'spin button "Icon size" value="48"' in listed, listed
    assert 'check box "Home" (checked)' in listed and 'check box "Trash" (unchecked)' in listed
    desk.step("click", {"elem": _mark(snapshot, "check box", "Trash").id})
    key = "/desktop-icons/file-icons/show-trash"
    assert wait_until(lambda: xfconf_value(desk, DESKTOP_CHANNEL, key) == "true", 10.0), (
        xfconf_value(desk, DESKTOP_CHANNEL, key)
    )
    assert 'check box "Trash" (checked' in desk.observe_now().marks.text()


@pytest.mark.integration
@DESKTOP
def test_the_panel_clock_is_named_by_what_it_shows(desk: DesktopEnvironment) -> None:
    """The world of a default desktop is Monday 3 June 2024, 09:00."""
    import re

    desk.reset()
    snapshot = desk.observe_now()
    clock = [m for m in snapshot.marks.marks if m.role == "toggle button" and ":" in m.name]
    assert len(clock) == 1 and re.fullmatch(r"Mon 03 Jun 09:\d\d", clock[0].name), (
        snapshot.marks.text()
    )


@pytest.mark.integration
@DESKTOP
def test_the_desktop_has_no_ocr_though_the_host_has(desk: DesktopEnvironment) -> None:
    """Playtesters read every scan and receipt photo with ``tesseract`` in the terminal:
    the harness's OCR leaked into the agent's desktop, so the pixel tasks measured nothing
    of the agent's own reading. The host keeps it (its checks use it)."""
    import shutil
    import subprocess

    host = shutil.which("tesseract")
    assert host is not None
    assert subprocess.run([host, "--list-langs"], capture_output=True).returncode == 0
    desk.reset()
    inside = desk.session.run(["bash", "-c", "tesseract --list-langs"], timeout=10)
    assert inside.returncode != 0, inside.stdout
    listing = desk.session.run(["bash", "-c", "ls -A /usr/share/tesseract-ocr"], timeout=10)
    assert listing.stdout.strip() == ""


# ------------------------------------------------ 6. a window's title bar covers too


def test_elements_under_a_windows_title_bar_are_not_listed() -> None:
    """A playtest (Q9, request 27): with the terminal maximised over Writer, Writer's
    toolbar buttons under the terminal's title bar were still listed as clickable; a
    click on one would land on the terminal."""
    from reefbench.envs.desktop.observation import visible_nodes
    from reefbench.envs.desktop.x11 import framed

    writer = parse_windows(
        _window(
            "soffice",
            _n("frame", "report.odt - LibreOffice Writer", [0, 27, 1280, 773], 0),
            _n("push button", "Save", [60, 36, 24, 20], 1),  # centre y 46: under the title
            _n("push button", "Bold", [60, 70, 24, 20], 1),  # under the terminal's client
        )
    )
    terminal_client = (0, 50, 1280, 750)
    stacking = [
        XWindow(1, "report.odt - LibreOffice Writer", "libreoffice-writer", 5, (0, 27, 1280, 773)),
        XWindow(2, "Terminal", "Xfce4-terminal", 6, terminal_client),
    ]
    # The client area alone hides the frame and Bold, not Save under the title bar.
    assert [n.name for n in visible_nodes(writer, stacking)] == ["Save"]
    top = framed(terminal_client, [1, 1, 23, 1])
    assert top == (-1, 27, 1282, 774)
    stacking[1] = XWindow(2, "Terminal", "Xfce4-terminal", 6, terminal_client, frame=top)
    assert [n.name for n in visible_nodes(writer, stacking)] == []


def test_a_window_without_frame_extents_covers_its_own_box() -> None:
    from reefbench.envs.desktop.x11 import framed

    assert framed((10, 20, 30, 40), None) is None
    assert framed((10, 20, 30, 40), [0, 0, 0, 0]) is None
    assert XWindow(1, "t", "c", 2, (10, 20, 30, 40)).covers(10, 20)
    assert not XWindow(1, "t", "c", 2, (10, 20, 30, 40)).covers(10, 19)


@pytest.mark.integration
@DESKTOP
def test_a_real_windows_frame_includes_its_title_bar(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.step("search_app", {"name": "terminal"})
    windows = [w for w in desk.x11.stacking() if "Terminal" in w.title]
    assert windows, desk.x11.stacking()
    window = windows[-1]
    assert window.frame is not None, window
    fx, fy, _, fh = window.frame
    x, y, _, h = window.box
    assert fy < y and fh > h and fx <= x  # a title bar above the client area


# ------------------------------------------------ 7. a Writer table's cells show their text


def test_a_writer_table_cell_is_listed_with_its_paragraphs_text() -> None:
    """Playtest R9: every cell of a Writer table was listed as ``table cell "A1"
    value=""`` while the screenshot showed its words, listed apart as text on screen."""
    raw = _window(
        "soffice",
        _n("frame", "report.odt - LibreOffice Writer", [0, 0, 1280, 800], 0),
        _n("table cell", "A1", [100, 100, 200, 30], 1),
        _n("paragraph", "", [102, 102, 190, 20], 2, text="Item code"),
        _n("table cell", "B1", [300, 100, 200, 30], 1),
        _n("paragraph", "", [302, 102, 190, 20], 2, text="5,023.90"),
        _n("paragraph", "", [302, 122, 190, 20], 2, text="net"),
        _n("table cell", "C1", [500, 100, 200, 30], 1),
        _n("paragraph", "", [100, 300, 600, 20], 1, text="Below the table"),
    )
    cells = {n.name: n.text for n in parse_windows(raw)[0].nodes if n.role == "table cell"}
    assert cells == {"A1": "Item code", "B1": "5,023.90\nnet", "C1": None}
    frame = Frame(bytes(1280 * 800 * 4), 1280, 800)
    stacking = [
        XWindow(1, "report.odt - LibreOffice Writer", "libreoffice-writer", 5, (0, 0, 1280, 800))
    ]
    snapshot = take_snapshot(frame, parse_windows(raw), stacking, stacking[0], ocr="never")
    assert 'table cell "A1" value="Item code"' in snapshot.marks.text()
