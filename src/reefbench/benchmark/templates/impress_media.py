"""reef-v2's Impress template of finishing a quarterly review deck with media: a picture
from a file, a table of figures on a new slide, and the PDF of the result (hard tier).

:data:`IMPRESS_PICTURE_TABLE`: a colleague's PowerPoint deck of six slides; in ~/Pictures
three pictures of one subject with names that leave a real choice (this year's, last
year's, and a draft of this year's in a subfolder, each a different colour and size);
a CSV file in ~/Documents holds the quarter's figures per region (a header row, four or
five regions, two figures each). The instruction asks for the named picture on a named
slide, a new slide with a given title right after a named slide holding an Impress table
of the figures (the header row, then a row per region in the file's order), the deck saved
as an OpenDocument presentation and the finished deck exported as PDF. The saved deck is
checked through odfpy (:mod:`reefbench.envs.desktop.impress_media_evaluators`): the
slides' titles in order, the picture on its slide by its pixels, the table's cells; the
PDF through pypdf: a page per slide showing its title, the new slide's page showing its
figures, the picture's page drawing a picture. Near misses: last year's picture, the
picture on the slide before, the new slide at the end of the deck, the figures typed as
text instead of a table, the PDF exported before the changes.

The reference opens the deck through Impress's Open dialog, walks the slides with Page
Up/Down, inserts the picture through Insert > Image... (the path typed in the file
dialog), adds the slide with Slide > New Slide (its title typed into the title
placeholder: Tab selects it, Enter edits it), inserts the table through Insert >
Table... and types its cells with Tab between them, saves as ``.odp`` through Save As and
exports through File > Export As > Export as PDF....
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.impress import _open_in_impress
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import export_pdf_menu
from reefbench.envs.desktop import impress_media_evaluators as me
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
IMPRESS_INTENT = "prepare a presentation on the computer"

# Each deck: its file, then "Title|bullet|bullet" per slide, the cover first.
DECKS = [
    "Quarterly Review Q3 2026|Northwind Logistics;"
    "Highlights|Revenue up 6 percent|Two new depots;"
    "Regional results|Every region above plan|South leads growth;"
    "Warehouse extension|Building finished in August|Racking installed;"
    "Customer service|Complaints down 10 percent;"
    "Next quarter|Open the new loading bay",
    "Quarterly Review Q2 2026|Greenfield Energy;"
    "Summary|Output up 9 percent;"
    "Solar farm site|Panels on the east field|Grid link in July;"
    "Results by region|Installations ahead of plan;"
    "Staffing|Four engineers hired;"
    "Risks|Panel prices rising",
    "Quarterly Review Q1 2026|Harbour Foods;"
    "Key points|Sales up 4 percent|Margins steady;"
    "Sales by region|North recovering;"
    "Quality|Two audits passed;"
    "New production line|Installed in February|Full speed in April;"
    "Outlook|Export licence expected",
    "Quarterly Review Q4 2026|Atlas Retail;"
    "Overview|Best December on record;"
    "Store refit|Riverside store reopened|New tills;"
    "Online|Orders up 15 percent;"
    "Regional performance|Coastal stores strongest;"
    "Priorities for next year|Two more refits",
]

# Each record: the deck, its file stem, the slide for the picture, the slide the new one
# follows and its title; the pictures' stem with this year's and last year's suffixes and
# their colours; the figures (CSV lines, the header first).
RECORDS = [
    (
        0,
        "q3-review",
        "Warehouse extension",
        "Regional results",
        "Q3 figures by region",
        "warehouse",
        ("2026", "2025"),
        ("teal", "orange", "purple"),
        "Region,Revenue (EUR),Orders\nNorth,18450,312\nSouth,22310,398\n"
        "East,15920,276\nWest,19875,341\nCentral,12640,205",
    ),
    (
        1,
        "q2-review",
        "Solar farm site",
        "Results by region",
        "Q2 figures by region",
        "solar-farm",
        ("june", "march"),
        ("navy", "gold", "green"),
        "Region,Installations,Output (MWh)\nHighlands,42,1860\nLowlands,57,2415\n"
        "Coast,35,1290\nIslands,18,640",
    ),
    (
        2,
        "q1-review",
        "New production line",
        "Sales by region",
        "Q1 sales by region",
        "production-line",
        ("2026", "2025"),
        ("maroon", "skyblue", "olive"),
        "Region,Sales (GBP),Customers\nNorth,31200,148\nMidlands,27450,131\n"
        "South East,40980,187\nSouth West,22340,96\nWales,15760,71",
    ),
    (
        3,
        "q4-review",
        "Store refit",
        "Regional performance",
        "Q4 results by region",
        "riverside-store",
        ("after", "before"),
        ("crimson", "steelblue", "darkgreen"),
        "Region,Revenue (USD),Stores\nCoastal,58400,12\nInland,41750,9\n"
        "Metro,66230,15\nRural,23980,7",
    ),
]

SIZES = ((480, 320), (400, 300), (520, 360))


def _slides(deck: str) -> list[list[str]]:
    return [slide.split("|") for slide in deck.split(";")]


def _titles(deck: str) -> list[str]:
    return [s[0] for s in _slides(deck)]


def figure_rows(figures: str) -> list[list[str]]:
    """The figures file's rows (the header first), each a list of cell texts."""
    return [line.split(",") for line in figures.split("\n")]


