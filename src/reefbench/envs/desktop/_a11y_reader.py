"""Accessibility-tree reader (runs under Debian's /usr/bin/python3, which has Atspi).

Stdlib + gi only; it must not import reefbench. Started once per desktop instance and
queried over a pipe, so an observation does not pay interpreter start-up. Requests and
replies are JSON lines:

    {"id": 1, "op": "tree"}  -> {"id": 1, "ok": true, "windows": [...]}
    {"id": 2, "op": "ping"}  -> {"id": 2, "ok": true}

A window is ``{"app", "pid", "title", "box", "active", "nodes"}``; a node is ``{"role",
"name", "box": [x, y, w, h], "states": [...], "depth", "text"?, "label"?, "formula"?,
"value"?}`` (``label``: the name of what labels an unnamed field, or a font button;
``formula``: a spreadsheet cell's, without its ``=``, ending in ``…`` when LibreOffice
gave only its start: :func:`unescape_attribute`; ``value``: what a font button shows,
font and size: :func:`_size_fonts`). Only nodes that are
showing are walked (a collapsed menu's items and hidden pages cost nothing), and the walk
stops at ``max_nodes`` per window so a huge list cannot stall an observation.
"""

import contextlib
import json
import re
import sys
import time
from typing import Any

import gi  # type: ignore[import-not-found]

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # type: ignore[import-not-found]  # noqa: E402

S = Atspi.StateType
_STATES = {
    "focused": S.FOCUSED,
    "focusable": S.FOCUSABLE,
    "selected": S.SELECTED,
    "checked": S.CHECKED,
    "expanded": S.EXPANDED,
    "editable": S.EDITABLE,
    "sensitive": S.SENSITIVE,
    # LibreOffice's cells and documents are enabled and editable but never "sensitive":
    # without this state they were listed as disabled.
    "enabled": S.ENABLED,
    "active": S.ACTIVE,
    "pressed": S.PRESSED,
    "checkable": S.CHECKABLE,
    "default": S.IS_DEFAULT,
    # A check box in GTK's inconsistent state (drawn with a dash) is "checked" too.
    "indeterminate": S.INDETERMINATE,
}
# Fields often have no name of their own: a label beside them names them ("Name:" in a
# file dialog), through a labelled-by relation.
_FIELD_ROLES = {"text", "entry", "password text", "spin button", "combo box"}
_ICON_BUTTON_ROLES = {"push button", "toggle button"}
_TEXT_ROLES = {
    "text",
    "spin button",
    "entry",
    "terminal",
    "password text",
    "label",
    "paragraph",
    "heading",
    "table cell",
}
_TEXT_CAP = 2000
_WINDOW_ROLES = {"frame", "window", "dialog", "alert", "file chooser"}


def _box(acc: Any) -> list[int] | None:
    try:
        e = acc.get_extents(Atspi.CoordType.SCREEN)
    except Exception:
        return None
    return [e.x, e.y, e.width, e.height]


def _states(state_set: Any) -> list[str]:
    return [name for name, st in _STATES.items() if state_set.contains(st)]


def _text(acc: Any, role: str) -> str | None:
    if role not in _TEXT_ROLES:
        return None
    try:
        # Asked directly: one without text fails the call (no text), and asking first
        # whether it has the interface cost a D-Bus round trip of its own for every one.
        count = Atspi.Text.get_character_count(acc)
        if role == "terminal":
            # The visible screen of a terminal is its last lines.
            start = max(0, count - _TEXT_CAP)
            return str(Atspi.Text.get_text(acc, start, count))
        return str(Atspi.Text.get_text(acc, 0, min(count, _TEXT_CAP)))
    except Exception:
        return None


def _icon_label(acc: Any) -> str:
    """The text an unnamed icon carries (an icon view item's label, on one line), or
    ``""``. Asked only of icons that have the Text interface: asking one without it makes
    the app log a critical warning (on the terminal it was started from)."""
    try:
        if "Text" not in (acc.get_interfaces() or ()):
            return ""
        count = Atspi.Text.get_character_count(acc)
        return " ".join(str(Atspi.Text.get_text(acc, 0, min(count, 256))).split())
    except Exception:
        return ""


