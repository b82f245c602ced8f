"""Set-of-Marks from a uiautomator hierarchy (phone and Android alike).

Every node a finger can act on gets a number; a clickable row whose text sits in child
``TextView``s is named after that text, and a node with the same box as an already
numbered ancestor (a clickable layout wrapping a clickable button) is numbered once.
Drawing reuses :mod:`reefbench.observe.marks`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reefbench.envs.ui.hierarchy import UIHierarchy, UINode
from reefbench.observe.marks import Mark, MarkSet, clip_box


def node_name(node: UINode, limit: int = 80) -> str:
    """The node's own label, else the texts of its descendants joined (clipped)."""
    if node.label and node.label != node.id_name:
        return node.label
    parts = []
    for child in node.iter():
        if child is not node:
            parts += [t for t in (child.text, child.content_desc) if t and t not in parts]
        if sum(len(p) for p in parts) > limit:
            break
    return " ".join(parts)[:limit] or node.label


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
        marks.append(Mark(len(marks) + 1, node.short_class, node_name(node), box, source="ui"))
        kept.append(node)
    return UIMarks(MarkSet(tuple(marks)), tuple(kept))


def scaled(marks: MarkSet, factor: float) -> MarkSet:
    """The same marks with boxes multiplied by ``factor`` (device pixels -> image pixels)."""
    if factor == 1.0:
        return marks
    out = []
    for mark in marks.marks:
        x, y, w, h = mark.box
        box = (round(x * factor), round(y * factor), round(w * factor), round(h * factor))
        out.append(replace(mark, box=box))
    return MarkSet(tuple(out))


__all__ = ["Mark", "UIMarks", "actionable_nodes", "node_name", "scaled", "ui_marks"]
