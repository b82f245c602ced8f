"""reef-v2's Writer template of inline citations made footnotes, sent as a Word copy
(issue 33's Writer list: "footnotes ... export to docx").

The setup writes a three-to-four page report (``.odt``, five sections) whose author cited
sources inline in square brackets, "... rose by 4.2 % [Source: ONS Retail Sales Bulletin,
May 2026]."; five or six citations, some long, one in the middle of a sentence, one
source cited twice, and one bracket that is not a citation ("[provisional]"), which must
stay. The user wants each citation turned into a footnote at its place, the bracket gone
from the text, and a Word copy: a ``.docx`` at a stated path.

Two checkpoints read the ``.docx`` (:mod:`reefbench.envs.desktop.writer_notes_evaluators`):
every citation a footnote, in order, reading the source alone; then the body as it was
with each citation replaced by its footnote mark (so the mark stands where the citation
stood), no "[Source:" left, the other bracket kept. Endnotes, the citations kept in the
text as well, a citation missed, notes keeping "Source:" and the brackets, or a save in
the ``.odt`` only each fail.

The reference opens the report in Writer and, for each citation in turn, selects it with
Find & Replace (the bracket with the space before it), deletes it, inserts a footnote
there (Insert > Footnote and Endnote > Footnote) and types the source; then saves a copy
as ``.docx`` through Save As. The alternative finds each citation with the Find toolbar
and inserts the note through the Footnote or Endnote dialog.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer
from reefbench.benchmark.templates.writer_notes_reports import (
    BY_PATH,
    REPORTS,
    blocks,
    citations,
    paragraphs,
)
from reefbench.envs.desktop import writer_contract_evaluators as wce
from reefbench.envs.desktop import writer_notes_evaluators as wne
from reefbench.envs.desktop.evaluators import file_key
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"

NOTES_RECORDS = [{"path": r.path, "docx": r.docx, "title": r.title} for r in REPORTS]


def notes_setup(path: str, docx: str, title: str) -> list[ActionStep]:
    report = BY_PATH[path]
    return [
        ActionStep(
            env=D,
            action=wce.create_agreement_document(path=path, title=title, blocks=blocks(report)),
        )
    ]


def notes_checkpoints(path: str, docx: str, title: str) -> list[Evaluator]:
    written = paragraphs(BY_PATH[path])
    return [
        wne.citations_as_footnotes(path=docx, paragraphs=written),
        wne.text_without_citations(path=docx, paragraphs=written),
    ]


def notes_output(path: str, docx: str, title: str) -> str:
    """What the template hands on: the Word copy it saved."""
    return docx


def notes_allowances(path: str, docx: str, title: str) -> list[str]:
    """The instruction lets the .odt keep the changes too."""
    return [file_key(path)]


def _find_dialog(bracket: str) -> list[ActionCall]:
    """Find & Replace (Ctrl+H): the citation searched (Find Next selects it), the dialog
    closed, the selection kept."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=bracket),
        call(D, "click_on", name="Find Next", role="push button"),
        wait(),
        call(D, "click_on", name="Close", role="push button"),
        wait(),
    ]


