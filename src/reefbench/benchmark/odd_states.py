"""Setup actions and checkpoints of reef-v2's robustness family: documents left in an odd
state, and the checks that the agent dealt with it.

A robustness task is a normal task made hard by the state the user left things in, so the
state lives where a user's would: in the document's own file (a spreadsheet that opens on
another sheet with an AutoFilter hiding rows, a text document that records every edit as
a tracked change, one that opens read-only), written through odfpy as LibreOffice itself
writes these settings, so LibreOffice shows them to the agent as it would to a person.
Dialogs and windows left open are the task's setup through the desktop's own actions.

* **Setup actions**: :func:`create_filtered_workbook`, :func:`create_hidden_rows_workbook`,
  :func:`create_odd_document`, :func:`create_recording_review`.
* **Checkpoints**: :func:`document_clean_replace` (the text changed everywhere and no
  tracked change left pending), :func:`file_lines` (a text file's lines, blank lines and
  surrounding spaces ignored).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key

_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _settings(items: Mapping[str, str], view: Mapping[str, str]) -> Any:
    """An ``office:settings`` element: configuration items (name -> boolean text) and one
    view's items (name -> string), as LibreOffice writes them into ``settings.xml``."""
    from odf.config import (
        ConfigItem,
        ConfigItemMapEntry,
        ConfigItemMapIndexed,
        ConfigItemSet,
    )

    configuration = ConfigItemSet(name="ooo:configuration-settings")
    for name, value in items.items():
        item = ConfigItem(name=name, type="boolean")
        item.addText(value)
        configuration.addElement(item)
    views = ConfigItemSet(name="ooo:view-settings")
    if view:
        indexed = ConfigItemMapIndexed(name="Views")
        entry = ConfigItemMapEntry()
        for name, value in {"ViewId": "view1", **view}.items():
            item = ConfigItem(name=name, type="string")
            item.addText(value)
            entry.addElement(item)
        indexed.addElement(entry)
        views.addElement(indexed)
    return configuration, views


def _cell(value: str) -> Any:
    from odf.table import TableCell
    from odf.text import P

    if _NUMBER.fullmatch(value.strip()):
        cell = TableCell(valuetype="float", value=value.strip())
    else:
        cell = TableCell(valuetype="string")
    cell.addElement(P(text=value))
    return cell


def write_filtered_workbook(
    path: Path,
    sheets: Mapping[str, Sequence[Sequence[str]]],
    active: str,
    filtered: str,
    column: int,
    shown: str,
) -> None:
    """Write an ``.ods`` that opens on sheet ``active`` and whose sheet ``filtered`` has
    AutoFilter buttons on its table (row 1 the header) with a condition that shows only the
    rows whose ``column`` (0-based) reads ``shown``: the other rows are hidden by the
    filter, as a user who filtered and saved left them."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import DatabaseRange, DatabaseRanges, Filter, FilterCondition, TableRow
    from odf.table import Table as OdfTable

    if active not in sheets or filtered not in sheets:
        raise ValueError(f"sheets {active!r} and {filtered!r} must both be in the workbook")
    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = OdfTable(name=name)
        for index, row in enumerate(rows):
            hidden = name == filtered and index > 0 and row[column] != shown
            table_row = TableRow(visibility="filter") if hidden else TableRow()
            for value in row:
                table_row.addElement(_cell(value))
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    rows = sheets[filtered]
    width = max(len(r) for r in rows)
    last = chr(ord("A") + width - 1)
    ranges = DatabaseRanges()
    index = list(sheets).index(filtered)
    database = DatabaseRange(
        name=f"__Anonymous_Sheet_DB__{index}",
        targetrangeaddress=f"'{filtered}'.A1:'{filtered}'.{last}{len(rows)}",
        displayfilterbuttons="true",
    )
    condition = Filter()
    condition.addElement(
        FilterCondition(fieldnumber=str(column), value=shown, operator="=", datatype="text")
    )
    database.addElement(condition)
    ranges.addElement(database)
    document.spreadsheet.addElement(ranges)
    for element in _settings({}, {"ActiveTable": active}):
        document.settings.addElement(element)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


def _plain_cell(value: str) -> Any:
    """A cell as a user typed it: a number, text, a number stored as text (written with a
    leading apostrophe, as Calc shows such a cell's content) or nothing ("")."""
    from odf.table import TableCell
    from odf.text import P

    if value == "":
        return TableCell()
    if value.startswith("'"):
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=value[1:]))
        return cell
    return _cell(value)


