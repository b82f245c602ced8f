"""The accessibility tree of a desktop, read through AT-SPI by a helper process.

pyatspi/Atspi exist only for Debian's ``/usr/bin/python3`` (package python3-pyatspi), not
for pip, so :mod:`._a11y_reader` runs under that interpreter as a long-lived helper on the
host and answers over a pipe. It connects to the sandbox's session and accessibility buses
through their sockets in the instance's runtime directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reefbench.envs.desktop.jsonlines import JsonLineProcess
from reefbench.envs.desktop.sandbox import as_sandbox_user

_READER = Path(__file__).with_name("_a11y_reader.py")
Box = tuple[int, int, int, int]


def box_contains(box: Box, x: int, y: int) -> bool:
    """Whether the point (x, y) lies in ``box`` (x, y, width, height)."""
    bx, by, bw, bh = box
    return bx <= x < bx + bw and by <= y < by + bh


# Roles whose text is a value the agent edits (a terminal's is its screen).
FIELD_ROLES = frozenset({"text", "entry", "password text", "spin button", "terminal"})
# Roles that are on or off: their state is listed as checked or unchecked.
CHECK_ROLES = frozenset(
    {"check box", "toggle button", "check menu item", "radio button", "radio menu item"}
)
VALUE_CAP = 200


@dataclass(frozen=True, slots=True)
class UINode:
    """One accessible element: role, name, screen box, states, text (for text roles).

    ``name`` is the accessible name, or for an unnamed field the name of the label that
    labels it (a file dialog's ``Name:``).
    """

    role: str
    name: str
    box: Box | None
    states: frozenset[str]
    depth: int
    text: str | None = None

    @property
    def value(self) -> str | None:
        """A field's current text (a terminal's last lines), capped; ``None`` otherwise."""
        if self.role not in FIELD_ROLES:
            return None
        text = self.text or ""
        if self.role == "terminal":
            # What a terminal shows last is what matters: keep its end, trailing blank
            # lines dropped.
            flat = " ".join(text.split())
            return flat if len(flat) <= VALUE_CAP else "..." + flat[-(VALUE_CAP - 3) :]
        return text

    @property
    def shown_states(self) -> tuple[str, ...]:
        """The states an element list shows: on/off, selected, expanded, disabled."""
        out: list[str] = []
        if self.role in CHECK_ROLES or "checkable" in self.states:
            on = "checked" in self.states or (
                self.role == "toggle button" and "pressed" in self.states
            )
            out.append("checked" if on else "unchecked")
        if "selected" in self.states:
            out.append("selected")
        if "expanded" in self.states:
            out.append("expanded")
        if "sensitive" not in self.states:
            out.append("disabled")
        return tuple(out)

    @property
    def center(self) -> tuple[int, int] | None:
        if self.box is None:
            return None
        x, y, w, h = self.box
        return x + w // 2, y + h // 2


@dataclass(frozen=True, slots=True)
class UIWindow:
    """A top-level window of an application and its showing elements (tree order)."""

    app: str
    pid: int
    title: str
    role: str
    box: Box | None
    active: bool
    nodes: tuple[UINode, ...] = field(default_factory=tuple)

    def text(self) -> str:
        """All names and texts of the window, one per line (for text checks)."""
        parts = []
        for node in self.nodes:
            if node.name:
                parts.append(node.name)
            if node.text:
                parts.append(node.text)
        return "\n".join(parts)


def _box(raw: Any) -> Box | None:
    if not raw or len(raw) != 4:
        return None
    x, y, w, h = (int(v) for v in raw)
    return (x, y, w, h) if w > 0 and h > 0 else None


def _name(node: dict[str, Any]) -> str:
    # Menu items pad their names with spaces before the accelerator column; a field named
    # by its label drops the label's colon ("Name:" names the field "Name").
    name = " ".join(str(node.get("name", "")).split())
    if not name:
        name = " ".join(str(node.get("label", "")).split()).rstrip(":").strip()
    return name


def _row_names(nodes: list[dict[str, Any]]) -> list[str]:
    """Each node's name. Two kinds of nameless elements GTK leaves without a name are named
    the way a person reads them, so they can be acted on by name: a spin button right after
    a label beside it ("Width [1000]" in the image editor's Scale bar), and a focusable list
    item (a GTK list-box row, such as the tools of the image editor's side bar) with exactly
    one label inside it. Rows with several labels keep no name: which label names them
    would be a guess."""
    names = [_name(n) for n in nodes]
    for i, node in enumerate(nodes):
        if names[i] or node.get("role") != "spin button" or i == 0:
            continue
        before = nodes[i - 1]
        if before.get("role") == "label" and before.get("depth") == node.get("depth"):
            names[i] = names[i - 1].rstrip(":").strip()
    for i, node in enumerate(nodes):
        if names[i] or node.get("role") != "list item":
            continue
        if "focusable" not in node.get("states", ()):
            continue
        depth = int(node.get("depth", 0))
        labels = []
        for j in range(i + 1, len(nodes)):
            if int(nodes[j].get("depth", 0)) <= depth:
                break
            if nodes[j].get("role") == "label" and names[j]:
                labels.append(names[j])
        if len(labels) == 1:
            names[i] = labels[0]
    return names


def parse_windows(raw: list[dict[str, Any]]) -> list[UIWindow]:
    """Build typed windows from the reader's JSON."""
    windows = []
    for win in raw:
        raw_nodes = list(win.get("nodes", ()))
        nodes = tuple(
            UINode(
                role=n.get("role", ""),
                name=name,
                box=_box(n.get("box")),
                states=frozenset(n.get("states", ())),
                depth=int(n.get("depth", 0)),
                text=n.get("text"),
            )
            for n, name in zip(raw_nodes, _row_names(raw_nodes), strict=True)
        )
        windows.append(
            UIWindow(
                app=win.get("app", ""),
                pid=int(win.get("pid") or 0),
                title=win.get("title", ""),
                role=win.get("role", ""),
                box=_box(win.get("box")),
                active=bool(win.get("active")),
                nodes=nodes,
            )
        )
    return windows


class A11yReader:
    """The per-instance AT-SPI reader process."""

    def __init__(self, env: dict[str, str], log: Path, python: str = "/usr/bin/python3") -> None:
        self._helper = JsonLineProcess(
            as_sandbox_user([python, "-u", str(_READER)]),
            env=env,
            log=log,
            what="accessibility reader",
            ready_timeout=15.0,
        )

    @property
    def pid(self) -> int:
        return self._helper.pid

    def windows(self, max_nodes: int = 1500, timeout: float = 10.0) -> list[UIWindow]:
        """Every showing top-level window with its showing elements."""
        reply = self._helper.request("tree", timeout=timeout, max_nodes=max_nodes)
        return parse_windows(reply.get("windows", []))

    def alive(self) -> bool:
        return self._helper.running()

    def close(self) -> None:
        self._helper.close()
