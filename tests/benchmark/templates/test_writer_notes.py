"""reef-v2's citations-to-footnotes template: its tasks pass the static gates, its reports
hold what the instruction describes, and its checker passes the right Word copy and fails
each near miss with its own message, on Word packages written here (the footnotes part by
hand) and on one LibreOffice really exported."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer_notes as wn
from reefbench.benchmark.templates import writer_notes_reports as wr
from reefbench.envs.desktop import writer_notes_evaluators as wne
from reefbench.envs.desktop.writer_contract_evaluators import write_agreement
from reefbench.validation.gates import static_problems

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REPORT = wr.REPORTS[0]
WRITTEN = wr.paragraphs(REPORT)


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wn.WRITER_FOOTNOTES_DOCX
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    tasks = list(v2.tasks_of(only, per_template=4))
    assert len(tasks) == 4
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_each_report_holds_what_the_instruction_describes() -> None:
    for report in wr.REPORTS:
        cited = [source for _, source in wr.citations(report)]
        assert 5 <= len(cited) <= 8, report.path
        assert len(set(cited)) == len(cited) - 1, f"{report.path}: one source cited twice"
        assert max(map(len, cited)) > 70, f"{report.path}: a long citation"
        others = [b for p in wr.paragraphs(report) for b in re.findall(r"\[[^\]]*\]", p)]
        assert len([b for b in others if not b.startswith("[Source:")]) == 1, report.path
        assert any(m.group(0)[-1] not in "." for m in _followed(report)), "one mid-sentence"
        assert report.docx == report.path.replace(".odt", ".docx")


def _followed(report: wr.Report) -> list[re.Match[str]]:
    """Each citation with the character after it."""
    return [m for p in wr.paragraphs(report) for m in re.finditer(r"\[Source:[^\]]*\](.)", p)]


def test_sources_type_back_as_written() -> None:
    """What Writer's autocorrect would change as the reference types a source is absent."""
    for report in wr.REPORTS:
        for _, source in wr.citations(report):
            assert source[0].isupper() and source[-1].isdigit(), source
            assert not re.search(r"[.'\"]| - |\d(st|nd|rd|th)\b", source), source


def test_the_filler_does_not_repeat_within_a_report() -> None:
    for report in wr.REPORTS:
        sentences = re.findall(r"[^.]+\.", " ".join(wr.paragraphs(report)[1:]))
        fillers = [s.strip() for s in sentences if s.strip() in wr.FILLER]
        assert len(fillers) == len(set(fillers)) > 50


