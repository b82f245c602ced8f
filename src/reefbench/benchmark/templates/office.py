"""Office subtask templates: LibreOffice Calc, Writer and Impress on the desktop.

Reference solutions open the app by name (``search_app``), type into it, save through the
app's own Save dialog and quit. Checkpoints read the saved document through odfpy
(:mod:`reefbench.envs.desktop.office_evaluators`): a total is checked as a formula *and*
its value, a heading by its text *and* paragraph style, and the file as saved by
LibreOffice (a script writing ODF does not count).

These templates are kept out of :data:`~reefbench.benchmark.templates.POOL` on purpose:
reef-v1 is frozen data composed from that pool, and adding templates to it would change
which tasks synthesis draws. reef-v2's office family (:mod:`reefbench.benchmark.v2`)
plays them, one subtask per task (:func:`reefbench.benchmark.v2.single_task`).
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, expand
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.tasks.subtask import NearMiss, SubTask

D = "desktop"
OFFICE_INTENT = "prepare office documents on the computer"

SPREADSHEETS = [
    f"~/Documents/{name}.ods" for name in ("budget", "expenses", "scores", "orders", "hours")
]
TEXT_DOCUMENTS = [
    f"~/Documents/{name}.odt" for name in ("report", "minutes", "letter", "summary", "notes")
]
PRESENTATIONS = [
    f"~/Documents/{name}.odp" for name in ("pitch", "roadmap", "review", "kickoff", "training")
]
SLIDE_TITLES = ["Roadmap 2027", "Quarterly review", "Welcome aboard", "Launch plan", "Next steps"]
NUMBER_TRIPLES = ["12 7 30", "4 18 9", "15 15 8", "33 6 11", "9 27 3", "25 1 19"]
HEADINGS = ["Quarterly report", "Team minutes", "Project summary", "Travel plan", "Budget notes"]
PARAGRAPHS = [
    "Sales grew in May.",
    "The meeting moved to Friday.",
    "All tickets are booked.",
    "The roof repair is done.",
    "We need two more chairs.",
]


def saved_document(path: str, **_: str) -> str:
    """What every office template hands on: the path of the document it saved."""
    return path


def _numbers(numbers: str) -> list[int]:
    return [int(n) for n in numbers.split()]


def save_and_quit(path: str) -> list[ActionCall]:
    """Save the open document through the app's Save dialog as ``path``, then quit."""
    return [
        call(D, "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),  # the dialog takes the keyboard when it is drawn
        call(D, "write_text", text=expand(path)),
        # The name field completes the folder and the dialog enables Save only after
        # that (seconds on a loaded machine): two turns of slack before Enter.
        call("root", "wait"),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),  # and for the app to exit before anything reopens it
    ]


# ----------------------------------------------------------------------- Calc
def calc_total_checkpoints(path: str, numbers: str) -> list[Evaluator]:
    values = _numbers(numbers)
    cells = [
        oe.spreadsheet_cell(path=path, cell=f"A{row}", value=value)
        for row, value in enumerate(values, 1)
    ]
    total = oe.spreadsheet_cell(
        path=path, cell=f"A{len(values) + 1}", value=sum(values), formula="=SUM(A1:A3)"
    )
    return [*cells, total, oe.saved_by_libreoffice(path=path)]


def _calc_typing(numbers: str, total: str) -> str:
    return "".join(f"{n}\n" for n in _numbers(numbers)) + total + "\n"


def calc_total_solution(path: str, numbers: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "write_text", text=_calc_typing(numbers, "=SUM(A1:A3)")),
        *save_and_quit(path),
    ]


def calc_total_typed_value(path: str, numbers: str) -> list[ActionCall]:
    """Near miss: the total worked out by hand and typed as a number."""
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "write_text", text=_calc_typing(numbers, str(sum(_numbers(numbers))))),
        *save_and_quit(path),
    ]


CALC_TOTAL = SubTask(
    id="desktop.calc_total",
    description=(
        "In a new spreadsheet, enter the numbers {numbers} in cells A1 to A3, put a formula "
        "in A4 that adds them up, and save the spreadsheet as {path}."
    ),
    attributes={"path": "desktop_file", "numbers": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[OFFICE_INTENT],
    value_pools={"path": SPREADSHEETS, "numbers": NUMBER_TRIPLES},
    evaluator_generator=calc_total_checkpoints,
    solution_generator=calc_total_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("types the total instead of a formula", solution=calc_total_typed_value),
    ],
)


AVERAGE_TRIPLES = ["12 9 30", "4 18 11", "15 15 6", "33 6 12", "9 27 3", "25 1 19"]


def _average(numbers: str) -> int:
    values = _numbers(numbers)
    return sum(values) // len(values)  # the pool's averages are whole numbers


def calc_average_checkpoints(path: str, numbers: str) -> list[Evaluator]:
    cells = [
        oe.spreadsheet_cell(path=path, cell=f"A{row}", value=value)
        for row, value in enumerate(_numbers(numbers), 1)
    ]
    average = oe.spreadsheet_cell(
        path=path, cell="A4", value=_average(numbers), formula="=AVERAGE(A1:A3)"
    )
    return [*cells, average, oe.saved_by_libreoffice(path=path)]


