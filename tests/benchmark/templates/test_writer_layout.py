"""reef-v2's "appendix as a table on a landscape page" template: its tasks pass the static
gates and its near misses differ from the reference; every report's appendix is 8-14 rows
of 6-7 tab-separated cells whose first cell the reference can find; the checkpoints pass
the finished shape LibreOffice writes (a table with a bold, repeated heading row; a
paragraph style with the Landscape master page before the appendix) and fail each near
miss with its own message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("odf")

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer_layout as wl
from reefbench.documents.odf import paragraphs
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import writer_layout_evaluators as wle
from reefbench.envs.desktop.writer_contract_evaluators import text_difference
from reefbench.validation.gates import static_problems

REPORT = wl.REPORTS[0]


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wl.WRITER_TABLE_LAYOUT
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    tasks = list(v2.tasks_of(only))
    assert len(tasks) == len(wl.REPORTS)
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_every_appendix_is_a_wide_schedule_the_reference_can_find() -> None:
    for report in wl.REPORTS:
        rows = wl.schedule(report)
        assert 9 <= len(rows) <= 15, report.path  # 8-14 rows under the heading row
        assert {len(row) for row in rows} in ({6}, {7}), report.path
        assert all(cell.strip() for row in rows for cell in row)
        text = "\n".join(b[1] for b in wl.blocks(report) if b[0] in ("h", "p"))
        # Find and Replace lands on the schedule's first cell and on the heading, once.
        assert rows[0][0] not in text
        assert text.count(report.heading) == 1
        assert "\t" not in text
        assert report.heading in wl.WRITER_TABLE_LAYOUT.description.format(
            path=report.path, heading=report.heading
        )
    kinds = {r.kind for r in wl.REPORTS}
    assert kinds == {"prices", "visits"}
    assert len({tuple(map(tuple, wl.schedule(r))) for r in wl.REPORTS}) == len(wl.REPORTS)


def test_the_written_report_is_portrait_with_tabbed_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.odt"
    wle.write_report(path, REPORT.title, wl.blocks(REPORT))
    texts = [p.text for p in paragraphs(path)]
    rows = wl.schedule(REPORT)
    assert texts[-len(rows) :] == ["\t".join(row) for row in rows]
    assert texts[0] == REPORT.title
    # Before the work, the text differs from the finished one only by the lines.
    assert text_difference(texts, wl.expected_text(REPORT))
    problem = wle.table_problem(path, rows)
    assert "still tab-separated" in problem
    assert "is on a portrait page" in wle.pages_problem(path, REPORT.heading, rows[0])


# ------------------------------------------------- the finished shapes, by odfpy
def _finished(
    path: Path,
    *,
    table: bool = True,
    landscape: str = "appendix",
    drop_last: bool = False,
    bold: bool = True,
    repeat: bool = True,
) -> None:
    """The report as LibreOffice saves it once worked on: the lines made a table (or
    left), a page break with the Landscape page style on the appendix heading's
    automatic style (``landscape="appendix"``), the default page landscape
    (``"all"``) or no break (``"none"``)."""
    from odf import teletype
    from odf.opendocument import OpenDocumentText
    from odf.style import (
        MasterPage,
        PageLayout,
        PageLayoutProperties,
        Style,
        TextProperties,
    )
    from odf.table import Table, TableCell, TableColumn, TableHeaderRows, TableRow
    from odf.text import H, P

    document = OpenDocumentText()
    tall = {"pagewidth": "21cm", "pageheight": "29.7cm", "printorientation": "portrait"}
    wide = {"pagewidth": "29.7cm", "pageheight": "21cm", "printorientation": "landscape"}
    layouts = {}
    for name, size in (("Mpm1", wide if landscape == "all" else tall), ("Mpm2", wide)):
        layout = PageLayout(name=name)
        layout.addElement(PageLayoutProperties(margin="2cm", **size))
        document.automaticstyles.addElement(layout)
        layouts[name] = layout
    document.masterstyles.addElement(MasterPage(name="Standard", pagelayoutname=layouts["Mpm1"]))
    document.masterstyles.addElement(MasterPage(name="Landscape", pagelayoutname=layouts["Mpm2"]))
    heading = Style(name="Heading_20_1", family="paragraph")
    document.styles.addElement(heading)
    body = Style(name="Text_20_body", family="paragraph")
    document.styles.addElement(body)
    broken = Style(
        name="P3", family="paragraph", parentstylename="Heading_20_1", masterpagename="Landscape"
    )
    document.automaticstyles.addElement(broken)
    strong = Style(name="P4", family="paragraph", parentstylename="Text_20_body")
    strong.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(strong)
    document.text.addElement(P(text=REPORT.title))
    for kind, text in (b for b in wl.blocks(REPORT) if b[0] != "tabs"):
        if kind == "h":
            style = broken if text == REPORT.heading and landscape == "appendix" else heading
            document.text.addElement(H(outlinelevel=1, stylename=style, text=text))
        else:
            document.text.addElement(P(stylename=body, text=text))
    rows = wl.schedule(REPORT)
    if drop_last:
        rows = rows[:-1]
    if not table:
        for row in rows:
            line = P(stylename=body)
            teletype.addTextToElement(line, "\t".join(row))
            document.text.addElement(line)
    else:
        made: Any = Table(name="Table1")
        made.addElement(TableColumn(numbercolumnsrepeated=str(len(rows[0]))))
        for index, row in enumerate(rows):
            line = TableRow()
            for cell in row:
                holder = TableCell(valuetype="string")
                holder.addElement(P(stylename=strong if bold and index == 0 else body, text=cell))
                line.addElement(holder)
            if index == 0 and repeat:
                head = TableHeaderRows()
                head.addElement(line)
                made.addElement(head)
            else:
                made.addElement(line)
        document.text.addElement(made)
    document.save(str(path))


def _env(home: Path) -> DesktopEnvironment:
    env = DesktopEnvironment("desktop")

    def host_path(path: str) -> Path:
        return home / path.removeprefix("~/")

    env.session.host_path = host_path  # type: ignore[method-assign]
    return env


def _verdicts(tmp_path: Path, **shape: Any) -> list[tuple[bool, str]]:
    """The template's checkpoints (the LibreOffice save left out) on a finished shape."""
    target = tmp_path / REPORT.path.removeprefix("~/")
    target.parent.mkdir(parents=True, exist_ok=True)
    _finished(target, **shape)
    env = _env(tmp_path)
    found = []
    for check in wl.layout_checkpoints(REPORT.path, REPORT.heading)[:3]:
        result = check.evaluate(env)
        found.append((result.success, result.message))
    return found