def unescape_attribute(value: str) -> tuple[str, bool]:
    """An object attribute's value with LibreOffice's escapes undone, and whether it was
    cut short.

    LibreOffice writes a cell's attributes as one ``key:value;key:value`` string with
    ``\\``, ``;``, ``=``, ``,`` and ``:`` escaped by a backslash (``IF(A1\\="x"\\,1\\,2)``),
    and its GTK 3 bridge (7.4) splits that string at every ``;`` and ``:``, escaped or not,
    keeping a key's first two parts: a formula with a range or a ``;`` arrives cut right
    after the backslash of its first ``:`` or ``;`` (``SUMIF(B2\\``). A value that ends in
    a lone backslash was cut there.
    """
    out: list[str] = []
    i = 0
    while i < len(value):
        if value[i] == "\\":
            if i + 1 == len(value):
                return "".join(out), True
            i += 1
        out.append(value[i])
        i += 1
    return "".join(out), False


# The mark of a formula the bridge cut and no other source gave whole.
CUT = "\u2026"


def _formula(acc: Any) -> tuple[str, bool]:
    """A spreadsheet cell's formula (LibreOffice gives it as the ``Formula`` object
    attribute, without its ``=``) and whether it is cut (:func:`unescape_attribute`), or
    ``("", False)``. Only cells that show something are asked: an empty cell holds no
    formula."""
    try:
        attributes = acc.get_attributes() or {}
    except Exception:
        return "", False
    return unescape_attribute(str(attributes.get("Formula") or ""))


def _input_line(bar: Any) -> str:
    """The text of Calc's input line (the current cell's whole formula) under its Formula
    Tool Bar. LibreOffice 7.4 reports the "Input line" panel as not showing although it is
    drawn, so the walk never reaches it: it is looked up here."""
    found = _find(bar, "Input line", depth=12)
    if found is None:
        return ""
    for i in range(min(found.get_child_count(), 4)):
        child = found.get_child_at_index(i)
        if child is not None and child.get_role_name() == "paragraph":
            return _text(child, "paragraph") or ""
    return ""


def _find(acc: Any, name: str, depth: int) -> Any:
    """The first descendant of ``acc`` named ``name``, at most ``depth`` levels down."""
    if depth < 0:
        return None
    try:
        if acc.get_name() == name:
            return acc
        count = min(acc.get_child_count(), 40)
        for i in range(count):
            child = acc.get_child_at_index(i)
            found = _find(child, name, depth - 1) if child is not None else None
            if found is not None:
                return found
    except Exception:
        return None
    return None


def _whole_formulas(nodes: list[dict[str, Any]], bar: Any) -> None:
    """Complete the cut formula of the current cell from the input line, which shows it
    whole; a cut formula of another cell keeps what came, marked cut (:data:`CUT`): the
    rest is nowhere on screen (an agent sees it whole by selecting the cell)."""
    for node in nodes:
        if not node.pop("formula_cut", False):
            continue
        prefix = node["formula"]
        if bar is not None and "focused" in node["states"]:
            with contextlib.suppress(Exception):
                line = _input_line(bar)
                if line.startswith("=" + prefix):
                    node["formula"] = line[1:]
                    continue
        node["formula"] = prefix + CUT


def _label(acc: Any) -> str:
    """The name of the element that labels ``acc`` (a labelled-by relation), or ``""``."""
    try:
        for relation in acc.get_relation_set() or ():
            if relation.get_relation_type() != Atspi.RelationType.LABELLED_BY:
                continue
            for i in range(relation.get_n_targets()):
                target = relation.get_target(i)
                name = target.get_name() if target is not None else ""
                if name:
                    return str(name)
    except Exception:
        return ""
    return ""


# A read stops walking after this long and answers with what it has: a busy app answers
# each call slowly (LibreOffice loading a document), and a partial tree now beats none (the
# caller's deadline, 10 s, would fail the step). Settling reads again until two agree.
READ_BUDGET = 6.0
_deadline = [float("inf")]
# Calc's Formula Tool Bar in the window being walked (its input line completes a cut
# formula: :func:`_whole_formulas`).
_formula_bar: list[Any] = [None]
# The application whose window is being walked.
_app: list[str] = [""]
APPEARANCE = "xfce4-appearance-settings"