def final_titles(deck: str, after: str, table_title: str) -> list[str]:
    """The deck's titles with the new slide right after ``after``."""
    titles = _titles(DECKS[int(deck)])
    at = titles.index(after) + 1
    return [*titles[:at], table_title, *titles[at:]]


PICTURE_RECORDS = [
    {
        "source": f"~/Documents/{stem}.pptx",
        "path": f"~/Documents/{stem}.odp",
        "pdf": f"~/Documents/{stem}.pdf",
        "figures": f"~/Documents/{stem}-figures.csv",
        "picture": f"~/Pictures/{subject}-{new}.png",
        "older": f"~/Pictures/{subject}-{old}.png",
        "draft": f"~/Pictures/drafts/{subject}-{new}.png",
        "colours": " ".join(colours),
        "deck": str(d),
        "photo_slide": photo,
        "after": after,
        "table_title": table,
        "table": figures,
    }
    for d, stem, photo, after, table, subject, (new, old), colours, figures in RECORDS
]


def picture_setup(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionStep]:
    slides = _slides(DECKS[int(deck)])
    pictures = [
        hp.draw_picture(path=p, width=w, height=h, color=c)
        for p, (w, h), c in zip((picture, older, draft), SIZES, colours.split(), strict=True)
    ]
    return [
        ActionStep(env=D, action=st.create_presentation(path=source, slides=slides)),
        ActionStep(env=D, action=st.create_file(path=figures, content=table + "\n")),
        *(ActionStep(env=D, action=p) for p in pictures),
    ]


def picture_checkpoints(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[Evaluator]:
    titles = final_titles(deck, after, table_title)
    rows = figure_rows(table)
    shown = [table_title, *(row[0] for row in rows[1:]), *rows[1][1:]]
    return [
        te.slide_titles(path=path, titles=titles),
        me.slide_picture(path=path, title=photo_slide, source=picture),
        me.slide_table(path=path, title=table_title, rows=rows),
        oe.saved_by_libreoffice(path=path),
        te.pdf_pages(path=pdf, titles=titles),
        me.pdf_page_content(path=pdf, number=titles.index(table_title) + 1, texts=shown),
        me.pdf_page_content(path=pdf, number=titles.index(photo_slide) + 1, texts=[], pictures=1),
    ]


def _goto(at: int, index: int) -> list[ActionCall]:
    """From slide ``at`` to slide ``index`` (both from 0) with Page Down / Page Up."""
    key = "pagedown" if index > at else "pageup"
    return [call(D, "press", key=key)] * abs(index - at)


def _insert_picture(picture: str) -> list[ActionCall]:
    """Insert > Image..., the path typed in the file dialog; the picture left unselected."""
    return [
        *desktop_menu("Insert", "Image..."),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(picture)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
        call(D, "press", key="escape"),
    ]


def _new_slide(title: str) -> list[ActionCall]:
    """Slide > New Slide (after the current one), its title typed into the title
    placeholder (Tab selects it, Enter edits it)."""
    return [
        *desktop_menu("Slide", "New Slide"),
        wait(),
        call(D, "press", key="tab"),
        call(D, "press", key="enter"),
        call(D, "write_text", text=title),
        call(D, "press", key="escape"),
        call(D, "press", key="escape"),
    ]


def _insert_table(rows: list[list[str]]) -> list[ActionCall]:
    """Insert > Table... with the rows and columns set, the cells typed with Tab between
    them (Tab in the last cell would add a row)."""
    return [
        *desktop_menu("Insert", "Table..."),
        wait(),
        call(D, "click_on", name="Number of columns", role="spin button"),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=str(len(rows[0]))),
        call(D, "click_on", name="Number of rows", role="spin button"),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=str(len(rows))),
        call(D, "click_on", name="OK", role="push button"),
        wait(),
        # The new table is selected as an object: F2 edits its first cell (typing would
        # not, and Tab would select the next object).
        call(D, "press", key="f2"),
        call(D, "write_text", text="\t".join(c for row in rows for c in row)),
        call(D, "press", key="escape"),
        call(D, "press", key="escape"),
    ]


def _typed_rows(rows: list[list[str]]) -> list[ActionCall]:
    """The figures typed as lines of text into the content placeholder (no table)."""
    return [
        call(D, "press", key="tab"),
        call(D, "press", key="tab"),
        call(D, "press", key="enter"),
        call(D, "write_text", text="\n".join("  ".join(row) for row in rows)),
        call(D, "press", key="escape"),
        call(D, "press", key="escape"),
    ]


