"""reef-v2's Writer template of tracked changes settled by author: a draft reviewed by
three people, where one reviewer's changes stand (accepted) and everyone else's go
(rejected), and no change is left pending.

The setup writes the reviewed ``.odt`` with odfpy
(:func:`~reefbench.envs.desktop.setup.create_reviewed_document`): insertions and
deletions by each reviewer, some of them a reviewer's replacement of a word (a deletion
next to an insertion), some paragraphs touched by two reviewers. The checkpoints read the
saved document: no tracked change left, then every paragraph's text as it reads once the
right changes are accepted and the others rejected. Accept all, reject all, or keeping the
wrong reviewer's give other text.

The reference settles the changes in Edit > Track Changes > Manage...: its Filter tab
limited to the reviewer (the Author box, then the name from the list), Accept All on the
List tab, the filter lifted, Reject All, then saves in place.
"""

from __future__ import annotations

import re

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer, save_and_quit
from reefbench.documents.write import CHANGE_MARK
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"

# Each record: the document, its title, the reviewer whose changes stand, the one whose
# changes a careless reader keeps instead, and the paragraphs with their changes
# ("{+Author|inserted+}", "{-Author|deleted-}").
REVIEWED = [
    (
        "~/Documents/supply-agreement.odt",
        "Supply Agreement: Draft 4",
        "Dana",
        "Omar",
        [
            "The supplier delivers the goods {+Dana|within five working days +}to the depot "
            "named in each order.",
            "Prices are fixed for the first {-Omar|year-}{+Omar|two years+} of the agreement.",
            "Invoices are payable within {-Dana|sixty-}{+Dana|thirty+} days of receipt"
            "{+Priya| by bank transfer+}.",
            "Either party may end this agreement with {-Priya|three-}{+Priya|six+} months' "
            "written notice.",
            "The buyer may return faulty goods{+Omar| at the supplier's cost+}.",
            "This agreement is governed by the law of England and Wales{-Dana| and Scotland-}.",
        ],
    ),
    (
        "~/Documents/grant-application.odt",
        "Grant Application: Community Kitchen",
        "Priya",
        "Lukas",
        [
            "We ask the fund for {-Lukas|£40,000-}{+Lukas|£45,000+} over two years.",
            "The kitchen will serve {-Priya|200-}{+Priya|150+} meals a week from the spring.",
            "Volunteers are trained in food hygiene{+Priya| before their first shift+}.",
            "A part-time coordinator{-Megan| and an assistant-} will run the kitchen.",
            "Surplus food comes from {+Lukas|three +}local supermarkets.",
            "We will report to the fund every {-Priya|quarter-}{+Priya|six months+}.",
        ],
    ),
    (
        "~/Documents/press-statement.odt",
        "Press Statement: Harbour Bridge Works",
        "Megan",
        "Sam",
        [
            "Works on the Harbour Bridge start on {-Sam|3 June-}{+Sam|10 June+}.",
            "The bridge stays open to pedestrians{+Megan| and cyclists+} throughout.",
            "Drivers should expect delays of up to {-Megan|30-}{+Megan|20+} minutes.",
            "The works cost {-Dana|£2.1 million-}{+Dana|£2.4 million+} and end in autumn.",
            "Residents can ask questions at weekly drop-in sessions{-Megan| at the library-}.",
            "The council apologises for any disruption{+Sam| caused+}.",
        ],
    ),
    (
        "~/Documents/job-description.odt",
        "Job Description: Operations Coordinator",
        "Omar",
        "Dana",
        [
            "The coordinator reports to the {-Dana|operations director-}"
            "{+Dana|head of logistics+}.",
            "The role is based in Leeds{+Omar| with two days a week at home+}.",
            "Hours are {-Omar|40-}{+Omar|37.5+} a week, Monday to Friday.",
            "The salary is £31,000{+Lukas| plus a car allowance+}.",
            "Experience of {-Omar|SAP-}{+Omar|a stock system+} is an advantage.",
            "Applications close on {-Lukas|30 May-}{+Lukas|6 June+}.",
        ],
    ),
]


def settled(paragraph: str, keep: str) -> str:
    """``paragraph`` with ``keep``'s changes accepted and everyone else's rejected."""

    def resolve(mark: re.Match[str]) -> str:
        sign, author, text = mark.groups()
        accepted = author == keep
        return text if (sign == "+") == accepted else ""

    return re.sub(CHANGE_MARK, resolve, paragraph)


