"""reef-v2's robustness family: a normal task made hard by the state the user left things
in, which the agent must notice and deal with the right way before the real work counts.

* :data:`CALC_FILTERED_TOTAL` (hard, in :mod:`.robustness_calc`): a claims workbook opens
  on last year's sheet; this year's sheet has rows hidden by hand (one a 2025 claim filed
  there), an amount stored as text and claims after a blank row. The formula must add
  every claim dated in 2026 and only those.
* :data:`WRITER_TRACKED_RENAME` (hard, in :mod:`.robustness_writer`): a contract that
  records every edit as a tracked change and carries a colleague's agreed changes, still
  pending (one occurrence renamed, a sentence naming the supplier deleted); the final text
  must name the new company everywhere with no change left pending.
* :data:`WRITER_READ_ONLY_STATUS` (medium): the minutes are open in Writer read-only; the
  status line must change in the file itself (Edit Mode first). A copy saved under
  another name, or a status line added rather than changed, fails.
* :data:`EDITOR_UNSAVED_NOTES` (medium): the text editor asks "Save changes?" over notes
  the user typed and never saved; a new entry must be added without losing them. Don't
  Save loses them and fails.
* :data:`FILES_HIDDEN_SHOWN` (medium): the file manager is open elsewhere with hidden
  files shown; the PDFs of Downloads must move, the hidden files stay. Select all then
  take the hidden ones along fails, as does copying.

Setups write the odd state where a user's would be (the document's own settings, through
:mod:`reefbench.benchmark.odd_states`) or make it with the desktop's own actions (an app
opened, keys pressed), so the agent sees it in the screenshot and the element list.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark import odd_states as od
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import (
    call,
    desktop_menu,
    expand,
    mousepad_open,
    mousepad_save_quit,
    q,
    terminal,
    thunar_go,
    thunar_quit,
    wait,
)
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.robustness_calc import CALC_FILTERED_TOTAL
from reefbench.benchmark.templates.robustness_writer import WRITER_TRACKED_RENAME, _replace_all
from reefbench.benchmark.templates.writer import save_and_quit
from reefbench.envs.desktop import actions as da
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


def _step(action: object) -> ActionStep:
    return ActionStep(env=D, action=action)  # type: ignore[arg-type]


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


# ------------------------------------------------------- read-only minutes status
def _minutes(team: str, day: str) -> str:
    return "\n".join(
        [
            f"Minutes of the {team} meeting, {day}",
            "Status: draft",
            "Present: Ana Ruiz, Ben Okafor, Chloe Martin, Dev Patel",
            "1. The budget for the second quarter was agreed as proposed.",
            "2. The office move is planned for the first week of June.",
            "3. Next meeting in four weeks, same room.",
        ]
    )


MINUTES = [
    ("~/Documents/board-minutes.odt", "board", "12 March 2026"),
    ("~/Documents/steering-minutes.odt", "steering group", "9 March 2026"),
    ("~/Documents/committee-minutes.odt", "finance committee", "5 March 2026"),
    ("~/Documents/team-minutes.odt", "team leads", "11 March 2026"),
    ("~/Documents/council-minutes.odt", "works council", "2 March 2026"),
]
MINUTES_RECORDS = [{"path": p, "text": _minutes(team, day)} for p, team, day in MINUTES]
DRAFT = "Status: draft"
APPROVED = "Status: approved"


def minutes_setup(path: str, text: str) -> list[ActionStep]:
    return [
        _step(od.create_odd_document(path=path, paragraphs=text.splitlines(), read_only=True)),
        _step(st.open_app(app="writer", file=expand(path))),
    ]


def minutes_checkpoints(path: str, text: str) -> list[Evaluator]:
    return [
        od.document_clean_replace(path=path, new=APPROVED, old=DRAFT, count=1),
        oe.saved_by_libreoffice(path=path),
    ]


def _edit_and_approve(edit: list[ActionCall]) -> list[ActionCall]:
    return [*edit, wait(), *_replace_all(DRAFT, APPROVED)]


# Edit Mode (Edit > Edit Mode, Ctrl+Shift+M) makes the read-only document editable; the
# window's title says "(read-only)" until then, and typing changes nothing.
EDIT_MODE = [call(D, "hotkey", keys=["ctrl", "shift", "m"])]


def minutes_solution(path: str, text: str) -> list[ActionCall]:
    """Edit Mode on (Ctrl+Shift+M), the status replaced, saved in place."""
    return [*_edit_and_approve(EDIT_MODE), *save_and_quit()]


def minutes_edit_menu(path: str, text: str) -> list[ActionCall]:
    """Edit Mode through the menu (Edit > Edit Mode)."""
    return [*_edit_and_approve(desktop_menu("Edit", "Edit Mode")), *save_and_quit()]


def minutes_appended(path: str, text: str) -> list[ActionCall]:
    """Near miss: a new status line added at the end, the draft line left."""
    return [
        *EDIT_MODE,
        wait(),
        call(D, "hotkey", keys=["ctrl", "end"]),
        call(D, "write_text", text="\n" + APPROVED),
        *save_and_quit(),
    ]


def minutes_saved_copy(path: str, text: str) -> list[ActionCall]:
    """Near miss: the approved minutes saved as a new file, the original left a draft."""
    copy = expand(path).replace(".odt", "-approved.odt")
    return [
        *_edit_and_approve(EDIT_MODE),
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        wait(),
        call(D, "write_text", text=copy),
        call(D, "press", key="enter"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


WRITER_READ_ONLY_STATUS = SubTask(
    id="desktop.writer_read_only_status",
    description=(
        "The minutes already open on the screen ({path}) were approved this morning. "
        "Change their status line from 'Status: draft' to 'Status: approved' and save the "
        "minutes in place, in their own format."
    ),
    attributes={"path": "desktop_file", "text": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=["edit a document professionally on the computer"],
    value_records=MINUTES_RECORDS,
    setup_generator=minutes_setup,
    evaluator_generator=minutes_checkpoints,
    solution_generator=minutes_solution,
    alternative_generators=[minutes_edit_menu],
    output_generator=saved_document,
    near_misses=[
        NearMiss("adds a status line instead of changing it", solution=minutes_appended),
        NearMiss("saves the approved minutes as a new file", solution=minutes_saved_copy),
    ],
)


# --------------------------------------------------------- unsaved notes dialog
NOTES = [
    ("~/Documents/call-notes.txt", ["Ana Ruiz: 555-0101", "Ben Okafor: 555-0102"],
     ["Chloe Martin: 555-0103", "Dev Patel: 555-0104"], "Elif Kaya", "555-0105"),
    ("~/Documents/phone-list.txt", ["Femi Adeyemi: 555-0106"],
     ["Greta Lind: 555-0107", "Hiro Tanaka: 555-0108"], "Ines Costa", "555-0109"),
    ("~/Desktop/numbers.txt", ["Jonas Weber: 555-0110", "Kira Novak: 555-0111"],
     ["Liam Byrne: 555-0112"], "Ana Ruiz", "555-0101"),
    ("~/Documents/callbacks.txt", ["Dev Patel: 555-0104"],
     ["Ben Okafor: 555-0102", "Greta Lind: 555-0107"], "Kira Novak", "555-0111"),
    ("~/Desktop/to-call.txt", ["Hiro Tanaka: 555-0108", "Elif Kaya: 555-0105"],
     ["Jonas Weber: 555-0110"], "Chloe Martin", "555-0103"),
]  # fmt: skip
NOTES_RECORDS = [
    {"path": p, "saved": "\n".join(s), "unsaved": "\n".join(u), "name": n, "number": num}
    for p, s, u, n, num in NOTES
]


def notes_setup(path: str, saved: str, unsaved: str, name: str, number: str) -> list[ActionStep]:
    """The notes file, open in the text editor with lines typed and not saved, and the
    editor asked to quit: its "Save changes?" dialog is up when the agent starts."""
    return [
        _step(st.create_file(path=path, content=saved + "\n")),
        _step(st.open_app(app="editor", file=expand(path))),
        _step(da.hotkey(keys=["ctrl", "end"])),
        _step(da.write_text(text=unsaved + "\n")),
        _step(da.hotkey(keys=["ctrl", "q"])),
    ]


def notes_checkpoints(
    path: str, saved: str, unsaved: str, name: str, number: str
) -> list[Evaluator]:
    lines = [*saved.splitlines(), *unsaved.splitlines(), f"{name}: {number}"]
    return [od.file_lines(path=path, lines=lines)]


def _add_entry(name: str, number: str) -> list[ActionCall]:
    return [
        call(D, "hotkey", keys=["ctrl", "end"]),
        call(D, "write_text", text=f"{name}: {number}\n"),
    ]


def notes_solution(path: str, saved: str, unsaved: str, name: str, number: str) -> list[ActionCall]:
    """Save in the dialog (the editor saves and quits), then reopen and add the entry."""
    return [
        call(D, "click_on", name="Save", role="push button"),
        wait(),
        *mousepad_open(path),
        *_add_entry(name, number),
        *mousepad_save_quit(),
    ]


def notes_cancel(path: str, saved: str, unsaved: str, name: str, number: str) -> list[ActionCall]:
    """Cancel the quit, add the entry in the open editor, save it all."""
    return [
        call(D, "click_on", name="Cancel", role="push button"),
        wait(),
        *_add_entry(name, number),
        *mousepad_save_quit(),
    ]


def notes_discarded(
    path: str, saved: str, unsaved: str, name: str, number: str
) -> list[ActionCall]:
    """Near miss: Don't Save (the typed lines are lost), then the entry added."""
    return [
        call(D, "click_on", name="Don't Save", role="push button"),
        wait(),
        *mousepad_open(path),
        *_add_entry(name, number),
        *mousepad_save_quit(),
    ]