def test_the_finished_report_passes(tmp_path: Path) -> None:
    assert all(ok for ok, _ in _verdicts(tmp_path)), _verdicts(tmp_path)


def test_the_whole_document_landscape_fails_on_the_pages(tmp_path: Path) -> None:
    table, pages, text = _verdicts(tmp_path, landscape="all")
    assert table[0] and text[0]
    assert not pages[0] and "pages before the appendix are not portrait" in pages[1]


def test_a_table_left_on_a_portrait_page_fails(tmp_path: Path) -> None:
    table, pages, text = _verdicts(tmp_path, landscape="none")
    assert table[0] and text[0]
    assert not pages[0] and "appendix heading" in pages[1] and "portrait page" in pages[1]


def test_tabbed_lines_on_a_landscape_page_fail(tmp_path: Path) -> None:
    table, pages, text = _verdicts(tmp_path, table=False)
    assert not table[0] and "still tab-separated text" in table[1]
    assert not pages[0] and "no table of the schedule" in pages[1]
    assert not text[0]


def test_a_lost_row_fails(tmp_path: Path) -> None:
    table, pages, text = _verdicts(tmp_path, drop_last=True)
    rows = wl.schedule(REPORT)
    assert pages[0]
    assert not table[0] and f"not {len(rows)}; missing" in table[1]
    assert rows[-1][0] in table[1]
    assert not text[0]


def test_a_heading_row_not_bold_or_not_repeated_fails(tmp_path: Path) -> None:
    plain = _verdicts(tmp_path / "plain", bold=False)[0]
    assert not plain[0] and "heading row is not bold" in plain[1]
    once = _verdicts(tmp_path / "once", repeat=False)[0]
    assert not once[0] and "repeated heading row" in once[1]


def test_a_missing_or_broken_file_fails(tmp_path: Path) -> None:
    env = _env(tmp_path)
    check = wle.document_table_rows(path=REPORT.path, rows=wl.schedule(REPORT))
    assert "does not exist" in check.evaluate(env).message
    target = tmp_path / REPORT.path.removeprefix("~/")
    target.parent.mkdir(parents=True)
    target.write_text("not a document")
    result = check.evaluate(env)
    assert not result.success and "not an OpenDocument file" in result.message
