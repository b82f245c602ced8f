"""reef-v2's picture-and-table Impress template: its tasks pass the static gates, near
misses differ from the reference, the records leave a real choice of picture, and the
checker (:mod:`reefbench.envs.desktop.impress_media_evaluators`) passes a finished deck
and fails each near miss's file with its own message: the wrong picture, the picture on
another slide or only linked, the figures typed as text, a wrong figure, the new slide
in the wrong place, and a PDF exported before the changes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import impress_media as im
from reefbench.envs.desktop import impress_media_evaluators as me
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.validation.gates import static_problems

pytest.importorskip("odf")
pytest.importorskip("PIL")

RECORD = im.PICTURE_RECORDS[0]
ROWS = im.figure_rows(RECORD["table"])
TITLES = im.final_titles(RECORD["deck"], RECORD["after"], RECORD["table_title"])
PHOTO = RECORD["photo_slide"]
TABLE = RECORD["table_title"]


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = im.IMPRESS_PICTURE_TABLE
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    assert len(template.near_misses) == 5
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


@pytest.mark.parametrize("record", im.PICTURE_RECORDS, ids=lambda r: r["path"])
def test_records_leave_a_choice_and_place_the_new_slide(record: dict[str, str]) -> None:
    pictures = [record["picture"], record["older"], record["draft"]]
    assert len(set(pictures)) == 3 and len(set(record["colours"].split())) == 3
    # the draft has the asked picture's name, in another folder
    assert Path(record["draft"]).name == Path(record["picture"]).name
    rows = im.figure_rows(record["table"])
    assert len(rows[0]) == 3 and 4 <= len(rows) - 1 <= 5
    assert all(len(r) == 3 for r in rows)
    titles = im.final_titles(record["deck"], record["after"], record["table_title"])
    assert titles[titles.index(record["after"]) + 1] == record["table_title"]
    assert record["photo_slide"] in titles and 6 <= len(titles) - 1 <= 7
    steps = im.picture_setup(**record)
    drawn = [s.action.bound["path"] for s in steps if s.action.name == "draw_picture"]
    assert drawn == pictures


# ------------------------------------------------------------------- files
def _png(path: Path, colour: str, size: tuple[int, int] = (480, 320)) -> Path:
    from PIL import Image

    Image.new("RGB", size, colour).save(path, format="PNG")
    return path


def _deck(
    path: Path,
    titles: list[str],
    picture: Path | None = None,
    picture_on: str = PHOTO,
    table_on: str = TABLE,
    rows: list[list[str]] | None = None,
    as_text: bool = False,
    linked: bool = False,
) -> Path:
    """A deck of one title frame per slide; ``picture`` on ``picture_on`` (stored, or
    linked), ``rows`` on ``table_on`` as a table (or as one text box per row)."""
    from odf import draw, presentation, style, table, text
    from odf.namespaces import PRESENTATIONNS
    from odf.opendocument import OpenDocumentPresentation

    doc = OpenDocumentPresentation()
    page_layout = style.PageLayout(name="PM1")
    page_layout.addElement(style.PageLayoutProperties(pagewidth="28cm", pageheight="21cm"))
    doc.automaticstyles.addElement(page_layout)
    master = style.MasterPage(name="Default", pagelayoutname=page_layout)
    doc.masterstyles.addElement(master)
    layout = style.PresentationPageLayout(name="AL1T0")
    layout.addElement(
        presentation.Placeholder(object="title", x="2cm", y="1cm", width="24cm", height="3cm")
    )
    doc.styles.addElement(layout)
    for number, title in enumerate(titles, 1):
        page = draw.Page(
            name=f"Slide {number}", masterpagename=master, presentationpagelayoutname="AL1T0"
        )
        frame = draw.Frame(width="24cm", height="3cm", x="2cm", y="1cm")
        frame.setAttrNS(PRESENTATIONNS, "class", "title")
        box = draw.TextBox()
        box.addElement(text.P(text=title))
        frame.addElement(box)
        page.addElement(frame)
        if picture is not None and title == picture_on:
            href = f"file://{picture}" if linked else doc.addPicture(str(picture))
            holder = draw.Frame(width="8cm", height="6cm", x="2cm", y="6cm")
            holder.addElement(draw.Image(href=href))
            page.addElement(holder)
        if rows is not None and title == table_on:
            if as_text:
                for index, row in enumerate(rows):
                    line = draw.Frame(width="20cm", height="1cm", x="2cm", y=f"{5 + index}cm")
                    lbox = draw.TextBox()
                    lbox.addElement(text.P(text="  ".join(row)))
                    line.addElement(lbox)
                    page.addElement(line)
            else:
                holder = draw.Frame(width="20cm", height="8cm", x="2cm", y="5cm")
                grid = table.Table()
                grid.addElement(table.TableColumn(numbercolumnsrepeated=len(rows[0])))
                for row in rows:
                    tr = table.TableRow()
                    for cell in row:
                        tc = table.TableCell()
                        tc.addElement(text.P(text=cell))
                        tr.addElement(tc)
                    grid.addElement(tr)
                holder.addElement(grid)
                page.addElement(holder)
        doc.presentation.addElement(page)
    doc.save(str(path))
    return path


@pytest.fixture
def photos(tmp_path: Path) -> tuple[Path, Path]:
    """The asked picture and last year's (another colour and size)."""
    return _png(tmp_path / "asked.png", "teal"), _png(tmp_path / "old.png", "orange", (400, 300))


