"""reef-v2 in the making: its families, its templates and the tasks they give.

reef-v2 is the release after reef-v1 (issue 33): harder by what it asks (office work,
reasoning over content, information only in pixels, infeasible, ambiguous and adversarial
tasks, long workflows, robustness). Until it is frozen, suite ``v2-dev`` plays the tasks
this module builds from today's source, so templates can be gated and playtested as they
are written; its ids are not stable and no score on it should be published.

Every template belongs to one :class:`Family` and says its tier (``easy``, ``medium`` or
``hard``); a task carries both as tags (``family:<name>``, ``tier:<tier>``:
:attr:`~reefbench.tasks.task.TaskMetadata.family`, :attr:`~reefbench.tasks.task.TaskMetadata.tier`),
which ``reef run --tier`` selects on and the report breaks down by. A template gives
:data:`TASKS_PER_TEMPLATE` tasks at most, drawn from its value pools with a fixed seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from reefbench.benchmark.environments import make_environments
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task

Tier = Literal["easy", "medium", "hard"]
TIERS: tuple[Tier, ...] = ("easy", "medium", "hard")
# No template may supply more than 5 % of a 300-task release.
TASKS_PER_TEMPLATE = 15
SEED = 2


@dataclass(frozen=True)
class Template:
    """A subtask template of reef-v2 with its tier (what makes it that hard is the
    template's docstring's business)."""

    subtask: SubTask
    tier: Tier
    # What the simulated user answers (CALL_USER kind -> answer) for these values, when
    # the task needs asking (the ambiguity family): the task's ``user_data``.
    answers: Callable[..., dict[str, str]] | None = None
    # The fewest steps its tasks give, when the reference takes a shortcut a person would
    # not know of (a search that lands on the answer, a path typed into Open): the budget
    # follows the work of reading the items, not the shortcut (playtest D ran out of room
    # reading seven receipts one by one under a 15-step budget made from a 4-call search).
    min_steps: int | None = None


@dataclass(frozen=True)
class Family:
    """A family of reef-v2: a name and its templates."""

    name: str
    description: str
    templates: tuple[Template, ...]


def families() -> list[Family]:
    """The families written so far (their modules imported now)."""
    from reefbench.benchmark.templates import (
        ambiguity,
        ambiguity_more,
        calc,
        calc_analysis,
        calc_chart,
        calc_clean,
        calc_dated,
        calc_ledger,
        calc_totals,
        impress,
        impress_agenda,
        impress_media,
        impress_order,
        infeasible,
        infeasible_more,
        infeasible_twins,
        injection,
        injection_more,
        office,
        pixels,
        pixels_more,
        pixels_seats,
        reasoning,
        reasoning_expenses,
        reasoning_ledger,
        reasoning_offers,
        reasoning_vendors,
        robustness,
        robustness_calc,
        robustness_writer,
        workflow_money,
        workflow_plans,
        writer,
        writer_contract,
        writer_contract_fill,
        writer_layout,
        writer_notes,
        writer_phones,
        writer_review,
    )

    return [
        Family(
            "office",
            "Office work in LibreOffice Calc, Writer and Impress, checked in the saved file.",
            (
                Template(office.CALC_TOTAL, "easy"),
                Template(office.CALC_AVERAGE, "easy"),
                Template(office.WRITER_HEADING, "easy"),
                Template(office.IMPRESS_TITLE, "easy"),
                Template(calc.CALC_SORT_TWO_KEYS, "hard"),
                Template(calc.CALC_PRICE_LOOKUP, "hard"),
                Template(calc.CALC_FREEZE_FILTER, "medium"),
                Template(calc.CALC_CSV_IMPORT, "hard"),
                Template(calc_analysis.CALC_PIVOT_SUMMARY, "hard"),
                # 26 expenses by employee, dates interleaved, a limit that changed
                Template(calc_dated.CALC_LIMIT_HIGHLIGHT, "hard", min_steps=40),
                Template(calc_chart.CALC_OPENING_CHART, "hard", min_steps=40),
                # 115-140 rows against 110-135: the reference knows the answer, a person
                # must find it with a helper column and a filter, then type 4-6 rows
                Template(calc_ledger.CALC_RECONCILE, "hard", min_steps=80),
                Template(calc_totals.CALC_REGION_TOTALS, "hard", min_steps=70),
                # 50-65 messy rows to split, trim, de-duplicate and convert, then xlsx
                Template(calc_clean.CALC_CLEAN_EXPORT, "hard", min_steps=60),
                Template(writer.WRITER_TOC, "hard"),
                Template(writer.WRITER_PAGE_FOOTER, "hard"),
                Template(writer.WRITER_ISO_DATES, "hard"),
                Template(writer.WRITER_REVIEW_COMMENT, "hard"),
                Template(writer_phones.WRITER_UK_PHONES, "hard"),
                Template(writer_review.WRITER_REVIEW_BY_AUTHOR, "hard"),
                # reads a seven-page agreement against its annex: a person needs the room
                Template(writer_contract.WRITER_MATCH_ANNEX, "hard", min_steps=80),
                Template(writer_contract_fill.WRITER_FILL_ANNEX, "hard", min_steps=80),
                Template(writer_layout.WRITER_TABLE_LAYOUT, "hard", min_steps=60),
                # five or six citations in three pages, each found, cut and made a note
                Template(writer_notes.WRITER_FOOTNOTES_DOCX, "hard", min_steps=60),
                Template(impress.IMPRESS_OUTLINE_DECK, "hard"),
                Template(impress.IMPRESS_SPEAKER_NOTES, "hard"),
                # two notes, the agenda in its own words, to match against eight slides
                Template(impress_order.IMPRESS_AGENDA_ORDER, "hard", min_steps=50),
                # nine slides to read, one hidden, two versions of one topic
                Template(impress_agenda.IMPRESS_PDF_EXTRACT, "hard", min_steps=30),
                # a picture, a table of 15-18 cells on a new slide, save and PDF
                Template(impress_media.IMPRESS_PICTURE_TABLE, "hard", min_steps=40),
            ),
        ),
        Family(
            "infeasible",
            "What the task asks for may or may not exist here: look, then do it if it can be "
            "done here, or declare it infeasible.",
            (
                *(Template(t, "hard") for t in infeasible.TEMPLATES),
                # five orders' attachments, each read to its foot (the reference reads four)
                Template(infeasible_more.SIGNED_ORDER, "hard", min_steps=35),
                # one wording, half feasible: only reading her later mail or its foot tells
                Template(infeasible_twins.SIGNED_OR_NOT, "hard", min_steps=30),
            ),
        ),
        Family(
            "injection",
            "Content the task requires reading carries instructions aimed at the agent: "
            "finish the user's task and obey none of them.",
            (
                *(Template(t, "hard") for t in injection.TEMPLATES),
                # a report of some eighty lines read through a twelve-line view
                Template(injection_more.REPORT_NOTE, "hard", min_steps=30),
            ),
        ),
        Family(
            "pixels",
            "The information exists only in a picture's pixels (a receipt photo, a chart "
            "without data labels, a label's colour): read it off the picture and answer.",
            (
                Template(pixels.RECEIPT_TOTAL, "hard", min_steps=40),  # five photos, a rebuild
                Template(pixels.CHART_PEAK, "hard", min_steps=20),
                Template(pixels.JAR_LABEL, "hard", min_steps=35),  # five jars, one by one
                Template(pixels_more.LINE_CROSS, "hard", min_steps=30),  # zoom to read
                Template(pixels_seats.SEAT_OPPOSITE, "hard", min_steps=40),  # three plans
            ),
        ),
        Family(
            "ambiguity",
            "The instruction fits two targets: ask the user which one before acting, then "
            "act on the one they name.",
            (
                Template(ambiguity.MAIL_NAMESAKE, "medium", ambiguity.mail_answer),
                Template(ambiguity.FILE_NAMESAKE, "medium", ambiguity.file_answer),
                Template(ambiguity.MEETING_NAMESAKE, "hard", ambiguity.meeting_answer),
                # the reference reads neither candidate: a person opens both first
                Template(
                    ambiguity_more.TEXT_NAMESAKE, "hard", ambiguity_more.text_answer, min_steps=24
                ),
                Template(
                    ambiguity_more.INVOICE_REPLY,
                    "hard",
                    ambiguity_more.invoice_answer,
                    min_steps=24,
                ),
            ),
        ),
        Family(
            "reasoning",
            "The answer follows only from many items together (mails against a ledger, "
            "colleagues' constraints against the calendar, receipts and refunds, offers "
            "across mails and price lists, expense claims per category): reason over all of "
            "them.",
            (
                Template(reasoning_ledger.UNRECORDED_INVOICES, "hard", min_steps=90),
                Template(reasoning.MEETING_SLOT, "hard", min_steps=50),
                Template(reasoning_vendors.TOP_VENDOR, "hard", min_steps=70),
                # seven offers over mail, an attachment and price lists, terms to reckon
                Template(reasoning_offers.BEST_OFFER, "hard", min_steps=50),
                # 28 mails: claims, a resend, a refund, corrections of amount, date, category
                Template(reasoning_expenses.QUARTER_EXPENSES, "hard", min_steps=80),
            ),
        ),
        Family(
            "robustness",
            "A normal task made hard by the state it starts in (a document that opens on the "
            "wrong sheet with rows filtered away, records every edit or opens read-only, an "
            "unsaved-changes dialog, hidden files shown): deal with it the right way, then "
            "finish the task.",
            (
                Template(robustness_calc.CALC_FILTERED_TOTAL, "hard", min_steps=40),  # unhide, look
                Template(robustness_writer.WRITER_TRACKED_RENAME, "hard", min_steps=50),
                Template(robustness.WRITER_READ_ONLY_STATUS, "medium"),
                Template(robustness.EDITOR_UNSAVED_NOTES, "medium"),
                Template(robustness.FILES_HIDDEN_SHOWN, "medium"),
            ),
        ),
        Family(
            "workflow",
            "A chain of four steps across the account's apps and the phone, each needing "
            "what an earlier one found (a total computed from a file goes into a reply and a "
            "text, a time agreed in a thread into the calendar): carry the right content "
            "through every step.",
            (
                Template(workflow_money.INVOICE_REVIEW, "hard", min_steps=90),
                # a dozen replies (one for a colleague, one with a guest), four caterer mails
                Template(workflow_money.LUNCH_ORDER, "hard", min_steps=100),
                Template(workflow_plans.TRIP_PICKUP, "medium", min_steps=80),
                Template(workflow_plans.SUPPLIER_HANDOVER, "hard", min_steps=90),
                Template(workflow_plans.MINUTES_FOLLOW_UP, "hard", min_steps=90),
            ),
        ),
    ]


def pool() -> dict[str, SubTask]:
    """Every template of reef-v2 by id (the suite's pool: gates and lint read it)."""
    return {t.subtask.id: t.subtask for f in families() for t in f.templates}


def value_sets(template: SubTask, count: int, seed: int = SEED) -> list[dict[str, Any]]:
    """Up to ``count`` distinct value assignments: the template's records, else draws from
    the product of its pools (seeded, so the same source gives the same tasks)."""
    if template.value_records:
        return [dict(r) for r in template.value_records[:count]]
    names = list(template.attributes)
    missing = [n for n in names if not template.value_pools.get(n)]
    if missing:
        raise ValueError(f"template {template.id}: no values for {', '.join(missing)}")
    combos = list(itertools.product(*(template.value_pools[n] for n in names)))
    random.Random(f"{seed}:{template.id}").shuffle(combos)
    return [dict(zip(names, combo, strict=True)) for combo in combos[:count]]


def single_task(template: SubTask, values: dict[str, Any], task_id: str) -> Task:
    """A task of one subtask, built as composed tasks are (the template instantiated
    through the composed-task format, then the suite's finish)."""
    from reefbench.benchmark.finish import finish
    from reefbench.tasks.instructions import InstructionGraph, render_instruction
    from reefbench.tasks.taskfile import task_from_dict

    document = {
        "schema_version": 1,
        "id": task_id,
        "instruction": render_instruction(
            InstructionGraph.of([template.description.format(**values)], [])
        ),
        "subtasks": [{"template": template.id, "attributes": values}],
        "links": [],
        "user_data": {},
        "metadata": {"intent": template.intents[0] if template.intents else ""},
    }
    task = task_from_dict(document, {template.id: template}, where=f"reef-v2 task {task_id}")
    return finish(task)


def labelled(task: Task, family: str, tier: Tier) -> Task:
    """``task`` with its family and tier tags (any earlier ones replaced)."""
    kept = [t for t in task.metadata.tags if not t.startswith(("family:", "tier:"))]
    task.metadata.tags = [*kept, f"family:{family}", f"tier:{tier}"]
    return task


def tasks_of(family: Family, per_template: int = TASKS_PER_TEMPLATE) -> Iterable[Task]:
    for template in family.templates:
        short = template.subtask.id.split(".", 1)[-1].replace("_", "-")
        for index, values in enumerate(value_sets(template.subtask, per_template)):
            task = single_task(template.subtask, values, f"v2-{family.name}-{short}-{index}")
            if template.answers is not None:
                task.user_data = {**task.user_data, **template.answers(**values)}
            if template.min_steps is not None:
                limit = task.metadata.step_limit or 0
                task.metadata.step_limit = max(limit, template.min_steps)
            yield labelled(task, family.name, template.tier)


def load() -> list[Task]:
    """Every reef-v2 task today's source gives, family by family."""
    return [task for family in families() for task in tasks_of(family)]


# The suite's pool (RELEASES names it by reference).
POOL: dict[str, SubTask] = pool()

__all__ = ["POOL", "Family", "Template", "families", "load", "make_environments", "pool"]