def _pending(match: re.Match[str]) -> str:
    """A pending change as the document shows it: an insertion's text, a deletion gone."""
    return match.group(3) if match.group(1) == "+" else ""


def shown(paragraph: str) -> str:
    """``paragraph`` as the document reads with its changes pending (insertions in,
    deletions out): what it says before anyone settles them."""
    return re.sub(CHANGE_MARK, _pending, paragraph)


REVIEW_RECORDS = [
    {"path": p, "title": t, "keep": k, "other": o, "paragraphs": "\n".join(ps)}
    for p, t, k, o, ps in REVIEWED
]


def review_setup(path: str, title: str, keep: str, other: str, paragraphs: str) -> list[ActionStep]:
    return [
        ActionStep(
            env=D,
            action=st.create_reviewed_document(
                path=path, title=title, paragraphs=paragraphs.split("\n")
            ),
        )
    ]


def review_checkpoints(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[Evaluator]:
    """No change pending first (it fails before the agent acts), then every paragraph."""
    return [
        te.document_no_changes(path=path),
        *(oe.document_paragraph(path=path, text=settled(p, keep)) for p in paragraphs.split("\n")),
        oe.saved_by_libreoffice(path=path),
    ]


def _manage(*steps: ActionCall) -> list[ActionCall]:
    """Edit > Track Changes > Manage..., ``steps`` in its dialog, Close."""
    return [
        *desktop_menu("Edit", "Track Changes", "Manage..."),
        wait(),
        *steps,
        call(D, "click_on", name="Close", role="push button"),
        wait(),
    ]


def _filter_on(author: str) -> list[ActionCall]:
    """The Filter tab's Author box ticked, its list opened (Tab, Space), ``author`` chosen,
    back to the List tab."""
    return [
        call(D, "click_on", name="Filter", role="page tab"),
        call(D, "click_on", name="Author:", role="check box"),
        call(D, "press", key="tab"),
        call(D, "press", key="space"),
        wait(),
        call(D, "click_on", name=author, role="table cell"),
        wait(),
        call(D, "click_on", name="List", role="page tab"),
        wait(),
    ]


def _filter_off() -> list[ActionCall]:
    return [
        call(D, "click_on", name="Filter", role="page tab"),
        call(D, "click_on", name="Author:", role="check box"),
        call(D, "click_on", name="List", role="page tab"),
        wait(),
    ]


def _all(button: str) -> list[ActionCall]:
    return [call(D, "click_on", name=button, role="push button"), wait()]


def _keep_only(author: str) -> list[ActionCall]:
    return _manage(*_filter_on(author), *_all("Accept All"), *_filter_off(), *_all("Reject All"))


def review_solution(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[ActionCall]:
    return [*open_in_writer(path), *_keep_only(keep), *save_and_quit()]


def review_accept_all(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[ActionCall]:
    """Near miss: every change accepted."""
    return [*open_in_writer(path), *_manage(*_all("Accept All")), *save_and_quit()]


def review_reject_all(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[ActionCall]:
    """Near miss: every change rejected."""
    return [*open_in_writer(path), *_manage(*_all("Reject All")), *save_and_quit()]


def review_wrong_author(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[ActionCall]:
    """Near miss: the other reviewer's changes kept, everyone else's rejected."""
    return [*open_in_writer(path), *_keep_only(other), *save_and_quit()]


def review_others_pending(
    path: str, title: str, keep: str, other: str, paragraphs: str
) -> list[ActionCall]:
    """Near miss: the reviewer's changes accepted, the others left pending."""
    return [
        *open_in_writer(path),
        *_manage(*_filter_on(keep), *_all("Accept All")),
        *save_and_quit(),
    ]


WRITER_REVIEW_BY_AUTHOR = SubTask(
    id="desktop.writer_review_by_author",
    description=(
        "Three colleagues reviewed {path} with tracked changes, and {keep} has the final "
        "word: keep every change {keep} made, undo everybody else's, and leave the "
        "document clean, with no tracked changes in it. Save it in its own format."
    ),
    attributes={
        "path": "desktop_file",
        "title": "text",
        "keep": "name",
        "other": "str",
        "paragraphs": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=REVIEW_RECORDS,
    setup_generator=review_setup,
    evaluator_generator=review_checkpoints,
    solution_generator=review_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("accepts every change", solution=review_accept_all),
        NearMiss("rejects every change", solution=review_reject_all),
        NearMiss("keeps the wrong reviewer's changes", solution=review_wrong_author),
        NearMiss("leaves the others' changes pending", solution=review_others_pending),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_REVIEW_BY_AUTHOR]