def _good(tmp_path: Path, photo: Path, **changes: object) -> Path:
    arguments: dict[str, object] = {"picture": photo, "rows": ROWS, **changes}
    return _deck(tmp_path / "deck.odp", TITLES, **arguments)  # type: ignore[arg-type]


def test_the_finished_deck_passes(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _good(tmp_path, photos[0])
    assert te.titles_problem(deck, TITLES) == ""
    assert me.picture_problem(deck, PHOTO, photos[0]) == ""
    assert me.table_problem(deck, TABLE, ROWS) == ""


def test_figures_compare_as_numbers_and_empty_cells_are_ignored(
    tmp_path: Path, photos: tuple[Path, Path]
) -> None:
    separated = [[f"{int(c):,}" if c.isdigit() else c for c in row] + [""] for row in ROWS]
    deck = _good(tmp_path, photos[0], rows=[*separated, ["", "", "", ""]])
    assert separated[1][1] == "18,450"
    assert me.table_problem(deck, TABLE, ROWS) == ""


def test_a_wrong_figure_fails(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    wrong = [list(r) for r in ROWS]
    wrong[2][1] = "22130"
    deck = _good(tmp_path, photos[0], rows=wrong)
    assert "the table on slide" in me.table_problem(deck, TABLE, ROWS)


def test_the_wrong_picture_fails(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _good(tmp_path, photos[1])
    problem = me.picture_problem(deck, PHOTO, photos[0], "~/Pictures/warehouse-2026.png")
    assert problem.startswith(f"the picture on slide {PHOTO!r} is not ~/Pictures/warehouse")


def test_the_picture_on_another_slide_fails(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _good(tmp_path, photos[0], picture_on=RECORD["after"])
    assert me.picture_problem(deck, PHOTO, photos[0]) == f"slide {PHOTO!r} has no picture"


def test_a_linked_picture_fails(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _good(tmp_path, photos[0], linked=True)
    assert "is linked to file://" in me.picture_problem(deck, PHOTO, photos[0])


def test_figures_typed_as_text_fail(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _good(tmp_path, photos[0], as_text=True)
    assert me.table_problem(deck, TABLE, ROWS).startswith(f"slide {TABLE!r} has no table")


def test_the_new_slide_in_the_wrong_place_fails(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    original = [t for t in TITLES if t != TABLE]
    at_end = [*original, TABLE]
    deck = _deck(tmp_path / "deck.odp", at_end, picture=photos[0], rows=ROWS)
    assert me.table_problem(deck, TABLE, ROWS) == ""  # the table is right ...
    assert "its slides are titled" in te.titles_problem(deck, TITLES)  # ... its place not


def test_a_missing_slide_is_named(tmp_path: Path, photos: tuple[Path, Path]) -> None:
    deck = _deck(tmp_path / "deck.odp", [t for t in TITLES if t != TABLE], picture=photos[0])
    assert me.table_problem(deck, TABLE, ROWS).startswith(f"it has no slide titled {TABLE!r}")


# --------------------------------------------------------------------- PDF
SOFFICE = shutil.which("soffice")


def _pdf(deck: Path, home: Path) -> Path:
    """The deck exported to PDF by LibreOffice (a private profile)."""
    out = home / "out"
    command = [
        str(SOFFICE),
        f"-env:UserInstallation=file://{home}/profile",
        "--headless",
        "--norestore",
        "--convert-to",
        "pdf",
        "--outdir",
        str(out),
        str(deck),
    ]
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    subprocess.run(command, env=env, capture_output=True, timeout=180, check=True)
    return out / f"{deck.stem}.pdf"


@pytest.mark.integration
@pytest.mark.skipif(SOFFICE is None, reason="needs LibreOffice (soffice)")
def test_the_pdf_of_the_finished_deck_passes_and_an_early_one_fails(
    tmp_path: Path, photos: tuple[Path, Path]
) -> None:
    shown = [TABLE, *(r[0] for r in ROWS[1:]), *ROWS[1][1:]]
    table_page, photo_page = TITLES.index(TABLE) + 1, TITLES.index(PHOTO) + 1
    # typed with thousands separators: the page's text runs cells together ("18,450312")
    separated = [[f"{int(c):,}" if c.isdigit() else c for c in row] for row in ROWS]
    pdf = _pdf(_good(tmp_path, photos[0], rows=separated), tmp_path / "soffice")
    assert te.pdf_pages_problem(pdf, TITLES) == ""
    assert me.pdf_content_problem(pdf, table_page, shown) == ""
    assert me.pdf_content_problem(pdf, photo_page, [], pictures=1) == ""
    # exported before the changes: one page short, no picture where it goes
    original = [t for t in TITLES if t != TABLE]
    early = _pdf(_deck(tmp_path / "early.odp", original), tmp_path / "soffice")
    assert te.pdf_pages_problem(early, TITLES) == f"it has {len(original)} pages, not {len(TITLES)}"
    at = original.index(PHOTO) + 1
    assert me.pdf_content_problem(early, at, [], pictures=1) == f"its page {at} shows no picture"
    assert me.pdf_content_problem(early, table_page, shown).startswith(
        f"its page {table_page} does not show"
    )
