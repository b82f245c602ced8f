"""A portrait report whose appendix is a schedule typed as tab-separated lines, written for
a task's setup, and the checkpoints of the layout work it asks: reef-v2's "appendix as a
table on a landscape page" template (:mod:`reefbench.benchmark.templates.writer_layout`).

The setup writes an A4 portrait ``.odt`` through odfpy: a title, numbered sections, then
the appendix heading, its introduction and one paragraph per schedule row, the cells
separated by tabs. The checkpoints read the saved file with odfpy:

* the appendix table: a ``table:table`` whose rows hold the schedule's cells (spacing
  aside), its first row the table's heading row that repeats on every page
  (``table:table-header-rows``), and no schedule line left as tab-separated text;
* the pages: the page style in force at the appendix heading and at the table (the last
  ``style:master-page-name`` of a paragraph or table style before them, as Writer writes a
  page break with a page style) has a landscape page layout, and the one in force over the
  text before the heading a portrait one.

Each check is a plain function of the file (``*_problem``: ``""`` when the file passes,
else what is wrong, one line), so tests run it on small generated files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.documents.model import DocumentUnreadable
from reefbench.documents.odf_xml import _attr, _is, _length, _load, _plain, _walk
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key

BODY_STYLE = "Text_20_body"
HEADING_STYLE = "Heading_20_1"
# Wide enough to fill a line: seven tab-separated cells then wrap on a portrait page.
TAB_STOP = "1.25cm"


def write_report(path: Path, title: str, blocks: Sequence[Sequence[str]]) -> None:
    """An A4 portrait ``.odt`` (margins 2 cm): ``title`` (Title style), then each block in
    order: ``["h", text]`` a Heading 1, ``["p", text]`` a body paragraph, ``["tabs", cell,
    ...]`` a body paragraph of the cells separated by tab characters."""
    from odf import teletype
    from odf.opendocument import OpenDocumentText
    from odf.style import (
        MasterPage,
        PageLayout,
        PageLayoutProperties,
        ParagraphProperties,
        Style,
        TextProperties,
    )
    from odf.text import H, P

    document = OpenDocumentText()
    page = PageLayout(name="ReportPage")
    page.addElement(
        PageLayoutProperties(
            pagewidth="21cm", pageheight="29.7cm", printorientation="portrait", margin="2cm"
        )
    )
    document.automaticstyles.addElement(page)
    document.masterstyles.addElement(MasterPage(name="Standard", pagelayoutname=page))
    body = Style(name=BODY_STYLE, displayname="Text Body", family="paragraph")
    body.addElement(ParagraphProperties(marginbottom="0.3cm", lineheight="130%"))
    heading = Style(name=HEADING_STYLE, displayname="Heading 1", family="paragraph")
    heading.addElement(ParagraphProperties(margintop="0.5cm", marginbottom="0.25cm"))
    heading.addElement(TextProperties(fontsize="14pt", fontweight="bold"))
    title_style = Style(name="Title", displayname="Title", family="paragraph")
    title_style.addElement(TextProperties(fontsize="20pt", fontweight="bold"))
    for made in (body, heading, title_style):
        document.styles.addElement(made)
    document.text.addElement(P(stylename=title_style, text=title))
    for kind, *texts in blocks:
        if kind == "h":
            document.text.addElement(H(outlinelevel=1, stylename=heading, text=texts[0]))
        elif kind == "p":
            document.text.addElement(P(stylename=body, text=texts[0]))
        elif kind == "tabs":
            line = P(stylename=body)
            teletype.addTextToElement(line, "\t".join(texts))
            document.text.addElement(line)
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


@action
def create_tabbed_report(
    path: str, title: str, blocks: list[list[str]], *, env: DesktopDevice
) -> str:
    """Create (or overwrite) an A4 portrait OpenDocument text document (.odt): a title,
    then headings, body paragraphs and lines of tab-separated values.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/report.odt".
        title: The first paragraph, in the "Title" style.
        blocks: In order, ["h", text] a Heading 1, ["p", text] a body paragraph,
            ["tabs", cell, ...] a paragraph of the cells separated by tabs.
    """
    target = env.session.host_path(path)
    write_report(target, title, blocks)
    env.stamp_world_time(target)
    return f"created {path}"


# ---------------------------------------------------------------- pure checks
def _fold(text: str) -> str:
    return " ".join(text.split())


def _rows_of(table: Any) -> list[tuple[list[str], bool]]:
    """The rows of a table as (cell texts, inside its repeated heading rows), nested
    tables' rows left out."""
    found = []
    for row in _walk(table, "TABLENS", ("table-row",), skip=(("TABLENS", "table"),)):
        cells = [
            _fold("\n".join(_plain(p) for p in _walk(cell, "TEXTNS", ("p", "h"))))
            for cell in row.childNodes
            if _is(cell, "TABLENS", "table-cell")
        ]
        heading = any(_is(a, "TABLENS", "table-header-rows") for a in _ancestors_to(row, table))
        found.append((cells, heading))
    return found


