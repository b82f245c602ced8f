"""reef-v2's Writer template on a long agreement whose body must agree with its annex.

The setup writes a six-to-eight page services agreement (sixteen numbered sections, two
annexes; three companies, two of them with near-identical names) whose last page,
Annex B, is a table of the agreed fees, notice periods and deadlines. The body states
five of those figures in different sections; three of them differ from the annex, one
of the three in two sections pages apart. Look-alikes sit in the body too: the wrong
figure again, word for word, in another meaning the annex does not set (backups kept for
"30 days" when only the notice period is 45 days), and correct figures equal to another
row's wrong one. Nothing shows on one screen: the agent reads the annex at the end, then
the whole body against it.

The checkpoints read the saved ``.odt`` with odfpy: each corrected paragraph as it must
read, each look-alike paragraph unchanged, then the whole text (annex table included)
word for word as expected (``office.document_text_is``), and a save by LibreOffice.

The reference opens the agreement in Writer and corrects each wrong figure with Find and
Replace on a phrase that holds it; the alternative finds each phrase with the Find
toolbar and types over the selection.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer, save_and_quit
from reefbench.benchmark.templates.writer_contract_layout import AGREEMENTS, BY_PATH, layout
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import writer_contract_evaluators as wce
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


ANNEX_RECORDS = [{"path": a.path, "title": a.title} for a in AGREEMENTS]


def annex_setup(path: str, title: str) -> list[ActionStep]:
    blocks = layout(BY_PATH[path]).blocks
    return [
        ActionStep(
            env=D, action=wce.create_agreement_document(path=path, title=title, blocks=blocks)
        )
    ]


def annex_checkpoints(path: str, title: str) -> list[Evaluator]:
    """Each corrected paragraph, each paragraph that must stay, then the whole text."""
    laid = layout(BY_PATH[path])
    return [
        *(oe.document_paragraph(path=path, text=fix.after) for fix in laid.fixes),
        *(oe.document_paragraph(path=path, text=text) for text in laid.kept),
        wce.document_text_is(path=path, paragraphs_expected=laid.expected),
        oe.saved_by_libreoffice(path=path),
    ]


def _replace_all(search: str, replacement: str) -> list[ActionCall]:
    """Find and Replace (Ctrl+H): the search phrase, the replacement (Alt+P: the Replace
    field; Ctrl+A first, as either field may hold the last search), Replace All, Close."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=search),
        call(D, "hotkey", keys=["alt", "p"]),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=replacement),
        call(D, "click_on", name="Replace All", role="push button"),
        wait(),
        call(D, "click_on", name="Close", role="push button"),
        wait(),
    ]


def _type_over(search: str, replacement: str) -> list[ActionCall]:
    """The Find toolbar (Ctrl+F) finds the phrase and selects it; Escape closes the
    toolbar, leaving the selection; the corrected phrase typed over it."""
    return [
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "hotkey", keys=["ctrl", "f"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=search + "\n"),
        wait(),
        call(D, "press", key="escape"),
        call(D, "write_text", text=replacement),
    ]


def annex_solution(path: str, title: str) -> list[ActionCall]:
    fixes = layout(BY_PATH[path]).fixes
    steps = [s for fix in fixes for s in _replace_all(fix.phrase, fix.corrected)]
    return [*open_in_writer(path), *steps, *save_and_quit()]


def annex_by_typing(path: str, title: str) -> list[ActionCall]:
    """Alternative: each phrase found with the Find toolbar and retyped in place."""
    fixes = layout(BY_PATH[path]).fixes
    steps = [s for fix in fixes for s in _type_over(fix.phrase, fix.corrected)]
    return [*open_in_writer(path), *steps, *save_and_quit()]


def annex_first_only(path: str, title: str) -> list[ActionCall]:
    """Near miss: only the first wrong figure corrected (the read stopped early)."""
    fix = layout(BY_PATH[path]).fixes[0]
    return [*open_in_writer(path), *_replace_all(fix.phrase, fix.corrected), *save_and_quit()]


def annex_missed_repeat(path: str, title: str) -> list[ActionCall]:
    """Near miss: every kind of wrong figure corrected once, the repeated one only where
    it first appears (its second statement, pages later, left wrong)."""
    fixes = layout(BY_PATH[path]).fixes
    seen: set[str] = set()
    steps: list[ActionCall] = []
    for fix in fixes:
        if fix.kind in seen:
            continue
        seen.add(fix.kind)
        steps += _replace_all(fix.phrase, fix.corrected)
    return [*open_in_writer(path), *steps, *save_and_quit()]


def annex_figure_everywhere(path: str, title: str) -> list[ActionCall]:
    """Near miss: each wrong figure replaced wherever it appears (Replace All on the bare
    figure), the look-alikes in other meanings too."""
    agreement = BY_PATH[path]
    steps = [
        s
        for kind, wrong in agreement.wrong.items()
        for s in _replace_all(wrong, agreement.annex[kind])
    ]
    return [*open_in_writer(path), *steps, *save_and_quit()]


def annex_edited(path: str, title: str) -> list[ActionCall]:
    """Near miss: the annex's figures changed to the body's (its table made to agree with
    the body, not the other way round)."""
    agreement = BY_PATH[path]
    steps: list[ActionCall] = [call(D, "hotkey", keys=["ctrl", "end"])]
    for kind, wrong in agreement.wrong.items():
        steps += [
            call(D, "hotkey", keys=["ctrl", "f"]),
            wait(),
            call(D, "hotkey", keys=["ctrl", "a"]),
            # From the end, Shift+Enter searches backwards: the annex's cell first.
            call(D, "write_text", text=agreement.annex[kind]),
            call(D, "hotkey", keys=["shift", "enter"]),
            wait(),
            call(D, "press", key="escape"),
            call(D, "write_text", text=wrong),
            call(D, "hotkey", keys=["ctrl", "end"]),
        ]
    return [*open_in_writer(path), *steps, *save_and_quit()]


WRITER_MATCH_ANNEX = SubTask(
    id="desktop.writer_match_annex",
    description=(
        "In the agreement {path}, Annex B (at the end) is a table of the agreed fees, notice "
        "periods and deadlines, and it is authoritative. Wherever the body of the agreement "
        "states a figure for one of the items in Annex B's table differently from the table, "
        "correct that figure in the body to the table's figure, written as the table writes "
        "it. Change nothing else: not Annex B, not figures that mean something the table does "
        "not list, not any other text. Save the document in its own format."
    ),
    attributes={"path": "desktop_file", "title": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=ANNEX_RECORDS,
    setup_generator=annex_setup,
    evaluator_generator=annex_checkpoints,
    solution_generator=annex_solution,
    alternative_generators=[annex_by_typing],
    output_generator=saved_document,
    near_misses=[
        NearMiss("corrects only the first wrong figure", solution=annex_first_only),
        NearMiss("misses the second statement of a figure", solution=annex_missed_repeat),
        NearMiss(
            "replaces a wrong figure everywhere, look-alikes too", solution=annex_figure_everywhere
        ),
        NearMiss("edits the annex instead of the body", solution=annex_edited),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_MATCH_ANNEX]