EDITOR_UNSAVED_NOTES = SubTask(
    id="desktop.editor_unsaved_notes",
    description=(
        "I was noting down numbers from this morning's calls in {path} when I had to leave "
        "my desk. Add {name}'s number, {number}, as the last entry, written like the others, "
        "and make sure nothing I had already typed gets lost."
    ),
    attributes={
        "path": "desktop_file",
        "saved": "str",
        "unsaved": "str",
        "name": "name",
        "number": "phone_number",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=["write a note on the computer"],
    value_records=NOTES_RECORDS,
    setup_generator=notes_setup,
    evaluator_generator=notes_checkpoints,
    solution_generator=notes_solution,
    alternative_generators=[notes_cancel],
    output_generator=saved_document,
    near_misses=[
        NearMiss("answers Don't Save and loses the typed lines", solution=notes_discarded),
        NearMiss("swaps two digits of the number", changes={"number": nm.digits_swapped}),
    ],
)


# ------------------------------------------------------ hidden files shown
DOWNLOADS = "~/Downloads"
LETTERS = "~/Documents/Letters"
FILE_SETS = [
    (["letter-bank.pdf", "letter-tax-office.pdf", "lease-renewal.pdf"],
     ["holiday.jpg", "notes.txt"], [".lease-renewal.pdf.part", ".thumbs/holiday.png"],
     "~"),
    (["insurance-letter.pdf", "council-tax.pdf", "school-trip.pdf", "pension.pdf"],
     ["setup.sh", "recipe.txt"], [".directory", ".~lock.budget.ods#"], "~"),
    (["water-bill.pdf", "gp-letter.pdf", "payslip-march.pdf"],
     ["budget.ods", "map.png"], [".payslip-april.pdf.part", ".cache/index.db"], "~"),
    (["tenancy.pdf", "bank-statement.pdf", "visa-letter.pdf", "warranty.pdf"],
     ["photo-01.jpg", "todo.txt"], [".hidden", ".trash-info/tenancy.pdf.trashinfo"], "~"),
    (["dentist-letter.pdf", "energy-offer.pdf", "car-tax.pdf"],
     ["wallpaper.png", "draft.txt"], [".energy-offer.pdf.swp", ".config-backup/settings.ini"],
     "~"),
]  # fmt: skip
FILE_RECORDS = [
    {"pdfs": "\n".join(p), "others": "\n".join(o), "hidden": "\n".join(h), "opened": f}
    for p, o, h, f in FILE_SETS
]


def _names(text: str) -> list[str]:
    return text.splitlines()


def files_setup(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionStep]:
    """Downloads with the PDFs, other files and hidden ones (dot files, a dot folder); the
    Letters folder; the file manager open on another folder, hidden files shown (Ctrl+H)."""
    steps = [
        _step(st.create_file(path=f"{DOWNLOADS}/{name}", content=f"{name}\n"))
        for name in [*_names(pdfs), *_names(others), *_names(hidden)]
    ]
    return [
        *steps,
        _step(st.create_directory(path=LETTERS)),
        _step(st.open_app(app="files", file=expand(opened))),
        _step(da.hotkey(keys=["ctrl", "h"])),
    ]


def files_checkpoints(pdfs: str, others: str, hidden: str, opened: str) -> list[Evaluator]:
    checks: list[Evaluator] = []
    for name in _names(pdfs):
        checks += [
            ev.file_exists(path=f"{LETTERS}/{name}"),
            hp.file_absent(path=f"{DOWNLOADS}/{name}"),
        ]
    for name in [*_names(others), *_names(hidden)]:
        checks.append(ev.file_exists(path=f"{DOWNLOADS}/{name}"))
    return checks


def files_solution(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionCall]:
    """The shell's ``*`` leaves dot files out."""
    return terminal(f"mv {expand(DOWNLOADS)}/*.pdf {expand(LETTERS)}/")


def files_by_pattern(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionCall]:
    """In the file manager: Downloads, Edit > Select by Pattern (Ctrl+S) ``*.pdf``, cut,
    Letters, paste."""
    return [
        *thunar_go(DOWNLOADS),
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        call(D, "write_text", text="*.pdf\n"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "x"]),
        *thunar_go(LETTERS),
        call(D, "hotkey", keys=["ctrl", "v"]),
        wait(),
        *thunar_quit(),
    ]


