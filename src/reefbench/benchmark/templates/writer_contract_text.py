"""The wording of the agreements of :mod:`reefbench.benchmark.templates.writer_contract`:
sections with their ordinary clauses, the sentences that state Annex B's figures, and the
look-alike sentences that use the same kind of figure for something else.

Filler sentences carry no figure at all, so the only figures in a body are the ones the
template places (``{C}`` the customer, ``{S}`` the supplier, ``{G}`` the company with the
near-identical name). Figure sentences avoid apostrophes and full stops inside them: each
is found again by its text, and a typed apostrophe would be curled by Writer.
"""

from __future__ import annotations

SECTIONS = [
    "Definitions and interpretation",
    "Commencement and duration",
    "Transition",
    "The Services",
    "Service levels",
    "Support",
    "Fees and payment",
    "Change control",
    "Customer obligations",
    "Data protection",
    "Limitation of liability",
    "Insurance",
    "Termination",
    "Exit management",
    "Disputes",
    "Governance",
    "General",
]

FILLER: dict[str, list[str]] = {
    "Definitions and interpretation": [
        "In this Agreement, words in the singular include the plural and the other way round, "
        "and headings are for convenience only.",
        "The Services means the services described in Annex A, as changed from time to time "
        "under the change control procedure.",
        "Customer Data means all data, records and documents that {C} or its staff supply to "
        "{S} or that {S} creates on behalf of {C}.",
        "A reference to a party includes its successors and permitted assignees, but not any "
        "company in the same group unless this Agreement says so.",
        "If a figure stated in the body of this Agreement differs from Annex B, Annex B prevails.",
        "A working day is any day other than a Saturday, a Sunday or a public holiday in the "
        "place where {C} has its registered office.",
    ],
    "Commencement and duration": [
        "This Agreement starts on the date on which the last party signs it and continues "
        "until it is terminated under its terms.",
        "The parties may agree in writing to extend the Agreement for further periods on the "
        "same terms.",
        "Neither party may assign this Agreement without the prior written consent of the "
        "other, which is not to be unreasonably withheld.",
        "Any renewal is recorded in a short letter signed by both parties and attached to "
        "this Agreement.",
        "{S} confirms that it has the resources and the experience needed to perform the "
        "Services from the start date.",
        "{C} confirms that it has obtained every internal approval needed to enter into this "
        "Agreement.",
    ],
    "Transition": [
        "The transition covers the transfer of the Services from the previous provider of "
        "{C} to {S}.",
        "{S} appoints a transition manager who attends every transition meeting and reports "
        "on progress in writing.",
        "The transition plan sets out each activity, its owner, its dependencies and the "
        "tests that prove it is complete.",
        "{C} gives {S} reasonable access to its premises, systems and staff during the transition.",
        "Any delay caused by the previous provider is recorded in the risk log and discussed "
        "at the next transition meeting.",
        "The transition ends when {C} confirms in writing that every activity in the plan has "
        "been completed.",
    ],
    "The Services": [
        "{S} provides the Services with reasonable skill and care and in line with good "
        "industry practice.",
        "{S} may subcontract hardware maintenance to {G}, which remains a separate company, "
        "but {S} stays responsible for the work of its subcontractors.",
        "The Services are provided from the premises of {S} unless Annex A says otherwise.",
        "{S} keeps a record of every request it receives and of the action taken on it.",
        "Where the Services depend on equipment owned by {C}, {C} keeps that equipment in "
        "good working order.",
        "{S} tells {C} promptly of anything that is likely to affect the quality or timing of "
        "the Services.",
    ],
    "Service levels": [
        "{S} measures its performance against the service levels every month and publishes a "
        "service report.",
        "A service level failure entitles {C} to a service credit, which is deducted from the "
        "next invoice.",
        "Service credits are the sole financial remedy for a service level failure, without "
        "affecting the right to terminate for repeated failures.",
        "The service report explains the cause of every failure and the steps taken to stop "
        "it happening again.",
        "Failures caused by {C} or by events outside the control of {S} do not count towards "
        "the service levels.",
        "The parties review the service levels once a year and may agree to adjust them "
        "through change control.",
    ],
    "Support": [
        "The service desk of {S} accepts requests by telephone, by email and through the "
        "support portal.",
        "Each incident is given a priority by the service desk according to its effect on "
        "the business of {C}.",
        "{C} names up to five staff who may raise incidents and approve changes on its behalf.",
        "{S} keeps {C} informed of the progress of every open incident until it is resolved.",
        "An incident is closed only when {C} confirms that the problem no longer occurs.",
        "Recurring incidents are analysed by {S} to find and remove their root cause.",
    ],
    "Fees and payment": [
        "All fees are stated without value added tax, which {C} pays in addition at the rate "
        "in force.",
        "Each invoice quotes the purchase order number given by {C} and lists the Services it "
        "covers.",
        "{C} may withhold the part of an invoice it disputes in good faith, if it pays the "
        "rest and explains the dispute in writing.",
        "Invoices are sent by email to the accounts team of {C} and not to individual staff.",
        "{S} may not charge for work outside the Services unless it has been agreed through "
        "change control.",
        "The fees cover all equipment, licences and staff that {S} needs to provide the Services.",
    ],
    "Change control": [
        "Either party may propose a change to the Services by sending a change request to the "
        "other party.",
        "{S} assesses each change request and states its effect on the Services, the fees and "
        "the timetable.",
        "No change takes effect until both parties have signed a change note that describes it.",
        "{S} keeps a change log that lists every change request and its outcome.",
        "Urgent changes needed to keep the Services running may be made first and recorded "
        "afterwards.",
        "A change that {C} requests to meet a new legal requirement is assessed with priority.",
    ],
    "Customer obligations": [
        "{C} provides {S} with the information it reasonably asks for to perform the Services.",
        "{C} makes sure that its staff follow the reasonable instructions of {S} on the use "
        "of the Services.",
        "{C} tells {S} of any change to its premises or systems that may affect the Services.",
        "{C} keeps its own passwords and access cards secure and reports any loss at once.",
        "Where {C} fails to meet an obligation, {S} is relieved of its own obligations to the "
        "extent affected.",
        "{C} names a contract manager who is the first point of contact for {S}.",
    ],
    "Data protection": [
        "{S} processes personal data only on the documented instructions of {C}.",
        "{S} makes sure that its staff who handle personal data are bound by a duty of "
        "confidentiality.",
        "{S} takes appropriate technical and organisational measures to protect the Customer "
        "Data against loss and misuse.",
        "{S} tells {C} without undue delay after it becomes aware of a personal data breach.",
        "{S} does not transfer personal data outside the European Economic Area without the "
        "written consent of {C}.",
        "{S} helps {C} to answer requests from people who exercise their rights over their "
        "personal data.",
    ],
    "Limitation of liability": [
        "Nothing in this Agreement limits liability for death or personal injury caused by "
        "negligence, or for fraud.",
        "Neither party is liable for loss of profit, loss of business or any indirect or "
        "consequential loss.",
        "The limits in this section apply however the liability arises, in contract, in tort "
        "or otherwise.",
        "Service credits count towards the limit on the liability of {S}.",
        "Each party takes reasonable steps to reduce any loss it suffers because of a breach "
        "by the other.",
        "A claim must be notified in writing within one year of the party becoming aware of it.",
    ],
    "Insurance": [
        "{S} maintains the insurance required by this section for as long as this Agreement "
        "lasts and for a year after it ends.",
        "{S} shows {C} its certificates of insurance whenever {C} reasonably asks for them.",
        "{S} tells {C} at once if any of its insurance is cancelled or not renewed.",
        "The insurance of {S} is taken out with reputable insurers authorised in the place "
        "where {S} is established.",
        "Holding insurance does not limit the liability of {S} under this Agreement.",
        "{S} makes sure that {G} and any other subcontractor hold insurance suited to their work.",
    ],
    "Termination": [
        "Either party may terminate this Agreement at once by written notice if the other "
        "commits a material breach that it does not remedy within a reasonable time.",
        "Either party may terminate this Agreement at once if the other becomes insolvent or "
        "stops trading.",
        "{C} may terminate this Agreement if service levels are missed in three months of any six.",
        "Termination does not affect the rights of either party that arose before it.",
        "Sections on confidentiality, data protection and liability continue after termination.",
        "On termination, {C} pays for the Services provided up to the date of termination.",
    ],
    "Exit management": [
        "{S} keeps an exit plan up to date and gives it to {C} whenever asked.",
        "On termination, {S} cooperates with {C} and any new provider to hand over the "
        "Services in an orderly way.",
        "{S} returns all Customer Data to {C} in a commonly used format at the end of the "
        "exit period.",
        "{S} answers the reasonable questions of the new provider about the Services.",
        "Exit services that go beyond the exit plan are charged at the rates agreed through "
        "change control.",
        "{S} removes its equipment from the premises of {C} at the end of the exit period.",
    ],
    "Disputes": [
        "The parties try in good faith to settle any dispute through their contract "
        "managers first.",
        "A dispute that the contract managers cannot settle is referred to a senior manager "
        "of each party.",
        "If the senior managers cannot settle the dispute, either party may propose mediation "
        "by an agreed mediator.",
        "Nothing in this section stops a party from seeking urgent relief from a court.",
        "The parties continue to perform their obligations while a dispute is being settled.",
        "The outcome of every dispute is recorded in writing and signed by both parties.",
    ],
    "Governance": [
        "A steering group of senior staff from both parties meets every quarter to review "
        "the Services.",
        "The contract managers meet every month to discuss the service report and open issues.",
        "Minutes of every governance meeting are taken by {S} and agreed by {C}.",
        "Each party may invite specialists to governance meetings when the agenda needs them.",
        "The steering group approves the annual service improvement plan of {S}.",
        "Decisions of the steering group that change the Agreement still need a signed change "
        "note.",
    ],
    "General": [
        "This Agreement is the entire agreement between the parties about its subject matter.",
        "A waiver of any right is effective only if it is given in writing.",
        "If a court finds any part of this Agreement invalid, the rest of it stays in force.",
        "Notices under this Agreement are given in writing to the address of the other party "
        "shown above.",
        "This Agreement may be signed in counterparts, each of which is an original.",
        "This Agreement is governed by the law of the country where {C} has its registered office.",
    ],
}

