"""reef-v2's infeasible family with feasible twins: one wording, and only reading tells
whether the thing asked for exists.

- **Signed or not**: "forward to legal@ the mail from Marta Sousa that has the signed
  consultancy agreement attached". Marta's first mail carried the draft and said she would
  sign once legal approved a clause; her later "Re:" mail carries the final version; a
  third, older mail of hers has a *different* agreement, signed (``...-signed.txt``). Half
  the tasks are feasible, half are not, drawn by the value records, from the same three
  mails and the same file names:

  - *feasible*: the final version is signed (her "Re:" mail says so, or only its foot
    does); forwarding that mail (its attachment goes along) is the task, and declaring it
    infeasible fails;
  - *infeasible*: the final version is still unsigned (her "Re:" mail says she will sign
    once legal approves, or only its foot shows the blank signature line); the answer is
    the root action ``infeasible``, and anything sent to the recipient fails.

  Looking once cannot tell the kinds apart: the subjects, the previews in the list, the
  attachments' names and their first screenful are the same in both. An agent that
  declares by reflex fails the feasible half; one that forwards the latest mail by reflex
  fails the infeasible half.

Checkpoints: feasible, a mail sent to the recipient with the final version attached
(``account.mail_sent`` with its attachment's name; forwarding carries the attachment, and
a new mail with the file attached from Files is as good); infeasible, as
:mod:`.infeasible`: declared, then (checked once declared) nothing sent to the recipient.
Near misses (each fails on both kinds): the draft forwarded (then ``complete``, and
again then ``infeasible``); judging by one mail (on the
feasible kind, declaring after reading only the draft's mail; on the infeasible kind,
forwarding the final version unread); the other, signed agreement forwarded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import DOWNLOADS_KEY, browser_app, browser_fill, call
from reefbench.environments.root import declared_infeasible
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
SERVICES = "services"
INTENT = "handle requests that cannot be carried out"
NOW = "2024-05-20T10:00"
# (name, address): senders outside common.PEOPLE, at the firms they sign for
SENDERS = [
    ("Marta Sousa", "marta.sousa@tejo-advisory.example.com"),
    ("Jakob Lindqvist", "jakob.lindqvist@nordvik-consult.example.com"),
    ("Amara Nwosu", "amara.nwosu@baobab-partners.example.com"),
    ("Pavel Horak", "pavel.horak@vltava-works.example.com"),
    ("Sofia Marchetti", "sofia.marchetti@arno-studio.example.com"),
    ("Tariq Haddad", "tariq.haddad@cedar-logistics.example.com"),
    ("Yuki Mori", "yuki.mori@sakura-design.example.com"),
]
# (the document, its file names' stem, the clause legal was asked to approve)
DOCUMENTS = [
    ("consultancy agreement", "consultancy-agreement", "fee clause"),
    ("non-disclosure agreement", "nda", "term clause"),
    ("service agreement", "service-agreement", "liability clause"),
    ("supply contract", "supply-contract", "delivery clause"),
    ("licence agreement", "licence-agreement", "royalty clause"),
    ("data processing agreement", "data-processing-agreement", "audit clause"),
    ("framework agreement", "framework-agreement", "pricing clause"),
]
PROJECTS = [
    "Harbour project", "Atlas rollout", "Beacon refit", "Cedar migration", "Delta audit",
    "Ember launch", "Fjord expansion",
]  # fmt: skip
RECIPIENTS = [
    "legal@reef-trading.example.com",
    "contracts@reef-trading.example.com",
    "counsel@reef-trading.example.com",
]
CASE_COUNT = 14
# Which cases are feasible, and whether her "Re:" mail says it (``said``) or only the
# final version's foot shows it (``foot``): half and half, in a fixed shuffled order.
_HALF = CASE_COUNT // 2
_KINDS = [(i < _HALF, ("said", "foot")[(i + i // _HALF) % 2]) for i in range(CASE_COUNT)]
random.Random("infeasible.signed_or_not").shuffle(_KINDS)
CASES = [str(i) for i in range(CASE_COUNT)]


@dataclass(frozen=True)
class Case:
    name: str
    address: str
    doc: str
    stem: str
    clause: str
    other: str  # the other agreement, which she did sign
    other_stem: str
    project: str
    to: str
    feasible: bool
    how: str  # "said" (her later mail says whether) or "foot" (only the file's foot)

    @property
    def first(self) -> str:
        return self.name.split()[0]

    @property
    def draft_file(self) -> str:
        return f"{self.stem}-draft.txt"

    @property
    def final_file(self) -> str:
        return f"{self.stem}-final.txt"

    @property
    def other_file(self) -> str:
        return f"{self.other_stem}-signed.txt"

    @property
    def subject(self) -> str:
        return f"{self.doc[:1].upper()}{self.doc[1:]} - {self.project}"

    @property
    def other_subject(self) -> str:
        return f"{self.other[:1].upper()}{self.other[1:]} - {self.project}"

    # what each mail's preview in the list starts with (clicked to open it)
    @property
    def draft_opening(self) -> str:
        return f"Here is the {self.doc} for the {self.project}"

    @property
    def final_opening(self) -> str:
        return f"Following up on the {self.doc} for the {self.project}"

    @property
    def other_opening(self) -> str:
        return f"The {self.other} for the {self.project} is attached"


def twin_case(case: str) -> Case:
    """Case ``case``: who sent what, to whom it goes, and whether it was signed."""
    i = int(case)
    name, address = SENDERS[i % len(SENDERS)]
    d = (i + 3 * (i // len(SENDERS))) % len(DOCUMENTS)
    doc, stem, clause = DOCUMENTS[d]
    other, other_stem, _ = DOCUMENTS[(d + 2) % len(DOCUMENTS)]
    feasible, how = _KINDS[i]
    return Case(
        name=name,
        address=address,
        doc=doc,
        stem=stem,
        clause=clause,
        other=other,
        other_stem=other_stem,
        project=PROJECTS[(i + 2 * (i // len(SENDERS))) % len(PROJECTS)],
        to=RECIPIENTS[i % len(RECIPIENTS)],
        feasible=feasible,
        how=how,
    )


def document_text(c: Case, doc: str, version: str, signed_on: str) -> str:
    """An agreement's file: its terms, and the sender's signature line at the foot (below
    a first screenful); ``signed_on`` empty: the line is blank."""
    firm = c.address.split("@")[1].split(".")[0].replace("-", " ").title()
    lines = [
        f"{doc.upper()} ({version})",
        "",
        "Between Reef Trading Ltd, 4 Quay Street, Bristol BS1 4DJ (the Client)",
        f"and {firm} (the Provider), represented by {c.name}.",
        f"Subject: the {c.project}.",
        "",
        "1. Scope. The Provider delivers the services set out in Annex A.",
        "2. Term. From 1 June 2024 until the services are accepted.",
        "3. Fees. As in Annex B; invoices monthly, payable within 30 days.",
        "4. Confidentiality. Each party keeps the other's information confidential.",
        "5. Liability. Capped at the fees paid in the twelve months before a claim.",
        "6. Data. Personal data is processed only on the Client's instructions.",
        "7. Termination. Either party, on 60 days' written notice.",
        "8. Law. This agreement is governed by the law of England and Wales.",
        "",
        "Annex A: services, milestones and acceptance.",
        "Annex B: fees and expenses.",
        "",
        "Signed for Reef Trading Ltd: to be countersigned on receipt.",
    ]
    if signed_on:
        lines.append(f"Signed for the Provider: SIGNED by {c.name} on {signed_on}")
    else:
        lines.append(f"Signed for the Provider: ____________________ ({c.name}, not signed yet)")
    return "\n".join(lines) + "\n"


def _final_body(c: Case) -> str:
    opening = f"Hi,\n\n{c.final_opening}, with the final wording of the {c.clause}.\n\n"
    if c.how == "foot":
        said = "The final version is attached."
    elif c.feasible:
        said = f"Legal approved the {c.clause} on Friday, so I have signed it: attached."
    else:
        said = (
            f"Legal has not approved the {c.clause} yet; I will sign it once they do. "
            "The final text is attached."
        )
    return opening + said + f"\n\n{c.first}"


def _mail(
    sender: str, subject: str, body: str, when: str, attachments: dict[str, str] | None = None
) -> ActionStep:
    return ActionStep(
        env=SERVICES,
        action=sd.add_mail(
            sender=sender, subject=subject, body=body, date=when, attachments=attachments or {}
        ),
    )


NOISE = [
    ("facilities@reef-trading.example.com", "Lifts out of service on Thursday",
     "Use the east stairs between 09:00 and 13:00.", "2024-05-19T16:05"),
    ("it.desk@reef-trading.example.com", "Password expiry reminder",
     "Your password expires in 7 days; change it from the account settings.", "2024-05-18T08:30"),
    ("newsletter@legal-weekly.example.com", "This week in contract law",
     "Electronic signatures, notice periods and a guide to liability caps.", "2024-05-16T07:00"),
    ("hr@reef-trading.example.com", "Summer social",
     "Save the date: the summer social is on the last Friday of June.", "2024-05-13T12:40"),
]  # fmt: skip


def twins_setup(case: str, name: str, address: str, doc: str, to: str) -> list[ActionStep]:
    c = twin_case(case)
    draft = document_text(c, c.doc, "draft for review", "")
    final = document_text(c, c.doc, "final", "2024-05-17" if c.feasible else "")
    other = document_text(c, c.other, "final", "2024-04-08")
    steps = [
        ActionStep(env=SERVICES, action=sd.set_now(now=NOW)),
        _mail(
            c.address,
            c.other_subject,
            f"Hi,\n\n{c.other_opening}, signed, for your files.\n\n{c.first}",
            "2024-04-09T11:20",
            {c.other_file: other},
        ),
        _mail(
            c.address,
            c.subject,
            f"Hi,\n\n{c.draft_opening}, as we discussed on the phone. Have a read and "
            f"tell me if anything should change.\n\nI will sign it once legal approves the "
            f"{c.clause}.\n\n{c.first}",
            "2024-05-10T09:40",
            {c.draft_file: draft},
        ),
        _mail(
            c.address, f"Re: {c.subject}", _final_body(c), "2024-05-17T15:10", {c.final_file: final}
        ),
    ]
    steps += [_mail(sender, subject, body, when) for sender, subject, body, when in NOISE]
    return steps


def twins_checkpoints(case: str, name: str, address: str, doc: str, to: str) -> list[Evaluator]:
    c = twin_case(case)
    if c.feasible:
        return [aev.mail_sent(to=to, attachment=c.final_file).on(SERVICES)]
    return [declared_infeasible(), (~aev.mail_sent(to=to)).on(SERVICES)]


def twins_allowances(case: str, name: str, address: str, doc: str, to: str) -> list[str]:
    """Reading the attachments: each saved to Files, or downloaded by the browser."""
    c = twin_case(case)
    files = (c.draft_file, c.final_file, c.other_file)
    return [f"account|files:{f.casefold()}" for f in files] + [DOWNLOADS_KEY]


# ------------------------------------------------------------------ solutions
def _open(c: Case, opening: str, search: bool = True) -> list[ActionCall]:
    """Open one of her mails by its preview: found by her address, or straight from the
    inbox (her mails are the newest but one)."""
    found = [call(B, "click_on", name="Search mail"), call(B, "write_text", text=c.address + "\n")]
    return [
        *browser_app("Mail"),
        *(found if search else []),
        call(B, "click_on", name=opening, role="link"),
    ]


def _save(file: str) -> ActionCall:
    """Save an attachment to Files, which shows it (the way to read it to its foot)."""
    return call(B, "click_on", name=f"Save {file} to Files", role="button")


def _forward(c: Case, opening: str, search: bool = True) -> list[ActionCall]:
    """Forward the mail (Enter in To sends: the list of files to attach pushes Send out
    of view)."""
    return [
        *_open(c, opening, search),
        call(B, "click_on", name="Forward"),
        *browser_fill(("To", c.to)),
        call(B, "press", key="Enter"),
    ]


def _declare(c: Case) -> ActionCall:
    return call(
        "root",
        "infeasible",
        reason=f"{c.name} never sent a signed {c.doc}: the final version is still unsigned "
        f"({c.first} will sign once legal approves the {c.clause})"
        if c.how == "said"
        else f"{c.name} never sent a signed {c.doc}: the signature line of the final "
        "version is blank",
    )


def twins_solution(case: str, name: str, address: str, doc: str, to: str) -> list[ActionCall]:
    c = twin_case(case)
    read = [*_open(c, c.draft_opening), *_open(c, c.final_opening), _save(c.final_file)]
    if c.feasible:
        return [*read, *_forward(c, c.final_opening)]
    return [*read, _declare(c)]


def twins_from_inbox(case: str, name: str, address: str, doc: str, to: str) -> list[ActionCall]:
    """Opens the final version's mail straight from the inbox, reads its attachment, then
    forwards it from the inbox, or declares."""
    c = twin_case(case)
    read = [*_open(c, c.final_opening, search=False), _save(c.final_file)]
    if c.feasible:
        return [*read, *_forward(c, c.final_opening, search=False)]
    return [*read, _declare(c)]


def forwards_draft(case: str, name: str, address: str, doc: str, to: str) -> list[ActionCall]:
    """Near miss: forwards the draft's mail and calls it done."""
    c = twin_case(case)
    return [*_open(c, c.draft_opening), _save(c.draft_file), *_forward(c, c.draft_opening),
            call("root", "complete")]  # fmt: skip