def _ancestors_to(node: Any, top: Any) -> list[Any]:
    parents = []
    parent = node.parentNode
    while parent is not None and parent is not top:
        parents.append(parent)
        parent = parent.parentNode
    return parents


def _show(cells: Sequence[str]) -> str:
    return " | ".join(cells)[:120]


def table_problem(path: Path, rows: Sequence[Sequence[str]]) -> str:
    """The document has a table whose rows are exactly ``rows`` (each cell's text, runs of
    spaces as one; empty trailing cells ignored), whose first row is its repeated heading
    row (and no other row is), and no paragraph outside a table still reads as one of the
    rows' cells separated by tabs."""
    document = _load(path, "text")
    wanted = [[_fold(c) for c in row] for row in rows]
    lines = {"\t".join(row) for row in wanted}
    left = [
        p
        for p in _walk(document.text, "TEXTNS", ("p", "h"), skip=(("TABLENS", "table"),))
        if "\t" in _plain(p) and "\t".join(_fold(c) for c in _plain(p).split("\t")) in lines
    ]
    if left:
        return (
            f"{len(left)} schedule line(s) are still tab-separated text, e.g. "
            f"{_fold(_plain(left[0]))[:80]!r}"
        )
    tables = _walk(document.text, "TABLENS", ("table",))
    if not tables:
        return "it has no table"
    best = ""
    for table in tables:
        found = _rows_of(table)
        cells = [_trimmed(c) for c, _ in found]
        if not cells or cells[0] != wanted[0]:
            best = best or f"no table starts with the heading row {_show(wanted[0])!r}"
            continue
        if cells != wanted:
            missing = [row for row in wanted if row not in cells]
            extra = [row for row in cells if row not in wanted]
            if missing:
                return (
                    f"the table has {len(cells)} rows, not {len(wanted)}; missing "
                    f"{_show(missing[0])!r}"
                )
            if extra:
                return f"the table has a row {_show(extra[0])!r} the schedule does not"
            return "the table's rows are not in the schedule's order"
        heading = [index for index, (_, repeated) in enumerate(found) if repeated]
        if heading != [0]:
            return (
                "the table's first row is not set as its repeated heading row (Repeat "
                "heading: the first row only)"
            )
        styles = _styles(document)
        first_row = _walk(table, "TABLENS", ("table-row",), skip=(("TABLENS", "table"),))[0]
        plain = [
            _fold(_plain(p))
            for p in _walk(first_row, "TEXTNS", ("p", "h"))
            if not _bold(p, styles, "paragraph", "")
        ]
        if plain:
            return f"the table's heading row is not bold: {plain[0]!r} is not"
        return ""
    return best


def _weight(styles: dict[tuple[str, str], Any], family: str, name: str) -> str:
    """The font weight a style (or the styles it is based on) sets, "" when none does."""
    seen: set[str] = set()
    while (family, name) in styles and name not in seen:
        seen.add(name)
        style = styles[(family, name)]
        for props in _walk(style, "STYLENS", ("text-properties",)):
            weight = _attr(props, "FONS", "font-weight")
            if weight:
                return weight
        name = _attr(style, "STYLENS", "parent-style-name")
    return ""


def _is_bold(weight: str) -> bool:
    return weight == "bold" or (weight.isdigit() and int(weight) >= 600)


def _bold(element: Any, styles: dict[tuple[str, str], Any], family: str, outer: str) -> bool:
    """Every visible character of a paragraph (or span) is bold, through its paragraph
    style and the character styles of the spans around it."""
    weight = _weight(styles, family, _attr(element, "TEXTNS", "style-name")) or outer
    for node in element.childNodes:
        if node.nodeType == node.TEXT_NODE:
            if str(node.data).strip() and not _is_bold(weight):
                return False
        elif _is(node, "TEXTNS", "span", "a") and not _bold(node, styles, "text", weight):
            return False
    return True


def _trimmed(cells: list[str]) -> list[str]:
    while cells and not cells[-1]:
        cells = cells[:-1]
    return cells


def _page_layouts(document: Any) -> dict[str, tuple[float, float, str]]:
    """Master page name -> its page layout's (width, height, print orientation)."""
    layouts: dict[str, tuple[float, float, str]] = {}
    for holder in (document.automaticstyles, document.styles):
        for layout in _walk(holder, "STYLENS", ("page-layout",)):
            props = _walk(layout, "STYLENS", ("page-layout-properties",))
            if props:
                layouts[_attr(layout, "STYLENS", "name")] = (
                    _length(_attr(props[0], "FONS", "page-width")),
                    _length(_attr(props[0], "FONS", "page-height")),
                    _attr(props[0], "STYLENS", "print-orientation"),
                )
    masters = {}
    for master in _walk(document.masterstyles, "STYLENS", ("master-page",)):
        layout_name = _attr(master, "STYLENS", "page-layout-name")
        masters[_attr(master, "STYLENS", "name")] = layouts.get(layout_name, (0.0, 0.0, ""))
    return masters


