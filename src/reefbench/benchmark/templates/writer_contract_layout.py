"""The agreements of reef-v2's annex templates (``writer_contract``: the body made to
match Annex B; ``writer_contract_fill``: Annex B filled from the body) and their layout.

An agreement is its parties (the supplier and a company with a near-identical name), the
annex's figures and the body's wrong ones: the match template states three figures wrong
in the body (one of them twice) and the wrong figures again as look-alikes; the fill
template states every figure right in the body, the same look-alikes around them, and
leaves Annex B's figures to be confirmed. The layout (seeded by the file) is the setup's
blocks, and what the checkpoints expect.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.benchmark.templates.writer_contract_text import (
    ANNEX_A,
    ANNEX_B_FILL,
    ANNEX_B_INTRO,
    FILLER,
    MENTIONS,
    ROWS,
    SECTIONS,
    TO_CONFIRM,
)


@dataclass(frozen=True)
class Agreement:
    """One task's agreement: its parties, the annex's figures (kind -> figure), the body's
    wrong figures (kind -> figure), the kind stated twice, the kinds stated correctly."""

    path: str
    title: str
    customer: str
    supplier: str
    namesake: str
    annex: dict[str, str]
    wrong: dict[str, str]
    repeated: str
    correct: tuple[str, ...]


def _annex(
    fee: str, notice: str, pay: str, due: str, resp: str, cap: str, credit: str
) -> dict[str, str]:
    return dict(
        zip(
            ("fee", "notice", "payment", "deadline", "response", "liability", "credit"),
            (fee, notice, pay, due, resp, cap, credit),
            strict=True,
        )
    )


AGREEMENTS = [
    Agreement(
        "~/Documents/msa-halden.odt", "Managed Services Agreement", "Brightwater Foods Ltd",
        "Halden Data Systems Ltd", "Halden Data Services Ltd",
        _annex("EUR 1,520", "45 days", "30 days", "31 March 2027", "2 hours", "EUR 250,000",
               "10 per cent"),
        {"fee": "EUR 1,250", "notice": "30 days", "response": "4 hours"},
        "notice", ("payment", "deadline"),
    ),
    Agreement(
        "~/Documents/facilities-agreement.odt", "Facilities Services Agreement",
        "Marlow Civic Trust", "Kestrel Facility Care Ltd", "Kestrel Facilities Care Ltd",
        _annex("GBP 4,380", "90 days", "45 days", "15 May 2027", "4 hours", "GBP 500,000",
               "15 per cent"),
        {"payment": "60 days", "deadline": "15 June 2027", "credit": "5 per cent"},
        "payment", ("fee", "notice"),
    ),
    Agreement(
        "~/Documents/it-support-agreement.odt", "IT Support Agreement", "Orchard Lane Surgery",
        "Nordvik IT Partners AB", "Nordvik IT Partner AB",
        _annex("EUR 2,940", "60 days", "14 days", "30 April 2027", "1 hour", "EUR 150,000",
               "20 per cent"),
        {"notice": "90 days", "liability": "EUR 100,000", "fee": "EUR 2,490"},
        "liability", ("payment", "response"),
    ),
    Agreement(
        "~/Documents/hosting-agreement.odt", "Cloud Hosting Agreement", "Tessaly Retail GmbH",
        "Corvid Cloud Services GmbH", "Corvid Cloud Solutions GmbH",
        _annex("EUR 6,750", "30 days", "21 days", "1 September 2027", "30 minutes",
               "EUR 400,000", "25 per cent"),
        {"response": "60 minutes", "payment": "30 days", "deadline": "1 October 2027"},
        "response", ("notice", "fee"),
    ),
    Agreement(
        "~/Documents/payroll-agreement.odt", "Payroll Services Agreement",
        "Greyfriars Housing Association", "Ledgerline Payroll Ltd", "Ledgerline Payrolls Ltd",
        _annex("GBP 3,160", "60 days", "30 days", "28 February 2027", "8 hours", "GBP 300,000",
               "10 per cent"),
        {"fee": "GBP 3,610", "credit": "12 per cent", "notice": "30 days"},
        "fee", ("payment", "liability"),
    ),
    Agreement(
        "~/Documents/security-agreement.odt", "Security Services Agreement",
        "Portside Logistics BV", "Vigil Guarding Services BV", "Vigil Guard Services BV",
        _annex("EUR 8,420", "120 days", "30 days", "20 January 2027", "15 minutes",
               "EUR 1,000,000", "5 per cent"),
        {"deadline": "20 February 2027", "notice": "90 days", "liability": "EUR 100,000"},
        "deadline", ("fee", "response"),
    ),
    Agreement(
        "~/Documents/translation-agreement.odt", "Translation Services Agreement",
        "Ashby Medical Devices Ltd", "Lingua Bridge Ltd", "Lingua Bridge Group Ltd",
        _annex("GBP 1,875", "45 days", "60 days", "31 July 2027", "24 hours", "GBP 75,000",
               "10 per cent"),
        {"payment": "45 days", "response": "48 hours", "fee": "GBP 1,785"},
        "response", ("notice", "liability"),
    ),
    Agreement(
        "~/Documents/catering-agreement.odt", "Catering Services Agreement", "Rivermead College",
        "Saltmarsh Catering Co Ltd", "Saltmarsh Catering Company Ltd",
        _annex("GBP 12,300", "90 days", "30 days", "1 August 2027", "2 hours", "GBP 2,000,000",
               "15 per cent"),
        {"notice": "60 days", "credit": "10 per cent", "liability": "GBP 200,000"},
        "notice", ("fee", "deadline"),
    ),
]  # fmt: skip
BY_PATH = {a.path: a for a in AGREEMENTS}


@dataclass(frozen=True)
class Fix:
    """A wrong figure in the body: the phrase holding it, that phrase corrected, and the
    paragraph before and after the correction."""

    kind: str
    phrase: str
    corrected: str
    before: str
    after: str


@dataclass(frozen=True)
class Layout:
    """An agreement laid out: its blocks (for the setup), its fixes, the paragraphs that
    must stay as they are (look-alikes and correct figures), and every paragraph's text
    once corrected."""

    blocks: list[list[str]]
    fixes: list[Fix]
    kept: list[str]
    expected: list[str]


def _names(agreement: Agreement) -> dict[str, str]:
    return {"C": agreement.customer, "S": agreement.supplier, "G": agreement.namesake}


def _sentences(agreement: Agreement, fill: bool) -> dict[str, list[tuple[str, str, str]]]:
    """Per section: the figure sentences placed in it, as (sentence as written, sentence
    corrected, role) with role "fix:<kind>" or "keep". When the annex is to be filled
    (``fill``), the body states every figure right, and the wrong figures appear only in
    their look-alikes."""
    names = _names(agreement)
    placed: dict[str, list[tuple[str, str, str]]] = {s: [] for s in SECTIONS}
    for kind, (first, second, lookalike) in MENTIONS.items():
        right = agreement.annex[kind]
        if fill:
            mentions = [first] if kind != agreement.repeated else [first, second]
            for section, text in mentions:
                same = text.format(v=right, **names)
                placed[section].append((same, same, "keep"))
            if kind in agreement.wrong:
                section, text = lookalike
                same = text.format(w=agreement.wrong[kind], **names)
                placed[section].append((same, same, "keep"))
            continue
        mentions = [first] if kind != agreement.repeated else [first, second]
        if kind in agreement.wrong:
            wrong = agreement.wrong[kind]
            for section, text in mentions:
                placed[section].append(
                    (text.format(v=wrong, **names), text.format(v=right, **names), f"fix:{kind}")
                )
            section, text = lookalike
            same = text.format(w=wrong, **names)
            placed[section].append((same, same, "keep"))
        elif kind in agreement.correct:
            section, text = first
            same = text.format(v=right, **names)
            placed[section].append((same, same, "keep"))
    return placed


def layout(agreement: Agreement, fill: bool = False) -> Layout:
    """The agreement's text: each section's filler sentences (seeded by the file, so a
    task's document never changes) in paragraphs of three, the figure sentences set into
    them, then Annex A and Annex B (its table; with :data:`TO_CONFIRM` for every figure
    when the task fills it, ``fill``)."""
    rng = random.Random(agreement.path + ("#fill" if fill else ""))
    names = _names(agreement)
    placed = _sentences(agreement, fill)
    blocks: list[list[str]] = []
    fixes: list[Fix] = []
    kept: list[str] = []
    expected: list[str] = [agreement.title]
    intro = (
        f"This {agreement.title} is made between {agreement.customer} (the Customer) and "
        f"{agreement.supplier} (the Supplier). {agreement.namesake} is a separate company and "
        "is not a party to it."
    )
    blocks.append(["p", intro])
    expected.append(intro)
    for number, section in enumerate(SECTIONS, 1):
        heading = f"{number}. {section}"
        blocks.append(["h", heading])
        expected.append(heading)
        filler = [s.format(**names) for s in FILLER[section]]
        rng.shuffle(filler)
        groups: list[list[tuple[str, str, str]]] = [
            [(s, s, "") for s in filler[i : i + 3]] for i in range(0, len(filler), 3)
        ]
        for sentence in placed[section]:
            group = rng.choice(groups)
            group.insert(rng.randint(1, len(group)), sentence)
        for group in groups:
            shown = " ".join(written for written, _, _ in group)
            fixed = " ".join(corrected for _, corrected, _ in group)
            roles = {role.split(":")[0] for _, _, role in group}
            blocks.append(["p", shown])
            expected.append(fixed)
            fixes += [
                Fix(role[4:], written.rstrip("."), corrected.rstrip("."), shown, fixed)
                for written, corrected, role in group
                if role.startswith("fix:")
            ]
            if "keep" in roles and "fix" not in roles:
                kept.append(shown)
    for heading, paragraphs in (("Annex A: Service description", ANNEX_A),):
        blocks.append(["h", heading])
        expected.append(heading)
        for text in paragraphs:
            blocks.append(["p", text.format(**names)])
            expected.append(text.format(**names))
    blocks.append(["h", "Annex B: Fees, notice periods and deadlines"])
    intro = ANNEX_B_FILL if fill else ANNEX_B_INTRO
    blocks.append(["p", intro])
    expected += ["Annex B: Fees, notice periods and deadlines", intro]
    blocks.append(["row", "Item", "Agreed figure"])
    expected += ["Item", "Agreed figure"]
    for kind, label in ROWS:
        blocks.append(["row", label, TO_CONFIRM if fill else agreement.annex[kind]])
        expected += [label, agreement.annex[kind]]
    return Layout(blocks, fixes, kept, expected)
