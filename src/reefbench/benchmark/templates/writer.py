"""reef-v2's Writer templates: professional editing of a document the user already has.

Each setup writes a realistic ``.odt`` into ~/Documents through odfpy (so only a save by
LibreOffice passes :func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`);
the task asks for what takes Writer's features rather than typing: outline styles and a
generated table of contents, a footer of page fields exported to PDF, a regular-expression
replacement. Checkpoints read the saved file through :mod:`reefbench.documents`
(:mod:`reefbench.envs.desktop.office_text_evaluators`), and check the style, the field,
the text, never how the agent got there.

Reference solutions open the document through Writer's Open dialog, work with the
keyboard and the menus a person uses, save in place (Ctrl+S keeps an ``.odt`` an
``.odt``) and quit.
"""

from __future__ import annotations

import random

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, expand, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
WRITER_INTENT = "edit a document professionally on the computer"


def open_in_writer(path: str) -> list[ActionCall]:
    """Start Writer and open ``path`` through its Open dialog (Ctrl+O, the path, Enter)."""
    return [
        call(D, "search_app", name="word processor"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        wait(),
        call(D, "write_text", text=expand(path)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
    ]


def save_and_quit() -> list[ActionCall]:
    """Save the open document in place, in its own format, and quit Writer."""
    return [
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


# ------------------------------------------------------- headings and contents
# Each record: a document title and its outline, "1|Section" and "2|Sub-section" lines;
# the setup writes one or two body paragraphs under each (all in the body text style).
OUTLINES = [
    (
        "~/Documents/security-policy.odt",
        "Information Security Policy",
        "1|Purpose;1|Access control;2|Passwords;2|Remote access;1|Incident response",
    ),
    (
        "~/Documents/project-plan.odt",
        "Warehouse Migration Plan",
        "1|Background;1|Timeline;2|Phase one;2|Phase two;1|Risks and mitigations",
    ),
    (
        "~/Documents/handbook.odt",
        "New Starter Handbook",
        "1|Welcome;1|Working hours;2|Flexible time;1|Expenses;2|Travel claims",
    ),
    (
        "~/Documents/audit-report.odt",
        "Internal Audit Report 2026",
        "1|Scope;2|Methodology;1|Findings;2|Procurement;2|Payroll;1|Recommendations",
    ),
    (
        "~/Documents/grant-proposal.odt",
        "Community Garden Grant Proposal",
        "1|Summary;1|Need;1|Budget;2|Materials;2|Staffing",
    ),
]
SENTENCES = [
    "This section sets out what the organisation expects of every team.",
    "Managers review the arrangements once a year and record any change.",
    "Questions about this part go to the operations office first.",
    "Exceptions need written approval and are kept on file for three years.",
    "The figures below come from the finance system as of the last quarter.",
    "Staff are told of changes by email at least two weeks in advance.",
]


def _levels(outline: str) -> list[tuple[int, str]]:
    return [(int(line.split("|")[0]), line.split("|")[1]) for line in outline.split(";")]


def _names(outline: str, level: int) -> str:
    return ", ".join(f'"{text}"' for lvl, text in _levels(outline) if lvl == level)


def _body(title: str, outline: str) -> list[str]:
    """The document's paragraphs after its title: each heading line, then one or two
    sentences (seeded by the title, so a task's document never changes)."""
    rng = random.Random(title)
    paragraphs = []
    for _, text in _levels(outline):
        paragraphs.append(text)
        paragraphs.append(" ".join(rng.sample(SENTENCES, 2)))
        if rng.random() < 0.4:
            paragraphs.append(rng.choice(SENTENCES))
    return paragraphs


def _outline_record(path: str, title: str, outline: str) -> dict[str, str]:
    return {
        "path": path,
        "title": title,
        "outline": outline,
        "level1": _names(outline, 1),
        "level2": _names(outline, 2),
    }


TOC_RECORDS = [_outline_record(*o) for o in OUTLINES]


def toc_setup(path: str, title: str, outline: str, level1: str, level2: str) -> list[ActionStep]:
    paragraphs = _body(title, outline)
    return [
        ActionStep(
            env=D, action=st.create_text_document(path=path, title=title, paragraphs=paragraphs)
        )
    ]


def toc_checkpoints(
    path: str, title: str, outline: str, level1: str, level2: str
) -> list[Evaluator]:
    levels = _levels(outline)
    styled = [
        oe.document_paragraph(path=path, text=text, style=f"Heading {level}")
        for level, text in levels
    ]
    contents = te.document_toc(
        path=path, entries=[text for _, text in levels], after=title, before=levels[0][1]
    )
    return [*styled, contents, oe.saved_by_libreoffice(path=path)]


def _style_headings(title: str, outline: str, keys: dict[int, list[str]]) -> list[ActionCall]:
    """From the top, down paragraph by paragraph (Ctrl+Down), pressing ``keys[level]`` on
    each heading line."""
    steps: list[ActionCall] = [call(D, "hotkey", keys=["ctrl", "home"])]
    headings = dict((text, level) for level, text in _levels(outline))
    for paragraph in _body(title, outline):
        steps.append(call(D, "hotkey", keys=["ctrl", "down"]))
        if paragraph in headings:
            steps.append(call(D, "hotkey", keys=keys[headings[paragraph]]))
    return steps


def _insert_toc() -> list[ActionCall]:
    """A new paragraph below the title (Ctrl+Home, End, Enter) and Writer's table of
    contents there (Insert > Table of Contents and Index > ..., OK)."""
    return [
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "press", key="end"),
        call(D, "press", key="enter"),
        *desktop_menu(
            "Insert", "Table of Contents and Index", "Table of Contents, Index or Bibliography..."
        ),
        wait(),
        call(D, "click_on", name="OK", role="push button"),
        wait(),
    ]


STYLE_KEYS = {1: ["ctrl", "1"], 2: ["ctrl", "2"]}


def toc_solution(path: str, title: str, outline: str, level1: str, level2: str) -> list[ActionCall]:
    return [
        *open_in_writer(path),
        *_style_headings(title, outline, STYLE_KEYS),
        *_insert_toc(),
        *save_and_quit(),
    ]


def toc_before_headings(
    path: str, title: str, outline: str, level1: str, level2: str
) -> list[ActionCall]:
    """Near miss: the table of contents inserted first and never updated after the
    headings were styled (it lists nothing)."""
    return [
        *open_in_writer(path),
        *_insert_toc(),
        *_style_headings(title, outline, STYLE_KEYS),
        *save_and_quit(),
    ]


def toc_all_heading_1(
    path: str, title: str, outline: str, level1: str, level2: str
) -> list[ActionCall]:
    """Near miss: every title made a Heading 1, the sub-sections too."""
    return [
        *open_in_writer(path),
        *_style_headings(title, outline, {1: STYLE_KEYS[1], 2: STYLE_KEYS[1]}),
        *_insert_toc(),
        *save_and_quit(),
    ]


def toc_bold_titles(
    path: str, title: str, outline: str, level1: str, level2: str
) -> list[ActionCall]:
    """Near miss: the titles made bold by direct formatting instead of heading styles (the
    table of contents then finds no heading)."""
    steps: list[ActionCall] = [call(D, "hotkey", keys=["ctrl", "home"])]
    headings = {text for _, text in _levels(outline)}
    for paragraph in _body(title, outline):
        steps.append(call(D, "hotkey", keys=["ctrl", "down"]))
        if paragraph in headings:
            steps += [
                call(D, "hotkey", keys=["shift", "end"]),
                call(D, "hotkey", keys=["ctrl", "b"]),
            ]
    return [*open_in_writer(path), *steps, *_insert_toc(), *save_and_quit()]


WRITER_TOC = SubTask(
    id="desktop.writer_toc",
    description=(
        "In the document {path}, the section titles are still plain paragraphs. Give the "
        "titles {level1} the Heading 1 paragraph style and {level2} the Heading 2 style, "
        'then insert Writer\'s automatic table of contents between the title "{title}" and '
        "the first section, listing those headings, and save the document in its own format."
    ),
    attributes={
        "path": "desktop_file",
        "title": "text",
        "outline": "str",
        "level1": "text",
        "level2": "text",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=TOC_RECORDS,
    setup_generator=toc_setup,
    evaluator_generator=toc_checkpoints,
    solution_generator=toc_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("inserts the contents before styling the headings", solution=toc_before_headings),
        NearMiss("makes every title a Heading 1", solution=toc_all_heading_1),
        NearMiss("makes the titles bold instead of headings", solution=toc_bold_titles),
    ],
)


# ----------------------------------------------------------- footer and PDF
FOOTER = "Page {page} of {pages}"
LONG_DOCUMENTS = [
    ("~/Documents/tender.odt", "~/Documents/tender.pdf", "Tender Response: Harbour Lighting"),
    ("~/Documents/annual-review.odt", "~/Documents/annual-review.pdf", "Annual Review 2026"),
    ("~/Documents/lease.odt", "~/Documents/lease-for-signing.pdf", "Commercial Lease Agreement"),
    ("~/Documents/board-pack.odt", "~/Documents/board-pack.pdf", "Board Pack: March Meeting"),
    ("~/Documents/manual.odt", "~/Documents/manual-print.pdf", "Operations Manual"),
]
CLAUSES = [
    "The supplier shall deliver the services described in the schedule with reasonable "
    "skill and care, and in line with the standards of the industry at the time.",
    "Either party may end this agreement by giving three months' written notice to the "
    "other, without prejudice to any rights that have accrued before that date.",
    "All invoices are payable within thirty days of receipt. Late payments bear interest "
    "at four per cent above the base rate until they are paid in full.",
    "The committee reviewed the figures for the year and noted that costs remained within "
    "the agreed budget, with savings in energy offsetting higher insurance premiums.",
    "Any change to the scope must be agreed in writing by both parties and recorded in the "
    "change log kept by the project office, with its effect on cost and time.",
    "Personal data is processed only for the purposes set out here and is kept no longer "
    "than needed, in line with the data protection policy in force.",
]


def _long_body(title: str) -> list[str]:
    rng = random.Random(title)
    return [f"{n}. {rng.choice(CLAUSES)} {rng.choice(CLAUSES)}" for n in range(1, 31)]


FOOTER_RECORDS = [{"path": p, "pdf": f, "title": t} for p, f, t in LONG_DOCUMENTS]


def footer_setup(path: str, pdf: str, title: str) -> list[ActionStep]:
    return [
        ActionStep(
            env=D,
            action=st.create_text_document(path=path, title=title, paragraphs=_long_body(title)),
        )
    ]


def footer_checkpoints(path: str, pdf: str, title: str) -> list[Evaluator]:
    return [
        te.document_footer(path=path, template=FOOTER),
        oe.saved_by_libreoffice(path=path),
        te.pdf_page_footers(path=pdf, template=FOOTER, min_pages=2),
    ]


def _footer_on() -> list[ActionCall]:
    """Insert > Header and Footer > Footer > Default Page Style: the cursor is then in it."""
    return desktop_menu("Insert", "Header and Footer", "Footer", "Default Page Style")


def _fields(number: str, count: str) -> list[ActionCall]:
    """'Page <page number> of <page count>' typed around two fields from Insert > Field."""
    return [
        call(D, "write_text", text="Page "),
        *desktop_menu("Insert", "Field", number),
        call(D, "write_text", text=" of "),
        *desktop_menu("Insert", "Field", count),
    ]


def _export_pdf(pdf: str) -> list[ActionCall]:
    """The toolbar's "Export Directly as PDF", then the file name in its Save dialog."""
    return [
        call(D, "click_on", name="Export Directly as PDF", role="push button"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(pdf)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
    ]


def export_pdf_menu(pdf: str) -> list[ActionCall]:
    """File > Export As > Export as PDF..., its options dialog's Export, then the name."""
    return [
        *desktop_menu("File", "Export As", "Export as PDF..."),
        wait(),
        call(D, "click_on", name="Export", role="push button"),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(pdf)),
        wait(),
        call(D, "press", key="enter"),
        wait(),
    ]


def _save_export_quit(pdf: str, export: list[ActionCall] | None = None) -> list[ActionCall]:
    return [
        call(D, "hotkey", keys=["ctrl", "s"]),
        wait(),
        *(export if export is not None else _export_pdf(pdf)),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
    ]


def footer_solution(path: str, pdf: str, title: str) -> list[ActionCall]:
    return [
        *open_in_writer(path),
        *_footer_on(),
        *_fields("Page Number", "Page Count"),
        *_save_export_quit(pdf),
    ]


def footer_by_export_menu(path: str, pdf: str, title: str) -> list[ActionCall]:
    """Alternative: the PDF through File > Export as PDF... and its options dialog."""
    return [
        *open_in_writer(path),
        *_footer_on(),
        *_fields("Page Number", "Page Count"),
        *_save_export_quit(pdf, export_pdf_menu(pdf)),
    ]


def footer_typed_numbers(path: str, pdf: str, title: str) -> list[ActionCall]:
    """Near miss: "Page 1 of 3" typed as text (every page then says page 1)."""
    return [
        *open_in_writer(path),
        *_footer_on(),
        call(D, "write_text", text="Page 1 of 3"),
        *_save_export_quit(pdf),
    ]


def footer_in_header(path: str, pdf: str, title: str) -> list[ActionCall]:
    """Near miss: the page fields put in a header, not a footer."""
    return [
        *open_in_writer(path),
        *desktop_menu("Insert", "Header and Footer", "Header", "Default Page Style"),
        *_fields("Page Number", "Page Count"),
        *_save_export_quit(pdf),
    ]


def footer_not_saved(path: str, pdf: str, title: str) -> list[ActionCall]:
    """Near miss: the footer made and the PDF exported, the document itself not saved."""
    return [
        *open_in_writer(path),
        *_footer_on(),
        *_fields("Page Number", "Page Count"),
        *_export_pdf(pdf),
        call(D, "hotkey", keys=["ctrl", "q"]),
        wait(),
        # The button reads "Don’t Save" (a typographic apostrophe).
        call(D, "click_on", name="Don", role="push button"),
        wait(),
    ]


WRITER_PAGE_FOOTER = SubTask(
    id="desktop.writer_page_footer",
    description=(
        'Give every page of the document {path} a footer reading "Page N of M", where N is '
        "the page's own number and M the total number of pages, both kept up to date by "
        "Writer as the document changes. Save the document in its own format, and export "
        "it as a PDF to {pdf}."
    ),
    attributes={"path": "desktop_file", "pdf": "desktop_file", "title": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=FOOTER_RECORDS,
    setup_generator=footer_setup,
    evaluator_generator=footer_checkpoints,
    solution_generator=footer_solution,
    alternative_generators=[footer_by_export_menu],
    output_generator=saved_document,
    near_misses=[
        NearMiss("types the page numbers as text", solution=footer_typed_numbers),
        NearMiss("puts the page numbers in a header", solution=footer_in_header),
        NearMiss("exports the PDF but does not save the document", solution=footer_not_saved),
    ],
)


# -------------------------------------------------- dates by regular expression
# Each record: the document, and its paragraphs with dates written DD/MM/YYYY. Days
# above 12 make a month/day swap visible; "12/40" and "2025/26" must stay as they are.
DATED = [
    (
        "~/Documents/minutes.odt",
        "Minutes of the Steering Group",
        [
            "The group met on 14/01/2026 and agreed the plan for the spring.",
            "Actions from 28/11/2025 were reviewed; item 12/40 on the register is closed.",
            "The supplier confirmed delivery for 03/02/2026, with a fallback of 17/02/2026.",
            "Budget for 2025/26 was noted. Next meeting: 11/03/2026.",
        ],
    ),
    (
        "~/Documents/contract-notes.odt",
        "Contract Notes: Riverside Depot",
        [
            "The lease started on 01/04/2024 and runs for five years.",
            "Rent was reviewed on 15/04/2025; the next review is due 15/04/2027.",
            "Notice served on 22/09/2025 was withdrawn on 30/09/2025.",
            "Service charge for 2025/26 is payable quarterly.",
        ],
    ),
    (
        "~/Documents/timeline.odt",
        "Incident Timeline",
        [
            "First report received 19/08/2026 from the night shift.",
            "Fix deployed 21/08/2026; monitoring until 04/09/2026.",
            "Root cause review on 25/08/2026 found a config change (ticket 12/40).",
            "Lessons learned are filed under 2025/26 improvements.",
        ],
    ),
    (
        "~/Documents/visits.odt",
        "Site Visit Schedule",
        [
            "Leeds site: 13/05/2026. Bristol site: 27/05/2026.",
            "Glasgow was moved from 02/06/2026 to 16/06/2026.",
            "Reports are due a week after each visit, by 30/06/2026 at the latest.",
            "Travel budget for 2025/26 covers all four visits.",
        ],
    ),
]


def iso_dates(text: str) -> str:
    """``text`` with every DD/MM/YYYY date written YYYY-MM-DD."""
    import re

    return re.sub(r"\b(\d{2})/(\d{2})/(\d{4})\b", r"\3-\2-\1", text)


DATE_RECORDS = [{"path": p, "title": t, "paragraphs": "\n".join(ps)} for p, t, ps in DATED]


def dates_setup(path: str, title: str, paragraphs: str) -> list[ActionStep]:
    return [
        ActionStep(
            env=D,
            action=st.create_text_document(
                path=path, title=title, paragraphs=paragraphs.split("\n")
            ),
        )
    ]


def dates_checkpoints(path: str, title: str, paragraphs: str) -> list[Evaluator]:
    return [
        *(oe.document_paragraph(path=path, text=iso_dates(p)) for p in paragraphs.split("\n")),
        oe.saved_by_libreoffice(path=path),
    ]


SEARCH = r"(\d{2})/(\d{2})/(\d{4})"


def _replace(replacement: str, clicks: tuple[str, ...] = ("Replace All",)) -> list[ActionCall]:
    """Find and Replace (Ctrl+H) with regular expressions: the pattern, the replacement
    (Alt+P: the Replace field), then the buttons ``clicks``, and the dialog closed."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "write_text", text=SEARCH),
        call(D, "click_on", name="Regular expressions", role="check box"),
        call(D, "hotkey", keys=["alt", "p"]),
        call(D, "write_text", text=replacement),
        *(call(D, "click_on", name=button, role="push button") for button in clicks),
        wait(),
        call(D, "click_on", name="Close", role="push button"),
    ]


def dates_solution(path: str, title: str, paragraphs: str) -> list[ActionCall]:
    return [*open_in_writer(path), *_replace("$3-$2-$1"), *save_and_quit()]


def dates_month_first(path: str, title: str, paragraphs: str) -> list[ActionCall]:
    """Near miss: the groups put back in the wrong order (YYYY-DD-MM)."""
    return [*open_in_writer(path), *_replace("$3-$1-$2"), *save_and_quit()]


def dates_first_only(path: str, title: str, paragraphs: str) -> list[ActionCall]:
    """Near miss: Replace instead of Replace All (the first click finds the first date,
    the second replaces it): only the first date changes."""
    return [*open_in_writer(path), *_replace("$3-$2-$1", ("Replace", "Replace")), *save_and_quit()]


WRITER_ISO_DATES = SubTask(
    id="desktop.writer_iso_dates",
    description=(
        "The document {path} writes its dates day first, as DD/MM/YYYY. Change every one "
        "of them to the ISO form YYYY-MM-DD (07/03/2026 becomes 2026-03-07), leaving all "
        "other text exactly as it is, and save the document in its own format."
    ),
    attributes={"path": "desktop_file", "title": "text", "paragraphs": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=DATE_RECORDS,
    setup_generator=dates_setup,
    evaluator_generator=dates_checkpoints,
    solution_generator=dates_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("swaps day and month", solution=dates_month_first),
        NearMiss("replaces only the first date", solution=dates_first_only),
    ],
)

# ------------------------------------------------------------- review comment
# Each record: the document, its paragraphs, the one sentence to comment on (it appears
# once, inside a paragraph with other sentences) and the comment.
REVIEWED = [
    (
        "~/Documents/supply-contract.odt",
        "Supply Contract: Draft 3",
        [
            "The supplier delivers the goods to the depot named in each order.",
            "Prices are fixed for the first year. The buyer may cancel an order without "
            "charge up to the day of delivery. Orders above the monthly volume need notice.",
            "This contract is governed by the law of England and Wales.",
        ],
        "The buyer may cancel an order without charge up to the day of delivery.",
        "Too generous: ask for 48 hours of notice.",
    ),
    (
        "~/Documents/press-release.odt",
        "Press Release: Riverside Library Reopens",
        [
            "The Riverside Library reopens on Monday after a year of works.",
            "The building now runs entirely on solar power. It has a new children's wing "
            "and a cafe. Opening hours are longer on weekdays.",
            "Entry remains free for all residents.",
        ],
        "The building now runs entirely on solar power.",
        "Only about 60 percent is solar; please reword.",
    ),
    (
        "~/Documents/job-advert.odt",
        "Job Advert: Data Analyst",
        [
            "We are looking for a data analyst to join our finance team.",
            "The role is fully remote. You will build monthly reports and automate "
            "reconciliations. Experience with SQL is essential.",
            "Apply by sending your CV to the recruitment office.",
        ],
        "The role is fully remote.",
        "HR says two office days a week are required.",
    ),
    (
        "~/Documents/grant-report.odt",
        "Grant Report: Year One",
        [
            "The project trained forty volunteers in its first year.",
            "Attendance grew steadily across the year. Every workshop was fully booked "
            "within a week. Feedback scores averaged 4.6 out of 5.",
            "We ask the fund to renew its support for a second year.",
        ],
        "Every workshop was fully booked within a week.",
        "Check this: the March workshop had empty seats.",
    ),
]
COMMENT_RECORDS = [
    {"path": p, "title": t, "paragraphs": "\n".join(ps), "sentence": se, "comment": c}
    for p, t, ps, se, c in REVIEWED
]


def comment_setup(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionStep]:
    return [
        ActionStep(
            env=D,
            action=st.create_text_document(
                path=path, title=title, paragraphs=paragraphs.split("\n")
            ),
        )
    ]


def comment_checkpoints(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[Evaluator]:
    return [
        te.document_comment(path=path, anchor=sentence, text=comment),
        *(oe.document_paragraph(path=path, text=p) for p in paragraphs.split("\n")),
        oe.saved_by_libreoffice(path=path),
    ]


def _select(text: str) -> list[ActionCall]:
    """Select ``text`` in the document: Find and Replace (Ctrl+H), Find Next, Close."""
    return [
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "write_text", text=text),
        call(D, "click_on", name="Find Next", role="push button"),
        call(D, "click_on", name="Close", role="push button"),
    ]


def _comment(text: str, insert: list[ActionCall]) -> list[ActionCall]:
    """A comment on the selection (``insert`` opens it), its text, Escape back to the
    document."""
    return [*insert, wait(), call(D, "write_text", text=text), call(D, "press", key="escape")]


COMMENT_MENU = desktop_menu("Insert", "Comment")
COMMENT_KEYS = [call(D, "hotkey", keys=["ctrl", "alt", "c"])]


def comment_solution(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionCall]:
    return [
        *open_in_writer(path),
        *_select(sentence),
        *_comment(comment, COMMENT_MENU),
        *save_and_quit(),
    ]


def comment_by_shortcut(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionCall]:
    """Alternative: the comment through Ctrl+Alt+C instead of the Insert menu."""
    return [
        *open_in_writer(path),
        *_select(sentence),
        *_comment(comment, COMMENT_KEYS),
        *save_and_quit(),
    ]


def comment_at_a_point(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionCall]:
    """Near miss: the sentence found, the selection dropped (End), the comment then
    marks a point instead of spanning the sentence."""
    return [
        *open_in_writer(path),
        *_select(sentence),
        call(D, "press", key="end"),
        *_comment(comment, COMMENT_MENU),
        *save_and_quit(),
    ]


def comment_on_the_paragraph(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionCall]:
    """Near miss: the comment spans the whole paragraph holding the sentence."""
    whole = next(p for p in paragraphs.split("\n") if sentence in p)
    return [
        *open_in_writer(path),
        *_select(whole),
        *_comment(comment, COMMENT_MENU),
        *save_and_quit(),
    ]


def comment_typed_in_text(
    path: str, title: str, paragraphs: str, sentence: str, comment: str
) -> list[ActionCall]:
    """Near miss: the remark typed into the text after the sentence, not as a comment."""
    return [
        *open_in_writer(path),
        *_select(sentence),
        call(D, "press", key="right"),
        call(D, "write_text", text=f" [{comment}]"),
        *save_and_quit(),
    ]


WRITER_REVIEW_COMMENT = SubTask(
    id="desktop.writer_review_comment",
    description=(
        'Review the document {path}: attach the comment "{comment}" to the sentence '
        '"{sentence}" (the comment covering exactly that sentence), change nothing in the '
        "text itself, and save the document in its own format."
    ),
    attributes={
        "path": "desktop_file",
        "title": "text",
        "paragraphs": "str",
        "sentence": "text",
        "comment": "text",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=COMMENT_RECORDS,
    setup_generator=comment_setup,
    evaluator_generator=comment_checkpoints,
    solution_generator=comment_solution,
    alternative_generators=[comment_by_shortcut],
    output_generator=saved_document,
    near_misses=[
        NearMiss("leaves the comment at a point", solution=comment_at_a_point),
        NearMiss("comments on the whole paragraph", solution=comment_on_the_paragraph),
        NearMiss("types the remark into the text", solution=comment_typed_in_text),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_TOC, WRITER_PAGE_FOOTER, WRITER_ISO_DATES, WRITER_REVIEW_COMMENT]
