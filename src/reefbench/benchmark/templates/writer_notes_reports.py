"""The reports of :mod:`reefbench.benchmark.templates.writer_notes`: a few pages each, whose
author cited sources inline as ``[Source: ...]``.

Each report has five sections of two written paragraphs (their sentences carry the
citations: five to seven per report, one source cited twice, some of them long, one
in the middle of a sentence) and one square bracket that is not a citation. Neutral
sentences about the figures fill the paragraphs out to three or four pages.

Sources are typed back as footnotes, so they avoid what Writer's autocorrect changes as
one types: no full stops, apostrophes, quotes, spaced dashes or ordinals, a capital first
letter, and each ends in a number (no word completion is left selected at its end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Sentences true of any of the reports, added to its paragraphs (three after each written
# paragraph, six in a closing paragraph of each section), in turn from an offset.
FILLER = [
    "The figures in this part are provisional and may be revised when late returns arrive.",
    "Where two sources disagree, this report gives the more recent one and notes the other.",
    "All amounts are shown in current prices unless the text says otherwise.",
    "The same measures were used in last year's report, so the two can be read side by side.",
    "Small changes from one quarter to the next should be read with caution.",
    "The team checked the larger movements with the people who supplied the data.",
    "Seasonal effects are strong in this area, so each quarter is compared with the same "
    "quarter a year earlier.",
    "The committee asked for this part to be kept short and to focus on what has changed.",
    "Earlier figures have been restated where the method behind them changed.",
    "Some of the underlying counts are small, which makes the percentages move more than "
    "the real picture does.",
    "None of the figures in this part has been adjusted for inflation.",
    "The picture differs between the town centre and the outlying districts.",
    "The working group met four times during the year to review these results.",
    "Comments from residents were collected at two open meetings in the spring.",
    "The results were shared with the main partners before this report was finalised.",
    "Where the text gives a range, the lower figure is the more cautious estimate.",
    "A fuller breakdown by district is available from the policy team on request.",
    "The trend over five years matters more here than the change over a single year.",
    "The council has no direct control over most of the factors described in this part.",
    "Partners have agreed to collect the same information again next year.",
    "This part draws on both published statistics and the council's own records.",
    "The numbers for the final month of the year were estimated from the first two weeks.",
    "Readers should note that the boundaries of some districts changed during the year.",
    "The board will consider whether further work is needed at its next meeting.",
    "The change is in line with what other towns of a similar size have reported.",
    "The figures exclude two sites that opened part way through the year.",
    "Most of the change happened in the second half of the year.",
    "The survey sample was weighted to match the age profile of the population.",
    "A short technical note on the methods used is kept with the working papers.",
    "Officers will publish an update if the final figures differ materially.",
    "The information was gathered between January and December of last year.",
    "Responses were received from just over four hundred local organisations.",
    "These results will feed into the review of the local plan next spring.",
    "It is too early to say whether the change will last.",
    "No single cause explains the whole of the movement described here.",
    "The measures chosen are those the partners already collect, to keep the cost down.",
    "Where a figure could identify a single business, it has been left out.",
    "The team is grateful to everyone who gave their time to provide information.",
    "Some of the questions were changed this year, so a few comparisons are not possible.",
    "The full tables are published alongside this report on the council website.",
    "A similar pattern was seen in the previous two years.",
    "This part should be read together with the summary at the start of the report.",
    "The authors welcome corrections and will note them in the next edition.",
    "Figures for the most recent months are the least certain and the most likely to change.",
    "The next edition of this report is due in the spring of next year.",
    "Local partners helped to interpret the figures and to check them against experience "
    "on the ground.",
    "A few records were incomplete and have been left out of the totals.",
    "The council's own figures agree broadly with the national ones for this period.",
    "Where possible, the figures are given for the calendar year.",
    "The working group would like to see more detailed data collected in future.",
    "Changes of less than one percentage point are within the margin of error.",
    "The report does not attempt to forecast beyond the coming year.",
    "The same caution applies to the district figures, which rest on smaller samples.",
    "Officers have shared the draft of this part with the relevant service managers.",
    "The measures will be reviewed when the new strategy is adopted.",
    "Several partners changed their recording systems during the year.",
    "The figures were last checked at the end of the reporting period.",
    "The cabinet member for the area has been briefed on these results.",
    "Comparisons with the years before the pandemic are given where they help.",
    "Each figure in this part has been checked by a second member of the team.",
    "The areas used in this part follow the council's ward boundaries.",
    "The results are broadly similar for men and women.",
    "Younger residents were less likely to take part in the consultation.",
    "This is the third year in which the report has been produced in this form.",
]
FILLER_AFTER = 3  # filler sentences after each written paragraph
FILLER_CLOSING = 6  # sentences in the closing paragraph of each section

CITATION = re.compile(r"\s*\[Source:\s*([^\]]*)\]")


@dataclass(frozen=True)
class Report:
    """A report: where it is, where its Word copy goes, its title and its sections
    (heading, the written paragraphs), with the filler offset that varies its text."""

    path: str
    docx: str
    title: str
    sections: tuple[tuple[str, tuple[str, ...]], ...]
    offset: int


REPORTS = [
    Report(
        "~/Documents/high-street-review.odt",
        "~/Documents/high-street-review.docx",
        "Eastbridge High Street Review 2026",
        (
            (
                "Summary",
                (
                    "Trading on the high street held up better than traders expected at the "
                    "start of the year. Retail sales in the region rose by 4.2 % in the year "
                    "to March [Source: ONS Retail Sales Bulletin, May 2026].",
                    "The main concerns remain empty shops and the pull of online shopping, "
                    "both discussed below [see the Outlook section].",
                ),
            ),
            (
                "Sales and footfall",
                (
                    "Footfall on the high street fell on weekdays but grew at weekends "
                    "[Source: Eastbridge Business Improvement District, Footfall Counter "
                    "Report, Quarter 1 2026], so the overall count changed little.",
                    "Spending on clothing and footwear recovered more slowly than spending "
                    "on food [Source: ONS Retail Sales Bulletin, May 2026].",
                ),
            ),
            (
                "Empty units",
                (
                    "One in seven ground floor units stood empty at the end of the year "
                    "[Source: Local Data Company, Vacancy Monitor for Market Towns, December "
                    "2025].",
                    "Units near the station let more quickly than those at the northern end "
                    "of the street.",
                ),
            ),
            (
                "Online competition",
                (
                    "Online sales took 27 % of all retail spending in February [Source: "
                    "British Retail Consortium, Online Retail Tracker, February 2026].",
                    "Several shops now sell online as well, and collection points have "
                    "opened in three of them.",
                ),
            ),
            (
                "Outlook",
                (
                    "Most shop owners expect trading to stay flat next year [Source: "
                    "Eastbridge Chamber of Commerce, Members Survey 2026].",
                    "The council will review business rate relief for small shops in the autumn.",
                ),
            ),
        ),
        0,
    ),
    Report(
        "~/Documents/commuting-report.odt",
        "~/Documents/commuting-report.docx",
        "Commuting in Lanford District: Annual Report",
        (
            (
                "Introduction",
                (
                    "This report describes how people travelled to work in Lanford District "
                    "during the last year.",
                    "Rail journeys into the city centre were 8 % below their level before "
                    "the timetable change [Source: Office of Rail and Road, Estimates of "
                    "Station Usage 2025].",
                ),
            ),
            (
                "Travel by car",
                (
                    "Two thirds of commuters still drive to work [Source: Lanford District "
                    "Council, Travel to Work Survey 2025], a share that has barely moved in "
                    "five years.",
                    "Average peak journey times on the ring road rose by four minutes "
                    "[figures rounded to the nearest minute].",
                ),
            ),
            (
                "Buses",
                (
                    "Bus patronage grew by 6 % after the flat fare was introduced [Source: "
                    "Department for Transport, Bus Statistics Table 0109, March 2026].",
                    "The new evening services on the eastern routes are used mainly by shift "
                    "workers.",
                ),
            ),
            (
                "Walking and cycling",
                (
                    "The share of people cycling to work doubled on the routes with new "
                    "lanes [Source: Lanford District Council, Travel to Work Survey 2025].",
                    "Counts on the canal towpath rose in every month of the year [Source: "
                    "Canal and River Trust, Towpath Counter Data for the North West Region, "
                    "January 2026].",
                ),
            ),
            (
                "Working from home",
                (
                    "About one worker in four now spends at least two days a week at home "
                    "[Source: ONS Opinions and Lifestyle Survey, Wave 112, 2026].",
                    "Employers in the business park report that Mondays and Fridays are "
                    "the quietest days.",
                ),
            ),
        ),
        11,
    ),
    Report(
        "~/Documents/energy-briefing.odt",
        "~/Documents/energy-briefing.docx",
        "Household Energy Use: Briefing for the Housing Committee",
        (
            (
                "Background",
                (
                    "Energy bills remain the largest cost pressure reported by tenants "
                    "[Source: Northmoor Housing Association, Tenant Survey 2025].",
                    "The committee asked for a short summary of what has changed since the "
                    "last briefing.",
                ),
            ),
            (
                "Prices",
                (
                    "The typical dual fuel bill fell by 7 % in April [Source: Ofgem, Energy "
                    "Price Cap Announcement, February 2026].",
                    "Standing charges rose at the same time, which weighs most on homes that "
                    "use little energy [provisional].",
                ),
            ),
            (
                "Consumption",
                (
                    "Average gas use per home fell for the fourth year running [Source: "
                    "Department for Energy Security and Net Zero, Subnational Gas "
                    "Consumption Statistics, December 2025].",
                    "Electricity use rose slightly, mostly in homes with heat pumps or "
                    "electric cars.",
                ),
            ),
            (
                "Insulation and repairs",
                (
                    "Fewer than half of the association homes have loft insulation to the "
                    "current standard [Source: Northmoor Housing Association, Stock "
                    "Condition Survey 2024].",
                    "The repairs team fitted new boilers in 140 homes during the year.",
                ),
            ),
            (
                "Support for tenants",
                (
                    "Tenants who asked for help with bills were most often in work "
                    "[Source: Northmoor Housing Association, Tenant Survey 2025], which "
                    "surprised the advice team.",
                    "The hardship fund was fully spent by the end of January.",
                ),
            ),
        ),
        22,
    ),
    Report(
        "~/Documents/library-report.odt",
        "~/Documents/library-report.docx",
        "Public Library Use in Westfold: Annual Report 2025",
        (
            (
                "Overview",
                (
                    "Visits to the five branch libraries rose by 11 % on the year [Source: "
                    "Westfold Library Service, Annual Visitor Count 2025].",
                    "The reopening of the Market Street branch after repairs accounts for "
                    "part of the rise.",
                ),
            ),
            (
                "Loans",
                (
                    "Loans of printed books rose for the first time in a decade [Source: "
                    "CIPFA Public Library Statistics, Actuals 2024 to 2025].",
                    "Children's picture books and large print titles led the increase [estimate].",
                ),
            ),
            (
                "Digital services",
                (
                    "E-book loans grew faster than printed loans [Source: Westfold Library "
                    "Service, Annual Visitor Count 2025], though from a smaller base.",
                    "Public computers were booked for about 60 % of the hours they were available.",
                ),
            ),
            (
                "Events and learning",
                (
                    "More than 9,000 people attended library events during the year [Source: "
                    "Westfold Library Service, Events and Learning Register, January 2026].",
                    "Rhyme time sessions for babies were full at every branch.",
                ),
            ),
            (
                "Comparison with other areas",
                (
                    "Westfold now has more visits per resident than the average for similar "
                    "councils [Source: Arts Council England, Libraries Benchmarking Report "
                    "for Unitary Authorities, November 2025].",
                    "Opening hours, however, remain below the average for those councils.",
                ),
            ),
        ),
        33,
    ),
]
BY_PATH = {r.path: r for r in REPORTS}


def paragraphs(report: Report) -> list[str]:
    """The report's paragraphs in order as the setup writes them: the title, then each
    section's heading, its written paragraphs with filler after each, and its closing
    paragraph of filler."""
    count = len(FILLER)
    used = 0

    def filler(n: int) -> str:
        nonlocal used
        picked = [FILLER[(report.offset + used + i) % count] for i in range(n)]
        used += n
        return " ".join(picked)

    found = [report.title]
    for heading, written in report.sections:
        found.append(heading)
        found += [f"{text} {filler(FILLER_AFTER)}" for text in written]
        found.append(filler(FILLER_CLOSING))
    return found


def blocks(report: Report) -> list[list[str]]:
    """The report as ``create_agreement_document`` blocks (the title goes apart)."""
    headings = {h for h, _ in report.sections}
    return [["h" if p in headings else "p", p] for p in paragraphs(report)[1:]]


def citations(report: Report) -> list[tuple[str, str]]:
    """Each citation in document order: the bracket with the space before it, exactly as
    the body holds it, and its source."""
    return [
        (m.group(0), m.group(1).strip()) for p in paragraphs(report) for m in CITATION.finditer(p)
    ]