def calc_average_solution(path: str, numbers: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "write_text", text=_calc_typing(numbers, "=AVERAGE(A1:A3)")),
        *save_and_quit(path),
    ]


def calc_average_typed_value(path: str, numbers: str) -> list[ActionCall]:
    """Near miss: the average worked out by hand and typed as a number."""
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "write_text", text=_calc_typing(numbers, str(_average(numbers)))),
        *save_and_quit(path),
    ]


def calc_average_with_sum(path: str, numbers: str) -> list[ActionCall]:
    """Near miss: a formula, but the total instead of the average."""
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "write_text", text=_calc_typing(numbers, "=SUM(A1:A3)")),
        *save_and_quit(path),
    ]


CALC_AVERAGE = SubTask(
    id="desktop.calc_average",
    description=(
        "In a new spreadsheet, enter the numbers {numbers} in cells A1 to A3, put a formula "
        "in A4 that computes their average, and save the spreadsheet as {path}."
    ),
    attributes={"path": "desktop_file", "numbers": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[OFFICE_INTENT],
    value_pools={"path": SPREADSHEETS, "numbers": AVERAGE_TRIPLES},
    evaluator_generator=calc_average_checkpoints,
    solution_generator=calc_average_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("types the average instead of a formula", solution=calc_average_typed_value),
        NearMiss("a formula for the total, not the average", solution=calc_average_with_sum),
    ],
)


# --------------------------------------------------------------------- Writer
def writer_heading_checkpoints(path: str, heading: str, paragraph: str) -> list[Evaluator]:
    return [
        oe.document_paragraph(path=path, text=heading, style="Heading 1"),
        oe.document_paragraph(path=path, text=paragraph, style="Body Text"),
        oe.saved_by_libreoffice(path=path),
    ]


def writer_heading_solution(path: str, heading: str, paragraph: str) -> list[ActionCall]:
    # Ctrl+1 is Writer's shortcut for "Heading 1"; Enter after a heading starts a "Body
    # Text" paragraph (the heading style's next style).
    return [
        call(D, "search_app", name="word processor"),
        call(D, "hotkey", keys=["ctrl", "1"]),
        call(D, "write_text", text=f"{heading}\n{paragraph}"),
        *save_and_quit(path),
    ]


def writer_heading_unstyled(path: str, heading: str, paragraph: str) -> list[ActionCall]:
    """Near miss: the heading typed as an ordinary paragraph."""
    return [
        call(D, "search_app", name="word processor"),
        call(D, "write_text", text=f"{heading}\n{paragraph}"),
        *save_and_quit(path),
    ]


WRITER_HEADING = SubTask(
    id="desktop.writer_heading",
    description=(
        'In a new text document, write the heading "{heading}" in the Heading 1 style and '
        'below it the paragraph "{paragraph}", and save the document as {path}.'
    ),
    attributes={"path": "desktop_file", "heading": "text", "paragraph": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[OFFICE_INTENT],
    value_pools={"path": TEXT_DOCUMENTS, "heading": HEADINGS, "paragraph": PARAGRAPHS},
    evaluator_generator=writer_heading_checkpoints,
    solution_generator=writer_heading_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("types the heading without the Heading 1 style", solution=writer_heading_unstyled),
    ],
)


# -------------------------------------------------------------------- Impress
def impress_title_checkpoints(path: str, title: str) -> list[Evaluator]:
    return [
        oe.presentation_slide(path=path, number=1, title=title, layout="Title Slide", count=1),
        oe.saved_by_libreoffice(path=path),
    ]


def _outline_view() -> list[ActionCall]:
    """Impress's outline view, where each line typed at the top level is a slide title
    (the slide itself takes the keyboard only after a click on its placeholder)."""
    return [
        call(D, "click_on", name="View"),
        call(D, "click_on", name="Outline", role="radio menu item"),
    ]


def impress_title_solution(path: str, title: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="presentation"),
        *_outline_view(),
        call(D, "write_text", text=title),
        *save_and_quit(path),
    ]


def impress_title_on_second_slide(path: str, title: str) -> list[ActionCall]:
    """Near miss: the title lands on a new second slide, the first one left untitled."""
    return [
        call(D, "search_app", name="presentation"),
        *_outline_view(),
        call(D, "write_text", text="\n" + title),
        *save_and_quit(path),
    ]


IMPRESS_TITLE = SubTask(
    id="desktop.impress_title",
    description=(
        'Make a new presentation whose only slide has the title "{title}", and save it as {path}.'
    ),
    attributes={"path": "desktop_file", "title": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[OFFICE_INTENT],
    value_pools={"path": PRESENTATIONS, "title": SLIDE_TITLES},
    evaluator_generator=impress_title_checkpoints,
    solution_generator=impress_title_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("puts the title on a second slide", solution=impress_title_on_second_slide),
    ],
)

TEMPLATES: list[SubTask] = [CALC_TOTAL, CALC_AVERAGE, WRITER_HEADING, IMPRESS_TITLE]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