def write_hidden_rows_workbook(
    path: Path,
    sheets: Mapping[str, Sequence[Sequence[str]]],
    active: str,
    hidden: Mapping[str, Sequence[int]],
) -> None:
    """Write an ``.ods`` that opens on sheet ``active`` and whose sheets' rows ``hidden``
    (row numbers as Calc shows them, from 1) were hidden by hand (Format > Rows > Hide):
    no filter and no filter buttons, only the skipped row numbers show it. Cells are read
    by :func:`_plain_cell` (a row of "" is a blank row)."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table as OdfTable
    from odf.table import TableRow

    if active not in sheets:
        raise ValueError(f"sheet {active!r} must be in the workbook")
    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = OdfTable(name=name)
        gone = set(hidden.get(name, ()))
        for number, row in enumerate(rows, start=1):
            table_row = TableRow(visibility="collapse") if number in gone else TableRow()
            for value in row:
                table_row.addElement(_plain_cell(value))
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    for element in _settings({}, {"ActiveTable": active}):
        document.settings.addElement(element)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


def write_odd_document(
    path: Path, paragraphs: Sequence[str], record_changes: bool, read_only: bool
) -> None:
    """Write an ``.odt`` of body paragraphs that records every edit as a tracked change
    (``record_changes``: Edit > Track Changes > Record is on) and/or opens read-only
    (``read_only``: File > Properties > Security's "Open file read-only")."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P, TrackedChanges

    document = OpenDocumentText()
    if record_changes:
        document.text.addElement(TrackedChanges(trackchanges="true"))
    for text in paragraphs:
        document.text.addElement(P(text=text))
    flags = {"RecordChanges": "true"} if record_changes else {}
    if read_only:
        flags["LoadReadonly"] = "true"
    for element in _settings(flags, {}):
        document.settings.addElement(element)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


@action
def create_filtered_workbook(
    path: str,
    sheets: dict[str, list[list[str]]],
    active: str,
    filtered: str,
    column: int,
    shown: str,
    env: DesktopDevice,
) -> str:
    """Create an OpenDocument spreadsheet that opens on sheet ``active`` and has an
    AutoFilter on sheet ``filtered`` showing only the rows whose column ``column``
    (0 = A) reads ``shown`` (the others hidden by the filter).

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/claims.ods".
        sheets: Each sheet's name and rows (row 1 of ``filtered`` is its header).
        active: The sheet shown when the file is opened.
        filtered: The sheet with the filter.
        column: The filtered column, 0 for A.
        shown: The value whose rows stay visible.
    """
    target = env.session.host_path(path)
    write_filtered_workbook(target, sheets, active, filtered, column, shown)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_hidden_rows_workbook(
    path: str,
    sheets: dict[str, list[list[str]]],
    active: str,
    hidden: dict[str, list[int]],
    env: DesktopDevice,
) -> str:
    """Create an OpenDocument spreadsheet that opens on sheet ``active``, with rows hidden
    by hand (no filter) and cells that may hold numbers stored as text.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/claims.ods".
        sheets: Each sheet's name and rows; a cell "'12.50" holds the text 12.50, a cell
            "" nothing.
        active: The sheet shown when the file is opened.
        hidden: Per sheet, the row numbers (from 1) hidden by hand.
    """
    target = env.session.host_path(path)
    write_hidden_rows_workbook(target, sheets, active, hidden)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_recording_review(path: str, paragraphs: list[str], env: DesktopDevice) -> str:
    """Create an OpenDocument text document that carries a colleague's tracked changes,
    not yet accepted, and records every further edit (Track Changes > Record is on).

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/contract.odt".
        paragraphs: The paragraphs' texts, in order; a change inside one is written
            "{+Author|inserted text+}" or "{-Author|deleted text-}".
    """
    target = env.session.host_path(path)
    write_recording_review(target, paragraphs)
    env.stamp_world_time(target)
    return f"created {path}"


def write_recording_review(path: Path, paragraphs: Sequence[str]) -> None:
    """:func:`reefbench.documents.write.write_reviewed_document`, then Record switched on
    as Writer saves it (the tracked-changes element's flag and the RecordChanges
    setting)."""
    from odf.namespaces import TEXTNS
    from odf.opendocument import load
    from odf.text import TrackedChanges

    from reefbench.documents.write import write_reviewed_document

    write_reviewed_document(path, paragraphs)
    document = load(str(path))
    for element in document.text.getElementsByType(TrackedChanges):
        element.setAttrNS(TEXTNS, "track-changes", "true")
    for element in _settings({"RecordChanges": "true"}, {}):
        document.settings.addElement(element)
    document.save(str(path))


@action
def create_odd_document(
    path: str,
    paragraphs: list[str],
    record_changes: bool = False,
    read_only: bool = False,
    *,
    env: DesktopDevice,
) -> str:
    """Create an OpenDocument text document of body paragraphs that records changes and/or
    opens read-only.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/contract.odt".
        paragraphs: The paragraphs' texts, in order.
        record_changes: Track Changes > Record is on in the document.
        read_only: The document opens read-only.
    """
    target = env.session.host_path(path)
    write_odd_document(target, paragraphs, record_changes, read_only)
    env.stamp_world_time(target)
    return f"created {path}"


def clean_replace_problem(path: Path, new: str, old: str, count: int) -> str:
    """What keeps the text document at ``path`` from naming ``new`` ``count`` times and
    ``old`` never, with no tracked change pending ("" when nothing does)."""
    from reefbench.documents.model import DocumentUnreadable
    from reefbench.documents.odf import read_text_document

    try:
        document = read_text_document(path)
    except DocumentUnreadable as exc:
        return str(exc)
    if document.changes:
        kinds = ", ".join(sorted({c.kind for c in document.changes}))
        return f"{len(document.changes)} tracked changes are still pending ({kinds})"
    text = "\n".join(p.text for p in document.paragraphs)
    if old in text:
        return f"it still names {old!r} {text.count(old)} times"
    found = text.count(new)
    if found != count:
        return f"it names {new!r} {found} times, not {count}"
    return ""


@evaluator(governs=_path_keys)
def document_clean_replace(
    path: str, new: str, old: str, count: int, *, env: DesktopDevice
) -> EvalResult:
    """The text document names ``new`` exactly ``count`` times and ``old`` nowhere, and has
    no tracked change left to accept or reject (the edits are the document's text).

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/contract.odt".
        new: The text that replaced ``old``.
        old: The text that must be gone.
        count: How often ``new`` must appear.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    problem = clean_replace_problem(target, new, old, count)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path} names {new!r} {count} times, no changes")


@evaluator(governs=_path_keys)
def file_lines(path: str, lines: list[str], env: DesktopDevice) -> EvalResult:
    """The text file's non-blank lines are exactly these, in this order (spaces around a
    line and blank lines ignored).

    Args:
        path: Path as the agent sees it.
        lines: The lines it must hold.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    found = [
        line.strip()
        for line in target.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    ]
    wanted = [line.strip() for line in lines]
    if found != wanted:
        missing = [line for line in wanted if line not in found]
        extra = [line for line in found if line not in wanted]
        return EvalResult(
            success=False,
            message=f"{path}: lines missing {missing}, unexpected {extra}"
            if missing or extra
            else f"{path}: the lines are out of order",
        )
    return EvalResult(success=True, message=f"{path} holds its {len(wanted)} lines")