def _find_toolbar(bracket: str) -> list[ActionCall]:
    """The Find toolbar (Ctrl+F): the citation found and selected; Escape closes the
    toolbar and leaves the selection."""
    return [
        call(D, "hotkey", keys=["ctrl", "f"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=bracket + "\n"),
        wait(),
        call(D, "press", key="escape"),
    ]


def _footnote_menu() -> list[ActionCall]:
    return [*desktop_menu("Insert", "Footnote and Endnote", "Footnote"), wait()]


def _endnote_menu() -> list[ActionCall]:
    return [*desktop_menu("Insert", "Footnote and Endnote", "Endnote"), wait()]


def _footnote_dialog() -> list[ActionCall]:
    """Insert > Footnote and Endnote > Footnote or Endnote...: Footnote and automatic
    numbering are the dialog's defaults; OK."""
    return [
        *desktop_menu("Insert", "Footnote and Endnote", "Footnote or Endnote..."),
        wait(),
        call(D, "click_on", name="OK", role="push button"),
        wait(),
    ]


def _each(
    path: str,
    find: list[ActionCall] | None = None,
    delete: bool = True,
    insert: list[ActionCall] | None = None,
    note: str = "{}",
    skip: int = -1,
    finder: str = "dialog",
) -> list[ActionCall]:
    """For each citation (but number ``skip``): found and selected, deleted (unless
    ``delete`` is false: the cursor then goes past it), a note inserted there and its text
    typed (``note`` formats the source), then Page Up back to the note's anchor."""
    steps: list[ActionCall] = []
    for index, (bracket, source) in enumerate(citations(BY_PATH[path])):
        if index == skip:
            continue
        steps += _find_dialog(bracket) if finder == "dialog" else _find_toolbar(bracket)
        steps.append(call(D, "press", key="delete" if delete else "right"))
        steps += insert if insert is not None else _footnote_menu()
        steps += [
            call(D, "write_text", text=note.format(source)),
            call(D, "press", key="pageup"),
        ]
    return steps


def save_as_word(docx: str) -> list[ActionCall]:
    """Save As (Ctrl+Shift+S) under the .docx name (its extension picks the Word format;
    the desktop's LibreOffice does not ask whether to keep it), then quit."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(docx)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


def notes_solution(path: str, docx: str, title: str) -> list[ActionCall]:
    return [*open_in_writer(path), *_each(path), *save_as_word(docx)]


def notes_by_toolbar(path: str, docx: str, title: str) -> list[ActionCall]:
    """Alternative: each citation found with the Find toolbar, each note inserted through
    the Footnote or Endnote dialog."""
    steps = _each(path, insert=_footnote_dialog(), finder="toolbar")
    return [*open_in_writer(path), *steps, *save_as_word(docx)]


def notes_as_endnotes(path: str, docx: str, title: str) -> list[ActionCall]:
    """Near miss: endnotes instead of footnotes."""
    return [*open_in_writer(path), *_each(path, insert=_endnote_menu()), *save_as_word(docx)]


def notes_citations_kept(path: str, docx: str, title: str) -> list[ActionCall]:
    """Near miss: a footnote after each citation, the citation left in the text too."""
    return [*open_in_writer(path), *_each(path, delete=False), *save_as_word(docx)]


def notes_one_missed(path: str, docx: str, title: str) -> list[ActionCall]:
    """Near miss: the longest citation overlooked."""
    lengths = [len(bracket) for bracket, _ in citations(BY_PATH[path])]
    longest = lengths.index(max(lengths))
    return [*open_in_writer(path), *_each(path, skip=longest), *save_as_word(docx)]


def notes_source_kept(path: str, docx: str, title: str) -> list[ActionCall]:
    """Near miss: each note reads the whole bracket, "[Source: ...]", not the source."""
    steps = _each(path, note="[Source: {}]")
    return [*open_in_writer(path), *steps, *save_as_word(docx)]


def notes_odt_only(path: str, docx: str, title: str) -> list[ActionCall]:
    """Near miss: the footnotes made, but saved in the .odt only (no Word copy)."""
    return [
        *open_in_writer(path),
        *_each(path),
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


WRITER_FOOTNOTES_DOCX = SubTask(
    id="desktop.writer_footnotes_docx",
    description=(
        "In the report {path}, the author cited sources inline, in square brackets that "
        "begin with 'Source:', such as [Source: Annual Survey, May 2026]. Turn every one of "
        "these citations into a footnote (not an endnote) at the place where it stands: "
        "remove the bracketed citation from the text, with the space before it, and put "
        "the footnote's mark where it was (just before or just after the punctuation next "
        "to it is fine). Each footnote's text is the source alone, without the brackets "
        "and without 'Source:' (Annual Survey, May 2026 in the example). A source cited "
        "twice gets two footnotes. Keep the rest of the text as it is, including any other "
        "square brackets. Then save a copy of the report as a Word document, {docx}; the "
        "original .odt may stay as it was or keep the changes too."
    ),
    attributes={"path": "desktop_file", "docx": "desktop_file", "title": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=NOTES_RECORDS,
    setup_generator=notes_setup,
    evaluator_generator=notes_checkpoints,
    solution_generator=notes_solution,
    alternative_generators=[notes_by_toolbar],
    output_generator=notes_output,
    allowances=notes_allowances,
    near_misses=[
        NearMiss("makes endnotes instead of footnotes", solution=notes_as_endnotes),
        NearMiss("leaves the citations in the text as well", solution=notes_citations_kept),
        NearMiss("misses one citation", solution=notes_one_missed),
        NearMiss("keeps 'Source:' and the brackets in the notes", solution=notes_source_kept),
        NearMiss("saves the .odt only, no Word copy", solution=notes_odt_only),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_FOOTNOTES_DOCX]
