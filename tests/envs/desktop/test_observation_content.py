"""What the element list and the screenshot say about content, from the reader's JSON and
synthetic frames (no desktop needed): LibreOffice's boxes where it draws, its menus once,
cells with values and formulas and not "disabled", cell marks without covering tags, long
texts whole, and a window whose content is not drawn yet is not "settled"."""

from __future__ import annotations

from typing import Any

from PIL import Image

from reefbench.envs.desktop import settling
from reefbench.envs.desktop.a11y import parse_windows
from reefbench.envs.desktop.observation import take_snapshot
from reefbench.envs.desktop.screen import Frame
from reefbench.envs.desktop.x11 import XWindow
from reefbench.perception.marks import build_marks, draw_marks


def _n(role: str, name: str, box: list[int] | None, depth: int, **more: Any) -> dict[str, Any]:
    return {
        "role": role,
        "name": name,
        "box": box,
        "depth": depth,
        "states": more.pop("states", ["sensitive"]),
        **more,
    }


# The shape of a Calc window as the reader gives it (LibreOffice 7.4, GTK 3): the GTK menu
# bar, then the root pane reported 25 px too high with its own sizeless menu bar, a
# toolbar with an embedded GTK field (true position), the sheet and a cell.
CALC = [
    {
        "app": "soffice",
        "pid": 7,
        "title": "Untitled 1 - LibreOffice Calc",
        "role": "frame",
        "box": [0, 27, 1280, 773],
        "active": True,
        "nodes": [
            _n("frame", "Untitled 1 - LibreOffice Calc", [0, 27, 1280, 773], 0),
            _n("panel", "", [0, 46, 1280, 754], 1),
            _n("menu bar", "", [0, 46, 1256, 25], 2),
            _n("menu", "File", [0, 46, 39, 25], 3),
            _n("menu", "Edit", [39, 46, 41, 25], 3),
            _n("panel", "", [0, 71, 1280, 729], 2),
            _n("root pane", "Untitled 1 - LibreOffice Calc", [0, 46, 1280, 729], 3),
            _n("menu bar", "", None, 4, states=["focusable", "sensitive"]),
            _n("menu", "File", [0, 46, 35, 19], 5),
            _n("menu", "Edit", [35, 46, 37, 19], 5),
            _n("tool bar", "Formula Tool Bar", [0, 124, 1221, 42], 4),
            _n("panel", "", [4, 126, 162, 34], 5),
            _n("panel", "", [4, 151, 162, 34], 6),
            _n("text", "", [4, 151, 126, 34], 7, text="A3"),
            _n("table", "Sheet Sheet1", [41, 184, 1166, 532], 4),
            _n(
                "table cell",
                "B2",
                [123, 201, 82, 17],
                5,
                states=["editable", "enabled", "focusable"],
                text="56",
                formula="B1+8",
            ),
            _n("table cell", "C2", [205, 201, 82, 17], 5, states=["editable", "enabled"]),
        ],
    }
]


def _calc() -> dict[str, Any]:
    return {n.name or n.role: n for n in parse_windows(CALC)[0].nodes}


def test_libreoffice_boxes_are_moved_down_to_where_it_draws() -> None:
    nodes = _calc()
    assert nodes["B2"].box == (123, 226, 82, 17)  # below the column header, not on it
    assert nodes["Formula Tool Bar"].box == (0, 149, 1221, 42)
    # The GTK field embedded in the toolbar reports its true place already.
    field = next(n for n in parse_windows(CALC)[0].nodes if n.role == "text")
    assert field.box == (4, 151, 126, 34)
    # Outside the root pane nothing moves.
    assert nodes["File"].box == (0, 46, 39, 25)


def test_the_hidden_copy_of_the_menu_bar_is_left_out() -> None:
    menus = [n.name for n in parse_windows(CALC)[0].nodes if n.role == "menu"]
    assert menus == ["File", "Edit"]


def test_cells_show_their_value_and_formula_and_are_not_disabled() -> None:
    windows = parse_windows(CALC)
    nodes = [n for n in windows[0].nodes if n.role == "table cell"]
    lines = [m.line() for m in build_marks(nodes, (1280, 800)).marks]
    assert lines == [
        '[1] table cell "B2" value="56" formula="=B1+8"',
        '[2] table cell "C2" value=""',
    ]


def test_cell_marks_have_no_tag_over_the_text_of_their_neighbours() -> None:
    white = Image.new("RGB", (300, 300), (255, 255, 255))
    nodes = parse_windows(CALC)[0].nodes
    marks = build_marks([n for n in nodes if n.role == "table cell"], (300, 300))
    drawn = draw_marks(white, marks, untagged=frozenset({"table cell"}))
    # Only a one-pixel outline: the inside of the cells (where text is) stays untouched,
    # and nothing is drawn above them (where a tag went, over the cell above).
    x, y, w, h = marks.marks[0].box
    inside = drawn.crop((x + 1, y + 1, x + w - 1, y + h - 1)).getextrema()
    above = drawn.crop((x, y - 14, x + w, y)).getextrema()
    assert inside == above == ((255, 255), (255, 255), (255, 255))


def _frame_with(width: int, height: int, boxes: list[tuple[int, int, int, int]]) -> Frame:
    image = Image.new("RGB", (width, height), (230, 230, 230))
    for x, y, w, h in boxes:
        image.paste((20, 20, 20), (x + 2, y + 2, x + w - 2, y + h - 2))
    raw = image.convert("RGBX").tobytes("raw", "BGRX")
    return Frame(raw, width, height)


