"""reef-v2's Impress template of putting a deck in a meeting's agenda order, where the
agenda must be matched to the slides by meaning (hard tier).

:data:`IMPRESS_AGENDA_ORDER`: a colleague's note (a text file in ~/Documents) gives the
agenda in its own words, not the slides' titles ("Refurbishment" for "Building works"),
one of its items takes two slides (named in the note, kept in their order), one item
was cut; a second note then changes the agenda: the cut item is back after a named
item, and another item is dropped. A playtest found slide titles worded exactly as the
agenda too easy. Each agenda item matches exactly one slide (or the named two) by its
meaning. The saved presentation is checked by its slides' titles, in order
(:func:`~reefbench.envs.desktop.office_text_evaluators.slide_titles`). Near misses: the
change ignored, the dropped slide kept, an item's second slide left behind, the deck
saved in place as PowerPoint.

The reference opens the deck through Impress's Open dialog, walks the slides with Page
Up/Down and sends each slide of the final agenda, in turn, to the end (Slide > Move >
Slide to End), which leaves the cover and the dropped slide in front, deletes the dropped
one (Slide > Delete Slide) and saves as ``.odp`` through Save As.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, wait
from reefbench.benchmark.templates.impress import _open_in_impress, _save_as
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
IMPRESS_INTENT = "prepare a presentation on the computer"

# Each deck: its file, then "Title|bullet|bullet" per slide, the cover first; then how the
# agenda words each slide's item ("" for the second slide of a two-slide item, worded by
# the item before it, which names both).
DECKS = [
    (
        "~/Documents/ops-review.pptx",
        "Operations Review Q3|Prepared by the operations team;"
        "Delivery performance|On time 94 percent|Two late pallets;"
        "Warehouse staffing|Three vacancies|Agency cover until May;"
        "Customer complaints|Down 12 percent;"
        "Fleet replacement|Four vans due;"
        "Electric van pilot|Two vans from June;"
        "Health and safety|No lost-time incidents;"
        "Budget outlook|Within 2 percent of plan",
        (
            "",
            "How our deliveries performed against their promised dates",
            "Filling the vacancies among the warehouse team",
            "What customers complained about",
            "The vans: first replacing the old fleet, then the electric trial (two slides)",
            "",
            "Safety at work",
            "Where spending is heading against the plan",
        ),
    ),
    (
        "~/Documents/library-board.pptx",
        "Library Board Update|March meeting;"
        "Visitor numbers|Up 8 percent on last year;"
        "Opening hours|Late nights on Thursdays;"
        "Children's programme|Summer reading scheme;"
        "Building works|Refurbishment of the ground floor;"
        "Roof repair schedule|Scaffolding from June;"
        "Digital services|E-books and Wi-Fi;"
        "Volunteers|Forty active volunteers",
        (
            "",
            "How many people came through the doors",
            "When the library is open",
            "Activities for young readers",
            "Refurbishment: the works overall, then when the roof gets done (two slides)",
            "",
            "E-books and the online offer",
            "The people who give their time unpaid",
        ),
    ),
    (
        "~/Documents/product-roadmap.pptx",
        "Product Roadmap 2027|For the leadership team;"
        "Mobile app|Offline mode;"
        "Billing rewrite|New invoices in Q2;"
        "Partner portal|Self-service onboarding;"
        "Reporting|Dashboards for every plan;"
        "Scheduled exports|Daily and weekly files;"
        "Security|Single sign-on for all plans;"
        "Hiring plan|Two engineers and a designer",
        (
            "",
            "The app on phones",
            "Rebuilding how we invoice customers",
            "Self-service for resellers",
            "Reports: what customers see, then the exports sent on a timetable (two slides)",
            "",
            "Keeping customer accounts safe",
            "Who joins the team next year",
        ),
    ),
    (
        "~/Documents/clinic-meeting.pptx",
        "Clinic Team Meeting|Northside practice;"
        "Appointment wait times|Nine days on average;"
        "Flu vaccination|Clinics from October;"
        "Staff rota|Changes from next month;"
        "Weekend cover|Saturday mornings;"
        "Patient survey|Results in brief;"
        "IT changes|New booking system;"
        "Training|Resuscitation refresher",
        (
            "",
            "How long patients wait to be seen",
            "This autumn's jabs",
            "Who works when: the rota, then Saturday mornings (two slides)",
            "",
            "What patients told us",
            "The new computer system for bookings",
            "The refresher course on resuscitation",
        ),
    ),
]


def _slides(deck: str) -> list[list[str]]:
    return [slide.split("|") for slide in deck.split(";")]


def _titles(deck: str) -> list[str]:
    return [s[0] for s in _slides(deck)]


# Each record: the deck, the saved result, the notes, the sender, the agenda (items by
# their slides' indexes, a two-slide item joined by ","), the cut item, the item after
# which the change puts it back, and the item the change drops.
AGENDAS = [
    (0, "ops-review-final.odp", "Marta", "6 1 4,5 7 2", "3", "6", "7"),
    (1, "library-board-final.odp", "Owen", "4,5 1 6 3 7", "2", "1", "6"),
    (2, "roadmap-final.odp", "Lena", "6 2 1 4,5 3", "7", "2", "1"),
    (3, "clinic-meeting-final.odp", "Ravi", "5 3,4 1 2 7", "6", "3,4", "2"),
]


def _items(agenda: str) -> list[list[int]]:
    return [[int(i) for i in item.split(",")] for item in agenda.split()]


def final_agenda(agenda: str, cut: str, back_after: str, dropped: str) -> list[list[int]]:
    """The agenda as changed: the cut item back after ``back_after``, ``dropped`` gone."""
    items = _items(agenda)
    at = items.index(_items(back_after)[0]) + 1
    items.insert(at, _items(cut)[0])
    items.remove(_items(dropped)[0])
    return items


def _phrase(phrases: tuple[str, ...], item: str) -> str:
    return phrases[_items(item)[0][0]]


def agenda_note(deck: int, sender: str, agenda: str, cut: str) -> str:
    titles, phrases = _titles(DECKS[deck][1]), DECKS[deck][2]
    listed = "\n".join(f"{n}. {phrases[item[0]]}" for n, item in enumerate(_items(agenda), 1))
    return (
        "Hi,\n\n"
        "here is the final agenda for the meeting. Can you put the slides in this order? "
        f'The cover slide ("{titles[0]}") stays first, then the slides for each item:\n\n'
        f"{listed}\n\n"
        f'We had to cut "{_phrase(phrases, cut)}" for time, so its slide should go.\n\n'
        f"Thanks,\n{sender}\n"
    )


def change_note(deck: int, sender: str, cut: str, back_after: str, dropped: str) -> str:
    phrases = DECKS[deck][2]
    return (
        "Hi again,\n\n"
        "one change to the agenda I sent: we found time after all for "
        f'"{_phrase(phrases, cut)}". Please put it back, straight after '
        f'"{_phrase(phrases, back_after)}". In exchange "{_phrase(phrases, dropped)}" '
        "moves to next month's meeting, so take its slide out of this deck.\n\n"
        "Everything else stays as in my first note.\n\n"
        f"{sender}\n"
    )


AGENDA_RECORDS = [
    {
        "source": DECKS[d][0],
        "path": f"~/Documents/{path}",
        "note": f"~/Documents/agenda-from-{sender.lower()}.txt",
        "change": f"~/Documents/agenda-change-from-{sender.lower()}.txt",
        "deck": str(d),
        "sender": sender,
        "agenda": agenda,
        "cut": cut,
        "back_after": back,
        "dropped": dropped,
    }
    for d, path, sender, agenda, cut, back, dropped in AGENDAS
]


def agenda_setup(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionStep]:
    index = int(deck)
    first = agenda_note(index, sender, agenda, cut)
    second = change_note(index, sender, cut, back_after, dropped)
    slides = _slides(DECKS[index][1])
    return [
        ActionStep(env=D, action=st.create_presentation(path=source, slides=slides)),
        ActionStep(env=D, action=st.create_file(path=note, content=first)),
        ActionStep(env=D, action=st.create_file(path=change, content=second)),
    ]


def wanted_titles(deck: str, agenda: str, cut: str, back_after: str, dropped: str) -> list[str]:
    titles = _titles(DECKS[int(deck)][1])
    final = final_agenda(agenda, cut, back_after, dropped)
    return [titles[0], *(titles[i] for item in final for i in item)]


def agenda_checkpoints(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[Evaluator]:
    wanted = wanted_titles(deck, agenda, cut, back_after, dropped)
    return [te.slide_titles(path=path, titles=wanted), oe.saved_by_libreoffice(path=path)]


def _goto(at: int, index: int) -> list[ActionCall]:
    """From slide ``at`` to slide ``index`` (both from 0) with Page Down / Page Up."""
    key = "pagedown" if index > at else "pageup"
    return [call(D, "press", key=key)] * abs(index - at)


def reorder(titles: list[str], order: list[str]) -> tuple[list[ActionCall], list[str]]:
    """Each slide of ``order`` in turn sent to the end through Slide > Move; the steps
    and the order the deck is left in (the current slide the moved one)."""
    current = list(titles)
    at = 0
    steps: list[ActionCall] = []
    for title in order:
        index = current.index(title)
        steps += _goto(at, index)
        at = index
        # A slide already at the end has the menu item disabled (and not listed): no move.
        if index == len(current) - 1:
            continue
        steps += desktop_menu("Slide", "Move", "Slide to End")
        current.remove(title)
        current.append(title)
        at = len(current) - 1
        steps.append(wait())
    return steps, current


def _steps(deck: str, order: list[int], delete: list[int]) -> list[ActionCall]:
    """Send the slides of ``order`` to the end in turn, then delete those of ``delete``
    (left in front, after the cover)."""
    titles = _titles(DECKS[int(deck)][1])
    steps, current = reorder(titles, [titles[i] for i in order])
    at = len(current) - 1
    for index in delete:
        target = current.index(titles[index])
        steps += [*_goto(at, target), *desktop_menu("Slide", "Delete Slide"), wait()]
        current.remove(titles[index])
        at = min(target, len(current) - 1)
    return steps


def _plan(agenda: str, cut: str, back_after: str, dropped: str) -> list[int]:
    return [i for item in final_agenda(agenda, cut, back_after, dropped) for i in item]


def agenda_solution(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionCall]:
    order = _plan(agenda, cut, back_after, dropped)
    steps = _steps(deck, order, _items(dropped)[0])
    return [*_open_in_impress(source), *steps, *_save_as(path)]


def agenda_unchanged(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionCall]:
    """Near miss: the first note followed, its change ignored."""
    order = [i for item in _items(agenda) for i in item]
    steps = _steps(deck, order, _items(cut)[0])
    return [*_open_in_impress(source), *steps, *_save_as(path)]


def agenda_kept_dropped(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionCall]:
    """Near miss: the cut item put back, the dropped slide left in (behind the cover)."""
    steps = _steps(deck, _plan(agenda, cut, back_after, dropped), [])
    return [*_open_in_impress(source), *steps, *_save_as(path)]


def agenda_half_item(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionCall]:
    """Near miss: the two-slide item's second slide left where it was."""
    second = next(item[1] for item in _items(agenda) if len(item) > 1)
    order = [i for i in _plan(agenda, cut, back_after, dropped) if i != second]
    steps = _steps(deck, order, _items(dropped)[0])
    return [*_open_in_impress(source), *steps, *_save_as(path)]


