"""Checkpoints on LibreOffice documents, read through the format's library (odfpy).

A text document is checked paragraph by paragraph with its style, a spreadsheet cell by
its value *and* its formula (a total typed as a number shows the same value and is not a
formula), a presentation slide by its title and layout. Each evaluator governs the file it
reads (``file:/home/user/...``), so it is re-checked at the end of the episode and the
side-effect diff knows the task may change that file.

A document written by another program (a script that writes ODF, a format converter) is
told apart by the generator the file records (:func:`saved_by_libreoffice`).
"""

from __future__ import annotations

import math
import re
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents.odf import (
    DocumentUnreadable,
    cells,
    generator,
    normalise_formula,
    paragraphs,
    slides,
)
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


@evaluator(governs=_path_keys)
def document_paragraph(path: str, text: str, style: str = "", *, env: DesktopDevice) -> EvalResult:
    """The text document has a paragraph (or heading) with exactly this text, in this
    paragraph style.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/report.odt".
        text: The paragraph's whole text (surrounding spaces ignored).
        style: The paragraph style's name as Writer shows it ("Heading 1", "Body Text");
            empty for any style.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        found = paragraphs(target)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    same_text = [p for p in found if p.text.strip() == text.strip()]
    if not same_text:
        return EvalResult(success=False, message=f"{path} has no paragraph {text!r}")
    if style and not any(p.style == style for p in same_text):
        styles = ", ".join(sorted({p.style for p in same_text}))
        return EvalResult(
            success=False, message=f"{text!r} in {path} has the style {styles}, not {style}"
        )
    return EvalResult(success=True, message=f"{path} has {text!r}" + (f" as {style}" * bool(style)))


def _same_value(found: float | None, shown: str, expected: float | str) -> bool:
    if isinstance(expected, str):
        return shown.strip() == expected.strip()
    return found is not None and math.isclose(found, float(expected), abs_tol=1e-9)


@evaluator(governs=_path_keys)
def spreadsheet_cell(
    path: str,
    cell: str,
    value: float | str,
    formula: str = "",
    sheet: str = "",
    *,
    env: DesktopDevice,
) -> EvalResult:
    """The spreadsheet's cell holds the value and, if given, was computed by the formula.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/budget.ods".
        cell: The cell's address, e.g. "B4".
        value: The number (or text) it must show.
        formula: The formula it must hold, as typed in Calc ("=SUM(B1:B3)"); spaces, case
            and the argument separator do not matter. Empty: any content with that value.
        sheet: The sheet's name; the first sheet when empty.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        table = cells(target, sheet)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    address = cell.strip().upper()
    found = table.get(address)
    if found is None:
        return EvalResult(success=False, message=f"{address} of {path} is empty")
    if not _same_value(found.value, found.text, value):
        return EvalResult(success=False, message=f"{address} of {path} shows {found.text!r}")
    if formula and found.formula != normalise_formula(formula):
        held = found.formula or "a constant"
        return EvalResult(
            success=False, message=f"{address} of {path} holds {held}, not the formula {formula}"
        )
    return EvalResult(success=True, message=f"{address} of {path} shows {found.text}")


# Functions that compute the same conditional result a spreadsheet user might reach for
# instead of the one the reference types: an instruction that asks for "a formula giving
# the total of the Travel expenses" accepts =SUMIFS(...), =SUMPRODUCT(...) or
# =SUMIF(...)/COUNTIF(...) as well as =SUMIF(...); the value is checked either way. What
# stays out is a typed number and cells added one by one (=D3+D10).
EQUIVALENT_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "SUMIF": ("SUMIF", "SUMIFS", "SUMPRODUCT", "DSUM"),
    "AVERAGEIF": ("AVERAGEIF", "AVERAGEIFS", "DAVERAGE", "SUMIF", "SUMIFS", "SUMPRODUCT"),
    "COUNTIF": ("COUNTIF", "COUNTIFS", "SUMPRODUCT", "DCOUNT", "DCOUNTA"),
}


