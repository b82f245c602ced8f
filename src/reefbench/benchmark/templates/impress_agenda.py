"""reef-v2's Impress template of exporting only the slides a colleague asked for to PDF
(hard tier); the agenda-order template is in
:mod:`reefbench.benchmark.templates.impress_order`.

:data:`IMPRESS_PDF_EXTRACT`: the note (a text file in ~/Documents) asks for three
slides, out of the deck's order; one of them is hidden from the slide show (a default PDF
export skips hidden slides, even inside a "Slides:" range), and one is named only as "the
newer of the two" slides on a topic that has an old and a new version (their titles say
which: "Opening hours until March", "Opening hours from April"). A playtest found every
title readable in the slide panel and a range doing the rest too easy. The PDF is checked
by its pages (one per asked slide, in the deck's order, each showing its title), read
through pypdf (:func:`~reefbench.envs.desktop.office_text_evaluators.pdf_pages`). Near
misses: the hidden slide left out, the old version instead of the new, the whole deck,
one range from the first asked slide to the last.

The reference opens the deck through Impress's Open dialog and uses File > Export As >
Export as PDF... with its "Slides:" range and "Export hidden pages" ticked.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.impress import _open_in_impress
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
IMPRESS_INTENT = "prepare a presentation on the computer"

# Each deck: its file, "Title|bullet|bullet" per slide (the cover first), and the topic
# of its two versioned slides as the note words it.
DECKS = [
    (
        "~/Documents/ops-review.pptx",
        "Operations Review Q3|Prepared by the operations team;"
        "Delivery performance|On time 94 percent|Two late pallets;"
        "Warehouse staffing|Three vacancies|Agency cover until May;"
        "Customer complaints|Down 12 percent;"
        "Fleet plan until March|Six diesel vans;"
        "Fleet plan from April|Four diesel vans|Two electric vans;"
        "Health and safety|No lost-time incidents;"
        "Budget outlook|Within 2 percent of plan;"
        "Next steps|Review in January",
        "fleet plan",
    ),
    (
        "~/Documents/library-board.pptx",
        "Library Board Update|March meeting;"
        "Visitor numbers|Up 8 percent on last year;"
        "Opening hours until March|Closed on Sundays;"
        "Opening hours from April|Sunday afternoons|Late nights on Thursdays;"
        "Children's programme|Summer reading scheme;"
        "Building works|Roof repair in June;"
        "Digital services|E-books and Wi-Fi;"
        "Volunteers|Forty active volunteers;"
        "Questions|Over to the board",
        "opening hours",
    ),
    (
        "~/Documents/product-roadmap.pptx",
        "Product Roadmap 2027|For the leadership team;"
        "Mobile app|Offline mode;"
        "Pricing from 2027|Three plans;"
        "Pricing in 2026|Four plans;"
        "Partner portal|Self-service onboarding;"
        "Reporting|Scheduled exports;"
        "Security|Single sign-on for all plans;"
        "Hiring plan|Two engineers and a designer;"
        "Risks|Supplier lock-in",
        "pricing",
    ),
    (
        "~/Documents/clinic-meeting.pptx",
        "Clinic Team Meeting|Northside practice;"
        "Appointment wait times|Nine days on average;"
        "Flu vaccination|Clinics from October;"
        "Staff rota|Weekend cover;"
        "Patient survey|Results in brief;"
        "Opening times from May|Late clinic on Tuesdays;"
        "Opening times until April|Closed Tuesday evenings;"
        "IT changes|New booking system;"
        "Training|Resuscitation refresher",
        "opening times",
    ),
]


def _slides(deck: str) -> list[list[str]]:
    return [slide.split("|") for slide in deck.split(";")]


def _titles(deck: str) -> list[str]:
    return [s[0] for s in _slides(deck)]


def _order(order: str) -> list[int]:
    return [int(i) for i in order.split()]


# Each record: the deck, the PDF, the note, the sender, the slides asked for (their
# indexes in the deck, as the note names them: out of the deck's order), the hidden one
# (one of them), the newer versioned slide (asked for) and the older one.
EXTRACTS = [
    (0, "~/Documents/ops-board-extract.pdf", "Tom", "7 5 2", "7", "5", "4"),
    (1, "~/Documents/library-council.pdf", "Aisha", "6 1 3", "1", "3", "2"),
    (2, "~/Documents/roadmap-investors.pdf", "Jon", "5 2 7", "5", "2", "3"),
    (3, "~/Documents/clinic-practice-manager.pdf", "Mia", "8 5 1", "8", "5", "6"),
]


def extract_note(deck: int, pdf: str, sender: str, asked: str, newer: str) -> str:
    titles, topic = _titles(DECKS[deck][1]), DECKS[deck][2]
    names = [
        f"the newer of the two {topic} slides" if i == int(newer) else f'"{titles[i]}"'
        for i in _order(asked)
    ]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return (
        "Hi,\n\n"
        f"for the pack I only need these slides from the deck: {listed}. Nothing else "
        "(no cover). Could you export just those three as one PDF, in the order they "
        f"have in the deck, and put it at {pdf}?\n\n"
        f"Cheers,\n{sender}\n"
    )


EXTRACT_RECORDS = [
    {
        "source": DECKS[d][0],
        "pdf": p,
        "note": f"~/Documents/request-from-{s.lower()}.txt",
        "deck": str(d),
        "sender": s,
        "asked": a,
        "hidden": h,
        "newer": n,
        "older": o,
    }
    for d, p, s, a, h, n, o in EXTRACTS
]


def extract_setup(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[ActionStep]:
    text = extract_note(int(deck), pdf, sender, asked, newer)
    slides = _slides(DECKS[int(deck)][1])
    create = st.create_presentation(path=source, slides=slides, hidden=[int(hidden)])
    return [
        ActionStep(env=D, action=create),
        ActionStep(env=D, action=st.create_file(path=note, content=text)),
    ]


def extract_checkpoints(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[Evaluator]:
    titles = _titles(DECKS[int(deck)][1])
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


def _export(pdf: str, pages: str, hidden: bool = True) -> list[ActionCall]:
    """File > Export As > Export as PDF..., the range "Slides:" (empty: all), "Export
    hidden pages" ticked (a hidden slide is left out otherwise, range or not), Export,
    the file name in the Save dialog."""
    chosen: list[ActionCall] = []
    if pages:
        chosen = [
            call(D, "click_on", name="Slides:", role="radio button"),
            call(D, "click_on", name="Slides", role="text"),
            call(D, "hotkey", keys=["ctrl", "a"]),
            call(D, "write_text", text=pages),
        ]
    if hidden:
        chosen.append(call(D, "click_on", name="Export hidden pages", role="check box"))
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


def _numbers(asked: str) -> list[int]:
    return [i + 1 for i in _order(asked)]


def exported_pdf(pdf: str, **_: str) -> str:
    """What the export hands on: the PDF's path."""
    return pdf