def _toggles(acc: Any) -> bool:
    """Whether an element has a "toggle" action (a check box drawn in a tree view row)."""
    try:
        action = acc.get_action_iface()
        if action is None:
            return False
        return any(
            Atspi.Action.get_action_name(action, i) == "toggle"
            for i in range(min(Atspi.Action.get_n_actions(action), 4))
        )
    except Exception:
        return False


def _drawn_in(acc: Any, states: Any, clip: list[int] | None) -> bool:
    """Whether an item that does not say it is showing lies, visible, inside ``clip`` (its
    icon view's box): GTK's icon view drops "showing" from the selected item's states
    (the wallpaper chooser's current picture, drawn highlighted), so the walk skipped it."""
    if clip is None or not states.contains(S.VISIBLE):
        return False
    box = _box(acc)
    if not box or box[2] <= 0 or box[3] <= 0:
        return False
    x, y, w, h = box
    cx, cy, cw, ch = clip
    return max(x, cx) < min(x + w, cx + cw) and max(y, cy) < min(y + h, cy + ch)


def _walk(
    acc: Any,
    depth: int,
    out: list[dict[str, Any]],
    max_nodes: int,
    max_children: int,
    clip: list[int] | None = None,
) -> None:
    if len(out) >= max_nodes or time.monotonic() > _deadline[0]:
        return
    # Windows close while they are walked: an object gone between two calls is skipped,
    # never an error (it has no place in the next screenshot either).
    # The states first: most nodes of an app are hidden (its menus' items), and a hidden
    # node costs one call instead of three (each is a D-Bus round trip to the app).
    try:
        states = acc.get_state_set()
    except Exception:
        return
    showing = states.contains(S.SHOWING) and states.contains(S.VISIBLE)
    if depth > 0 and not showing and not _drawn_in(acc, states, clip):
        return
    try:
        role = acc.get_role_name()
        name = acc.get_name() or ""
    except Exception:
        return
    node = {
        "role": role,
        "name": name,
        "box": _box(acc),
        "states": _states(states),
        "depth": depth,
    }
    text = _text(acc, role)
    if text:
        node["text"] = text
        if role == "table cell":
            formula, cut = _formula(acc)
            if formula:
                node["formula"] = formula
                if cut:
                    node["formula_cut"] = True
    if not name and role in _FIELD_ROLES:
        label = _label(acc)
        if label:
            node["label"] = label
    elif not name and role in _ICON_BUTTON_ROLES:
        # An icon-only button is named by its tooltip, which GTK gives as the description
        # ("Rotate left" in the image editor's bottom bar).
        try:
            description = acc.get_description() or ""
        except Exception:
            description = ""
        if description:
            node["label"] = description
    if role == "table cell" and not name and not text and _toggles(acc):
        # A GTK tree view's check box column (Desktop Settings' Default Icons): GTK gives
        # it "checked" when on and nothing when off; its "toggle" action tells it apart.
        node["states"] = [*node["states"], "checkable"]
    if role == "push button" and name and _app[0] == APPEARANCE:
        # A font button is named by its font alone; what labels it ("Default Font") tells
        # which setting it shows (:func:`_size_fonts`). Asked in this app only: a relation
        # set costs a D-Bus round trip per button.
        label = _label(acc)
        if label:
            node["label"] = label
    if role == "tool bar" and name == "Formula Tool Bar":
        _formula_bar[0] = acc
    if role == "icon" and not name:
        # An icon view's item carries its label as text, not as its name (Thunar's files
        # in exo's icon view: "product_1.png").
        label = _icon_label(acc)
        if label:
            node["name"] = label
        else:
            with contextlib.suppress(Exception):
                node["index"] = acc.get_index_in_parent()
    out.append(node)
    try:
        count = acc.get_child_count()
    except Exception:
        return
    if role == "layered pane":
        node["count"] = count
    if states.contains(S.MANAGES_DESCENDANTS) and count > max_children:
        # A spreadsheet's grid (a billion cells), a long list: its children are made on
        # demand, so walking them is what stalls an observation. Only the cells on screen
        # are read (through the Table interface); without one, the walk stops at the first
        # run of children that are not showing.
        grid = _visible_cells(acc, node["box"])
        if grid is not None:
            cells, left_out = grid
            if left_out:
                # Said before the cells, as text on screen: an agent reading the list must
                # know that rows or columns it cannot see in it are there.
                out.append({**node, "role": "label", "name": left_out, "depth": depth + 1})
            for cell in cells:
                _walk(cell, depth + 1, out, max_nodes, max_children)
            return
        _walk_showing(acc, count, depth, out, max_nodes, max_children)
        return
    if role == "menu" and count > 1 and _closed_menu(acc, count):
        return
    # An icon view's items are judged by where they lie (:func:`_drawn_in`).
    inside = node["box"] if role == "layered pane" else None
    for i in range(min(count, max_children)):
        try:
            child = acc.get_child_at_index(i)
        except Exception:
            continue
        if child is not None:
            _walk(child, depth + 1, out, max_nodes, max_children, inside)