def calls_any(formula: str, functions: tuple[str, ...]) -> bool:
    """Whether ``formula`` calls one of ``functions`` (a whole function name: SUMIF is not
    found in SUMIFS, nor in a sheet or range named MYSUMIF)."""
    names = "|".join(re.escape(f) for f in functions)
    return re.search(rf"(?<![A-Z0-9_.])(?:{names})\s*\(", formula.upper()) is not None


@evaluator(governs=_path_keys)
def spreadsheet_formula(
    path: str, cell: str, value: float, uses: str, *, env: DesktopDevice
) -> EvalResult:
    """The spreadsheet's cell holds this value, computed by a formula that calls the
    function ``uses`` or one that computes the same (:data:`EQUIVALENT_FUNCTIONS`), with
    any ranges and criteria: ``=SUMIF(B:B;"Food";D:D)``, ``=SUMIF(B2:B15;B4;D2:D15)`` and
    ``=SUMIFS(D:D;B:B;"Food")`` are all a conditional total. A number typed in, or a
    formula that adds the cells one by one, does not count.

    Args:
        path: The spreadsheet as the agent sees it, e.g. "~/Documents/expenses.ods".
        cell: The cell's address, e.g. "G1".
        value: The number the formula must give (compared to 1e-6).
        uses: The function the formula must call, e.g. "SUMIF".
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        found = cells(target).get(cell.upper())
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if found is None:
        return EvalResult(success=False, message=f"{cell} of {path} is empty")
    if not found.formula:
        return EvalResult(
            success=False, message=f"{cell} of {path} holds a constant, not a formula"
        )
    wanted = uses.upper()
    functions = EQUIVALENT_FUNCTIONS.get(wanted, (wanted, f"{wanted}S"))
    if not calls_any(found.formula, functions):
        return EvalResult(
            success=False,
            message=f"{cell} of {path} holds {found.formula}, which does not use {wanted}"
            f" or an equivalent ({', '.join(f for f in functions if f != wanted)})",
        )
    if found.value is None or not math.isclose(found.value, value, abs_tol=1e-6):
        return EvalResult(
            success=False, message=f"{cell} of {path} gives {found.text!r}, not {value:g}"
        )
    return EvalResult(success=True, message=f"{cell} of {path} is {found.formula} = {value:g}")


@evaluator(governs=_path_keys)
def presentation_slide(
    path: str, number: int, title: str, layout: str = "", count: int = 0, *, env: DesktopDevice
) -> EvalResult:
    """Slide ``number`` of the presentation has this title (and layout, and the
    presentation this many slides, when given).

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/pitch.odp".
        number: The slide's position, from 1.
        title: The text of its title.
        layout: Its layout as Impress names it ("Title Slide", "Title, Content", "Title
            Only"); empty for any.
        count: How many slides the presentation must have; 0 for any.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        found = slides(target)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if count and len(found) != count:
        return EvalResult(success=False, message=f"{path} has {len(found)} slides, not {count}")
    if number > len(found):
        return EvalResult(success=False, message=f"{path} has no slide {number}")
    slide = found[number - 1]
    if slide.title.strip() != title.strip():
        return EvalResult(
            success=False, message=f"slide {number} of {path} is titled {slide.title!r}"
        )
    if layout and slide.layout != layout:
        return EvalResult(
            success=False, message=f"slide {number} of {path} has the layout {slide.layout!r}"
        )
    return EvalResult(success=True, message=f"slide {number} of {path} is {title!r}")


@evaluator(governs=_path_keys)
def saved_by_libreoffice(path: str, env: DesktopDevice) -> EvalResult:
    """The document was last saved by LibreOffice (its own record of the program that
    wrote it), not produced by a script or converter.

    Args:
        path: The document as the agent sees it.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        made_by = generator(target)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if made_by.startswith("LibreOffice/"):
        return EvalResult(success=True, message=f"{path} was saved by LibreOffice")
    return EvalResult(
        success=False, message=f"{path} was written by {made_by or 'an unknown program'}"
    )
