"""Presentations read alike from ``.odp`` and ``.pptx``. A deck built with python-pptx (a
title slide with speaker notes, a title-and-content slide with two bullet levels and a
picture from a file, a title-only slide with a table and a chart) is opened by real
LibreOffice and saved as ``.odp``, which LibreOffice exports again as ``.pptx``: both
readers must find every feature in what LibreOffice wrote, and in the original.

(An ``.odp`` built with odfpy is not used here: LibreOffice binds a frame to a placeholder
only through the master page's presentation objects, which odfpy does not write; reef-v1's
tests in tests/envs/desktop/test_documents.py read such a hand-built deck.)"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("odf")
pytest.importorskip("pptx")

from reefbench.documents import Presentation, read_presentation

Convert = Callable[[list[Path], str], list[Path]]


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def build_pptx(path: Path) -> Path:
    import pptx
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Cm

    deck = pptx.Presentation()
    opening = deck.slides.add_slide(deck.slide_layouts[0])
    opening.shapes.title.text = "Tea report"
    opening.placeholders[1].text = "March 2024"
    opening.notes_slide.notes_text_frame.text = "Say hello."
    agenda = deck.slides.add_slide(deck.slide_layouts[1])
    agenda.shapes.title.text = "Agenda"
    body = agenda.placeholders[1].text_frame
    body.text = "Costs"
    for words, level in (("Plans", 0), ("Q3 hires", 1)):
        paragraph = body.add_paragraph()
        paragraph.text, paragraph.level = words, level
    picture_file = path.parent / "logo.png"
    picture_file.write_bytes(_png())
    agenda.shapes.add_picture(str(picture_file), Cm(20), Cm(1), Cm(2), Cm(2)).name = "Logo"
    numbers = deck.slides.add_slide(deck.slide_layouts[5])
    numbers.shapes.title.text = "Numbers"
    grid = numbers.shapes.add_table(2, 2, Cm(1), Cm(5), Cm(8), Cm(2)).table
    for row, values in enumerate((("Item", "Cost"), ("Tea", "3"))):
        for column, value in enumerate(values):
            grid.cell(row, column).text = value
    data = CategoryChartData()
    data.categories = ["Q1", "Q2"]
    data.add_series("Sales", (10, 20))
    frame = numbers.shapes.add_chart(XL_CHART_TYPE.LINE, Cm(12), Cm(5), Cm(10), Cm(6), data)
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Trend"
    deck.save(str(path))
    return path


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory, convert: Convert) -> dict[str, Path]:
    """python-pptx's original, LibreOffice's ``.odp`` of it, and LibreOffice's ``.pptx``
    export of that ``.odp``."""
    source = build_pptx(tmp_path_factory.mktemp("impress") / "deck.pptx")
    (odp,) = convert([source], "odp")
    (pptx,) = convert([odp], "pptx")
    return {"python-pptx": source, "odp": odp, "pptx": pptx}


FORMATS = ["python-pptx", "odp", "pptx"]


def _read(decks: dict[str, Path], fmt: str) -> Presentation:
    return read_presentation(decks[fmt])


@pytest.mark.parametrize("fmt", FORMATS)
def test_slides_titles_layouts_and_notes(decks: dict[str, Path], fmt: str) -> None:
    deck = _read(decks, fmt)
    assert ("LibreOffice" in deck.generator) == (fmt != "python-pptx")
    assert [(s.title, s.layout) for s in deck.slides] == [
        ("Tea report", "Title Slide"),
        ("Agenda", "Title, Content"),
        ("Numbers", "Title Only"),
    ]
    assert deck.slides[0].notes == "Say hello." and deck.slides[1].notes == ""
    assert "March 2024" in deck.slides[0].texts


@pytest.mark.parametrize("fmt", FORMATS)
def test_bullets_with_their_levels(decks: dict[str, Path], fmt: str) -> None:
    bullets = _read(decks, fmt).slides[1].bullets
    assert [(b.text, b.level) for b in bullets] == [("Costs", 1), ("Plans", 1), ("Q3 hires", 2)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_pictures_tables_and_charts(decks: dict[str, Path], fmt: str) -> None:
    slides = _read(decks, fmt).slides
    (picture,) = slides[1].pictures
    assert picture.name == "Logo" and picture.image.endswith(".png")
    assert slides[0].pictures == () and slides[2].pictures == ()
    assert [t.rows for t in slides[2].tables] == [(("Item", "Cost"), ("Tea", "3"))]
    (found,) = slides[2].charts
    assert (found.kind, found.title, found.series) == ("line", "Trend", ("Sales",))
    assert slides[1].charts == () and slides[1].tables == ()


def test_a_blank_slide_and_a_column_chart(tmp_path: Path) -> None:
    import pptx
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Cm

    deck = pptx.Presentation()
    blank = deck.slides.add_slide(deck.slide_layouts[6])
    data = CategoryChartData()
    data.categories = ["A", "B"]
    data.add_series("Units", (3, 5))
    kind = XL_CHART_TYPE.BAR_CLUSTERED
    blank.shapes.add_chart(kind, Cm(1), Cm(1), Cm(8), Cm(6), data)
    path = tmp_path / "blank.pptx"
    deck.save(str(path))

    (slide,) = read_presentation(path).slides
    assert (slide.name, slide.title, slide.layout, slide.bullets) == (
        "Slide 1",
        "",
        "Blank Slide",
        (),
    )
    assert [(c.kind, c.title, c.series) for c in slide.charts] == [("bar", "", ("Units",))]
