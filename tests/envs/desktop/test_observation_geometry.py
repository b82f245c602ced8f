"""Observations that show what the screen shows, on real screenshots of the desktop's apps.

Each mark's box must be where the app drew the element: the text an element carries (a
menu's name, a tab's, a cell's value, a paragraph of a document) is found by OCR in the
screenshot the app drew, and the mark's box must hold it. LibreOffice reported everything
below its menu bar one menu bar too high (a cell's box lay over the column header), and
listed its menus twice; Calc's cells had no values and were "disabled"; the wallpaper
chooser's thumbnails had no names.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.observation import Snapshot, visible_nodes
from reefbench.envs.desktop.session_evaluators import DESKTOP_CHANNEL, xfconf_value
from reefbench.envs.desktop.xsession import WALLPAPER_PROPERTY
from reefbench.perception.marks import Mark, overlap
from reefbench.perception.ocr import group_lines, ocr_image
from reefbench.plumbing.waiting import wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(
            shutil.which(t)
            for t in ("Xvfb", "bwrap", "xdotool", "openbox", "localc", "tesseract", "thunar")
        )
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, LibreOffice, Thunar, tesseract "
        "and Debian's python3",
    ),
]

# Roles whose name (or, for a cell, value; for a paragraph, text) is drawn inside them.
# Not buttons: a toolbar's icon buttons are named by a tooltip whose word may be drawn
# elsewhere ("Table" is a menu's name and an icon button's).
TEXT_ROLES = frozenset(
    {
        "menu",
        "page tab",
        "check box",
        "radio button",
        "table cell",
        "list item",
        "paragraph",
        "combo box",
        "icon",
        "label",
    }
)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w ]", " ", text).casefold().split())


def _drawn_text(mark: Mark) -> str:
    """What the app draws inside an element: a cell's value, a drop-down's choice when it
    is named by the label beside it (``combo box "Style" value="Zoomed"``), else its
    name."""
    if mark.role == "table cell" or (mark.role == "combo box" and mark.value is not None):
        return mark.value or ""
    return mark.name


def misplaced(snapshot: Snapshot) -> tuple[int, list[str]]:
    """How many elements were judged, and those the app drew outside their box.

    An element is judged when OCR reads its whole text (a name, a cell's value, a
    paragraph; at least four characters) on a line of the screenshot; it is misplaced when
    no such line overlaps its box. The app's pixels are the truth: a box 25 px above a
    17 px cell does not overlap the cell's text.
    """
    lines = group_lines(ocr_image(snapshot.image()))
    judged, bad = 0, []
    items = [(m.role, _drawn_text(m), m.box) for m in snapshot.marks.marks]
    items += [
        (n.role, n.text or "", n.box)
        for n in visible_nodes(snapshot.windows, snapshot.stacking)
        if n.role == "paragraph" and n.box is not None
    ]
    for role, text, box in items:
        wanted = _norm(text or "")
        if role not in TEXT_ROLES or len(wanted) < 4:
            continue
        hits = [line.box for line in lines if wanted in _norm(line.text)]
        if not hits:
            continue
        judged += 1
        if not any(overlap(box, hit) > 0 for hit in hits):
            bad.append(f"{role} {text[:30]!r} box={box} but drawn at {hits}")
    return judged, bad


def open_app(desk: DesktopEnvironment, name: str) -> Snapshot:
    desk.reset()
    desk.step("search_app", {"name": name})
    return desk.observe_now()


def assert_in_place(snapshot: Snapshot, least: int = 3) -> None:
    judged, bad = misplaced(snapshot)
    assert not bad, "\n".join(bad)
    assert judged >= least, f"only {judged} elements could be judged"


def test_calc_cells_carry_their_values_and_formulas_where_they_are_drawn(
    desk: DesktopEnvironment,
) -> None:
    desk.reset()
    desk.step("search_app", {"name": "spreadsheet"})
    desk.step("write_text", {"text": "Harbour\t48\nLighthouse\t=B1+8\n"})
    snapshot = desk.observe_now()
    listed = snapshot.marks.text()
    assert 'table cell "A1" value="Harbour"' in listed
    assert 'table cell "B2" value="56" formula="=B1+8"' in listed
    assert 'table cell "C3" value=""' in listed  # empty, not "disabled"
    assert "(disabled)" not in "\n".join(
        m.line() for m in snapshot.marks.marks if m.role == "table cell"
    )
    cell = next(m for m in snapshot.marks.marks if m.name == "A1")
    # The app's own geometry: the column header ("A") is drawn above row 1, not inside A1.
    assert_in_place(snapshot)
    judged = {m.name for m in snapshot.marks.marks if m.role == "table cell" and m.value}
    assert {"A1", "B1", "A2", "B2"} <= judged and cell.box[3] < 30


def test_office_menus_are_listed_once(desk: DesktopEnvironment) -> None:
    for app in ("spreadsheet", "word processor", "presentation"):
        snapshot = open_app(desk, app)
        menus = Counter(m.name for m in snapshot.marks.marks if m.role == "menu")
        assert menus["File"] == 1 and menus["Help"] == 1, (app, menus)


def test_writer_text_is_listed_and_drawn_where_its_paragraph_is(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.step("search_app", {"name": "word processor"})
    sentence = "Quarterly harbour inspection finished without findings"
    desk.step("write_text", {"text": sentence + "\n"})
    snapshot = desk.observe_now()
    assert sentence in snapshot.marks.text()
    assert_in_place(snapshot)


@pytest.mark.parametrize(
    "app", ["presentation", "image editor", "Files", "Desktop Settings", "Appearance"]
)
def test_marks_lie_where_the_app_drew_their_elements(desk: DesktopEnvironment, app: str) -> None:
    assert_in_place(open_app(desk, app))


def test_wallpaper_thumbnails_are_named_by_the_pictures_they_apply(
    desk: DesktopEnvironment,
) -> None:
    """A thumbnail's name is its file's name (what its tooltip shows on hover): clicking
    the one named so makes that file the wallpaper (the app's own reading of it)."""
    snapshot = open_app(desk, "Desktop Settings")
    thumbs = [m for m in snapshot.marks.marks if m.role == "icon" and m.box[1] > 100]
    assert len(thumbs) >= 4 and all(m.name.startswith("xfce-") for m in thumbs), [
        m.line() for m in thumbs
    ]
    for thumb in (thumbs[1], thumbs[3]):
        desk.step("click", {"elem": thumb.id})

        def applied(name: str = thumb.name) -> bool:
            value = xfconf_value(desk, DESKTOP_CHANNEL, WALLPAPER_PROPERTY) or ""
            return value.endswith("/" + name)

        assert wait_until(applied, 10.0, interval=0.1), (
            thumb.name,
            xfconf_value(desk, DESKTOP_CHANNEL, WALLPAPER_PROPERTY),
        )
        desk.observe_now()
