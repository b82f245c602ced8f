"""Office documents read through odfpy: paragraph styles, cell formulas and values, slide
titles and layouts, and the office checkpoints on documents built with the same library
(each with the wrong document that must fail it)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("odf")

from odf import draw, presentation, style, table, text
from odf.namespaces import PRESENTATIONNS
from odf.opendocument import (
    OpenDocumentPresentation,
    OpenDocumentSpreadsheet,
    OpenDocumentText,
)

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop.documents import (
    DocumentUnreadable,
    cells,
    column_letters,
    generator,
    normalise_formula,
    paragraphs,
    slides,
    write_spreadsheet,
)
from reefbench.envs.desktop.office import registry_modifications, write_office_profile


def _writer(path: Path, heading_style: str = "Heading_20_1") -> Path:
    """A heading in ``heading_style`` (by its ODF name) and a paragraph formatted directly
    (an automatic style based on "Text body", as Writer saves a bolded paragraph)."""
    doc = OpenDocumentText()
    for name, shown in (("Heading_20_1", "Heading 1"), ("Text_20_body", "Body Text")):
        doc.styles.addElement(style.Style(name=name, displayname=shown, family="paragraph"))
    doc.styles.addElement(style.Style(name="Standard", family="paragraph"))
    doc.automaticstyles.addElement(
        style.Style(name="P1", family="paragraph", parentstylename="Text_20_body")
    )
    doc.text.addElement(text.H(outlinelevel=1, stylename=heading_style, text="Quarterly report"))
    doc.text.addElement(text.P(stylename="P1", text="Sales grew in May."))
    doc.save(str(path))
    return path


def _calc(path: Path, total: str = "of:=SUM([.A1:.A3])") -> Path:
    """12, 7, 30 in A1:A3 and their total (49) in A4, as a formula or as a typed value."""
    doc = OpenDocumentSpreadsheet()
    sheet = table.Table(name="Budget")
    for number in (12, 7, 30):
        row = table.TableRow()
        cell = table.TableCell(valuetype="float", value=number)
        cell.addElement(text.P(text=str(number)))
        row.addElement(cell)
        sheet.addElement(row)
    row = table.TableRow()
    cell = table.TableCell(valuetype="float", value=49, **({"formula": total} if total else {}))
    cell.addElement(text.P(text="49"))
    row.addElement(cell)
    sheet.addElement(row)
    doc.spreadsheet.addElement(sheet)
    doc.save(str(path))
    return path


def _impress(path: Path, titles: tuple[str, ...] = ("Roadmap 2027",)) -> Path:
    """One slide per title, each with a title and a subtitle placeholder (Title Slide)."""
    doc = OpenDocumentPresentation()
    layout = style.PresentationPageLayout(name="AL1T0")
    layout.addElement(
        presentation.Placeholder(object="title", x="2cm", y="1cm", width="20cm", height="3cm")
    )
    layout.addElement(
        presentation.Placeholder(object="subtitle", x="2cm", y="5cm", width="20cm", height="9cm")
    )
    doc.styles.addElement(layout)
    page_layout = style.PageLayout(name="PM1")
    doc.automaticstyles.addElement(page_layout)
    master = style.MasterPage(name="Default", pagelayoutname=page_layout)
    doc.masterstyles.addElement(master)
    for number, title in enumerate(titles, 1):
        page = draw.Page(
            name=f"Slide {number}", masterpagename=master, presentationpagelayoutname="AL1T0"
        )
        for kind, words in (("title", title), ("subtitle", "")):
            frame = draw.Frame(width="20cm", height="3cm", x="2cm", y="1cm")
            frame.setAttrNS(PRESENTATIONNS, "class", kind)
            box = draw.TextBox()
            if words:
                box.addElement(text.P(text=words))
            frame.addElement(box)
            page.addElement(frame)
        doc.presentation.addElement(page)
    doc.save(str(path))
    return path


def _env(home: Path) -> DesktopEnvironment:
    """A desktop (not started) whose sandbox paths lead into ``home``: all the office
    checkpoints use of it."""
    env = DesktopEnvironment("desktop")

    def host_path(path: str) -> Path:
        return home / path.removeprefix("~/").removeprefix("/home/user/")

    env.session.host_path = host_path  # type: ignore[method-assign]
    return env


# ------------------------------------------------------------------- readers
def test_paragraphs_resolve_styles_to_the_names_writer_shows(tmp_path: Path) -> None:
    found = paragraphs(_writer(tmp_path / "report.odt"))
    assert [(p.text, p.style, p.heading_level) for p in found] == [
        ("Quarterly report", "Heading 1", 1),
        ("Sales grew in May.", "Body Text", 0),
    ]


def test_cells_hold_values_and_formulas_as_calc_shows_them(tmp_path: Path) -> None:
    found = cells(_calc(tmp_path / "budget.ods"))
    assert found["A1"].value == 12 and found["A1"].formula == ""
    assert found["A4"].value == 49 and found["A4"].formula == "=SUM(A1:A3)"
    assert cells(_calc(tmp_path / "typed.ods", total=""))["A4"].formula == ""
    with pytest.raises(DocumentUnreadable, match="no sheet 'Other'"):
        cells(tmp_path / "budget.ods", sheet="Other")


def test_formulas_and_columns_are_normalised() -> None:
    assert normalise_formula("of:=SUM([.A1:.A3])") == "=SUM(A1:A3)"
    assert normalise_formula("=sum( a1 : a3 )") == "=SUM(A1:A3)"
    assert normalise_formula("of:=AVERAGE([.B1];[.B2])") == normalise_formula("=AVERAGE(B1,B2)")
    assert [column_letters(k) for k in (0, 25, 26, 701)] == ["A", "Z", "AA", "ZZ"]


def test_slides_have_titles_and_layouts(tmp_path: Path) -> None:
    found = slides(_impress(tmp_path / "pitch.odp", ("Roadmap 2027", "Budget")))
    assert [(s.title, s.layout) for s in found] == [
        ("Roadmap 2027", "Title Slide"),
        ("Budget", "Title Slide"),
    ]


def test_a_document_of_another_kind_or_no_document_is_unreadable(tmp_path: Path) -> None:
    _calc(tmp_path / "budget.ods")
    with pytest.raises(DocumentUnreadable, match="not a text"):
        paragraphs(tmp_path / "budget.ods")
    (tmp_path / "notes.odt").write_text("plain text saved with an .odt name\n")
    with pytest.raises(DocumentUnreadable, match="not an OpenDocument"):
        paragraphs(tmp_path / "notes.odt")
    assert generator(tmp_path / "budget.ods").lower().startswith("odfpy/")


# ---------------------------------------------------------------- checkpoints
def test_paragraph_checkpoint_needs_the_text_in_the_style(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _writer(tmp_path / "report.odt")
    assert (
        oe.document_paragraph(path="~/report.odt", text="Quarterly report", style="Heading 1")
        .evaluate(env)
        .success
    )
    assert (
        oe.document_paragraph(path="~/report.odt", text="Sales grew in May.", style="Body Text")
        .evaluate(env)
        .success
    )
    _writer(tmp_path / "plain.odt", heading_style="Standard")
    wrong = oe.document_paragraph(path="~/plain.odt", text="Quarterly report", style="Heading 1")
    result = wrong.evaluate(env)
    assert not result.success and "Default Paragraph Style" in result.message
    assert not oe.document_paragraph(path="~/report.odt", text="Quarterly").evaluate(env).success
    assert not oe.document_paragraph(path="~/missing.odt", text="x").evaluate(env).success


def test_cell_checkpoint_needs_the_formula_and_its_value(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _calc(tmp_path / "budget.ods")
    _calc(tmp_path / "typed.ods", total="")
    _calc(tmp_path / "other.ods", total="of:=SUM([.A1:.A2])")
    good = oe.spreadsheet_cell(path="~/budget.ods", cell="a4", value=49, formula="=SUM(A1:A3)")
    assert good.evaluate(env).success
    typed = oe.spreadsheet_cell(path="~/typed.ods", cell="A4", value=49, formula="=SUM(A1:A3)")
    result = typed.evaluate(env)
    assert not result.success and "a constant" in result.message
    assert (
        not oe.spreadsheet_cell(path="~/other.ods", cell="A4", value=49, formula="=SUM(A1:A3)")
        .evaluate(env)
        .success
    )
    assert not oe.spreadsheet_cell(path="~/budget.ods", cell="A4", value=50).evaluate(env).success
    assert not oe.spreadsheet_cell(path="~/budget.ods", cell="A5", value=49).evaluate(env).success
    assert oe.spreadsheet_cell(path="~/budget.ods", cell="A4", value=49).state_keys() == frozenset(
        {"file:/home/user/budget.ods"}
    )


def test_a_written_spreadsheet_holds_numbers_as_numbers(tmp_path: Path) -> None:
    path = tmp_path / "expenses.ods"
    write_spreadsheet(path, [["Category", "Amount"], ["Food", "12"], ["Travel", "7.5"]])
    found = cells(path)
    assert found["A2"].text == "Food" and found["A2"].value is None
    assert found["B2"].value == 12 and found["B3"].value == 7.5
    assert generator(path).lower().startswith("odfpy")


def _formula_cell(path: Path, formula: str, value: float) -> None:
    doc = OpenDocumentSpreadsheet()
    sheet = table.Table(name="Sheet1")
    row = table.TableRow()
    extra = {"formula": formula} if formula else {}
    cell = table.TableCell(valuetype="float", value=value, **extra)
    cell.addElement(text.P(text=f"{value:g}"))
    row.addElement(cell)
    sheet.addElement(row)
    doc.spreadsheet.addElement(sheet)
    doc.save(str(path))


def test_formula_checkpoint_needs_the_function_and_the_value(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _formula_cell(tmp_path / "good.ods", 'of:=SUMIF([.B2:.B13];"Food";[.D2:.D13])', 119)
    _formula_cell(tmp_path / "typed.ods", "", 119)
    _formula_cell(tmp_path / "added.ods", "of:=[.D2]+[.D9]", 119)
    _formula_cell(tmp_path / "wrong.ods", 'of:=SUMIF([.B2:.B13];"Rent";[.D2:.D13])', 167)

    def check(name: str) -> tuple[bool, str]:
        got = oe.spreadsheet_formula(path=f"~/{name}", cell="a1", value=119, uses="sumif")
        result = got.evaluate(env)
        return result.success, result.message

    assert check("good.ods")[0]
    assert not check("typed.ods")[0] and "a constant" in check("typed.ods")[1]
    assert not check("added.ods")[0] and "does not use SUMIF" in check("added.ods")[1]
    assert not check("wrong.ods")[0] and "not 119" in check("wrong.ods")[1]
    assert not check("missing.ods")[0]


def test_formula_checkpoint_takes_what_computes_the_same(tmp_path: Path) -> None:
    """A playtest found =SUMIFS(...) refused because "SUMIF(" is not in "SUMIFS(": the
    instruction asks for a formula giving the total, not for one function."""
    env = _env(tmp_path)
    written = {
        "sumifs.ods": 'of:=SUMIFS([.D2:.D13];[.B2:.B13];"Food")',
        "product.ods": 'of:=SUMPRODUCT(([.B2:.B13]="Food")*[.D2:.D13])',
        "ratio.ods": 'of:=SUMIF([.B2:.B13];"Food";[.D2:.D13])/COUNTIF([.B2:.B13];"Food")',
        "named.ods": "of:=MYSUMIF([.D2])",
    }
    for name, formula in written.items():
        _formula_cell(tmp_path / name, formula, 119)

    def check(name: str, uses: str) -> bool:
        got = oe.spreadsheet_formula(path=f"~/{name}", cell="A1", value=119, uses=uses)
        return got.evaluate(env).success

    assert check("sumifs.ods", "SUMIF") and check("product.ods", "SUMIF")
    assert check("ratio.ods", "AVERAGEIF") and check("sumifs.ods", "AVERAGEIF")
    assert not check("named.ods", "SUMIF")  # a name ending in SUMIF is not SUMIF
    assert not check("ratio.ods", "COUNTA")  # another function's family is not taken


def test_slide_checkpoint_needs_the_title_layout_and_count(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _impress(tmp_path / "pitch.odp")
    _impress(tmp_path / "two.odp", ("Agenda", "Roadmap 2027"))
    assert (
        oe.presentation_slide(
            path="~/pitch.odp", number=1, title="Roadmap 2027", layout="Title Slide", count=1
        )
        .evaluate(env)
        .success
    )
    assert (
        not oe.presentation_slide(
            path="~/pitch.odp", number=1, title="Roadmap 2027", layout="Title, Content"
        )
        .evaluate(env)
        .success
    )
    assert (
        not oe.presentation_slide(path="~/two.odp", number=1, title="Roadmap 2027")
        .evaluate(env)
        .success
    )
    assert (
        not oe.presentation_slide(path="~/two.odp", number=2, title="Roadmap 2027", count=1)
        .evaluate(env)
        .success
    )
    assert (
        not oe.presentation_slide(path="~/pitch.odp", number=2, title="Roadmap 2027")
        .evaluate(env)
        .success
    )


def test_a_document_written_by_a_script_is_not_saved_by_libreoffice(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _calc(tmp_path / "budget.ods")
    result = oe.saved_by_libreoffice(path="~/budget.ods").evaluate(env)
    assert not result.success and "ODFPY" in result.message


# -------------------------------------------------------------------- profile
def test_the_prepared_profile_switches_off_first_start_and_autosave(tmp_path: Path) -> None:
    from xml.etree import ElementTree

    profile = write_office_profile(tmp_path)
    root = ElementTree.fromstring((profile / "registrymodifications.xcu").read_text())
    oor = "{http://openoffice.org/2001/registry}"
    props = {
        (item.get(f"{oor}path"), prop.get(f"{oor}name")): prop.findtext("value")
        for item in root
        for prop in item
    }
    assert props[("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay")] == "false"
    assert props[("/org.openoffice.Office.Recovery/AutoSave", "Enabled")] == "false"
    assert props[("/org.openoffice.Office.Common/Misc", "UseLocking")] == "false"
    assert registry_modifications().count("<item ") == len(props)
