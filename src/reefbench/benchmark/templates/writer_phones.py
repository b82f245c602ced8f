"""reef-v2's Writer template of a regular-expression replacement confined to one section:
a contact list's UK telephone numbers rewritten in international form, while the numbers
of the other countries' sections, written the same national way, stay as they are.

The numbers come in two shapes (a bracketed area code, "(0161) 496 0732", and a mobile
without brackets, "07700 900123"), and the UK section also holds a time ("08:30") that a
loose pattern catches; every section's numbers start with 0, so one Replace All over the
whole document rewrites the Irish or Dutch ones too. The checkpoints read every paragraph
of the saved document (:func:`~reefbench.envs.desktop.office_evaluators.document_paragraph`).

The reference selects the UK section (its heading found by paragraph, then Ctrl+Shift+Down
to the next heading), opens Find and Replace (which ticks "Current selection only" for a
selection over several paragraphs) and replaces ``: \\(?0(\\d+)\\)? `` with ``: +44 $1 ``.
"""

from __future__ import annotations

import re

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer, save_and_quit
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
UK = "United Kingdom"

# Each record: the document, its title, and its sections ("Heading" then entries, one a
# paragraph); a number always follows ": " and is followed by a space.
CONTACTS = [
    (
        "~/Documents/contact-sheet.odt",
        "Emergency Contact Sheet",
        [
            [
                "Ireland",
                "Dublin office reception: (01) 496 0101",
                "Facilities manager, Ciara Byrne: 087 123 4567",
            ],
            [
                UK,
                "Manchester reception: (0161) 496 0732",
                "Leeds warehouse: (0113) 496 0521",
                "Security desk, out of hours: (020) 7946 0018",
                "IT on-call, Sam Patel: 07700 900123",
                "Switchboard opens at: 08:30 on weekdays",
                "Building manager, Joy Adams: 07700 900457",
            ],
            [
                "Netherlands",
                "Rotterdam depot: (010) 555 0199",
                "Transport planner, Daan Visser: 06 1234 5678",
            ],
        ],
    ),
    (
        "~/Documents/supplier-contacts.odt",
        "Supplier Contacts",
        [
            [
                UK,
                "Packaging, Northern Box Co: (0114) 496 0870",
                "Printing, Clearline: (0121) 496 0033",
                "Courier account manager, Lee Hunt: 07700 900782",
                "Orders line is staffed from: 09:00 to 17:00",
                "Cleaning contractor, Brightway: (029) 2018 0645",
                "Catering, Pea and Pod: 07700 900310",
            ],
            [
                "Netherlands",
                "Pallets, Van Dijk Hout: (030) 555 0147",
                "Sales contact, Sanne de Vries: 06 9876 5432",
                "Flowers, Bloemen Direct: (020) 555 0190",
            ],
        ],
    ),
    (
        "~/Documents/branch-list.odt",
        "Branch Telephone List",
        [
            [
                "Netherlands",
                "Amsterdam branch: (020) 555 0112",
                "Branch manager, Pieter Bakker: 06 2468 1357",
            ],
            [
                UK,
                "Bristol branch: (0117) 496 0261",
                "Glasgow branch: (0141) 496 0874",
                "London branch: (020) 7946 0355",
                "Regional manager, Amy Clarke: 07700 900642",
                "Branches open at: 08:30 and close at 18:00",
            ],
            [
                "Ireland",
                "Cork branch: (021) 496 0420",
                "Branch manager, Niamh Walsh: 085 765 4321",
            ],
        ],
    ),
    (
        "~/Documents/event-contacts.odt",
        "Conference Contacts",
        [
            [
                "Ireland",
                "Venue, Galway Bay Hotel: (091) 496 0288",
                "Event host, Aoife Kelly: 086 555 0174",
                "AV supplier, SoundHire: (01) 496 0399",
            ],
            [
                UK,
                "Travel desk: (0161) 496 0911",
                "Speaker liaison, Tom Reid: 07700 900218",
                "Registration help line: (0131) 496 0560",
                "Registration opens at: 07:45 each morning",
                "Sponsor contact, Helen Ward: 07700 900934",
            ],
        ],
    ),
]

SEARCH = r": \(?0(\d+)\)? "
REPLACE = ": +44 $1 "


def international(text: str) -> str:
    """A UK entry with its number written +44, the leading 0 and the brackets gone."""
    return re.sub(SEARCH, r": +44 \1 ", text)


def _sections(sections: str) -> list[list[str]]:
    return [section.split("\n") for section in sections.split("\n\n")]


CLOSING = "Please tell the office manager about any change to this list."


def _paragraphs(sections: str) -> list[str]:
    """The document's paragraphs after its title: every section, then a closing line
    (so no section ends the document)."""
    return [*(p for section in _sections(sections) for p in section), CLOSING]


PHONE_RECORDS = [
    {"path": p, "title": t, "sections": "\n\n".join("\n".join(s) for s in ss)}
    for p, t, ss in CONTACTS
]


