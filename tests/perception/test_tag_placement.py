"""Number tags cover as little as they can (issue 31, item 5: "labels never hide the
content they mark").

Every tag used to go above its box's top-left corner (inside it at the top edge), so
wherever elements are close a tag covered the element above, its text included. Now each
goes to the spot beside its box that covers the fewest pixels of other marks' boxes, of
its own box, of other tags and of drawn detail. Measured here as the pixels of *other*
marks' boxes under the tags, before and after, on synthetic dense layouts and on real
screenshots of desktop apps and a phone page.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from reefbench.perception.marks import _PALETTE, Box, Mark, MarkSet, draw_marks, tag_boxes


def _marks(boxes: list[Box], role: str = "push button") -> MarkSet:
    return MarkSet(tuple(Mark(i + 1, role, f"b{i + 1}", box) for i, box in enumerate(boxes)))


def old_placement(marks: MarkSet, tags: dict[int, Box]) -> dict[int, Box]:
    """Where the tags went before: above the top-left corner, inside it at the top edge
    (the tags' sizes are the same)."""
    out = {}
    for mark in marks.marks:
        if mark.id in tags:
            x, y, _, _ = mark.box
            _, _, tw, th = tags[mark.id]
            out[mark.id] = (x, y - th if y - th >= 0 else y, tw, th)
    return out


def covered(marks: MarkSet, tags: dict[int, Box]) -> int:
    """Pixels of other marks' boxes that the tags cover (each pixel once per tag)."""
    total = 0
    for mark_id, (tx, ty, tw, th) in tags.items():
        others = [m.box for m in marks.marks if m.id != mark_id]
        total += sum(
            any(x <= px < x + w and y <= py < y + h for x, y, w, h in others)
            for px in range(tx, tx + tw)
            for py in range(ty, ty + th)
        )
    return total


def tags_overlapping(tags: dict[int, Box]) -> int:
    """Pixels where two tags lie on each other (a number hidden under another)."""
    items, total = list(tags.values()), 0
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            iw = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            ih = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            total += iw * ih if iw > 0 and ih > 0 else 0
    return total


def attached(tag: Box, box: Box) -> bool:
    """The tag touches or lies in its box (it reads as that box's number)."""
    tx, ty, tw, th = tag
    x, y, w, h = box
    return tx <= x + w and x <= tx + tw and ty <= y + h and y <= ty + th


def assert_better(
    marks: MarkSet,
    size: tuple[int, int],
    image: Image.Image | None = None,
    untagged: frozenset[str] = frozenset(),
) -> tuple[int, int]:
    new = tag_boxes(marks, size, untagged=untagged, image=image)
    old = old_placement(marks, new)
    before, after = covered(marks, old), covered(marks, new)
    assert after < before, (before, after)
    assert tags_overlapping(new) <= tags_overlapping(old)
    for mark in marks.marks:
        if mark.id in new:
            tx, ty, tw, th = new[mark.id]
            assert attached(new[mark.id], mark.box), (mark.line(), new[mark.id])
            assert tx >= 0 and ty >= 0 and tx + tw <= size[0] and ty + th <= size[1]
    return before, after


# ------------------------------------------------------------ synthetic layouts
def test_a_list_of_close_rows_gets_no_tag_over_a_neighbour() -> None:
    """Rows 2 px apart (a menu, a settings list): above-left covered the row above."""
    rows = [(40, 10 + 26 * i, 240, 24) for i in range(20)]
    before, after = assert_better(_marks(rows), (400, 560))
    assert before > 20 * 100 and after == 0, (before, after)


def test_a_dense_toolbar_grid_is_covered_far_less() -> None:
    """Icon buttons 2 px apart in rows 2 px apart (LibreOffice's toolbars)."""
    grid = [(10 + 30 * c, 30 + 30 * r, 28, 28) for r in range(4) for c in range(12)]
    before, after = assert_better(_marks(grid), (400, 200))
    assert after * 2 < before, (before, after)


def test_tags_keep_off_a_picture_that_is_no_element() -> None:
    """A column of tools beside a canvas holding a photo (Drawing): a tag beside a tool
    would cover the photo's edge, which is no mark's box; the photo's detail keeps it
    clear, as the Gallery's photos are kept clear."""
    image = Image.new("RGB", (500, 400), (240, 240, 240))
    photo = Image.effect_noise((300, 380), 80).convert("RGB")
    image.paste(photo, (180, 10))
    tools = [(0, 10 + 40 * i, 174, 38) for i in range(9)]
    marks = _marks(tools)
    assert_better(marks, image.size, image)
    for tx, ty, tw, th in tag_boxes(marks, image.size, image=image).values():
        assert tx + tw <= 180, (tx, ty, tw, th)


def test_placement_is_deterministic_and_drawn_where_it_says() -> None:
    boxes = [(5, 2, 60, 20), (5, 24, 60, 20), (70, 24, 30, 20), (20, 60, 200, 100)]
    marks = _marks(boxes)
    image = Image.new("RGB", (240, 180), (255, 255, 255))
    tags = tag_boxes(marks, image.size, image=image)
    assert tags == tag_boxes(marks, image.size, image=image)
    drawn = draw_marks(image, marks)
    for mark_id, (tx, ty, _, th) in tags.items():
        # The tag's fill, left of its number: no outline drawn over it afterwards.
        assert drawn.getpixel((tx + 1, ty + th // 2)) == _PALETTE[mark_id % len(_PALETTE)]


def test_untagged_marks_get_no_tag_and_are_kept_clear() -> None:
    cells = [(40 + 60 * c, 40 + 18 * r, 60, 18) for r in range(5) for c in range(4)]
    button = (40, 20, 60, 18)  # right above the first cell
    marks = MarkSet(
        (
            Mark(1, "push button", "Bold", button),
            *(Mark(i + 2, "table cell", f"c{i}", b) for i, b in enumerate(cells)),
        )
    )
    tags = tag_boxes(marks, (400, 200), untagged=frozenset({"table cell"}))
    assert list(tags) == [1]
    assert covered(marks, tags) == 0


# -------------------------------------------------------------- real screenshots
HAS_DESKTOP = (
    all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "thunar", "mousepad"))
    and Path("/usr/bin/python3").exists()
)


@pytest.mark.integration
@pytest.mark.skipif(not HAS_DESKTOP, reason="needs Xvfb, bubblewrap, openbox, Thunar, Mousepad")
@pytest.mark.parametrize("app", ["Files", "Text Editor", "Desktop Settings"])
def test_tags_on_real_desktop_apps_cover_less_of_other_elements(desk: object, app: str) -> None:
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.desktop.observation import UNTAGGED_ROLES

    assert isinstance(desk, DesktopEnvironment)
    desk.reset()
    desk.step("search_app", {"name": app})
    snapshot = desk.observe_now()
    image = snapshot.image()
    before, after = assert_better(snapshot.marks, image.size, image, UNTAGGED_ROLES)
    print(f"{app}: {before} -> {after} pixels of other elements under tags")


@pytest.mark.integration
def test_tags_on_a_real_phone_page_cover_less_of_other_elements() -> None:
    pytest.importorskip("playwright")
    pytest.importorskip("fastapi")
    from reefbench.envs.phone import PhoneEnvironment
    from reefbench.envs.services import ServicesEnvironment
    from reefbench.envs.ui.marks import scaled

    services = ServicesEnvironment()
    phone = PhoneEnvironment(services=services)
    try:
        phone.start()
        services.reset()
        phone.reset()
        phone.open_app("com.reef.calendar")
        snapshot = phone.observe_now()
        marks = scaled(snapshot.marks.marks, snapshot.image_scale)
        with Image.open(io.BytesIO(snapshot.png)) as image:
            before, after = assert_better(marks, image.size, image.convert("RGB"))
        print(f"phone calendar: {before} -> {after} pixels of other elements under tags")
    finally:
        phone.stop()
        services.stop()
