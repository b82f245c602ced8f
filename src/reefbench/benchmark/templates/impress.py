"""reef-v2's Impress templates: building a deck from an outline, and preparing a
colleague's deck for presenting.

A deck built from an outline is checked slide by slide (title, layout, every bullet with
its indent level, how many slides); speaker notes are checked on the slides they belong
to, in a deck saved as an OpenDocument presentation by LibreOffice. Checkpoints read the
saved file through :mod:`reefbench.documents`
(:mod:`reefbench.envs.desktop.office_text_evaluators`).

Reference solutions use Impress's outline view (each top-level line a slide's title, Tab
and Shift+Tab for the indent level), the Layouts panel of the sidebar, and the Notes view
(Tab to the notes placeholder, Enter to edit it).
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.office import save_and_quit, saved_document
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
IMPRESS_INTENT = "prepare a presentation on the computer"
LAYOUT = "Title, Content"


# ---------------------------------------------------------- deck from an outline
# An outline file: a line at the margin is a slide's title; two spaces more indent per
# bullet level.
OUTLINES = [
    (
        "~/Documents/kickoff-outline.txt",
        "~/Documents/kickoff.odp",
        "Project kickoff\n  Why we are here\n  Who is involved\n    Sponsors\n    Core team\n"
        "Scope\n  In scope\n    Two warehouses\n  Out of scope\n"
        "Next steps\n  Agree the budget\n  Book the workshops",
    ),
    (
        "~/Documents/review-outline.txt",
        "~/Documents/quarterly-review.odp",
        "Quarter in numbers\n  Revenue\n    Up 12 percent\n  Costs\n    Flat\n"
        "Customers\n  Three new accounts\n  One churned\n"
        "Outlook\n  Hiring two engineers\n    One in support",
    ),
    (
        "~/Documents/training-outline.txt",
        "~/Documents/safety-training.odp",
        "Fire safety basics\n  Know your exits\n  Alarm points\n"
        "During an alarm\n  Leave at once\n    Do not use lifts\n    Close doors behind you\n"
        "  Go to the assembly point\n"
        "After the drill\n  Report to your warden",
    ),
    (
        "~/Documents/launch-outline.txt",
        "~/Documents/launch-plan.odp",
        "Launch goals\n  Reach 500 sign-ups\n  Press coverage\n    Two trade titles\n"
        "Channels\n  Email\n  Social\n    Short videos\n"
        "Timeline\n  Beta in May\n  Launch in June",
    ),
]


def _deck(outline: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """(title, [(level, bullet)]) per slide of the outline."""
    slides: list[tuple[str, list[tuple[int, str]]]] = []
    for line in outline.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            slides.append((line.strip(), []))
        else:
            slides[-1][1].append((indent // 2, line.strip()))
    return slides


DECK_RECORDS = [{"outline_file": f, "path": p, "outline": o} for f, p, o in OUTLINES]


def deck_setup(outline_file: str, path: str, outline: str) -> list[ActionStep]:
    return [ActionStep(env=D, action=st.create_file(path=outline_file, content=outline + "\n"))]


def deck_checkpoints(outline_file: str, path: str, outline: str) -> list[Evaluator]:
    slides = _deck(outline)
    checks: list[Evaluator] = []
    for number, (title, bullets) in enumerate(slides, 1):
        checks.append(
            oe.presentation_slide(
                path=path, number=number, title=title, layout=LAYOUT, count=len(slides)
            )
        )
        checks.append(
            te.slide_bullets(
                path=path, number=number, bullets=[f"{lvl}|{text}" for lvl, text in bullets]
            )
        )
    return [*checks, oe.saved_by_libreoffice(path=path)]


def _type_outline(lines: list[tuple[int, str]]) -> list[ActionCall]:
    """Type ``(level, text)`` lines in the outline view (level 0 a slide title): Enter
    keeps the level, Tab demotes, Shift+Tab promotes."""
    steps: list[ActionCall] = []
    chunk = ""
    level = 0
    for index, (wanted, text) in enumerate(lines):
        if index:
            chunk += "\n"
        if wanted > level:
            chunk += "\t" * (wanted - level)
        elif wanted < level:
            if chunk:
                steps.append(call(D, "write_text", text=chunk))
                chunk = ""
            steps += [call(D, "hotkey", keys=["shift", "tab"])] * (level - wanted)
        chunk += text
        level = wanted
    if chunk:
        steps.append(call(D, "write_text", text=chunk))
    return steps


def _lines(outline: str, flat: bool = False, no_levels: bool = False) -> list[tuple[int, str]]:
    lines: list[tuple[int, str]] = []
    for title, bullets in _deck(outline):
        lines.append((0, title))
        for level, text in bullets:
            lines.append((0 if no_levels else 1 if flat else level, text))
    return lines


def _build(path: str, lines: list[tuple[int, str]], layout: bool = True) -> list[ActionCall]:
    """A new presentation; its first slide given the layout (sidebar's Layouts panel);
    the outline typed in the outline view; saved as ``path``."""
    return [
        call(D, "search_app", name="presentation"),
        *([call(D, "click_on", name=LAYOUT, role="list item")] if layout else []),
        *desktop_menu("View", "Outline"),
        *_type_outline(lines),
        *save_and_quit(path),
    ]


def deck_solution(outline_file: str, path: str, outline: str) -> list[ActionCall]:
    return _build(path, _lines(outline))


def deck_flat_bullets(outline_file: str, path: str, outline: str) -> list[ActionCall]:
    """Near miss: every bullet at the top level (the sub-points not indented)."""
    return _build(path, _lines(outline, flat=True))


def deck_line_per_slide(outline_file: str, path: str, outline: str) -> list[ActionCall]:
    """Near miss: every line of the outline its own slide."""
    return _build(path, _lines(outline, no_levels=True))


def deck_first_title_slide(outline_file: str, path: str, outline: str) -> list[ActionCall]:
    """Near miss: the first slide left in the new presentation's "Title Slide" layout."""
    return _build(path, _lines(outline), layout=False)


IMPRESS_OUTLINE_DECK = SubTask(
    id="desktop.impress_outline_deck",
    description=(
        "Build a new presentation from the outline in {outline_file}: one slide per line "
        "that starts at the margin, with that line as the slide's title, and the indented "
        "lines below it as the slide's bullet points, each one level deeper per two spaces "
        'of indent. Every slide must use the "Title, Content" layout. Save it as {path}.'
    ),
    attributes={"outline_file": "desktop_file", "path": "desktop_file", "outline": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[IMPRESS_INTENT],
    value_records=DECK_RECORDS,
    setup_generator=deck_setup,
    evaluator_generator=deck_checkpoints,
    solution_generator=deck_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("puts every bullet at the top level", solution=deck_flat_bullets),
        NearMiss("makes every line a slide", solution=deck_line_per_slide),
        NearMiss("leaves the first slide a title slide", solution=deck_first_title_slide),
    ],
)


# ------------------------------------------------------------------ speaker notes
# A colleague's PowerPoint deck; notes go on two of its slides; the result is saved as an
# OpenDocument presentation beside it.
DECKS = [
    (
        "~/Documents/supplier-review.pptx",
        "~/Documents/supplier-review.odp",
        "Supplier review|Scope of the review;Delivery|On time 94 percent;"
        "Quality|Two returns this quarter;Pricing|Increase of 3 percent proposed;"
        "Decision|Renew for one year",
        "Quality",
        "Both returns were packaging faults, now fixed.",
        "Decision",
        "Ask the board to approve before the end of May.",
    ),
    (
        "~/Documents/budget-2027.pptx",
        "~/Documents/budget-2027.odp",
        "Budget 2027|Headline numbers;Income|Grants and fees;Staff costs|Two new posts;"
        "Buildings|Roof repair deferred;Reserves|Three months of costs",
        "Staff costs",
        "Both posts are part-funded by the city grant.",
        "Reserves",
        "Target reached for the first time since 2022.",
    ),
    (
        "~/Documents/onboarding.pptx",
        "~/Documents/onboarding.odp",
        "Welcome|Your first week;Systems|Laptop and accounts;People|Your buddy;"
        "Policies|Read and sign;Questions|Ask anytime",
        "Systems",
        "IT sets up accounts on day one; bring your ID.",
        "Policies",
        "Signatures are due by Friday of week one.",
    ),
    (
        "~/Documents/site-move.pptx",
        "~/Documents/site-move.odp",
        "Site move|Why we move;Timeline|Three phases;Costs|Within budget;"
        "Risks|Lease overlap;Support|Moving team",
        "Timeline",
        "Phase two depends on the landlord's sign-off.",
        "Risks",
        "The overlap costs one month of rent at most.",
    ),
]


def _slides(deck: str) -> list[list[str]]:
    return [slide.split("|") for slide in deck.split(";")]


def _titles(deck: str) -> list[str]:
    return [s[0] for s in _slides(deck)]


NOTES_RECORDS = [
    {
        "source": s,
        "path": p,
        "deck": d,
        "first": f,
        "first_note": fn,
        "second": sc,
        "second_note": sn,
    }
    for s, p, d, f, fn, sc, sn in DECKS
]


def notes_setup(
    source: str, path: str, deck: str, first: str, first_note: str, second: str, second_note: str
) -> list[ActionStep]:
    return [ActionStep(env=D, action=st.create_presentation(path=source, slides=_slides(deck)))]


def notes_checkpoints(
    source: str, path: str, deck: str, first: str, first_note: str, second: str, second_note: str
) -> list[Evaluator]:
    return [
        te.slide_notes(path=path, title=first, notes=first_note),
        te.slide_notes(path=path, title=second, notes=second_note),
        te.slide_titles(path=path, titles=_titles(deck)),
        oe.saved_by_libreoffice(path=path),
    ]


def _open_in_impress(path: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="presentation"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        wait(),
        call(D, "write_text", text=expand(path)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
    ]


def _notes_on(deck: str, notes: list[tuple[str, str]]) -> list[ActionCall]:
    """In the Notes view (from slide 1), for each (slide title, text): Page Down to the
    slide, Tab twice to select its notes placeholder, Enter to edit it, type, Escape twice."""
    titles = _titles(deck)
    steps: list[ActionCall] = [*desktop_menu("View", "Notes")]
    at = 0
    for title, text in notes:
        index = titles.index(title)
        steps += [call(D, "press", key="pagedown")] * (index - at)
        at = index
        steps += [
            call(D, "press", key="tab"),
            call(D, "press", key="tab"),
            call(D, "press", key="enter"),
            call(D, "write_text", text=text),
            call(D, "press", key="escape"),
            call(D, "press", key="escape"),
        ]
    return steps


def _save_as(path: str) -> list[ActionCall]:
    """File > Save As (Ctrl+Shift+S) under a name ending .odp, then quit."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(path)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


def notes_solution(
    source: str, path: str, deck: str, first: str, first_note: str, second: str, second_note: str
) -> list[ActionCall]:
    return [
        *_open_in_impress(source),
        *_notes_on(deck, [(first, first_note), (second, second_note)]),
        *_save_as(path),
    ]


def notes_next_slide(
    source: str, path: str, deck: str, first: str, first_note: str, second: str, second_note: str
) -> list[ActionCall]:
    """Near miss: each note one slide too early (counted the slides from the wrong end)."""
    titles = _titles(deck)
    before = [titles[titles.index(first) - 1], titles[titles.index(second) - 1]]
    return [
        *_open_in_impress(source),
        *_notes_on(deck, [(before[0], first_note), (before[1], second_note)]),
        *_save_as(path),
    ]


def notes_kept_pptx(
    source: str, path: str, deck: str, first: str, first_note: str, second: str, second_note: str
) -> list[ActionCall]:
    """Near miss: the notes added and the deck saved in place, as PowerPoint."""
    return [
        *_open_in_impress(source),
        *_notes_on(deck, [(first, first_note), (second, second_note)]),
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


IMPRESS_SPEAKER_NOTES = SubTask(
    id="desktop.impress_speaker_notes",
    description=(
        'Prepare the deck {source} for presenting: give the slide titled "{first}" the '
        'speaker notes "{first_note}" and the slide titled "{second}" the speaker notes '
        '"{second_note}", keeping the slides as they are, and save the deck as an '
        "OpenDocument presentation, {path}."
    ),
    attributes={
        "source": "desktop_file",
        "path": "desktop_file",
        "deck": "str",
        "first": "text",
        "first_note": "text",
        "second": "text",
        "second_note": "text",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="impress",
    app_category="office",
    intents=[IMPRESS_INTENT],
    value_records=NOTES_RECORDS,
    setup_generator=notes_setup,
    evaluator_generator=notes_checkpoints,
    solution_generator=notes_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("puts each note on the slide before", solution=notes_next_slide),
        NearMiss("saves the deck in place as PowerPoint", solution=notes_kept_pptx),
    ],
)

TEMPLATES: list[SubTask] = [IMPRESS_OUTLINE_DECK, IMPRESS_SPEAKER_NOTES]