def agenda_in_place(
    source: str,
    path: str,
    note: str,
    change: str,
    deck: str,
    sender: str,
    agenda: str,
    cut: str,
    back_after: str,
    dropped: str,
) -> list[ActionCall]:
    """Near miss: the deck reordered and saved in place as PowerPoint, not as asked."""
    order = _plan(agenda, cut, back_after, dropped)
    return [
        *_open_in_impress(source),
        *_steps(deck, order, _items(dropped)[0]),
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
        "{sender} sent the final agenda for the meeting in {note}, then a change to it "
        "in {change}. Bring the deck {source} in line with the agenda as changed and save "
        "the result as an OpenDocument presentation, {path}."
    ),
    attributes={
        "source": "desktop_file",
        "path": "desktop_file",
        "note": "desktop_file",
        "change": "desktop_file",
        "deck": "str",
        "sender": "text",
        "agenda": "str",
        "cut": "str",
        "back_after": "str",
        "dropped": "str",
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
        NearMiss("follows the first note, ignoring the change", solution=agenda_unchanged),
        NearMiss("keeps the slide the change dropped", solution=agenda_kept_dropped),
        NearMiss("leaves an item's second slide behind", solution=agenda_half_item),
        NearMiss("saves the deck in place as PowerPoint", solution=agenda_in_place),
    ],
)

TEMPLATES: list[SubTask] = [IMPRESS_AGENDA_ORDER]
