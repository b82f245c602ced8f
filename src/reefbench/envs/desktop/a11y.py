"""The accessibility tree of a desktop, read through AT-SPI by a helper process.

pyatspi/Atspi exist only for Debian's ``/usr/bin/python3`` (package python3-pyatspi), not
for pip, so :mod:`._a11y_reader` runs under that interpreter as a long-lived helper on the
host and answers over a pipe. It connects to the sandbox's session and accessibility buses
through their sockets in the instance's runtime directory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from reefbench.envs.desktop.jsonlines import JsonLineProcess
from reefbench.envs.desktop.sandbox import SANDBOX_HOME, as_sandbox_user

_READER = Path(__file__).with_name("_a11y_reader.py")
Box = tuple[int, int, int, int]


def box_contains(box: Box, x: int, y: int) -> bool:
    """Whether the point (x, y) lies in ``box`` (x, y, width, height)."""
    bx, by, bw, bh = box
    return bx <= x < bx + bw and by <= y < by + bh


# Roles whose text is a value the agent edits (a terminal's is its screen, a
# spreadsheet cell's what it shows).
FIELD_ROLES = frozenset({"text", "entry", "password text", "spin button", "terminal", "table cell"})
# Roles that are on or off: their state is listed as checked or unchecked.
CHECK_ROLES = frozenset(
    {"check box", "toggle button", "check menu item", "radio button", "radio menu item"}
)
VALUE_CAP = 200


@dataclass(frozen=True, slots=True)
class UINode:
    """One accessible element: role, name, screen box, states, text (for text roles).

    ``name`` is the accessible name, or for an unnamed field the name of the label that
    labels it (a file dialog's ``Name:``). ``formula`` is a spreadsheet cell's formula
    (``=B1+8``) when it holds one. ``choice`` is what an element that shows a choice
    displays when its name is its label instead (a drop-down's current item, a font
    button's font and size: :func:`_row_names`).
    """

    role: str
    name: str
    box: Box | None
    states: frozenset[str]
    depth: int
    text: str | None = None
    formula: str | None = None
    choice: str | None = None

    @property
    def value(self) -> str | None:
        """A field's current text (a terminal's last lines), capped, or the choice a
        drop-down or font button shows; ``None`` otherwise."""
        if self.role not in FIELD_ROLES:
            return self.choice
        text = self.text or ""
        if self.role == "terminal":
            # What a terminal shows last is what matters: keep its end, trailing blank
            # lines dropped.
            flat = " ".join(text.split())
            return flat if len(flat) <= VALUE_CAP else "..." + flat[-(VALUE_CAP - 3) :]
        return text

    @property
    def shown_states(self) -> tuple[str, ...]:
        """The states an element list shows: on/off/mixed, selected, expanded, disabled.

        A GTK check box in its inconsistent state draws a dash and reports "checked" with
        "indeterminate" (Appearance's "Enable anti-aliasing" while the fonts' own setting
        rules): it is listed as mixed, not as the check mark the screen does not show."""
        out: list[str] = []
        if self.role in CHECK_ROLES or "checkable" in self.states:
            on = "checked" in self.states or (
                self.role == "toggle button" and "pressed" in self.states
            )
            if "indeterminate" in self.states:
                out.append("mixed")
            else:
                out.append("checked" if on else "unchecked")
        if "selected" in self.states:
            out.append("selected")
        if "expanded" in self.states:
            out.append("expanded")
        if "sensitive" not in self.states and "enabled" not in self.states:
            # LibreOffice's cells and documents are enabled but never "sensitive".
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
        """All names, texts and shown choices of the window, one per line (for text
        checks)."""
        parts = []
        for node in self.nodes:
            if node.name:
                parts.append(node.name)
            if node.text:
                parts.append(node.text)
            if node.choice:
                parts.append(node.choice)
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


def _beside(label: dict[str, Any], field: dict[str, Any]) -> int | None:
    """How far left of ``field`` a label ends when it lies on the field's row (its middle
    within the field's height) and to its left; ``None`` otherwise."""
    lb, fb = _box(label.get("box")), _box(field.get("box"))
    if lb is None or fb is None:
        return None
    middle = lb[1] + lb[3] // 2
    gap = fb[0] - (lb[0] + lb[2])
    if not fb[1] <= middle < fb[1] + fb[3] or gap < -2:
        return None
    return gap


def _label_beside(
    nodes: list[dict[str, Any]], names: list[str], parents: list[int | None], i: int
) -> str:
    """The name of the label beside field ``i`` (a spin button, a drop-down): a sibling
    label (same parent) on its row and to its left, the nearest. GTK lists a grid's
    children in any order (Desktop Settings' Icons tab lists each row's field before its
    label), so the label just before it in the tree named it after the row above ("Icons
    orientation" for the icon size). A field wrapped in a container of its own size (the
    wallpaper chooser's folder drop-down in its file chooser button, beside "Folder:") is
    a sibling through its wrapper."""
    box = _box(nodes[i].get("box"))
    parent = parents[i]
    while parent is not None and box is not None and _box(nodes[parent].get("box")) == box:
        parent = parents[parent]
    best: tuple[int, str] | None = None
    for j, other in enumerate(nodes):
        if other.get("role") != "label" or not names[j] or parents[j] != parent:
            continue
        gap = _beside(other, nodes[i])
        if gap is not None and (best is None or gap < best[0]):
            best = (gap, names[j].rstrip(":").strip())
    return best[1] if best else ""


# Elements whose accessible name is the choice they show, not what they are for: GTK names
# a drop-down by its current item ("None" beside "Hinting:").
_CHOICE_ROLES = frozenset({"combo box"})


def _row_names(nodes: list[dict[str, Any]]) -> tuple[list[str], list[str | None]]:
    """Each node's name, and the choice it shows when its name is its label (``None``: no
    such choice). Elements GTK leaves without a name of their own are named the way a
    person reads them, so they can be acted on by name:

    * a spin button by the label beside it, on its row and to its left ("Width [1000]" in
      the image editor's Scale bar: :func:`_label_beside`);
    * a drop-down likewise, its current item (GTK's name for it) becoming its choice:
      ``combo box "Hinting" value="None"`` where the list said ``combo box "None"`` twice;
    * a button that shows a choice the reader completed (a font button's font and size:
      the reader gives it as ``value``) by the label that labels it ("Default Font"), the
      font and size becoming its choice;
    * a focusable list item (a GTK list-box row, such as the tools of the image editor's
      side bar) with exactly one label inside it. Rows with several labels keep no name:
      which label names them would be a guess.
    """
    names = [_name(n) for n in nodes]
    choices: list[str | None] = [None] * len(nodes)
    parents = _parents(nodes)
    for i, node in enumerate(nodes):
        role = node.get("role")
        if role == "spin button" and not names[i]:
            names[i] = _label_beside(nodes, names, parents, i)
        elif role in _CHOICE_ROLES:
            label = _label_beside(nodes, names, parents, i)
            if label:
                # Its own name, not one taken from a labelled-by relation (a drop-down
                # with no item chosen has none: it shows nothing).
                names[i], choices[i] = label, " ".join(str(node.get("name", "")).split())
        elif node.get("value") and node.get("label"):
            choices[i] = " ".join(str(node["value"]).split())
            names[i] = " ".join(str(node["label"]).split()).rstrip(":").strip()
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
    return names, choices


def _parents(nodes: list[dict[str, Any]]) -> list[int | None]:
    """Each node's parent (an index into ``nodes``, which are in tree order with depths)."""
    parents: list[int | None] = []
    stack: list[int] = []
    for i, node in enumerate(nodes):
        depth = int(node.get("depth", 0))
        while stack and int(nodes[stack[-1]].get("depth", 0)) >= depth:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(i)
    return parents


def _shift(raw: Any, dx: int, dy: int) -> Any:
    if not raw or len(raw) != 4:
        return raw
    x, y, w, h = (int(v) for v in raw)
    return [x + dx, y + dy, w, h]


def fix_boxes(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nodes with the boxes they have on screen, hidden duplicates left out.

    LibreOffice (its GTK 3 plug-in) draws its menu bar as a GTK widget above its own
    window's contents, but reports its contents' positions as if that menu bar were not
    there: everything under its ``root pane`` (toolbars, the sheet's cells, the document)
    was reported one menu bar's height (about 25 px) too high, so a cell's box lay over
    the column header, until something made it measure again. The root pane's parent has
    the same size at the true position: the difference is added to its whole subtree,
    except to GTK widgets embedded in it (the Name Box, the font fields), which report
    their true position already (one is recognised by starting exactly where its shifted
    parent starts, with its size). Its own copy of the menu bar has no size and is never
    drawn (the GTK one is what shows): its menus were listed twice, so it is left out with
    its subtree.
    """
    parents = _parents(nodes)
    offsets: list[tuple[int, int]] = []
    out: list[dict[str, Any]] = []
    dropped: set[int] = set()
    for i, node in enumerate(nodes):
        parent = parents[i]
        if parent is not None and parent in dropped:
            dropped.add(i)
            offsets.append((0, 0))
            continue
        if node.get("role") == "menu bar" and _box(node.get("box")) is None and parent is not None:
            dropped.add(i)
            offsets.append((0, 0))
            continue
        dx, dy = offsets[parent] if parent is not None else (0, 0)
        box = _box(node.get("box"))
        parent_box = _box(nodes[parent].get("box")) if parent is not None else None
        if node.get("role") == "root pane" and box and parent_box:
            x, y, w, h = box
            px, py, pw, ph = parent_box
            if (w, h) == (pw, ph) and (x, y) != (px, py):
                dx, dy = px - x, py - y
        elif (
            (dx, dy) != (0, 0)
            and box
            and parent_box
            and box[:2] == (parent_box[0] + dx, parent_box[1] + dy)
            and abs(box[2] - parent_box[2]) <= 2
            and abs(box[3] - parent_box[3]) <= 2
        ):
            # An embedded GTK widget: it starts where its parent starts once shifted and
            # has its size (a document that only starts a ruler's height lower does not).
            dx, dy = 0, 0
        offsets.append((dx, dy))
        moved = (dx, dy) != (0, 0)
        out.append({**node, "box": _shift(node.get("box"), dx, dy)} if moved else node)
    return out


def _descendants(nodes: list[dict[str, Any]], i: int) -> range:
    """The indices of node ``i``'s descendants (they follow it, deeper, in tree order)."""
    depth = int(nodes[i].get("depth", 0))
    end = i + 1
    while end < len(nodes) and int(nodes[end].get("depth", 0)) > depth:
        end += 1
    return range(i + 1, end)


def _top(node: dict[str, Any]) -> int | None:
    box = _box(node.get("box"))
    return box[1] if box else None


def cell_texts(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table cells that hold paragraphs rather than text of their own (a Writer or
    Impress table's), given the text of those paragraphs: they were listed as
    ``table cell "A1" value=""`` beside a screenshot showing their words, which sat apart
    under "Text on screen" (playtest R9). A cell with text of its own, or a tree view's
    check box, is left as it is."""
    out = list(nodes)
    for i, node in enumerate(nodes):
        if node.get("role") != "table cell" or node.get("text"):
            continue
        if "checkable" in node.get("states", ()):
            continue
        lines = [
            str(nodes[k]["text"])
            for k in _descendants(nodes, i)
            if nodes[k].get("role") == "paragraph" and nodes[k].get("text")
        ]
        if lines:
            out[i] = {**node, "text": "\n".join(lines)}
    return out


def tree_toggles(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The check boxes GTK draws in a tree view's rows, as check boxes named by their row.

    Such a check box is an unnamed table cell (the reader marks it "checkable": it has a
    toggle action) beside the cell with the row's text (Desktop Settings' Default Icons:
    [x] Home): it is listed as ``check box "Home"``, checked or unchecked, so an agent can
    toggle it by element. GTK 3 also places every cell of a tree's expander column one
    expander width too far right (it adds the expander's width to a cell area that has it
    already): a row's box started right of its check box. A top-level row starts one
    expander width from the table's edge, so half its reported distance is the error;
    the table's cells are moved back by it.
    """
    out = list(nodes)
    parents = _parents(nodes)
    for t, table in enumerate(nodes):
        table_box = _box(table.get("box"))
        if table.get("role") != "tree table" or table_box is None:
            continue
        inside = _descendants(nodes, t)
        if not any("checkable" in nodes[i].get("states", ()) for i in inside):
            continue
        depth = int(table.get("depth", 0))
        rows = [
            _box(nodes[i].get("box")) for i in inside if int(nodes[i].get("depth", 0)) == depth + 1
        ]
        lefts = [box[0] for box in rows if box is not None]
        error = max(0, min(lefts) - table_box[0]) // 2 if lefts else 0
        for i in inside:
            node = out[i]
            if node.get("role") == "table cell" and error:
                node = {**node, "box": _shift(node.get("box"), -error, 0)}
            if "checkable" in node.get("states", ()) and not node.get("name"):
                row = [j for j in inside if parents[j] == parents[i] and j != i]
                if parents[i] == t:  # no row of its own: the cells on its line
                    row = [j for j in row if _top(nodes[j]) == _top(nodes[i])]
                named = [nodes[j] for j in row if nodes[j].get("name") or nodes[j].get("text")]
                if named:
                    label = named[0].get("name") or named[0].get("text")
                    node = {**node, "role": "check box", "name": label}
            out[i] = node
    return out


def parse_windows(raw: list[dict[str, Any]]) -> list[UIWindow]:
    """Build typed windows from the reader's JSON (boxes fixed by :func:`fix_boxes`, a
    tree view's check boxes named by :func:`tree_toggles`, a table's cells given their
    paragraphs' text by :func:`cell_texts`)."""
    windows = []
    for win in raw:
        raw_nodes = cell_texts(tree_toggles(fix_boxes(list(win.get("nodes", ())))))
        names, choices = _row_names(raw_nodes)
        nodes = tuple(
            UINode(
                role=n.get("role", ""),
                name=name,
                box=_box(n.get("box")),
                states=frozenset(n.get("states", ())),
                depth=int(n.get("depth", 0)),
                text=n.get("text"),
                formula="=" + str(n["formula"]) if n.get("formula") else None,
                choice=choice,
            )
            for n, name, choice in zip(raw_nodes, names, choices, strict=True)
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


def name_clock(windows: Sequence[UIWindow], now: datetime, shown: str) -> list[UIWindow]:
    """The windows with the desktop panel's clock named by what it shows: ``now`` in the
    panel's format ``shown`` (:data:`.xsession.CLOCK_FORMAT`: "Mon 03 Jun 09:00").

    Xfce's clock button is named by its date alone while it shows the day and the time;
    the element list said "2024-06-03" beside a screenshot saying "Mon 03 Jun 09:00". The
    name changes only when the button's date is ``now``'s: a ``now`` that is not the
    panel's (a clock being moved) leaves the app's own name.
    """
    out = []
    for window in windows:
        if window.app == "xfce4-panel":
            nodes = tuple(
                replace(n, name=now.strftime(shown))
                if n.role == "toggle button" and n.name == now.date().isoformat()
                else n
                for n in window.nodes
            )
            window = replace(window, nodes=nodes)
        out.append(window)
    return out


class A11yReader:
    """The per-instance AT-SPI reader process."""

    def __init__(
        self,
        env: dict[str, str],
        log: Path,
        python: str = "/usr/bin/python3",
        home: Path | None = None,
    ) -> None:
        # The reader runs outside the sandbox: where the sandbox's home lies here, for
        # paths an app shows (the wallpaper chooser's folder). By default the instance's
        # "home" beside its runtime directory (DesktopSession's layout).
        runtime = env.get("XDG_RUNTIME_DIR")
        if home is None and runtime:
            home = Path(runtime).with_name("home")
        if home is not None:
            env = {
                **env,
                "REEF_SANDBOX_HOME": str(home),
                "REEF_SANDBOX_HOME_INSIDE": SANDBOX_HOME,
            }
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
