"""Android uiautomator window dumps: parse them, query their nodes, number their elements.

The phone environment writes this format from its DOM and a real device writes it with
``uiautomator dump``, so everything that reads a screen (evaluators, Set-of-Marks) is
written once against :class:`UIHierarchy`. Both dump variants are accepted: the one-line
``adb shell uiautomator dump`` file and uiautomator2's pretty-printed ``dump_hierarchy()``
with several window roots and extra attributes (kept in :attr:`UINode.extra`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from reefbench.errors import ActionFailed

Bounds = tuple[int, int, int, int]  # x1, y1, x2, y2 as uiautomator writes them

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_FLAGS = (
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
)
_KNOWN = {"index", "text", "resource-id", "class", "package", "content-desc", "bounds", *_FLAGS}
SYSTEM_PACKAGES = frozenset({"com.android.systemui", "android"})


@dataclass(eq=False)
class UINode:
    """One ``<node>`` of a dump.

    Attributes:
        text: The visible text (an EditText's value; masked for passwords).
        resource_id: ``package:id/name``, or ``""``.
        class_name: The Android view class, e.g. ``android.widget.Button``.
        package: The app that owns the view.
        content_desc: The accessibility label (icons and images have no text).
        bounds: ``(x1, y1, x2, y2)`` in device pixels.
        flags: The boolean attributes (``clickable``, ``checked``, ...) by name.
        extra: Any other attribute (``hint``, ``drawing-order``, ``visible-to-user``, ...).
    """

    index: int
    text: str
    resource_id: str
    class_name: str
    package: str
    content_desc: str
    bounds: Bounds
    flags: dict[str, bool]
    extra: dict[str, str] = field(default_factory=dict)
    children: list[UINode] = field(default_factory=list)
    parent: UINode | None = field(default=None, repr=False)

    def flag(self, name: str) -> bool:
        return self.flags.get(name, False)

    @property
    def short_class(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]

    @property
    def id_name(self) -> str:
        """The part of the resource id after ``:id/`` (``compose`` for ``pkg:id/compose``)."""
        return self.resource_id.split(":id/", 1)[-1]

    @property
    def hint(self) -> str:
        return self.extra.get("hint", "")

    @property
    def label(self) -> str:
        """What a person would call it: text, else content-desc, else hint, else its id."""
        return self.text or self.content_desc or self.hint or self.id_name

    @property
    def box(self) -> tuple[int, int, int, int] | None:
        """``(x, y, w, h)``, or ``None`` for an empty rectangle."""
        x1, y1, x2, y2 = self.bounds
        if x2 <= x1 or y2 <= y1:
            return None
        return (x1, y1, x2 - x1, y2 - y1)

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    @property
    def actionable(self) -> bool:
        """Something a finger can act on: clickable, long-clickable, scrollable, checkable
        or a text field."""
        return (
            self.flag("clickable")
            or self.flag("long-clickable")
            or self.flag("scrollable")
            or self.flag("checkable")
            or self.short_class in ("EditText", "AutoCompleteTextView")
        ) and self.flag("enabled")

    def iter(self) -> Iterator[UINode]:
        """This node and all its descendants, in document order."""
        yield self
        for child in self.children:
            yield from child.iter()

    def matches(
        self,
        *,
        resource_id: str = "",
        text: str = "",
        content_desc: str = "",
        class_name: str = "",
        package: str = "",
        exact: bool = True,
    ) -> bool:
        """All given criteria hold (empty criteria are ignored).

        A ``resource_id`` without ``:id/`` matches the name part of any package's id;
        ``text``/``content_desc`` compare case-insensitively with spaces collapsed, as a
        whole (``exact``) or as a substring; a ``class_name`` without dots matches the
        short class name.
        """
        if resource_id and not _id_matches(self.resource_id, resource_id):
            return False
        if text and not text_matches(self.text, text, exact):
            return False
        if content_desc and not text_matches(self.content_desc, content_desc, exact):
            return False
        if class_name:
            actual = self.class_name if "." in class_name else self.short_class
            if actual != class_name:
                return False
        return not (package and self.package != package)


def _id_matches(actual: str, wanted: str) -> bool:
    if ":id/" in wanted:
        return actual == wanted
    return actual.split(":id/", 1)[-1] == wanted and actual != ""


def normalise(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed (what "same text" means here)."""
    return " ".join(text.split()).casefold()


def text_matches(actual: str, wanted: str, exact: bool = True) -> bool:
    a, w = normalise(actual), normalise(wanted)
    return a == w if exact else w in a


@dataclass
class UIHierarchy:
    """A parsed dump: the window roots (uiautomator2 dumps have several)."""

    roots: list[UINode]
    rotation: int = 0

    def iter(self) -> Iterator[UINode]:
        for root in self.roots:
            yield from root.iter()

    def find_all(self, **criteria: Any) -> list[UINode]:
        """Every node matching the criteria of :meth:`UINode.matches`."""
        return [n for n in self.iter() if n.matches(**criteria)]

    def find(self, **criteria: Any) -> UINode | None:
        return next((n for n in self.iter() if n.matches(**criteria)), None)

    def texts(self) -> list[str]:
        """Every non-empty text and content-desc, in document order."""
        out = []
        for node in self.iter():
            out += [t for t in (node.text, node.content_desc) if t]
        return out

    @property
    def size(self) -> tuple[int, int]:
        """Screen size as the largest root's bottom-right corner."""
        width = max((r.bounds[2] for r in self.roots), default=0)
        height = max((r.bounds[3] for r in self.roots), default=0)
        return width, height

    def foreground_package(self) -> str | None:
        """The app in front: the package of the largest window that is not the system UI.

        Real devices answer this better (``dumpsys``); this reads it off the dump alone.
        """
        best: tuple[int, str] | None = None
        for root in self.roots:
            for node in root.iter():
                if node.package in SYSTEM_PACKAGES or node.box is None:
                    continue
                area = node.box[2] * node.box[3]
                if best is None or area > best[0]:
                    best = (area, node.package)
                break  # the window's first app node stands for the window
        return best[1] if best else None


def parse_bounds(value: str) -> Bounds:
    match = _BOUNDS.fullmatch(value.strip())
    if match is None:
        raise ValueError(f"bounds {value!r} are not '[x1,y1][x2,y2]'")
    x1, y1, x2, y2 = (int(g) for g in match.groups())
    return x1, y1, x2, y2


def parse_hierarchy(xml: str | bytes) -> UIHierarchy:
    """Parse a uiautomator dump.

    Raises:
        ActionFailed: the text is not a dump (the message says what is wrong); a document
            type declaration is refused outright (no entity expansion from device output).
    """
    raw = xml.decode("utf-8", "replace") if isinstance(xml, bytes) else xml
    start = raw.find("<hierarchy")
    if start < 0:
        raise ActionFailed("the UI dump has no <hierarchy> element")
    if "<!DOCTYPE" in raw[:start] or "<!ENTITY" in raw:
        raise ActionFailed("the UI dump declares a document type; refusing to parse it")
    end = raw.rfind("</hierarchy>")
    body = raw[start : end + len("</hierarchy>")] if end >= 0 else raw[start:]
    try:
        element = ET.fromstring(body)
    except ET.ParseError as exc:
        raise ActionFailed(f"the UI dump is not well-formed XML: {exc}") from None
    roots = [_node(child, None) for child in element if child.tag == "node"]
    rotation = int(element.get("rotation", "0") or 0)
    return UIHierarchy(roots, rotation)


def _node(element: ET.Element, parent: UINode | None) -> UINode:
    attrs = element.attrib
    try:
        bounds = parse_bounds(attrs.get("bounds", "[0,0][0,0]"))
    except ValueError:
        bounds = (0, 0, 0, 0)
    node = UINode(
        index=int(attrs.get("index", "0") or 0),
        text=attrs.get("text", ""),
        resource_id=attrs.get("resource-id", ""),
        class_name=attrs.get("class", ""),
        package=attrs.get("package", ""),
        content_desc=attrs.get("content-desc", ""),
        bounds=bounds,
        flags={name: attrs.get(name) == "true" for name in _FLAGS},
        extra={k: v for k, v in attrs.items() if k not in _KNOWN},
        parent=parent,
    )
    node.children = [_node(child, node) for child in element if child.tag == "node"]
    return node
