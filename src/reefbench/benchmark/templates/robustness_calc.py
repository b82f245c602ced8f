"""reef-v2's robustness family: a claims workbook left as a colleague kept it
(:data:`CALC_FILTERED_TOTAL`, listed with :mod:`.robustness`).

It opens on last year's sheet. On the 2026 sheet a formula in F1 must add up every claim
dated in 2026, and the sheet is not a clean table: two rows are hidden by hand (no filter
button; only the skipped row numbers show it), one of them a December 2025 claim filed on
the 2026 sheet, which the total must leave out; one amount was stored as text (left-aligned:
SUM skips it); and three more claims follow a blank row, where Calc's AutoSum and Ctrl+Down
stop. Each trap alone changes the total by a whole claim, so each near miss fails:
the range stopping at the blank row, the 2025 claim counted, the text amount skipped,
only the visible rows (SUBTOTAL 109), the 2025 sheet, a typed number.
"""

from __future__ import annotations

import random

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import odd_states as od
from reefbench.benchmark.templates.calc import go_to, open_in_calc, save_in_place
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_evaluators as ce
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
CLAIM_HEADER = ["Date", "Employee", "Category", "Amount", "Total"]
CATEGORIES = ["Travel", "Meals", "Hotel", "Supplies"]
STAFF = ["Okafor", "Lind", "Tanaka", "Costa", "Weber", "Novak"]
FIRST_BLOCK, AFTER_BLANK = 10, 3


def _amount(rng: random.Random) -> str:
    return f"{rng.randrange(12, 640)}.{rng.choice(['00', '20', '45', '60', '85'])}"


def _claim(rng: random.Random, day: str) -> list[str]:
    return [day, rng.choice(STAFF), rng.choice(CATEGORIES), _amount(rng)]


def _table(rows: list[list[str]]) -> str:
    return "\n".join("|".join(row) for row in rows)


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


def claims_record(seed: int, path: str) -> dict[str, object]:
    """The 2026 sheet's claims (``date|employee|category|amount`` lines below the header,
    a blank row as ``|||``, a text amount with a leading apostrophe) and the 2025 sheet's,
    with the sheet rows (as Calc numbers them, the header row 1) of the traps:
    ``misfiled`` (the hidden December 2025 claim), ``hidden`` (both hidden rows, "5,6"),
    ``text`` (the amount stored as text), ``blank`` (the blank row), ``last`` (the last
    claim's row)."""
    rng = random.Random(f"claims:{seed}")
    days = [f"2026-{1 + k // 4:02d}-{3 + (k % 4) * 6:02d}" for k in range(FIRST_BLOCK)]
    rows = [_claim(rng, day) for day in days]
    misfiled = rng.randint(3, 6)  # index into rows: sheet row misfiled + 2
    rows.insert(misfiled, _claim(rng, f"2025-12-{rng.randint(18, 30)}"))
    text = rng.choice([k for k in range(1, len(rows)) if abs(k - misfiled) > 1])
    rows[text][3] = "'" + rows[text][3]
    later = [_claim(rng, f"2026-{4 + k:02d}-{rng.randint(2, 26):02d}") for k in range(AFTER_BLANK)]
    claims = [*rows, ["", "", "", ""], *later]
    buddy = misfiled + 1 if rng.random() < 0.5 else misfiled - 1  # hidden beside it
    previous = [_claim(rng, f"2025-{1 + k:02d}-{rng.randint(2, 26):02d}") for k in range(12)]
    return {
        "path": path,
        "current": _table(claims),
        "previous": _table(previous),
        "misfiled": misfiled + 2,
        "hidden": ",".join(str(k + 2) for k in sorted([misfiled, buddy])),
        "text": text + 2,
        "blank": len(rows) + 2,
        "last": len(claims) + 1,
    }


CLAIM_RECORDS = [
    claims_record(1, "~/Documents/expense-claims.ods"),
    claims_record(2, "~/Documents/team-claims.ods"),
    claims_record(3, "~/Documents/claims-register.ods"),
    claims_record(4, "~/Documents/staff-expenses.ods"),
    claims_record(5, "~/Documents/reimbursements.ods"),
]


def amount_of(row: list[str]) -> float:
    return float(row[3].lstrip("'"))


def claims_total(current: str) -> float:
    """Every claim dated in 2026, wherever it is on the sheet."""
    return round(sum(amount_of(r) for r in _rows(current) if r[0].startswith("2026")), 2)