def extract_solution(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[ActionCall]:
    return [*_open_in_impress(source), *_export(pdf, _ranges(_numbers(asked)))]


def extract_without_hidden(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[ActionCall]:
    """Near miss: the right range, exported as the dialog stands (the hidden slide left
    out)."""
    return [*_open_in_impress(source), *_export(pdf, _ranges(_numbers(asked)), hidden=False)]


def extract_older(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[ActionCall]:
    """Near miss: the older version of the versioned slide instead of the newer."""
    swapped = [int(older) + 1 if n == int(newer) + 1 else n for n in _numbers(asked)]
    return [*_open_in_impress(source), *_export(pdf, _ranges(swapped))]


def extract_all(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
) -> list[ActionCall]:
    """Near miss: the whole deck exported."""
    return [*_open_in_impress(source), *_export(pdf, "")]


def extract_span(
    source: str,
    pdf: str,
    note: str,
    deck: str,
    sender: str,
    asked: str,
    hidden: str,
    newer: str,
    older: str,
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
        "hidden": "str",
        "newer": "str",
        "older": "str",
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
    output_generator=exported_pdf,
    near_misses=[
        NearMiss("leaves the hidden slide out", solution=extract_without_hidden),
        NearMiss("exports the older version of the slide", solution=extract_older),
        NearMiss("exports the whole deck", solution=extract_all),
        NearMiss("exports one range from the first to the last", solution=extract_span),
    ],
)

TEMPLATES: list[SubTask] = [IMPRESS_PDF_EXTRACT]
