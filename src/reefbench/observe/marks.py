"""Set-of-Marks: numbered boxes over the elements an agent can act on.

A mark is an element (from a UI tree, or an OCR text line for surfaces without one) with
an id that actions take as ``elem``. The agent gets the screenshot with the numbered boxes
drawn on it and a text list ``[id] role "name"``; ids are only valid for the observation
that produced them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from reefbench.observe.ocr import OcrLine

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
    (``tuple[str, ...]``: ``checked``, ``unchecked``, ``selected``, ``expanded``,
    ``disabled``); :func:`build_marks` copies them when there.
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
        states: What an agent cannot tell from a name: ``checked``/``unchecked``,
            ``selected``, ``expanded``, ``disabled``.
        formula: A spreadsheet cell's formula (``=B1+8``), when it holds one: its value
            is what the formula computes.
    """

    id: int
    role: str
    name: str
    box: Box
    source: str = "a11y"
    value: str | None = None
    states: tuple[str, ...] = ()
    formula: str | None = None

    @property
    def center(self) -> tuple[int, int]:
        x, y, w, h = self.box
        return x + w // 2, y + h // 2

    def line(self) -> str:
        """``[id] role "name"``, then ``value="..."`` for a field (``formula="..."`` for
        a cell that computes it) and ``(states)``."""
        out = f'[{self.id}] {self.role} "{clip_text(self.name, 80)}"'
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


def draw_marks(
    image: PILImage.Image,
    marks: MarkSet,
    font_size: int = 12,
    *,
    untagged: frozenset[str] = frozenset(),
) -> PILImage.Image:
    """A copy of ``image`` with each mark's box outlined and its id in a filled tag.

    Args:
        untagged: Roles drawn as a thin outline with no tag: elements that lie edge to
            edge with text inside (a spreadsheet's cells), where a tag, wherever it went,
            would cover what a neighbour shows. The list still numbers them.
    """
    from PIL import ImageDraw

    out = image.convert("RGB") if image.mode != "RGB" else image.copy()
    draw = ImageDraw.Draw(out)
    font = _font(font_size)
    for mark in marks.marks:
        color = _PALETTE[mark.id % len(_PALETTE)]
        x, y, w, h = mark.box
        if mark.role in untagged:
            draw.rectangle((x, y, x + w - 1, y + h - 1), outline=color, width=1)
            continue
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=color, width=2)
        label = str(mark.id)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        tw, th = right - left + 4, bottom - top + 2
        ty = y - th if y - th >= 0 else y
        draw.rectangle((x, ty, x + tw, ty + th), fill=color)
        draw.text((x + 2 - left, ty + 1 - top), label, fill=(255, 255, 255), font=font)
    return out
