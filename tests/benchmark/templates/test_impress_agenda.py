"""reef-v2's PDF-extract Impress template: its tasks pass the static gates, near misses
differ from the reference, the note names the newer slide only by its age, the PDF range
is written as the export dialog reads it, and the PDF check fails on wrong exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import impress_agenda as ia
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.tasks.subtask import SubTask
from reefbench.validation.gates import static_problems


@pytest.mark.parametrize("template", ia.TEMPLATES, ids=lambda t: t.id)
def test_tasks_pass_the_static_gates_and_near_misses_differ(template: SubTask) -> None:
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    assert template.near_misses
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_slide_numbers_become_the_dialog_s_ranges() -> None:
    assert ia._ranges([7, 2, 5, 6]) == "2,5-7"
    assert ia._ranges([3]) == "3"
    for record in ia.EXTRACT_RECORDS:
        numbers = ia._numbers(record["asked"])
        assert 1 not in numbers  # the cover is never asked for
        # The note lists them out of the deck's order; the span near miss adds slides.
        assert numbers != sorted(numbers)
        assert max(numbers) - min(numbers) + 1 > len(numbers)


@pytest.mark.parametrize("record", ia.EXTRACT_RECORDS, ids=lambda r: r["pdf"])
def test_the_note_names_the_versioned_slide_only_by_its_age(record: dict[str, str]) -> None:
    deck = int(record["deck"])
    titles = ia._titles(ia.DECKS[deck][1])
    asked = ia._order(record["asked"])
    hidden, newer, older = (int(record[k]) for k in ("hidden", "newer", "older"))
    assert hidden in asked and newer in asked and older not in asked and hidden != newer
    note = ia.extract_note(deck, record["pdf"], record["sender"], record["asked"], record["newer"])
    assert titles[newer] not in note and titles[older] not in note
    assert f"newer of the two {ia.DECKS[deck][2]} slides" in note
    assert all(f'"{titles[i]}"' in note for i in asked if i != newer)
    # No asked title is part of another slide's title (the PDF check reads page text).
    for i in asked:
        assert not any(titles[i] in t for j, t in enumerate(titles) if j != i)


def _pdf(path: Path, pages: list[str]) -> None:
    """A PDF with one page per text (a minimal content stream each, written by pypdf)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    for text in pages:
        page = writer.add_blank_page(width=842, height=595)
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 24 Tf 72 500 Td ({text}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
    with path.open("wb") as handle:
        writer.write(handle)


def test_pdf_pages_check(tmp_path: Path) -> None:
    path = tmp_path / "extract.pdf"
    _pdf(path, ["Income", "Reserves"])
    assert te.pdf_pages_problem(path, ["Income", "Reserves"]) == ""
    assert "not 3" in te.pdf_pages_problem(path, ["Income", "Staff", "Reserves"])
    assert "page 1 does not show 'Reserves'" in te.pdf_pages_problem(path, ["Reserves", "Income"])