def _save_as(path: str) -> list[ActionCall]:
    """File > Save As (Ctrl+Shift+S) under a name ending .odp; Impress stays open."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(path)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
    ]


def _quit() -> list[ActionCall]:
    return [call(D, "hotkey", keys=["ctrl", "q"]), wait()]


def _edits(
    deck: str,
    picture: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
    *,
    after_slide: str = "",
    photo_on: str = "",
    as_text: bool = False,
) -> list[ActionCall]:
    """From slide 1: the picture on ``photo_on`` (default the asked slide), then the new
    slide after ``after_slide`` (default the asked one) with the table (or its rows as
    text)."""
    titles = _titles(DECKS[int(deck)])
    photo_at = titles.index(photo_on or photo_slide)
    after_at = titles.index(after_slide or after)
    rows = figure_rows(table)
    content = _typed_rows(rows) if as_text else _insert_table(rows)
    return [
        *_goto(0, photo_at),
        *_insert_picture(picture),
        *_goto(photo_at, after_at),
        *_new_slide(table_title),
        *content,
    ]


def picture_solution(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    edits = _edits(deck, picture, photo_slide, after, table_title, table)
    return [*_open_in_impress(source), *edits, *_save_as(path), *export_pdf_menu(pdf), *_quit()]


def picture_older(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    """Near miss: last year's picture of the subject instead of the one named."""
    edits = _edits(deck, older, photo_slide, after, table_title, table)
    return [*_open_in_impress(source), *edits, *_save_as(path), *export_pdf_menu(pdf), *_quit()]


def picture_slide_before(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    """Near miss: the picture on the slide before the one named."""
    titles = _titles(DECKS[int(deck)])
    before = titles[titles.index(photo_slide) - 1]
    edits = _edits(deck, picture, photo_slide, after, table_title, table, photo_on=before)
    return [*_open_in_impress(source), *edits, *_save_as(path), *export_pdf_menu(pdf), *_quit()]


def picture_table_at_end(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    """Near miss: the new slide added at the end of the deck."""
    last = _titles(DECKS[int(deck)])[-1]
    edits = _edits(deck, picture, photo_slide, after, table_title, table, after_slide=last)
    return [*_open_in_impress(source), *edits, *_save_as(path), *export_pdf_menu(pdf), *_quit()]


def picture_table_as_text(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    """Near miss: the figures typed as lines of text on the new slide, no table."""
    edits = _edits(deck, picture, photo_slide, after, table_title, table, as_text=True)
    return [*_open_in_impress(source), *edits, *_save_as(path), *export_pdf_menu(pdf), *_quit()]


def picture_early_pdf(
    source: str,
    path: str,
    pdf: str,
    figures: str,
    picture: str,
    older: str,
    draft: str,
    colours: str,
    deck: str,
    photo_slide: str,
    after: str,
    table_title: str,
    table: str,
) -> list[ActionCall]:
    """Near miss: the PDF exported as the deck was, before the changes."""
    edits = _edits(deck, picture, photo_slide, after, table_title, table)
    return [*_open_in_impress(source), *export_pdf_menu(pdf), *edits, *_save_as(path), *_quit()]


IMPRESS_PICTURE_TABLE = SubTask(
    id="desktop.impress_picture_table",
    description=(
        "Finish the quarterly review deck {source} in Impress. On the slide titled "
        '"{photo_slide}", insert the picture {picture}, stored in the deck (not linked). '
        'Add a new slide titled "{table_title}" straight after the slide "{after}", and on '
        "it an Impress table (not text boxes) of the figures in {figures}: the file's "
        "header row, then one row per region in the file's order, every value as in the "
        "file. Leave the other slides as they are. Save the deck as an OpenDocument "
        "presentation, {path}, and export the finished deck, every slide, as a PDF, {pdf}."
    ),
    attributes={
        "source": "desktop_file",
        "path": "desktop_file",
        "pdf": "desktop_file",
        "figures": "desktop_file",
        "picture": "desktop_file",
        "older": "desktop_file",
        "draft": "desktop_file",
        "colours": "str",
        "deck": "str",
        "photo_slide": "text",
        "after": "text",
        "table_title": "text",
        "table": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[IMPRESS_INTENT],
    value_records=PICTURE_RECORDS,
    setup_generator=picture_setup,
    evaluator_generator=picture_checkpoints,
    solution_generator=picture_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("inserts last year's picture", solution=picture_older),
        NearMiss("puts the picture on the slide before", solution=picture_slide_before),
        NearMiss("adds the new slide at the end", solution=picture_table_at_end),
        NearMiss("types the figures as text, not a table", solution=picture_table_as_text),
        NearMiss("exports the PDF before the changes", solution=picture_early_pdf),
    ],
)

TEMPLATES: list[SubTask] = [IMPRESS_PICTURE_TABLE]
