"""The normal forms every reader writes its values in, so that a value read from one
format compares equal to the same value read from another: A1 column letters, lengths in
millimetres, formulas as Calc's input line shows them, a conditional style's look, and
slide layouts in LibreOffice's words.
"""

from __future__ import annotations

import re

# Placeholder classes of a slide -> the layout's name in LibreOffice's Layouts panel.
LAYOUTS: dict[tuple[str, ...], str] = {
    (): "Blank Slide",
    ("title", "subtitle"): "Title Slide",
    ("title", "outline"): "Title, Content",
    ("title",): "Title Only",
    ("title", "outline", "outline"): "Title and 2 Content",
    ("subtitle",): "Centered Text",
}


def layout_name(classes: tuple[str, ...]) -> str:
    """The Layouts panel's name for a slide whose placeholders are ``classes``."""
    return LAYOUTS.get(classes, ", ".join(classes))


def column_letters(index: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def mm(value: float, unit: str = "mm") -> float:
    """A length in ``unit`` ("mm", "cm", "in", "pt", "emu", "twip") as millimetres."""
    per_mm = {"mm": 1.0, "cm": 0.1, "in": 1 / 25.4, "pt": 72 / 25.4}
    per_mm |= {"emu": 36000.0, "twip": 1440 / 25.4, "pc": 6 / 25.4}
    return round(value / per_mm[unit], 1)


def normalise_formula(formula: str) -> str:
    """A formula as Calc's input line shows it, whatever form it was stored in.

    ODF stores ``of:=SUM([.A1:.A3])``; Calc shows ``=SUM(A1:A3)``. Case, spaces and the
    argument separator (";" or ",") are not the agent's choice of formula, so they go.
    """
    text = re.sub(r"^[a-z]+:", "", formula.strip())
    text = re.sub(r"\[([^\]]*)\]", lambda m: _reference(m.group(1)), text)
    text = re.sub(r"_xl(fn|ws)\.", "", text)  # Excel's marks of newer functions
    text = text.replace(" ", "").replace(",", ";").upper()
    return text if text.startswith("=") else "=" + text


def _reference(inside: str) -> str:
    """An ODF reference's inside as A1 text, absolute marks kept: ``.A1:.$A$3`` is
    ``A1:$A$3``, ``$Data.B2`` is ``Data!B2`` (Excel's and Calc's input-line form)."""
    sheet = ""
    ends = []
    for end in inside.split(":"):
        name, _, cell = end.rpartition(".")
        name = name.lstrip("$").strip("'")
        sheet = sheet or name
        ends.append(cell)
    return (f"{sheet}!" if sheet else "") + ":".join(ends)


def describe_look(fill: str, font: str, bold: bool) -> str:
    """The normalised words for a conditional style's look ("fill #ffc7ce, bold")."""
    parts = []
    if fill and fill != "transparent":
        parts.append(f"fill #{fill.lstrip('#')[-6:].lower()}")
    if font:
        parts.append(f"font #{font.lstrip('#')[-6:].lower()}")
    if bold:
        parts.append("bold")
    return ", ".join(parts)
