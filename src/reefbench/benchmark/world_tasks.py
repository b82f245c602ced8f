"""Hard handmade tasks on seeded worlds: chains whose values are read from the account.

Every task loads one world (seeds 100-109) before anything else, then strings together
subtasks of :mod:`reefbench.benchmark.templates.world` across the browser, the phone and
the computer. The values the checkpoints expect (an invoice's amount, a contact's number,
a count of open checklist items) and the distractors the near misses use are read here,
at build time, from the very database the task's setup loads (``account_world(seed)``),
so nothing is hard-coded and a change of the world generator changes them consistently.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import Any

from reefbench.benchmark.composed import LONG_CHAIN
from reefbench.benchmark.finish import finish
from reefbench.benchmark.handmade import Part, assemble
from reefbench.benchmark.templates.common import TEXTS, TITLES, WORDS
from reefbench.benchmark.templates.world import WHICH_CONTACT
from reefbench.environments.worlds import VENDORS
from reefbench.envs.services.seeding import load_world
from reefbench.envs.services.world import account_world
from reefbench.tasks.task import ActionStep, Task

# The worlds the tasks load (reef-v1 gives this helper seeds 100-109). Each seed adds three
# tasks and about 80 s to a gate run with two workers.
SEEDS = range(100, 110)


def _rows(seed: int, sql: str, *args: Any) -> list[sqlite3.Row]:
    db = sqlite3.connect(account_world(seed))
    db.row_factory = sqlite3.Row
    try:
        return list(db.execute(sql, args))
    finally:
        db.close()


def _amount(body: str) -> str:
    return body.split("Amount due: £", 1)[1].split(",", 1)[0]


def invoice(seed: int, vendor: int, back: int) -> dict[str, str]:
    """The invoice of vendor ``vendor`` issued ``back`` months before the latest one, and
    the amount of the month before it (the look-alike a careless reader copies)."""
    name, prefix = VENDORS[vendor]
    mails = _rows(
        seed,
        "SELECT subject, body FROM mail WHERE sender = ? ORDER BY date DESC",
        f"billing@{prefix.lower()}.test",
    )
    wanted, before = mails[back], mails[back + 1]
    month = wanted["subject"].removeprefix("Your invoice for ")
    amount, decoy = _amount(wanted["body"]), _amount(before["body"])
    assert amount != decoy
    return {"vendor": name, "month": month, "amount": amount, "decoy": decoy}


@dataclass(frozen=True)
class Match:
    first: str
    name: str
    company: str
    number: str
    decoy_name: str
    decoy: str


def lookalikes(seed: int) -> list[Match]:
    """Contacts whose first name another contact shares and whose company is their own:
    the instruction names the first name and the company, a look-alike is the decoy."""
    people = _rows(seed, "SELECT name, company, phone FROM contacts ORDER BY id")
    firsts = Counter(p["name"].split()[0] for p in people)
    companies = Counter(p["company"] for p in people)
    out = []
    for person in people:
        first = person["name"].split()[0]
        if firsts[first] < 2 or not person["company"] or companies[person["company"]] > 1:
            continue
        other = next(p for p in people if p["name"].split()[0] == first and p is not person)
        out.append(
            Match(
                first,
                person["name"],
                person["company"],
                person["phone"],
                other["name"],
                other["phone"],
            )
        )
    return out


def ambiguous(seed: int) -> list[Match]:
    """First names exactly two contacts share: the user must say which one is meant."""
    people = _rows(seed, "SELECT name, company, phone FROM contacts ORDER BY id")
    groups: dict[str, list[sqlite3.Row]] = {}
    for p in people:
        groups.setdefault(p["name"].split()[0], []).append(p)
    out = []
    for first, group in groups.items():
        if len(group) == 2:
            a, b = group
            out.append(Match(first, a["name"], a["company"], a["phone"], b["name"], b["phone"]))
    return out


def checklists(seed: int) -> list[dict[str, str]]:
    """Checklist notes whose title no other note contains, with their open and ticked counts
    (when they differ: the ticked count is the near miss)."""
    notes = _rows(seed, "SELECT id, title FROM notes WHERE kind = 'checklist' ORDER BY id")
    titles = [n["title"] for n in _rows(seed, "SELECT title FROM notes")]
    out = []
    for note in notes:
        if sum(note["title"].casefold() in t.casefold() for t in titles) > 1:
            continue
        items = _rows(seed, "SELECT checked FROM note_items WHERE note_id = ?", note["id"])
        ticked = sum(i["checked"] for i in items)
        if ticked != len(items) - ticked:
            out.append(
                {"note": note["title"], "count": str(len(items) - ticked), "decoy": str(ticked)}
            )
    return out


def _with_world(task: Task, seed: int) -> Task:
    """The world comes first in the setup: it replaces the whole account."""
    step = ActionStep(env="services", action=load_world(seed=seed))
    task.setup = [
        step,
        *task.setup,
    ]
    chain = len(task.metadata.subtasks) >= LONG_CHAIN[0]
    return finish(task, tags=("world", *(["long-chain"] if chain else [])))


def _task(
    task_id: str,
    seed: int,
    instruction: str,
    parts: list[Part],
    *,
    level: str = "L2",
    scenario: str,
    user_data: dict[str, str] | None = None,
) -> Task:
    task = assemble(
        task_id,
        instruction,
        parts,
        [(i, i + 1) for i in range(len(parts) - 1)],
        level=level,
        scenario=scenario,
    )
    if user_data:
        task.user_data = {**task.user_data, **user_data}
    return _with_world(task, seed)


def _invoice_part(seed: int, vendor: int, back: int, title: str) -> Part:
    return ("world.invoice_to_phone_note", {**invoice(seed, vendor, back), "title": title})


def _company_part(match: Match, text: str) -> Part:
    values = {
        "first": match.first,
        "company": match.company,
        "name": match.name,
        "text": text,
        "number": match.number,
        "decoy": match.decoy,
    }
    return ("world.text_contact_by_company", values)


def _checklist_part(found: dict[str, str], path: str) -> Part:
    return ("world.checklist_count_to_desktop", {**found, "path": path})


def _ask_part(match: Match, text: str) -> Part:
    return (
        "world.text_ambiguous_contact",
        {"first": match.first, "text": text, "number": match.number, "decoy": match.decoy},
    )


def _say(part: Part) -> str:
    """The template's sentence for this part (what the instruction of a chain strings)."""
    from reefbench.benchmark.templates import POOL

    template, values = part
    return POOL[template].description.format(**values)


