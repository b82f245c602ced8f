"""A long agreement written for a task's setup, and the checkpoint that its whole text
reads as expected: reef-v2's "body figures must match the annex" template
(:mod:`reefbench.benchmark.templates.writer_contract`).

The setup writes a several-page ``.odt`` through odfpy: a title, numbered section
headings (Heading 1), body paragraphs and a table (the annex). The checkpoint compares
every paragraph of the saved document, table cells included, with the text expected
after the edit: a correction in the right place and nothing else changed is what the
task asks, so a look-alike figure changed too, or the annex edited instead of the body,
shows up as a paragraph that differs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.documents.odf import DocumentUnreadable, paragraphs
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key

BODY_STYLE = "Text_20_body"
HEADING_STYLE = "Heading_20_1"


def write_agreement(path: Path, title: str, blocks: Sequence[Sequence[str]]) -> None:
    """An ``.odt``: ``title`` (Title style), then each block in order: ``["h", text]`` a
    Heading 1, ``["p", text]`` a body paragraph, ``["row", cell, ...]`` a table row
    (consecutive rows make one table; its first row is the header). Body text has a
    generous line height, so the document runs over several pages as a real one does."""
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TableColumnProperties, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    document = OpenDocumentText()
    body = Style(name=BODY_STYLE, displayname="Text Body", family="paragraph")
    body.addElement(ParagraphProperties(marginbottom="0.3cm", lineheight="130%"))
    heading = Style(name=HEADING_STYLE, displayname="Heading 1", family="paragraph")
    heading.addElement(ParagraphProperties(margintop="0.5cm", marginbottom="0.25cm"))
    heading.addElement(TextProperties(fontsize="14pt", fontweight="bold"))
    title_style = Style(name="Title", displayname="Title", family="paragraph")
    title_style.addElement(TextProperties(fontsize="20pt", fontweight="bold"))
    for made in (body, heading, title_style):
        document.styles.addElement(made)
    column = Style(name="AnnexColumn", family="table-column")
    column.addElement(TableColumnProperties(columnwidth="8cm"))
    document.automaticstyles.addElement(column)
    document.text.addElement(P(stylename=title_style, text=title))
    table: Any = None
    for kind, *texts in blocks:
        if kind != "row":
            table = None
        if kind == "h":
            document.text.addElement(H(outlinelevel=1, stylename=heading, text=texts[0]))
        elif kind == "p":
            document.text.addElement(P(stylename=body, text=texts[0]))
        elif kind == "row":
            if table is None:
                table = Table(name=f"Table{len(document.text.childNodes)}")
                table.addElement(
                    TableColumn(stylename=column, numbercolumnsrepeated=str(len(texts)))
                )
                document.text.addElement(table)
            row = TableRow()
            for text in texts:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=text))
                row.addElement(cell)
            table.addElement(row)
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


@action
def create_agreement_document(
    path: str, title: str, blocks: list[list[str]], *, env: DesktopDevice
) -> str:
    """Create (or overwrite) a long OpenDocument text document (.odt): a title, then
    headings, body paragraphs and tables.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/agreement.odt".
        title: The first paragraph, in the "Title" style.
        blocks: In order, ["h", text] a Heading 1, ["p", text] a body paragraph,
            ["row", cell, ...] a table row (consecutive rows make one table).
    """
    target = env.session.host_path(path)
    write_agreement(target, title, blocks)
    env.stamp_world_time(target)
    return f"created {path}"


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def text_difference(found: Sequence[str], expected: Sequence[str]) -> str:
    """Where the non-empty paragraphs ``found`` first differ from ``expected`` (spaces
    runs folded), ``""`` when they are the same."""
    have = [t for t in map(_plain, found) if t]
    want = [t for t in map(_plain, expected) if t]
    for index, (got, wanted) in enumerate(zip(have, want, strict=False)):
        if got != wanted:
            return f"paragraph {index + 1} reads {got[:160]!r}, expected {wanted[:160]!r}"
    if len(have) != len(want):
        return f"the document has {len(have)} paragraphs, expected {len(want)}"
    return ""


@evaluator(governs=_path_keys)
def document_text_is(
    path: str, paragraphs_expected: list[str], *, env: DesktopDevice
) -> EvalResult:
    """Every non-empty paragraph of the text document (headings and table cells included),
    in order, has exactly the expected text: nothing changed but what the task asked.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/agreement.odt".
        paragraphs_expected: The texts of its non-empty paragraphs, in order (runs of
            spaces count as one).
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        found = [p.text for p in paragraphs(target)]
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    problem = text_difference(found, paragraphs_expected)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path} reads as expected, word for word")