def test_long_texts_are_given_whole() -> None:
    note = (
        "Please set the harbour picture as the wallpaper, but only if it is not enlarged "
        "past its size; otherwise keep the current one and tell me which one you kept. "
    ) * 3
    raw = [
        {
            "app": "mousepad",
            "pid": 3,
            "title": "for-you.txt - Mousepad",
            "role": "frame",
            "box": [0, 0, 800, 600],
            "active": True,
            "nodes": [
                _n("frame", "for-you.txt - Mousepad", [0, 0, 800, 600], 0),
                _n("text", "", [0, 40, 800, 500], 1, text=note),
                _n("label", note, [0, 560, 800, 20], 1),
            ],
        }
    ]
    windows = parse_windows(raw)
    frame = _frame_with(800, 600, [(0, 40, 800, 500)])
    stacking = [XWindow(1, "for-you.txt - Mousepad", "Mousepad", 3, (0, 0, 800, 600))]
    snapshot = take_snapshot(frame, windows, stacking, stacking[0], ocr="never")
    listed = snapshot.marks.text()
    assert " ".join(note.split()) in listed


# A settings dialog as it is mapped: its a11y tree is complete, its frame and background
# are drawn, its labels and buttons not yet.
DIALOG = [
    {
        "app": "xfdesktop-settings",
        "pid": 5,
        "title": "Desktop",
        "role": "frame",
        "box": [100, 100, 400, 300],
        "active": True,
        "nodes": [
            _n("frame", "Desktop", [100, 100, 400, 300], 0),
            _n("page tab", "Background", [110, 110, 80, 24], 1),
            _n("label", "Wallpaper for my desktop", [110, 140, 200, 20], 1),
            _n("check box", "Apply to all workspaces", [110, 340, 180, 20], 1),
            _n("push button", "Close", [420, 360, 60, 28], 1),
        ],
    }
]
DIALOG_X = [XWindow(9, "Desktop", "Xfdesktop-settings", 5, (100, 100, 400, 300))]


def _dialog_frame(content: bool) -> Frame:
    # The frame's top row (a header) is drawn either way: the window is not one flat
    # colour, so "unpainted" alone took it for drawn.
    boxes = [(100, 100, 400, 6)]
    if content:
        boxes += [(110, 110, 80, 24), (110, 140, 200, 20), (110, 340, 180, 20), (420, 360, 60, 28)]
    return _frame_with(640, 480, boxes)


def test_a_window_whose_content_is_not_drawn_is_found() -> None:
    windows = parse_windows(DIALOG)
    assert settling.undrawn(_dialog_frame(False), windows, DIALOG_X) == windows
    assert settling.undrawn(_dialog_frame(True), windows, DIALOG_X) == []


class _Screen:
    """Shows the dialog without its content for the first grabs, then with it."""

    def __init__(self) -> None:
        self.frames = [_dialog_frame(False)] * 3 + [_dialog_frame(True)]

    def _next(self) -> Frame:
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    def grab(self) -> Frame:
        return self._next()

    def wait_stable(self, **_: Any) -> tuple[Frame, Any]:
        return self._next(), None


def test_the_view_settles_only_once_the_content_is_drawn() -> None:
    windows = parse_windows(DIALOG)
    view = settling.settle_view(
        _Screen(),  # type: ignore[arg-type]
        lambda: list(DIALOG_X),
        lambda: windows,
        lambda: DIALOG_X[0],
        quiet=0.0,
        timeout=5.0,
    )
    assert view.settled
    assert view.frame.raw == _dialog_frame(True).raw


PANEL = {
    "app": "xfce4-panel",
    "pid": 4,
    "title": "",
    "role": "frame",
    "box": [0, 0, 640, 27],
    "active": False,
    "nodes": [
        _n("frame", "", [0, 0, 640, 27], 0),
        _n("toggle button", "Applications", [0, 0, 100, 26], 1),
        _n("toggle button", "2024-06-03", [540, 0, 99, 26], 1),
    ],
}


class _Desk:
    """What the screenshot observation reads of a desktop."""

    def __init__(self, snapshot: Any) -> None:
        self.snapshot = snapshot
        self.screenshot_width = None


def _desktop_at(minute: int, *, dialog: bool = True) -> Any:
    windows = parse_windows([PANEL, *DIALOG] if dialog else [PANEL])
    # The clock's digits: a different mark inside its box each minute.
    boxes = [
        (0, 0, 100, 26),
        (545 + 3 * minute, 5, 8, 16),
        *([(110, 140, 200, 20)] if dialog else []),
    ]
    frame = _frame_with(640, 480, boxes)
    stacking = DIALOG_X if dialog else []
    return take_snapshot(frame, windows, stacking, None, ocr="never")


def test_a_ticking_clock_does_not_change_the_screenshot() -> None:
    from reefbench.envs.desktop import actions

    desk = _Desk(_desktop_at(1))
    first = actions.screenshot.func(desk)
    desk.snapshot = _desktop_at(2)
    assert actions.screenshot.func(desk) == first
    # Anything else changing is a new screenshot.
    desk.snapshot = _desktop_at(3, dialog=False)
    assert actions.screenshot.func(desk) != first
