"""reef-v2's note-driven Impress templates: their tasks pass the static gates, near misses
differ from the reference, the reordering plan leaves the deck in the agenda's order, the
PDF range is written as the export dialog reads it, and the PDF check fails on wrong
exports."""

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


@pytest.mark.parametrize("record", ia.AGENDA_RECORDS, ids=lambda r: r["path"])
def test_sending_each_item_to_the_end_gives_the_agenda_order(record: dict[str, str]) -> None:
    titles = ia._titles(record["deck"])
    order = [titles[i] for i in ia._order(record["order"])]
    _, current = ia._reorder(titles, order, "Slide to End")
    cut = titles[int(record["cut"])]
    assert current == [titles[0], cut, *order]
    # The note names every slide but the cover and the cut one, each once.
    assert sorted([titles[0], cut, *order]) == sorted(titles)
    note = ia._agenda_note(
        record["deck"], record["sender"], tuple(ia._order(record["order"])), int(record["cut"])
    )
    assert all(f". {t}\n" in note for t in order) and f'cut "{cut}"' in note


def test_slide_numbers_become_the_dialog_s_ranges() -> None:
    assert ia._ranges([7, 2, 5, 6]) == "2,5-7"
    assert ia._ranges([3]) == "3"
    for record in ia.EXTRACT_RECORDS:
        numbers = ia._numbers(record["asked"])
        assert 1 not in numbers  # the cover is never asked for
        # The note lists them out of the deck's order; the span near miss adds slides.
        assert numbers != sorted(numbers)
        assert max(numbers) - min(numbers) + 1 > len(numbers)


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


def test_a_slide_already_at_the_end_is_not_moved() -> None:
    # Slide to End is disabled (and not listed) on the last slide: the plan skips it.
    steps, current = ia._reorder(["Cover", "A", "B"], ["B", "A"], "Slide to End")
    moves = [s for s in steps if s.arguments.get("name") == "Slide to End"]
    assert len(moves) == 1 and current == ["Cover", "B", "A"]
