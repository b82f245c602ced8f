"""reef-v2's robustness family: renaming a supplier in a contract that records every edit
and already carries a colleague's pending tracked changes (:data:`WRITER_TRACKED_RENAME`,
listed with :mod:`.robustness`).

The contract opens with Track Changes > Record on and three changes by a colleague not yet
accepted: one occurrence of the old name already replaced by the new one, a sentence that
names the supplier deleted, and a short insertion. The instruction says those changes are
agreed, so the final text is the colleague's text with the rest renamed (possessives such
as "Nordlys Care's" included) and no change pending. Replacing while Record is on and
saving leaves changes pending; rejecting the colleague's changes to get rid of them brings
the deleted sentence back (its name renamed once too often) and fails.
"""

from __future__ import annotations

import re

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import odd_states as od
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import call, desktop_menu, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import open_in_writer, save_and_quit
from reefbench.documents.write import CHANGE_MARK
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


def _contract(old: str, new: str, city: str, colleague: str) -> str:
    """The contract's paragraphs, the colleague's changes in
    :data:`reefbench.documents.write.CHANGE_MARK` notation."""
    return "\n".join(
        [
            f"Service Agreement between Harbor Analytics and {old}",
            f"{{-{colleague}|{old}-}}{{+{colleague}|{new}+}} will provide cleaning and "
            f"maintenance of the {city} office on weekdays.",
            f"{old}'s staff carry identity badges at all times while on the premises.",
            "Invoices are payable within "
            f"{{-{colleague}|30-}}{{+{colleague}|45+}} days of receipt."
            f"{{-{colleague}| Late payments to {old} carry interest of 2% a month.-}}",
            f"Either party may end this agreement with 60 days' written notice to {old} "
            "or to Harbor Analytics.",
            "This agreement is governed by the law of the state where the office is.",
        ]
    )


def _accepted_part(mark: re.Match[str]) -> str:
    return mark.group(3) if mark.group(1) == "+" else ""


def _rejected_part(mark: re.Match[str]) -> str:
    return mark.group(3) if mark.group(1) == "-" else ""


def agreed_text(text: str) -> str:
    """The text with the colleague's changes accepted."""
    return re.sub(CHANGE_MARK, _accepted_part, text)


def original_text(text: str) -> str:
    """The text with the colleague's changes rejected."""
    return re.sub(CHANGE_MARK, _rejected_part, text)


def final_count(text: str, old: str, new: str) -> int:
    """How often the final text names ``new``: its agreed text, renamed."""
    return agreed_text(text).replace(old, new).count(new)


RENAMES = [
    ("~/Documents/cleaning-contract.odt", "Brightway Services", "Brightway Facilities Group",
     "Oslo", "Maria Lopez"),
    ("~/Documents/service-agreement.odt", "Nordlys Care", "Nordlys Property Care", "Bergen",
     "Jonas Berg"),
    ("~/Documents/maintenance-deal.odt", "CleanCo Ltd", "Castell Cleaning Ltd", "Cardiff",
     "Rhian Evans"),
    ("~/Documents/facilities-contract.odt", "Sparkle & Co", "Sparkle Facility Services",
     "Leeds", "Priya Nair"),
    ("~/Documents/office-services.odt", "Mopwell GmbH", "Mopwell Gebaeude GmbH", "Bremen",
     "Lena Vogt"),
]  # fmt: skip
RENAME_RECORDS = [
    {
        "path": p,
        "old": old,
        "new": new,
        "colleague": colleague,
        "text": _contract(old, new, city, colleague),
    }
    for p, old, new, city, colleague in RENAMES
]


def rename_setup(path: str, old: str, new: str, colleague: str, text: str) -> list[ActionStep]:
    action = od.create_recording_review(path=path, paragraphs=text.splitlines())
    return [ActionStep(env=D, action=action)]


def rename_checkpoints(path: str, old: str, new: str, colleague: str, text: str) -> list[Evaluator]:
    return [
        od.document_clean_replace(path=path, new=new, old=old, count=final_count(text, old, new)),
        oe.saved_by_libreoffice(path=path),
    ]


def _replace_all(old: str, new: str) -> list[ActionCall]:
    """Find and Replace (Ctrl+H): the text, the replacement (Alt+P), Replace All, Close."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "write_text", text=old),
        call(D, "hotkey", keys=["alt", "p"]),
        call(D, "write_text", text=new),
        call(D, "click_on", name="Replace All", role="push button"),
        wait(),
        call(D, "click_on", name="Close", role="push button"),
    ]


def rename_solution(path: str, old: str, new: str, colleague: str, text: str) -> list[ActionCall]:
    """Recording off (Edit > Track Changes > Record), the colleague's changes accepted
    (Accept All), then Replace All."""
    return [
        *open_in_writer(path),
        *desktop_menu("Edit", "Track Changes", "Record"),
        *desktop_menu("Edit", "Track Changes", "Accept All"),
        *_replace_all(old, new),
        *save_and_quit(),
    ]


def rename_accept_all(path: str, old: str, new: str, colleague: str, text: str) -> list[ActionCall]:
    """The colleague's changes accepted, replaced while recording, then every change
    accepted again (Edit > Track Changes > Accept All)."""
    return [
        *open_in_writer(path),
        *desktop_menu("Edit", "Track Changes", "Accept All"),
        *_replace_all(old, new),
        *desktop_menu("Edit", "Track Changes", "Accept All"),
        *save_and_quit(),
    ]


def rename_left_tracked(
    path: str, old: str, new: str, colleague: str, text: str
) -> list[ActionCall]:
    """Near miss: replaced while recording and saved, every change left pending."""
    return [*open_in_writer(path), *_replace_all(old, new), *save_and_quit()]


def rename_rejected(path: str, old: str, new: str, colleague: str, text: str) -> list[ActionCall]:
    """Near miss: the colleague's changes rejected (Reject All) to clear them, then
    renamed: the deleted sentence is back."""
    return [
        *open_in_writer(path),
        *desktop_menu("Edit", "Track Changes", "Record"),
        *desktop_menu("Edit", "Track Changes", "Reject All"),
        *_replace_all(old, new),
        *save_and_quit(),
    ]


WRITER_TRACKED_RENAME = SubTask(
    id="desktop.writer_tracked_rename",
    description=(
        "Our cleaning supplier {old} now trades as {new}. {colleague} has begun editing "
        "the agreement {path}: the changes {colleague} tracked in it are agreed and belong "
        "in the final text. Finish it so that the agreed text names {new} wherever it named "
        "{old}, and save it in its own format. It goes to the client as the final text: it "
        "must not carry any tracked changes."
    ),
    attributes={
        "path": "desktop_file",
        "old": "text",
        "new": "text",
        "colleague": "name",
        "text": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=["edit a document professionally on the computer"],
    value_records=RENAME_RECORDS,
    setup_generator=rename_setup,
    evaluator_generator=rename_checkpoints,
    solution_generator=rename_solution,
    alternative_generators=[rename_accept_all],
    output_generator=saved_document,
    near_misses=[
        NearMiss("leaves the edits as pending tracked changes", solution=rename_left_tracked),
        NearMiss("rejects the colleague's agreed changes", solution=rename_rejected),
        NearMiss("misspells the new name", changes={"new": nm.typo}),
    ],
)
