"""Set-of-Marks from a uiautomator hierarchy (phone and Android alike).

Every node a finger can act on gets a number; a clickable row whose text sits in child
``TextView``s is named after that text, and a node with the same box as an already
numbered ancestor (a clickable layout wrapping a clickable button) is numbered once.
Drawing reuses :mod:`reefbench.perception.marks`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reefbench.environments.grounding import HINT_SEPARATOR
from reefbench.envs.ui.hierarchy import UIHierarchy, UINode, normalise
from reefbench.perception.marks import VALUE_CAP, Mark, MarkSet, clip_box, static_text

# The list shows a name up to this many characters (Mark.line); a longer name, or a value
# longer than VALUE_CAP, is also given whole among the texts on screen.
NAME_CAP = 80
# Texts on screen: a message or a note is given whole (a cut one cannot be answered from).
TEXT_ITEM_CAP = 1500
TEXT_TOTAL_CAP = 4000

# Views whose text is a value the user edits or picks: they are named by their label.
FIELD_CLASSES = frozenset({"EditText", "AutoCompleteTextView", "MultiAutoCompleteTextView"})
CHOICE_CLASSES = frozenset({"Spinner"})


def is_field(node: UINode) -> bool:
    return node.short_class in FIELD_CLASSES or node.short_class in CHOICE_CLASSES


def node_value(node: UINode) -> str | None:
    """A field's current text or a drop-down's choice; ``None`` for anything else."""
    return node.text if is_field(node) else None


def node_states(node: UINode) -> tuple[str, ...]:
    """What a name cannot say: on/off for switches and check boxes, selected, disabled."""
    out: list[str] = []
    if node.flag("checkable"):
        out.append("checked" if node.flag("checked") else "unchecked")
    if node.flag("selected"):
        out.append("selected")
    if not node.flag("enabled"):
        out.append("disabled")
    return tuple(out)


def node_name(node: UINode, limit: int = NAME_CAP) -> str:
    """The node's own label, else the texts of its descendants joined (clipped at a word).

    A field is named by its label (content description, else hint, else resource id),
    never by the text in it: that is its value (a timer's ``Hours`` field holding 0). An
    empty field whose hint is not its label says the hint too (``Copy name, hint:
    IMG_0851.png``), as the screen shows it in grey. A container that only scrolls (a
    page, a list) is not named after everything in it: its parts have marks of their own.
    """
    if is_field(node):
        name = node.content_desc or node.hint or node.id_name or node.text
        if node.hint and not node.text and normalise(node.hint) != normalise(name):
            name = f"{name}{HINT_SEPARATOR}{node.hint}"
        return name
    if node.label and node.label != node.id_name:
        return node.label
    if node.children and not node.flag("clickable") and not node.flag("long-clickable"):
        return node.label
    parts = []
    for child in node.iter():
        if child is not node:
            parts += [t for t in (child.text, child.content_desc) if t and t not in parts]
        if sum(len(p) for p in parts) > limit:
            break
    joined = " ".join(parts)
    if len(joined) > limit:
        joined = joined[:limit].rsplit(" ", 1)[0]
    return joined or node.label


def node_description(node: UINode) -> str | None:
    """The content description of a node named by its visible text, when it says more:
    a to-do's "Complete" button described as "Mark “Book a table” complete" (TalkBack
    reads both). The name stays the visible text, which actions address it by."""
    if is_field(node) or not node.text or not node.content_desc:
        return None
    if normalise(node.content_desc) == normalise(node.text):
        return None
    return node.content_desc


def actionable_nodes(ui: UIHierarchy) -> list[UINode]:
    """Nodes to number, in document order, without same-box duplicates of an ancestor."""
    out: list[UINode] = []
    marked_boxes: dict[int, tuple[int, int, int, int]] = {}
    for node in ui.iter():
        if not node.actionable or node.box is None:
            continue
        ancestor = node.parent
        duplicate = False
        while ancestor is not None:
            if id(ancestor) in marked_boxes and marked_boxes[id(ancestor)] == node.bounds:
                duplicate = True
                break
            ancestor = ancestor.parent
        if duplicate:
            continue
        marked_boxes[id(node)] = node.bounds
        out.append(node)
    return out


@dataclass(frozen=True)
class UIMarks:
    """The marks of one dump plus the nodes they stand for (same order, same ids)."""

    marks: MarkSet
    nodes: tuple[UINode, ...]

    def node(self, mark_id: int) -> UINode | None:
        if 1 <= mark_id <= len(self.nodes):
            return self.nodes[mark_id - 1]
        return None


def ui_marks(ui: UIHierarchy, screen: tuple[int, int] | None = None) -> UIMarks:
    """Number the actionable nodes of ``ui`` that are visible on a ``screen``-sized display."""
    size = screen or ui.size
    marks: list[Mark] = []
    kept: list[UINode] = []
    for node in actionable_nodes(ui):
        assert node.box is not None
        box = clip_box(node.box, size)
        if box is None:
            continue
        marks.append(
            Mark(
                len(marks) + 1,
                node.short_class,
                node_name(node),
                box,
                source="ui",
                value=node_value(node),
                states=node_states(node),
                description=node_description(node),
            )
        )
        kept.append(node)
    texts = screen_text(ui, marks, kept, size)
    return UIMarks(MarkSet(tuple(marks), tuple(texts)), tuple(kept))


def screen_text(
    ui: UIHierarchy, marks: list[Mark], kept: list[UINode], size: tuple[int, int]
) -> list[str]:
    """Visible texts no mark already says (a mail's body, an event's place), capped.

    A text inside a numbered row is left out when the row's name already holds it.
    """
    named = {id(node): normalise(mark.name) for mark, node in zip(marks, kept, strict=True)}
    texts = []
    for mark, node in zip(marks, kept, strict=True):
        # What the list cuts (a long name, a note's whole text in its field) is read here.
        if mark.value is not None and len(mark.value) > VALUE_CAP:
            texts.append(mark.value)
        elif mark.value is None and len(mark.name) >= NAME_CAP - 3:
            whole = node_name(node, TEXT_ITEM_CAP)
            if len(whole) > len(mark.name) or len(whole) > NAME_CAP:
                texts.append(whole)
    for node in ui.iter():
        # A container's description names a group ("Mail folders"), not what it says.
        text = node.text or ("" if node.children else node.content_desc)
        if not text or id(node) in named or is_field(node):
            continue
        if node.box is None or clip_box(node.box, size) is None:
            continue
        ancestor = node.parent
        while ancestor is not None and id(ancestor) not in named:
            ancestor = ancestor.parent
        if ancestor is not None and normalise(text) in named[id(ancestor)]:
            continue
        texts.append(text)
    # Names and values the list shows whole; a field's label is its name already.
    shown = [m.name for m in marks if len(m.name) < NAME_CAP - 3]
    shown += [m.value for m in marks if m.value and len(m.value) <= VALUE_CAP]
    shown += [n.content_desc for n in kept if is_field(n) and n.content_desc]
    return static_text(texts, shown, item_cap=TEXT_ITEM_CAP, total_cap=TEXT_TOTAL_CAP)


def scaled(marks: MarkSet, factor: float) -> MarkSet:
    """The same marks with boxes multiplied by ``factor`` (device pixels -> image pixels)."""
    if factor == 1.0:
        return marks
    out = []
    for mark in marks.marks:
        x, y, w, h = mark.box
        box = (round(x * factor), round(y * factor), round(w * factor), round(h * factor))
        out.append(replace(mark, box=box))
    return MarkSet(tuple(out), marks.texts)


__all__ = [
    "Mark",
    "UIMarks",
    "actionable_nodes",
    "node_name",
    "node_states",
    "node_value",
    "scaled",
    "ui_marks",
]