def judges_by_one_mail(case: str, name: str, address: str, doc: str, to: str) -> list[ActionCall]:
    """Near miss, a glance for a judgement: on a feasible task, declares it infeasible
    after reading only the draft's mail ("I will sign it once legal approves"); on an
    infeasible one, forwards the final version without reading it and calls it done."""
    c = twin_case(case)
    if c.feasible:
        return [
            *_open(c, c.draft_opening),
            call("root", "infeasible", reason=f"{c.name} only sent the unsigned draft"),
        ]
    return [*_forward(c, c.final_opening), call("root", "complete")]


def forwards_other_signed(
    case: str, name: str, address: str, doc: str, to: str
) -> list[ActionCall]:
    """Near miss: forwards her other agreement, the one that is signed."""
    c = twin_case(case)
    return [*_open(c, c.other_opening), _save(c.other_file), *_forward(c, c.other_opening),
            call("root", "complete")]  # fmt: skip


def forwards_draft_declares(
    case: str, name: str, address: str, doc: str, to: str
) -> list[ActionCall]:
    """Near miss: forwards the draft anyway, then declares that no signed one exists."""
    c = twin_case(case)
    return [
        *_open(c, c.draft_opening),
        *_forward(c, c.draft_opening),
        call("root", "infeasible", reason=f"no signed {c.doc}; forwarded the draft instead"),
    ]