# Per kind of figure: its first statement (section, sentence with {v}), the second
# statement used when the kind is stated twice, and a look-alike (section, sentence with
# {w}: the wrong figure again, meaning something the annex does not set).
MENTIONS: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "fee": (
        ("Fees and payment", "In return for the Services, {C} pays {S} a monthly service fee "
         "of {v}, invoiced in advance on the first working day of each month."),
        ("Change control", "Until a change note is signed, the monthly service fee of {v} "
         "remains payable in full."),
        ("Fees and payment", "Travel and subsistence costs above {w} in any month need the "
         "written approval of {C} beforehand."),
    ),
    "notice": (
        ("Termination", "Either party may terminate this Agreement for convenience on written "
         "notice of {v} to the other party."),
        ("Exit management", "During a notice period of {v} given for convenience, {S} continues "
         "to provide the Services in full and at the agreed service levels."),
        ("Data protection", "{S} deletes all Customer Data within {w} of the end of the exit "
         "period and confirms the deletion in writing."),
    ),
    "payment": (
        ("Fees and payment", "Each correct invoice is payable within {v} of its receipt by the "
         "accounts team of {C}."),
        ("Disputes", "Once a disputed invoice is settled, the amount found due is payable "
         "within {v} of the settlement, like any other invoice."),
        ("Service levels", "Service reports stay on the shared portal for {w} after they are "
         "published."),
    ),
    "deadline": (
        ("Transition", "{S} delivers the transition plan to {C} no later than {v}."),
        ("Governance", "The steering group meets in the week after {v}, the date by which {S} "
         "delivers the transition plan, to approve it."),
        ("Transition", "The existing arrangements of {C} with its previous provider end on "
         "{w}."),
    ),
    "response": (
        ("Service levels", "{S} responds to every priority 1 incident within {v} of it being "
         "reported to the service desk."),
        ("Support", "Out of office hours, the on-call engineer of {S} also responds to priority "
         "1 incidents within {v}."),
        ("Support", "Planned maintenance is announced to {C} at least {w} before it starts."),
    ),
    "liability": (
        ("Limitation of liability", "The total liability of each party under this Agreement is "
         "limited to {v} in each contract year."),
        ("Insurance", "{S} holds professional indemnity insurance that covers at least the "
         "liability cap of {v} per contract year."),
        ("Insurance", "{S} also holds public liability insurance of at least {w} for any one "
         "event."),
    ),
    "credit": (
        ("Service levels", "Service credits in any month are capped at {v} of the monthly "
         "service fee."),
        ("Service levels", "Service credits for any month never exceed {v} of the monthly "
         "service fee, however many service levels are missed."),
        ("Fees and payment", "Late payments bear interest at {w} a year above the base rate of "
         "the central bank."),
    ),
}  # fmt: skip

# Annex B's rows: kind, label.
ROWS = [
    ("fee", "Monthly service fee"),
    ("payment", "Payment term for invoices"),
    ("notice", "Notice period for termination for convenience"),
    ("deadline", "Deadline for delivery of the transition plan"),
    ("response", "Response time for priority 1 incidents"),
    ("credit", "Cap on service credits per month"),
    ("liability", "Liability cap per contract year"),
]

ANNEX_A = [
    "{S} provides the following Services to {C}: a service desk, incident and problem "
    "management, planned maintenance, and the reports set out in the service levels.",
    "The service desk is staffed on working days during office hours; outside them an "
    "on-call engineer handles priority 1 incidents only.",
    "Hardware maintenance may be performed by {G} as a subcontractor of {S}; {G} has no "
    "contract with {C}.",
]

ANNEX_B_INTRO = (
    "The following figures apply to this Agreement. They prevail over any figure stated "
    "elsewhere in it."
)

# Annex B of an agreement whose figures are still to be filled in from the body.
TO_CONFIRM = "to be confirmed"
ANNEX_B_FILL = (
    "The following table restates the figures that the body of this Agreement sets, for reference."
)
