"""reef-v2's Writer templates: their tasks pass the static gates, near misses differ from
the reference, and the checks they use fail on the plausible wrong documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer
from reefbench.documents.model import PdfDocument, PdfPage
from reefbench.documents.write import write_text_document
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.tasks.subtask import SubTask
from reefbench.validation.gates import static_problems


def _tasks(template: SubTask, count: int = 3) -> list[object]:
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    only = v2.Family(family.name, family.description, (entry,))
    return list(v2.tasks_of(only, per_template=count))


@pytest.mark.parametrize("template", writer.TEMPLATES, ids=lambda t: t.id)
def test_tasks_pass_the_static_gates_and_near_misses_differ(template: SubTask) -> None:
    family = next(f for f in v2.families() if f.name == "office")
    tiers = {t.subtask.id: t.tier for t in family.templates}
    assert tiers[template.id] == "hard"
    for task in _tasks(template):
        assert static_problems(task, v2.POOL) == []  # type: ignore[arg-type]
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    assert template.near_misses
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label
    for alternative in template.alternative_generators:
        assert alternative(**values) != solution


def test_every_task_document_is_seeded_and_its_headings_are_body_text(tmp_path: Path) -> None:
    from reefbench.documents import read_text_document

    record = writer.TOC_RECORDS[0]
    body = writer._body(record["title"], record["outline"])
    assert body == writer._body(record["title"], record["outline"])
    path = tmp_path / "policy.odt"
    write_text_document(path, body, record["title"])
    read = read_text_document(path)
    assert read.paragraphs[0].style == "Title"
    assert {p.style for p in read.paragraphs[1:]} == {"Body Text"}
    assert read.toc is None


def test_iso_dates_rewrites_only_day_first_dates() -> None:
    text = "Met 14/01/2026; item 12/40 closed; budget 2025/26; next 03/02/2026."
    assert writer.iso_dates(text) == (
        "Met 2026-01-14; item 12/40 closed; budget 2025/26; next 2026-02-03."
    )
    for record in writer.DATE_RECORDS:
        changed = [p for p in record["paragraphs"].split("\n") if writer.iso_dates(p) != p]
        assert len(changed) >= 3  # a first-match-only replacement leaves dates behind


def _odt_with(path: Path, footer: list[object] | None = None, toc: list[str] | None = None) -> None:
    """A small .odt: a title, a TOC (entries) and two headings; a footer paragraph made of
    ``footer`` (strings and odfpy field elements)."""
    from odf.opendocument import OpenDocumentText
    from odf.style import Footer, MasterPage, PageLayout
    from odf.text import H, IndexBody, P, TableOfContent

    document = OpenDocumentText()
    layout = PageLayout(name="pm1")
    document.automaticstyles.addElement(layout)
    master = MasterPage(name="Standard", pagelayoutname=layout)
    if footer is not None:
        holder = Footer()
        paragraph = P()
        for part in footer:
            if isinstance(part, str):
                paragraph.addText(part)
            else:
                paragraph.addElement(part)
        holder.addElement(paragraph)
        master.addElement(holder)
    document.masterstyles.addElement(master)
    document.text.addElement(P(text="Policy"))
    if toc is not None:
        index = TableOfContent(name="Table of Contents1")
        body = IndexBody()
        for entry in toc:
            body.addElement(P(text=f"{entry}\t1"))
        index.addElement(body)
        document.text.addElement(index)
    document.text.addElement(H(outlinelevel=1, text="Purpose"))
    document.text.addElement(H(outlinelevel=2, text="Scope"))
    document.save(str(path))


def test_toc_check_needs_the_entries_in_order_and_its_place(tmp_path: Path) -> None:
    good = tmp_path / "good.odt"
    _odt_with(good, toc=["Purpose", "Scope"])
    assert te.toc_problem(good, ["Purpose", "Scope"], after="Policy", before="Purpose") == ""
    assert "not above" in te.toc_problem(good, ["Purpose", "Scope"], before="Policy")
    empty = tmp_path / "empty.odt"
    _odt_with(empty, toc=[])
    assert "no entries" in te.toc_problem(empty, ["Purpose", "Scope"])
    none = tmp_path / "none.odt"
    _odt_with(none)
    assert te.toc_problem(none, ["Purpose"]) == "it has no table of contents"


def test_footer_check_needs_real_page_fields(tmp_path: Path) -> None:
    from odf.text import PageCount, PageNumber

    fields = tmp_path / "fields.odt"
    _odt_with(fields, footer=["Page ", PageNumber(selectpage="current", text="1"), " of ",
                              PageCount(text="3")])  # fmt: skip
    assert te.footer_problem(fields, writer.FOOTER) == ""
    typed = tmp_path / "typed.odt"
    _odt_with(typed, footer=["Page 1 of 3"])
    assert "no footer reads" in te.footer_problem(typed, writer.FOOTER)
    half = tmp_path / "half.odt"
    _odt_with(half, footer=["Page ", PageNumber(selectpage="current", text="1"), " of 3"])
    assert "no footer reads" in te.footer_problem(half, writer.FOOTER)
    bare = tmp_path / "bare.odt"
    _odt_with(bare)
    assert te.footer_problem(bare, writer.FOOTER) == "it has no footer"


def test_pdf_footer_check_reads_each_page(monkeypatch: pytest.MonkeyPatch) -> None:
    def pdf(*texts: str) -> PdfDocument:
        return PdfDocument(tuple(PdfPage(t, 210, 297) for t in texts))

    monkeypatch.setattr(te, "read_pdf", lambda _: pdf("a Page 1 of 2", "b\nPage 2 of 2"))
    assert te.pdf_footer_problem(Path("x.pdf"), writer.FOOTER, min_pages=2) == ""
    monkeypatch.setattr(te, "read_pdf", lambda _: pdf("Page 1 of 3", "Page 1 of 3"))
    assert "page 1 does not show 'Page 1 of 2'" in te.pdf_footer_problem(
        Path("x.pdf"), writer.FOOTER
    )
    monkeypatch.setattr(te, "read_pdf", lambda _: pdf("Page 1 of 1"))
    assert "not at least 2" in te.pdf_footer_problem(Path("x.pdf"), writer.FOOTER, min_pages=2)


def _odt_with_comment(path: Path, before: str, anchor: str, after: str, comment: str) -> None:
    """A paragraph ``before + anchor + after`` with ``comment`` spanning ``anchor`` (or
    marking the point before ``after`` when ``anchor`` is empty)."""
    from odf.office import Annotation, AnnotationEnd
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    paragraph = P()
    paragraph.addText(before)
    note = Annotation(name="c1")
    note.addElement(P(text=comment))
    paragraph.addElement(note)
    paragraph.addText(anchor)
    if anchor:
        paragraph.addElement(AnnotationEnd(name="c1"))
    paragraph.addText(after)
    document.text.addElement(paragraph)
    document.save(str(path))


def test_comment_check_needs_the_sentence_spanned(tmp_path: Path) -> None:
    record = writer.COMMENT_RECORDS[0]
    sentence, comment = record["sentence"], record["comment"]
    good = tmp_path / "good.odt"
    _odt_with_comment(good, "Prices are fixed. ", sentence, " More.", comment)
    assert te.comment_problem(good, sentence, comment) == ""
    stopless = tmp_path / "stopless.odt"
    _odt_with_comment(stopless, "Prices are fixed. ", sentence[:-1], ". More.", comment)
    assert te.comment_problem(stopless, sentence, comment) == ""
    curly = tmp_path / "curly.odt"
    _odt_with_comment(curly, "", sentence, "", "It\u2019s \u201cfine\u201d")
    assert te.comment_problem(curly, sentence, 'It\'s "fine"') == ""
    point = tmp_path / "point.odt"
    _odt_with_comment(point, "Prices are fixed. " + sentence, "", " More.", comment)
    assert "no comment" in te.comment_problem(point, sentence, comment)
    wide = tmp_path / "wide.odt"
    _odt_with_comment(wide, "", "Prices are fixed. " + sentence, "", comment)
    assert "no comment" in te.comment_problem(wide, sentence, comment)
    none = tmp_path / "none.odt"
    write_text_document(none, [sentence])
    assert te.comment_problem(none, sentence, comment) == "it has no comment"
    for record in writer.COMMENT_RECORDS:
        holders = [p for p in record["paragraphs"].split("\n") if record["sentence"] in p]
        assert len(holders) == 1 and holders[0] != record["sentence"]