def _closed_menu(acc: Any, count: int) -> bool:
    """Whether a menu's popup is closed: its first and last items are not showing (the
    items of one popup show together). A menu bar's closed menus hold most of an editor's
    nodes; looking at two items instead of every one keeps a read cheap."""
    try:
        for index in (0, count - 1):
            child = acc.get_child_at_index(index)
            if child is None or child.get_state_set().contains(S.SHOWING):
                return False
    except Exception:
        return False
    return True


# The most cells of one grid an observation lists: a full screen of a spreadsheet at the
# default zoom (about 45 rows of 16 columns) would be 700 elements, most of them empty.
MAX_GRID_ROWS = 20
MAX_GRID_COLUMNS = 8
# Children of a managing container looked at past the last showing one before giving up.
HIDDEN_RUN = 12


def _cell_position(table: Any, acc: Any, x: int, y: int) -> tuple[int, int] | None:
    """The (row, column) of the cell at a screen point. Calc names its cells by address
    ("B7"), which is read first: a cell's index in the grid passes 2**31 below row 131072,
    past what the index calls carry."""
    try:
        cell = acc.get_accessible_at_point(x, y, Atspi.CoordType.SCREEN)
        if cell is None:
            return None
        address = re.fullmatch(r"([A-Z]{1,3})([0-9]{1,7})", cell.get_name() or "")
        if address:
            column = 0
            for letter in address.group(1):
                column = column * 26 + ord(letter) - ord("A") + 1
            return int(address.group(2)) - 1, column - 1
        index = cell.get_index_in_parent()
        return (
            int(Atspi.Table.get_row_at_index(table, index)),
            int(Atspi.Table.get_column_at_index(table, index)),
        )
    except Exception:
        return None


