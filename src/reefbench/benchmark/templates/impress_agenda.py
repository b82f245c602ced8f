"""reef-v2's Impress templates driven by a colleague's note: put a deck in the order of a
meeting's agenda (and drop the item that was cut), or export only the slides a colleague
asked for to PDF.

The note (a text file in ~/Documents) names the slides by title; which slides move where,
which one goes and which page numbers to export follow from the note and the deck
together, and the instruction says neither. The reordered deck is checked by its slides'
titles in a presentation LibreOffice saved; the PDF by its pages (one per asked slide, in
the deck's order, each showing its title), read through pypdf
(:mod:`reefbench.envs.desktop.office_text_evaluators`).

Reference solutions open the deck through Impress's Open dialog; reordering walks the
slides with Page Up/Down and sends each agenda item, in turn, to the end (Slide > Move >
Slide to End), which leaves the cover and the cut slide in front, then deletes the cut
one (Slide > Delete Slide); the export uses File > Export As > Export as PDF... with its
"Slides:" range.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.impress import _open_in_impress, _save_as
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
IMPRESS_INTENT = "prepare a presentation on the computer"

# Each deck: its file, then "Title|bullet|bullet" per slide, the cover first.
DECKS = [
    (
        "~/Documents/ops-review.pptx",
        "Operations Review Q3|Prepared by the operations team;"
        "Delivery performance|On time 94 percent|Two late pallets;"
        "Warehouse staffing|Three vacancies|Agency cover until May;"
        "Customer complaints|Down 12 percent;"
        "Fleet replacement|Four vans due|Electric pilot;"
        "Health and safety|No lost-time incidents;"
        "Budget outlook|Within 2 percent of plan",
    ),
    (
        "~/Documents/library-board.pptx",
        "Library Board Update|March meeting;"
        "Visitor numbers|Up 8 percent on last year;"
        "Opening hours|Late nights on Thursdays;"
        "Children's programme|Summer reading scheme;"
        "Building works|Roof repair in June;"
        "Digital services|E-books and Wi-Fi;"
        "Volunteers|Forty active volunteers",
    ),
    (
        "~/Documents/product-roadmap.pptx",
        "Product Roadmap 2027|For the leadership team;"
        "Mobile app|Offline mode;"
        "Billing rewrite|New invoices in Q2;"
        "Partner portal|Self-service onboarding;"
        "Reporting|Scheduled exports;"
        "Security|Single sign-on for all plans;"
        "Hiring plan|Two engineers and a designer",
    ),
    (
        "~/Documents/clinic-meeting.pptx",
        "Clinic Team Meeting|Northside practice;"
        "Appointment wait times|Nine days on average;"
        "Flu vaccination|Clinics from October;"
        "Staff rota|Weekend cover;"
        "Patient survey|Results in brief;"
        "IT changes|New booking system;"
        "Training|Resuscitation refresher",
    ),
]


def _slides(deck: str) -> list[list[str]]:
    return [slide.split("|") for slide in deck.split(";")]


def _titles(deck: str) -> list[str]:
    return [s[0] for s in _slides(deck)]


# ------------------------------------------------------------------ agenda order
# Each record: the deck, the saved result, the note, the agenda (the deck's topics by
# their index, in the meeting's order) and the cut topic's index.
AGENDAS = [
    (
        0,
        "~/Documents/ops-review-final.odp",
        "~/Documents/agenda-from-marta.txt",
        "Marta",
        (5, 1, 6, 2, 4),
        3,
    ),
    (
        1,
        "~/Documents/library-board-final.odp",
        "~/Documents/agenda-from-owen.txt",
        "Owen",
        (4, 1, 6, 3, 5),
        2,
    ),
    (
        2,
        "~/Documents/roadmap-final.odp",
        "~/Documents/agenda-from-lena.txt",
        "Lena",
        (6, 2, 1, 5, 3),
        4,
    ),
    (
        3,
        "~/Documents/clinic-meeting-final.odp",
        "~/Documents/agenda-from-ravi.txt",
        "Ravi",
        (3, 6, 1, 2, 5),
        4,
    ),
]


def _agenda_note(deck: str, sender: str, order: tuple[int, ...], cut: int) -> str:
    titles = _titles(deck)
    items = "\n".join(f"{n}. {titles[i]}" for n, i in enumerate(order, 1))
    return (
        "Hi,\n\n"
        "here is the final agenda for the meeting. Can you put the slides in this order? "
        f'The cover slide ("{titles[0]}") stays first, then one slide per item:\n\n'
        f"{items}\n\n"
        f'We had to cut "{titles[cut]}" for time, so that slide should go.\n\n'
        f"Thanks,\n{sender}\n"
    )


AGENDA_RECORDS = [
    {
        "source": DECKS[d][0],
        "path": p,
        "note": n,
        "deck": DECKS[d][1],
        "sender": s,
        "order": " ".join(str(i) for i in o),
        "cut": str(c),
    }
    for d, p, n, s, o, c in AGENDAS
]


def _order(order: str) -> list[int]:
    return [int(i) for i in order.split()]


def agenda_setup(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[ActionStep]:
    text = _agenda_note(deck, sender, tuple(_order(order)), int(cut))
    return [
        ActionStep(env=D, action=st.create_presentation(path=source, slides=_slides(deck))),
        ActionStep(env=D, action=st.create_file(path=note, content=text)),
    ]


def agenda_checkpoints(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[Evaluator]:
    titles = _titles(deck)
    wanted = [titles[0], *(titles[i] for i in _order(order))]
    return [te.slide_titles(path=path, titles=wanted), oe.saved_by_libreoffice(path=path)]


def _goto(at: int, index: int) -> list[ActionCall]:
    """From slide ``at`` to slide ``index`` (both from 0) with Page Down / Page Up."""
    key = "pagedown" if index > at else "pageup"
    return [call(D, "press", key=key)] * abs(index - at)


def _reorder(titles: list[str], order: list[str], menu: str) -> tuple[list[ActionCall], list[str]]:
    """Each slide of ``order`` in turn sent to the end (or start) through Slide > Move;
    the steps and the order the deck is left in (the current slide the moved one)."""
    current = list(titles)
    at = 0
    steps: list[ActionCall] = []
    for title in order:
        index = current.index(title)
        steps += _goto(at, index)
        at = index
        # A slide already at that end has the menu item disabled (and not listed): no move.
        if index == (len(current) - 1 if menu == "Slide to End" else 0):
            continue
        steps += desktop_menu("Slide", "Move", menu)
        current.remove(title)
        if menu == "Slide to End":
            current.append(title)
            at = len(current) - 1
        else:
            current.insert(0, title)
            at = 0
        steps.append(wait())
    return steps, current


def _delete(current: list[str], at: int, title: str) -> list[ActionCall]:
    return [*_goto(at, current.index(title)), *desktop_menu("Slide", "Delete Slide"), wait()]


def _agenda_steps(
    deck: str, order: str, cut: str, menu: str = "Slide to End", drop: bool = True
) -> list[ActionCall]:
    titles = _titles(deck)
    wanted = [titles[i] for i in _order(order)]
    steps, current = _reorder(titles, wanted, menu)
    at = len(current) - 1 if menu == "Slide to End" else 0
    if drop:
        steps += _delete(current, at, titles[int(cut)])
    return steps


def agenda_solution(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[ActionCall]:
    return [*_open_in_impress(source), *_agenda_steps(deck, order, cut), *_save_as(path)]


def agenda_kept_cut(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[ActionCall]:
    """Near miss: the slides put in the agenda's order, the cut slide left in."""
    return [
        *_open_in_impress(source),
        *_agenda_steps(deck, order, cut, drop=False),
        *_save_as(path),
    ]