def claims_setup(**v: object) -> list[ActionStep]:
    sheets = {
        "2026": [CLAIM_HEADER, *_rows(str(v["current"]))],
        "2025": [CLAIM_HEADER, *_rows(str(v["previous"]))],
    }
    hidden = [int(k) for k in str(v["hidden"]).split(",")]
    action = od.create_hidden_rows_workbook(
        path=v["path"], sheets=sheets, active="2025", hidden={"2026": hidden}
    )
    return [ActionStep(env=D, action=action)]


def claims_checkpoints(**v: object) -> list[Evaluator]:
    """The instruction asks for a formula: a typed total does not count (playtest K)."""
    path = str(v["path"])
    return [
        ce.formula_gives(path=path, cell="F1", value=claims_total(str(v["current"])), sheet="2026"),
        oe.saved_by_libreoffice(path=path),
    ]


def _total_on(v: dict[str, object], formula: str, sheet_first: bool = True) -> list[ActionCall]:
    """Open the workbook, go to the 2026 sheet (the first tab: Ctrl+Page Up from 2025) unless
    told not to, type ``formula`` into F1, save."""
    return [
        *open_in_calc(str(v["path"])),
        *([call(D, "hotkey", keys=["ctrl", "pageup"])] if sheet_first else []),
        *go_to("F1"),
        call(D, "write_text", text=formula + "\n"),
        *save_in_place(),
    ]


def _right(v: dict[str, object], span: str) -> str:
    """The sum over ``span`` less the 2025 claim, plus the text amount's value."""
    return f"=SUM({span})-D{v['misfiled']}+VALUE(D{v['text']})"


def claims_solution(**v: object) -> list[ActionCall]:
    return _total_on(v, _right(v, f"D2:D{v['last']}"))


def claims_whole_column(**v: object) -> list[ActionCall]:
    """The whole column added (its header is text, which SUM skips)."""
    return _total_on(v, _right(v, "D:D"))


def claims_stops_at_blank(**v: object) -> list[ActionCall]:
    """Near miss: the range ends at the blank row (where AutoSum and Ctrl+Down stop)."""
    return _total_on(v, _right(v, f"D2:D{int(str(v['blank'])) - 1}"))


def claims_misfiled(**v: object) -> list[ActionCall]:
    """Near miss: the December 2025 claim (a hidden row) counted with 2026's."""
    return _total_on(v, f"=SUM(D2:D{v['last']})+VALUE(D{v['text']})")


def claims_text_skipped(**v: object) -> list[ActionCall]:
    """Near miss: a plain SUM, which skips the amount stored as text."""
    return _total_on(v, f"=SUM(D2:D{v['last']})-D{v['misfiled']}")


def claims_visible(**v: object) -> list[ActionCall]:
    """Near miss: only the visible rows (SUBTOTAL 109 leaves out rows hidden by hand)."""
    return _total_on(v, f"=SUBTOTAL(109;D2:D{v['last']})")


def claims_wrong_sheet(**v: object) -> list[ActionCall]:
    """Near miss: the total written on the sheet the workbook opened on (2025)."""
    return _total_on(v, _right(v, f"D2:D{v['last']}"), sheet_first=False)


def claims_typed(**v: object) -> list[ActionCall]:
    """Near miss: the right total typed as a number, where a formula was asked for."""
    return _total_on(v, f"{claims_total(str(v['current'])):.2f}")


CALC_FILTERED_TOTAL = SubTask(
    id="desktop.calc_filtered_total",
    description=(
        "Finance needs this year's expense claims total from {path}: the claims dated in "
        "2026. On its 2026 sheet, put a formula in cell F1 (beside the Total heading) that "
        "adds up the amounts of all claims dated in 2026, and only those, and save the "
        "workbook in its own format."
    ),
    attributes={
        "path": "desktop_file",
        "current": "str",
        "previous": "str",
        "misfiled": "int",
        "hidden": "str",
        "text": "int",
        "blank": "int",
        "last": "int",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=["organise a spreadsheet on the computer"],
    value_records=CLAIM_RECORDS,
    setup_generator=claims_setup,
    evaluator_generator=claims_checkpoints,
    solution_generator=claims_solution,
    alternative_generators=[claims_whole_column],
    output_generator=saved_document,
    near_misses=[
        NearMiss("stops the range at the blank row", solution=claims_stops_at_blank),
        NearMiss("counts the 2025 claim filed on the 2026 sheet", solution=claims_misfiled),
        NearMiss("skips the amount stored as text (plain SUM)", solution=claims_text_skipped),
        NearMiss("totals only the visible rows (SUBTOTAL 109)", solution=claims_visible),
        NearMiss("writes the total on the 2025 sheet it opened on", solution=claims_wrong_sheet),
        NearMiss("types the right total instead of a formula", solution=claims_typed),
    ],
)