def _chain(task_id: str, seed: int, parts: list[Part], **kwargs: Any) -> Task:
    sentences = [_say(p) for p in parts]
    instruction = " Then ".join(
        s if i == 0 else s[0].lower() + s[1:] for i, s in enumerate(sentences)
    )
    return _task(task_id, seed, instruction, parts, **kwargs)


def _distinct(matches: list[Match], taken: set[str], start: int) -> Match:
    """The first look-alike from ``start`` on whose first name no other part of the task
    uses (two parts about two Judiths would make one of them ambiguous)."""
    found = next(m for m in matches[start:] + matches[:start] if m.first not in taken)
    taken.add(found.first)
    return found


def _seeded(k: int, seed: int) -> list[Task]:
    """Three chains on world ``seed``: a four-link chain over the three devices, an ask-first
    one (L3) and a two-link one; every template on every world."""
    vendor, other_vendor = k % len(VENDORS), (k + 3) % len(VENDORS)
    found = checklists(seed)
    asked = ambiguous(seed)[k % len(ambiguous(seed))]
    taken = {asked.first}
    matches = lookalikes(seed)
    first, second = _distinct(matches, taken, k), _distinct(matches, taken, k + 5)
    title, other_title = TITLES[k % len(TITLES)], TITLES[(k + 6) % len(TITLES)]
    note = found[k % len(found)]
    return [
        _chain(
            f"v0-world-invoice-{seed}",
            seed,
            [
                _invoice_part(seed, vendor, 1, title),
                _company_part(first, TEXTS[k % len(TEXTS)]),
                _checklist_part(note, f"~/Desktop/{WORDS[k]}-open-items.txt"),
                _invoice_part(seed, (vendor + 1) % len(VENDORS), 3, TITLES[(k + 3) % len(TITLES)]),
            ],
            scenario="email",
        ),
        _chain(
            f"v0-world-ask-{seed}",
            seed,
            [
                _ask_part(asked, TEXTS[(k + 6) % len(TEXTS)]),
                _invoice_part(seed, other_vendor, 2, other_title),
                _company_part(second, TEXTS[(k + 10) % len(TEXTS)]),
            ],
            level="L3",
            scenario="messages",
            user_data={WHICH_CONTACT: f"I mean {asked.name}."},
        ),
        _chain(
            f"v0-world-checklist-{seed}",
            seed,
            [
                _checklist_part(note, f"~/Documents/{WORDS[k + 8]}-open-items.txt"),
                _invoice_part(seed, other_vendor, 0, title),
            ],
            scenario="notes",
        ),
    ]


def load() -> list[Task]:
    """The world tasks (:data:`SEEDS`), listed after the handmade ones by
    :func:`reefbench.benchmark.load` and reef-v1's build."""
    return [task for k, seed in enumerate(SEEDS) for task in _seeded(k, seed)]