def agenda_reversed(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[ActionCall]:
    """Near miss: each agenda item sent to the start instead of the end (the items come
    out in reverse, before the cover)."""
    return [
        *_open_in_impress(source),
        *_agenda_steps(deck, order, cut, menu="Slide to Start"),
        *_save_as(path),
    ]


def agenda_in_place(
    source: str, path: str, note: str, deck: str, sender: str, order: str, cut: str
) -> list[ActionCall]:
    """Near miss: the deck reordered and saved in place as PowerPoint, not as asked."""
    return [
        *_open_in_impress(source),
        *_agenda_steps(deck, order, cut),
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        call(D, "press", key="enter"),  # "Use PowerPoint Format!"
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


IMPRESS_AGENDA_ORDER = SubTask(
    id="desktop.impress_agenda_order",
    description=(
        "{sender} has sent the final agenda for the meeting in {note}. Bring the deck "
        "{source} in line with it and save the result as an OpenDocument presentation, "
        "{path}."
    ),
    attributes={
        "source": "desktop_file",
        "path": "desktop_file",
        "note": "desktop_file",
        "deck": "str",
        "sender": "text",
        "order": "str",
        "cut": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[IMPRESS_INTENT],
    value_records=AGENDA_RECORDS,
    setup_generator=agenda_setup,
    evaluator_generator=agenda_checkpoints,
    solution_generator=agenda_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("reorders the slides but keeps the cut one", solution=agenda_kept_cut),
        NearMiss("sends each item to the start", solution=agenda_reversed),
        NearMiss("saves the deck in place as PowerPoint", solution=agenda_in_place),
    ],
)


# ------------------------------------------------------------- PDF of some slides
# Each record: the deck, the PDF, the note, the sender, and the slides asked for (their
# indexes in the deck; the note names them out of the deck's order).
EXTRACTS = [
    (0, "~/Documents/ops-board-extract.pdf", "~/Documents/request-from-tom.txt", "Tom", (6, 1, 4)),
    (
        1,
        "~/Documents/library-council.pdf",
        "~/Documents/request-from-aisha.txt",
        "Aisha",
        (5, 2, 3),
    ),
    (2, "~/Documents/roadmap-investors.pdf", "~/Documents/request-from-jon.txt", "Jon", (5, 1, 2)),
    (
        3,
        "~/Documents/clinic-practice-manager.pdf",
        "~/Documents/request-from-mia.txt",
        "Mia",
        (4, 6, 1),
    ),
]


def _extract_note(deck: str, pdf: str, sender: str, asked: tuple[int, ...]) -> str:
    titles = _titles(deck)
    names = [f'"{titles[i]}"' for i in asked]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return (
        "Hi,\n\n"
        f"for the pack I only need the slides on {listed} from the deck, nothing else "
        "(no cover). Could you export just those as one PDF, in the order they have in "
        f"the deck, and put it at {pdf}?\n\n"
        f"Cheers,\n{sender}\n"
    )


EXTRACT_RECORDS = [
    {
        "source": DECKS[d][0],
        "pdf": p,
        "note": n,
        "deck": DECKS[d][1],
        "sender": s,
        "asked": " ".join(str(i) for i in a),
    }
    for d, p, n, s, a in EXTRACTS
]


def extract_setup(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionStep]:
    text = _extract_note(deck, pdf, sender, tuple(_order(asked)))
    return [
        ActionStep(env=D, action=st.create_presentation(path=source, slides=_slides(deck))),
        ActionStep(env=D, action=st.create_file(path=note, content=text)),
    ]


def extract_checkpoints(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[Evaluator]:
    titles = _titles(deck)
    return [te.pdf_pages(path=pdf, titles=[titles[i] for i in sorted(_order(asked))])]


def _ranges(numbers: list[int]) -> str:
    """Slide numbers as the PDF dialog's range: runs joined with "-", others by ","."""
    numbers = sorted(numbers)
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _export(pdf: str, pages: str) -> list[ActionCall]:
    """File > Export As > Export as PDF..., the range "Slides:" (empty: all), Export, the
    file name in the Save dialog."""
    chosen: list[ActionCall] = []
    if pages:
        chosen = [
            call(D, "click_on", name="Slides:", role="radio button"),
            call(D, "click_on", name="Slides", role="text"),
            call(D, "hotkey", keys=["ctrl", "a"]),
            call(D, "write_text", text=pages),
        ]
    return [
        *desktop_menu("File", "Export As", "Export as PDF..."),
        wait(),
        *chosen,
        call(D, "click_on", name="Export", role="push button"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(pdf)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


def _numbers(asked: str, shift: int = 0) -> list[int]:
    return [i + 1 + shift for i in _order(asked)]


def exported_pdf(pdf: str, **_: str) -> str:
    """What the export hands on: the PDF's path."""
    return pdf


def extract_solution(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionCall]:
    return [*_open_in_impress(source), *_export(pdf, _ranges(_numbers(asked)))]


def extract_listed(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionCall]:
    """Alternative: the slide numbers listed one by one ("2,5,6")."""
    pages = ",".join(str(n) for n in sorted(_numbers(asked)))
    return [*_open_in_impress(source), *_export(pdf, pages)]


def extract_all(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionCall]:
    """Near miss: the whole deck exported."""
    return [*_open_in_impress(source), *_export(pdf, "")]


def extract_off_by_one(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionCall]:
    """Near miss: the slides counted from 0 (each number one too low, the cover in)."""
    return [*_open_in_impress(source), *_export(pdf, _ranges(_numbers(asked, -1)))]


def extract_span(
    source: str, pdf: str, note: str, deck: str, sender: str, asked: str
) -> list[ActionCall]:
    """Near miss: one range from the first asked slide to the last (the ones between in)."""
    numbers = _numbers(asked)
    return [*_open_in_impress(source), *_export(pdf, f"{min(numbers)}-{max(numbers)}")]


IMPRESS_PDF_EXTRACT = SubTask(
    id="desktop.impress_pdf_extract",
    description="{sender} asks for something from the deck {source} in {note}. Do it.",
    attributes={
        "source": "desktop_file",
        "pdf": "desktop_file",
        "note": "desktop_file",
        "deck": "str",
        "sender": "text",
        "asked": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[IMPRESS_INTENT],
    value_records=EXTRACT_RECORDS,
    setup_generator=extract_setup,
    evaluator_generator=extract_checkpoints,
    solution_generator=extract_solution,
    alternative_generators=[extract_listed],
    output_generator=exported_pdf,
    near_misses=[
        NearMiss("exports the whole deck", solution=extract_all),
        NearMiss("counts the slides from 0", solution=extract_off_by_one),
        NearMiss("exports one range from the first to the last", solution=extract_span),
    ],
)

TEMPLATES: list[SubTask] = [IMPRESS_AGENDA_ORDER, IMPRESS_PDF_EXTRACT]
