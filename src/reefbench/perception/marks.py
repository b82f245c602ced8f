"""Set-of-Marks: numbered boxes over the elements an agent can act on.

A mark is an element (from a UI tree, or an OCR text line for surfaces without one) with
an id that actions take as ``elem``. The agent gets the screenshot with the numbered boxes
drawn on it and a text list ``[id] role "name"``; ids are only valid for the observation
that produced them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from reefbench.perception.ocr import OcrLine

if TYPE_CHECKING:
    from PIL import Image as PILImage

Box = tuple[int, int, int, int]

# How an agent reads marks, in the same words on every device kind: a prompt listing
# several devices states a sentence they share once (agents/policies.environments_text),
# so these must stay byte-identical across kinds. Each kind adds its own list format.
MARKS_SENTENCE = (
    "Each step shows a screenshot with numbered boxes on the elements you can act on, and "
    "a list of those elements; pass an element's number as `elem`. Numbers are valid only "
    "for the latest screenshot."
)
# What the pixels set says instead of MARKS_SENTENCE (no boxes, no list), also shared.
PIXELS_SENTENCE = (
    "Each step shows a plain screenshot; point at things by their pixel coordinates in it "
    "(x from the left edge, y from the top)."
)
FIELDS_SENTENCE = (
    'A field is listed with its current text as value="..." and a toggle with its state, '
    "e.g. (checked); text that is not an element is listed after them."
)

# Roles (AT-SPI names; the browser and phone trees map theirs onto these) an agent can act on.
INTERACTIVE_ROLES = frozenset(
    {
        "push button",
        "toggle button",
        "check box",
        "radio button",
        "menu",
        "menu item",
        "check menu item",
        "radio menu item",
        "combo box",
        "text",
        "entry",
        "password text",
        "terminal",
        "link",
        "page tab",
        "list item",
        "table cell",
        "tree item",
        "icon",
        "slider",
        "spin button",
        "toggle",
        "button",
        "textbox",
        "checkbox",
        "radio",
        "tab",
        "menuitem",
        "option",
        "switch",
        "searchbox",
        "document text",
    }
)


# Unnamed cells and items are the expander/icon columns of tree views and menu separators:
# boxes with nothing to tell the agent apart from the named element next to them.
_UNNAMED_NOISE = frozenset({"table cell", "list item", "tree item", "menu item", "icon"})


class Element(Protocol):
    """What a UI-tree node must offer to become a mark.

    A node may also offer ``value`` (``str | None``: a field's current text, a drop-down's
    choice), ``formula`` (``str | None``: a spreadsheet cell's) and ``shown_states``
    (``tuple[str, ...]``: ``checked``, ``unchecked``, ``mixed``, ``selected``,
    ``expanded``, ``disabled``); :func:`build_marks` copies them when there.
    """

    @property
    def role(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def box(self) -> Box | None: ...


@dataclass(frozen=True, slots=True)
class Mark:
    """One numbered element.

    Attributes:
        id: The number the agent uses (``click(elem=3)``).
        role: Its role (``push button``), or ``text`` for an OCR line.
        name: Accessible name, or the OCR text.
        box: ``(x, y, w, h)`` in screen pixels.
        source: ``"a11y"`` (UI tree) or ``"ocr"``.
        value: A field's current value (``None``: not a field, or not known), shown
            apart from the name so that a filled field keeps its label as its name.
        states: What an agent cannot tell from a name: ``checked``/``unchecked``/
            ``mixed`` (a tri-state check box drawn with a dash), ``selected``,
            ``expanded``, ``disabled``.
        formula: A spreadsheet cell's formula (``=B1+8``), when it holds one: its value
            is what the formula computes.
        description: What the element's accessible description says beyond its name
            (a phone button named by its visible word "Complete" and described as
            "Mark “Book a table” complete"): which of several alike it is.
    """

    id: int
    role: str
    name: str
    box: Box
    source: str = "a11y"
    value: str | None = None
    states: tuple[str, ...] = ()
    formula: str | None = None
    description: str | None = None

    @property
    def center(self) -> tuple[int, int]:
        x, y, w, h = self.box
        return x + w // 2, y + h // 2

    def line(self) -> str:
        """``[id] role "name"``, then ``value="..."`` for a field (``formula="..."`` for
        a cell that computes it), ``description="..."`` and ``(states)``."""
        out = f'[{self.id}] {self.role} "{clip_text(self.name, 80)}"'
        if self.description:
            out += f' description="{clip_text(self.description, 80)}"'
        if self.value is not None:
            out += f' value="{clip_text(self.value, VALUE_CAP)}"'
        if self.formula:
            out += f' formula="{clip_text(self.formula, VALUE_CAP)}"'
        if self.states:
            out += f" ({', '.join(self.states)})"
        return out


# A field's value is shown up to this many characters (a text editor's whole document is
# the value of one element: the list must stay small).
VALUE_CAP = 200
# Static text (not an element, but what a task may ask about: a mail's body, an event's
# place): each item and all of them together are capped so lists stay small.
STATIC_ITEM_CAP = 200
STATIC_TOTAL_CAP = 2000


def clip_text(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with ``...`` when longer."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def static_text(
    texts: Iterable[str],
    shown: Iterable[str] = (),
    *,
    item_cap: int = STATIC_ITEM_CAP,
    total_cap: int = STATIC_TOTAL_CAP,
) -> list[str]:
    """Texts on the screen that no element carries, clipped and de-duplicated: each item
    to ``item_cap`` characters, all of them to ``total_cap`` (the rest is dropped).

    Args:
        texts: Candidate texts in reading order.
        shown: Names and values the element list already shows (left out here).
    """
    seen = {" ".join(t.split()).casefold() for t in shown if t}
    out: list[str] = []
    total = 0
    for text in texts:
        flat = " ".join(text.split())
        key = flat.casefold()
        if not flat or key in seen:
            continue
        seen.add(key)
        item = clip_text(flat, item_cap)
        if total + len(item) > total_cap:
            break
        out.append(item)
        total += len(item)
    return out


def static_lines(items: Sequence[str]) -> str:
    """The static-text section of an element list (empty when there is none)."""
    if not items:
        return ""
    return "\nText on screen (not elements):\n" + "\n".join(f'- "{t}"' for t in items)


@dataclass(frozen=True)
class MarkSet:
    """The marks of one observation, addressable by id."""

    marks: tuple[Mark, ...]
    texts: tuple[str, ...] = ()
    """Static text of the screen (see :func:`static_text`), listed after the marks."""

    def get(self, mark_id: int) -> Mark | None:
        index = mark_id - 1
        if 0 <= index < len(self.marks) and self.marks[index].id == mark_id:
            return self.marks[index]
        return next((m for m in self.marks if m.id == mark_id), None)

    def text(self) -> str:
        """The prompt list, one ``[id] role "name"`` per line, then the static text."""
        listed = "\n".join(m.line() for m in self.marks) or "(no interactive elements)"
        return listed + static_lines(self.texts)

    def __len__(self) -> int:
        return len(self.marks)


def require_mark(marks: MarkSet | None, elem: int) -> Mark:
    """The mark numbered ``elem`` in the latest observation's ``marks``.

    Raises:
        InvalidAction: there is no observation yet, or no such number in it (a stale or
            made-up id is the agent's mistake, not a crash).
    """
    from reefbench.errors import InvalidAction

    if marks is None:
        raise InvalidAction(
            f"element {elem} is unknown: there is no observation with numbered elements yet"
        )
    found = marks.get(elem)
    if found is None:
        valid = f"1..{len(marks)}" if len(marks) else "none"
        raise InvalidAction(f"element {elem} is not in the latest observation (valid ids: {valid})")
    return found


def clip_box(box: Box, size: tuple[int, int]) -> Box | None:
    """``box`` cut to the screen, or ``None`` if nothing of it is on screen."""
    x, y, w, h = box
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, size[0]), min(y + h, size[1])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return (x0, y0, x1 - x0, y1 - y0)


def overlap(a: Box, b: Box) -> float:
    """Intersection area over the smaller box's area (1.0 = one contains the other)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    iw = min(ax + aw, bx + bw) - max(ax, bx)
    ih = min(ay + ah, by + bh) - max(ay, by)
    if iw <= 0 or ih <= 0:
        return 0.0
    return (iw * ih) / max(1, min(aw * ah, bw * bh))


def _covers(element: Box, line: Box, threshold: float) -> bool:
    """An element already marks this OCR line: they overlap and the element is not a big
    container (a text area or terminal holds many lines that deserve their own marks)."""
    area_element, area_line = element[2] * element[3], max(1, line[2] * line[3])
    return overlap(element, line) >= threshold and area_element <= 8 * area_line


def build_marks(
    elements: Iterable[Element],
    screen: tuple[int, int],
    *,
    ocr_lines: Sequence[OcrLine] = (),
    roles: frozenset[str] = INTERACTIVE_ROLES,
    ocr_overlap: float = 0.5,
) -> MarkSet:
    """Number the interactive, on-screen elements, then add OCR lines not already covered.

    Elements keep their order (tree order reads top-down in most toolkits); duplicates with
    the same role, name and box (a widget and its inner node) are kept once.
    """
    marks: list[Mark] = []
    seen: set[tuple[str, str, Box]] = set()
    for element in elements:
        if element.role not in roles or element.box is None:
            continue
        if not element.name and element.role in _UNNAMED_NOISE:
            continue
        box = clip_box(element.box, screen)
        if box is None:
            continue
        key = (element.role, element.name, box)
        if key in seen:
            continue
        seen.add(key)
        # Optional parts of an element (see Element): not every tree knows them.
        value = getattr(element, "value", None)
        states = tuple(getattr(element, "shown_states", ()))
        formula = getattr(element, "formula", None)
        marks.append(
            Mark(len(marks) + 1, element.role, element.name, box, "a11y", value, states, formula)
        )
    tree_boxes = [m.box for m in marks]
    for line in ocr_lines:
        box = clip_box(line.box, screen)
        if box is None or any(_covers(b, box, ocr_overlap) for b in tree_boxes):
            continue
        marks.append(Mark(len(marks) + 1, "text", line.text, box, source="ocr"))
    return MarkSet(tuple(marks))


_PALETTE = (
    (230, 25, 75),
    (60, 140, 60),
    (0, 90, 200),
    (245, 130, 48),
    (145, 30, 180),
    (0, 150, 150),
    (200, 0, 150),
    (120, 100, 0),
)


@lru_cache(maxsize=4)
def _font(size: int) -> Any:
    from PIL import ImageFont

    for path in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _tag_spots(box: Box, tag: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Where a mark's number may go (its tag's top-left corner), in order of preference:
    outside its box first (above, where Set-of-Marks draws it, then beside and below),
    inside its corners last (over its own content). Every spot touches the box, so a tag
    stays attached to its element."""
    x, y, w, h = box
    tw, th = tag
    right, bottom = x + w - tw, y + h - th  # right- and bottom-aligned inside the box
    return (
        (x, y - th),  # above, left-aligned
        (right, y - th),  # above, right-aligned
        (x - tw, y),  # left of the box, at its top
        (x + w, y),  # right of the box, at its top
        (x, y + h),  # below, left-aligned
        (right, y + h),  # below, right-aligned
        (x, y),  # inside, top left
        (right, y),  # inside, top right
        (x, bottom),  # inside, bottom left
        (right, bottom),  # inside, bottom right
    )


# A pixel of another tag covered costs this many pixels of a box: it hides a number whole.
_TAG_OVER_TAG = 4
# A pixel of drawn detail covered (text, an icon, a photo: an edge in the screenshot)
# costs this many pixels of a box, which may be only its padding. Content that is no
# element (a picture on a canvas, a caption) is then kept clear too.
_INK_WEIGHT = 2
# A pixel of the tag's own box costs half a pixel of another's: a tag in its own corner
# still reads as its number and hides no other element (its detail counts as ink).
_OWN_BOX_DIVISOR = 2
_INK_EDGE = 40  # an edge this strong (0-255) is drawn detail


def ink_mask(image: PILImage.Image) -> PILImage.Image:
    """255 where ``image`` draws detail (the edges of text, icons, photos: a pixel unlike
    its right or lower neighbour), else 0. Differences of shifted copies cost a third of
    a convolution (about 5 ms for a 1280x800 screenshot)."""
    from PIL import ImageChops

    gray = image.convert("L")
    across = ImageChops.difference(gray, ImageChops.offset(gray, 1, 0))
    down = ImageChops.difference(gray, ImageChops.offset(gray, 0, 1))
    return ImageChops.lighter(across, down).point(lambda v: 255 if v > _INK_EDGE else 0)


def _area(a: Box, b: Box) -> int:
    """Pixels of ``a`` that ``b`` covers (both ``(x, y, w, h)``)."""
    iw = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    ih = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return iw * ih if iw > 0 and ih > 0 else 0


def _covered(x1: int, y1: int, x2: int, y2: int, boxes: list[Box]) -> int:
    """Pixels of the rectangle ``x1, y1`` to ``x2, y2`` under each of ``boxes``, summed
    (the hot loop of tag placement: no calls inside)."""
    total = 0
    for bx, by, bw, bh in boxes:
        iw = (x2 if x2 < bx + bw else bx + bw) - (x1 if x1 > bx else bx)
        if iw > 0:
            ih = (y2 if y2 < by + bh else by + bh) - (y1 if y1 > by else by)
            if ih > 0:
                total += iw * ih
    return total


@lru_cache(maxsize=2048)
def _tag_size(label: str, font_size: int) -> tuple[int, int, float, float]:
    """A tag's width and height for ``label`` (the number with a pixel or two of margin,
    as the tags always had) and the text's offset in it; ids recur every step."""
    left, top, right, bottom = _font(font_size).getbbox(label)
    return math.ceil(right - left) + 5, math.ceil(bottom - top) + 3, left, top


class _Grid:
    """Boxes bucketed by 64-pixel cells, so that the boxes near a tag are found without
    scanning every mark (a Calc window has 250)."""

    CELL = 64

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self._cells: dict[tuple[int, int], list[int]] = {}

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        x, y, w, h = box
        c = self.CELL
        columns = range(x // c, (x + max(w, 1) - 1) // c + 1)
        return [(i, j) for i in columns for j in range(y // c, (y + max(h, 1) - 1) // c + 1)]

    def add(self, box: Box) -> None:
        for key in self._keys(box):
            self._cells.setdefault(key, []).append(len(self.boxes))
        self.boxes.append(box)

    def near(self, region: Box, leave_out: int = -1) -> list[Box]:
        """The boxes that may overlap ``region`` (but the one added ``leave_out``-th)."""
        found: set[int] = set()
        for key in self._keys(region):
            found.update(self._cells.get(key, ()))
        found.discard(leave_out)
        return [self.boxes[i] for i in sorted(found)]


def _place_tag(
    box: Box,
    tag: tuple[int, int],
    size: tuple[int, int],
    others: list[Box],
    tags: list[Box],
    ink: PILImage.Image | None = None,
) -> Box:
    """The candidate spot for ``box``'s tag that covers the fewest pixels of the other
    marks' boxes near it (``others``), of its own box (at half weight), of the ``tags``
    already placed near it and of drawn detail (``ink``, see :func:`ink_mask`); the
    first such spot in :func:`_tag_spots` order on a tie (so placement is
    deterministic)."""
    x, y = box[0], box[1]
    tw, th = tag
    best: Box | None = None
    best_cost = 0
    for tx, ty in _tag_spots(box, tag):
        if tx < 0 or ty < 0 or tx + tw > size[0] or ty + th > size[1]:
            continue
        candidate = (tx, ty, tw, th)
        cost = _covered(tx, ty, tx + tw, ty + th, others)
        cost += _area(candidate, box) // _OWN_BOX_DIVISOR
        cost += _TAG_OVER_TAG * _covered(tx, ty, tx + tw, ty + th, tags)
        if best is not None and cost >= best_cost:
            continue
        if ink is not None:
            cost += _INK_WEIGHT * ink.crop((tx, ty, tx + tw, ty + th)).histogram()[255]
        if best is None or cost < best_cost:
            best, best_cost = candidate, cost
            if cost == 0:
                break
    if best is None:  # a box too close to every edge: inside, moved onto the image
        best = (max(0, min(x, size[0] - tw)), max(0, min(y, size[1] - th)), tw, th)
    return best


def tag_boxes(
    marks: MarkSet,
    size: tuple[int, int],
    font_size: int = 12,
    *,
    untagged: frozenset[str] = frozenset(),
    image: PILImage.Image | None = None,
) -> dict[int, Box]:
    """Where :func:`draw_marks` puts each mark's number: its filled tag's ``(x, y, w, h)``
    by mark id, on a ``size`` image.

    A tag goes where it covers the least of the other marks' boxes (and of its own, where
    its text is) and of the tags placed before it, among spots that touch its box (above
    it first, as Set-of-Marks draws it, then beside, below and inside its corners): a tag
    always above-left covered the element above, text included, wherever rows are close.
    Marks of ``untagged`` roles get no tag but their boxes are kept clear too. With the
    screenshot (``image``), what it draws outside any box (a photo, a caption) is kept
    clear as well.
    """
    boxes, tags = _Grid(), _Grid()
    for mark in marks.marks:
        boxes.add(mark.box)
    ink = ink_mask(image) if image is not None else None
    placed: dict[int, Box] = {}
    for index, mark in enumerate(marks.marks):
        if mark.role in untagged:
            continue
        tw, th, _, _ = _tag_size(str(mark.id), font_size)
        x, y, w, h = mark.box
        near = (x - tw, y - th, w + 2 * tw, h + 2 * th)  # every spot lies in here
        others, nearby_tags = boxes.near(near, leave_out=index), tags.near(near)
        placed[mark.id] = _place_tag(mark.box, (tw, th), size, others, nearby_tags, ink)
        tags.add(placed[mark.id])
    return placed


def draw_marks(
    image: PILImage.Image,
    marks: MarkSet,
    font_size: int = 12,
    *,
    untagged: frozenset[str] = frozenset(),
) -> PILImage.Image:
    """A copy of ``image`` with each mark's box outlined and its id in a filled tag
    (placed by :func:`tag_boxes`; outlines first, so no outline crosses a number).

    Args:
        untagged: Roles drawn as a thin outline with no tag: elements that lie edge to
            edge with text inside (a spreadsheet's cells), where a tag, wherever it went,
            would cover what a neighbour shows. The list still numbers them.
    """
    from PIL import ImageDraw

    out = image.convert("RGB") if image.mode != "RGB" else image.copy()
    tags = tag_boxes(marks, out.size, font_size, untagged=untagged, image=out)
    draw = ImageDraw.Draw(out)
    font = _font(font_size)
    for mark in marks.marks:
        color = _PALETTE[mark.id % len(_PALETTE)]
        x, y, w, h = mark.box
        width = 1 if mark.role in untagged else 2
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=color, width=width)
    for mark_id, (tx, ty, tw, th) in tags.items():
        label = str(mark_id)
        _, _, left, top = _tag_size(label, font_size)
        color = _PALETTE[mark_id % len(_PALETTE)]
        draw.rectangle((tx, ty, tx + tw - 1, ty + th - 1), fill=color)
        draw.text((tx + 2 - left, ty + 1 - top), label, fill=(255, 255, 255), font=font)
    return out