def _address(row: int, column: int) -> str:
    """``(0, 0)`` -> ``A1``: a cell's address as Calc writes it."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


def _visible_cells(acc: Any, box: list[int] | None) -> tuple[list[Any], str] | None:
    """The cells of a table that are on screen, top-left first, capped, and what the cap
    left out ("" when nothing); ``None`` when the container is not a table (or does not
    say where its cells are)."""
    try:
        table = acc.get_table_iface()
    except Exception:
        return None
    if table is None or not box or box[2] <= 4 or box[3] <= 4:
        return None
    x, y, w, h = box
    first = _cell_position(table, acc, x + 2, y + 2)
    last = _cell_position(table, acc, x + w - 3, y + h - 3)
    if first is None or last is None:
        return None
    rows = range(first[0], min(last[0], first[0] + MAX_GRID_ROWS - 1) + 1)
    columns = range(first[1], min(last[1], first[1] + MAX_GRID_COLUMNS - 1) + 1)
    cells = []
    for row in rows:
        for column in columns:
            try:
                cell = Atspi.Table.get_accessible_at(table, row, column)
            except Exception:
                continue
            if cell is not None:
                cells.append(cell)
    left_out = ""
    if rows and columns and (rows[-1] < last[0] or columns[-1] < last[1]):
        left_out = (
            f"Cells listed: {_address(first[0], first[1])}:{_address(rows[-1], columns[-1])} "
            f"of the {_address(first[0], first[1])}:{_address(last[0], last[1])} on screen; "
            "the others are only in the screenshot"
        )
    return cells, left_out


def _walk_showing(
    acc: Any, count: int, depth: int, out: list[dict[str, Any]], max_nodes: int, max_children: int
) -> None:
    hidden = 0
    seen_showing = False
    for i in range(min(count, max_children)):
        try:
            child = acc.get_child_at_index(i)
            showing = child is not None and child.get_state_set().contains(S.SHOWING)
        except Exception:
            continue
        if not showing:
            hidden += 1
            if seen_showing and hidden >= HIDDEN_RUN:
                return
            continue
        seen_showing, hidden = True, 0
        _walk(child, depth + 1, out, max_nodes, max_children)


def tree(max_nodes: int = 1500, max_children: int = 400) -> list[dict[str, Any]]:
    _deadline[0] = time.monotonic() + READ_BUDGET
    desktop = Atspi.get_desktop(0)
    windows = []
    for i in range(desktop.get_child_count()):
        try:
            app = desktop.get_child_at_index(i)
        except Exception:
            continue
        if app is None:
            continue
        try:
            app_name = app.get_name() or ""
            pid = app.get_process_id()
            count = app.get_child_count()
        except Exception:
            continue
        for j in range(count):
            try:
                win = app.get_child_at_index(j)
                if win is None:
                    continue
                states = win.get_state_set()
                if not (states.contains(S.SHOWING) or states.contains(S.VISIBLE)):
                    continue
            except Exception:
                continue
            nodes: list[dict[str, Any]] = []
            _formula_bar[0] = None
            _app[0] = app_name
            _walk(win, 0, nodes, max_nodes, max_children)
            if not nodes:
                continue
            _whole_formulas(nodes, _formula_bar[0])
            if app_name == "xfdesktop-settings":
                _name_wallpapers(nodes)
            if app_name == APPEARANCE:
                _size_fonts(nodes)
            windows.append(
                {
                    "app": app_name,
                    "pid": pid,
                    "title": nodes[0]["name"],
                    "role": nodes[0]["role"],
                    "box": nodes[0]["box"],
                    "active": "active" in nodes[0]["states"],
                    "nodes": nodes,
                }
            )
    return windows


_IMAGE_SUFFIXES = {
    ".png",
    ".jpg",
    ".jpeg",
    ".svg",
    ".gif",
    ".bmp",
    ".webp",
    ".tif",
    ".tiff",
    ".xpm",
    ".tga",
}


def _on_host(path: str) -> str:
    """Where a path as the sandbox sees it lies here: the reader runs outside the
    sandbox, whose home (``/home/user`` inside) is a folder of its instance."""
    import os

    inside = os.environ.get("REEF_SANDBOX_HOME_INSIDE", "")
    outside = os.environ.get("REEF_SANDBOX_HOME", "")
    if inside and outside and (path == inside or path.startswith(inside + "/")):
        return outside + path[len(inside) :]
    return path


def _wallpaper_folders(name: str) -> list[str]:
    """Folders the wallpaper chooser may show, named ``name`` (its Folder button shows only
    the folder's name): the folders of the wallpapers set now, then the usual places."""
    import glob
    import os
    import subprocess

    found: list[str] = []
    try:
        listing = subprocess.run(
            ["xfconf-query", "-c", "xfce4-desktop", "-lv"],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        ).stdout
    except Exception:
        listing = ""
    for line in listing.splitlines():
        key, _, value = line.partition(" ")
        if key.endswith("/last-image") and value.strip():
            found.append(_on_host(os.path.dirname(value.strip())))
    home = os.environ.get("REEF_SANDBOX_HOME") or os.path.expanduser("~")
    for pattern in (name, os.path.join("*", name), os.path.join("*", "*", name)):
        found += sorted(glob.glob(os.path.join(home, pattern)))
    found.append(os.path.join("/usr/share/backgrounds", name))
    out = []
    for folder in found:
        if os.path.basename(folder.rstrip("/")) == name and folder not in out:
            out.append(folder)
    return out


def _name_wallpapers(nodes: list[dict[str, Any]]) -> None:
    """Name the wallpaper chooser's thumbnails by their file names.

    Xfce's Desktop Settings shows a folder's pictures as unnamed icons: a person tells
    them apart by the picture, or by the file name its tooltip shows on hover. The
    chooser lists the folder's pictures sorted by name, so the n-th icon is the folder's
    n-th picture; the folder is the one whose name its Folder button shows and whose
    picture count is the chooser's icon count (no match: the icons stay unnamed).
    """
    import os

    panes = [n for n in nodes if n["role"] == "layered pane" and n.get("count")]
    icons = [n for n in nodes if n["role"] == "icon" and not n["name"] and "index" in n]
    combos = [n["name"] for n in nodes if n["role"] == "combo box" and n["name"]]
    if len(panes) != 1 or not icons:
        return
    count = panes[0]["count"]
    for name in combos:
        for folder in _wallpaper_folders(name):
            try:
                files = sorted(
                    (
                        f
                        for f in os.listdir(folder)
                        if os.path.splitext(f)[1].lower() in _IMAGE_SUFFIXES
                    ),
                    key=lambda f: (f.casefold(), f),
                )
            except OSError:
                continue
            if len(files) != count:
                continue
            for icon in icons:
                if 0 <= icon["index"] < count:
                    icon["name"] = files[icon["index"]]
            return


# The Appearance app's font buttons, by the label that labels them, and the xsettings
# property each shows (the app binds them to it).
FONT_BUTTONS = {"Default Font": "/Gtk/FontName", "Default Monospace Font": "/Gtk/MonospaceFontName"}


def font_size(description: str, shown: str) -> str:
    """The size a GtkFontButton showing family and face ``shown`` ("Nimbus Sans Regular")
    draws for the Pango font ``description`` ("Nimbus Sans 12"), as it formats it
    (``%2.4g``, ``px`` when absolute), or ``""`` when the description has no size or
    another family (its first word is not the button's: the setting and the button read
    at different moments)."""
    found = re.fullmatch(r"\s*(.*?)[\s,]+([0-9]+(?:\.[0-9]+)?)(px)?\s*", description)
    if not found or not found.group(1):
        return ""
    family = found.group(1).replace(",", " ").split()
    words = shown.split()
    if not words or family[0].casefold() != words[0].casefold():
        return ""
    return f"{float(found.group(2)):2.4g}".strip() + (found.group(3) or "")


def _size_fonts(nodes: list[dict[str, Any]]) -> None:
    """Give the Appearance app's font buttons what they show, font and size, as ``value``.

    GtkFontButton draws the family and face ("Nimbus Sans Regular") and the size ("12")
    in two labels, and its accessible object names it by the first alone and exposes no
    children: the size was on the screen and nowhere in the element list. The app binds
    each button to an xsettings property, whose Pango description holds the size."""
    import subprocess

    buttons = [n for n in nodes if n["role"] == "push button" and n.get("label") in FONT_BUTTONS]
    if not buttons:
        return
    try:
        listing = subprocess.run(
            ["xfconf-query", "-c", "xsettings", "-lv"],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        ).stdout
    except Exception:
        return
    settings = {}
    for line in listing.splitlines():
        key, _, value = line.partition(" ")
        settings[key] = value.strip()
    for button in buttons:
        size = font_size(settings.get(FONT_BUTTONS[button["label"]], ""), button["name"])
        if size:
            button["value"] = f"{' '.join(button['name'].split())} {size}"


def main() -> None:
    Atspi.set_timeout(800, 5000)
    out = sys.stdout
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        reply = {"id": request.get("id")}
        started = time.perf_counter()
        try:
            op = request.get("op")
            if op == "tree":
                reply["windows"] = tree(
                    int(request.get("max_nodes") or 1500), int(request.get("max_children") or 400)
                )
            elif op != "ping":
                raise ValueError(f"unknown op {op!r}")
            reply["ok"] = True
        except Exception as exc:
            reply.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        reply["seconds"] = time.perf_counter() - started
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