def phones_setup(path: str, title: str, sections: str) -> list[ActionStep]:
    return [
        ActionStep(
            env=D,
            action=st.create_text_document(
                path=path, title=title, paragraphs=_paragraphs(sections)
            ),
        )
    ]


def expected(sections: str) -> list[str]:
    """Every paragraph as the finished document has it."""
    return [
        *(
            international(p) if section[0] == UK else p
            for section in _sections(sections)
            for p in section
        ),
        CLOSING,
    ]


def phones_checkpoints(path: str, title: str, sections: str) -> list[Evaluator]:
    """The rewritten numbers first (checkpoints complete in order, so none holds before
    the agent acts), then every paragraph that must stay as it was."""
    before = _paragraphs(sections)
    after = expected(sections)
    changed = [a for b, a in zip(before, after, strict=True) if a != b]
    kept = [a for b, a in zip(before, after, strict=True) if a == b]
    return [
        *(oe.document_paragraph(path=path, text=p) for p in [*changed, *kept]),
        oe.saved_by_libreoffice(path=path),
    ]


def _select_section(sections: str, heading: str = UK) -> list[ActionCall]:
    """From the top (the title), down to the section's heading paragraph (Ctrl+Down),
    then the whole section selected (Ctrl+Shift+Down per paragraph)."""
    parts = _sections(sections)
    before = 1 + sum(len(s) for s in parts[: [s[0] for s in parts].index(heading)])
    size = len(next(s for s in parts if s[0] == heading))
    return [
        call(D, "hotkey", keys=["ctrl", "home"]),
        *[call(D, "hotkey", keys=["ctrl", "down"])] * before,
        *[call(D, "hotkey", keys=["ctrl", "shift", "down"])] * size,
    ]


def _replace(search: str, replacement: str, button: str = "Replace All") -> list[ActionCall]:
    """Find and Replace (Ctrl+H) with regular expressions: the pattern, the replacement
    (Alt+P: the Replace field), ``button``, and the dialog closed."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "write_text", text=search),
        call(D, "click_on", name="Regular expressions", role="check box"),
        call(D, "hotkey", keys=["alt", "p"]),
        call(D, "write_text", text=replacement),
        call(D, "click_on", name=button, role="push button"),
        wait(),
        call(D, "click_on", name="Close", role="push button"),
    ]


def phones_solution(path: str, title: str, sections: str) -> list[ActionCall]:
    return [
        *open_in_writer(path),
        *_select_section(sections),
        *_replace(SEARCH, REPLACE),
        *save_and_quit(),
    ]


def phones_found_heading(path: str, title: str, sections: str) -> list[ActionCall]:
    """Alternative: the heading found with Find and Replace (Find Next selects it), the
    selection then extended over the section with Ctrl+Shift+Down."""
    size = len(next(s for s in _sections(sections) if s[0] == UK))
    return [
        *open_in_writer(path),
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "write_text", text=UK),
        call(D, "click_on", name="Find Next", role="push button"),
        call(D, "click_on", name="Close", role="push button"),
        *[call(D, "hotkey", keys=["ctrl", "shift", "down"])] * size,
        *_replace(SEARCH, REPLACE),
        *save_and_quit(),
    ]


def phones_whole_document(path: str, title: str, sections: str) -> list[ActionCall]:
    """Near miss: the right pattern over the whole document (the other countries'
    numbers get +44 too)."""
    return [*open_in_writer(path), *_replace(SEARCH, REPLACE), *save_and_quit()]


def phones_loose_pattern(path: str, title: str, sections: str) -> list[ActionCall]:
    """Near miss: a loose pattern over the section that also rewrites the time."""
    return [
        *open_in_writer(path),
        *_select_section(sections),
        *_replace(r": \(?0(\d+)\)?", ": +44 $1"),
        *save_and_quit(),
    ]


def phones_kept_zero(path: str, title: str, sections: str) -> list[ActionCall]:
    """Near miss: +44 put in front with the leading 0 kept ("+44 0161 ...")."""
    return [
        *open_in_writer(path),
        *_select_section(sections),
        *_replace(r": \(?(0\d+)\)? ", REPLACE),
        *save_and_quit(),
    ]


WRITER_UK_PHONES = SubTask(
    id="desktop.writer_uk_phones",
    description=(
        "The contact list {path} goes to our partners abroad. Write every UK telephone "
        "number in it in international form: +44, then the number without its leading 0 "
        "and without brackets, so (0123) 456 7890 becomes +44 123 456 7890 and "
        "07000 111222 becomes +44 7000 111222. The other countries' numbers and all other "
        "text stay exactly as they are. Save the document in its own format."
    ),
    attributes={"path": "desktop_file", "title": "text", "sections": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=PHONE_RECORDS,
    setup_generator=phones_setup,
    evaluator_generator=phones_checkpoints,
    solution_generator=phones_solution,
    alternative_generators=[phones_found_heading],
    output_generator=saved_document,
    near_misses=[
        NearMiss("rewrites every country's numbers", solution=phones_whole_document),
        NearMiss("uses a pattern that also rewrites the time", solution=phones_loose_pattern),
        NearMiss("keeps the leading 0", solution=phones_kept_zero),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_UK_PHONES]