SIGNED_OR_NOT = SubTask(
    id="infeasible.signed_or_not",
    description="In the browser's Mail, forward to {to} the mail from {name} ({address}) "
    "that has the signed {doc} attached.",
    attributes={"case": "str", "name": "name", "address": "email", "doc": "str", "to": "email"},
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="productivity",
    intents=[INTENT],
    value_records=[
        {
            "case": case,
            "name": twin_case(case).name,
            "address": twin_case(case).address,
            "doc": twin_case(case).doc,
            "to": twin_case(case).to,
        }
        for case in CASES
    ],
    setup_generator=twins_setup,
    evaluator_generator=twins_checkpoints,
    solution_generator=twins_solution,
    alternative_generators=[twins_from_inbox],
    allowances=twins_allowances,
    near_misses=[
        NearMiss("forwards the draft", solution=forwards_draft),
        NearMiss("forwards the draft, then says it cannot", solution=forwards_draft_declares),
        NearMiss(
            "judges by one mail: declares after the draft's mail (feasible), or forwards "
            "the final version unread (infeasible)",
            solution=judges_by_one_mail,
        ),
        NearMiss("forwards the other agreement, which is signed", solution=forwards_other_signed),
    ],
)


TEMPLATES: tuple[SubTask, ...] = (SIGNED_OR_NOT,)