# ------------------------------------------------------------ Word packages
def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _word(path: Path, body: list[str], notes: list[str], kind: str = "footnote") -> Path:
    """A minimal .docx: ``body`` paragraphs where ``{n}`` stands for a reference to note
    ``n`` (of ``kind``), the notes' texts in its notes part."""
    tag = "footnoteReference" if kind == "footnote" else "endnoteReference"
    paragraphs = "".join(
        "<w:p>"
        + "".join(
            _run(part) if i % 2 == 0 else f'<w:r><w:{tag} w:id="{part}"/></w:r>'
            for i, part in enumerate(re.split(r"\{(\d+)\}", text))
        )
        + "</w:p>"
        for text in body
    )
    separator = (
        f'<w:{kind} w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
    )
    entries = "".join(
        f'<w:{kind} w:id="{n}"><w:p><w:r><w:{kind}Ref/></w:r>{_run(" " + text)}</w:p></w:{kind}>'
        for n, text in enumerate(notes, start=1)
    )
    rel = f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}s"
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    with zipfile.ZipFile(path, "w") as package:
        package.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/word/document.xml" ContentType="{main}.document.main+xml"/>'
            f'<Override PartName="/word/{kind}s.xml" ContentType="{main}.{kind}s+xml"/>'
            "</Types>",
        )
        package.writestr(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        package.writestr(
            "word/_rels/document.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}" Target="{kind}s.xml"/></Relationships>',
        )
        package.writestr(
            "word/document.xml",
            f'<w:document xmlns:w="{W}"><w:body>{paragraphs}</w:body></w:document>',
        )
        package.writestr(
            f"word/{kind}s.xml", f'<w:{kind}s xmlns:w="{W}">{separator}{entries}</w:{kind}s>'
        )
    return path


def _numbered(paragraphs: list[str], note: str = "{}", keep: bool = False) -> list[str]:
    """``paragraphs`` with each citation a ``{n}`` reference (kept before it if ``keep``)."""
    count = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return (match.group(0) if keep else "") + f"{{{count}}}"

    return [wne.CITATION.sub(swap, p) for p in paragraphs]


SOURCES = [source for _, source in wr.citations(REPORT)]


def _problems(path: Path) -> tuple[str, str]:
    return wne.footnotes_problem(path, WRITTEN), wne.body_problem(path, WRITTEN)


def test_the_right_word_copy_passes(tmp_path: Path) -> None:
    path = _word(tmp_path / "good.docx", _numbered(WRITTEN), SOURCES)
    assert _problems(path) == ("", "")


def test_small_differences_pass(tmp_path: Path) -> None:
    """The mark after the full stop, a space left before it, a note with a final stop."""
    body = [p.replace("{1}.", ".{1}").replace("{2}", " {2}") for p in _numbered(WRITTEN)]
    notes = [SOURCES[0] + ".", *SOURCES[1:]]
    path = _word(tmp_path / "loose.docx", body, notes)
    assert _problems(path) == ("", "")


def test_endnotes_fail(tmp_path: Path) -> None:
    path = _word(tmp_path / "end.docx", _numbered(WRITTEN), SOURCES, kind="endnote")
    notes, body = _problems(path)
    assert notes == f"its {len(SOURCES)} notes are endnotes, not footnotes"
    assert body.startswith("paragraph 3 reads")


def test_citations_kept_in_the_text_fail(tmp_path: Path) -> None:
    path = _word(tmp_path / "kept.docx", _numbered(WRITTEN, keep=True), SOURCES)
    notes, body = _problems(path)
    assert notes == ""
    assert body == f"the text still holds the citation '[Source: {SOURCES[0]}]'"


def test_a_missed_citation_fails(tmp_path: Path) -> None:
    missed = 1
    body = _numbered(WRITTEN)
    body = [
        p.replace("{2}", " [Source: " + SOURCES[missed] + "]")
        .replace("{3}", "{2}")
        .replace("{4}", "{3}")
        .replace("{5}", "{4}")
        .replace("{6}", "{5}")
        for p in body
    ]
    path = _word(tmp_path / "missed.docx", body, SOURCES[:missed] + SOURCES[missed + 1 :])
    notes, text = _problems(path)
    assert notes.startswith(f"citation 2 ({SOURCES[missed]!r}) has no footnote")
    assert text.startswith("the text still holds the citation")


def test_notes_keeping_source_and_brackets_fail(tmp_path: Path) -> None:
    path = _word(tmp_path / "source.docx", _numbered(WRITTEN), [f"[Source: {s}]" for s in SOURCES])
    notes, body = _problems(path)
    assert notes.endswith("(the source alone, without 'Source:' and the brackets)")
    assert body == ""


def test_a_note_in_the_wrong_place_fails(tmp_path: Path) -> None:
    body = [p.replace("at weekends{2}", "at{2} weekends") for p in _numbered(WRITTEN)]
    path = _word(tmp_path / "moved.docx", body, SOURCES)
    notes, text = _problems(path)
    assert notes == ""
    assert text.startswith(
        "paragraph 7 reads 'Footfall on the high street fell on weekdays but grew "
        "at\u2020 weekends,"
    )


def test_the_other_bracket_removed_fails(tmp_path: Path) -> None:
    body = [p.replace(" [see the Outlook section]", "") for p in _numbered(WRITTEN)]
    path = _word(tmp_path / "bracket.docx", body, SOURCES)
    assert _problems(path)[1] == (
        "the bracket '[see the Outlook section]' is gone: only the [Source: ...] citations go"
    )


def test_an_odt_under_the_docx_name_is_no_word_document(tmp_path: Path) -> None:
    path = tmp_path / "report.docx"
    write_agreement(path, REPORT.title, wr.blocks(REPORT))
    assert (
        _problems(path)
        == ("report.docx is an OpenDocument text document, not a Word document",) * 2
    )


# ------------------------------------------------------- LibreOffice's export
@pytest.mark.integration
def test_libreoffice_s_word_export_of_the_right_edit_passes(tmp_path: Path) -> None:
    """The reference's result as LibreOffice writes it: footnotes (text:note) in the .odt,
    exported to .docx by soffice; the report as it was fails."""
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("needs LibreOffice (soffice)")
    from odf.opendocument import OpenDocumentText
    from odf.text import Note, NoteBody, NoteCitation, P

    document = OpenDocumentText()
    count = 0
    for text in WRITTEN:
        paragraph = P()
        at = 0
        for match in wne.CITATION.finditer(text):
            count += 1
            paragraph.addText(text[at : match.start()])
            note = Note(id=f"ftn{count}", noteclass="footnote")
            note.addElement(NoteCitation(text=str(count)))
            note_body = NoteBody()
            note_body.addElement(P(text=match.group(1)))
            note.addElement(note_body)
            paragraph.addElement(note)
            at = match.end()
        paragraph.addText(text[at:])
        document.text.addElement(paragraph)
    document.save(str(tmp_path / "noted.odt"))
    write_agreement(tmp_path / "original.odt", REPORT.title, wr.blocks(REPORT))
    home = tmp_path / "home"
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{home}/profile",
            "--headless",
            "--norestore",
            "--convert-to",
            "docx",
            "--outdir",
            str(tmp_path),
            str(tmp_path / "noted.odt"),
            str(tmp_path / "original.odt"),
        ],
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert _problems(tmp_path / "noted.docx") == ("", "")
    notes, body = _problems(tmp_path / "original.docx")
    assert notes.startswith("citation 1 (") and "has no footnote" in notes
    assert body.startswith("the text still holds the citation")