def files_with_hidden(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionCall]:
    """Near miss: everything selected but the visible non-PDFs, so the hidden files go
    along."""
    tops = sorted({name.split("/")[0] for name in _names(hidden)})
    moved = " ".join(q(f"{DOWNLOADS}/{n}") for n in [*_names(pdfs), *tops])
    return terminal(f"mv {moved} {expand(LETTERS)}/")


def files_copied(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionCall]:
    """Near miss: the PDFs copied, not moved."""
    return terminal(f"cp {expand(DOWNLOADS)}/*.pdf {expand(LETTERS)}/")


def files_one_left(pdfs: str, others: str, hidden: str, opened: str) -> list[ActionCall]:
    """Near miss: every PDF moved but the last."""
    moved = " ".join(f"{expand(DOWNLOADS)}/{n}" for n in _names(pdfs)[:-1])
    return terminal(f"mv {moved} {expand(LETTERS)}/")


FILES_HIDDEN_SHOWN = SubTask(
    id="desktop.files_hidden_shown",
    description=(
        "Please tidy my Downloads folder: move every PDF in it into {letters}, and leave "
        "everything else in Downloads where it is."
    ).replace("{letters}", LETTERS),
    attributes={"pdfs": "str", "others": "str", "hidden": "str", "opened": "desktop_dir"},
    outputs=["desktop_file"],
    env=D,
    app="files",
    app_category="file management",
    intents=["organise files on the computer"],
    value_records=FILE_RECORDS,
    setup_generator=files_setup,
    evaluator_generator=files_checkpoints,
    solution_generator=files_solution,
    alternative_generators=[files_by_pattern],
    near_misses=[
        NearMiss("moves the hidden files along with the PDFs", solution=files_with_hidden),
        NearMiss("copies the PDFs instead of moving them", solution=files_copied),
        NearMiss("leaves one PDF behind", solution=files_one_left),
    ],
)

TEMPLATES: list[SubTask] = [
    CALC_FILTERED_TOTAL,
    WRITER_TRACKED_RENAME,
    WRITER_READ_ONLY_STATUS,
    EDITOR_UNSAVED_NOTES,
    FILES_HIDDEN_SHOWN,
]