def _landscape(page: tuple[float, float, str]) -> bool:
    width, height, orientation = page
    return width > height and orientation != "portrait"


def _portrait(page: tuple[float, float, str]) -> bool:
    width, height, orientation = page
    return 0 < width < height and orientation != "landscape"


def _master_of(style_name: str, family: str, styles: dict[tuple[str, str], Any]) -> str:
    """The ``style:master-page-name`` of a style or the styles it is based on ("" when
    none sets one): a page break with a page style, as Writer writes it."""
    seen: set[str] = set()
    while (family, style_name) in styles and style_name not in seen:
        seen.add(style_name)
        style = styles[(family, style_name)]
        master = _attr(style, "STYLENS", "master-page-name")
        if master:
            return master
        style_name = _attr(style, "STYLENS", "parent-style-name")
    return ""


def _styles(document: Any) -> dict[tuple[str, str], Any]:
    found: dict[tuple[str, str], Any] = {}
    for holder in (document.automaticstyles, document.styles):
        for style in _walk(holder, "STYLENS", ("style",)):
            key = (_attr(style, "STYLENS", "family"), _attr(style, "STYLENS", "name"))
            found.setdefault(key, style)
    return found


def _blocks(holder: Any) -> list[Any]:
    """The body's paragraphs, headings and tables in order, looking into sections and
    lists (where a page break can sit), not into tables."""
    found = []
    for node in holder.childNodes:
        if _is(node, "TEXTNS", "p", "h") or _is(node, "TABLENS", "table"):
            found.append(node)
        elif _is(node, "TEXTNS", "section", "list", "list-item", "soft-page-break") or _is(
            node, "TEXTNS", "list-header"
        ):
            found += _blocks(node)
    return found


def pages_problem(path: Path, heading: str, first_row: Sequence[str]) -> str:
    """The paragraph ``heading`` and the table whose first row is ``first_row`` stand on
    pages whose page style is landscape (page wider than high), and everything before
    ``heading`` on pages whose page style is portrait."""
    document = _load(path, "text")
    pages = _page_layouts(document)
    styles = _styles(document)
    first = "Standard" if "Standard" in pages else next(iter(pages), "")
    current = first
    wanted_row = [_fold(c) for c in first_row]
    seen_heading = table_landscape = False
    for node in _blocks(document.text):
        family = "table" if _is(node, "TABLENS", "table") else "paragraph"
        namespace = "TABLENS" if family == "table" else "TEXTNS"
        master = _master_of(_attr(node, namespace, "style-name"), family, styles)
        current = master or current
        page = pages.get(current, (0.0, 0.0, ""))
        if family == "paragraph" and _fold(_plain(node)) == _fold(heading):
            if not _landscape(page):
                return f"the appendix heading {heading!r} is on a portrait page ({current})"
            seen_heading = True
            continue
        if not seen_heading:
            if not _portrait(page):
                text = _fold(_plain(node))[:60] if family == "paragraph" else "a table"
                return (
                    f"the pages before the appendix are not portrait: {text!r} is on a "
                    f"landscape page ({current})"
                )
            continue
        if family == "table":
            rows = _rows_of(node)
            if rows and _trimmed(rows[0][0]) == wanted_row:
                if not _landscape(page):
                    return f"the appendix table is on a portrait page ({current})"
                table_landscape = True
    if not seen_heading:
        return f"it has no paragraph {heading!r}"
    if not table_landscape:
        return "no table of the schedule stands after the appendix heading"
    return ""


# ----------------------------------------------------------------- checkpoints
def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _run(env: DesktopDevice, path: str, check: Any, ok: str) -> EvalResult:
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        problem = check(target)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: {ok}")


@evaluator(governs=_path_keys)
def document_table_rows(path: str, rows: list[list[str]], *, env: DesktopDevice) -> EvalResult:
    """The text document has a real table holding exactly these rows, in order (spacing
    aside), whose first row is its heading row repeated on every page, and none of these
    rows is left as a line of tab-separated text.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/report.odt".
        rows: The table's rows, the heading row first, each a list of cell texts.
    """

    def check(target: Path) -> str:
        return table_problem(target, rows)

    return _run(env, path, check, f"a table of {len(rows)} rows, the first its heading row")


@evaluator(governs=_path_keys)
def landscape_from(
    path: str, heading: str, first_row: list[str], *, env: DesktopDevice
) -> EvalResult:
    """From the paragraph ``heading`` on, the text document's pages are landscape (the
    heading and the table starting with ``first_row`` on them), and every page before
    it is portrait.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/report.odt".
        heading: The paragraph where the landscape pages start.
        first_row: The first row's cells of the table that must be on a landscape page.
    """

    def check(target: Path) -> str:
        return pages_problem(target, heading, first_row)

    return _run(env, path, check, f"landscape from {heading!r}, portrait before")
