"""reef-v2's Writer template that fills an agreement's annex from its body.

The setup writes the same kind of seven-page agreement as the match template
(:mod:`reefbench.benchmark.templates.writer_contract`), but its body states every one of
the seven figures of Annex B right, each in its own section (one of them twice), and its
Annex B table says "to be confirmed" for all of them. Look-alikes surround them: a figure
of the same kind meaning something the table does not list (backups kept for 30 days
beside a notice period of 45 days, public liability insurance beside the liability cap).
The agent reads the whole body, tells each item's figure from its look-alike and types
seven figures into the table.

The checkpoints read the saved ``.odt`` with odfpy: the whole text, the table included,
as it must read (``office.document_text_is``), and a save by LibreOffice. The reference
fills the cells in order with Find and Replace: "to be confirmed" found once, then each
figure put in the Replace field and Replace pressed (it replaces the found cell and
finds the next).
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer, save_and_quit
from reefbench.benchmark.templates.writer_contract_layout import AGREEMENTS, Agreement, layout
from reefbench.benchmark.templates.writer_contract_text import ROWS, TO_CONFIRM
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import writer_contract_evaluators as wce
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


def _draft(path: str) -> str:
    """The fill task's file: the agreement's name with "-for-signing"."""
    return path.removesuffix(".odt") + "-for-signing.odt"


BY_DRAFT: dict[str, Agreement] = {_draft(a.path): a for a in AGREEMENTS}
FILL_RECORDS = [{"path": _draft(a.path), "title": a.title} for a in AGREEMENTS]


def fill_setup(path: str, title: str) -> list[ActionStep]:
    blocks = layout(BY_DRAFT[path], fill=True).blocks
    return [
        ActionStep(
            env=D, action=wce.create_agreement_document(path=path, title=title, blocks=blocks)
        )
    ]


def fill_checkpoints(path: str, title: str) -> list[Evaluator]:
    laid = layout(BY_DRAFT[path], fill=True)
    return [
        wce.document_text_is(path=path, paragraphs_expected=laid.expected),
        oe.saved_by_libreoffice(path=path),
    ]


def _fill(figures: list[str]) -> list[ActionCall]:
    """From the top, Find and Replace (Ctrl+H) on "to be confirmed": Find Next selects the
    first cell's text; then per figure, the Replace field (Alt+P, Ctrl+A) set to it and
    Replace pressed, which replaces the found text and finds the next."""
    steps: list[ActionCall] = [
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=TO_CONFIRM),
        call(D, "click_on", name="Find Next", role="push button"),
        wait(),
    ]
    for figure in figures:
        steps += [
            call(D, "hotkey", keys=["alt", "p"]),
            call(D, "hotkey", keys=["ctrl", "a"]),
            call(D, "write_text", text=figure),
            call(D, "click_on", name="Replace", role="push button"),
            wait(),
        ]
    return [*steps, call(D, "click_on", name="Close", role="push button"), wait()]


def _figures(path: str) -> list[str]:
    agreement = BY_DRAFT[path]
    return [agreement.annex[kind] for kind, _ in ROWS]


def fill_solution(path: str, title: str) -> list[ActionCall]:
    return [*open_in_writer(path), *_fill(_figures(path)), *save_and_quit()]


def fill_lookalike(path: str, title: str) -> list[ActionCall]:
    """Near miss: one item given its look-alike's figure (the wrong sentence's)."""
    agreement = BY_DRAFT[path]
    kind, wrong = next(iter(agreement.wrong.items()))
    figures = [wrong if k == kind else agreement.annex[k] for k, _ in ROWS]
    return [*open_in_writer(path), *_fill(figures), *save_and_quit()]


def fill_stopped_early(path: str, title: str) -> list[ActionCall]:
    """Near miss: the last item left "to be confirmed"."""
    return [*open_in_writer(path), *_fill(_figures(path)[:-1]), *save_and_quit()]


def fill_swapped(path: str, title: str) -> list[ActionCall]:
    """Near miss: the fee and the liability cap (both sums of money) entered in each
    other's row."""
    figures = _figures(path)
    kinds = [k for k, _ in ROWS]
    fee, cap = kinds.index("fee"), kinds.index("liability")
    figures[fee], figures[cap] = figures[cap], figures[fee]
    return [*open_in_writer(path), *_fill(figures), *save_and_quit()]


WRITER_FILL_ANNEX = SubTask(
    id="desktop.writer_fill_annex",
    description=(
        "In the agreement {path}, the table of Annex B (at the end) lists the agreed fees, "
        'notice periods and deadlines, but every figure in it still reads "to be confirmed". '
        "Replace each of them with the figure that the body of the agreement sets for that "
        "item, written exactly as the body writes it. Change nothing else, and save the "
        "document in its own format."
    ),
    attributes={"path": "desktop_file", "title": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=FILL_RECORDS,
    setup_generator=fill_setup,
    evaluator_generator=fill_checkpoints,
    solution_generator=fill_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("takes a look-alike's figure for one item", solution=fill_lookalike),
        NearMiss("leaves the last figure to be confirmed", solution=fill_stopped_early),
        NearMiss("swaps the fee and the liability cap", solution=fill_swapped),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_FILL_ANNEX]
